"""Did-you-mean and candidate rows align their artifact column, but one long reference (jackson's 27 `readValue`
overloads folded into a 200-character ref) padded every other row with ~180 spaces: the column stops at 60."""

from __future__ import annotations

from jdx.render.envelope import MAX_CANDIDATE_PAD, error_lines


def test_one_long_reference_pads_no_other_row():
    long_ref = "com.fasterxml.jackson.databind.ObjectMapper#readValue(" + ", ".join(["java.lang.Object"] * 10) + ")"
    env = {"error": {"code": "NOT_FOUND", "message": "not found: ObjectMapper#readValu"},
           "candidates": [{"ref": "a.B#readValue", "artifact": "x.jar", "overloads": 27},
                          {"ref": long_ref, "artifact": "x.jar"}]}
    lines = error_lines(env)
    short = next(line for line in lines if "a.B#readValue" in line)
    assert short == "  " + "a.B#readValue".ljust(MAX_CANDIDATE_PAD) + "  x.jar  (27 overloads)", short
    assert next(line for line in lines if long_ref in line) == f"  {long_ref}  x.jar"
    narrow = error_lines({**env, "candidates": env["candidates"][:1] + [{"ref": "a.B#readValueAs", "artifact": "y"}]})
    assert "  a.B#readValue    x.jar  (27 overloads)" in narrow, narrow  # short lists align as before
