"""A catch clause is one `ref (catch)` of each type it names, at the line of its handler. javac splits a clause's try
range into several exception-table entries (around the code a finally inlines), all with the clause's one handler;
a multi-catch is one handler with an entry per type; a finally names no type and is no reference. Oracle: javap's
exception table (distinct handler pc and type) and LineNumberTable (the entry covering each handler pc)."""

from __future__ import annotations

import re
import shutil
from collections import Counter
from pathlib import Path

import pytest

from jdx.engine.rel_usages import UsageOptions
from tests.fixtures.javac import javac_jar
from tests.service import JdxService, Options
from tests.fixtures import jdktool

EXCEPTIONS = ("AEx", "BEx", "CEx")
SOURCES = {
    **{f"cr/{e}.java": f"package cr;\npublic class {e} extends RuntimeException {{}}" for e in EXCEPTIONS},
    "cr/Use.java": """package cr;
public class Use {
    static int split(boolean x) {
        try {
            try {
                if (x) {
                    return 1;
                }
                System.out.println("a");
            } finally {
                System.out.println("f");
            }
            return 2;
        } catch (AEx e) {
            return 3;
        }
    }
    static void multi(Runnable r) {
        try {
            r.run();
        } catch (AEx | BEx e) {
            r.run();
        }
    }
    static void twice(Runnable r) {
        try {
            r.run();
        } catch (CEx e) {
            r.run();
        }
        try {
            r.run();
        } catch (CEx e) {
            r.run();
        } finally {
            r.run();
        }
    }
    static void bare(Runnable r) {
        try {
            r.run();
        } finally {
            r.run();
        }
    }
}""",
}
METHOD = re.compile(r"^  \S.*\b(\w+)\(.*\);$")
ENTRY = re.compile(r"^\s+(\d+)\s+(\d+)\s+(\d+)\s+(any|Class (\S+))$")
LINE = re.compile(r"^\s+line (\d+): (\d+)$")


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> tuple[Path, Path]:
    if shutil.which("javac") is None or shutil.which("javap") is None:
        pytest.skip("javac/javap are not installed")
    return javac_jar(tmp_path_factory.mktemp("catch_refs"), SOURCES, "cr", "catch.jar", debug=True)


@pytest.fixture(scope="module")
def table(built) -> dict[str, tuple[list[tuple[int, str | None]], dict[int, int]]]:
    """Method name -> (exception-table entries as (handler pc, internal type name or None for any), pc -> line), by
    javap."""
    out = jdktool.run(["javap", "-c", "-l", "-p", str(built[1] / "cr/Use.class")], capture_output=True, text=True,
                         check=True).stdout
    methods: dict[str, tuple[list[tuple[int, str | None]], dict[int, int]]] = {}
    entries: list[tuple[int, str | None]] = []
    lines: dict[int, int] = {}
    for text in out.splitlines():
        if m := METHOD.match(text):
            entries, lines = [], {}
            methods[m.group(1)] = (entries, lines)
        elif m := ENTRY.match(text):
            entries.append((int(m.group(3)), m.group(5)))
        elif m := LINE.match(text):
            lines[int(m.group(2))] = int(m.group(1))
    return methods


@pytest.fixture(scope="module")
def svc(built, jdx_home):
    service = JdxService(Options(jars=[str(built[0])], jdk=False, cache_dir=str(jdx_home / "cache")))
    yield service
    service.close()


def _expected(table, exception: str) -> Counter:
    """(method, line) of each catch clause naming `exception`: one per distinct (handler pc, type)."""
    want: Counter = Counter()
    for method, (entries, lines) in table.items():
        for handler, type_ in dict.fromkeys(entries):
            if type_ == f"cr/{exception}":
                want[method, lines[max(pc for pc in lines if pc <= handler)]] += 1
    return want


def _catch_sites(svc, exception: str) -> Counter:
    result = svc.usages(f"cr.{exception}", UsageOptions(kinds=("ref",), limit=1000)).result
    return Counter((s["caller"].split("#")[1].split("(")[0], s["line"])
                   for g in result["groups"] for c in g["callers"] for s in c["sites"] if s["detail"] == "catch")


def test_the_fixture_has_the_shapes(table):
    """javac splits `split`'s one catch into entries sharing a handler; `multi` has one handler for two types;
    `twice` two handlers of one type; `bare` only a finally."""
    split = [e for e in table["split"][0] if e[1] == "cr/AEx"]
    assert len(split) >= 2 and len(set(split)) == 1, table["split"]
    assert sorted(t for _h, t in table["multi"][0] if t) == ["cr/AEx", "cr/BEx"]
    assert len({h for h, _t in table["multi"][0]}) == 1
    assert len({h for h, t in table["twice"][0] if t == "cr/CEx"}) == 2
    assert {t for _h, t in table["bare"][0]} == {None}


@pytest.mark.parametrize("exception", EXCEPTIONS)
def test_one_catch_reference_per_clause_at_its_handler_line(svc, table, exception):
    want = _expected(table, exception)
    assert want and all(line > 0 for _m, line in want)
    assert _catch_sites(svc, exception) == want
