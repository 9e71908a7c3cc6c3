"""Inlined calls of a multi-file facade's inline function (docs/kotlin.md, Inline functions): `usages` of the facade's
function lists the inlined sites kotlinc's SMAP records against its part (`FlowKt__TransformKt`), exactly the sites
`callers` lists; and the code kotlinc copies of the function's own body (its lambda inlined into an anonymous
object regenerated in it, `Flows__TKt$mapped$$inlined$unsafe$1`, or into its object copied at a call,
`Flows__MKt$doubled$$inlined$mapped$1`: SMAP `10#2:13`, past the file's end, with no `KotlinDebug` call line) is
the function's own code, never a caller of it (kotlinx-coroutines' `map` was listed as called at `line 223`).

Oracle: `javap -v -c -l -p` of every class of the fixture jar: the `Kotlin` stratum of each SMAP says which output
lines came from `mapped`'s lines (its LineNumberTable in the part), the `KotlinDebug` stratum the line of the call
that inlined them; a range with no call line is a copy of the body. Compiled here by kotlinc (1.3 on the CI
machine, as tests/kotlin/corpus.py compiles the fixtures)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.fixtures import jdktool

pytestmark = pytest.mark.soak  # a trial's regression family with its own graph builds: the soak runs it whole (.ci/run)

SRC = "package kt30\n\ninterface Src {\n    fun get(x: Int): Int\n}\n"
HEAD = '@file:JvmName("Flows")\n@file:JvmMultifileClass\npackage kt30\n\n'
T = HEAD + '''inline fun unsafe(crossinline block: (Int) -> Int): Src = object : Src {
    override fun get(x: Int): Int = block(x)
}

inline fun Src.mapped(crossinline f: (Int) -> Int): Src = unsafe { v ->
    f(get(v)) + 1
}
'''
M = HEAD + '''fun Src.doubled(): Src = mapped { it * 2 }

fun Src.tripled(): Src {
    val one = mapped { it * 3 }
    return one
}
'''
USE = '''package kt30.use

import kt30.*

class Client(private val src: Src) {
    fun run(): Int = src.mapped { it + 4 }.get(1)
}
'''
PART = "kt30/Flows__TKt"
COROUTINES = Path.home() / ".m2/repository/org/jetbrains/kotlinx/kotlinx-coroutines-core-jvm/1.7.3" \
    / "kotlinx-coroutines-core-jvm-1.7.3.jar"
STDLIB_1910 = Path.home() / ".m2/repository/org/jetbrains/kotlin/kotlin-stdlib/1.9.10/kotlin-stdlib-1.9.10.jar"


def fixture_jar() -> Path:
    from tests.kotlin.corpus import kotlinc_jar

    return kotlinc_jar("inline-facade-t30", {"Src.kt": SRC, "T.kt": T, "M.kt": M, "Use.kt": USE})


@pytest.fixture(scope="module")
def store(tmp_path_factory, jdx_home):
    from tests.kotlin.corpus import indexed_store

    yield from indexed_store(tmp_path_factory, jdx_home, fixture_jar(), "ktinl30", "inline-t30.jar")


# --- the javap oracle ----------------------------------------------------------------------------------------------
def _classes(jar: Path) -> dict[str, dict]:
    """Class name (`kt30/Flows__TKt`) -> {"methods": {ref: [lines]}, "smap": text}, read from javap."""
    import zipfile

    names = sorted(n[:-6] for n in zipfile.ZipFile(jar).namelist() if n.endswith(".class"))
    out = jdktool.check_output(["javap", "-v", "-c", "-l", "-p", "-cp", str(jar), *names], text=True)
    classes = {}
    for block in out.split("Classfile ")[1:]:
        name = re.search(r"!/(.+)\.class", block).group(1)
        smap = _smap(block)
        methods, current = {}, None
        for line in block.splitlines():
            head = re.match(r"^  (?:[\w.<>,$\[\]? ]+ )?([\w$<>]+)\(([^)]*)\)(?: throws [\w.$, ]+)?;$", line)
            if head:
                current = f"{name.replace('/', '.')}#{head.group(1)}({head.group(2)})"
                methods[current] = []
            elif current and (m := re.match(r"^\s+line (\d+): \d+$", line)):
                methods[current].append(int(m.group(1)))
        classes[name] = {"methods": methods, "smap": smap}
    return classes


def _smap(block: str) -> str:
    """The SourceDebugExtension text of one class's javap block (its indented lines after the attribute's name)."""
    if "\nSourceDebugExtension:\n" not in block:
        return ""
    out = []
    for line in block.split("\nSourceDebugExtension:\n", 1)[1].splitlines():
        if not line.startswith("  "):
            break
        out.append(line.strip())
    return "\n".join(out)


def _strata(smap: str) -> dict[str, list[tuple[str | None, int, int, int]]]:
    """Stratum -> its line entries (file path, first input line, first output line, output line count)."""
    out: dict[str, list] = {}
    stratum = section = None
    files: dict[int, str | None] = {}
    last_file = 1
    lines = [x.strip() for x in smap.splitlines()]
    i = 0
    while i < len(lines):
        x = lines[i]
        if x.startswith("*S "):
            stratum, section, files, last_file = x[3:], None, {}, 1
            out[stratum] = []
        elif x.startswith("*"):  # *F, *L, *E
            section = x
        elif section == "*F" and x.startswith("+ "):
            files[int(x.split()[1])] = lines[i + 1]
            i += 1
        elif section == "*L" and x:
            src, dst = x.split(":")
            src, _, repeat = src.partition(",")
            src, _, fid = src.partition("#")
            dst, _, incr = dst.partition(",")
            last_file = int(fid) if fid else last_file
            out[stratum].append((files.get(last_file), int(src), int(dst), int(repeat or 1) * int(incr or 1)))
        i += 1
    return out


def oracle(jar: Path, part: str, function: str) -> tuple[set[tuple[str, int]], set[str]]:
    """(the inlined calls of `part`'s `function`: (calling method, line of the call), the methods holding a copy of
    its own body): each output line the Kotlin stratum maps into the function's lines is a call where the
    KotlinDebug stratum gives its call line, a copy of the body where it gives none."""
    classes = _classes(jar)
    # the part's own lines: its SMAP's `1#1,N:1` (its LineNumberTable also holds the lines of code it inlined)
    own_last = next(n for path, first_in, first_out, n in _strata(classes[part]["smap"])["Kotlin"]
                    if path == part and first_in == first_out == 1)
    (lines,) = [ls for ref, ls in classes[part]["methods"].items() if ref.split("#")[1].startswith(function + "(")]
    span = range(min(x for x in lines if x <= own_last), max(x for x in lines if x <= own_last) + 1)
    calls, copies = set(), set()
    for info in classes.values():
        strata = _strata(info["smap"])
        debug = strata.get("KotlinDebug", [])
        for path, first_in, first_out, count in strata.get("Kotlin", []):
            if path != part or first_in not in span:
                continue
            for ref, ls in info["methods"].items():
                for out_line in (x for x in ls if first_out <= x < first_out + count):
                    call = [c for _, c, o, n in debug if o <= out_line < o + n]
                    if call:
                        calls.add((ref, call[0]))
                    else:
                        copies.add(ref)
    return calls, copies


# --- the answers ---------------------------------------------------------------------------------------------------
def _usage_sites(store, ref: str) -> set[tuple[str, int]]:
    from jdx.engine.rel_usages import UsageOptions, usages

    result, _, _ = usages(store, ref, UsageOptions())
    return {(c["caller"], s["line"]) for g in result["groups"] for c in g["callers"] for s in c["sites"]}


def _caller_sites(store, ref: str) -> set[tuple[str, int]]:
    """`callers`' direct callers, a multi-file facade's copy read as its part's method (the code the lines are in)."""
    from jdx.engine.rel_calls import CallOptions, call_tree

    result, _ = call_tree(store, ref, CallOptions(depth=1), "in")
    return {(e.get("part") or e["method"], line) for e in result["roots"][0]["tree"] for line in e["lines"]}


def test_the_oracle_sees_calls_and_copies():
    calls, copies = oracle(fixture_jar(), PART, "mapped")
    assert {(ref.split("(")[0], line) for ref, line in calls} == {
        ("kt30.Flows__MKt#doubled", 5), ("kt30.Flows__MKt#tripled", 8), ("kt30.use.Client#run", 6)}
    assert copies and all("$$inlined$" in ref for ref in copies), copies


@pytest.mark.parametrize("ref", ["kt30.Flows#mapped", "kt30.mapped", "kt30.Flows__TKt#mapped"])
def test_usages_of_a_facades_inline_function_are_its_inlined_calls(store, ref):
    calls, copies = oracle(fixture_jar(), PART, "mapped")
    sites = _usage_sites(store, ref)
    assert sites == calls, (sites, calls)
    assert not {c for c, _ in sites} & copies  # the function's own body, copied: no caller of it
    assert _caller_sites(store, ref) == sites


@pytest.mark.soak  # slow: indexes kotlinx-coroutines and kotlin-stdlib
def test_coroutines_flow_map_usages_equal_its_callers(tmp_path_factory, jdx_home):
    if not (COROUTINES.exists() and STDLIB_1910.exists()):
        missing = [str(p) for p in (COROUTINES, STDLIB_1910) if not p.exists()]
        print(f"skipped: {', '.join(missing)} absent from ~/.m2")
        pytest.skip(f"{', '.join(missing)} absent from ~/.m2")
    from tests.kotlin.corpus import indexed_store

    gen = indexed_store(tmp_path_factory, jdx_home, COROUTINES, "ktcoro30", COROUTINES.name, (STDLIB_1910,))
    store = next(gen)
    try:
        calls, copies = oracle(COROUTINES, "kotlinx/coroutines/flow/FlowKt__TransformKt", "map")
        sites = _usage_sites(store, "kotlinx.coroutines.flow.map")
        assert sites and sites == _caller_sites(store, "kotlinx.coroutines.flow.map"), sites
        # (javap writes generic parameter types: methods compared by name)
        assert {(c.split("(")[0], line) for c, line in sites} == {(c.split("(")[0], line) for c, line in calls}
        assert copies and not {c.split("(")[0] for c, _ in sites} & {c.split("(")[0] for c in copies}
    finally:
        gen.close()
