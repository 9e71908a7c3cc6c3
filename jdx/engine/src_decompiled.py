"""A class's decompiled text read as a source file (`body`, `source`, `samples` without sources): the decompiler's
top-level class parsed as Java, its anonymous classes matched to the binary's by what each creation names."""

from __future__ import annotations

import re

from jdx.engine import source_match as sm
from jdx.engine.java_parse import Decl
from jdx.engine.src_locate import SourceContext, SourceFile, is_top_level, outer_chain, top_level
from jdx.graph_schema import queries

DECOMPILE_TIMEOUT = 10.0


def decompiled_file(ctx: SourceContext, type_row: dict, engine: str | None = None):
    """(parsed decompiled top-level class as a SourceFile, Decompiled); raises the loaders' DecompileError."""
    from jdx.engine.sources import SourceRoot
    art = ctx.artifacts[type_row["artifact"]]
    chain = outer_chain(ctx, type_row["id"])
    top = top_level(type_row["id"], chain, type_row)
    classpath = [(a.kind, a.path) for a in ctx.artifacts.values()]
    forced = engine if engine in ("vineflower", "procyon") else None
    dec = ctx.jvm.decompile_class(ctx.cache, art.kind, art.path, top, classpath, timeout=DECOMPILE_TIMEOUT, engine=forced)
    data = _java_modifiers(dec.text).encode("utf-8")
    rel = top + ".java"
    root = SourceRoot("dir", "", f"{dec.engine} {dec.engine_version}", "decompiled")
    file = SourceFile(root, rel, data, ctx.cache)
    return file, decompiled_keys(ctx, file, type_row, sm.type_keys(type_row["id"], chain, is_top_level(type_row))), dec


_MODIFIERS = re.compile(r"^(\s*)((?:(?:public|protected|private|static|final|abstract|synthetic|strictfp|native|"
                        r"synchronized|transient|volatile|default)\s+)+)", re.MULTILINE)


def _java_modifiers(text: str) -> str:
    """Procyon prints a synthetic class or member with a `synthetic` modifier Java does not have (kotlinc's
    multi-file parts: `final synthetic class BuildersKt__Builders_commonKt`), which the Java grammar cannot read:
    it becomes a comment, the lines stay where they are."""
    if "synthetic " not in text:
        return text
    return _MODIFIERS.sub(lambda m: m.group(1) + m.group(2).replace("synthetic ", "/* synthetic */ "), text)


def _simple(name: str) -> str:
    return re.split(r"[./$]", name.split("<", 1)[0])[-1]


def _written_as(file: SourceFile, decl: Decl) -> str | None:
    """`Iterator` for an anonymous class opened by `new Iterator<E>() {`, None for an enum constant's body."""
    if not decl.head_start:
        return None
    found = re.match(r"new\s+([\w$.]+)", file.lines[decl.head_start - 1].encode("utf-8")[decl.head_col:]
                     .decode("utf-8", "replace"))
    return _simple(found.group(1)) if found else None


def _supertype_written(row: dict | None) -> str | None:
    """The simple name an anonymous class's creation names: its interface, else its superclass."""
    if row is None:
        return None
    named = (row.get("interfaces") or []) + ([row["super"]] if row.get("super") else [])
    return _simple(named[0]) if named else None


def decompiled_keys(ctx: SourceContext, file: SourceFile, type_row: dict, keys: list[str]) -> list[str]:
    """The keys of an anonymous class in a decompiled text. A decompiler moves code (Procyon writes field
    initialisers into a trailing `static {}`), so the text's order of anonymous classes need not be javac's:
    the k-th anonymous class of the binary created as `new X` is the k-th `new X` of the text."""
    if len(keys) < 2 or not keys[-1].isdigit() or not type_row.get("outer"):
        return keys
    want = _supertype_written(type_row)
    decls = [d for d in file.parsed.types() if d.path[:-1] == keys[:-1] and d.path[-1].isdigit()]
    current = next((d for d in decls if d.path == keys), None)
    if want is None or (current is not None and _written_as(file, current) == want):
        return keys
    siblings = sorted((r["id"] for r in ctx.store.rows_cached(queries.NESTED_TYPES_OF, {"id": type_row["outer"]})
                       if not r.get("inner_name") and r["id"].rsplit("$", 1)[-1].isdigit()),
                      key=lambda i: int(i.rsplit("$", 1)[-1]))
    alike = [i for i in siblings if _supertype_written(ctx.type_row(i)) == want]
    written = [d for d in decls if _written_as(file, d) == want]
    if type_row["id"] in alike and len(alike) == len(written):
        return written[alike.index(type_row["id"])].path
    return keys
