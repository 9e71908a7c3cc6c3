"""Defects a trial on httpclient 4.5.13 -> 4.5.14 found in `jdx diff`, each judged by javac or the CLI's own output:

- FINAL_REMOVED on a method is reported only when a class outside the artifact can now override it (hide it, when
  static), the mirror of MEMBER_MADE_FINAL / STATIC_METHOD_MADE_FINAL: never on a method of a final class, or of a
  class with no public or protected constructor (httpclient's `HttpRoute#getHopCount()`, 49 such findings on a
  patch release). javac is the oracle: a subclass overriding (hiding) the method compiles against the new version
  and not against the old exactly where the finding is;
- the `--limit` cut's line sits after the rows, before the tally and the `source:`/`next:` lines, and says what
  shows all;
- an unreadable side is one error line naming ARTIFACT_READ_ERROR, no warning restating it.
"""

from __future__ import annotations

import json
import re
import shutil

import pytest

from jdx.engine.diff.rules import RULES
from tests.diff.shim import findings_json, main
from tests.fixtures import jdktool
from tests.fixtures.javac import side_jar

pytestmark = pytest.mark.soak  # a trial's regression family with its own graph builds: the soak runs it whole (.ci/run)

# each class's `final` methods and fields lose `final`; the class itself stays as it is unless its name says so
LIBRARY = {
    "fr": ({"Fin": "public final class Fin { public Fin() { }"
                   " public final int m() { return 1; } public static final int s() { return 1; }"
                   " public final int[] f = {1}; }",
            "Open": "public class Open { public Open() { }"
                    " public final int m() { return 1; } public static final int s() { return 1; } }",
            "Prot": "public abstract class Prot { protected Prot() { } public final int m() { return 1; } }",
            "Priv": "public class Priv { private Priv() { } public final int m() { return 1; }"
                    " public static Priv make() { return new Priv(); } }",
            "WasFinal": "public final class WasFinal { public WasFinal() { } public final int m() { return 1; } }"},
           {"Fin": "public final class Fin { public Fin() { }"
                   " public int m() { return 1; } public static int s() { return 1; }"
                   " public int[] f = {1}; }",
            "Open": "public class Open { public Open() { }"
                    " public int m() { return 1; } public static int s() { return 1; } }",
            "Prot": "public abstract class Prot { protected Prot() { } public int m() { return 1; } }",
            "Priv": "public class Priv { private Priv() { } public int m() { return 1; }"
                    " public static Priv make() { return new Priv(); } }",
            "WasFinal": "public class WasFinal { public WasFinal() { } public int m() { return 1; } }"}),
}

# method symbol -> a client subclass overriding (hiding) it: javac accepts it where `final` no longer stops it
OVERRIDERS = {
    "fr.Fin#m()": "class S1 extends fr.Fin { public int m() { return 2; } }",
    "fr.Fin#s()": "class S2 extends fr.Fin { public static int s() { return 2; } }",
    "fr.Open#m()": "class S3 extends fr.Open { public int m() { return 2; } }",
    "fr.Open#s()": "class S4 extends fr.Open { public static int s() { return 2; } }",
    "fr.Prot#m()": "class S5 extends fr.Prot { public int m() { return 2; } }",
    "fr.Priv#m()": "class S6 extends fr.Priv { public int m() { return 2; } }",
    "fr.WasFinal#m()": "class S7 extends fr.WasFinal { public int m() { return 2; } }",
}


@pytest.fixture(scope="module")
def jars(tmp_path_factory):
    if shutil.which("javac") is None:
        pytest.skip("javac is not installed")
    root = tmp_path_factory.mktemp("diff-t56")
    return root, side_jar(root, LIBRARY, "old"), side_jar(root, LIBRARY, "new")


def _compiles(root, jar, side: str) -> set[str]:
    """The symbols of OVERRIDERS whose subclass javac compiles against `jar`: one javac run, its errors per file."""
    src = root / f"overriders-{side}"
    files = {}
    for i, (symbol, body) in enumerate(OVERRIDERS.items()):
        path = src / "client" / f"S{i + 1}.java"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"package client;\n{body}\n")
        files[path.name] = symbol
    sources = [str(p) for p in sorted(src.rglob("*.java"))]
    run = jdktool.run(["javac", "-d", str(root / f"out-{side}"), "-cp", str(jar), *sources], capture_output=True,
                      text=True)
    failed = {files[name] for name in re.findall(r"(S\d+\.java):\d+: error", run.stderr)}
    return set(files.values()) - failed


def test_final_removed_on_a_method_only_where_an_outside_subclass_can_now_override_it(jars):
    root, old, new = jars
    found = findings_json(root / "cache", old, new)
    members = {f["symbol"] for f in found if f["rule"] == "FINAL_REMOVED" and "#" in f["symbol"]}
    methods = {s for s in members if s.endswith(")")}
    # the oracle: a subclass overriding or hiding it that compiles against the new version, not against the old
    now_overridable = _compiles(root, new, "new") - _compiles(root, old, "old")
    assert methods == now_overridable == {"fr.Open#m()", "fr.Open#s()", "fr.Prot#m()", "fr.WasFinal#m()"}, found
    assert members - methods == {"fr.Fin#f"}, found  # a field made writable is a finding in any class
    classes = {f["symbol"] for f in found if f["rule"] == "FINAL_REMOVED" and "#" not in f["symbol"]}
    assert classes == {"fr.WasFinal"}, found
    assert {f["rule"] for f in found} == {"FINAL_REMOVED"}, found


def test_final_removed_mirrors_member_made_final(jars):
    """The reverse diff's MEMBER_MADE_FINAL / STATIC_METHOD_MADE_FINAL fall on exactly the methods the forward diff
    has FINAL_REMOVED for: a method of a final class is silent both ways."""
    root, old, new = jars
    forward = {f["symbol"] for f in findings_json(root / "cache", old, new)
               if f["rule"] == "FINAL_REMOVED" and f["symbol"].endswith(")")}
    backward = {f["symbol"] for f in findings_json(root / "cache", new, old)
                if f["rule"] in ("MEMBER_MADE_FINAL", "STATIC_METHOD_MADE_FINAL") and f["symbol"].endswith(")")}
    assert forward == backward and "fr.Fin#m()" not in forward, (forward, backward)


def _text(jars, *flags: str) -> list[str]:
    root, old, new = jars
    code, text = main([str(old), str(new), "--cache-dir", str(root / "cache"), *flags])
    assert code == 0, text
    return text.splitlines()


def test_the_limit_cut_is_stated_after_the_rows_before_the_tally(jars):
    full = _text(jars)
    rows = [line for line in full if line.startswith(("breaking  ", "suspicious  ", "info  "))]
    total = len(rows)
    cut = _text(jars, "--limit", "2")
    tally = next(i for i, line in enumerate(cut) if " breaking · " in line)
    assert cut[1:3] == full[1:3] and cut[3] == f"… 2 of {total} shown (--limit {total} for all)", cut
    assert tally == 4 and cut[tally:] == full[1 + total:], cut  # the tally, sources, next: as the whole answer's
    assert sum(line.startswith("… ") for line in cut) == 1, cut
    assert _text(jars, "--limit", str(total)) == full
    assert _text(jars, "--brief", "--limit", "2") == full[1:3] + [cut[3]]
    filtered = _text(jars, "--limit", "1", "--grep", "Open")
    assert filtered[2].startswith("… 1 of ") and filtered[3].startswith("… ") and "--grep" in filtered[3], filtered
    root, old, new = jars
    code, text = main([str(old), str(new), "--cache-dir", str(root / "cache"), "--limit", "2", "--json"])
    assert json.loads(text)["truncated"] == {"shown": 2, "total": total, "hint": f"--limit {total}"}, text


def test_an_unreadable_side_is_one_error_line_naming_its_code(jars, tmp_path):
    root, old, _ = jars
    bad = tmp_path / "notajar-1.0.jar"
    bad.write_bytes(b"not a zip archive\n" * 4)
    missing = tmp_path / "missing.jar"
    for side, reason in ((str(bad), f"cannot read {bad}: "), (str(missing), f"{missing}: "),
                         ("org.fixture.none:gone:0.0.1", "org.fixture.none:gone:0.0.1: not in the local Maven")):
        code, text = main([side, str(old), "--cache-dir", str(root / "cache")])
        lines = text.splitlines()
        assert code == 5 and lines[0].startswith(f"error: {reason}") and "(ARTIFACT_READ_ERROR)" in lines[0], text
        assert not any(line.startswith("⚠") for line in lines) and text.count(reason) == 1, text
        code, text = main([side, str(old), "--cache-dir", str(root / "cache"), "--json"])
        env = json.loads(text)
        assert code == 5 and env["error"]["code"] == "ARTIFACT_READ_ERROR" and env["warnings"] == [], env
    assert lines[1:] == ["hint: --fetch downloads it, or pass the jar's path"], lines


def test_class_version_raised_is_documented_with_the_rules():
    """Every rule, CLASS_VERSION_RAISED among them, is named in docs/diff.md's rule list and its index, with its
    severity (`test_diff_notes.py` checks the index against what the engine emits)."""
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "diff.md").read_text()
    rules = doc.split("## Rules", 1)[1].split("\n## ", 1)[0]
    index = doc.split("## Rule index", 1)[1].split("\n## ", 1)[0]
    assert [r for r in RULES if f"`{r}`" not in rules] == []
    assert f"| `CLASS_VERSION_RAISED` | {RULES['CLASS_VERSION_RAISED']} |" in index
