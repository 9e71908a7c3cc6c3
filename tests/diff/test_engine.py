"""The comparison engine on hand-written tables (no JVM, no loaders): the Kotlin hook sees what the first pairing
pass left, a class identical on both sides with identical supertypes is skipped, and unknown rules are refused."""

from __future__ import annotations

import pyarrow as pa
import pytest

from jdx.engine.diff import extensions
from jdx.engine.diff.compare import compare
from jdx.engine.diff.findings import Finding
from jdx.engine.diff.surface import build_surface
from jdx.engine.diff.visibility import DiffOptions

PUBLIC, STATIC = 0x1, 0x8


def _tables(types: list[tuple[str, str | None]], members: list[tuple[str, str, str, int]]) -> dict[str, pa.Table]:
    """types: (name, superclass); members: (owner, name, descriptor, access) — methods only."""
    n = len(types)
    return {
        "types": pa.table({"name": [t[0] for t in types], "kind": [0] * n, "access": [PUBLIC] * n,
                           "signature": pa.nulls(n, pa.string()), "super": [t[1] for t in types],
                           "outer": pa.nulls(n, pa.string()), "inner_name": pa.nulls(n, pa.string()),
                           "inner_access": [-1] * n, "outer_method": pa.nulls(n, pa.string()),
                           "kotlin": pa.nulls(n, pa.string()), "permits": pa.nulls(n, pa.string())}),
        "supertypes": pa.table({"type": pa.array([], pa.string()), "super": pa.array([], pa.string()),
                                "kind": pa.array([], pa.int32()), "position": pa.array([], pa.int32())}),
        "members": pa.table({"owner": [m[0] for m in members], "kind": [0] * len(members),
                             "name": [m[1] for m in members], "descriptor": [m[2] for m in members],
                             "signature": pa.nulls(len(members), pa.string()), "access": [m[3] for m in members],
                             "exceptions": pa.nulls(len(members), pa.string()),
                             "param_names": pa.nulls(len(members), pa.string()),
                             "constant": pa.nulls(len(members), pa.string()),
                             "annotation_default": pa.nulls(len(members), pa.string())}),
        "annotations": pa.table({"owner_kind": pa.array([], pa.int32()), "owner": pa.array([], pa.string()),
                                 "member_name": pa.array([], pa.string()), "member_desc": pa.array([], pa.string()),
                                 "param": pa.array([], pa.int32()), "annotation": pa.array([], pa.string()),
                                 "text": pa.array([], pa.string())}),
    }


class RenamePairs:
    """A stand-in for the Kotlin pass: pairs what is left by name prefix (`foo` -> `foo$kotlin`)."""

    def __init__(self):
        self.seen = []

    def pair_members(self, old_type, new_type, removed, added, sides):
        self.seen.append(([m.name for m in removed], [m.name for m in added]))
        found, left = [], []
        for r in removed:
            twin = next((a for a in added if a.name == r.name + "$kotlin"), None)
            if twin is None:
                left.append(r)
                continue
            added = [a for a in added if a is not twin]
            found.append(Finding("KOTLIN_NAME_CHANGED", f"{r.owner}#{r.name}", "method", detail=twin.name))
        return found, left, added

    def compare_members(self, old, new, sides):
        return []

    def compare_types(self, old, new, sides):
        return []


def test_kotlin_hook_sees_what_the_first_pass_left():
    old = build_surface("old", [_tables([("k/A", "java/lang/Object")],
                                        [("k/A", "foo", "()V", PUBLIC), ("k/A", "bar", "(I)V", PUBLIC)])])
    new = build_surface("new", [_tables([("k/A", "java/lang/Object")],
                                        [("k/A", "foo$kotlin", "()V", PUBLIC), ("k/A", "bar", "(J)V", PUBLIC)])])
    hook = RenamePairs()
    extensions.register(hook)
    try:
        rules = sorted(f.rule for f in compare(old, new, DiffOptions()))
    finally:
        extensions.unregister(hook)
    assert hook.seen == [(["foo"], ["foo$kotlin"])]  # `bar` was paired first, by name and arity
    assert rules == ["KOTLIN_NAME_CHANGED", "PARAMETER_TYPE_CHANGED"]


def test_only_the_changed_class_reports():
    old = build_surface("old", [_tables([("k/Base", "java/lang/Object"), ("k/Sub", "k/Base")],
                                        [("k/Base", "m", "()V", PUBLIC), ("k/Sub", "m", "()V", PUBLIC)])])
    new = build_surface("new", [_tables([("k/Base", "java/lang/Object"), ("k/Sub", "k/Base")],
                                        [("k/Base", "m", "()V", PUBLIC | STATIC), ("k/Sub", "m", "()V", PUBLIC)])])
    findings = compare(old, new, DiffOptions())
    assert [(f.rule, f.symbol) for f in findings] == [("INSTANCE_TO_STATIC", "k.Base#m()")]
    same = compare(old, old, DiffOptions())
    assert same == []


def test_unknown_rule_is_refused():
    with pytest.raises(ValueError):
        Finding("NOT_A_RULE", "x", "class")


def test_a_constant_that_stops_being_one_says_so_in_words():
    """`CharEncoding.UTF_8` of commons-codec 1.15 -> 1.17: `"UTF-8"` became a computed value."""
    def field(constant):
        t = _tables([("k/C", "java/lang/Object")], [])
        t["members"] = pa.table({"owner": ["k/C"], "kind": [1], "name": ["UTF_8"], "descriptor": ["Ljava/lang/String;"],
                                 "signature": pa.nulls(1, pa.string()), "access": [PUBLIC | STATIC | 0x10],
                                 "exceptions": pa.nulls(1, pa.string()), "param_names": pa.nulls(1, pa.string()),
                                 "constant": pa.array([constant], pa.string()),
                                 "annotation_default": pa.nulls(1, pa.string())})
        return build_surface("side", [t])
    found = compare(field('"UTF-8"'), field(None), DiffOptions())
    assert [(f.rule, f.symbol, f.detail) for f in found] == [
        ("FIELD_CONSTANT_VALUE_CHANGED", "k.C#UTF_8", '"UTF-8" -> (not a constant): clients compiled against the old '
         'version inlined "UTF-8" and keep it until recompiled (JLS §13.4.9)')]
    back = compare(field(None), field('"UTF-8"'), DiffOptions())
    assert [f.detail for f in back] == ['(not a constant) -> "UTF-8": compiled clients read the field at run time and '
                                        'see the new value']


def test_annotation_elements_read_nested_values_and_refuse_what_does_not_parse():
    from jdx.engine.diff.members import annotation_elements

    text = '@x.T(a=1, b={"p, q", \'c\'}, s="x\\"y, (z")'
    assert annotation_elements(text) == ("@x.T", {"a": "1", "b": '{"p, q", \'c\'}', "s": '"x\\"y, (z"'})
    assert annotation_elements("@x.T") == ("@x.T", {})
    assert annotation_elements("@x.T(1)") is None  # not name=value: the finding shows both texts whole
    assert annotation_elements('@x.T(a="open)') is None
