"""`body` of a static field declared without a value and no ConstantValue shows the statements of the `static {}`
blocks that assign it, after its declaration, as a decompiler writes every computed value (`GLOBAL;` then
`static { GLOBAL = create(...); }`) and as hand-written sources may; `--engine javap` adds the `static {}`
instructions that compute and store it. A constant (the JVM sets it, no code) and a field with an initializer keep
their one declaration.

Oracles: `javap -c -p -constants` of the fixture compiled by javac at test time (which fields `<clinit>` stores, the
methods it calls for each, each instruction line), and the source text itself (the statements are verbatim)."""

from __future__ import annotations

import json
import re

import pytest

from tests.fixtures.javac import javac_jar, javap, paired_and_bare

SOURCE = """package sv;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

public class Holder {
    public static final Holder GLOBAL = create(new Object());
    public static final String NAME = "x";
    static final List<String> NAMES;
    static int counter;
    static final Object LOCK;
    final int size;

    static {
        List<String> names = new ArrayList<>();
        names.add("a");
        NAMES = Collections.unmodifiableList(names);
        counter = 3;
    }

    Holder() {
        size = 2;
    }

    static {
        Object made;
        try {
            made = new Object();
        } catch (RuntimeException e) {
            made = null;
        }
        LOCK = made;
    }

    static Holder create(Object... parts) {
        return new Holder();
    }
}
"""

ASSIGNED = "assigned in the static initializer"
INSTRUCTION = re.compile(r"^\s*(\d+): ([a-z][a-z0-9_]*)")


@pytest.fixture(scope="module")
def fx(jdx_home, run_jdx, tmp_path_factory):
    work = tmp_path_factory.mktemp("static-values")
    jar, classes = javac_jar(work, {"sv/Holder.java": SOURCE}, "sv", "sv.jar")
    entries = {"sv/Holder.class": (classes / "sv" / "Holder.class").read_bytes()}
    paired, bare = paired_and_bare(work, "sv-1.0", entries, {"sv/Holder.java": SOURCE.encode()})
    for path in (paired, bare):
        r = run_jdx("index", "--jars", str(path), "--no-jdk")
        assert r.code == 0, r.err
    return {"paired": ["--jars", str(paired), "--no-jdk"], "bare": ["--jars", str(bare), "--no-jdk"],
            "clinit": _clinit(javap(classes, "sv.Holder", "-c", "-constants"))}


def _clinit(text: str) -> list[str]:
    """Oracle: the instruction lines of javap's `static {}`."""
    lines = text.splitlines()
    start = lines.index("  static {};")
    return [line for line in lines[start:] if INSTRUCTION.match(line)]


def _stores(clinit: list[str]) -> dict[str, int]:
    """Oracle: field name -> the index of the instruction that stores it in `static {}`."""
    return {re.search(r"// Field (\w+):", line).group(1): i for i, line in enumerate(clinit)
            if INSTRUCTION.match(line).group(2) == "putstatic"}


def _body(run_jdx, args: list[str], ref: str, *more: str) -> dict:
    r = run_jdx("body", ref, *args, *more, "--json")
    assert r.code == 0, r.out + r.err
    return json.loads(r.out)["result"]


def _decompiler():
    from jdx.loaders.decompile import available_engines

    if not available_engines():
        pytest.skip("no decompiler installed")


def test_javap_adds_the_static_initializer_instructions_that_store_the_field(fx, run_jdx):
    clinit, stores = fx["clinit"], _stores(fx["clinit"])
    assert set(stores) == {"GLOBAL", "NAMES", "counter", "LOCK"}  # NAME is a ConstantValue: no code sets it
    order = sorted(stores, key=stores.get)
    for name in order:
        res = _body(run_jdx, fx["bare"], f"sv.Holder#{name}", "--engine", "javap")
        previous = max((stores[n] for n in order if stores[n] < stores[name]), default=-1)
        code = [line for line in res["text"] if INSTRUCTION.match(line)]
        assert code == clinit[previous + 1:stores[name] + 1], name  # from after the previous store through its own
        assert res["assigned_in"] == "static initializer" and ASSIGNED in res["header"]
        assert res["text"].index("  static {};") > 0  # after the field's own block
    constant = _body(run_jdx, fx["bare"], "sv.Holder#NAME", "--engine", "javap")
    assert "static {};" not in constant["text"] and "assigned_in" not in constant
    instance = _body(run_jdx, fx["bare"], "sv.Holder#size", "--engine", "javap")
    assert "static {};" not in instance["text"]


def test_without_sources_the_decompiled_assignment_follows_the_declaration(fx, run_jdx):
    _decompiler()
    clinit, stores = fx["clinit"], _stores(fx["clinit"])
    order = sorted(stores, key=stores.get)
    for name in order:
        res = _body(run_jdx, fx["bare"], f"sv.Holder#{name}")
        assert res["origin"] == "decompiled", name
        assert re.search(rf"\b{name};$", res["text"][0]), res["text"]  # the declaration, without a value
        labels = [line for line in res["text"] if line.startswith(f"// {ASSIGNED}, ")]
        assert labels and ASSIGNED in res["header"] and res["assigned_in"] == "static initializer", name
        # the decompiled text's own lines, which a stack trace's are not: said (kotlinx's Dispatchers#IO, T82)
        assert all(line.endswith(" of the decompiled text") for line in labels), labels
        assert "of the decompiled text)" in res["header"], res["header"]
        shown = "\n".join(res["text"][1:])
        assert re.search(rf"\b{name} = ", shown), res["text"]
        previous = max((stores[n] for n in order if stores[n] < stores[name]), default=-1)
        called = {m.group(1) for line in clinit[previous + 1:stores[name]]
                  for m in [re.search(r"// (?:Interface)?Method (?:[\w/$]+\.)?(\w+):", line)] if m}
        assert all(f"{method}(" in shown for method in called), (name, called, res["text"])
        assert [p["what"] for p in res["source"]["parts"]] == ["declaration"] + [ASSIGNED] * len(labels)
    for name in ("NAME", "size"):  # a constant; an instance field
        res = _body(run_jdx, fx["bare"], f"sv.Holder#{name}")
        assert len(res["text"]) == 1 and "assigned_in" not in res, res["text"]


def test_with_sources_the_assigning_statements_are_quoted_verbatim(fx, run_jdx):
    lines = SOURCE.splitlines()
    res = _body(run_jdx, fx["paired"], "sv.Holder#NAMES")
    assert res["origin"] == "sources"
    a, b = next(p["lines"] for p in res["source"]["parts"] if p["what"] == ASSIGNED)
    assert lines[a - 1:b] == ["        List<String> names = new ArrayList<>();", '        names.add("a");',
                              "        NAMES = Collections.unmodifiableList(names);"]
    assert res["text"] == ["    static final List<String> NAMES;", f"// {ASSIGNED}, lines {a}-{b}", *lines[a - 1:b]]
    res = _body(run_jdx, fx["paired"], "sv.Holder#LOCK")
    a, b = next(p["lines"] for p in res["source"]["parts"] if p["what"] == ASSIGNED)
    assert lines[a - 1].strip() == "Object made;" and lines[b - 1].strip() == "LOCK = made;"
    assert res["text"][2:] == lines[a - 1:b]
    res = _body(run_jdx, fx["paired"], "sv.Holder#counter")
    assert res["text"][1:] == [f"// {ASSIGNED}, line {res['source']['parts'][1]['lines'][0]}", "        counter = 3;"]
    for name in ("GLOBAL", "NAME"):  # the value is the declaration's own
        res = _body(run_jdx, fx["paired"], f"sv.Holder#{name}")
        assert len(res["text"]) == 1 and " = " in res["text"][0] and "assigned_in" not in res
