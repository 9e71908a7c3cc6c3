"""The compile-time-constant note of a breaking finding says compiled clients inlined the value and still run; a
private constant has no clients to inline it (T37: a Kotlin `private val prop2 = 1` backing field, `--visibility
all`, got the note). javap -p -constants is the oracle of which fields are constants."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from tests.fixtures.javac import javac_jar

OLD = {"pc/Holder.java": "package pc; public class Holder {"
                         " private final int hidden = 1; public static final int SHOWN = 2; }"}
NEW = {"pc/Holder.java": "package pc; public class Holder {}"}


@pytest.fixture(scope="module")
def jars(tmp_path_factory):
    if shutil.which("javac") is None:
        pytest.skip("javac is not installed")
    root = tmp_path_factory.mktemp("diff-private-constant")
    return javac_jar(root / "old", OLD, "pc", "old.jar")[0], javac_jar(root / "new", NEW, "pc", "new.jar")[0]


def test_only_a_constant_clients_could_read_gets_the_inlined_note(diff, jars):
    javap = subprocess.run(["javap", "-p", "-constants", "-cp", str(jars[0]), "pc.Holder"], capture_output=True,
                           text=True, check=True).stdout
    assert "private final int hidden = 1;" in javap and "public static final int SHOWN = 2;" in javap
    code, text = diff(str(jars[0]), str(jars[1]), "--visibility", "all", "--json")
    assert code == 0, text
    details = {f["symbol"]: f["detail"] for f in json.loads(text)["result"]["findings"]
               if f["rule"] == "MEMBER_REMOVED"}
    assert details["pc.Holder#hidden"] == "", details
    assert details["pc.Holder#SHOWN"].startswith("a compile-time constant (= 2): clients compiled against"), details
