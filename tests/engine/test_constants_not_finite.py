"""A NaN or infinite float/double constant is shown by the name Java code writes (`Double.NaN`), the value javap
-constants prints as `NaNd`, `-Infinityf`, ... (the oracle); finite ones keep their literal."""

from __future__ import annotations

import json
import re

from tests.fixtures import jdktool
from tests.fixtures.javac import javac_jar

SOURCES = {"k/K.java": "package k; public class K {"
                       " public static final double DN = 0.0 / 0.0, DP = 1.0 / 0.0, DM = -1.0 / 0.0, DF = 2.5;"
                       " public static final float FN = 0.0f / 0.0f, FP = 1f / 0f, FM = -1f / 0f, FF = 2.5f; }"}
# javap -constants literal -> the Java expression of the same value
JAVA = {"NaNd": "Double.NaN", "Infinityd": "Double.POSITIVE_INFINITY", "-Infinityd": "Double.NEGATIVE_INFINITY",
        "NaNf": "Float.NaN", "Infinityf": "Float.POSITIVE_INFINITY", "-Infinityf": "Float.NEGATIVE_INFINITY"}


def test_not_finite_constants_by_name(tmp_path, run_jdx):
    jar, classes = javac_jar(tmp_path, SOURCES, "k", "k.jar")
    javap = jdktool.run(["javap", "-constants", "-cp", str(classes), "k.K"], capture_output=True, text=True,
                        check=True).stdout
    want = {name: JAVA.get(value, value.rstrip("d")) for name, value in re.findall(r" (\w+) = ([^;]+);", javap)}
    assert len(want) == 8 and want["DN"] == "Double.NaN" and want["FF"] == "2.5f", want
    r = run_jdx("--no-jdk", "--jars", str(jar), "--json", "members", "k.K", "--kind", "field")
    got = {m["name"]: m["constant"] for m in json.loads(r.out)["result"]["members"]}
    assert got == want
