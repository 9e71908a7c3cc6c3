"""`imports` of a companion object's members by their Kotlin names (T41, spec §7.2): a trial on kotlin-stdlib 2.0.21
found `imports seconds` answering only the top-level `val Int.seconds` a deprecation hid (`hiddenSince = "1.9"`,
synthetic on the JVM), not the usable `Duration.Companion`'s `val Int.seconds`; `imports Duration.Companion#parse`
answering a Java-style "instance method" of the mangled `parse-UwyO8pc`; `imports Duration#parse` not found; and
`Companion#seconds` naming the hidden `fun seconds(value: Int)`'s JVM name, not the property's getter.

The fixture's shape is `Duration`'s, compiled by the Debian kotlinc (Kotlin 1.3: an `inline class` parameter mangles
a member's JVM name, `level = HIDDEN` makes its JVM members synthetic). Oracles: `javap -p -v` (JVM names, flags) and
kotlinc compiling a snippet that uses the suggested imports. The trial's own jars are the soak's (skipped, saying
why, when the local Maven repository lacks them)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from jdx.engine.imports import imports
from jdx.errors import AmbiguousError
from tests.fixtures import jdktool
from tests.kotlin.corpus import jar_fixtures, kotlinc_jar

pytestmark = pytest.mark.soak  # a trial's regression family with its own graph builds: the soak runs it whole (.ci/run)

LIB = '''package kt41

inline class Span(val raw: Long)

class Clock(val span: Span) {
    companion object {
        fun parse(span: Span): Clock = Clock(span)
        fun convert(value: Double): Double = value
        val Int.ticks: Long get() = toLong()
        @Deprecated("use Int.ticks", level = DeprecationLevel.HIDDEN)
        fun ticks(value: Int): Long = value.toLong()
    }
}

@Deprecated("use Clock.ticks", level = DeprecationLevel.HIDDEN)
val Int.ticks: Long get() = toLong()
'''

# the imports `imports` suggests (the note's class import the last): kotlinc compiles them with the fixture
SUGGESTED = ["import kt41.Clock.Companion.ticks", "import kt41.Clock.Companion.parse", "import kt41.Clock"]
USE = "package use\n" + "\n".join(SUGGESTED) + '''
import kt41.Span

fun a(): Long = 3.ticks
fun b(): Clock = parse(Span(1L))
fun c(): Clock = Clock.parse(Span(2L))
'''


def _jar() -> Path:
    return kotlinc_jar("imports-t41", {"Lib.kt": LIB, "Use.kt": USE})


store, jar_args = jar_fixtures(_jar, "kt41", "t41.jar")


def _javap(jar: Path, cls: str) -> dict[str, str]:
    """`name(params)` -> its flags line, of every method of `cls` (javap -p -v)."""
    out = jdktool.run(["javap", "-p", "-v", "-cp", str(jar), cls], capture_output=True, text=True, check=True).stdout
    found, name = {}, None
    for line in out.splitlines():
        m = re.match(r"\s+(?:[\w<>,.? \[\]$]+ )?([\w$-]+\([^)]*\));$", line)
        if m:
            name = m.group(1)
        elif name and line.strip().startswith("flags:"):
            found[name] = line.strip()
            name = None
    return found


def _kotlin(answer: dict) -> list[dict]:
    return [e for e in answer["imports"] if e.get("language") == "kotlin"]


def test_a_bare_name_answers_the_companion_member_before_the_top_level_one_a_deprecation_hid(store):
    companion, facade = _javap(_jar(), "kt41.Clock$Companion"), _javap(_jar(), "kt41.LibKt")
    assert "ACC_SYNTHETIC" in facade["getTicks(int)"]  # the hidden top-level `val Int.ticks`
    assert "ACC_SYNTHETIC" in companion["ticks(int)"]  # the hidden `fun ticks(value: Int)`
    assert "ACC_SYNTHETIC" not in companion["getTicks(int)"]  # the usable `val Int.ticks`: its getter
    entries = _kotlin(imports(store, "ticks")[0])
    assert [e["statement"] for e in entries] == ["import kt41.Clock.Companion.ticks", "import kt41.ticks"], entries
    assert entries[0]["declarations"] == ["public val Int.ticks: Long"]
    assert entries[0]["ref"] == "kt41.Clock$Companion#getTicks(int)"
    assert "hidden by deprecation" in entries[1]["note"] and "hidden" not in entries[0].get("note", "")


def test_a_companion_name_is_its_usable_declaration_not_the_hidden_namesake(store):
    answer = imports(store, "kt41.Clock.Companion#ticks")[0]
    [entry] = _kotlin(answer)
    assert entry["statement"] == "import kt41.Clock.Companion.ticks"
    assert entry["declarations"] == ["public val Int.ticks: Long"]  # not the hidden `fun ticks(value: Int)`
    assert entry["ref"] == "kt41.Clock$Companion#getTicks(int)" and "getTicks(int)" in entry["note"]


@pytest.mark.parametrize("written", ["kt41.Clock.Companion#parse", "kt41.Clock#parse", "parse",
                                     "kt41.Clock.Companion.parse"])
def test_a_mangled_companion_function_is_imported_by_its_kotlin_name(store, written):
    mangled = [n for n in _javap(_jar(), "kt41.Clock$Companion") if n.startswith("parse-")]
    assert len(mangled) == 1 and re.fullmatch(r"parse-[\w-]{7}\(long\)", mangled[0]), mangled
    answer = imports(store, written)[0]
    assert "member" not in answer  # no "instance method" answer of its JVM name
    [entry] = answer["imports"]  # Java cannot name `parse-…`: no Java import
    assert entry["statement"] == "import kt41.Clock.Companion.parse", entry
    assert entry["ref"] == f"kt41.Clock$Companion#{mangled[0]}"
    assert entry["declarations"] == ["public fun parse(span: Span): Clock"]
    assert "or import kt41.Clock and write Clock.parse(…)" in entry["note"], entry


def test_a_plain_companion_function_by_its_bare_name(store):
    [entry] = _kotlin(imports(store, "convert")[0])
    assert entry["statement"] == "import kt41.Clock.Companion.convert"
    assert "Java calls it as kt41.Clock$Companion#convert(double)" in entry["note"]


def test_the_suggested_imports_compile(store):
    """The oracle: kotlinc compiled a snippet using these imports with the fixture (`use.UseKt`)."""
    assert "a()" in " ".join(_javap(_jar(), "use.UseKt"))
    ticks = _kotlin(imports(store, "ticks")[0])[0]["statement"]
    parse = _kotlin(imports(store, "kt41.Clock#parse")[0])[0]
    outer = re.search(r"or (import [\w.]+) and write Clock.parse", parse["note"]).group(1)
    assert [ticks, parse["statement"], outer] == SUGGESTED


def test_several_usable_places_are_an_ambiguity_listing_the_kotlin_names(tmp_path_factory, jdx_home):
    """A top-level `fun ticks()` a caller can use beside the companion's `Int.ticks`: no guess (spec §3.3)."""
    from tests.kotlin.corpus import indexed_store

    jar = kotlinc_jar("imports-t41-two", {"Lib.kt": LIB.replace("@Deprecated(\"use Clock.ticks\", level = "
                                                                 "DeprecationLevel.HIDDEN)\n", "")})
    assert "ACC_SYNTHETIC" not in _javap(jar, "kt41.LibKt")["getTicks(int)"]
    both = indexed_store(tmp_path_factory, jdx_home, jar, "kt41-two", "t41two.jar")
    try:
        with pytest.raises(AmbiguousError) as exc:
            imports(next(both), "ticks")
        assert [c["ref"] for c in exc.value.candidates] == ["kt41.ticks", "kt41.Clock.Companion.ticks"]
    finally:
        next(both, None)


M2 = Path.home() / ".m2/repository/org/jetbrains/kotlin"
TRIAL_JARS = [M2 / f"{a}/2.0.21/{a}-2.0.21.jar" for a in ("kotlin-scripting-common", "kotlin-scripting-jvm",
                                                           "kotlin-stdlib")]


@pytest.fixture(scope="module")
def trial(jdx_home):
    missing = [str(j) for j in TRIAL_JARS if not j.exists()]
    if missing:
        pytest.skip(f"the trial's jars are absent from the local Maven repository: {', '.join(missing)}")
    from jdx.commands.session import Options, Session

    session = Session(Options(jars=[str(j) for j in TRIAL_JARS], jdk=False, cache_dir=str(jdx_home / "cache")))
    session.index()
    yield session.store()
    session.close()


@pytest.mark.soak
def test_the_trial_on_kotlin_stdlib_duration(trial):
    companion = _javap(TRIAL_JARS[2], "kotlin.time.Duration$Companion")
    getters = [n for n in companion if re.fullmatch(r"getSeconds-[\w-]{7}\(int\)", n)]
    assert len(getters) == 1 and "ACC_SYNTHETIC" not in companion[getters[0]], getters
    assert "ACC_SYNTHETIC" in _javap(TRIAL_JARS[2], "kotlin.time.DurationKt")["getSeconds(int)"]  # hiddenSince 1.9
    entries = _kotlin(imports(trial, "seconds")[0])
    assert [e["statement"] for e in entries] == ["import kotlin.time.Duration.Companion.seconds",
                                                 "import kotlin.time.seconds"], entries
    assert getters[0].split("(")[0] in entries[0]["note"] and "hidden by deprecation" in entries[1]["note"]
    [seconds] = _kotlin(imports(trial, "kotlin.time.Duration.Companion#seconds")[0])
    assert seconds["declarations"] == ["public val Double.seconds: Duration", "public val Int.seconds: Duration",
                                       "public val Long.seconds: Duration"], seconds
    parse = [n for n in companion if re.fullmatch(r"parse-[\w-]{7}\(java\.lang\.String\)", n)]
    assert len(parse) == 1, companion
    for written in ("kotlin.time.Duration.Companion#parse", "kotlin.time.Duration#parse"):
        [entry] = imports(trial, written)[0]["imports"]
        assert entry["statement"] == "import kotlin.time.Duration.Companion.parse", entry
        assert entry["ref"] == f"kotlin.time.Duration$Companion#{parse[0]}"
        assert "or import kotlin.time.Duration and write Duration.parse(…)" in entry["note"]
