"""The notes of `usages` say only what holds for the symbol (T34): a static method is hidden, never overridden, so
its note names no overriding methods; a Kotlin multi-file facade's function asked through the facade
(`kotlin.collections.CollectionsKt#map`, declared by its part `CollectionsKt___CollectionsKt`, which the facade
extends) is the facade's own in Kotlin terms, not a member "the facade declares no ... inherits". javap is the
oracle of the flags and of what the facade declares."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.fixtures.javac import javac_jar

pytestmark = pytest.mark.soak  # a trial's regression family with its own graph builds: the soak runs it whole (.ci/run)

SOURCES = {
    "un/Base.java": "package un;\npublic class Base {\n    public static void s() {}\n    public void i() {}\n}\n",
    "un/Sub.java": "package un;\npublic class Sub extends Base {\n    void c() {\n        Sub.s();\n        i();\n    }\n}\n",
}
STDLIB = Path.home() / ".m2/repository/org/jetbrains/kotlin/kotlin-stdlib/2.1.0/kotlin-stdlib-2.1.0.jar"


@pytest.fixture(scope="module")
def jar(tmp_path_factory) -> Path:
    return javac_jar(tmp_path_factory.mktemp("usages_notes"), SOURCES, "un", "usages-notes.jar", debug=True)[0]


def _notes(run_jdx, *args) -> list[str]:
    r = run_jdx("usages", *args, "--json")
    assert r.code == 0, r.out + r.err
    return json.loads(r.out)["result"]["notes"]


def _flags(jar: Path, cls: str, member: str) -> str:
    out = subprocess.run(["javap", "-p", "-cp", str(jar), cls], capture_output=True, text=True, check=True).stdout
    return next(line for line in out.splitlines() if f" {member}(" in line)


def test_a_static_method_note_names_no_overrides(run_jdx, jar):
    assert " static " in _flags(jar, "un.Base", "s") and " static " not in _flags(jar, "un.Base", "i")
    static = _notes(run_jdx, "un.Base#s()", "--jars", str(jar), "--no-jdk")
    assert static == ["calls through un.Base and through subtypes that inherit the declaration are included"], static
    instance = _notes(run_jdx, "un.Base#i()", "--jars", str(jar), "--no-jdk")
    assert any("calls of overriding methods are theirs" in n for n in instance), instance


@pytest.mark.soak  # indexes kotlin-stdlib
def test_a_multifile_facade_function_is_not_called_inherited(run_jdx):
    if not STDLIB.is_file():
        print(f"skipped: {STDLIB} absent")
        pytest.skip(f"{STDLIB} absent")
    facade = subprocess.run(["javap", "-cp", str(STDLIB), "kotlin.collections.CollectionsKt"], capture_output=True,
                            text=True, check=True).stdout
    assert "extends kotlin.collections.CollectionsKt___CollectionsKt" in facade and " map(" not in facade
    notes = _notes(run_jdx, "kotlin.collections.CollectionsKt#map", "--jars", str(STDLIB))
    assert notes and not any("declares no" in n for n in notes), notes
    assert not any("overriding" in n for n in notes), notes  # a static function
