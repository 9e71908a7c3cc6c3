"""`members --limit N` (the first N members, the rest counted, the cut naming `--limit <total>`, as `signature` does)
and `--max-lines N` over the whole text answer (spec §8.3): the header, the member rows, the `+ N from` and provenance
footers and the cut's own `…` line fit in N lines (warnings aside), whole rows only, and the `--max-lines` the cut
names prints everything."""

from __future__ import annotations

import json
import re

import pytest

from jdx.commands.execute import text_of
from jdx.commands.registry import build_request, command
from tests.fixtures.javac import javac_jar

SOURCES = {
    "m/Base.java": "package m; public class Base { public int bf; public void b1() {} public void b2() {} }",
    "m/Greet.java": "package m; public interface Greet { default String hello() { return \"hi\"; } }",
    "m/Many.java": "package m; public class Many extends Base implements Greet { public int f1, f2;\n"
                   "  public void m1() {} public void m2() {} public void m3() {} public void m4() {} }",
}
HEADER_AND_FOOTER = 3  # `members of m.Many`, the provenance line, the cut's line


@pytest.fixture(scope="module")
def many(tmp_path_factory, run_jdx):
    jar, _classes = javac_jar(tmp_path_factory.mktemp("many"), SOURCES, "m", "many.jar")
    ws = ("--jars", str(jar), "--no-jdk")

    def members(*args: str):
        r = run_jdx("members", "m.Many", *args, *ws)
        assert r.code == 0, r.err
        return r

    return members


def _answer(out: str) -> list[str]:
    return [line for line in out.splitlines() if not line.startswith("⚠")]


def _rows(lines: list[str], brief: bool = False) -> list[str]:
    return [line for line in lines if re.match(r"^(  )?(method|field|constructor) " if brief else
                                             r"^  (method|field|constructor) ", line)]


@pytest.mark.parametrize("brief", [False, True])
def test_max_lines_bounds_the_whole_answer_and_its_hint_prints_everything(many, brief):
    flags = ("--brief",) if brief else ()
    full = _answer(many(*flags).out)
    assert not any(line.startswith("…") for line in full)
    everything = len(full)
    for n in (1, 3, 5, 8, everything - 1):
        lines = _answer(many(*flags, "--max-lines", str(n)).out)
        assert len(lines) <= max(n, (1 if brief else HEADER_AND_FOOTER) + 1), (n, lines)  # the first member always
        cut = re.fullmatch(r"… (\d+) of (\d+) shown \(--max-lines (\d+) for all, .*\)", lines[-1])
        assert cut, (n, lines)
        rows = _rows(lines, brief)
        assert rows, (n, lines)
        assert int(cut.group(1)) == len(rows) and int(cut.group(2)) == 11 and int(cut.group(3)) == everything
        assert rows == _rows(full, brief)[:len(rows)]  # the first rows, whole
        if not brief:
            assert lines[0] == "members of m.Many" and lines[-2] == "class m.Many · many.jar (bytecode)"
    assert _answer(many(*flags, "--max-lines", str(everything)).out) == full


def test_the_cut_counts_every_footer_line(many):
    """`+ N from java.lang.Object` is one of the answer's lines too (a JDK-free workspace has no Object: its count is
    set on the answer as a workspace with the JDK reports it)."""
    env = json.loads(many("--json").out)
    env["result"]["collapsed"] = {"java.lang.Object": 8}
    cmd = command("members")
    full = _answer(text_of(env, cmd, build_request(cmd, "m.Many", {}))[0])
    everything = len(full)
    assert "+ 8 from java.lang.Object (--from java.lang.Object to expand)" in full
    for n in range(HEADER_AND_FOOTER + 2, everything):  # the Object line and one member fit
        text = _answer(text_of(env, cmd, build_request(cmd, "m.Many", {"max_lines": str(n)}))[0])
        assert len(text) <= n and f"(--max-lines {everything} for all" in text[-1], (n, text)
        assert text[-3] == full[-2]  # the Object line stays
    assert _answer(text_of(env, cmd, build_request(cmd, "m.Many", {"max_lines": str(everything)}))[0]) == full


def test_limit_keeps_the_first_members_and_counts_the_rest(many):
    full = json.loads(many("--json").out)
    assert full["truncated"] is None and full["result"]["total"] == 11
    env = json.loads(many("--limit", "3", "--json").out)
    assert env["result"]["members"] == full["result"]["members"][:3] and env["result"]["total"] == 11
    assert env["truncated"] == {"shown": 3, "total": 11, "hint": "--limit 11"}
    lines = _answer(many("--limit", "3").out)
    assert _rows(lines) == _rows(_answer(many().out))[:3] and lines[-1] == "… 3 of 11 shown (--limit 11)"
    assert json.loads(many("--limit", "11", "--json").out)["truncated"] is None
    # both cuts: the text's within --max-lines, naming both ways to see more
    lines = _answer(many("--limit", "3", "--max-lines", "4").out)
    assert len(lines) == 4 and lines[-1].startswith("… 1 of 3 shown (--max-lines 6 for all 3, --limit 11 ")
    assert len(_answer(many("--limit", "3", "--max-lines", "6").out)) == 6


def test_limit_is_a_request_field_every_adapter_takes():
    cmd = command("members")
    assert build_request(cmd, "m.Many", {"limit": "2"}).limit == 2
    with pytest.raises(Exception, match="--limit must be at least 1"):
        build_request(cmd, "m.Many", {"limit": "0"})
