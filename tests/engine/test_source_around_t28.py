"""`source T --around m` on decompiled text (a jar without sources): a member `T` inherits from another class file
is not in `T`'s text, so the answer names where it is declared and the command that shows it (T28: "has no
declaration in the decompiled text" and no next step); a line number (what a stack trace gives) points at --lines.
javap of the jar's class is the oracle of where the member is declared."""

from __future__ import annotations

import json
import re
import subprocess

import pytest

from tests.conftest import GSON, require

pytestmark = pytest.mark.soak  # a trial's regression family with its own graph builds: the soak runs it whole (.ci/run)

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
    """In source text (the JDK's src.zip) a stack trace's line is the text's own: --lines around it."""
    origin = json.loads(run_jdx("source", "java.util.ArrayList", "--lines", "1:1", "--json").out)["result"]["origin"]
    if origin != "sources":
        pytest.skip("no JDK lib/src.zip (Debian/Ubuntu: apt-get install openjdk-17-source)")
    r = run_jdx("source", "java.util.ArrayList", "--around", "127")
    assert r.code == 3 and "for the lines around line 127, --lines 117:137" in r.err and "Traceback" not in r.err, r.err


def _call_line(cls: str, method: str, callee: str) -> int:
    """Oracle: the class-file line of `method`'s call of `callee`, from `javap -c -l` (the LineNumberTable entry
    with the greatest start pc at or before the call's pc)."""
    out = subprocess.run(["javap", "-c", "-l", "-p", "-cp", str(GSON), cls], capture_output=True, text=True,
                         check=True).stdout
    body = out.split(f" {method}(", 1)[1].split("LocalVariableTable", 1)[0]
    pc = next(int(line.split(":")[0]) for line in body.splitlines()
              if "invoke" in line and re.search(rf"Method (\S+\.)?{callee}:", line))
    table = [(int(p), int(n)) for n, p in re.findall(r"line (\d+): (\d+)", body)]
    return max((p, n) for p, n in table if p <= pc)[1]


def test_a_stack_trace_line_in_decompiled_text_is_mapped(run_jdx):
    """A stack trace's line is the class file's; decompiled text numbers its own lines (T32: the hint sent
    `--lines 4994:5014` at a 2,032-line text). The hint names the decompiled line the call was written on, and
    `--lines` past the end says where the class-file lines asked for are."""
    require(GSON)
    cls = "com.google.gson.Gson"
    line = _call_line(cls, "assertFullConsumption", "peek")
    r = run_jdx("--jars", str(GSON), "source", cls, "--around", str(line))
    found = re.search(rf"class-file line {line} is decompiled line (\d+); for the lines around it, --lines (\d+):(\d+)",
                      r.err)
    assert r.code == 3 and found, r.err
    mapped = int(found.group(1))
    shown = json.loads(run_jdx("--jars", str(GSON), "source", cls, "--lines", f"{mapped}:{mapped}", "--json").out)
    assert "peek()" in shown["result"]["text"][0], shown["result"]["text"]
    total = shown["result"]["total_lines"]
    assert line > total  # the class file's numbering runs past the decompiled text's end
    past = run_jdx("--jars", str(GSON), "source", cls, "--lines", f"{line}:{line}")
    assert past.code == 3 and f"has {total} lines; class-file lines {line}-{line} (a stack trace's) are its lines " \
        f"{mapped}-{mapped}: --lines {mapped}:{mapped}" in past.err, past.err


def test_lines_of_decompiled_text_say_where_a_stack_traces_lines_are(run_jdx):
    """T44: `source RoaringBitmap --lines 1160:1172` with a stack trace's line in mind showed unrelated decompiled
    code (1160-1172 lies within the class file's numbering too). A `--lines` slice of decompiled text says which
    class-file lines it holds and, where the numbers asked for are a trace's lines elsewhere, the `--lines` for them;
    the oracle is javap's line of the call and the decompiled text showing it."""
    require(GSON)
    cls = "com.google.gson.Gson"
    line = _call_line(cls, "checkValidFloatingPoint", "isNaN")
    r = run_jdx("--jars", str(GSON), "source", cls, "--lines", f"{line}:{line}")
    assert r.code == 0, r.err
    found = re.search(rf"a stack trace's lines {line}-{line} are decompiled lines (\d+)-(\d+): --lines (\d+):(\d+)",
                      r.out)
    assert found, r.out
    shown = json.loads(run_jdx("--jars", str(GSON), "source", cls, "--lines", f"{found.group(1)}:{found.group(2)}",
                               "--json").out)["result"]
    assert any("isNaN" in text for text in shown["text"]), shown["text"]
    assert shown["source"]["class_file_slice"][0] <= line <= shown["source"]["class_file_slice"][1], shown["source"]
    assert "as_trace_lines" not in shown["source"]  # these lines hold the trace's line already
