"""Parameter names from sources (spec §16: source → MethodParameters → LocalVariableTable → arg0): `outline`
and `signature` name the parameters a class file leaves unnamed (abstract and interface methods never have a
LocalVariableTable; classes built without -g) as the paired sources declare them, only where the overload match is
certain, never from sources of another version. Oracles: javap -v (the class file has no MethodParameters and no
LocalVariableTable for the method) and the source text itself."""

from __future__ import annotations

import json
import os
import re
import shutil
import zipfile

import pytest

from jdx.engine import cards
from jdx.render import cards as text_cards
from tests.fixtures import jdktool
from tests.service import JdxService, Options

BASE = """package demo;

import java.util.List;
import java.util.Map;

public abstract class Base<T extends Comparable<T>> {
    public Base(int size, String label) {}
    protected Base() {}

    public abstract String describe(int level);
    public abstract String describe(int level, String... tags);
    public abstract <K> Map<K, T> index(List<? extends K> keys, T fallback);
    public abstract void grid(int[][] cells, T[] items);
    public abstract void old(int values[]);
    public void concrete(long millis) {}
    public abstract void clash(java.util.List a);
    public abstract void clash(java.awt.List b);

    public class Inner {
        public Inner(String name, int depth) {}
        public void visit(Object node) {}
    }

    public enum Mode {
        FAST(1), SLOW(2) { @Override public int weight(int factor) { return factor; } };
        Mode(int speed) {}
        public int weight(int factor) { return 0; }
    }

    public record Point(int x, int y) {
        public int dist(Point other) { return 0; }
    }

    public interface Visitor<R> {
        R visit(String name, R acc);
        default R done(R result) { return result; }
    }
}
"""
SUB = "package demo;\n\npublic abstract class Sub extends Base<String> {\n}\n"


def _compile(root, files: dict[str, str], *flags: str):
    src, classes = root / "src", root / "classes"
    for name, text in files.items():
        (src / name).parent.mkdir(parents=True, exist_ok=True)
        (src / name).write_text(text)
    jdktool.run(["javac", *flags, "-d", str(classes), *map(str, sorted(src.rglob("*.java")))], check=True)
    return src, classes


def _jar(root, classes, src, name: str, sources: dict[str, str] | None = None):
    """`name`.jar of the classes and its sibling `name`-sources.jar (of `sources` when given, else of `src`)."""
    jar = root / f"{name}.jar"
    with zipfile.ZipFile(jar, "w") as z:
        for f in sorted(classes.rglob("*.class")):
            z.write(f, f.relative_to(classes).as_posix())
    with zipfile.ZipFile(root / f"{name}-sources.jar", "w") as z:
        for rel, text in (sources or {f.relative_to(src).as_posix(): f.read_text()
                                      for f in sorted(src.rglob("*.java"))}).items():
            z.writestr(rel, text)
    return jar


@pytest.fixture(scope="module")
def fx(tmp_path_factory, jdx_home):
    """One workspace: class directories with source directories (`demo`, and `st` whose source was edited after
    compiling) and jars with sibling -sources.jars (`jr`; `dbg` compiled with -g, its sources renaming a parameter;
    `oth`, its sources another version declaring one more method and renaming a parameter)."""
    if shutil.which("javac") is None:
        pytest.skip("javac is not installed")
    root = tmp_path_factory.mktemp("srcparams")
    src, classes = _compile(root / "plain", {"demo/Base.java": BASE, "demo/Sub.java": SUB})  # no -g: no names
    for f in classes.rglob("*.class"):  # a built project: every class file newer than its source
        os.utime(f, (f.stat().st_mtime + 60,) * 2)
    jr_src, jr_classes = _compile(root / "jar", {"jr/Base.java": _pkg("jr")})
    jar = _jar(root / "jar", jr_classes, jr_src, "jr-1.0")
    st_src, st_classes = _compile(root / "stale", {"st/Base.java": _pkg("st")})
    java = st_src / "st" / "Base.java"
    java.write_text(_pkg("st").replace("int level)", "int depth)"))  # edited, not recompiled
    os.utime(java, ((st_classes / "st" / "Base.class").stat().st_mtime + 60,) * 2)
    dbg_src, dbg_classes = _compile(root / "debug", {"dbg/Base.java": _pkg("dbg")}, "-g")
    dbg = _jar(root / "debug", dbg_classes, dbg_src, "dbg-1.0",
               {"dbg/Base.java": _pkg("dbg").replace("long millis", "long ms")})
    oth_src, oth_classes = _compile(root / "other", {"oth/Base.java": _pkg("oth")})
    newer = _pkg("oth").replace("    public void concrete(long millis) {}\n",
                                "    public void concrete(long millis) {}\n    public void added(int count) {}\n")
    oth = _jar(root / "other", oth_classes, oth_src, "oth-1.0", {"oth/Base.java": newer.replace("int level)",
                                                                                               "int depth)")})
    cache = str(jdx_home / "cache")
    service = JdxService(Options(jars=[str(classes), str(st_classes), str(jar), str(dbg), str(oth)],
                                 src=[str(src), str(st_src)], jdk=False, cache_dir=cache))
    yield root, src, classes, service, dbg_classes
    service.close()


def _pkg(name: str) -> str:
    return BASE.replace("package demo;", f"package {name};")


def _outline(service, type_name: str, **kw):
    return cards.outline_type(service.store(), type_name, cards.OutlineOptions(**kw), sources=service.source_context)


def _rows(result) -> dict[str, dict]:
    return {m["ref"]: m for m in result["members"]}


def _source_names(text: str, name: str) -> list[list[str]]:
    """The parameter names each declaration `name(...)` of a source text writes, read off the text itself."""
    out = []
    for params in re.findall(rf"\b{re.escape(name)}\s*\(([^)]*)\)\s*[{{;]", text):
        out.append([re.sub(r"\[\]", "", p).split()[-1] for p in params.split(",") if p.strip()] if params.strip()
                   else [])
    return out


def _javap(classes, cls: str) -> str:
    return jdktool.run(["javap", "-v", "-p", "-cp", str(classes), cls], capture_output=True, text=True).stdout


def test_class_files_have_no_names(fx):
    """The oracle of the premise: javac without -g/-parameters writes neither table (records' canonical
    constructors excepted: javac writes their MethodParameters)."""
    _, _, classes, _, _ = fx
    listing = _javap(classes, "demo.Base") + _javap(classes, "demo.Base$Visitor") + _javap(classes, "demo.Base$Inner")
    assert "LocalVariableTable" not in listing and "MethodParameters" not in listing


@pytest.mark.parametrize("pkg", ["demo", "jr"], ids=["src-dir", "sources-jar"])
def test_outline_names_parameters_as_the_source_declares_them(fx, pkg):
    _, src, _, service, _ = fx
    text = (src / "demo" / "Base.java").read_text()  # (jr's is the same text in package jr)
    result, warnings, provenance = _outline(service, f"{pkg}.Base")
    rows = {ref.replace(f"{pkg}.", "demo.", 1): row for ref, row in _rows(result).items()}
    assert not warnings
    for ref, name in [("demo.Base#describe(int)", "describe"), ("demo.Base#describe(int, java.lang.String...)",
                                                                  "describe"),
                      ("demo.Base#index(java.util.List, java.lang.Comparable)", "index"),
                      ("demo.Base#grid(int[][], java.lang.Comparable[])", "grid"), ("demo.Base#old(int[])", "old"),
                      ("demo.Base#concrete(long)", "concrete"), ("demo.Base#<init>(int, java.lang.String)", "Base")]:
        row = rows[ref]
        got = [p["name"] for p in row["params"]]
        assert got in _source_names(text, name), (ref, got)
        assert row["param_names_from"] == "source", ref
    assert rows["demo.Base#describe(int, java.lang.String...)"]["text"] == \
        "public abstract String describe(int level, String... tags)"
    assert rows["demo.Base#index(java.util.List, java.lang.Comparable)"]["text"] == \
        "public abstract <K> Map<K, T> index(List<? extends K> keys, T fallback)"
    # two overloads whose parameter types erase to the same simple name: not certain, the class file's answer stays
    for ref in ("demo.Base#clash(java.util.List)", "demo.Base#clash(java.awt.List)"):
        assert rows[ref]["params"][0]["name"] == "arg0" and rows[ref]["param_names_from"] == "none"
    sources = [p for p in provenance if p["origin"] == "sources"]
    assert sources and sources[0]["file"] == f"{pkg}/Base.java" and "parameter names" in sources[0]["detail"]
    footer = text_cards.outline(result, False, None)[-1]
    assert "parameter names from source; (no parameter names) marks the rest" in footer


def test_without_sources_the_names_stay_synthesised(fx):
    _, _, _, service, _ = fx
    result, _, provenance = cards.outline_type(service.store(), "demo.Base", cards.OutlineOptions())
    assert _rows(result)["demo.Base#describe(int)"]["text"] == "public abstract String describe(int arg0)"
    assert all(p["origin"] != "sources" for p in provenance)


@pytest.mark.parametrize("type_name,ref,names", [
    ("demo.Base$Inner", "demo.Base$Inner#<init>(demo.Base, java.lang.String, int)", ["name", "depth"]),
    ("demo.Base$Mode", "demo.Base$Mode#<init>(java.lang.String, int, int)", ["speed"]),
    ("demo.Base$Mode", "demo.Base$Mode#weight(int)", ["factor"]),
    ("demo.Base$Point", "demo.Base$Point#dist(demo.Base$Point)", ["other"]),
    ("demo.Base$Visitor", "demo.Base$Visitor#visit(java.lang.String, java.lang.Object)", ["name", "acc"]),
    ("demo.Base$Visitor", "demo.Base$Visitor#done(java.lang.Object)", ["result"]),
])
def test_nested_types_constructors_with_synthetic_parameters(fx, type_name, ref, names):
    """An inner class's constructor (the outer instance first in its descriptor), an enum's (name and ordinal
    first), a record's and an interface's methods: the written parameters, named as written."""
    _, _, _, service, _ = fx
    rows = _rows(_outline(service, type_name, include_synthetic=True)[0])
    assert [p["name"] for p in rows[ref]["params"]] == names and rows[ref]["param_names_from"] == "source"


def test_compiler_written_members_keep_the_class_file_answer(fx):
    _, _, _, service, _ = fx
    rows = _rows(_outline(service, "demo.Base$Mode")[0])
    assert rows["demo.Base$Mode#valueOf(java.lang.String)"]["param_names_from"] == "none"  # no source declaration
    point = _rows(_outline(service, "demo.Base$Point")[0])
    assert point["demo.Base$Point#<init>(int, int)"]["param_names_from"] == "MethodParameters"


def test_signature_names_from_source_and_says_so(fx):
    _, src, _, service, _ = fx
    result, warnings, provenance = cards.member_signatures(service.store(), "jr.Base#describe",
                                                           sources=service.source_context)
    assert [[p["name"] for p in s["params"]] for s in result["signatures"]] == \
        _source_names((src / "demo" / "Base.java").read_text(), "describe")
    assert {s["param_names_from"] for s in result["signatures"]} == {"source"}
    assert any(line.startswith("parameter names from source") for line in text_cards.signature(result))
    assert any(p["origin"] == "sources" and p["file"] == "jr/Base.java" for p in provenance)
    assert not [w for w in warnings if w.code != "UNRESOLVED_SUPERTYPE"]  # (no JDK in this workspace)


def test_outline_from_names_inherited_parameters_from_the_declaring_sources(fx):
    _, _, _, service, _ = fx
    result, _, _ = _outline(service, "demo.Sub", from_type="demo.Base")
    inherited = [m for m in result["inherited"] if m["name"] == "describe"]
    assert sorted(m["text"] for m in inherited) == ["public abstract String describe(int level)",
                                                    "public abstract String describe(int level, String... tags)"]
    assert {m["param_names_from"] for m in inherited} == {"source"}


def test_class_file_names_win_over_the_sources(fx):
    """-g: LocalVariableTable names; the sources (a renamed parameter) are not consulted for them."""
    service, classes = fx[3], fx[4]
    rows = _rows(_outline(service, "dbg.Base")[0])
    assert "LocalVariableTable" in _javap(classes, "dbg.Base")
    assert rows["dbg.Base#concrete(long)"]["params"][0]["name"] == "millis"
    assert rows["dbg.Base#concrete(long)"]["param_names_from"] == "LocalVariableTable"


def test_sources_of_another_version_name_nothing(fx):
    """A sources jar declaring a method its class lacks (SOURCES_VERSION_MISMATCH, as `body` says): its names are
    not used, and the answer says why."""
    result, warnings, _ = _outline(fx[3], "oth.Base")
    assert _rows(result)["oth.Base#describe(int)"]["text"] == "public abstract String describe(int arg0)"
    codes = [(w.code, w.message) for w in warnings]
    assert any(c == "SOURCES_VERSION_MISMATCH" and "added(int)" in m for c, m in codes), codes
    assert any(c == "SOURCES_VERSION_MISMATCH" and "parameter names not taken" in m for c, m in codes), codes
    result, warnings, _ = _outline(fx[3], "jr.Base")  # a type of the same workspace with its own sources
    assert _rows(result)["jr.Base#describe(int)"]["param_names_from"] == "source" and not warnings


def test_a_source_edited_after_compiling_names_nothing(fx):
    result, warnings, _ = _outline(fx[3], "st.Base")
    assert _rows(result)["st.Base#describe(int)"]["params"][0]["name"] == "arg0"
    assert any(w.code == "SOURCES_VERSION_MISMATCH" and "was modified after Base.class" in w.message
               for w in warnings), warnings


def test_cli_signature_and_outline_name_from_sources(fx, run_jdx):
    """The command line end to end: `jdx signature` / `jdx outline` with `--src`, text and JSON."""
    import inspect

    from jdx.commands import cards as commands

    if "source_context" not in inspect.getsource(commands.card):
        pytest.skip("the outline and signature commands do not hand their sources to the engine yet")
    _, src, classes, _, _ = fx
    flags = ("--jars", str(classes), "--src", str(src), "--no-jdk")
    r = run_jdx("signature", "demo.Base#describe", *flags)
    assert r.code == 0, r.err
    assert "method public abstract String describe(int level)" in r.out
    assert "parameter names from source" in r.out and "arg0" not in r.out
    r = run_jdx("outline", "demo.Base$Visitor", "--json", *flags)
    members = json.loads(r.out)["result"]["members"]
    assert {m["text"]: m["param_names_from"] for m in members} == {"public R visit(String name, R acc)": "source",
                                                                   "public default R done(R result)": "source"}
