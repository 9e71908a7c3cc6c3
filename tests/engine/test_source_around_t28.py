"""`source T --around m` on decompiled text (a jar without sources): a member `T` inherits from another class file
is not in `T`'s text, so the answer names where it is declared and the command that shows it (T28: "has no
declaration in the decompiled text" and no next step); a line number (what a stack trace gives) points at --lines.
javap of the jar's class is the oracle of where the member is declared."""

from __future__ import annotations

import json
import subprocess

from tests.conftest import GSON, require

TYPE = "com.google.gson.internal.LinkedTreeMap"


def _declares(member: str) -> bool:
    out = subprocess.run(["javap", "-p", "-cp", str(GSON), TYPE], capture_output=True, text=True, check=True).stdout
    return f" {member}(" in out


def test_an_inherited_member_names_its_declaring_class_and_the_command(run_jdx):
    require(GSON)
    assert not _declares("isEmpty")  # inherited: LinkedTreeMap's class file has no isEmpty()
    r = run_jdx("--jars", str(GSON), "source", TYPE, "--around", "isEmpty()", "--json")
    env = json.loads(r.out)
    assert r.code == 3 and env["error"]["code"] == "USAGE", env
    message = env["error"]["message"]
    assert "is declared in java.util.AbstractMap, another class file" in message, message
    assert message.endswith("run jdx source java.util.AbstractMap --around 'isEmpty()'"), message
    follow = run_jdx("--jars", str(GSON), "source", "java.util.AbstractMap", "--around", "isEmpty()")
    assert follow.code == 0 and "isEmpty()" in follow.out, follow.err


def test_a_declared_member_is_still_shown(run_jdx):
    require(GSON)
    assert _declares("size")
    r = run_jdx("--jars", str(GSON), "source", TYPE, "--around", "size()", "--json")
    env = json.loads(r.out)
    assert r.code == 0 and any("size()" in line for line in env["result"]["text"]), env


def test_a_line_number_points_at_lines(run_jdx):
    require(GSON)
    r = run_jdx("--jars", str(GSON), "source", TYPE, "--around", "127")
    assert r.code == 3 and "--lines 117:137" in r.err and "Traceback" not in r.err, r.err
