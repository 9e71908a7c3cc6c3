"""`resolve` of a whole pasted stack trace: each frame, exception and `... N more` line is answered as `resolve`
answers that line alone (the single-line answers are the oracle; they are checked against javap's line tables
elsewhere), in the trace's order, a line outside the workspace saying why in place."""

from __future__ import annotations

import json

import pytest

TRACE = """\
Exception in thread "main" java.lang.IllegalStateException: boom
\tat java.base/java.util.HashMap.putVal(HashMap.java:640)
\tat java.base/java.util.HashMap.put(HashMap.java:610)
\tat com.example.Nope.run(Nope.java:12)
Caused by: java.io.UncheckedIOException: x
\tat java.base/java.util.ArrayList.forEach(ArrayList.java:1511)
\t... 2 more
"""


def _json(run_jdx, text: str) -> tuple[int, dict]:
    r = run_jdx("resolve", text, "--json")
    return r.code, json.loads(r.out)


def test_each_line_is_answered_as_it_is_alone(run_jdx):
    code, data = _json(run_jdx, TRACE)
    assert code == 0, data
    result = data["result"]
    lines = [ln.strip() for ln in TRACE.splitlines()]
    assert [e["line"] for e in result["trace"]] == lines
    assert (result["lines_total"], result["resolved"], result["missed"]) == (7, 5, 1)
    for entry, line in zip(result["trace"], lines):
        alone_code, alone = _json(run_jdx, line)
        if "error" in entry:
            assert alone_code == 1 and entry["error"] == {"code": "NOT_FOUND", "message": alone["error"]["message"]}
        else:
            assert alone_code == 0 and entry["candidates"] == alone["result"]["candidates"], line
    assert {p["artifact"] for p in data["provenance"]} == {"java.base"}


def test_text_puts_each_answer_under_its_line(run_jdx):
    r = run_jdx("resolve", TRACE)
    out = r.out.splitlines()
    assert r.code == 0 and out[0] == "trace: 7 lines, 5 resolved, 1 not in the workspace"
    at = out.index("at com.example.Nope.run(Nope.java:12)")
    assert out[at + 1].startswith("  not found: class com.example.Nope")
    put = out.index("at java.base/java.util.HashMap.put(HashMap.java:610)")
    assert out[put + 1].startswith("  method java.util.HashMap#put(java.lang.Object, java.lang.Object)")
    brief = run_jdx("resolve", TRACE, "--brief").out.splitlines()
    assert brief[0] == out[1] and not any(ln.startswith(("trace:", "  note:")) for ln in brief)


def test_a_trace_of_nothing_in_the_workspace_is_not_found(run_jdx):
    r = run_jdx("resolve", "at a.b.C.d(C.java:1)\nat a.b.C.e(C.java:2)\n")
    assert r.code == 1 and "none of the trace's 2 frame and exception lines is in the workspace" in r.out + r.err


def test_one_frame_among_other_text_is_still_one_line(run_jdx):
    code, data = _json(run_jdx, "some log text\n\tat java.base/java.util.HashMap.put(HashMap.java:610)\n")
    assert code == 0 and "trace" not in data["result"] and data["result"]["frame"]["line"] == 610


BOOM = """\
public class Boom {
    public static void main(String[] args) {
        java.util.List.of(1).forEach(i -> {
            throw new IllegalStateException("Unable to load library 'x':\\n"
                    + "libx.so: cannot open shared object file: No such file or directory\\n"
                    + "Native library (linux-x86-64/libx.so) not found in resource path");
        });
    }
}
"""


def test_a_multi_line_message_is_no_exception_line(run_jdx, tmp_path):
    """A real JVM's trace (Throwable.printStackTrace writes a message's lines as they are): the message's second
    line (`libx.so: cannot open …`) is text of the exception above it, not an exception line of its own; a
    terminal's escape codes before `Exception in thread` do not hide the exception line."""
    import shutil
    import subprocess

    import pytest

    if shutil.which("java") is None:
        pytest.skip("java is not installed")
    (tmp_path / "Boom.java").write_text(BOOM)
    trace = subprocess.run(["java", str(tmp_path / "Boom.java")], capture_output=True, text=True, timeout=120).stderr
    assert "\nlibx.so: cannot open" in trace and trace.startswith('Exception in thread "main"'), trace
    code, data = _json(run_jdx, "\x1b[?1h\x1b=> " + trace)
    assert code == 0, data
    answered = [e["line"] for e in data["result"]["trace"]]
    assert answered[0].startswith('Exception in thread "main" java.lang.IllegalStateException'), answered
    assert not any(ln.startswith(("libx.so", "Native library")) for ln in answered), answered
    frames = [ln.strip() for ln in trace.splitlines() if ln.strip().startswith("at ")]
    assert answered[1:] == frames
    assert data["result"]["missed"] == sum(1 for f in frames if "Boom" in f)  # only the program's own frames


def test_a_trace_on_stdin_is_read_with_a_dash(run_jdx):
    """`jdx resolve - < trace.txt` answered "not found: -" (exit 0): `-` reads the query from stdin, as the whole
    pasted trace argument is answered."""
    trace = ("java.lang.IllegalStateException: x\n\tat java.util.HashMap.get(HashMap.java:556)\n"
             "\tat java.util.ArrayList.add(ArrayList.java:455)\n")
    piped = run_jdx("resolve", "-", "--json", stdin=trace)
    argued = run_jdx("resolve", trace, "--json")
    assert piped.code == argued.code == 0, piped.err
    assert json.loads(piped.out)["result"] == json.loads(argued.out)["result"]
    assert json.loads(piped.out)["result"]["resolved"] == 3


@pytest.mark.soak  # another subprocess (~1 s)
def test_a_cypher_query_on_stdin_is_read_with_a_dash(run_jdx):
    cypher = run_jdx("cypher", "-", "--json", stdin="MATCH (t:Type {id: 'java/util/HashMap'}) RETURN t.id\n")
    assert json.loads(cypher.out)["result"]["rows"] == [{"t.id": "java/util/HashMap"}], cypher.out
