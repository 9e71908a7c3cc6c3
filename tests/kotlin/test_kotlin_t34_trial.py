"""Kotlin view answers a trial on kotlin-logging-jvm 7.0.3 and kotlin-stdlib 2.1.0 found wrong (spec §12.1):

- `outline` left `@Deprecated` off a deprecated function with a trailing `vararg` (KLogger's `debug(msg, vararg
  arguments)`): its Kotlin row's JVM reference read `Object[]`, the JVM member's `Object...`, and the marker joins
  them by reference. Oracle: javap's `ACC_VARARGS` and `Deprecated: true`.
- a function type as receiver printed as no Kotlin (`fun () -> Any?.toStringSafe()`): it needs parentheses.
- a class a simple name in the declaring package reads as another printed simple (`val impl: Random` in
  `kotlin.random`, where `Random` is `kotlin.random.Random`, not `java.util.Random`); so did one a Kotlin default
  import shadows (`Comparable` is `kotlin.Comparable` everywhere).

Oracle for the printed text: kotlinc compiles the lines `outline` prints (renamed, given bodies) next to the fixture,
with uses that only type-check when each printed type is the declared one.
"""

from __future__ import annotations

import re
import subprocess

import pytest

from jdx.commands import cards
from jdx.engine.cards import OutlineOptions
from jdx.engine.members import MemberOptions
from tests.fixtures.javac import javap
from tests.kotlin.corpus import kotlinc_jar
from tests.service import JdxService, Options

pytestmark = pytest.mark.soak  # a trial's regression family with its own graph builds: the soak runs it whole (.ci/run)

LIB = '''package tt

open class Logger {
    @Deprecated("Use debug {} instead")
    open fun debug(msg: String?, vararg arguments: Any?) {}
    open fun fresh(msg: String?, vararg arguments: Any?) {}
    @Deprecated("old")
    open fun plain(msg: String?) {}
}

internal fun (() -> Any?).toStringSafe(): String = this().toString()
fun (() -> Unit)?.orNoop(): () -> Unit = this ?: {}
fun (suspend () -> Unit).named(): String = "s"

class Random
class Holder(val impl: java.util.Random)
class Box(val c: other.Comparable) : other.Comparable()
'''

OTHER = '''package other

open class Comparable
'''


@pytest.fixture(scope="module")
def jar():
    return kotlinc_jar("t34-trial", {"Lib.kt": LIB, "Other.kt": OTHER})


@pytest.fixture(scope="module")
def service(jar, jdx_home):
    s = JdxService(Options(jars=[str(jar)], jdk=False, cache_dir=str(jdx_home / "cache")))
    yield s
    s.close()


def _outline(service, cls: str) -> dict:
    return service.outline(cls, OutlineOptions(view="kotlin")).result


def _compiles(name: str, check: str) -> None:
    """kotlinc accepts `check` (package tt) beside the fixture's sources."""
    try:
        kotlinc_jar(name, {"Lib.kt": LIB, "Other.kt": OTHER, "Check.kt": check})
    except subprocess.CalledProcessError as e:
        pytest.fail(f"kotlinc rejects the printed text:\n{check}\n{e.stderr.decode(errors='replace')}")


def test_a_deprecated_varargs_function_is_marked_in_outline(service, jar, run_jdx):
    out = javap(jar, "tt.Logger", "-v")
    blocks = {m.group(1): m.group(2) for m in re.finditer(r"\n  public (?:void )?(\w+)\(.*?\);\n(.*?)(?=\n\n)", out,
                                                          re.S)}
    assert "ACC_VARARGS" in blocks["debug"] and "Deprecated: true" in blocks["debug"]  # what kotlinc wrote
    assert "ACC_VARARGS" in blocks["fresh"] and "Deprecated: true" not in blocks["fresh"]
    r = _outline(service, "tt.Logger")
    jvm = {m["ref"]: m["deprecated"] for m in r["members"]}
    assert jvm["tt.Logger#debug(java.lang.String, java.lang.Object...)"] is True
    for k in r["kotlin_members"]:  # every Kotlin row names JVM members by their own references
        assert {j["ref"] for j in k["jvm"]} <= set(jvm), k
    text = run_jdx("outline", "tt.Logger", "--jars", str(jar), "--no-jdk")
    assert text.code == 0, text.out + text.err
    rows = {line.strip().split("(")[0]: line for line in text.out.splitlines() if " fun " in line}
    assert rows["public open fun debug"].endswith("@Deprecated"), text.out
    assert rows["public open fun plain"].endswith("@Deprecated"), text.out
    assert "@Deprecated" not in rows["public open fun fresh"], text.out
    # members and signature give the same references
    members = cards.members_answer(service, "tt.Logger", MemberOptions(), view="kotlin").result["members"]
    debug = next(m for m in members if m["name"] == "debug")
    assert [j["ref"] for j in debug["kotlin"]["jvm"]] == ["tt.Logger#debug(java.lang.String, java.lang.Object...)"]
    sig = service.signature("tt.Logger#debug", "kotlin").result["signatures"][0]
    assert [j["ref"] for j in sig["kotlin"]["jvm"]] == [sig["ref"]]


def test_a_function_type_receiver_prints_in_parentheses(service):
    rows = {k["name"]: k["text"] for k in _outline(service, "tt.LibKt")["kotlin_members"]}
    assert rows["toStringSafe"] == "internal fun (() -> Any?).toStringSafe(): String"
    assert rows["orNoop"] == "public fun (() -> Unit)?.orNoop(): () -> Unit"
    assert rows["named"] == "public fun (suspend () -> Unit).named(): String"
    sig = service.signature("tt.LibKt#toStringSafe", "kotlin").result["signatures"][0]
    assert sig["kotlin"]["text"] == rows["toStringSafe"]
    stubs = "\n".join(text.replace(f".{name}(", f".{name}2(") + " = TODO()" for name, text in sorted(rows.items()))
    _compiles("t34-receivers", f"package tt\n\n{stubs}\n")


def test_a_name_the_package_or_a_default_import_reads_as_another_class_is_qualified(service):
    holder = _outline(service, "tt.Holder")
    assert holder["kotlin_declaration"] == "public class Holder(val impl: java.util.Random)"
    rows = {k["name"]: k["text"] for k in holder["kotlin_members"]}
    assert rows["impl"] == "public val impl: java.util.Random"
    box = _outline(service, "tt.Box")
    assert box["kotlin_declaration"] == "public class Box(val c: other.Comparable) : other.Comparable"
    shown = cards.show_answer(service, "tt.Holder", "kotlin").result
    assert shown["kotlin"]["declaration"] == holder["kotlin_declaration"]
    # a class of the package itself, or one no name shadows, stays simple
    assert "java.util" not in _outline(service, "tt.LibKt")["kotlin_members"][0]["text"]
    header = holder["kotlin_declaration"].removeprefix("public ").replace("Holder(", "Holder2(")
    box_header = box["kotlin_declaration"].removeprefix("public ").replace("Box(", "Box2(")
    _compiles("t34-names", f"""package tt

{header}
{box_header}()
fun useHolder(h: Holder2): java.util.Random = h.impl
fun useBox(b: Box2): other.Comparable = b.c
""")
