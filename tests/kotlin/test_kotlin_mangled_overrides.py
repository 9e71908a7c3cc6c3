"""An override whose Kotlin signature names an inline (value) class compiles to a mangled method plus a bridge
(T34): `override fun get(index: Int): UInt` in kotlin-stdlib's `UArraysKt___UArraysJvmKt$asList$1` is
`get-pVg5ArA(I)I`, and the bridge `get(I)Ljava/lang/Object;` (ACC_BRIDGE, ACC_SYNTHETIC) calls it. `overrides
kotlin.collections.AbstractList#get` left those classes out and `overrides ...asList$1#get` said `(none)`: the bridge
stands for the mangled method, as javac's bridges stand for the methods they bridge. javap is the oracle."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

STDLIB = Path.home() / ".m2/repository/org/jetbrains/kotlin/kotlin-stdlib/2.1.0/kotlin-stdlib-2.1.0.jar"
OWNER = "kotlin.collections.unsigned.UArraysKt___UArraysJvmKt$asList$1"


@pytest.mark.soak  # indexes kotlin-stdlib 2.1.0 from ~/.m2
def test_a_bridge_to_a_mangled_method_makes_it_an_overrider(run_jdx):
    if not STDLIB.is_file():
        print(f"skipped: {STDLIB} absent")
        pytest.skip(f"{STDLIB} absent")
    javap = subprocess.run(["javap", "-p", "-c", "-cp", str(STDLIB), OWNER], capture_output=True, text=True,
                           check=True).stdout
    bridge = javap.split("public java.lang.Object get(int);", 1)[1].split("\n\n", 1)[0]
    mangled = re.search(r"Method \"?(get-[\w-]{7})\"?:\(I\)I", bridge)
    assert mangled, javap  # the oracle: the bridge calls the mangled method
    r = run_jdx("overrides", "kotlin.collections.AbstractList#get(int)", "--jars", str(STDLIB), "--limit", "200",
                "--json")
    assert r.code == 0, r.err
    (method,) = json.loads(r.out)["result"]["methods"]
    found = {e["method"] for e in method["overridden_by"]}
    assert f"{OWNER}#{mangled.group(1)}(int)" in found, sorted(found)
    r = run_jdx("overrides", f"{OWNER}#{mangled.group(1)}(int)", "--jars", str(STDLIB), "--json")
    (method,) = json.loads(r.out)["result"]["methods"]
    assert "kotlin.collections.AbstractList#get(int)" in {e["method"] for e in method["overrides"]}, method
