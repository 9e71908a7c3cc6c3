"""`jdx imports A B C` defects trial agents found: the text was not Java a file could hold (notes, `from` lines and
name headers between the statements); a type another package cannot name (not public, or nested in a class that
is not) printed as a plain import, as was a second import of one simple name (javac rejects both); "imports all N
static overloads" of overloads some of which are protected; `--json` saying `warnings: []` of a partial answer; an
ambiguous name left ambiguous when one candidate is in the package the other names are in; a Kotlin class ranked
before a Java one of its name.

Oracle: javac compiles a class of another package under the printed text (the whole output of several names, and
each block); fixtures compiled by javac (kotlinc for the ranking, soak) at test time, without the JDK (fast)."""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess

import pytest

from jdx.engine.imports import imports
from jdx.engine.imports_block import imports_block
from jdx.errors import AmbiguousError
from jdx.render.imports import imports as render
from tests.fixtures import jdktool
from tests.fixtures.javac import compiled_jar, jar_service, javac_jar
from tests.service import JdxService, Options

SOURCES = {
    "pa/a/Hidden.java": "package pa.a;\nclass Hidden { }\n",
    "pa/a/Shell.java": "package pa.a;\nclass Shell { public static class In { } }\n",
    "pa/a/Mixed.java": "package pa.a;\npublic class Mixed {\n"
                       "  public static int pick(int a) { return a; }\n"
                       "  public static int pick(String s) { return 0; }\n"
                       "  protected static int pick(long a) { return 1; }\n"
                       "  static int pick(double a) { return 2; }\n"
                       "  protected static int guard(int a) { return a; }\n}\n",
    "pa/a/Base.java": "package pa.a;\nclass Base { public static int make() { return 1; } }\n",
    "pa/a/Kid.java": "package pa.a;\npublic class Kid extends Base { }\n",
    "pa/b/List.java": "package pa.b;\npublic class List { }\n",
    "pa/b/Gadget.java": "package pa.b;\npublic class Gadget { }\n",
    "pa/c/List.java": "package pa.c;\npublic class List { }\n",
    "pa/c/Widget.java": "package pa.c;\npublic class Widget { }\n",
    "pa/c/Tool.java": "package pa.c;\npublic class Tool { public static int twice(int a) { return 2 * a; } }\n",
    # commons-exec's DefaultExecutor.builder() and ExecuteWatchdog.builder(): one static name, two classes
    "pa/b/Exec.java": "package pa.b;\npublic class Exec { public static Exec builder() { return null; } }\n",
    "pa/c/Dog.java": "package pa.c;\npublic class Dog { public static Dog builder() { return null; } }\n",
}


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    root, jar, _classes = compiled_jar(tmp_path_factory, "imports_pasteable", SOURCES, "pa", "pa.jar")
    return root, jar


@pytest.fixture(scope="module")
def store(built, jdx_home):
    with jar_service(built[1], jdx_home) as svc:
        yield svc.store()


def _javac(built, lines: list[str], uses: str = "") -> subprocess.CompletedProcess:
    """Compile `lines` as they are, under `package q;`, then a class whose method body is `uses`."""
    root, jar = built
    name = "U" + hashlib.sha1(repr((lines, uses)).encode()).hexdigest()[:10]
    src = root / "use" / name / "q"
    src.mkdir(parents=True, exist_ok=True)
    (src / f"{name}.java").write_text("package q;\n" + "\n".join(lines)
                                      + f"\nclass {name} {{ void use() {{ {uses} }} }}\n")
    return jdktool.run(["javac", "-cp", str(jar), "-d", str(root / "use" / name / "out"), str(src / f"{name}.java")],
                       capture_output=True, text=True)


def _rejected(built, statement: str) -> str:
    javac = _javac(built, [statement])
    assert javac.returncode != 0, statement
    return javac.stderr


# --- 1. the text of several names compiles as it is -----------------------------------------------------------------

NAMES = ["Widget", "Mixed#pick", "Nope", "Hidden", "pa.b.List", "pa.c.List", "String", "Mixed#guard"]


@pytest.mark.parametrize("brief", [False, True])
def test_the_text_of_several_names_is_java_a_file_holds_as_it_is(store, built, brief):
    result, _warnings, code = imports_block(store, NAMES)
    assert code == 1
    text = render(result, brief=brief)
    assert all(line.startswith(("import ", "// ")) or not line for line in text), text
    javac = _javac(built, text, "new Widget(); new List(); int x = pick(1) + pick(\"s\");")
    assert javac.returncode == 0, (text, javac.stderr)
    said = "\n".join(text)
    assert "// Nope: not found: Nope" in said if brief else "//   not found: Nope" in said
    assert "// import pa.a.Hidden;  // not public: only code in package pa.a can use it" in text  # access kept
    if not brief:  # the information is all there, commented
        assert "// Mixed#pick:" in text and "//     from pa.jar" in text


def test_the_cli_prints_the_same_pasteable_text(built, jdx_env):
    from tests.serve_support import cli, cli_env

    with cli_env(jdx_env):
        run = cli(["-q", "--no-jdk", "--jars", str(built[1]), "imports", *NAMES])
    assert run.code == 1, run
    lines = run.out.splitlines()  # its warning lines too, as comments (`// ⚠ IMPORT_UNRESOLVED: …`)
    assert any(line.startswith("// ⚠ IMPORT_UNRESOLVED: ") for line in lines), run.out
    javac = _javac(built, lines, "new Widget(); new List();")
    assert javac.returncode == 0, (run.out, javac.stderr)


# --- 2. what another package cannot import is commented out with why ------------------------------------------------

@pytest.mark.parametrize("name, statement, why", [
    ("Hidden", "import pa.a.Hidden;", "not public: only code in package pa.a can use it"),
    ("Shell.In", "import pa.a.Shell.In;",
     "inside pa.a.Shell, which is not public: only code in package pa.a can use it"),
    ("Base#make", "import static pa.a.Base.make;", "pa.a.Base is not public: only code in package pa.a can use it; "
                                                    "import it through a public subclass: import static pa.a.Kid.make;"),
    ("Mixed#guard", "import static pa.a.Mixed.guard;",
     "protected: only code in package pa.a and subclasses of pa.a.Mixed can use it"),
])
def test_an_import_another_package_cannot_compile_is_commented_out_with_why(store, built, name, statement, why):
    result, _warnings, code = imports_block(store, ["Widget", name])
    assert code == 0
    assert sorted(result["statements"]) == [f"// {statement}  // {why}", "import pa.c.Widget;"], result
    assert _rejected(built, statement)  # javac: "is not public in pa.a; cannot be accessed from outside package"
    javac = _javac(built, result["statements"], "new Widget();")
    assert javac.returncode == 0, javac.stderr
    alone = render(imports(store, name)[0])  # one name's text too (it printed the statement plainly)
    assert alone[0] == f"// {statement}  // {why}", alone
    assert _javac(built, alone, "").returncode == 0


def test_overloads_some_not_public_say_how_many_an_import_brings(store, built):
    answer, _ = imports(store, "Mixed#pick")
    note = answer["imports"][0]["note"]
    assert note.startswith("4 static overloads of which 2 public (usable anywhere); 1 protected: pick(long) (only "
                           "code in package pa.a and subclasses of pa.a.Mixed can use them); 1 package-private: "
                           "pick(double) (only code in package pa.a can use them)"), note
    assert "restricted" not in answer["imports"][0]
    ok = _javac(built, ["import static pa.a.Mixed.pick;"], "int x = pick(1) + pick(\"s\");")
    assert ok.returncode == 0, ok.stderr
    refused = _javac(built, ["import static pa.a.Mixed.pick;"], "int x = pick(1L);")  # the protected one: not
    assert refused.returncode != 0 and "pick(long)" in refused.stderr, refused.stderr


# --- 3. one simple name imported twice ------------------------------------------------------------------------------

def test_a_second_import_of_one_simple_name_is_commented_out_the_first_asked_kept(store, built):
    result, _warnings, code = imports_block(store, ["pa.c.List", "Widget", "pa.b.List"])
    assert code == 0
    assert result["statements"] == [
        "// import pa.b.List;  // clashes with import pa.c.List; (one simple name): write pa.b.List qualified",
        "import pa.c.List;", "import pa.c.Widget;"]
    assert result["clashes"] == [["import pa.c.List;", "import pa.b.List;"]]
    assert "already defined" in _rejected(built, "import pa.c.List;\nimport pa.b.List;")
    javac = _javac(built, result["statements"], "new List(); new pa.b.List(); new Widget();")
    assert javac.returncode == 0, javac.stderr


def test_one_static_name_from_two_classes_says_a_use_both_fit_is_ambiguous(store, built):
    """javac takes both static imports of `builder`, and rejects `builder()` (both fit): the second says so and how
    to write the call; the qualified call it names compiles under the block."""
    result, _warnings, code = imports_block(store, ["Exec#builder", "Dog#builder"])
    assert code == 0
    assert result["statements"] == [  # each says so: javac rejects a use of either
        "import static pa.b.Exec.builder;  // builder is imported from pa.c.Dog too: a use both fit is ambiguous "
        "(javac); write Exec.builder there",
        "import static pa.c.Dog.builder;  // builder is imported from pa.b.Exec too: a use both fit is ambiguous "
        "(javac); write Dog.builder there"], result["statements"]
    assert "reference to builder is ambiguous" in _rejected(built, "\n".join(result["statements"]) + "\nclass X { "
                                                                   "Object o = builder(); }")
    javac = _javac(built, result["statements"], "Object o = pa.c.Dog.builder(); Object p = pa.b.Exec.builder();")
    assert javac.returncode == 0, javac.stderr
    assert "builder:" not in render(result)  # (the note is the block's; no section repeats the statements)


# --- 4. a partial answer says so ------------------------------------------------------------------------------------

def test_json_of_a_partial_answer_warns_of_each_name_without_an_import(built, jdx_env):
    from tests.serve_support import cli, cli_env

    with cli_env(jdx_env):
        run = cli(["-q", "--no-jdk", "--jars", str(built[1]), "imports", "Widget", "Nope", "Hidden.Nope", "--json"])
    env = json.loads(run.out)
    assert run.code == 1 and env["ok"], run
    assert [w["code"] for w in env["warnings"]] == ["IMPORT_UNRESOLVED", "IMPORT_UNRESOLVED"], env["warnings"]
    assert env["warnings"][0]["message"].startswith("Nope: not found: Nope"), env["warnings"]
    assert env["result"]["statements"] == ["import pa.c.Widget;"]


# --- 5. an ambiguity the other names settle -------------------------------------------------------------------------

def test_an_ambiguous_name_takes_the_candidate_in_the_package_of_the_other_names(store, built):
    with pytest.raises(AmbiguousError):
        imports(store, "List")
    result, _warnings, code = imports_block(store, ["Widget", "List", "Tool#twice"])
    assert code == 0
    assert result["statements"] == ["import static pa.c.Tool.twice;", "import pa.c.List;", "import pa.c.Widget;"]
    listed = next(n for n in result["names"] if n["name"] == "List")
    assert [c["ref"] for c in listed["candidates"]] == ["pa.b.List", "pa.c.List"]
    assert "the only one in package pa.c, where other names asked with it are" in listed["imports"][0]["note"]
    javac = _javac(built, render(result), "new Widget(); new List(); twice(1);")
    assert javac.returncode == 0, javac.stderr


@pytest.mark.parametrize("names", [["Mixed#pick", "List"], ["Widget", "Gadget", "List"]])
def test_an_ambiguity_no_one_package_settles_stays_ambiguous(store, names):
    result, _warnings, code = imports_block(store, names)
    assert code == 2
    assert next(n for n in result["names"] if n["name"] == "List")["error"]["code"] == "AMBIGUOUS"


# --- a Kotlin class after a Java one of its name --------------------------------------------------------------------

@pytest.mark.soak  # kotlinc compiles its fixture (~10-30 s cold)
def test_a_java_class_ranks_before_a_kotlin_one_of_its_name(tmp_path, jdx_home):
    from tests.kotlin.corpus import kotlinc_jar

    if shutil.which("javac") is None:
        pytest.skip("javac is not installed")
    kotlin = kotlinc_jar("imports-rank", {"Span.kt": "package aa.time\n\nclass Span(val ms: Long)\n"})
    java, _ = javac_jar(tmp_path, {"zz/time/Span.java": "package zz.time;\npublic class Span { }\n"}, "zz", "zz.jar")
    service = JdxService(Options(jars=[str(kotlin), str(java)], jdk=False, cache_dir=str(jdx_home / "cache")))
    try:
        with pytest.raises(AmbiguousError) as many:
            imports(service.store(), "Span")
    finally:
        service.close()
    assert [c["ref"] for c in many.value.candidates] == ["zz.time.Span", "aa.time.Span"]
