"""`imports` defects two trials found (google-java-format + guava on JDK 17; commons-text, commons-lang3,
commons-collections4, jose4j): an import of a JDK package no module exports said nothing of `--add-exports`; a static
member of a package-private class was offered as if any package could import it; a private static member was printed
as an import; an ambiguity hid the JDK internals it dropped, and did not mark them, nor a deprecated candidate;
`Type#member` did not apply the "only importable" rule `Type` does; `imports String` lost the java.lang note.

Oracle: javac compiles a class in another package that uses the printed statement (or rejects a refused one, and
one jdx says compiles only somewhere); fixtures compiled by javac at test time."""

from __future__ import annotations

import hashlib
import json
import subprocess

import pytest

from jdx.engine.imports import imports
from jdx.errors import AmbiguousError, UsageError
from tests.fixtures import jdktool
from tests.fixtures.javac import compiled_jar, jar_service

pytestmark = pytest.mark.soak  # a trial's regression family with its own builds: the soak runs it whole (.ci/run)

SOURCES = {
    # jose4j's KeyPairUtil: a package-private abstract class whose public static methods its public subclasses inherit
    "ia/keys/KeyUtil.java": "package ia.keys;\nabstract class KeyUtil {\n"
                            "  public static String pemEncode(String k) { return k; }\n"
                            "  static String local(String k) { return k; }\n}\n",
    "ia/keys/RsaUtil.java": "package ia.keys;\npublic class RsaUtil extends KeyUtil { }\n",
    "ia/keys/EcUtil.java": "package ia.keys;\npublic class EcUtil extends KeyUtil { }\n",
    "ia/keys/Hiding.java": "package ia.keys;\npublic class Hiding extends KeyUtil {\n"
                           "  public static String pemEncode(String k) { return \"\"; }\n}\n",
    "ia/keys/Consts.java": "package ia.keys;\ninterface Consts { int LIMIT = 3; }\n",
    "ia/keys/Impl.java": "package ia.keys;\npublic class Impl implements Consts { }\n",
    # commons-lang3's StringUtils.PAD_LIMIT, commons-collections4's AbstractMapBag.map
    "ia/Strs.java": "package ia;\npublic class Strs {\n  private static final int PAD_LIMIT = 8192;\n"
                    "  private transient int map;\n  static int pkg = 1;\n"
                    "  public static int open() { return 0; }\n}\n",
    # a public Pair#of beside the JDK's internal ones
    "ia/Pair.java": "package ia;\npublic class Pair {\n"
                    "  public static Pair of(Object a, Object b) { return null; }\n}\n",
    # commons-text's StringEscapeUtils beside commons-lang3's deprecated copy
    "ia/a/Escaper.java": "package ia.a;\npublic class Escaper { }\n",
    "ia/b/Escaper.java": "package ia.b;\n@Deprecated public class Escaper { }\n",
}


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    root, jar, _classes = compiled_jar(tmp_path_factory, "imports_access", SOURCES, "ia", "ia.jar")
    return root, jar


@pytest.fixture(scope="module")
def store(built, jdx_home):
    with jar_service(built[1], jdx_home, jdk=True) as svc:
        yield svc.store()


def _javac(built, statement: str, use: str = "null", package: str = "q",
           flags: tuple[str, ...] = ()) -> subprocess.CompletedProcess:
    """Compile one class of `package` with `statement` above it and `use` as an expression in it."""
    root, jar = built
    name = "U" + hashlib.sha1(repr((statement, use, package, flags)).encode()).hexdigest()[:10]
    src = root / "use" / name
    (src / package.replace(".", "/")).mkdir(parents=True, exist_ok=True)
    (src / package.replace(".", "/") / f"{name}.java").write_text(
        f"package {package};\n{statement}\nclass {name} {{ Object use() {{ return {use}; }} }}\n")
    return jdktool.run(["javac", *flags, "-cp", str(jar), "-d", str(src / "out"), *map(str, src.rglob("*.java"))],
                       capture_output=True, text=True)


def _entry(store, text: str) -> dict:
    answer, _warnings = imports(store, text)
    return answer["imports"][0]


# --- 1. a JDK package its module exports to no one ------------------------------------------------------------------

@pytest.mark.parametrize("text, use, module", [
    ("JCTree", "(JCTree) null", "jdk.compiler"),
    ("jdk.internal.misc.Unsafe", "(Unsafe) null", "java.base"),
    ("com.sun.tools.javac.util.Position#NOPOS", "NOPOS", "jdk.compiler"),
])
def test_an_unexported_jdk_package_says_the_add_exports_that_compiles_it(store, built, text, use, module):
    entry = _entry(store, text)
    package = entry["ref"].split("#", 1)[0].rsplit(".", 1)[0]
    assert entry["add_exports"] == f"{module}/{package}=ALL-UNNAMED", entry
    assert f"package {package} is not exported by module {module}" in entry["note"]
    assert f"--add-exports {entry['add_exports']}" in entry["note"]
    plain = _javac(built, entry["statement"], use)
    assert plain.returncode != 0 and "is not visible" in plain.stderr, plain.stderr
    flagged = _javac(built, entry["statement"], use, flags=("--add-exports", entry["add_exports"]))
    assert flagged.returncode == 0, flagged.stderr


def test_an_exported_package_has_no_add_exports(store):
    assert "add_exports" not in _entry(store, "java.util.List")


# --- 2. a static member of a class another package cannot name ------------------------------------------------------

def test_a_static_of_a_package_private_class_says_so_and_the_public_subclasses(store, built):
    entry = _entry(store, "ia.keys.KeyUtil#pemEncode")
    assert entry["statement"] == "import static ia.keys.KeyUtil.pemEncode;"
    assert "ia.keys.KeyUtil is not public: only code in package ia.keys can use it" in entry["note"], entry
    assert entry["through"] == ["ia.keys.EcUtil", "ia.keys.RsaUtil"]  # Hiding declares its own pemEncode
    assert "import it through a public subclass: import static ia.keys.EcUtil.pemEncode;" in entry["note"]
    rejected = _javac(built, entry["statement"], 'pemEncode("k")')
    assert rejected.returncode != 0 and "is not public in ia.keys" in rejected.stderr, rejected.stderr
    for heir in entry["through"]:
        done = _javac(built, f"import static {heir}.pemEncode;", 'pemEncode("k")')
        assert done.returncode == 0, done.stderr


def test_a_field_of_a_package_private_interface_is_imported_through_an_implementing_class(store, built):
    entry = _entry(store, "ia.keys.Consts#LIMIT")
    assert entry["through"] == ["ia.keys.Impl"], entry
    assert "import it through a public subtype: import static ia.keys.Impl.LIMIT;" in entry["note"]
    assert _javac(built, entry["statement"], "LIMIT").returncode != 0
    assert _javac(built, "import static ia.keys.Impl.LIMIT;", "LIMIT").returncode == 0


def test_a_package_private_static_of_a_package_private_class_names_no_subclass(store):
    entry = _entry(store, "ia.keys.KeyUtil#local")
    assert "through" not in entry and "package-private" in entry["note"], entry


def test_a_public_subclass_imports_it_without_a_note_of_access(store):
    entry = _entry(store, "ia.keys.RsaUtil#pemEncode")
    assert entry["note"] == "inherited from ia.keys.KeyUtil"


# --- 3. a private member ----------------------------------------------------------------------------------------------

def test_a_private_static_member_is_refused(store, built):
    with pytest.raises(UsageError) as refused:
        imports(store, "ia.Strs#PAD_LIMIT")
    assert refused.value.message == ("ia.Strs#PAD_LIMIT is private: no import can name it (only code inside ia.Strs "
                                     "can use it)")
    for package in ("q", "ia"):  # not even from its own package
        rejected = _javac(built, "import static ia.Strs.PAD_LIMIT;", "PAD_LIMIT", package=package)
        assert rejected.returncode != 0, rejected.stderr


def test_a_private_static_member_exits_3(run_jdx, built):
    r = run_jdx("--jars", str(built[1]), "imports", "ia.Strs#PAD_LIMIT")
    assert r.code == 3 and "is private: no import can name it" in r.err, (r.code, r.out, r.err)


def test_a_package_private_static_member_is_printed_with_who_may_use_it(store, built):
    """The documented choice: it compiles in its own package, so the statement is printed with that note."""
    entry = _entry(store, "ia.Strs#pkg")
    assert entry["note"] == "package-private: only code in package ia can use it"
    assert _javac(built, entry["statement"], "pkg", package="ia").returncode == 0
    assert _javac(built, entry["statement"], "pkg", package="q").returncode != 0


def test_a_private_instance_field_says_it_is_private(store, built):
    entry = _entry(store, "ia.Strs#map")
    assert entry["statement"] == "import ia.Strs;"
    assert entry["note"].endswith("; private: only code inside ia.Strs can use it"), entry
    rejected = _javac(built, entry["statement"], "new Strs().map")
    assert rejected.returncode != 0 and "private access" in rejected.stderr, rejected.stderr


# --- 4. ambiguities -------------------------------------------------------------------------------------------------

def test_the_only_importable_type_names_the_others(store, built):
    entry = _entry(store, "ParserFactory")
    assert entry["statement"] == "import org.xml.sax.helpers.ParserFactory;"
    assert "com.sun.tools.javac.parser.ParserFactory (JDK internal)" in entry["note"], entry
    assert _javac(built, entry["statement"]).returncode == 0
    assert _javac(built, "import com.sun.tools.javac.parser.ParserFactory;").returncode != 0


def test_candidates_of_jdk_internals_are_marked(store, built):
    with pytest.raises(AmbiguousError) as many:
        imports(store, "Log")
    candidates = many.value.candidates
    assert candidates and all(c.get("jdk_internal") for c in candidates), candidates
    for c in candidates:  # none of them compiles outside the JDK
        assert _javac(built, f"import {c['ref'].replace('$', '.')};").returncode != 0, c


def test_the_internals_an_ambiguity_drops_are_counted(store, built):
    with pytest.raises(AmbiguousError) as many:
        imports(store, "List")
    refs = [c["ref"] for c in many.value.candidates]
    assert "com.sun.tools.javac.util.List" not in refs
    assert many.value.message.startswith(f"ambiguous: {len(refs)} importable types named List (1 other not "
                                         "importable: com.sun.tools.javac.util.List (JDK internal))"), many.value
    for ref in refs:
        assert _javac(built, f"import {ref};").returncode == 0, ref
    assert _javac(built, "import com.sun.tools.javac.util.List;").returncode != 0


def test_a_member_of_the_only_importable_type_of_its_name_is_imported(store, built):
    from jdx.engine import picked_names

    with picked_names.collecting() as notes:  # (its other namesake a JDK internal: the answer's NAME_PICKED)
        entry = _entry(store, "Pair#of")
    assert entry["statement"] == "import static ia.Pair.of;"
    (note,) = notes
    assert note.startswith("Pair read as ia.Pair, the only type of that name code outside the JDK can use (also "
                           "java.lang.WeakPairMap$Pair, "), note
    assert note.endswith(" more: JDK internals); write the whole name to ask for another"), note
    assert _javac(built, entry["statement"], "of(1, 2)").returncode == 0


def test_a_deprecated_candidate_is_marked_and_comes_last(store, built):
    with pytest.raises(AmbiguousError) as many:
        imports(store, "Escaper")
    assert [(c["ref"], c.get("deprecated", False)) for c in many.value.candidates] == [
        ("ia.a.Escaper", False), ("ia.b.Escaper", True)]
    lint = ("-Xlint:deprecation",)  # javac warns of a use, not of an import (JEP 211)
    warned = _javac(built, "import ia.b.Escaper;", "(Escaper) null", flags=lint)
    assert warned.returncode == 0 and "deprecated" in warned.stderr, warned.stderr
    assert "deprecated" not in _javac(built, "import ia.a.Escaper;", "(Escaper) null", flags=lint).stderr


def test_ambiguity_json_carries_the_marks(run_jdx, built):
    r = run_jdx("--jars", str(built[1]), "imports", "Log", "--json")
    assert r.code == 2 and all(c.get("jdk_internal") for c in json.loads(r.out)["candidates"]), r.out


# --- 5. java.lang ---------------------------------------------------------------------------------------------------

def test_java_lang_keeps_its_note_beside_the_only_importable_rule(store, built):
    entry = _entry(store, "String")
    assert entry["note"].startswith("java.lang is imported implicitly: no import needed"), entry
    assert _javac(built, "", '"no import"').returncode == 0
