"""Trial 27's findings on `source`, `body`, `search` and `show`:

* a decompiled text's line numbers are its own: `source` (whole type, `--lines`, `--around`) says so in text and
  JSON and gives the class file's lines (javap's LineNumberTable, what a stack trace names): the whole file's
  (every class compiled from it), or the `--around` member's; whole-type `body` gives the type's;
* `source <type> --around <member>` of an inherited member says whose member it shows;
* a package glob's `*` runs over dots: `*acme*` matches `fx27.acme.core`;
* `package-info` classes are no search hits;
* `show` of a class the compiler marked ACC_SYNTHETIC (javac 8's access-constructor tag class) says so.

Fixture: `fx27.acme.core.Parser` compiled by javac -g --release 8 at test time (so that the private constructor of a
nested class gets its tag class), bare (decompiled) and with a sibling sources jar. Oracles: javap -l (line tables),
javap -v (class flags), the jar's entries."""

from __future__ import annotations

import json
import re
import shutil
import zipfile

import pytest

from tests.fixtures.javac import javac_jar, javap

pytestmark = pytest.mark.soak  # a trial's regression family with its own graph builds: the soak runs it whole (.ci/run)

PARSER = """package fx27.acme.core;

import java.util.ArrayList;
import java.util.List;

public class Parser {
    private final List<String> parts = new ArrayList<>();

    public Parser parse(String text) {
        for (String p : text.split(",")) {
            parts.add(p.trim());
        }
        return this;
    }

    static Holder make() {
        return new Holder();
    }

    static class Holder {
        private Holder() {
        }
    }

    abstract static class Base<T extends Base<T>> {
        String url;

        @SuppressWarnings("unchecked")
        public T url(String url) {
            this.url = url;
            return (T) this;
        }
    }

    public static class Request extends Base<Request> {
        public int timeout() {
            return 3;
        }
    }
}
"""
PACKAGE_INFO = "@Deprecated\npackage fx27.acme.core;\n"
READER = "package fx27.acme.core;\n\npublic class InfoReader {\n    public int read() {\n        return 1;\n    }\n}\n"
# an anonymous class apart from Parser: javac would take Parser's first one as the tag class
TASKS = """package fx27.acme.core;

public class Tasks {
    public Runnable task(final int n) {
        return new Runnable() {
            public void run() {
                System.out.println(n);
            }
        };
    }
}
"""


@pytest.fixture(scope="module")
def fx(tmp_path_factory):
    if shutil.which("javac") is None:
        pytest.skip("javac is not installed")
    root = tmp_path_factory.mktemp("t27")
    sources = {"fx27/acme/core/Parser.java": PARSER, "fx27/acme/core/package-info.java": PACKAGE_INFO,
               "fx27/acme/core/InfoReader.java": READER, "fx27/acme/core/Tasks.java": TASKS}
    bare, classes = javac_jar(root / "bare", sources, "fx27", "acme-1.0.jar", debug=True, release=8)
    paired, _ = javac_jar(root / "paired", sources, "fx27", "acme-1.0.jar", debug=True, release=8)
    with zipfile.ZipFile(root / "paired" / "acme-1.0-sources.jar", "w") as z:
        for name, text in sources.items():
            z.writestr(name, text)
    names = sorted(p.stem for p in (classes / "fx27/acme/core").glob("Parser*.class"))
    return {"bare": ["--no-jdk", "--jars", str(bare)], "paired": ["--no-jdk", "--jars", str(paired)],
            "jar": bare, "classes": names}


def _json(run_jdx, args, *argv) -> dict:
    r = run_jdx(*argv, *args, "--json")
    assert "Traceback" not in r.out + r.err
    env = json.loads(r.out)
    assert env["ok"], r.out
    return env


def _text(run_jdx, args, *argv) -> list[str]:
    r = run_jdx(*argv, *args)
    assert r.code == 0 and "Traceback" not in r.out + r.err, r.out + r.err
    return r.out.splitlines()


def _lines(javap_text: str) -> list[int]:
    return [int(n) for n in re.findall(r"line (\d+): \d+", javap_text)]


def _method_lines(jar, cls: str, head: str) -> list[int]:
    """The LineNumberTable lines of the method of `cls` whose javap declaration line contains `head`."""
    text = javap(jar, cls, "-l")
    block = text[text.index(head):]
    return _lines(block[:block.index("LocalVariableTable:")])


def _flags(jar, cls: str) -> str:
    return next(ln for ln in javap(jar, cls, "-v").splitlines() if ln.strip().startswith("flags:"))


def _tag_class(fx) -> str:
    """javac's access-constructor tag class (ACC_SYNTHETIC, no members), found by its flags."""
    tags = [c for c in fx["classes"] if "ACC_SYNTHETIC" in _flags(fx["jar"], f"fx27.acme.core.{c}")]
    assert len(tags) == 1, tags
    return tags[0]


def test_whole_source_names_its_line_system_and_the_class_files_lines(fx, run_jdx):
    every = [n for c in fx["classes"] for n in _lines(javap(fx["jar"], f"fx27.acme.core.{c}", "-l"))]
    env = _json(run_jdx, fx["bare"], "source", "fx27.acme.core.Parser")
    assert env["result"]["origin"] == "decompiled"
    src = env["result"]["source"]
    assert src["lines_of"] == "decompiled text" and src["class_file_lines"] == [min(every), max(every)]
    (prov,) = env["provenance"]
    assert prov["lines_of"] == "decompiled text" and prov["class_file_lines"] == [min(every), max(every)]
    text = _text(run_jdx, fx["bare"], "source", "fx27.acme.core.Parser", "--line-numbers")
    assert text[1] == (f"line numbers: of the decompiled text; the class file's are {min(every)}-{max(every)} "
                       "(what stack traces show)")


def test_lines_of_a_decompiled_text_say_so_unasked(fx, run_jdx):
    every = [n for c in fx["classes"] for n in _lines(javap(fx["jar"], f"fx27.acme.core.{c}", "-l"))]
    env = _json(run_jdx, fx["bare"], "source", "fx27.acme.core.Parser", "--lines", "5:9")
    assert env["result"]["source"]["lines_of"] == "decompiled text"
    assert env["result"]["source"]["class_file_lines"] == [min(every), max(every)]
    text = _text(run_jdx, fx["bare"], "source", "fx27.acme.core.Parser", "--lines", "5:9")
    assert text[1].startswith("lines 5-9 of the decompiled text")  # unnumbered: which lines are shown (T83)
    assert "; the class file's are " in text[1]
    # 5-9 are class-file lines too (a stack trace's): the next line says where those are in this text
    assert text[2].startswith("a stack trace's lines 5-9 are decompiled lines ")
    assert len(text) == 3 + 5 + 1  # header, note, trace hint, the five lines, NO_SOURCES


def test_around_gives_the_member_s_class_file_lines(fx, run_jdx):
    want = _method_lines(fx["jar"], "fx27.acme.core.Parser", "public fx27.acme.core.Parser parse(")
    env = _json(run_jdx, fx["bare"], "source", "fx27.acme.core.Parser", "--around", "parse(String)")
    assert env["result"]["source"]["class_file_lines"] == [min(want), max(want)]
    assert any("parse(final String text)" in ln or "parse(String text)" in ln for ln in env["result"]["text"])


def test_sources_lines_are_the_file_s_own(fx, run_jdx):
    env = _json(run_jdx, fx["paired"], "source", "fx27.acme.core.Parser", "--lines", "5:9")
    assert env["result"]["origin"] == "sources"
    assert "lines_of" not in env["result"]["source"] and "class_file_lines" not in env["result"]["source"]
    assert env["result"]["text"] == PARSER.splitlines()[4:9]


def test_whole_type_body_gives_the_class_file_s_lines(fx, run_jdx):
    anon = "Tasks$1"
    assert "ACC_SYNTHETIC" not in _flags(fx["jar"], f"fx27.acme.core.{anon}")
    want = _lines(javap(fx["jar"], f"fx27.acme.core.{anon}", "-l"))
    env = _json(run_jdx, fx["bare"], "body", f"fx27.acme.core.{anon}")
    assert env["result"]["source"]["class_file_lines"] == [min(want), max(want)]
    text = _text(run_jdx, fx["bare"], "body", f"fx27.acme.core.{anon}", "--line-numbers")
    assert (f"line numbers: of the decompiled text; the class file's are {min(want)}-{max(want)} "
            "(what stack traces show)") in text


@pytest.mark.parametrize("layout", ["bare", "paired"])
def test_around_an_inherited_member_names_its_declaring_type(fx, run_jdx, layout):
    sig = _json(run_jdx, fx[layout], "signature", "fx27.acme.core.Parser$Request#url(String)")
    assert "fx27.acme.core.Parser$Base" in json.dumps(sig["result"])  # the oracle of who declares it
    env = _json(run_jdx, fx[layout], "source", "fx27.acme.core.Parser$Request", "--around", "url(String)")
    res = env["result"]
    assert res["inherited_from"] == "fx27.acme.core.Parser$Base"
    assert res["header"].endswith("(url(java.lang.String) inherited from fx27.acme.core.Parser$Base)")
    assert any("url(" in ln for ln in res["text"])
    own = _json(run_jdx, fx[layout], "source", "fx27.acme.core.Parser$Request", "--around", "timeout()")["result"]
    assert "inherited_from" not in own and "inherited" not in own["header"]


def test_a_package_glob_matches_the_whole_dotted_name(fx, run_jdx):
    for glob in ("*acme*", "fx27*", "*core", "*.acme.*"):
        env = _json(run_jdx, fx["bare"], "search", glob, "--kind", "package")
        assert [m["ref"] for m in env["result"]["matches"]] == ["fx27.acme.core"], glob
    r = run_jdx("search", "*zzz*", "--kind", "package", *fx["bare"])
    assert r.code != 0 and "nothing matches" in r.out + r.err


def test_package_info_is_no_search_hit(fx, run_jdx):
    with zipfile.ZipFile(fx["jar"]) as z:
        assert "fx27/acme/core/package-info.class" in z.namelist()  # the oracle: javac wrote it
    for pattern in ("package-info", "*-info", "fx27.acme.core.package-info"):
        r = run_jdx("search", pattern, *fx["bare"])
        assert r.code != 0 and "nothing matches" in r.out + r.err, r.out
    env = _json(run_jdx, fx["bare"], "search", "*info*")
    assert [m["ref"] for m in env["result"]["matches"]] == ["fx27.acme.core.InfoReader"]
    assert env["result"]["total"] == 1


def test_show_marks_a_synthetic_class(fx, run_jdx):
    tag = _tag_class(fx)
    assert "ACC_SYNTHETIC" in _flags(fx["jar"], f"fx27.acme.core.{tag}")
    env = _json(run_jdx, fx["bare"], "show", f"fx27.acme.core.{tag}")
    assert env["result"]["synthetic"] == ["synthetic"]
    text = _text(run_jdx, fx["bare"], "show", f"fx27.acme.core.{tag}")
    assert f"  anonymous class {tag}  [synthetic]" in text
    outer = _json(run_jdx, fx["bare"], "show", "fx27.acme.core.Parser")["result"]
    assert outer["synthetic"] == []
    marks = {n["name"]: n["synthetic"] for n in outer["nested"]}
    assert marks[tag] == ["synthetic"] and all(not v for k, v in marks.items() if k != tag)
    line = next(ln for ln in _text(run_jdx, fx["bare"], "show", "fx27.acme.core.Parser") if "nested:" in ln)
    assert f"{tag} (anonymous, synthetic)" in line
