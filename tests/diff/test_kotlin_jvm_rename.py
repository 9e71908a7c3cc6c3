"""A JVM rename of one Kotlin declaration is a link break (spec §7.7, docs/diff.md): an `@JvmName` changed
(`KOTLIN_NAME_CHANGED`) or a function made `suspend` (`KOTLIN_SUSPEND_CHANGED`, its descriptor gains the hidden
`Continuation`) leaves no method of the old JVM name and descriptor, so both are breaking and `--fail-on breaking`
trips. A renamed member whose old JVM method is still inherited from a supertype keeps linking: that is
`MEMBER_MOVED_TO_SUPERTYPE`, never a rename. The oracle is the JVM: Java clients compiled against v1 are run against
v2 (kotlinc builds the library, javac and java the clients). Soak: two kotlinc runs (~20 s on a fresh machine); the
default tier checks the rule's severity on the mangling rename (tests/diff/test_kotlin_internal.py)."""

from __future__ import annotations

import json
import os
import shutil

import pytest

from tests.kotlin.corpus import kotlinc_jar

pytestmark = pytest.mark.soak

V1 = """package lib
class Api {
    @JvmName("jvmOld") fun f(): Int = 1
    fun s(): Int = 2
}
open class Base
class Moved : Base() {
    @JvmName("jvmOld") fun f(): Int = 3
}
"""
V2 = """package lib
class Api {
    @JvmName("jvmNew") fun f(): Int = 1
    suspend fun s(): Int = 2
}
open class Base {
    fun jvmOld(): Int = 0
}
class Moved : Base() {
    @JvmName("jvmNew") fun f(): Int = 3
}
"""
# client -> (body compiled against v1, the symbol of its finding)
CLIENTS = {
    "CallRenamed": ("static void use() { new lib.Api().jvmOld(); }", "lib.Api#jvmOld()"),
    "CallSuspended": ("static void use() { new lib.Api().s(); }", "lib.Api#s()"),
    "CallInherited": ("static void use() { new lib.Moved().jvmOld(); }", "lib.Moved#jvmOld()"),
}



@pytest.fixture(scope="module")
def jars():
    return kotlinc_jar("jvm-rename-v1", {"Api.kt": V1}), kotlinc_jar("jvm-rename-v2", {"Api.kt": V2})


@pytest.fixture(scope="module")
def linked(jars, tmp_path_factory) -> dict[str, str]:
    """Every client compiled against v1, run against v2 in one JVM: client -> "ok" or the error it threw."""
    if shutil.which("javac") is None or shutil.which("java") is None:
        pytest.skip("javac and java are not installed")
    root = tmp_path_factory.mktemp("jvm-rename-clients")
    for name, (body, _) in CLIENTS.items():
        (root / f"{name}.java").write_text(f"public class {name} {{ {body} }}")
    stdlib = os.path.join(os.path.dirname(os.path.realpath(shutil.which("kotlinc") or "")), "..", "lib",
                          "kotlin-stdlib.jar")  # what a Kotlin class may touch at run time
    from tests.diff.shim import run_clients

    return run_clients(root, sorted(root.glob("*.java")), [jars[0]], [jars[1], stdlib], sorted(CLIENTS))


@pytest.fixture(scope="module")
def answer(jars, jdx_home) -> dict:
    from tests.diff.shim import main

    code, text = main([str(jars[0]), str(jars[1]), "--json", "--fail-on", "breaking",
                       "--cache-dir", str(jdx_home / "cache")])
    env = json.loads(text)
    assert code == (1 if env["result"]["gate"]["failed"] else 0), text
    return env["result"]


def _on(answer, symbol) -> list[tuple[str, str]]:
    return [(f["rule"], f["severity"]) for f in answer["findings"] if f["symbol"] == symbol]


def test_the_jvm_agrees_the_renames_break_and_the_inherited_one_links(linked):
    assert linked == {"CallRenamed": "java.lang.NoSuchMethodError", "CallSuspended": "java.lang.NoSuchMethodError",
                      "CallInherited": "ok"}, linked


def test_a_jvm_name_change_is_breaking(answer, linked):
    assert linked["CallRenamed"] == "java.lang.NoSuchMethodError"
    assert _on(answer, "lib.Api#jvmOld()") == [("KOTLIN_NAME_CHANGED", "breaking")], answer["findings"]
    detail = next(f["detail"] for f in answer["findings"] if f["symbol"] == "lib.Api#jvmOld()")
    assert detail.startswith("JVM name jvmOld -> jvmNew; the old JVM method is gone"), detail


def test_a_suspend_flip_is_breaking(answer, linked):
    assert linked["CallSuspended"] == "java.lang.NoSuchMethodError"
    assert _on(answer, "lib.Api#s()") == [("KOTLIN_SUSPEND_CHANGED", "breaking")], answer["findings"]


def test_the_gate_trips_on_them(answer):
    assert answer["gate"]["failed"] is True
    assert answer["counts"]["breaking"] == 2, answer["counts"]  # the rename and the suspend flip, nothing else


def test_an_old_jvm_method_still_inherited_is_no_rename(answer, linked):
    """`Moved.jvmOld()` resolves to `Base.jvmOld()` in v2: compiled callers link, so the removal is not offered to
    the Kotlin pairing and stays what it is on its own."""
    assert linked["CallInherited"] == "ok"
    assert _on(answer, "lib.Moved#jvmOld()") == [("MEMBER_MOVED_TO_SUPERTYPE", "suspicious")], answer["findings"]
    assert _on(answer, "lib.Moved#jvmNew()") == [("MEMBER_ADDED", "info")], answer["findings"]
