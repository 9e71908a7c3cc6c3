"""`cypher`'s text table pads a column to its widest cell, at most MAX_PAD characters: one 266-character method id
padded every row of a `jdx_cypher` answer to it, and the padding filled most of the MCP answer bound."""

from __future__ import annotations

from jdx.render.manage import MAX_PAD, table


def test_one_long_cell_does_not_pad_every_row():
    long = "a.B#m(" + "java.lang.String, " * 14 + ")"
    r = {"columns": ["id", "n"], "rows": [{"id": "x.Y#f()", "n": 1}, {"id": long, "n": 2}, {"id": "x.Y#g()", "n": 3}]}
    lines = table(r)
    assert lines[0] == "id" + " " * (MAX_PAD - 2) + "  n"  # the header's column at the cap
    assert lines[1] == "x.Y#f()".ljust(MAX_PAD) + "  1"
    assert lines[2] == long + "  2"  # past the cap the cell runs on, whole
    assert lines[3] == "x.Y#g()".ljust(MAX_PAD) + "  3" and lines[4] == "3 rows"


def test_short_columns_align_as_before():
    r = {"columns": ["a", "b"], "rows": [{"a": "xx", "b": "y"}, {"a": "x", "b": "yy"}]}
    assert table(r) == ["a   b", "xx  y", "x   yy", "2 rows"]
    assert table(r, brief=True) == ["xx  y", "x   yy"]
