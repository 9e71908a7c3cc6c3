"""A bare `Type#name` naming a method and a private field of that name (durian's `Errors#rethrow()` and its
`private static Rethrowing rethrow`) is the method, in every command: code outside the class can use only the
method. `Type#name:Type` still names the field. javap -p is the oracle of what the class declares."""

from __future__ import annotations

import json

import pytest

from tests.fixtures.javac import compiled_jar, javap

SOURCES = {
    "pn/Errors.java": "package pn;\npublic class Errors {\n    private static Errors log;\n"
                      "    public static Errors log() {\n        if (log == null) {\n            log = new Errors();\n"
                      "        }\n        return log;\n    }\n}\n",
    "pn/Use.java": "package pn;\npublic class Use {\n    Object a() {\n        return Errors.log();\n    }\n}\n",
}


@pytest.fixture(scope="module")
def jar(tmp_path_factory):
    _root, jar, classes = compiled_jar(tmp_path_factory, "namesake-field", SOURCES, "pn", "pn.jar", debug=True)
    declared = javap(str(classes), "pn.Errors")
    assert "private static pn.Errors log;" in declared and "public static pn.Errors log();" in declared
    return jar


@pytest.mark.parametrize("command", ["body", "doc", "signature", "samples", "usages", "callers"])
def test_the_bare_name_is_the_method(run_jdx, jar, command):
    r = run_jdx("--no-jdk", "--jars", str(jar), command, "pn.Errors#log", "--json")
    assert r.code == 0, r.out + r.err
    text = json.dumps(json.loads(r.out)["result"])
    assert "pn.Errors#log()" in text and "pn.Errors#log:" not in text, text


def test_the_field_is_still_named_with_its_type_and_imports_say_field(run_jdx, jar):
    r = run_jdx("--no-jdk", "--jars", str(jar), "usages", "pn.Errors#log:pn.Errors")
    assert r.code == 0 and "usages of field pn.Errors#log" in r.out, r.out + r.err
    imports = run_jdx("--no-jdk", "--jars", str(jar), "imports", "pn.Errors#log")
    assert "2 static members of which 1 public (usable anywhere); 1 private: the field log " in imports.out, imports.out
