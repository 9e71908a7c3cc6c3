"""`--max-lines` never cuts mid-entity (spec §8.3): a usage shown with its `--context` lines is kept or dropped
whole, and the footer counts the lines actually shown and the total."""

from __future__ import annotations

import re
import shutil

import pytest

from tests.fixtures.javac import javac_jar
from tests.fixtures import jdktool

SOURCES = {
    "ml/Target.java": "package ml;\npublic class Target {\n  public static int hit(int x) { return x + 1; }\n}\n",
    "ml/Callers.java": "package ml;\npublic class Callers {\n"
                       "  int a() {\n    int y = 1;\n    return Target.hit(y);\n  }\n"
                       "  int b() {\n    int y = 2;\n    return Target.hit(y) + Target.hit(3);\n  }\n"
                       "  int c() {\n    int y = 3;\n    return Target.hit(y);\n  }\n}\n",
}
FOOTER = re.compile(r"^… (\d+) of (\d+) lines shown \(--max-lines (\d+) for all\)$")


@pytest.fixture(scope="module")
def jar(tmp_path_factory):
    if shutil.which("javac") is None:
        pytest.skip("javac is not installed")
    root = tmp_path_factory.mktemp("maxlines")
    _bare, classes = javac_jar(root, SOURCES, "ml", "bare.jar", debug=True)
    embedded = root / "ml.jar"  # sources beside the classes: context lines from the real source
    jdktool.run(["jar", "cf", str(embedded), "-C", str(classes), "ml", "-C", str(root / "src"), "ml"], check=True)
    return embedded


def test_usages_context_is_cut_between_whole_usages(run_jdx, jar):
    args = ("usages", "ml.Target#hit", "--context", "1", "--jars", str(jar), "--no-jdk")
    full = run_jdx(*args)
    assert full.code == 0, full.err
    lines = full.out.splitlines()
    heads = [i for i, line in enumerate(lines) if line.startswith("  ml.Callers#")]
    assert len(heads) == 3 and all(lines[i + 1].startswith("    ") for i in heads), full.out  # each has context
    assert lines[heads[1]].endswith("call 9 ×2") and lines[heads[1] + 5] == lines[heads[2]]  # two calls on
    # one line show its context once
    starts = {i for i, line in enumerate(lines) if not line.startswith("    ")} | {len(lines)}  # where a cut may fall
    for budget in range(1, len(lines)):
        r = run_jdx(*args, "--max-lines", str(budget))
        assert r.code == 0, r.err
        out = r.out.splitlines()
        footer = [m for m in map(FOOTER.match, out) if m]
        assert len(footer) == 1, (budget, r.out)
        shown, total, again = map(int, footer[0].groups())
        kept = out[:shown]
        assert total == again == len(lines)
        assert kept == lines[:shown] and shown in starts, (budget, r.out)  # a whole-entity prefix
        following = min(i for i in starts if i > shown)  # the next entity did not fit: no room wasted
        assert shown <= budget < following, (budget, shown, following)


def test_a_limit_cut_beside_the_line_cut_is_not_called_all(run_jdx, jar):
    """Both cuts (T32): one line says both, `--max-lines` showing those results and how to see every result;
    following the first hint alone does not print all."""
    args = ("usages", "ml.Target#hit", "--limit", "2", "--jars", str(jar), "--no-jdk")
    whole = run_jdx(*args).out.splitlines()
    assert whole[-1].startswith("… 2 of 4 shown") and "--limit 4" in whole[-1], whole  # the source: 4 calls of hit
    hint = whole[-1].split(" (", 1)[1][:-1]
    out = run_jdx(*args, "--max-lines", "2").out.splitlines()
    assert out[-1] == (f"… 2 of {len(whole) - 1} lines shown, of 2 of 4 results (--max-lines {len(whole) - 1} "
                       f"shows those 2; {hint})"), out
    assert not any(line.startswith("… 2 of 4 shown") for line in out), out
    assert FOOTER.match(run_jdx("usages", "ml.Target#hit", "--jars", str(jar), "--no-jdk", "--max-lines", "2")
                        .out.splitlines()[-1])  # no limit cut: "for all"


@pytest.mark.parametrize("command", ["members", "outline"])
def test_a_cap_below_the_footers_still_shows_the_first_member(run_jdx, jar, command):
    """`members kotlinx.coroutines.flow.Flow --max-lines 4` printed the header and the footers and none of the one
    member (`… 0 of 1 shown`): a cap the fixed lines fill keeps the first row; all rows kept, no cut is stated."""
    args = (command, "ml.Callers", "--access", "all", "--jars", str(jar), "--no-jdk")
    full = run_jdx(*args).out.splitlines()
    rows = [line for line in full if line.startswith("  ")]
    assert len(rows) >= 3, full
    for budget in (1, 2):
        out = run_jdx(*args, "--max-lines", str(budget)).out.splitlines()
        assert [line for line in out if line.startswith("  ")] == rows[:1], (budget, out)
        assert re.match(rf"^… 1 of {len(rows)} shown \(--max-lines {len(full)} for all", out[-1]), out
    one = (command, "ml.Target", "--grep", "hit", "--jars", str(jar), "--no-jdk")
    whole = run_jdx(*one).out.splitlines()
    assert sum(line.startswith("  ") for line in whole) == 1, whole
    assert run_jdx(*one, "--max-lines", "1").out.splitlines() == whole
