"""A member's type annotations on its own types, shown where source writes them: `@Nullable Properties
parseURL(String url, @Nullable Properties defaults)` (JSR 308 nullness: Checker Framework, JSpecify). A type
annotation is in the class file apart from the declaration's (RuntimeVisible/InvisibleTypeAnnotations, JVMS
4.7.20); the graph keeps it as an ANNOTATED_BY edge whose `site` says on which type (`type use in return type`,
`parameter N`, `field type`), with where inside it appended when it is not on the type itself (`List<@Nullable
String>`: ` (type argument 0)`), which is not shown here: only the first makes the value itself nullable."""

from __future__ import annotations

from jdx.graph_schema.queries_graph import TYPE_USES_OF_FIELD, TYPE_USES_OF_METHOD
from jdx.graph_schema.store import GraphStore

_RETURN, _FIELD, _PARAM = "type use in return type", "type use in field type", "type use in parameter "


def with_type_uses(store: GraphStore, row: dict, is_field: bool) -> dict:
    """`row` (a Method or Field row) with its type annotations: a parameter's among its `param_annotations` (as
    `tN:@...`, N the declared parameter's index), the return or field type's as `type_uses`."""
    found = store.rows_cached(TYPE_USES_OF_FIELD if is_field else TYPE_USES_OF_METHOD, {"id": row["id"]})
    own = [r["text"] for r in found if r["site"] == (_FIELD if is_field else _RETURN)]
    params = [f"t{r['site'][len(_PARAM):]}:{r['text']}" for r in found
              if r["site"].startswith(_PARAM) and r["site"][len(_PARAM):].isdigit()]
    if not own and not params:
        return row
    return {**row, "type_uses": own, "param_annotations": [*(row.get("param_annotations") or ()), *params]}


def annotate(item: dict, row: dict) -> dict:
    """A rendered signature `item` with the return or field type's annotations written on that type (text:
    member_render.on_type), and listed (JSON `type_annotations`)."""
    from jdx.engine.member_render import on_type

    anns = row.get("type_uses") or []
    typed = item.get("type") if item["kind"] == "field" else item.get("returns")
    if not anns or not typed:
        return item
    written = f"{typed} {item['name']}"
    head, paren, rest = item["text"].partition("(") if item["kind"] != "field" else (item["text"], "", "")
    at = head.rfind(written) if item["kind"] != "field" else head.find(written)
    if at >= 0:
        head = head[:at] + on_type(typed, anns) + head[at + len(typed):]
    return {**item, "text": head + paren + rest, "type_annotations": anns}
