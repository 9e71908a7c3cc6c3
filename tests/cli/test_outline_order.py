"""`outline` lists a class's members in declaration order, as IntelliJ's File Structure popup does: fields, then
constructors, then methods, each in its class file's order (javac keeps the source's). Alphabetical order put an
enum's constants out of their `values()` order (`TimeUnit.DAYS` before `NANOSECONDS`) and a JNA Structure's fields
out of their memory layout. Oracle: `javap -p`, which prints a class file's fields and methods in its order."""

from __future__ import annotations

import json
import re
import shutil

import pytest

from tests.fixtures import jdktool
from tests.fixtures.javac import javac_jar

SOURCES = {
    "ord/Level.java": """package ord;
public enum Level {
    TRACE, DEBUG, INFO, WARN, ERROR;
    static final int COUNT = 5;
}
""",
    "ord/SystemTime.java": """package ord;
public class SystemTime {
    public short wYear;
    public short wMonth;
    public short wDayOfWeek;
    public short wDay;
    private static int made;
    public SystemTime() { }
    public SystemTime(short year) { wYear = year; }
    public void zero() { wYear = 0; }
    public int after() { return made; }
    public void clear() { zero(); }
    public static SystemTime now() { return new SystemTime(); }
}
""",
}
MEMBER = re.compile(r"^  (?:[\w.<>$\[\], ?]+ )?([\w$.]+)(\(.*\))?;$")


@pytest.fixture(scope="module")
def jar(tmp_path_factory):
    if shutil.which("javac") is None or shutil.which("javap") is None:
        pytest.skip("javac/javap are not installed")
    return javac_jar(tmp_path_factory.mktemp("outline_order"), SOURCES, "ord", "ord.jar")[0]


def _javap_order(jar, cls: str) -> tuple[list[str], list[str], list[str]]:
    """(fields, constructors, methods) in the class file's order, by `javap -p`, without the compiler's `$VALUES`
    and `$values()` (synthetic: outline shows them with --include-synthetic only)."""
    out = jdktool.run(["javap", "-p", "-cp", str(jar), cls], capture_output=True, text=True, check=True).stdout
    fields, ctors, methods = [], [], []
    for line in out.splitlines():
        m = MEMBER.match(line)
        if not m or line.strip().startswith("static {}"):
            continue
        name, params = m.group(1), m.group(2)
        if not name.startswith("$"):
            (fields if params is None else ctors if name == cls else methods).append(name)
    return fields, ctors, methods


@pytest.mark.parametrize("cls", ["ord.Level", "ord.SystemTime"])
def test_outline_keeps_the_class_files_order(run_jdx, jar, cls):
    r = run_jdx("outline", cls, "--access", "all", "--json", "--no-jdk", "--jars", str(jar))
    assert r.code == 0, r.err
    rows = json.loads(r.out)["result"]["members"]
    fields, ctors, methods = _javap_order(jar, cls)
    got = {kind: [m["name"] for m in rows if m["kind"] == kind] for kind in ("field", "constructor", "method")}
    assert got["field"] == [f for f in fields if f in got["field"]] and len(got["field"]) == len(fields), (got, fields)
    assert len(got["constructor"]) == len(ctors)
    assert got["method"] == [m for m in methods if m in got["method"]], (got, methods)
    assert [m["kind"] for m in rows] == sorted((m["kind"] for m in rows),
                                               key=("field", "constructor", "method").index)


def test_an_enums_constants_come_in_values_order(run_jdx, jar):
    r = run_jdx("outline", "ord.Level", "--kind", "field", "--no-jdk", "--jars", str(jar))
    constants = [ln.split()[-1] for ln in r.out.splitlines() if "static final Level" in ln]
    assert constants == ["TRACE", "DEBUG", "INFO", "WARN", "ERROR"], r.out
