"""A Kotlin `const val`'s value in the Kotlin view, as the JVM view prints its field's (`= -1`): `outline` and
`members` wrote `public const val unspecifiedError: Int` where javap and `--view jvm` say `= -1`. The value is the
ConstantValue of the field the property compiles to (a companion's in its outer class), rendered as Kotlin writes
it (javac's and kotlinc's literals agree for these types: `10L`, `1.5f`, `'c'`, `"s"`, `true`)."""

from __future__ import annotations

from jdx.engine import descriptors as d


def with_const_values(store, pairs: list[tuple[dict, dict]]) -> None:
    """Appends ` = value` to the text of each entry (of `pairs`: entry, its KotlinDecl row) that is a `const val`
    whose field has a ConstantValue; one query for the classes declaring those fields, none when there is none."""
    wanted: dict[tuple[str, str, str], list[dict]] = {}
    for entry, decl in pairs:
        if decl.get("kind") != "property" or "const" not in (decl.get("flags") or ()):
            continue
        for link in decl.get("jvm") or ():
            role, _, target = link.partition(":")
            if role == "field" and "#" in target:
                owner, member = target.split("#", 1)
                name, _, desc = member.partition(":")
                wanted.setdefault((owner, name, desc), []).append(entry)
    if not wanted:
        return
    from jdx.graph_schema.queries import FIELDS_OF_TYPES

    rows = store.rows(FIELDS_OF_TYPES, {"ids": sorted({owner for owner, _, _ in wanted})})
    for row in rows:
        entries = wanted.get((row["owner"], row["name"], row["descriptor"]))
        if entries and row.get("constant") is not None:
            value = d.render_constant(row["descriptor"], row["constant"])
            for entry in entries:
                if " = " not in entry["text"]:
                    entry["text"] += f" = {value}"
