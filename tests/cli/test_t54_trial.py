"""A trial user's findings on a Maven project (t54), checked on javac-compiled fixtures:

* `--brief` (spec §7.6, "bare rows, no headers, no doc") is honoured by signature, show, resolve, imports, search,
  samples and source: the brief text is the full text's rows, without its headers, footers, provenance and `next:`
  (as usages/callers --brief);
* a jar's class that the workspace's source directories (a project's src/main/java) lack is a jar without
  sources: the note never reads `java lacks <file>` as if the project should hold the library's file; a class
  directory's source directory lacking its file is still named;
* an annotation's enum constant, class literal and nested annotation print as Java source names them
  (`Api.Status.STABLE`, not the binary `Api$Status.STABLE`); the oracle is the class file's InnerClasses attribute
  (javap -v), which names what is nested; quoted text and element names keep their `$`;
* a member miss with no near name hints at `jdx members <type>` instead of stopping at `not found`.
"""

from __future__ import annotations

import json
import re
import shutil

import pytest

from tests.fixtures import jdktool
from tests.fixtures.javac import javac_jar

pytestmark = pytest.mark.soak  # a trial's regression family with its own graph builds: the soak runs it whole (.ci/run)

SOURCES = {
    "tf/Api.java": "package tf;\n"
                   "public class Api {\n"
                   "  public enum Status { STABLE, EXPERIMENTAL }\n"
                   "  public static class Inner { }\n"
                   "  @java.lang.annotation.Retention(java.lang.annotation.RetentionPolicy.RUNTIME)\n"
                   "  public @interface Tag { Status status(); Class<?> type() default Object.class;\n"
                   "    String note() default \"\"; Status fallback() default Status.EXPERIMENTAL; }\n"
                   "}\n",
    "tf/User.java": "package tf;\n"
                    "@Api.Tag(status = Api.Status.STABLE, type = Api.Inner[].class, note = \"a$b\")\n"
                    "public class User {\n"
                    "  public static int add(int a, int b) { return a + b; }\n"
                    "  public static long add(long a, long b) { return a + b; }\n"
                    "  public int run() {\n"
                    "    return add(1, 2);\n"
                    "  }\n"
                    "}\n",
    "tf/Caller.java": "package tf;\n"
                      "public class Caller {\n"
                      "  int go() {\n"
                      "    return User.add(3, 4);\n"
                      "  }\n"
                      "}\n",
}


@pytest.fixture(scope="module")
def fx(tmp_path_factory):
    if shutil.which("javac") is None:
        pytest.skip("javac is not installed")
    root = tmp_path_factory.mktemp("t54")
    jar, classes = javac_jar(root, SOURCES, "tf", "tf.jar", debug=True)
    return {"jar": jar, "classes": classes, "src": root / "src", "root": root}


def _ws(fx) -> list[str]:
    return ["--no-jdk", "--jars", str(fx["jar"]), "--src", str(fx["src"])]


def _rows(full: list[str]) -> list[str]:
    """The rows of a listing whose rows are indented under a header, with footer lines after them."""
    return [line[2:] for line in full if line.startswith("  ")]


def _card_rows(full: list[str]) -> list[str]:
    """show: the type's line and the card's rows; not its facts line (package · artifact · sources), hints, doc
    or `next:`."""
    return [full[0]] + [line for line in full[2:] if line.startswith("  ") and not line.startswith(("  doc:", "  + "))]


def _unnumbered(full: list[str]) -> list[str]:
    """samples: the blocks without the header, each site's number gone and the block one indent less."""
    return [re.sub(r"^  \d+\. ", "", line) if re.match(r"^  \d+\. ", line) else line[3:] for line in full[1:]]


BRIEF = [
    (["signature", "tf.User#add"], _rows),
    (["show", "tf.User"], _card_rows),
    (["resolve", "User"], lambda full: full[:-1]),
    (["imports", "User"], lambda full: [line for line in full if not line.startswith("  // from ")]),
    (["search", "tf.*"], lambda full: full[:-1]),
    (["samples", "tf.User#add"], _unnumbered),
    (["source", "tf.User", "--lines", "3:5"], lambda full: full[-3:]),
]


@pytest.mark.parametrize("args,rows", BRIEF, ids=[a[0] for a, _ in BRIEF])
def test_brief_is_the_bare_rows(fx, run_jdx, args, rows):
    full = run_jdx(*_ws(fx), *args)
    assert full.code == 0, full.err
    brief = run_jdx(*_ws(fx), *args, "--brief")
    assert brief.code == 0, brief.err
    want = rows(full.out.splitlines())
    assert want and len(want) < len(full.out.splitlines()), full.out
    assert brief.out.splitlines() == want, (full.out, brief.out)


def test_brief_of_an_empty_samples_answer_says_none(fx, run_jdx):
    full = run_jdx(*_ws(fx), "samples", "tf.Caller#go")
    assert full.code == 0 and "no call sites" in full.out, full.out
    brief = run_jdx(*_ws(fx), "samples", "tf.Caller#go", "--brief")
    assert brief.code == 0 and brief.out == "(none)\n", brief.out


def test_brief_doc_of_a_class_without_javadoc_says_so(fx, run_jdx):
    full = run_jdx(*_ws(fx), "doc", "tf.Caller")
    assert full.code == 0 and "  (no javadoc)" in full.out.splitlines(), full.out
    brief = run_jdx(*_ws(fx), "doc", "tf.Caller", "--brief")
    assert brief.code == 0 and brief.out.splitlines()[0] == "(no javadoc)", brief.out  # (its warning follows)


def test_a_jars_class_the_source_directories_lack_is_a_jar_without_sources(fx, run_jdx, tmp_path):
    project = tmp_path / "src" / "main" / "java"  # a project's own sources, holding none of the jar's files
    (project / "app").mkdir(parents=True)
    (project / "app" / "Main.java").write_text("package app;\npublic class Main { }\n")
    env = json.loads(run_jdx("--no-jdk", "--jars", str(fx["jar"]), "--src", str(project), "source", "tf.User",
                             "--json").out)
    assert env["ok"], env
    header = env["result"]["header"]
    assert "(no sources jar)" in header and "java lacks" not in header, header
    no_sources = [w["message"] for w in env["warnings"] if w["code"] == "NO_SOURCES"]
    assert no_sources and all("lacks" not in m and "no sources" in m for m in no_sources), env["warnings"]


def test_a_class_directorys_source_directory_lacking_its_file_is_named(fx, run_jdx, tmp_path):
    src = tmp_path / "sources"
    (src / "tf").mkdir(parents=True)
    (src / "tf" / "Api.java").write_text(SOURCES["tf/Api.java"])  # the directory's sources, without User.java
    env = json.loads(run_jdx("--no-jdk", "--jars", str(fx["classes"]), "--src", str(src), "source", "tf.User",
                             "--json").out)
    assert env["ok"], env
    assert "sources lacks tf/User.java" in env["result"]["header"], env["result"]["header"]


def _inner_classes(fx, cls: str) -> dict[str, str]:
    """The class file's InnerClasses attribute (javap -v): binary name -> the name source writes."""
    out = jdktool.run(["javap", "-v", "-cp", str(fx["classes"]), cls], check=True, capture_output=True,
                      text=True).stdout
    pairs = re.findall(r"//\s*(\w+)=class (\S+) of class (\S+)", out)
    return {inner.replace("/", "."): f"{outer.replace('/', '.')}.{simple}" for simple, inner, outer in pairs}


def test_annotation_values_name_nested_types_as_source_does(fx, run_jdx):
    nested = _inner_classes(fx, "tf.User")
    assert nested["tf.Api$Status"] == "tf.Api.Status" and nested["tf.Api$Tag"] == "tf.Api.Tag", nested
    stored = json.loads(run_jdx(*_ws(fx), "show", "tf.User", "--json").out)["result"]["annotations"]
    assert len(stored) == 1 and "tf.Api$Status.STABLE" in stored[0], stored  # the graph keeps the binary names
    want = stored[0]
    for binary, source in sorted(nested.items(), key=lambda kv: -len(kv[0])):
        want = want.replace(binary, source)
    want = want.replace('"a.b"', '"a$b"')  # (quoted text is no name)
    assert want == '@tf.Api.Tag(status=tf.Api.Status.STABLE, type=tf.Api.Inner[].class, note="a$b")', want
    shown = run_jdx(*_ws(fx), "show", "tf.User")
    assert shown.code == 0 and f"  {want}" in shown.out.splitlines(), shown.out
    default = run_jdx(*_ws(fx), "signature", "tf.Api$Tag#fallback")
    assert default.code == 0 and "default tf.Api.Status.EXPERIMENTAL" in default.out, default.out


def test_source_spelling_keeps_what_is_no_nesting():
    from jdx.graph_schema.annotation_text import source_spelling

    assert source_spelling('@q.A$B(e=q.E$K.A$B, s="x$y", c=\'$\', k=$Proxy1.class, w=Foo$$Bar.X, n=@q.N$M(1.5f), '
                           'a$b=q.T$U[][].class)') == \
        '@q.A.B(e=q.E.K.A$B, s="x$y", c=\'$\', k=$Proxy1.class, w=Foo$$Bar.X, n=@q.N.M(1.5f), a$b=q.T.U[][].class)'


def test_a_member_miss_without_near_names_hints_at_the_members(fx, run_jdx):
    miss = run_jdx(*_ws(fx), "signature", "tf.User#nonexistent")
    assert miss.code == 1, miss
    assert "hint: jdx members tf.User lists what it has" in miss.out + miss.err, miss
    near = run_jdx(*_ws(fx), "signature", "tf.User#ad")  # near names: those, no hint
    assert near.code == 1 and "tf.User#add" in near.out + near.err and "hint:" not in near.out + near.err, near
