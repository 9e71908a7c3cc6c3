"""Classes no source names, and where they are declared: an anonymous class in its EnclosingMethod (`declared_in`),
a local one (`local`), and an enum constant's class body (JLS §8.9.1), which javac compiles to an anonymous class
(`Op$3`) that no name says is `Op.DIV`'s: answers about it, or listing a site in it, name the constant
(`enum_constant`)."""

from __future__ import annotations

import re

from jdx.engine.member_render import ACC
from jdx.engine.refs import format_member, format_type
from jdx.graph_schema import queries, queries_graph as q
from jdx.graph_schema.store import GraphStore

UNNAMED = re.compile(r"\$\d")  # javac's names of anonymous (`Op$3`) and local (`Outer$1Row`) classes


def enum_constant_bodies(store: GraphStore, type_ids) -> dict[str, str]:
    """The enum constant whose class body each of `type_ids` is, for those that are one (JLS §8.9.1; javac's anonymous
    `Op$3` -> `ex.Op#DIV`); a body whose line creates other constants too is no key (`body_marks` names candidates)."""
    return {t: m["enum_constant"] for t, m in body_marks(store, type_ids).items() if "enum_constant" in m}


def body_marks(store: GraphStore, type_ids) -> dict[str, dict]:
    """`{"enum_constant": "ex.Op#DIV"}` of each of `type_ids` that is an enum constant's class body, or
    `{"enum_constant_candidates": [...]}` of one the lines cannot pair with one constant (`constant_bodies`)."""
    from jdx.engine.relations import rows_by_ids

    return constant_bodies(store, rows_by_ids(store, q.ANONYMOUS_CLASSES, type_ids))


def constant_bodies(store: GraphStore, anonymous: list[dict]) -> dict[str, dict]:
    """`body_marks` of some ANONYMOUS_CLASSES rows: those extending the class they are declared in, outside any
    method. The enum's `<clinit>` creates each constant on the constant's line, a body by its class's constructor,
    and stores it in the constant's field: the body classes and the constants one line creates pair up in source
    order (javac numbers the classes in it, the class file keeps the fields in it). A line also creating constants
    without a body (`HALF { … }, PLAIN`) leaves the k-th body among the k-th to the (k + those without)-th constants:
    its candidates (the graph has no bytecode offsets to settle it), when the line is known. A class no `<clinit>`
    creates is no key."""
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
        spare = len(fields) - len(made)  # constants the line creates without a body
        for k, body in enumerate(sorted(made, key=lambda c: (len(c), c)) if spare >= 0 else ()):
            named = [_constant(enum, f) for f in fields[k:k + spare + 1]]
            if len(named) > 1 and (line is None or line < 0):  # no lines: candidates would be any of the enum's
                continue
            out[body] = {"enum_constant": named[0]} if len(named) == 1 else {"enum_constant_candidates": named}
    return {t: out[t] for t in bodies if t in out}


def _constant(enum: str, field_id: str) -> str:
    """`ex.Op#DIV` of the graph id of the enum constant's field."""
    name, _, desc = field_id.partition("#")[2].partition(":")
    return format_member(enum, name, desc, is_field=True)


def own_constant(store: GraphStore, target: dict) -> dict:
    """`body_marks` of the type row `target` when it is the body of an enum constant (an anonymous class extending the
    class it is declared in may be one), else empty; nothing imported or asked for any other type."""
    if target.get("inner_name") or not target.get("outer") or target.get("super") != target["outer"]:
        return {}
    return body_marks(store, [target["id"]]).get(target["id"], {})


def declared_in(store: GraphStore, nodes) -> dict[str, dict]:
    """Where each anonymous class among `nodes` is declared, as `rel_hierarchy._marks` flags: `declared_in` its
    EnclosingMethod's reference (JVMS §4.7.7: `com.acme.KService#wire()`), its class's in an initializer, and
    `enum_constant` of an enum constant's body (`enum_constant_bodies`, or its `enum_constant_candidates`); local
    classes (named) are not keys."""
    from jdx.engine.relations import rows_by_ids

    rows = rows_by_ids(store, q.ANONYMOUS_CLASSES, nodes)
    constants = constant_bodies(store, rows)
    out: dict[str, dict] = {}
    for r in rows:
        om = r["om"] or ""
        try:
            place = format_member(r["outer"], om[:om.index("(")], om[om.index("("):]) if "(" in om \
                else format_type(r["outer"])
        except ValueError:
            place = format_type(r["outer"])
        out[r["id"]] = {"declared_in": place, **constants.get(r["id"], {})}
    return out


def place_marks(store: GraphStore, type_ids) -> dict[str, dict]:
    """`{"anonymous": True, "declared_in": ..., ...}` (`declared_in`) of each of `type_ids` that is an anonymous class,
    `{"anonymous": True, "local": True}` of a local one (an EnclosingMethod, or javac's `Outer$1Local` name), as
    `implementors` marks them; no key for any other type."""
    from jdx.engine.relations import rows_by_ids

    ids = sorted({t for t in type_ids if "$" in t})
    out = {t: {"anonymous": True, **p} for t, p in declared_in(store, ids).items()}
    for r in rows_by_ids(store, q.TYPE_NESTING, [t for t in ids if t not in out]):
        if r["inner_name"] and (r["om"] or r["id"].rsplit("$", 1)[-1][:1].isdigit()):
            out[r["id"]] = {"anonymous": True, "local": True}
    return out


def mark_declaring_classes(store: GraphStore, entries: list[dict], key: str) -> None:
    """Each of `entries` (call-tree entries, usage sites, resolve's candidates) whose member or type `entry[key]` is, or is declared in a class no source
    names carries its `place_marks` (an enum constant's body the constant, `enum_constant` or its
    `enum_constant_candidates`), as the class's own `impl` row does."""
    owners = {e[key].partition("#")[0].replace(".", "/") for e in entries}  # (a graph id's, or a reference's)
    marks = place_marks(store, [o for o in owners if UNNAMED.search(o)])
    for e in entries:
        for k, v in marks.get(e[key].partition("#")[0].replace(".", "/"), {}).items():
            e.setdefault(k, v)
