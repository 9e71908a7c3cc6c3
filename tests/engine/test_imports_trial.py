"""`imports` and `ls` defects an agent trial found: a static member inherited from a superclass (or a
superinterface's static field) is imported through the subclass, a static interface method is not (JLS §8.4.8,
§9.4.1.1); a non-public static member's statement carries who may use it; a constructor answers its type's import;
`ls pkg.*` of a package without subpackages points at `ls pkg`. Oracle: javac compiles (or rejects) a class in
another package that uses the suggested statement."""

from __future__ import annotations

import subprocess

import pytest

from jdx.engine.imports import imports
from jdx.engine.packages import list_packages
from jdx.errors import NotFoundError, UsageError
from tests.fixtures.javac import compiled_jar, jar_service
from tests.fixtures import jdktool

pytestmark = pytest.mark.soak  # a trial's regression family with its own graph builds: the soak runs it whole (.ci/run)

SOURCES = {
    "p/Hier.java": """package p;
public class Hier {
    public interface Consts {
        int LIMIT = 3;
        static int helper() { return 0; }
    }
    public static class Sub2 implements Consts {
        public static int s() { return 1; }
        public static int F = 2;
        protected static int prot() { return 4; }
        static int pkg() { return 5; }
        private static int hidden() { return 6; }
    }
    public static class Sub3 extends Sub2 { }
}""",
    "p/Imp.java": """package p;
public class Imp {
    public Imp(int x) { }
    private static final int SECRET = 1;
    static int pkgField = 2;
    public static int open() { return SECRET; }
}""",
    "p/Hidden.java": """package p;
class Hidden {
    public static class Pub { public static class Deeper { } }
}""",
}


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    root, jar, _classes = compiled_jar(tmp_path_factory, "imports_trial", SOURCES, "p", "imp.jar")
    return root, jar


@pytest.fixture(scope="module")
def svc(built, jdx_home):
    with jar_service(built[1], jdx_home) as svc:
        yield svc


def _javac(built, uses: dict[str, tuple[str, str]]) -> subprocess.CompletedProcess:
    """Compile classes of package `q` (another package than p): class name -> (import statement, a use of it)."""
    root, jar = built
    src = root / "use" / "_".join(sorted(uses))
    for name, (statement, use) in uses.items():
        (src / "q").mkdir(parents=True, exist_ok=True)
        (src / "q" / f"{name}.java").write_text(
            f"package q;\n{statement}\nclass {name} {{ Object use() {{ return {use}; }} }}\n")
    return jdktool.run(["javac", "-cp", str(jar), "-d", str(src / "out"), *map(str, sorted(src.rglob("*.java")))],
                          capture_output=True, text=True)


def _entry(svc, ref: str) -> dict:
    answer, _warnings = imports(svc.store(), ref)
    assert len(answer["imports"]) == 1, answer
    return answer["imports"][0]

@pytest.mark.soak  # slow: the soak runs it (.ci/run)

def test_inherited_statics_import_through_the_subclass_and_compile(svc, built):
    s, limit, field = _entry(svc, "p.Hier$Sub3#s"), _entry(svc, "p.Hier$Sub3#LIMIT"), _entry(svc, "p.Hier$Sub3#F")
    assert s["statement"] == "import static p.Hier.Sub3.s;"
    assert s["note"] == "inherited from p.Hier$Sub2"
    assert limit["statement"] == "import static p.Hier.Sub3.LIMIT;"
    assert limit["note"] == "inherited from p.Hier$Consts"
    assert field["statement"] == "import static p.Hier.Sub3.F;"
    ctor = _entry(svc, "p.Imp#<init>")
    assert ctor["statement"] == "import p.Imp;"
    assert ctor["note"] == "constructors are not imported: import the type and call new Imp(...)"
    done = _javac(built, {"UseS": (s["statement"], "s()"), "UseLimit": (limit["statement"], "LIMIT"),
                          "UseF": (field["statement"], "F"), "UseNew": (ctor["statement"], "new Imp(1)")})
    assert done.returncode == 0, done.stderr


def test_a_static_interface_method_is_not_inherited(svc, built):
    with pytest.raises(NotFoundError):
        imports(svc.store(), "p.Hier$Sub3#helper")
    done = _javac(built, {"UseHelper": ("import static p.Hier.Sub3.helper;", "helper()")})
    assert done.returncode != 0


def test_a_supertypes_private_static_is_not_inherited(svc):
    with pytest.raises(NotFoundError):
        imports(svc.store(), "p.Hier$Sub3#hidden")


@pytest.mark.parametrize("ref, statement, note", [
    ("p.Imp#pkgField", "import static p.Imp.pkgField;", "package-private: only code in package p can use it"),
    ("p.Hier$Sub3#prot", "import static p.Hier.Sub3.prot;",
     "inherited from p.Hier$Sub2; protected: only code in package p and subclasses of p.Hier$Sub2 can use it"),
])
def test_a_non_public_static_member_says_who_may_use_it(svc, ref, statement, note):
    entry = _entry(svc, ref)
    assert (entry["statement"], entry["note"]) == (statement, note)


def test_a_private_static_member_is_refused_as_javac_rejects_its_import(svc, built):
    with pytest.raises(UsageError) as refused:  # t75: printed as an import before
        imports(svc.store(), "p.Imp#SECRET")
    assert refused.value.message == "p.Imp#SECRET is private: no import can name it (only code inside p.Imp can use it)"
    done = _javac(built, {"UseSecret": ("import static p.Imp.SECRET;", "SECRET")})
    assert done.returncode != 0 and "SECRET" in done.stderr


def test_ls_glob_of_a_package_without_subpackages_suggests_the_package(svc):
    with pytest.raises(NotFoundError) as exc:
        list_packages(svc.store(), "p.*", 1, False, 100)
    assert exc.value.candidates[0] == {"ref": "p", "kind": "package"}
    assert exc.value.hint == "jdx ls p lists its types"


@pytest.mark.parametrize("ref", ["p.Hidden$Pub", "p.Hidden$Pub$Deeper"])
def test_a_public_type_inside_a_package_private_one_says_so(svc, built, ref):
    """javac rejects the import outside package p ("defined in an inaccessible class or interface"): the answer
    carries who may use it, naming the enclosing type that closes it."""
    entry = _entry(svc, ref)
    assert entry["statement"] == f"import {ref.replace('$', '.')};"
    assert entry["note"] == "inside p.Hidden, which is not public: only code in package p can use it"
    compiled = _javac(built, {"UsesHidden": (entry["statement"], "null")})
    assert compiled.returncode != 0 and "inaccessible class or interface" in compiled.stderr
    assert "note" not in _entry(svc, "p.Hier$Sub2")  # public inside public: no note
