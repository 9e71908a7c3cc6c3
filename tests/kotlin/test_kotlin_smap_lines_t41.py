"""A Kotlin method's line range counts only its file's own lines (docs/kotlin.md, Inline functions): kotlinc numbers
code it inlined or copied past the file's last line (`1#1,N:1` of the SMAP's `Kotlin` stratum gives N) and the
`KotlinDebug` stratum maps an inlined call's lines back to the line of the call. A virtual line it maps nowhere (the
body of an inline function's object, or the lambda passed to it, regenerated in another class; kotlinc 2's `fake.kt`
lines) is code copied, not called: never part of the method's range nor an inlined call of it. And an inlined call
names the function kotlinc's `$i$f$name` marker names, also when the class on the classpath is another version than
the caller was compiled against (its lines moved).

Trial T41: `resolve kotlin.script.experimental.api.ErrorHandlingKt.valueOrThrow` printed lines 304-397 (304-309 plus
the `fake.kt` line 397 past errorHandling.kt's 348 lines); `calls ReflectJvmMapping#kotlinProperty` (kotlin-reflect
1.6.10 over kotlin-stdlib 1.8.21) named `dropLast` as inlined, its range 721-3699 swallowing line 798 where
`filterIsInstance` was in the stdlib kotlin-reflect was compiled against.

Oracle: `javap -v -l -p` of the compiled classes: each method's LineNumberTable read through its class's SMAP, and
the `$i$f$` markers of its LocalVariableTable. Fixtures compiled here by kotlinc (1.3 on the CI machine)."""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

import pytest

from tests.fixtures import jdktool
from tests.kotlin.test_kotlin_inline_t30 import _smap, _strata

pytestmark = pytest.mark.soak  # a trial's regression family with its own graph builds: the soak runs it whole (.ci/run)

LIB = '''@file:JvmName("Lib41")
package t41

interface Src {
    fun get(x: Int): Int
}

inline fun unsafe(crossinline block: (Int) -> Int): Src = object : Src {
    override fun get(x: Int): Int {
        val y = x + 1
        return block(y)
    }
}

inline fun <T> pick(xs: List<T>, test: (T) -> Boolean): T? {
    for (x in xs) {
        if (test(x)) return x
    }
    return null
}
'''
# the library's next version: a plain function now where `pick` was, `pick` further down
SPACER = '''fun spacer(n: Int): Int {
    var s = 0
    for (i in 0 until n) {
        s += i
    }
    s += 1
    s += 2
    return s
}

'''
LIB_V2 = LIB.replace("inline fun <T> pick", SPACER + "inline fun <T> pick")
USE = '''package t41.use

import t41.*

class Client {
    fun src(): Src = unsafe { v ->
        v * 2
    }

    fun first(xs: List<String>): String? {
        val a = pick(xs) { it.isEmpty() }
        return a
    }
}
'''
M2 = Path.home() / ".m2/repository/org/jetbrains/kotlin"
SCRIPTING = [M2 / f"{a}/2.0.21/{a}-2.0.21.jar" for a in ("kotlin-scripting-common", "kotlin-scripting-jvm",
                                                          "kotlin-stdlib")]
REFLECT = [M2 / "kotlin-reflect/1.6.10/kotlin-reflect-1.6.10.jar", M2 / "kotlin-stdlib/1.8.21/kotlin-stdlib-1.8.21.jar"]


def _jar() -> Path:
    from tests.kotlin.corpus import kotlinc_jar

    return kotlinc_jar("smap-lines-t41", {"Lib.kt": LIB, "Use.kt": USE})


def _skewed_jar(tmp_path_factory) -> Path:
    """The callers of `_jar()` over the library's next version (compiled alone): `pick`'s SMAP line is `spacer`'s."""
    from tests.kotlin.corpus import kotlinc_jar

    lib = kotlinc_jar("smap-lines-t41-v2", {"Lib.kt": LIB_V2})
    out = tmp_path_factory.mktemp("t41skew") / "skewed.jar"
    with zipfile.ZipFile(out, "w") as z:
        for jar, keep in ((_jar(), lambda n: n.startswith("t41/use/")), (lib, lambda n: True)):
            with zipfile.ZipFile(jar) as src:
                for name in src.namelist():
                    if keep(name) and name not in z.namelist():
                        z.writestr(name, src.read(name))
    return out


@pytest.fixture(scope="module")
def store(tmp_path_factory, jdx_home):
    from tests.kotlin.corpus import indexed_store

    yield from indexed_store(tmp_path_factory, jdx_home, _jar(), "kt41", "smap-lines.jar")


@pytest.fixture(scope="module")
def skewed_jar(tmp_path_factory):
    return _skewed_jar(tmp_path_factory)


@pytest.fixture(scope="module")
def skewed(tmp_path_factory, jdx_home, skewed_jar):
    from tests.kotlin.corpus import indexed_store

    yield from indexed_store(tmp_path_factory, jdx_home, skewed_jar, "kt41s", "skewed.jar")


# --- the javap oracle ----------------------------------------------------------------------------------------------
def _javap(jar: Path, names: list[str] | None = None) -> dict[str, dict]:
    """Class name (`t41/use/Client`) -> {"methods": {name: [{"lines": [...], "markers": [(start, end, name)]}]},
    "smap": text}: every method of that name (overloads), its LineNumberTable and its `$i$` markers."""
    if names is None:
        names = sorted(n[:-6] for n in zipfile.ZipFile(jar).namelist() if n.endswith(".class"))
    out = jdktool.check_output(["javap", "-v", "-l", "-p", "-cp", str(jar), *names], text=True)
    classes = {}
    for block in out.split("Classfile ")[1:]:
        name = re.search(r"!/(.+)\.class", block).group(1)
        methods, current = {}, None
        for line in block.splitlines():
            head = re.match(r"^  (?:[\w.<>,$\[\]? ]+ )?([\w$<>.]+)\([^)]*\)(?: throws [\w.$, ]+)?;$", line)
            if head:  # (a constructor: by its class's name)
                current = {"lines": [], "markers": []}
                methods.setdefault(head.group(1).rsplit(".", 1)[-1], []).append(current)
            elif current and (m := re.match(r"^\s+line (\d+): \d+$", line)):
                current["lines"].append(int(m.group(1)))
            elif current and (m := re.match(r"^\s+(\d+)\s+(\d+)\s+\d+\s+(\$i\$[fa]\$\S*)\s+\S+$", line)):
                current["markers"].append((int(m.group(1)), int(m.group(1)) + int(m.group(2)), m.group(3)))
        classes[name] = {"methods": methods, "smap": _smap(block)}
    return classes


def own_range(lines: list[int], smap: str) -> tuple[int, int] | None:
    """The range of a method's lines in its own file: a line past the file's last (`1#1,N:1`) read as the line of
    the call the KotlinDebug stratum says inlined it, left out where it says none."""
    strata = _strata(smap)
    own_last = next((n for _, first_in, first_out, n in strata.get("Kotlin", []) if first_in == first_out == 1), None)
    calls = strata.get("KotlinDebug", [])
    mapped = []
    for x in lines:
        if own_last is None or x <= own_last:
            mapped.append(x)
        else:
            mapped += [c for _, c, o, n in calls if o <= x < o + n][:1]
    return (min(mapped), max(mapped)) if mapped else None


def inlined_functions(markers: list[tuple[int, int, str]]) -> set[str]:
    """The inline functions a method's code calls: its `$i$f$name` markers not inside another one (a function an
    inline function calls in its turn is that function's call)."""
    funs = [m for m in markers if m[2].startswith("$i$f$")]
    return {m[2][5:] for m in funs if not any(o is not m and o[0] <= m[0] and m[1] <= o[1] for o in funs)}


# --- the answers ---------------------------------------------------------------------------------------------------
def _method_ranges(store, owner: str) -> dict[str, list[tuple[int, int] | None]]:
    """Method name -> the (first_line, last_line) of each method of that name the graph holds for class `owner`."""
    out: dict[str, list] = {}
    rows = store.rows("MATCH (m:Method) WHERE m.id STARTS WITH $p RETURN m.id AS id, m.first_line AS f, "
                      "m.last_line AS l", {"p": owner + "#"})
    for r in rows:
        name = r["id"].split("#", 1)[1].split("(", 1)[0]
        out.setdefault(name, []).append((r["f"], r["l"]) if r["f"] is not None and r["f"] >= 0 else None)
    return out


def _inlined_calls(store, ref: str) -> set[str]:
    """The methods `calls ref` lists as inlined: `owner#name`."""
    from jdx.engine.rel_calls import CallOptions, call_tree

    result, _ = call_tree(store, ref, CallOptions(depth=1, limit=10_000), "out")
    return {e["method"].split("(")[0] for e in result["roots"][0]["tree"] if "inline" in e.get("kinds", ())}


def test_the_fixture_has_virtual_lines_no_call_maps_back():
    """The regenerated object's `get` holds its file's own lines and a line of the lambda, past the file's end,
    that the SMAP maps to no call: the case the ranges below are about."""
    classes = _javap(_jar())
    (get,) = classes["t41/use/Client$src$$inlined$unsafe$1"]["methods"]["get"]
    smap = classes["t41/use/Client$src$$inlined$unsafe$1"]["smap"]
    assert own_range(get["lines"], smap) != (min(get["lines"]), max(get["lines"])), (get, smap)


def test_method_lines_are_the_files_own(store):
    classes = _javap(_jar())
    checked = 0
    for cls, info in classes.items():
        ranges = _method_ranges(store, cls)
        for name, methods in info["methods"].items():
            if name.startswith("<") or name not in ranges:
                continue
            expected = sorted((own_range(m["lines"], info["smap"]) for m in methods), key=str)
            assert sorted(ranges[name], key=str) == expected, (cls, name, methods, info["smap"])
            checked += 1
    assert checked >= 6


def test_calls_name_the_functions_inlined(store):
    classes = _javap(_jar())
    for cls, method in (("t41/use/Client", "first"), ("t41/use/Client", "src"),
                        ("t41/use/Client$src$$inlined$unsafe$1", "get")):
        (m,) = classes[cls]["methods"][method]
        expected = {f"t41.Lib41#{f}" for f in inlined_functions(m["markers"])}
        assert _inlined_calls(store, f"{cls.replace('/', '.')}#{method}") == expected, (cls, method, m)


@pytest.mark.soak  # slow: a second library build and index (the soak runs it: .ci/run)
def test_an_inlined_call_into_another_version_names_its_function(skewed, skewed_jar):
    """`pick`'s SMAP line is inside `spacer` in the library on the classpath: the marker names `pick`."""
    classes = _javap(skewed_jar, ["t41/use/Client", "t41/Lib41"])
    (first,) = classes["t41/use/Client"]["methods"]["first"]
    pick_line = next(first_in for path, first_in, first_out, n in _strata(classes["t41/use/Client"]["smap"])["Kotlin"]
                     if path == "t41/Lib41" and any(first_out <= x < first_out + n for x in first["lines"]))
    (spacer,) = classes["t41/Lib41"]["methods"]["spacer"]
    assert min(spacer["lines"]) <= pick_line <= max(spacer["lines"]), (spacer, pick_line)  # the skew is real
    assert _inlined_calls(skewed, "t41.use.Client#first") == {f"t41.Lib41#{f}"
                                                               for f in inlined_functions(first["markers"])} \
        == {"t41.Lib41#pick"}


# --- the trial's jars ----------------------------------------------------------------------------------------------
def _m2_store(tmp_path_factory, jdx_home, jars: list[Path], name: str):
    missing = [str(p) for p in jars if not p.exists()]
    if missing:
        print(f"skipped: {', '.join(missing)} absent from ~/.m2")
        pytest.skip(f"{', '.join(missing)} absent from ~/.m2")
    from tests.kotlin.corpus import indexed_store

    return indexed_store(tmp_path_factory, jdx_home, jars[0], name, jars[0].name, tuple(jars[1:]))


def _class_bytes_jar(jar: Path, cls: str, tmp: Path) -> Path:
    """A jar of one class of `jar` (javap reads it without the rest)."""
    out = tmp / (cls.replace("/", "_") + ".jar")
    with zipfile.ZipFile(jar) as src, zipfile.ZipFile(out, "w") as z:
        z.writestr(cls + ".class", src.read(cls + ".class"))
    return out


@pytest.mark.soak  # slow: indexes kotlin-stdlib 2.0.21
def test_trial_value_or_throw_lines(tmp_path_factory, jdx_home):
    gen = _m2_store(tmp_path_factory, jdx_home, SCRIPTING, "kt41sc")
    store = next(gen)
    try:
        cls = "kotlin/script/experimental/api/ErrorHandlingKt"
        info = _javap(_class_bytes_jar(SCRIPTING[0], cls, tmp_path_factory.mktemp("t41sc")), [cls])[cls]
        (m,) = info["methods"]["valueOrThrow"]
        assert own_range(m["lines"], info["smap"]) == (304, 309)
        assert _method_ranges(store, cls)["valueOrThrow"] == [(304, 309)]
    finally:
        gen.close()


@pytest.mark.soak  # slow: indexes kotlin-reflect and kotlin-stdlib 1.8.21
def test_trial_kotlin_property_inlined_calls(tmp_path_factory, jdx_home):
    gen = _m2_store(tmp_path_factory, jdx_home, REFLECT, "kt41rf")
    store = next(gen)
    try:
        cls = "kotlin/reflect/jvm/ReflectJvmMapping"
        info = _javap(_class_bytes_jar(REFLECT[0], cls, tmp_path_factory.mktemp("t41rf")), [cls])[cls]
        (m,) = info["methods"]["getKotlinProperty"]
        expected = {f"kotlin.collections.CollectionsKt___CollectionsKt#{f}" for f in inlined_functions(m["markers"])}
        assert expected == {"kotlin.collections.CollectionsKt___CollectionsKt#filterIsInstance",
                            "kotlin.collections.CollectionsKt___CollectionsKt#firstOrNull"}
        assert _inlined_calls(store, "kotlin.reflect.jvm.ReflectJvmMapping#getKotlinProperty") == expected
        stdlib = "kotlin/collections/CollectionsKt___CollectionsKt"
        sinfo = _javap(_class_bytes_jar(REFLECT[1], stdlib, tmp_path_factory.mktemp("t41st")), [stdlib])[stdlib]
        (drop_last,) = sinfo["methods"]["dropLast"]
        assert _method_ranges(store, stdlib)["dropLast"] == [own_range(drop_last["lines"], sinfo["smap"])] \
            == [(721, 722)]
    finally:
        gen.close()
