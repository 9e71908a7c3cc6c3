"""Kotlin answers a trial against javap and javac found wrong (spec §12.1, §7.2):

- a sealed class's constructor (private on the JVM, its subclasses call a synthetic twin taking a
  DefaultConstructorMarker) was labelled `Kotlin-only: inline-only`: only an inline function's private method is.
- `imports` counted a `@Deprecated(level = HIDDEN)` declaration (synthetic, callable by nobody) as Kotlin-only.
- `imports` offered Java `import static LibKt.pause-2nRVGIY;` (a name kotlinc mangled for an inline class parameter:
  javac reads `-` as an operator), and the getter of an internal property of the same name as a public function.
- a class header dropped a constructor property's `open`.
- `outline --grep` counted hidden declarations the grep does not match.
- `imports` took a file's JVM package for its Kotlin package (`@JvmPackageName`: `kotlin.jdk7.use` is `kotlin.use`).

One kotlinc call (Kotlin 1.3) compiles the fixture; javap and javac are the oracles. The sealed-constructor and
stdlib tests skip without ktlint-rule-engine-core 1.5.0 / kotlin-stdlib 2.1.0 in the local Maven repository.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from jdx.engine.cards import OutlineOptions
from jdx.engine.imports import imports
from tests.kotlin.corpus import kotlinc_jar, stdlib_jar
from tests.kotlin.test_kotlin_trial_e import _javap, stdlib  # noqa: F401  (the stdlib 2.1.0 fixture)
from tests.service import JdxService, Options
from tests.fixtures import jdktool

pytestmark = pytest.mark.soak  # a trial's regression family with its own graph builds: the soak runs it whole (.ci/run)

LIB = '''package demo

interface Flow

fun Flow.collect(): Int = 1
@Deprecated("use collect()", level = DeprecationLevel.HIDDEN) fun Flow.collect(action: (Int) -> Unit): Int = 2
fun gather(): Int = 1
@Deprecated("use gather()", level = DeprecationLevel.HIDDEN) fun gather(x: Int): Int = x
fun zip(x: Int): Int = x
@Deprecated("gone", level = DeprecationLevel.HIDDEN) fun zap(): Int = 0
@Deprecated("gone", level = DeprecationLevel.HIDDEN) fun zipped(): Int = 0

inline class Span(val raw: Long)

fun pause(span: Span) {}
fun pause(millis: Long) {}
fun wait(span: Span) {}
internal val String.pause: Int get() = 1

open class Rule(open val ruleId: String, val plain: Int, protected open val scope: Long, private val secret: Int) {
    fun peek(): Int = secret
}
'''

KTLINT = (Path.home() / ".m2/repository/com/pinterest/ktlint/ktlint-rule-engine-core/1.5.0"
          / "ktlint-rule-engine-core-1.5.0.jar")


@pytest.fixture(scope="module")
def jar():
    return kotlinc_jar("trial-g", {"Lib.kt": LIB})


@pytest.fixture(scope="module")
def service(jar, jdx_home):
    s = JdxService(Options(jars=[str(jar)], jdk=False, cache_dir=str(jdx_home / "cache")))
    yield s
    s.close()


def _flags(javap: str, declaration: str) -> str:
    """The `flags:` line of the member javap -v prints as `declaration` (`public final int peek();`)."""
    lines = javap.splitlines()
    i = next(i for i, line in enumerate(lines) if line.strip() == declaration)
    return next(x for x in lines[i + 1:i + 4] if "flags:" in x)


def _javac_accepts(jar, tmp_path, source: str) -> bool:
    """Whether javac compiles `source` (a Java compilation unit) with `jar` on its class path."""
    javac = shutil.which("javac")
    if javac is None:
        pytest.skip("javac is not on PATH")
    src = tmp_path / "Client.java"
    src.write_text(source)
    return jdktool.run([javac, "-d", str(tmp_path), "-cp", str(jar), str(src)], capture_output=True).returncode == 0


def _outline(service, cls: str, **kw) -> dict:
    return service.outline(cls, OutlineOptions(view="kotlin", **kw)).result


def test_sealed_class_constructor_is_no_inline_only_function(jdx_home):
    if not KTLINT.exists():
        pytest.skip(f"{KTLINT} is absent")
    cls = "com.pinterest.ktlint.rule.engine.core.api.Rule$VisitorModifier"
    javap = _javap(KTLINT, cls)  # the oracle: a private constructor and its public synthetic twin
    assert "ACC_PRIVATE" in _flags(javap, f"private {cls}();")
    twin = _flags(javap, f"public {cls}(kotlin.jvm.internal.DefaultConstructorMarker);")
    assert "ACC_SYNTHETIC" in twin
    s = JdxService(Options(jars=[str(KTLINT)], jdk=False, cache_dir=str(jdx_home / "cache")))
    try:
        [ctor] = [e for e in _outline(s, cls)["kotlin_members"] if e["kind"] == "constructor"]
    finally:
        s.close()
    assert ctor["visibility"] == "protected"
    assert "Kotlin-only: sealed" in ctor["markers"] and "Kotlin-only: inline-only" not in ctor["markers"], ctor


def test_imports_leaves_out_what_a_deprecation_hid(service, jar):
    javap = _javap(jar, "demo.LibKt")
    for hidden in ("public static final int gather(int);", "public static final int collect(demo.Flow, "
                   "kotlin.jvm.functions.Function1<? super java.lang.Integer, kotlin.Unit>);"):
        assert "ACC_SYNTHETIC" in _flags(javap, hidden), hidden
    store = service.store()
    for name in ("gather", "collect"):
        entries = imports(store, f"demo.{name}")[0]["imports"]
        kotlin = entries[-1]
        assert "Kotlin-only" not in kotlin.get("note", ""), kotlin
        assert kotlin["declarations"] == [s for s in kotlin["declarations"] if "(x: Int)" not in s
                                          and "action" not in s], kotlin
    java = [e for e in imports(store, "demo.gather")[0]["imports"] if e["language"] == "java"]
    assert [e["statement"] for e in java] == ["import static demo.LibKt.gather;"] and "note" not in java[0]

@pytest.mark.soak  # slow: the soak runs it (.ci/run)

def test_imports_gives_java_no_mangled_name_and_no_internal_namesake(service, jar, tmp_path):
    javap = _javap(jar, "demo.LibKt")
    assert "public static final void pause-2nRVGIY(long);" in javap
    assert "public static final int getPause(java.lang.String);" in javap  # the internal `val String.pause`
    assert not _javac_accepts(jar, tmp_path, "import static demo.LibKt.pause-2nRVGIY;\nclass Client {}\n")
    store = service.store()
    entries = imports(store, "demo.pause")[0]["imports"]
    java = [e["statement"] for e in entries if e["language"] == "java"]
    assert java == ["import static demo.LibKt.pause;"], entries
    assert _javac_accepts(jar, tmp_path, java[0] + "\nclass Client { void f() { pause(1L); } }\n")
    note = entries[-1]["note"]
    assert "is no Java identifier" in note and "internal or private" in note, note
    [wait] = imports(store, "demo.wait")[0]["imports"]
    assert wait["language"] == "kotlin" and "Java cannot call it" in wait["note"], wait


def test_class_header_says_a_constructor_property_modality(service, jar):
    javap = _javap(jar, "demo.Rule")
    assert "ACC_FINAL" not in _flags(javap, "public java.lang.String getRuleId();")
    assert "ACC_FINAL" in _flags(javap, "public final int getPlain();")
    assert "ACC_FINAL" not in _flags(javap, "protected long getScope();")
    header = _outline(service, "demo.Rule")["kotlin_declaration"]
    assert "(open val ruleId: String, val plain: Int, protected open val scope: Long, private val secret: Int)" \
        in header, header


def test_outline_counts_only_the_hidden_declarations_the_grep_matches(service):
    assert not _outline(service, "demo.LibKt", grep="^zip$").get("hidden_deprecated")
    assert _outline(service, "demo.LibKt", grep="^z")["hidden_deprecated"] == 2


@pytest.mark.soak
def test_stdlib_companion_member_with_a_mangled_name(stdlib):
    javap = _javap(stdlib_jar("2.1.0"), "kotlin.time.Duration$Companion")
    assert re.search(r" final long getSeconds-UwyO8pc\(int\);", javap)
    entries = imports(stdlib.store(), "kotlin.time.Duration.Companion.seconds")[0]["imports"]
    assert [e["language"] for e in entries] == ["kotlin"]
    assert "getSeconds-UwyO8pc is no Java identifier" in entries[0]["note"], entries


@pytest.mark.soak
def test_stdlib_jvm_package_name_is_the_kotlin_package(stdlib):
    """`@file:JvmPackageName("kotlin")` of `kotlin/jdk7/AutoCloseableKt`: its metadata `pn` names the Kotlin package."""
    assert 'pn="kotlin"' in _javap(stdlib_jar("2.1.0"), "kotlin.jdk7.AutoCloseableKt")
    for text in ("kotlin.use", "kotlin.jdk7.use"):
        kotlin = imports(stdlib.store(), text)[0]["imports"][-1]
        assert kotlin["statement"] == "import kotlin.use", (text, kotlin)
