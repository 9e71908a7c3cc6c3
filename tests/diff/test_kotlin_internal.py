"""Kotlin `internal` is no API (spec §7.7 `--visibility public`): kotlinc compiles it JVM-public (a class member's
name mangled `name$module`), so only `@Metadata` tells it apart. As Kotlin's binary-compatibility-validator does,
the public view drops internal classes, functions, properties and constructors (file-level ones too) unless
`@PublishedApi`; `--visibility all` still compares them, the mangling pairing (`KOTLIN_NAME_CHANGED`) included.

Two versions of a small library, compiled by kotlinc once each (cached by source hash), and the real
kotlinx-coroutines 1.6.4 -> 1.7.3 when the local Maven repository holds them."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from tests.kotlin.corpus import kotlinc_jar

OLD = """package ki

class Api {
    fun stays(): Int = 1
    fun becomesInternal(): Int = 2
    internal fun internalFun(): Int = 3
    internal val internalVal: Int = 4
    internal fun removedInternal(): Int = 6
    @PublishedApi internal fun published(): Int = 5
    @PublishedApi internal fun publishedRemoved(): Int = 5
    inline fun inlined(): Int = published() + publishedRemoved()
}

class WithCtor(val x: Int) {
    internal constructor() : this(0)
    companion object {
        const val OPEN = 1
        internal const val SECRET = 2
    }
}

internal class Hidden {
    fun work(): Int = 7
}

@PublishedApi internal class Published {
    fun kept(): Int = 1
    fun dropped(): Int = 2
}

internal class BecomesPublic
class BecomesInternal

fun topStays(): Int = 1
internal fun topInternal(): Int = 8
fun topBecomesInternal(): Int = 9
internal fun topBecomesPublic(): Int = 10
"""

NEW = """package ki

class Api {
    fun stays(): Int = 1
    internal fun becomesInternal(): Int = 2
    internal fun internalFun(x: Int): Int = x
    internal val internalVal: Long = 4L
    @PublishedApi internal fun published(): Int = 5
    inline fun inlined(): Int = published()
}

class WithCtor(val x: Int) {
    companion object
}

internal class Hidden {
    fun other(): Int = 7
}

@PublishedApi internal class Published {
    fun kept(): Int = 1
}

class BecomesPublic
internal class BecomesInternal

fun topStays(): Int = 1
internal fun topBecomesInternal(): Int = 9
fun topBecomesPublic(): Int = 10
"""

# a file of internal functions only: its facade class `InternalsKt` is no API, so it is never reported removed
INTERNALS = "package ki\n\ninternal fun onlyInternal(): Int = 1\n"

PUBLIC = {
    ("MEMBER_REMOVED", "ki.Api#becomesInternal()"),  # now `becomesInternal$main`: compiled callers fail to link
    ("MEMBER_REMOVED", "ki.Api#publishedRemoved()"),  # @PublishedApi is API: inlined callers call it
    ("MEMBER_REMOVED", "ki.Published#dropped()"),  # a member of a @PublishedApi class
    ("MEMBER_REMOVED", "ki.WithCtor#OPEN"),  # a companion's constant is a field of the outer class
    ("MEMBER_VISIBILITY_NARROWED", "ki.LibKt#topBecomesInternal()"),  # same JVM method, now internal
    ("TYPE_VISIBILITY_NARROWED", "ki.BecomesInternal"),
    ("MEMBER_ADDED", "ki.LibKt#topBecomesPublic()"),
    ("TYPE_ADDED", "ki.BecomesPublic"),
}


@pytest.fixture(scope="module")
def jars():
    return (kotlinc_jar("internal-old", {"Lib.kt": OLD, "Internals.kt": INTERNALS}),
            kotlinc_jar("internal-new", {"Lib.kt": NEW}))


def _findings(diff, jars, *flags: str) -> list[dict]:
    code, text = diff(str(jars[0]), str(jars[1]), "--json", "--limit", "1000", *flags)
    assert code == 0, text
    return json.loads(text)["result"]["findings"]


def test_public_view_drops_internal_declarations(diff, jars):
    findings = _findings(diff, jars)
    assert {(f["rule"], f["symbol"]) for f in findings} == PUBLIC, findings
    details = {f["symbol"]: f["detail"] for f in findings}
    narrowed = ("public -> internal (Kotlin metadata; still public on the JVM); compiled callers still link, Kotlin "
                "sources outside the module no longer compile (rated suspicious, not breaking)")
    assert details["ki.LibKt#topBecomesInternal()"] == narrowed
    assert details["ki.BecomesInternal"] == narrowed
    assert {f["severity"] for f in findings if f["detail"] == narrowed} == {"suspicious"}
    assert details["ki.LibKt#topBecomesPublic()"] == "was internal"
    assert details["ki.BecomesPublic"] == "was internal"


def test_all_view_compares_internal_declarations(diff, jars):
    """`--visibility all` is the JVM view: internal members are compared, and a member made internal is the JVM
    rename the mangling is (KOTLIN_NAME_CHANGED), not a removal."""
    found = {(f["rule"], f["symbol"]): f for f in _findings(diff, jars, "--visibility", "all")}
    assert set(found) == {
        ("KOTLIN_NAME_CHANGED", "ki.Api#becomesInternal()"),  # the mangling, paired: one rename
        ("MEMBER_REMOVED", "ki.Api#publishedRemoved()"),
        ("MEMBER_REMOVED", "ki.Api#removedInternal$main()"),
        ("PARAMETER_TYPE_CHANGED", "ki.Api#internalFun$main()"),  # a parameter added: one changed signature
        ("RETURN_TYPE_CHANGED", "ki.Api#getInternalVal$main()"),
        ("FIELD_TYPE_CHANGED", "ki.Api#internalVal"),  # the private backing field
        ("MEMBER_REMOVED", "ki.WithCtor#<init>()"),  # an internal constructor keeps its JVM name
        ("MEMBER_REMOVED", "ki.WithCtor#OPEN"),
        ("MEMBER_REMOVED", "ki.WithCtor#SECRET"),
        ("MEMBER_REMOVED", "ki.Hidden#work()"),
        ("MEMBER_ADDED", "ki.Hidden#other()"),
        ("MEMBER_REMOVED", "ki.Published#dropped()"),
        ("MEMBER_REMOVED", "ki.LibKt#topInternal()"),  # a file-level internal function is not mangled
        ("TYPE_REMOVED", "ki.InternalsKt"),
    }, sorted(found)
    rename = found[("KOTLIN_NAME_CHANGED", "ki.Api#becomesInternal()")]
    assert "becomesInternal$main" in rename["detail"]
    # the old JVM name is gone: callers compiled against it fail to link (tests/diff/test_kotlin_jvm_rename.py runs one)
    assert rename["severity"] == "breaking" and "NoSuchMethodError" in rename["detail"], rename
    # BecomesInternal, BecomesPublic, topBecomesInternal, topBecomesPublic: the JVM view has nothing to report


M2 = Path.home() / ".m2/repository/org/jetbrains/kotlinx/kotlinx-coroutines-core-jvm"
COROUTINES = tuple(M2 / v / f"kotlinx-coroutines-core-jvm-{v}.jar" for v in ("1.6.4", "1.7.3"))


def _internal(surface, declarations, fid: str) -> str | None:
    """Why the declaration `fid` names (`a/B`, `a/B#m(I)V`, `a/B#f:I`) is not API by `surface`'s Kotlin
    metadata (it or an enclosing class internal or private, not @PublishedApi), or None."""
    owner, _, member = fid.partition("#")
    name = owner
    while name in surface.types:
        access = declarations.type_access(name)
        if access is not None and not access.is_api:
            return f"{name} is {access.text}"
        name = surface.types[name].outer
    if member and owner in surface.types:
        for m in surface.types[owner].members.values():
            if m.name + (":" if m.is_field else "") + m.descriptor == member:
                access = declarations.member_access(m)
                if access is not None and not access.is_api:
                    return f"{fid} is {access.text}"
    return None


@pytest.mark.soak  # ~4 s: extracting the two jars dominates
def test_coroutines_breaking_findings_name_no_internal_declaration(jdx_home):
    """kotlinx-coroutines 1.6.4 -> 1.7.3: no breaking finding of the public view is about a declaration Kotlin
    metadata marks internal (on the old side; on the new side only a narrowing may name one: it was public)."""
    missing = [str(j) for j in COROUTINES if not j.exists()]
    if missing:
        print(f"skipped: {', '.join(missing)} absent from the local Maven repository")
        pytest.skip(f"{missing[0]} is absent from the local Maven repository")
    from jdx.commands.diff_artifacts import load_sides, resolve_side
    from jdx.engine.diff.compare import compare
    from jdx.engine.diff.kotlin_visibility import KotlinDeclarations
    from jdx.engine.diff.surface import surface_from_compact
    from jdx.engine.diff.visibility import DiffOptions
    from jdx.commands.session import Options, Session
    from jdx.loaders.roots import HashCache

    cache = Session(Options(cache_dir=str(jdx_home / "cache"))).cache
    hashes = HashCache(cache)
    old, new = (resolve_side(str(j), hashes) for j in COROUTINES)
    load_sides([old, new], cache).wait()
    start = time.perf_counter()
    sides = [surface_from_compact(s.label, s.surfaces) for s in (old, new)]
    findings = compare(*sides, DiffOptions("public"))
    print(f"compare: {time.perf_counter() - start:.2f} s, {len(findings)} findings")
    declarations = [KotlinDeclarations(s) for s in sides]
    breaking = [f for f in findings if f.severity == "breaking"]
    wrong = []
    for f in breaking:
        why = _internal(sides[0], declarations[0], f.id)
        if why is None and not f.rule.endswith("_VISIBILITY_NARROWED"):
            why = _internal(sides[1], declarations[1], f.id)
        if why is not None:
            wrong.append((f.rule, f.symbol, why))
    assert not wrong, wrong
    assert 60 <= len(breaking) <= 90, len(breaking)  # 128 before internal declarations were dropped
