"""Trial T57: a kotlinc 1.x lambda class (`KService$wire$1`, a SAM-converted lambda) is an anonymous subtype of its
interface that code outside its package cannot name: `implementors`, `hierarchy` and `usages` say
`(anonymous, in KService#wire) (non-public)` after its row, as they do for javac's anonymous classes (JSON
`anonymous`, `declared_in`, `public: false`). Oracle: `javap -v` of the classes kotlinc (1.3) compiled here: the class
header's flags and its EnclosingMethod."""

from __future__ import annotations

import json
import re
import shutil

import pytest

from tests.fixtures import jdktool

KT = '''package kx

class KService {
    fun wire(): Runnable = Runnable { println("x") }
}
'''


@pytest.fixture(scope="module")
def jar():
    from tests.kotlin.corpus import kotlinc_jar

    if shutil.which("javap") is None:
        pytest.skip("javap is not on PATH")
    return kotlinc_jar("t57-lambda-class", {"KService.kt": KT})


@pytest.mark.soak  # kotlinc takes seconds to start
@pytest.mark.parametrize("command", ["implementors", "hierarchy", "usages"])
def test_a_kotlin_lambda_class_says_what_it_is(run_jdx, jar, command):
    text = jdktool.run(["javap", "-v", "-cp", str(jar), "kx.KService$wire$1"], capture_output=True, text=True,
                       check=True).stdout
    header = re.search(r"^(.*)class kx\.KService\$wire\$1 ", text, re.M).group(1).split()
    assert "public" not in header, header  # the oracle: package-private
    assert re.search(r"^EnclosingMethod: #\d+\.#[1-9]\d*\s+// kx\.KService\.wire$", text, re.M), text
    rows = run_jdx("--no-jdk", "--jars", str(jar), command, "java.lang.Runnable").out.splitlines()
    row = next(x for x in rows if "kx.KService$wire$1" in x)
    assert "(anonymous, in KService#wire)" in row and "(non-public)" in row, rows
    if command == "implementors":
        r = run_jdx("--no-jdk", "--jars", str(jar), command, "java.lang.Runnable", "--json")
        (entry,) = [e for e in json.loads(r.out)["result"]["implementors"] if e["type"] == "kx.KService$wire$1"]
        assert (entry["anonymous"], entry["declared_in"], entry["public"]) == (True, "kx.KService#wire()", False)
