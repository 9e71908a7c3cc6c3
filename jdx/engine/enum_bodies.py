"""Enum constants with a class body (JLS §8.9.1): javac compiles each body to an anonymous class (`Op$3`) that no
name says is `Op.DIV`'s; answers about it, or listing a site in it, name the constant (`enum_constant`)."""

from __future__ import annotations

import re

from jdx.engine.member_render import ACC
from jdx.engine.refs import format_member
from jdx.graph_schema import queries, queries_graph as q
from jdx.graph_schema.store import GraphStore

ANONYMOUS_NAME = re.compile(r"\$\d+$")  # javac's name of an anonymous class (`Op$3`: maybe an enum constant's body)


def enum_constant_bodies(store: GraphStore, type_ids) -> dict[str, str]:
    """The enum constant whose class body each of `type_ids` is, for those that are one (JLS §8.9.1; javac's anonymous
    `Op$3` -> `ex.Op#DIV`). The enum's `<clinit>` creates each constant on the constant's line, a body by its class's
    constructor, and stores it in the constant's field: the body classes and the constants one line creates pair up
    in source order (javac numbers the classes in it, the class file keeps the fields in it) when they are as many;
    a line also creating a constant without a body names none, nor does a class no `<clinit>` creates."""
    from jdx.engine.relations import rows_by_ids

    return constant_bodies(store, rows_by_ids(store, q.ANONYMOUS_CLASSES, type_ids))


def constant_bodies(store: GraphStore, anonymous: list[dict]) -> dict[str, str]:
    """`enum_constant_bodies` of some ANONYMOUS_CLASSES rows: those extending the class they are declared in, outside
    any method, by the lines of their enums' `<clinit>` (one query of each kind for all the enums)."""
    from jdx.engine.relations import rows_by_ids

    bodies = {r["id"] for r in anonymous if r["super"] == r["outer"] and not r["om"]}
    enums = sorted({r["outer"] for r in anonymous if r["id"] in bodies})
    created: dict[str, tuple[str, int | None]] = {}  # class -> (enum, line) of its creation in the enum's `<clinit>`
    for r in rows_by_ids(store, q.CALLS_FROM, [f"{e}#<clinit>()V" for e in enums]):
        enum, made = r["source"].partition("#")[0], r["t_id"].partition("#")[0]
        if "#<init>(" in r["t_id"] and made.startswith(enum + "$"):
            created[made] = (enum, r["line"])
    classes: dict[tuple[str, int | None], list[str]] = {}  # (enum, line) -> the body classes that line creates
    for r in rows_by_ids(store, q.ANONYMOUS_CLASSES, created):
        if created[r["id"]][0] == r["super"]:
            classes.setdefault(created[r["id"]], []).append(r["id"])
    constants = {r["f.id"]: r["f.position"] for e in {e for e, _ in classes}
                 for r in store.rows_cached(queries.FIELDS_OF, {"id": e}) if (r["f.access"] or 0) & ACC["enum"]}
    stored: dict[tuple[str, int | None], set[str]] = {}  # (enum, line) -> the constants that line stores
    for r in rows_by_ids(store, q.WRITES_INTO, constants):
        enum = r["target"].partition("#")[0]
        if r["c_id"] == f"{enum}#<clinit>()V":
            stored.setdefault((enum, r["line"]), set()).add(r["target"])
    out = {}
    for (enum, line), made in classes.items():
        fields = sorted(stored.get((enum, line), ()), key=lambda f: (constants[f] is None, constants[f] or 0, f))
        if len(fields) == len(made):
            for body, constant in zip(sorted(made, key=lambda c: (len(c), c)), fields):
                name, _, desc = constant.partition("#")[2].partition(":")
                out[body] = format_member(enum, name, desc, is_field=True)
    return {t: out[t] for t in bodies if t in out}


def own_constant(store: GraphStore, target: dict) -> dict:
    """`{"enum_constant": "ex.Op#DIV"}` when the type row `target` is the body of an enum constant (an anonymous class
    extending the class it is declared in may be one), else empty; nothing imported or asked for any other type."""
    if target.get("inner_name") or not target.get("outer") or target.get("super") != target["outer"]:
        return {}
    constants = enum_constant_bodies(store, [target["id"]])
    return {"enum_constant": constants[target["id"]]} if target["id"] in constants else {}


def mark_constant_bodies(store: GraphStore, entries: list[dict], key: str) -> None:
    """Each of `entries` (call-tree entries, usage sites) whose member `entry[key]` is declared in an enum constant's
    body carries the constant (`enum_constant`), as the body's own `impl` row does."""
    owners = {e[key].partition("#")[0] for e in entries}
    constants = enum_constant_bodies(store, [o for o in owners if ANONYMOUS_NAME.search(o)])
    for e in entries:
        if constant := constants.get(e[key].partition("#")[0]):
            e.setdefault("enum_constant", constant)
