"""Bodies the class file or the decompiler makes special (spec §7.3, docs/sources.md): a lambda's method, which has no
declaration of its own (its lines are the source lines of its line table, or the decompiled lines they went to
inside the enclosing method), a Kotlin lambda compiled to a class (its header says so), a method the decompiler
could not decompile (its body is the decompiler's note and a throw, never the code), and a static field whose value
a `static {}` block assigns (its declaration has none)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from jdx.engine.java_parse import Decl
from jdx.engine.members import ACC
from jdx.engine.refs import format_type
from jdx.engine.src_locate import SourceContext, SourceFile, stale_source
from jdx.errors import JdxError, Warning_

if TYPE_CHECKING:
    from jdx.engine.src_body import BodyOptions, Target

# Procyon's body for a method it could not decompile: this comment, the bytecode as comments, and
# `throw new IllegalStateException("An error occurred while decompiling this method.");`
UNDECOMPILED = "This method could not be decompiled."
METHOD_KINDS = ("method", "constructor", "compact_constructor", "initializer", "static_initializer")


def undecompiled(lines: list[str], decl: Decl) -> bool:
    """Whether the decompiler wrote, as the body of the method `decl`, that it could not decompile it: the note opens
    the body, one indent (4 columns) inside the declaration (deeper, it would be a lambda's or a local class's)."""
    first = lines[decl.start - 1] if decl.start <= len(lines) else ""
    indent = len(first) - len(first.lstrip()) + 4
    return any(line.strip() == "// " + UNDECOMPILED and len(line) - len(line.lstrip()) == indent
               for line in lines[decl.start:decl.end])


def undecompiled_methods(file: SourceFile, a: int, b: int, within: Decl | None = None) -> list[Decl]:
    """The methods among lines a..b of a decompiled text (inside `within`, when given, and not it) whose body is the
    decompiler's note that it could not decompile them."""
    if not any(UNDECOMPILED in line for line in file.lines[a - 1:b]):
        return []
    return [d for d in file.parsed.decls if d.kind in METHOD_KINDS and a <= d.start and d.end <= b and
            d is not within and (within is None or within.start <= d.start and d.end <= within.end) and
            undecompiled(file.lines, d)]


def undecompiled_warning(engine: str, failed: list[Decl], type_name: str, artifact: str) -> Warning_:
    """DECOMPILE_FAILED for the methods of a decompiled text shown whose body the engine could not write."""
    names = ", ".join(f"{d.name or '<init>'} (line {d.start})" for d in failed[:5]) + \
        (f" and {len(failed) - 5} more" if len(failed) > 5 else "")
    return Warning_("DECOMPILE_FAILED", f"{engine} could not decompile {len(failed)} method(s) of {type_name} shown: "
                    f"{names}; each body is its note '{UNDECOMPILED}' and a throw, not the code; jdx body "
                    f"'{type_name}#<method>' --engine javap shows the bytecode", artifact)



def is_lambda(row: dict | None) -> bool:
    """A method the compiler wrote for a lambda's body (`lambda$lazy$0`, kotlinc 2's `lazy$lambda$0`), without a
    declaration of its own, its code compiled from lines of the method that holds the lambda (relations.is_lambda,
    the graph's rule, on a member row)."""
    if row is None or not row.get("name"):
        return False
    from jdx.engine.relations import is_lambda as lambda_body_id

    return lambda_body_id({"id": f"{row.get('owner', '')}#{row['name']}{row.get('descriptor') or '()V'}",
                           "access": row.get("access")})


def kotlin_lambda_labelled(ctx: SourceContext, target: Target, result: dict) -> dict:
    """`result` (a body) with what its method is after its header when kotlinc compiled a lambda (or a callable
    reference) to the method's class, as a javac lambda body's header says it is one: `(lambda body in
    KService#wire(Registry): kotlinc compiled the lambda to this class)` (search_nav.enclosing_notes, as `resolve`
    notes its frames)."""
    if target.row is None or target.is_field or "$" not in target.type_row["id"] or not target.type_row.get("kotlin"):
        return result
    from jdx.engine.search_nav import enclosing_notes

    note = enclosing_notes(ctx.store, [target.row["id"]], anonymous=False).get(target.row["id"])
    return dict(result, header=f"{result['header']}  ({note})") if note else result


def lambda_rows(row: dict, line_map: dict | None) -> tuple[int, int] | None:
    """The decompiled lines a lambda method's code went to: first and last of those written from its class-file lines
    (its line table's range) by the decompiler's line map; None without a map or a line table, or when none maps."""
    from jdx.engine.src_source import member_lines

    lines = member_lines(row)
    if lines is None or not line_map:
        return None
    rows = [n for n, held in line_map.items() if any(lines[0] <= line <= lines[1] for line in held)]
    return (min(rows), max(rows)) if rows else None


def lambda_body(ctx: SourceContext, target: Target, artifact: str, opts: BodyOptions,
                 warnings: list[Warning_]) -> dict | None:
    """A lambda's body: the source lines of its line table, else the decompiled lines they went to inside the
    enclosing method (the decompiler's line map). None (javap, as for other compiler-written members) without a line
    table, with sources too short for it, or when the decompiler fails or maps none of its lines."""
    from jdx.engine.src_body import RECONSTRUCTED, _result, _sources_missing_why
    from jdx.engine.src_decompiled import decompiled_file
    from jdx.engine.src_locate import source_file
    from jdx.engine.src_source import member_lines

    lines = member_lines(target.row)
    if lines is None:
        return None
    found = source_file(ctx, target.type_row)
    what = f"lambda body: the lines of {target.row['name']}'s line table"
    if found is not None:
        file = found[0]
        if lines[1] > len(file.lines):
            return None
        warnings += stale_source(ctx, target.type_row, file)
        a, b = max(1, lines[0] - opts.context), min(len(file.lines), lines[1] + opts.context)
        header = f"source: {file.root.label} ({file.display}:{a}-{b})  ({what})"
        source = {"label": file.root.label, "how": file.root.how, "file": file.display, "lines": [a, b]}
        return _result(target, artifact, "sources", header, file.lines[a - 1:b], a, source)
    try:
        file, _keys, dec = decompiled_file(ctx, target.type_row)
    except JdxError:
        return None  # javap says why the decompiler is not there
    rows = lambda_rows(target.row, dec.line_map)
    if rows is None:
        return None
    warnings.append(Warning_("NO_SOURCES", f"{format_type(target.type_row['id'])}: "
                             f"{_sources_missing_why(ctx, target)}; reconstructing from bytecode", artifact))
    warnings += [Warning_(w.code, w.message, artifact) for w in getattr(dec, "warnings", ())]
    a, b = max(1, rows[0] - opts.context), min(len(file.lines), rows[1] + opts.context)
    header = (f"source: decompiled by {dec.engine} {dec.engine_version} from {artifact} ({what}, {lines[0]}-"
              f"{lines[1]}, placed by the decompiler's line map)   {RECONSTRUCTED}")
    source = {"label": None, "how": "decompiled", "file": file.rel, "lines": [a, b], "lines_of": "decompiled text",
              "class_file_lines": lines}
    return _result(target, artifact, "decompiled", header, file.lines[a - 1:b], a, source,
                   {"name": dec.engine, "version": dec.engine_version})


ASSIGNED = "assigned in the static initializer"


def lines_of(d: Decl) -> str:
    return f"line {d.start}" if d.start == d.end else f"lines {d.start}-{d.end}"


def static_without_constant(target: Target) -> bool:
    """A static field whose class file holds no ConstantValue: `<clinit>` computes its value, if anything does."""
    return (target.is_field and bool((target.row.get("access") or 0) & ACC["static"])
            and target.row.get("constant") is None)


def static_value(target: Target, file: SourceFile, decl: Decl) -> list[Decl]:
    """For a static field declared without a value and no constant (javac's `static final X X; static { X = ...; }`,
    a decompiler's text of every computed value), the statements of the `static {}` blocks that assign it."""
    if file.is_kotlin or decl.kind != "field" or decl.static_init or not static_without_constant(target):
        return []
    return static_assignments(file, decl, decl.path[-1] if decl.path else "")


def value_note(assigned: list[Decl], decompiled: bool = False) -> str:
    """`its value: assigned in the static initializer, line 171`; a decompiled text's lines are its own, not the
    class file's a stack trace names: said so."""
    return f"its value: {ASSIGNED}, {', '.join(lines_of(d) for d in assigned)}" + (" of the decompiled text"
                                                                                    if decompiled else "")


def with_assignments(result: dict, file: SourceFile, assigned: list[Decl]) -> dict:
    """A field's text followed by the statements that assign it, each group under a `// assigned in the static
    initializer, lines a-b` line (the lines are no longer one range: no first line to number from)."""
    from jdx.engine.src_body import cut

    if not assigned:
        return result
    text = list(result["text"])
    whose = " of the decompiled text" if result.get("origin") == "decompiled" else ""
    for d in assigned:
        text += [f"// {ASSIGNED}, {lines_of(d)}{whose}", *cut(file.lines, d, d.start, d.end)]
    source = dict(result["source"], parts=[{"what": "declaration", "lines": result["source"]["lines"]}]
                  + [{"what": ASSIGNED, "lines": [d.start, d.end]} for d in assigned])
    return dict(result, text=text, first_line=None, source=source, assigned_in="static initializer")


_SKIPPED = ("class_body", "lambda_expression")  # code that runs elsewhere: an anonymous class's, a lambda's
_COMMENTS = ("line_comment", "block_comment")


def static_assignments(file: SourceFile, field: Decl, owner: str) -> list[Decl]:
    """Where the `static {}` blocks of `field`'s type give it its value (a decompiler writes every non-constant value
    there: `GLOBAL = create(new Object());`): each top-level statement of a block that assigns it (`NAME = ...`,
    `Owner.NAME = ...`), with the earlier statements of the block that set up the locals it reads, as declarations
    (kind "statement"), adjacent ones joined, in source order; [] when no block assigns it. `owner`: the type's name
    (its key)."""
    from jdx.engine.java_parse import parser

    blocks = [d for d in file.parsed.decls if d.kind == "static_initializer" and d.path == field.path]
    if not blocks:
        return []
    root = parser().parse(file.data).root_node
    chosen = []
    for d in blocks:
        node = root.descendant_for_point_range((d.start - 1, d.start_col), (d.end - 1, max(d.end_col, 0)))
        while node is not None and node.type != "static_initializer":
            node = node.parent
        body = next((c for c in node.named_children if c.type == "block"), None) if node is not None else None
        if body is not None:
            chosen += _assigning(body, field.name, owner)
    return _joined(chosen, field)


def _assigning(block, name: str, owner: str) -> list:
    """The statements of `block` that assign the static field `name`, and the earlier ones that mention a local
    variable they read (its declaration, `list.add(..)`), transitively."""
    statements = [s for s in block.named_children if s.type not in _COMMENTS]
    chosen = {i for i, s in enumerate(statements)
              if any(_assigns(a, name, owner) for a in _walk(s, "assignment_expression"))}
    if not chosen:
        return []
    local = {v.child_by_field_name("name").text for s in statements if s.type == "local_variable_declaration"
             for v in s.named_children if v.type == "variable_declarator"}
    read = set()
    for i in range(max(chosen), -1, -1):
        used = {n.text for n in _walk(statements[i], "identifier")} & local
        if i in chosen or used & read:
            chosen.add(i)
            read |= used
    return [statements[i] for i in sorted(chosen)]


def _walk(node, kind: str):
    """The nodes of type `kind` in `node`, not inside an anonymous class's or a lambda's body."""
    stack = [node]
    while stack:
        item = stack.pop()
        if item.type == kind:
            yield item
        stack.extend(c for c in item.named_children if c.type not in _SKIPPED)


def _assigns(assignment, name: str, owner: str) -> bool:
    left = assignment.child_by_field_name("left")
    if left is None:
        return False
    if left.type == "identifier":
        return left.text.decode() == name
    target = left.child_by_field_name("object") if left.type == "field_access" else None
    return (target is not None and left.child_by_field_name("field").text.decode() == name
            and target.text.decode().rsplit(".", 1)[-1] == owner)


def _joined(statements: list, field: Decl) -> list[Decl]:
    """Statements as declarations with their lines and columns, those on adjacent lines one."""
    out: list[Decl] = []
    for s in statements:
        start, end = s.start_point[0] + 1, s.end_point[0] + 1
        if out and start <= out[-1].end + 1:
            out[-1] = Decl("statement", field.name, field.path, out[-1].start, end, start_col=out[-1].start_col,
                           end_col=s.end_point[1])
        else:
            out.append(Decl("statement", field.name, field.path, start, end, start_col=s.start_point[1],
                            end_col=s.end_point[1]))
    return out
