"""`outline --limit N` (the first N rows, the rest counted, the cut naming `--limit <total>`, as `members --limit`),
`outline --from <supertype>` (the members the type inherits from it, after its own rows, resolved as
`members --from` resolves them: checked against reflection) and `--max-lines N` over the whole text answer (spec §8.3:
header, rows, footer and the cut's own line fit in N lines, whole rows, the hint's `--max-lines` prints everything)."""

from __future__ import annotations

import functools
import json
import re
import subprocess

import pytest

from jdx.commands.execute import text_of
from jdx.commands.registry import build_request, command
from tests.fixtures.javac import javac_jar, javap

SOURCES = {
    "o/Base.java": "package o; public abstract class Base { public int bf;\n"
                   "  public abstract void over(int times); public void keep(String name) {}\n"
                   "  protected static void util() {} private void secret() {} }",
    "o/Sub.java": "package o; public class Sub extends Base { public int f1; public Sub() {}\n"
                  "  public void over(int times) {} public void m1(String a) {} public void m2() {} }",
    # the oracle: Base's members Sub inherits (JLS §8.4.8: not private, not overridden or hidden by Sub)
    "Reflect.java": "import java.lang.reflect.*; public class Reflect { public static void main(String[] a)"
                    " throws Exception { for (Method m : o.Base.class.getDeclaredMethods()) {"
                    " if (Modifier.isPrivate(m.getModifiers())) continue;"
                    " try { o.Sub.class.getDeclaredMethod(m.getName(), m.getParameterTypes()); }"
                    " catch (NoSuchMethodException e) { System.out.println(\"method \" + m.getName()); } }"
                    " for (Field f : o.Base.class.getDeclaredFields()) if (!Modifier.isPrivate(f.getModifiers()))"
                    " System.out.println(\"field \" + f.getName()); } }",
}
OWN_ROWS = 5  # f1, Sub(), m1, m2, over


@pytest.fixture(scope="module")
def sub(tmp_path_factory, run_jdx):
    jar, classes = javac_jar(tmp_path_factory.mktemp("outline_flags"), SOURCES, "o", "sub.jar", debug=True)
    oracle = subprocess.run(["java", "-cp", str(classes), "Reflect"], capture_output=True, text=True, check=True)
    ws = ("--jars", str(jar), "--no-jdk")
    lvt = javap(classes, "o.Base", "-l")  # the parameter names' oracle: Base's LocalVariableTable
    outline = functools.lru_cache(None)(lambda *args: run_jdx("outline", "o.Sub", *args, *ws))
    return outline, sorted(oracle.stdout.split("\n")[:-1]), lvt


def _answer(out: str) -> list[str]:
    return [line for line in out.splitlines() if not line.startswith("⚠")]


def _text(env: dict, params: dict) -> list[str]:
    cmd = command("outline")
    return _answer(text_of(env, cmd, build_request(cmd, "o.Sub", params))[0])


def _rows(lines: list[str], brief: bool) -> list[str]:
    return [line for line in lines if re.match(r"^(method|field|constructor) " if brief else
                                             r"^  (method|field|constructor) ", line)]


def _kind_and_name(row: str) -> str:
    body = row.strip().split("  (from ")[0]
    name = re.search(r"(\w+)\(", body).group(1) if "(" in body else body.split()[-1]
    return f"{body.split()[0]} {name}"


def test_from_adds_the_inherited_members_as_reflection_sees_them(sub):
    outline, oracle, lvt = sub
    r = outline("--from", "o.Base")
    assert r.code == 0, r.err
    lines = _answer(r.out)
    rows = _rows(lines, False)
    own, inherited = rows[:OWN_ROWS], rows[OWN_ROWS:]
    assert not any("(from " in row for row in own)
    assert all(row.endswith("  (from o.Base)") for row in inherited), inherited
    # `over` is overridden: only the non-overridden `keep`, `util` and the field `bf` come from Base
    assert sorted(_kind_and_name(row) for row in inherited) == oracle
    # named as the declaring class file names them (javap -l), as the outline's own rows are
    keep = lvt[lvt.index("public void keep(java.lang.String);"):]
    name = re.search(r"^\s+\d+\s+\d+\s+1\s+(\w+)\s+Ljava/lang/String;$", keep, re.M).group(1)
    assert f"method public void keep(String {name})  (from o.Base)" in r.out, r.out
    inherited = json.loads(outline("--from", "o.Base", "--json").out)["result"]["inherited"]
    assert next(m for m in inherited if m["name"] == "keep")["param_names_from"] == "LocalVariableTable"
    assert "3 inherited from o.Base (--from)" in lines[-1]


def test_from_refuses_a_type_that_is_no_supertype_and_an_unknown_one(sub):
    outline, *_ = sub
    r = outline("--from", "o.Sub")  # not a supertype of itself
    assert r.code == 3 and "not a supertype of o.Sub; its supertypes: o.Base" in r.err, (r.code, r.err)
    r = outline("--from", "o.Bas")
    assert r.code == 1 and "not found: o.Bas" in r.out + r.err and "o.Base" in r.out + r.err, (r.code, r.out)


def test_limit_keeps_the_first_rows_and_names_the_rest(sub):
    outline, *_ = sub
    full = json.loads(outline("--from", "o.Base", "--json").out)
    assert full["truncated"] is None and "total" not in full["result"]
    r = outline("--from", "o.Base", "--limit", "3", "--json")
    assert r.code == 0, r.err
    env = json.loads(r.out)
    assert env["truncated"] == {"shown": 3, "total": 8, "hint": "--limit 8"}
    assert env["result"]["members"] == full["result"]["members"][:3] and env["result"]["inherited"] == []
    text = _text(env, {})
    assert _rows(text, False) == _rows(_text(full, {}), False)[:3]
    assert text[-1] == "… 3 of 8 shown (--limit 8)"
    assert text[-2].startswith("5 members · 3 inherited from o.Base (--from)")  # the footer counts them all
    # both cuts: --max-lines names the --max-lines that prints the limited answer and the --limit for every row
    cut = _text(env, {"max_lines": "4"})
    assert len(cut) == 4 and cut[-1] == ("… 1 of 3 shown (--max-lines 6 for all 3, --limit 8 for every member, "
                                         "or narrow with --kind, --grep or --access)"), cut
    assert _text(env, {"max_lines": "6"}) == text


@pytest.mark.parametrize("brief", [False, True])
def test_max_lines_bounds_the_whole_answer_and_its_hint_prints_everything(sub, brief):
    outline, *_ = sub
    env = json.loads(outline("--from", "o.Base", "--json").out)
    flags = {"brief": "true"} if brief else {}
    full = _text(env, flags)
    everything = len(full)
    assert everything == (8 if brief else 10)
    for n in range(1, everything):
        lines = _text(env, {**flags, "max_lines": str(n)})
        assert len(lines) <= max(n, (1 if brief else 3) + 1), (n, lines)  # the first row even past the cap
        cut = re.fullmatch(r"… (\d+) of (\d+) shown \(--max-lines (\d+) for all, .*\)", lines[-1])
        assert cut, (n, lines)
        rows = _rows(lines, brief)
        assert rows, (n, lines)
        assert int(cut.group(1)) == len(rows) and int(cut.group(2)) == 8 and int(cut.group(3)) == everything
        assert rows == _rows(full, brief)[:len(rows)]
        if not brief:
            assert lines[0] == "class o.Sub" and lines[-2] == full[-1]
    assert _text(env, {**flags, "max_lines": str(everything)}) == full
