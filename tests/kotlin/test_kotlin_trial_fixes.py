"""Kotlin answers a trial against javap and kotlinc found wrong (spec §11.1, §7.1, §12.1):

- `body` of a Kotlin method whose sources jar is of another version took the declaration of the same name the line
  table pointed at (`fun f(x: Long)` for the jar's `f(int)`, a renamed `@JvmName`, a flipped `suspend`, a changed
  return type) and printed it as source. A declaration must compile to the method's JVM name and descriptor; when
  none does, SOURCES_VERSION_MISMATCH and the bytecode's text, as for Java. The paired sources must still give every
  method its source (the false-positive side).
- `outline` listed a function `@Deprecated(level = HIDDEN)` (javap: ACC_SYNTHETIC; `members` leaves it out) as API.
- the Kotlin view of `signature` dropped the member's annotations (`@Deprecated`), which `--view jvm` prints.

One kotlinc call compiles the fixture (shared by the module); the paired and the mismatched sources jars are zipped
from the same text, the mismatched one edited."""

from __future__ import annotations

import re
import zipfile

import pytest

from jdx.engine.refs import format_member
from jdx.engine.src_body import BodyOptions
from tests.kotlin.corpus import kotlinc_jar
from tests.fixtures.javac import javap
from tests.service import JdxService, Options

pytestmark = pytest.mark.soak  # a trial's regression family with its own graph builds: the soak runs it whole (.ci/run)

B = '''package q

class B {
    fun f(x: Int): Int = x * 2
    fun g(s: String): String = s + "!"
    fun Int.ext(y: Long): Long = this + y
    fun nul(x: Int?): Int = x ?: 0
    fun dflt(a: Int, b: Int = 3): Int = a + b
    @JvmOverloads fun over(a: Int, b: Int = 3, c: String = ""): Int = a + b
    suspend fun susp(x: Int): Int = x
    fun ret(x: Int): Int = x
    fun block(x: Long?) { println(x) }
    @Deprecated("gone", level = DeprecationLevel.HIDDEN) fun hid(): Int = 1
    @Deprecated("soft") fun soft(): Int = 1
}
'''

API = '''package lib

class Api {
    @JvmName("jvmOld")
    fun renamed(x: Int): Int = x + 1
    fun plain(x: Int): Int = x
}
'''

L = '''package lib

fun topLevel(x: Int): Int = x + 1
fun Int?.orZero(): Int = this ?: 0
fun String.shout(vararg marks: Int): String = this + marks.size
'''

TRICKY = '''@file:JvmName("TrickyFns")
package t

typealias Name = String

interface Shape {
    fun area(scale: Double = 1.0): Double
    fun describe(prefix: String): String = prefix + area()
}

open class Box<T : Comparable<T>>(val item: T) : Shape {
    override fun area(scale: Double): Double = scale
    fun <R> map(f: (T) -> R): R = f(item)
    fun put(x: T, vararg more: T): Int = more.size
    fun ints(vararg xs: Int): IntArray = xs
    fun arr(a: Array<String>, b: Array<Int>, c: Array<out Any?>): Array<String> = a
    fun names(n: Name): Name = n
    fun nothing(): Nothing = throw IllegalStateException()
    fun unit(): Unit {}
    internal fun hidden(x: Int): Int = x
    operator fun plus(other: Box<T>): Box<T> = this
    infix fun with(other: T): Pair<T, T> = Pair(item, other)
    inline fun <reified S> cast(x: Any): S? = x as? S
    fun List<Int>?.sumOr(d: Int = 0): Int = this?.sum() ?: d
    suspend fun load(id: String, retry: Int = 3): List<String> = listOf(id)
    fun chars(c: Char, b: Byte, s: Short, f: Float, z: Boolean): Char? = c
    fun map2(m: Map<String, List<Int>>, e: Map.Entry<String, Int>): MutableList<String> = mutableListOf()
    fun lambda(): () -> Unit {
        fun local(): Int = 1
        return { local() }
    }
    var count: Int = 0
        set(value) { field = value + 1 }
    companion object {
        @JvmStatic fun of(x: String): Box<String> = Box(x)
        @JvmStatic @JvmOverloads fun many(a: Int, b: Long = 2, c: String? = null): Int = a
    }
}

object Reg {
    @JvmStatic fun register(name: String, vararg tags: String): Boolean = true
    fun over(a: Int) = a
    fun over(a: String) = a
    fun over(a: Int, b: Int) = a + b
}

data class P(val x: Int, val y: String?) {
    fun scaled(k: Int = 2): P = copy(x = x * k)
}

enum class Color(val rgb: Int) {
    RED(1), GREEN(2);
    fun hex(): String = rgb.toString(16)
}

fun top(x: Int, y: Int = 2): Int = x + y
fun <T> T.also2(block: (T) -> Unit): T { block(this); return this }
@JvmName("renamedTop") fun topNamed(s: String): String = s
suspend fun topSusp(): Unit {}
'''

SOURCES = {"q/B.kt": B, "lib/Api.kt": API, "lib/L.kt": L, "t/Tricky.kt": TRICKY}

# (ref, the edit the mismatched sources make): each compiles to another JVM member than the jar's
EDITS = {
    "q.B#f(int)": ("q/B.kt", "fun f(x: Int): Int = x * 2", "fun f(x: Long): Long = x * 100"),
    "q.B#susp(int,kotlin.coroutines.Continuation)": ("q/B.kt", "suspend fun susp", "fun susp"),
    "q.B#ret(int)": ("q/B.kt", "fun ret(x: Int): Int = x", "fun ret(x: Int): Long = x.toLong()"),
    "q.B#block(java.lang.Long)": ("q/B.kt", "fun block(x: Long?)", "fun block(x: Long)"),
    "q.B#nul(java.lang.Integer)": ("q/B.kt", "fun nul(x: Int?)", "fun nul(x: String?)"),
    "lib.Api#jvmOld(int)": ("lib/Api.kt", '@JvmName("jvmOld")', '@JvmName("jvmNew")'),
    "lib.Api#plain(int)": ("lib/Api.kt", "fun plain(x: Int)", '@JvmName("other") fun plain(x: Int)'),
    "lib.LKt#topLevel(int)": ("lib/L.kt", "fun topLevel(x: Int): Int = x + 1",
                              "fun topLevel(x: Int, y: Int): Int = x + y"),
    "lib.LKt#orZero(java.lang.Integer)": ("lib/L.kt", "fun Int?.orZero()", "fun Int.orZero()"),
    "lib.LKt#shout(java.lang.String,int[])": ("lib/L.kt", "vararg marks: Int", "vararg marks: Long"),
}


def _zip(path, texts: dict[str, str]) -> None:
    with zipfile.ZipFile(path, "w") as zf:
        for name, text in sorted(texts.items()):
            zf.writestr(name, text)


@pytest.fixture(scope="module")
def jar():
    return kotlinc_jar("trial-fixes", {name.rsplit("/", 1)[-1]: text for name, text in SOURCES.items()})


@pytest.fixture(scope="module")
def services(jar, tmp_path_factory, jdx_home):
    root = tmp_path_factory.mktemp("kt-trial-fixes")
    edited = dict(SOURCES)
    for file, old, new in EDITS.values():
        assert old in edited[file], old
        edited[file] = edited[file].replace(old, new, 1)
    _zip(root / "paired-sources.jar", SOURCES)
    _zip(root / "other-sources.jar", edited)
    made = {name: JdxService(Options(jars=[str(jar)], sources=[str(root / f"{name}-sources.jar")], jdk=False,
                                     cache_dir=str(jdx_home / "cache")))
            for name in ("paired", "other")}
    yield made
    for s in made.values():
        s.close()


@pytest.mark.soak  # slow: the soak runs it (.ci/run)
@pytest.mark.parametrize("ref", sorted(EDITS))
def test_sources_of_another_signature_are_a_mismatch_and_bytecode_is_shown(services, ref):
    answer = services["other"].body(ref, BodyOptions())
    r = answer.result
    assert r["origin"] != "sources", (ref, r["header"], r["text"])
    mismatch = [w.message for w in answer.warnings if w.code == "SOURCES_VERSION_MISMATCH"]
    assert any(r["ref"] in m and "other-sources.jar" in m for m in mismatch), (ref, mismatch)
    paired = services["paired"].body(ref, BodyOptions())  # the same member against its own sources
    assert paired.result["origin"] == "sources", (ref, paired.result["header"])
    assert not [w for w in paired.warnings if w.code == "SOURCES_VERSION_MISMATCH"]


def test_unedited_members_keep_their_source_beside_the_edited_ones(services):
    for ref in ("q.B#g(java.lang.String)", "q.B#dflt(int,int)", "q.B#ext(int,long)", "q.B#over(int)"):
        r = services["other"].body(ref, BodyOptions()).result
        assert r["origin"] == "sources", (ref, r["header"])


def test_paired_sources_give_every_method_its_source(services):
    """The false-positive side: every method of the jar (overloads, `$default` stubs, @JvmOverloads and
    @JvmStatic copies, suspend, extensions with nullable receivers, varargs, arrays, type parameters, a type alias,
    `internal` names, DefaultImpls) is its own source, with no SOURCES_VERSION_MISMATCH."""
    service = services["paired"]
    rows = service.store().query(
        "MATCH (t:Type)-[:DECLARES]->(m:Method) WHERE NOT t.external "
        "RETURN t.id AS t, m.name AS n, m.descriptor AS d, m.access AS a").to_pylist()
    checked, wrong = 0, []
    for row in rows:
        if (row["a"] & 0x1000 and not row["n"].endswith("$default")) or row["n"] == "<clinit>":
            continue
        ref = format_member(row["t"], row["n"], row["d"])
        answer = service.body(ref, BodyOptions())
        mismatch = [w.message for w in answer.warnings if w.code == "SOURCES_VERSION_MISMATCH"]
        if mismatch or answer.result["origin"] != "sources":
            wrong.append((ref, answer.result["header"], mismatch))
        checked += 1
    assert not wrong
    assert checked >= 70


def _javap(jar, cls: str) -> str:
    return javap(jar, cls, "-v")


def _method_block(javap: str, name: str) -> str:
    """javap -v's lines of the method `name` (its declaration line to the next member's)."""
    out: list[str] = []
    for line in javap.splitlines():
        if re.match(r"  \S", line):
            if out:
                break
            if re.search(rf"[ .]{re.escape(name)}\(", line):
                out.append(line)
        elif out:
            out.append(line)
    assert out, name
    return "\n".join(out)


def test_outline_leaves_out_what_deprecation_hides(services, jar):
    javap = _javap(jar, "q.B")
    assert "ACC_SYNTHETIC" in _method_block(javap, "hid")  # the oracle: kotlinc hid it
    assert "ACC_SYNTHETIC" not in _method_block(javap, "soft")
    from jdx.engine.cards import OutlineOptions
    from jdx.engine.members import MemberOptions

    service = services["paired"]
    members = {m["name"] for m in service.members("q.B", MemberOptions(inherited=False)).result["members"]}
    assert "hid" not in members and "soft" in members
    result = service.outline("q.B", OutlineOptions(view="kotlin")).result
    names = {e["name"] for e in result["kotlin_members"]}
    assert "hid" not in names and {"soft", "f", "susp"} <= names
    assert result["hidden_deprecated"] == 1
    shown = service.outline("q.B", OutlineOptions(view="kotlin", include_synthetic=True)).result
    hid = next(e for e in shown["kotlin_members"] if e["name"] == "hid")
    assert any("hidden" in m for m in hid["markers"])
    from jdx.render.cards import outline

    assert "1 hidden by deprecation (--include-synthetic)" in outline(result, False, None)[-1]


def test_kotlin_signature_keeps_the_deprecated_annotation(services, jar, run_jdx):
    assert "Deprecated: true" in _method_block(_javap(jar, "q.B"), "soft")
    r = run_jdx("signature", "q.B#soft", "--jars", str(jar), "--no-jdk")
    assert r.code == 0, r.out + r.err
    line = next(x for x in r.out.splitlines() if "fun soft" in x)
    assert '@kotlin.Deprecated(message="soft")' in line
    jvm = run_jdx("signature", "q.B#soft", "--jars", str(jar), "--no-jdk", "--view", "jvm")
    assert '@kotlin.Deprecated(message="soft")' in jvm.out
    plain = run_jdx("signature", "q.B#g", "--jars", str(jar), "--no-jdk")
    assert "@" not in next(x for x in plain.out.splitlines() if "fun g" in x)  # @NotNull is the type's, not shown
