"""`members` text footers a trial on kotlin-scripting found wrong: an answer showing no member row opened with a
footer (`+ 9 from java.lang.Object …`), not the `members of X` header every other answer has; and the supertype
extensions' `N more files` read as files on the last receiver listed (`ScriptCompilationConfiguration: …; 1 more
file`) while they were on another (`PropertiesCollection`)."""

from __future__ import annotations

from jdx.render.read import members

BASE = {"type": "k.Keys", "kind": "interface", "artifact_name": "k.jar", "collapsed": {"java.lang.Object": 9},
        "members": []}


def test_no_member_row_still_opens_with_the_header():
    lines = members(dict(BASE), brief=False, max_lines=None, grep=None)
    assert lines[0] == "members of k.Keys", lines
    assert lines[1] == "+ 9 from java.lang.Object (--from java.lang.Object to expand)", lines
    assert members(dict(BASE), brief=True, max_lines=None, grep=None)[0] != "members of k.Keys"  # bare rows


def test_more_supertype_extension_files_name_their_receivers():
    facades = [("k.Config", "k.AKt", 4), ("k.Config", "k.BKt", 2), ("k.Config", "k.CKt", 1), ("k.Props", "k.DKt", 1),
               ("k.Props", "k.EKt", 3), ("k.Other$Inner", "k.FKt", 1)]
    r = dict(BASE, kotlin_supertype_extensions=[{"receiver": rec, "facade": f, "count": n} for rec, f, n in facades])
    line = next(x for x in members(r, brief=False, max_lines=None, grep=None) if x.startswith("extensions on"))
    assert "Config: 4 in k.AKt, 2 in k.BKt, 1 in k.CKt; 3 more files on Other.Inner, Props (--json lists them)" \
        in line, line
