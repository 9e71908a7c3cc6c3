"""`outline` in the Kotlin view marks a declaration `@Deprecated` when a JVM member it compiles to is deprecated, as
`members` and `--view jvm` do (okhttp's `fun body(): RequestBody?` under `@JvmName("-deprecated_body")`, a
compile error to call from Kotlin, printed unmarked before). Oracle: javap's `Deprecated: true` per JVM method."""

from __future__ import annotations

import re

import pytest

from tests.fixtures import jdktool

SOURCE = '''package kd

class Req(val body: String) {
    @Deprecated("use the property", level = DeprecationLevel.ERROR)
    @JvmName("-deprecated_body")
    fun body(): String = body

    @Deprecated("soon gone")
    fun soft(): Int = 1

    fun fresh(): Int = 2
}
'''


@pytest.fixture(scope="module")
def jar():
    from tests.kotlin.corpus import kotlinc_jar

    return kotlinc_jar("outline-deprecated", {"Req.kt": SOURCE})


def _javap_deprecated(jar) -> set[str]:
    out = jdktool.run(["javap", "-v", "-p", "-cp", str(jar), "kd.Req"], capture_output=True, text=True,
                         check=True).stdout
    found, current = set(), None
    for line in out.splitlines():
        m = re.match(r"\s{2}\S.*?([\w$-]+)\(.*\);$", line)
        if m:
            current = m.group(1)
        elif line.strip() == "Deprecated: true" and current:
            found.add(current)
    return found


def test_outline_marks_deprecated_kotlin_declarations(run_jdx, jar):
    deprecated = _javap_deprecated(jar)
    assert deprecated == {"-deprecated_body", "soft"}  # the oracle reads what kotlinc wrote
    r = run_jdx("outline", "kd.Req", "--jars", str(jar), "--no-jdk")
    assert r.code == 0, r.out + r.err
    lines = {line.strip().split("(")[0]: line for line in r.out.splitlines() if " fun " in line}
    assert lines["public fun body"].endswith("@Deprecated")
    assert lines["public fun soft"].endswith("@Deprecated")
    assert "@Deprecated" not in lines["public fun fresh"]
    assert "@Deprecated" not in next(line for line in r.out.splitlines() if "val body" in line)
