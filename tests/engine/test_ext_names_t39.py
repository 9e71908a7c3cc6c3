"""T39 trial (Netty buffer + transport without netty-common): names `imports` and `resolve` missed or mis-suggested.
An external type (the workspace's code references it, its artifact is absent) is found by its simple name as by its
qualified one: `imports` answers its statement with the note that its artifact is missing, a type-taking command says
it is external; several of one simple name are ambiguous, a workspace type of the name wins. `imports <bareName>` finds
public static members as `resolve` does, and its did-you-mean offers only names an import can name. Oracles: javap
of the fixture (the classes the client references, the members' modifiers) and javac compiling the statements."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from jdx.engine.imports import imports
from jdx.engine.resolve import resolve_type
from jdx.errors import AmbiguousError, NotFoundError
from tests.fixtures import jdktool
from tests.fixtures.javac import javac_jar, javap
from tests.service import JdxService, Options

pytestmark = pytest.mark.soak  # a trial's regression family with its own graph builds: the soak runs it whole (.ci/run)

SOURCES = {  # xl is the library left off the workspace; xc the client jarred into it
    "xl/Util.java": "package xl;\npublic class Util { public static boolean release(Object o) { return true; } }",
    "xl/a/Token.java": "package xl.a;\npublic class Token { }",
    "xl/b/Token.java": "package xl.b;\npublic class Token { }",
    "xl/Outer.java": "package xl;\npublic class Outer { public static class Inner { } }",
    "xl/Clash.java": "package xl;\npublic class Clash { }",
    "xc/Clash.java": "package xc;\npublic class Clash { }",
    "xc/Client.java": """package xc;
public class Client {
    public boolean run(Object o) { return xl.Util.release(o); }
    public Object[] made() {
        return new Object[] { new xl.a.Token(), new xl.b.Token(), new xl.Outer.Inner(), new xl.Clash() };
    }
}""",
    "xc/Bufs.java": """package xc;
public class Bufs {
    public static Object wrapped(int n) { return n; }
    public static Object wrapped(String s) { return s; }
    public static int shared() { return 0; }
    public int instanceOnly() { return 0; }
}""",
    "xc/More.java": "package xc;\npublic class More { public static final int shared = 1; }",
    "xc/Hidden.java": """package xc;
class Hidden {
    public static int hiddenOnly() { return 0; }
    public static class Pub { public static int deepOnly() { return 0; } }
}""",
    "xc/BufferSpined.java": "package xc;\nclass BufferSpined { }",
    "xc/BufferSpinex.java": "package xc;\npublic class BufferSpinex { }",
}


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> tuple[Path, Path, Path]:
    if shutil.which("javac") is None or shutil.which("javap") is None:
        pytest.skip("javac/javap are not installed")
    root = tmp_path_factory.mktemp("ext_names_t39")
    jar, classes = javac_jar(root, SOURCES, "xc", "client.jar")
    return root, jar, classes


@pytest.fixture(scope="module")
def svc(built, jdx_home):
    service = JdxService(Options(jars=[str(built[1])], jdk=False, cache_dir=str(jdx_home / "cache")))
    yield service
    service.close()


def _referenced(classes: Path) -> set[str]:
    """The library classes the client names (javap -v: its constant pool's `Class xl/...` entries), dotted."""
    text = javap(classes, "xc.Client", "-v")
    return {m.replace("/", ".") for m in re.findall(r"= Class\s+#\d+\s+// (xl/[\w/$]+)", text)}


def _compiles(built, statement: str, use: str, classpath: Path) -> subprocess.CompletedProcess:
    """javac of a class of package `q` (another package than xc and xl) using `statement`, against `classpath`."""
    root = built[0]
    src = root / "use" / re.sub(r"\W", "_", f"{statement}{classpath.name}")
    (src / "q").mkdir(parents=True, exist_ok=True)
    (src / "q" / "Use.java").write_text(f"package q;\n{statement}\nclass Use {{ Object use() {{ return {use}; }} }}\n")
    return jdktool.run(["javac", "-cp", str(classpath), "-d", str(src / "out"), str(src / "q" / "Use.java")],
                       capture_output=True, text=True)


def _entry(svc, text: str) -> dict:
    answer, warnings = imports(svc.store(), text)
    assert len(answer["imports"]) == 1 and warnings == [], answer
    return answer["imports"][0]


def test_the_fixture_references_the_library_it_lacks(built):
    assert _referenced(built[2]) >= {"xl.Util", "xl.a.Token", "xl.b.Token", "xl.Outer$Inner", "xl.Clash"}


@pytest.mark.parametrize("text", ["Util", "xl.Util"])
def test_imports_of_an_external_type_by_simple_or_qualified_name(svc, built, text):
    entry = _entry(svc, text)
    assert entry["statement"] == "import xl.Util;" and entry["ref"] == "xl.Util" and entry["external"]
    assert entry["note"] == ("xl.Util is external: the workspace's code references it, but its artifact is not in the "
                             "workspace; code using it compiles only with that artifact on the classpath")
    # the note's claim: the statement compiles with the library's classes, not against the workspace's jar alone
    assert _compiles(built, entry["statement"], "Util.release(null)", built[2]).returncode == 0
    assert _compiles(built, entry["statement"], "Util.release(null)", built[1]).returncode != 0


@pytest.mark.parametrize("text", ["Inner", "Outer.Inner", "Outer$Inner"])
def test_imports_of_a_nested_external_type(svc, built, text):
    entry = _entry(svc, text)
    assert (entry["ref"], entry["statement"]) == ("xl.Outer$Inner", "import xl.Outer.Inner;")
    assert _compiles(built, entry["statement"], "new Inner()", built[2]).returncode == 0


def test_several_external_types_of_one_simple_name_are_ambiguous(svc, built):
    with pytest.raises(AmbiguousError) as exc:
        imports(svc.store(), "Token")
    assert [c["ref"] for c in exc.value.candidates] == ["xl.a.Token", "xl.b.Token"]
    assert all(c["external"] and c["artifact"] == "(external)" for c in exc.value.candidates)
    assert exc.value.exit_code == 2
    for c in exc.value.candidates:  # each candidate's ref answers
        assert _entry(svc, c["ref"])["statement"] == f"import {c['ref']};"


def test_a_workspace_type_wins_over_an_external_one(svc):
    entry = _entry(svc, "Clash")
    assert (entry["ref"], entry["artifact"]) == ("xc.Clash", "client.jar") and "external" not in entry


def test_type_commands_say_a_simple_name_is_external(svc):
    with pytest.raises(NotFoundError) as exc:
        resolve_type(svc.store(), "Util")
    assert "(xl.Util is external:" in exc.value.message and exc.value.hint.startswith("jdx usages")
    assert [c["ref"] for c in exc.value.candidates] == ["xl.Util"]
    with pytest.raises(AmbiguousError):
        resolve_type(svc.store(), "Token")
    assert resolve_type(svc.store(), "Clash")["fqn"] == "xc.Clash"


def test_resolve_of_an_external_simple_name_lists_it(svc):
    """`jdx resolve Util` (search_nav.resolve, through external_symbols.external_type): as the qualified name."""
    from jdx.engine.search_nav import resolve

    with pytest.raises(NotFoundError) as exc:
        resolve(svc.store(), "Util", 10)
    assert "(xl.Util is external:" in exc.value.message
    assert exc.value.candidates == [{"ref": "xl.Util", "kind": "unknown", "artifact": "(external)", "external": True}]
    with pytest.raises(AmbiguousError):
        resolve(svc.store(), "Token", 10)


def test_imports_of_a_bare_static_member_name(svc, built):
    assert "public static java.lang.Object wrapped(int);" in javap(built[2], "xc.Bufs")
    entry = _entry(svc, "wrapped")
    assert entry["statement"] == "import static xc.Bufs.wrapped;" and entry["note"] == "imports all 2 static overloads"
    assert _compiles(built, entry["statement"], "wrapped(1)", built[1]).returncode == 0


def test_a_bare_static_member_name_of_several_types_is_ambiguous(svc, built):
    assert "public static int shared();" in javap(built[2], "xc.Bufs")
    assert "public static final int shared;" in javap(built[2], "xc.More")
    with pytest.raises(AmbiguousError) as exc:
        imports(svc.store(), "shared")
    assert {(c["ref"], c["kind"]) for c in exc.value.candidates} == {("xc.Bufs#shared", "method"),
                                                                     ("xc.More#shared", "field")}
    for c in exc.value.candidates:
        assert _entry(svc, c["ref"])["statement"] == f"import static {c['ref'].replace('#', '.')};"


@pytest.mark.parametrize("name", ["hiddenOnly", "deepOnly", "instanceOnly"])
def test_no_import_names_a_static_of_a_closed_type_or_an_instance_member(svc, built, name):
    """javac rejects `import static xc.Hidden.hiddenOnly;` from another package: Hidden is package-private."""
    with pytest.raises(NotFoundError):
        imports(svc.store(), name)
    assert _compiles(built, "import static xc.Hidden.hiddenOnly;", "hiddenOnly()", built[1]).returncode != 0


def test_did_you_mean_of_imports_offers_only_importable_names(svc, built):
    assert javap(built[2], "xc.BufferSpined").splitlines()[1].startswith("class xc.BufferSpined")  # package-private
    with pytest.raises(NotFoundError) as exc:
        imports(svc.store(), "BufferSpine")
    refs = [c["ref"] for c in exc.value.candidates]
    assert "xc.BufferSpinex" in refs and "xc.BufferSpined" not in refs


@pytest.fixture(scope="module")
def jdk_svc(built, jdx_home):
    service = JdxService(Options(jars=[str(built[1])], cache_dir=str(jdx_home / "cache")))
    yield service
    service.close()


def test_with_the_jdk_a_static_member_and_no_package_private_jdk_name(jdk_svc, built):
    """`imports emptyList` is Collections' (javac compiles it); `SpinedBufer`'s did-you-mean is not the JDK's
    package-private `java.util.stream.SpinedBuffer` (javap: no `public`)."""
    entry = _entry(jdk_svc, "emptyList")
    assert entry["statement"] == "import static java.util.Collections.emptyList;"
    assert _compiles(built, entry["statement"], "emptyList()", built[1]).returncode == 0
    assert "public" not in jdktool.run(["javap", "java.util.stream.SpinedBuffer"], capture_output=True,
                                       text=True).stdout.splitlines()[1].split("class")[0]
    with pytest.raises(NotFoundError) as exc:
        imports(jdk_svc.store(), "SpinedBufer")
    assert "java.util.stream.SpinedBuffer" not in {c["ref"] for c in exc.value.candidates}
