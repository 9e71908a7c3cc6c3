"""Text renderings of show / outline / signature (spec §8.1: two-space indent, leading kind words,
explicit truncation naming the flag that reveals the rest, a `next:` line on single-entity output)."""

from __future__ import annotations

import re
import shlex

from jdx.graph_schema.annotation_text import source_spelling, split_elements

MAX_NESTED_SHOWN = 20
COMPILER_INTERNAL = "@kotlin.jvm.internal."  # annotations kotlinc writes for itself (SourceDebugExtension's SMAP)
# scalac's pickled signatures: one element of up to hundreds of kilobytes, meaningless as text
SCALA_INTERNAL = frozenset({"@scala.reflect.ScalaSignature", "@scala.reflect.ScalaLongSignature",
                            "@scala.reflect.ScalaInlineInfo"})
MAX_ELEMENT = 300  # characters of one annotation element a card prints; --json has the whole value
ELEMENT_KEPT = 120

STALE_NOTE = "stale class file: an earlier build left it"  # a row `stale: true` (engine.stale_classes.mark_stale)


MAX_ALSO = 8  # interfaces through supertypes a card names; hierarchy lists every one


def compiler_internal(annotation: str) -> bool:
    """An annotation a compiler writes for itself (kotlinc's `@kotlin.jvm.internal.*`, scalac's signatures)."""
    name = annotation.split("(", 1)[0]
    return name.startswith(COMPILER_INTERNAL) or name in SCALA_INTERNAL


def _cut(text: str) -> str:
    """`text` cut to ELEMENT_KEPT characters (never inside an escape) with a marker naming what is left out."""
    kept = text[:ELEMENT_KEPT]
    escape = kept.rfind("\\")
    if escape >= 0 and escape >= len(kept) - 6:
        kept = kept[:escape]
    return f"{kept}… [{len(text) - len(kept):,} more characters; --json has the whole value]"


def bounded(value: str) -> str:
    """An annotation (or an element value) as a card prints it: its binary names as source writes them
    (`API$Status.STABLE` -> `API.Status.STABLE`), every element longer than MAX_ELEMENT characters cut with an
    explicit marker, so no value prints unbounded."""
    value = source_spelling(value)
    if len(value) <= MAX_ELEMENT:
        return value
    head, paren, rest = value.partition("(")
    elements = split_elements(rest[:-1]) if paren and value.startswith("@") and rest.endswith(")") else None
    if elements is None:
        return _cut(value)
    return f"{head}({','.join(_cut(e) if len(e) > MAX_ELEMENT else e for e in elements)})"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _counts_line(c: dict, kind: str) -> str:
    fields = f"{_plural(c['fields'], 'field')} ({c['public_fields']} public"
    fields += f", {c['enum_constants']} enum constant{'' if c['enum_constants'] == 1 else 's'})" \
        if c["enum_constants"] else ")"
    parts = [f"{_plural(c['methods'], 'method')} ({c['public_methods']} public)", fields]
    if kind not in ("interface", "annotation"):
        parts.append(_plural(c["constructors"], "constructor"))
    return "members: " + ", ".join(parts)


def _split_params(inner: str) -> list[str]:
    """A rendered parameter list split at its top-level commas (generic arguments nest `<…>`)."""
    out, depth, start = [], 0, 0
    for i, c in enumerate(inner):
        depth += {"<": 1, ">": -1}.get(c, 0)
        if c == "," and depth == 0:
            out.append(inner[start:i].strip())
            start = i + 1
    return out + [inner[start:].strip()] if inner.strip() else []


def _erased_params(ref: str) -> list[str] | None:
    """`a.B#f(java.util.function.Consumer, int)` -> the erased parameter types, qualified."""
    member = ref.partition("#")[2]
    if "(" not in member:
        return None
    inner = member[member.index("(") + 1: member.rindex(")")]
    return [p.strip() for p in inner.split(",")] if inner.strip() else []


def _qualified(rendered: str, erased: str) -> str:
    """`Consumer<? super E>` with the erased type `java.util.function.Consumer` -> `java.util.function.Consumer<…>`;
    a type whose head is not the erased class (a type variable) becomes the erased type itself."""
    base = erased.removesuffix("...")
    while base.endswith("[]"):
        base = base[:-2]
    written = base.rsplit(".", 1)[-1]
    for simple in dict.fromkeys((written.replace("$", "."), written)):  # `Map.Entry`; Scala's `$less$colon$less` whole
        if rendered.startswith(simple) and not re.match(r"[\w$]", rendered[len(simple):len(simple) + 1]):
            return base + rendered[len(simple):]
    return erased


def distinct_texts(items: list[dict]) -> list[str]:
    """Each item's `text`, except that methods and constructors whose texts would read alike (one name, one rendered
    parameter list) but whose descriptors differ print the parameter types that differ qualified
    (`forEach(java.util.function.Consumer<? super E>)` beside `forEach(org.jsoup.helper.Consumer<? super E>)`)."""
    texts = [it.get("text", "") for it in items]
    groups: dict[tuple, list[tuple[int, list[str], list[str], list[str]]]] = {}
    for i, it in enumerate(items):
        text = texts[i]
        erased = _erased_params(it.get("ref") or "") if it.get("kind") in ("method", "constructor") else None
        if erased is None or it.get("kotlin") or "(" not in text:
            continue
        open_ = text.index("(")
        segments = _split_params(text[open_ + 1: text.index(")", open_)])
        types = [p["type"] for p in it["params"]] if it.get("params") is not None else segments
        if len(types) != len(erased) or len(segments) != len(erased):
            continue
        groups.setdefault((it["kind"], it.get("name"), tuple(types)), []).append((i, segments, types, erased))
    for group in groups.values():
        differ = [k for k in range(len(group[0][3])) if len({g[3][k] for g in group}) > 1]
        if len(group) < 2 or not differ:
            continue
        for i, segments, types, erased in group:
            out = list(segments)
            for k in (k for k in differ if segments[k].startswith(types[k])):
                out[k] = _qualified(types[k], erased[k]) + segments[k][len(types[k]):]
            text = texts[i]
            open_ = text.index("(")
            texts[i] = text[: open_ + 1] + ", ".join(out) + text[text.index(")", open_):]
    return texts


def _marks(synthetic: list[str] | None) -> str:
    """`  [synthetic]` after a declaration the compiler wrote, as member lines have it."""
    return "  [" + ", ".join(synthetic) + "]" if synthetic else ""


def enum_body(r: dict) -> str | None:
    """`body of enum constant Op.DIV` of an entry whose anonymous class is the body of the enum constant `ex.Op#DIV`
    (`enum_constant`), the constant as source names it; `body of enum constant Op.X or Op.Y` of one that is the body of
    one of them (`enum_constant_candidates`); None of any other."""
    constants = [r["enum_constant"]] if r.get("enum_constant") else r.get("enum_constant_candidates") or []
    spelled = [source_spelling(c.partition("#")[0].rsplit(".", 1)[-1] + "." + c.partition("#")[2]) for c in constants]
    return f"body of enum constant {' or '.join(spelled)}" if spelled else None


def _nested_note(n: dict) -> str:
    """` (anonymous)`, ` (local, synthetic)`, ` (body of enum constant Op.DIV)`: what no source names (an anonymous
    or local class, the constant an enum constant's body is), what the compiler wrote."""
    words = [n["role"]] if n.get("role") in ("anonymous", "local") else []
    words = [body] if (body := enum_body(n)) else words
    words += n.get("synthetic") or []
    words += [STALE_NOTE] if n.get("stale") else []
    return f" ({', '.join(words)})" if words else ""


def _declared(r: dict) -> str:
    """The declaration, an enum constant's body's with the constant (`anonymous class Op$3 (body of enum constant
    Op.DIV)`)."""
    return r["declaration"] + (f" ({body})" if (body := enum_body(r)) else "")


def asked_type(r: dict, key: str = "type") -> str:
    """The type as a query asked for it: `r[key]` with the type arguments it gave (`type_arguments`), if any."""
    applied = r.get("type_arguments")
    return r[key] + (f"<{', '.join(applied.values())}>" if applied else "")


def show(r: dict, brief: bool = False) -> list[str]:
    """The card: the type's line, its facts (package, artifact, sources), annotations, declaration, supertypes,
    nesting, counts, doc, `next:`; `brief`: the type's line and the card's rows only (no facts, hints, doc, next)."""
    facts = [f"package {r['package']}" if r["package"] else "default package", r["artifact"] or "unknown artifact"]
    if r.get("jdk_internal"):
        facts.append(f"JDK internal: {r['artifact']} does not export {r['package']} to every module")
    if r.get("module_unexported"):
        facts.append(f"not exported: module {r['module_unexported']} does not export {r['package']} (class path code "
                     "can use it, a module cannot)")
    if r["source_file"]:
        facts.append(f"source file {r['source_file']}")
    if r["kotlin"]:
        k = r["kotlin"]
        facts.append(f"kotlin {k['kind']}" + (f" (metadata {k['metadata_version']})" if k["metadata_version"] else ""))
    else:
        facts.append(r.get("language") or "java")
    if r["deprecated"]:
        facts.append("deprecated")
    facts.insert(2 + bool(r.get("jdk_internal")), f"sources: {r['sources']}" if r.get("sources") else "sources: none")
    keyword = (r.get("kotlin") or {}).get("keyword") if r.get("view") == "kotlin" else None
    lines = [f"{keyword or r['kind']} {asked_type(r, 'ref')}"] + ([] if brief else ["  " + " · ".join(facts)])
    internal = [a for a in r["annotations"] if compiler_internal(a)]
    lines.extend(f"  {bounded(a)}" for a in r["annotations"] if not compiler_internal(a))
    if internal:  # compilers' bookkeeping (an SMAP, a pickled Scala signature: kilobytes): named, not printed
        lines.append(f"  + {', '.join(sorted({a.split('(', 1)[0] for a in internal}))} (compiler-internal; "
                     "--json has its value)")
    kotlin_decl = (r.get("kotlin") or {}).get("declaration") if r.get("view") == "kotlin" else None
    lines.append(f"  {kotlin_decl or _declared(r)}" + _marks(r.get("synthetic")))
    if r["extends"]:
        lines.append("  extends " + (" → ".join(r["extends"]) if r["kind"] not in ("interface", "annotation")
                                     else ", ".join(r["extends"])))
    if r["implements"]:
        lines.append("  implements " + ", ".join(r["implements"]))
    also = r.get("also_implements") or []
    if also:
        more = f", +{len(also) - MAX_ALSO} more (jdx hierarchy {r['ref']})" if len(also) > MAX_ALSO else ""
        lines.append(f"  {'also extends' if r['kind'] in ('interface', 'annotation') else 'also implements'} "
                     f"(through supertypes): " + ", ".join(also[:MAX_ALSO]) + more)
    if r["outer"]:
        lines.append(f"  outer: {r['outer']['ref']}")
        if r["outer"]["method"]:
            lines.append(f"  enclosing method: {r['outer']['method']}")
    nested = r["nested"]
    if nested:
        shown = ", ".join(n["name"] + _nested_note(n) for n in nested[:MAX_NESTED_SHOWN])
        more = len(nested) - MAX_NESTED_SHOWN
        lines.append(f"  nested: {shown}" + (f", … +{more} more (--json lists all)" if more > 0 else ""))
    lines.append("  " + _counts_line(r["counts"], r["kind"]))
    if r.get("view") == "kotlin" and any((r["kotlin"].get("declarations") or {}).values()):
        k = r["kotlin"]["declarations"]  # (an object or companion declaring nothing: no line)
        words = (("enum entry", "enum entries"), ("constructor", "constructors"), ("function", "functions"),
                 ("property", "properties"), ("typealias", "type aliases"))
        lines.append("  kotlin: " + ", ".join(f"{k.get(w)} {one if k.get(w) == 1 else many}" for w, many in words
                                              for one in [w.replace("typealias", "type alias")] if k.get(w))
                     + f" (jdx outline {shlex.quote(r['ref'])}; --view jvm for the JVM members)")
    if r["counts"]["synthetic"] and not brief:
        lines.append(f"  + {_plural(r['counts']['synthetic'], 'synthetic member')} "
                     f"(jdx outline {shlex.quote(r['ref'])} --include-synthetic)")
    if brief:
        return lines
    if r.get("doc"):
        lines.append(f"  doc: {r['doc']}")
    lines.append(f"next: {r['next']}")
    return lines


KOTLIN_NAMES = "Kotlin metadata"  # the parameter names of a line printing its Kotlin declaration


def _names_from(s: dict) -> str | None:
    """Where the parameter names a line prints come from: a Kotlin declaration's from its @Metadata (whatever the
    class file keeps), a JVM member's from `param_names_from`; None when the line prints no parameter."""
    k = s.get("kotlin")
    if k is not None:
        return KOTLIN_NAMES if (k.get("detail") or {}).get("parameters") else None
    return s["param_names_from"] if s.get("params") else None


def _unnamed_marker(items: list[dict]):
    """Lines to mark `(no parameter names)`: only when some overloads have names and some do not."""
    mixed = len({_names_from(s) for s in items} - {None}) > 1
    return lambda s: mixed and _names_from(s) == "none"


def _outline_rows(r: dict) -> list[str]:
    rows = []
    unnamed = _unnamed_marker(r["members"])
    for m, text in zip(r["members"], distinct_texts(r["members"])):
        line = f"{m['kind']} {text}"
        if m.get("default") is not None:
            line += f" default {bounded(m['default'])}"
        if m["deprecated"]:
            line += "  @Deprecated"
        if m["synthetic"]:
            line += "  [" + ", ".join(m["synthetic"]) + "]"
        if m.get("record"):
            line += f"  [{m['record']}]"
        if m.get("body"):  # an enum constant's class body
            line += f"  (body: {m['body'].rsplit('.', 1)[-1]})"
        if unnamed(m):
            line += "  (no parameter names)"
        if m.get("stale"):
            line += f"  ({STALE_NOTE})"
        rows.append(line)
    return rows


MEMBERS_NARROW = "or narrow with --grep or --from <supertype>"


def members_fitted(r: dict, brief: bool, max_lines: int | None, grep: str | None) -> tuple[list[str], dict | None]:
    """`members` text within `--max-lines` (spec §8.3): the whole answer, footers and the cut's own `…` line counted
    (warnings not), keeps whole member rows (a row with its doc line) and the opening header, and the first member
    also when the header and footers leave no room for it (a cut showing none answers nothing); the cut, counted in
    members, names the `--max-lines` that prints everything. A `--limit` cut's line counts as one of the answer's."""
    from jdx.render import read

    full = read.members(r, brief, None, grep)
    listed = len(r["members"])
    total = r.get("total", listed)
    everything = len(full) + (total > listed)  # (the `--limit` cut's line, which text output adds)
    pairs = read._member_lines(r, brief)
    rows = [i for i, (_, is_member) in enumerate(pairs) if is_member]
    if max_lines is None or everything <= max_lines or not rows:
        return full, None
    room = max_lines - len(read.members(r, brief, 0, grep)) - 1  # the footers and this cut's line
    kept = 1 if not brief and not pairs[0][1] else 0  # the opening `members of` header stays
    for n, i in enumerate(rows):
        end = i + 1
        while end < len(pairs) and not pairs[end][1] and pairs[end][0].startswith(" "):
            end += 1  # its doc line
        if end > room and n:  # the first member stays even when the footers leave no room for it
            break
        kept = end
    shown = sum(1 for i in rows if i < kept)
    if shown == len(rows):  # the one member kept past the cap is all there is: no cut to state
        return full, None
    return read.members(r, brief, kept, grep), _fit_cut(shown, listed, total, everything, MEMBERS_NARROW)


def _fit_cut(shown: int, listed: int, total: int, everything: int, narrow: str) -> dict:
    """The `--max-lines` cut of a fitted answer, counted in rows: the `--max-lines` that prints every listed row,
    and the `--limit` that lists every row when a `--limit` cut some too."""
    hint = f"--max-lines {everything} for all, {narrow}"
    if total > listed:
        hint = f"--max-lines {everything} for all {listed}, --limit {total} for every member, {narrow}"
    return {"shown": shown, "total": listed, "hint": hint}


# the JVM members whose deprecation is not their declaration's: kotlinc marks every `$annotations` stub deprecated
# (javap: `Deprecated: true` on `getFunctions$annotations`), the property it carries the annotations of or not
NOT_DEPRECATING = ("annotations",)


def _kotlin_rows(r: dict) -> list[str]:
    """Kotlin declarations, then the JVM members no declaration claims (their JVM text)."""
    rows = []
    deprecated = {m["ref"] for m in r["members"] if m["deprecated"]}
    for m in r["kotlin_members"]:
        line = m["text"]
        markers = list(m["markers"])
        owners = {j["ref"].split("#", 1)[0] for j in m.get("jvm") or ()}
        if owners and all(o.startswith(r["type"] + "__") for o in owners):  # kotlinc's `Facade__FileKt` parts: a
            markers.append(f"only in part {min(owners).rsplit('.', 1)[-1]}")  # private declaration, not on the facade
        if markers:
            line += "  [" + ", ".join(markers) + "]"
        if any(j["ref"] in deprecated for j in m.get("jvm") or () if j["role"] not in NOT_DEPRECATING):
            # (as `members` and `--view jvm` mark it)
            line += "  @Deprecated"
        rows.append(line)
    jvm_only = set(r["jvm_only"])
    rows.extend(f"{m['kind']} {text}  (jvm)" for m, text in zip(r["members"], distinct_texts(r["members"]))
                if m["ref"] in jvm_only)
    return rows


def _inherited_rows(r: dict) -> list[str]:
    """`outline --from X`: the members inherited from X, each marked with the type it comes from."""
    return [f"{m['kind']} {m['text']}  (from {m['declaring']})" + ("  @Deprecated" if m.get("deprecated") else "")
            for m in r.get("inherited") or ()]


def _inherited_footer(r: dict) -> list[str]:
    if not r.get("from"):
        return []
    n = r.get("inherited_total", len(r.get("inherited") or ()))
    return [f"{n} inherited from {r['from']} (--from)"]


def _outline_parts(r: dict) -> tuple[list[str], list[str], list[str]]:
    """(header, rows, footer) of the text outline."""
    if r.get("view") == "kotlin":
        return _kotlin_outline(r)
    rows = _outline_rows(r) + _inherited_rows(r)
    footer = [_plural(r.get("declared", len(r["members"])), "member"), *_inherited_footer(r), _declared(r),
              f"{r['artifact']} (bytecode)"]
    if r["hidden_synthetic"]:
        footer.append(f"{r['hidden_synthetic']} synthetic hidden (--include-synthetic)")
    names = _names_footer(r["members"])
    if names and {"none", "source", KOTLIN_NAMES} & {_names_from(m) for m in r["members"]}:  # (class-file names go unsaid)
        footer.append(names)
    return [f"{r['kind']} {r['type']}"], rows, [" · ".join(footer)]


OUTLINE_NARROW = "or narrow with --kind, --grep or --access"


def outline_fitted(r: dict, brief: bool, max_lines: int | None) -> tuple[list[str], dict | None]:
    """`outline` text within `--max-lines` (spec §8.3), as `members_fitted`: the whole answer (header, rows, footer
    and the cut's own `…` line; warnings not) fits, whole rows only, the header and footer kept, and the first row
    also when they leave no room for it; the cut, counted in
    rows, names the `--max-lines` that prints everything. A `--limit` cut's line counts as one of the answer's."""
    header, rows, footer = _outline_parts(r)
    if brief:
        header, footer = [], []
    full = header + [f"  {row}" if not brief else row for row in rows] + footer
    listed = len(rows)
    total = r.get("total", listed)
    everything = len(full) + (total > listed)  # (the `--limit` cut's line, which text output adds)
    if max_lines is None or everything <= max_lines or not rows:
        return full, None
    kept = max(1, min(listed, max_lines - len(header) - len(footer) - 1))  # the first row even past the cap
    if kept == listed:
        return full, None
    return full[:len(header) + kept] + footer, _fit_cut(kept, listed, total, everything, OUTLINE_NARROW)


def outline(r: dict, brief: bool, max_lines: int | None) -> list[str]:
    return outline_fitted(r, brief, max_lines)[0]


def _kotlin_outline(r: dict) -> tuple[list[str], list[str], list[str]]:
    rows = _kotlin_rows(r) + _inherited_rows(r)
    footer = [_plural(r.get("declared", len(r["kotlin_members"])), "Kotlin declaration"), *_inherited_footer(r),
              r["kotlin_declaration"] or r["declaration"],
              f"{r['artifact']} (bytecode, @kotlin.Metadata)", "--view jvm for the JVM members"]
    n = r.get("hidden_lambdas", 0)  # compiler-generated lambda bodies kotlin_view.outline_view leaves out
    if n:
        footer.append(f"{n} lambda {'body' if n == 1 else 'bodies'} hidden (--include-synthetic)")
    if r.get("hidden_default_impls"):  # kotlinc's class of an interface's method bodies, for Java: no declaration
        footer.append("DefaultImpls hidden (kotlinc's interface method bodies for Java; --include-synthetic)")
    n = r.get("hidden_deprecated", 0)  # declarations kotlinc hid (@Deprecated(level = HIDDEN)): synthetic members
    if n:
        footer.append(f"{n} hidden by deprecation (--include-synthetic)")
    kind = r.get("kotlin_keyword") or r["kind"]
    return [f"{kind} {r['type']}"], rows, [" · ".join(footer)]


def _names_footer(items: list[dict]) -> str | None:
    sources = sorted({_names_from(s) for s in items} - {None})
    if not sources:
        return None
    if sources == ["none"]:
        return "parameter names: not in the class file, shown as arg0, arg1, …"
    named = [s for s in sources if s != "none"]
    text = "parameter names from " + ", ".join(named)
    return text + ("; (no parameter names) marks the rest" if "none" in sources else "")


def _counted(items: list[dict]) -> str:
    """`3 overloads`, or `1 method, 1 field` where a field shares the name (a field is no overload)."""
    fields = sum(1 for s in items if s["kind"] == "field")
    if not fields:
        return f"{len(items)} overloads"
    rest = len(items) - fields
    kinds = ([f"{rest} overload{'s' if rest != 1 else ''}" if rest > 1 else "1 method"] if rest else []) + \
        [f"{fields} field{'s' if fields != 1 else ''}"]
    return ", ".join(kinds)


def signature(r: dict, brief: bool = False) -> list[str]:
    """A header, each overload's line (grouped by declaring type), notes, where the names come from, `next:`;
    `brief`: the overloads' lines alone."""
    items = r["signatures"]
    unnamed = _unnamed_marker(items)
    cut = r.get("total", len(items)) > len(items)  # `--limit`: the header counts them all, the cut line says more
    if brief:
        lines = []
    elif len(items) == 1 and not cut:
        lines = [f"signature {items[0]['ref']}" + (f" of {asked_type(r)}" if r.get("type_arguments") else "")]
    else:
        lines = [f"signatures of {asked_type(r)}#{r['name']} ({r['total'] if cut else _counted(items)}"
                 f"{' overloads' if cut else ''})"]
    current = r["type"]
    for s, text in zip(items, distinct_texts(items)):
        if s["declaring"] != current and not brief:
            current = s["declaring"]
            lines.append(f"{'declared in' if current == r['type'] else 'inherited from'} {current}")
        line = " ".join([s["kind"], *map(bounded, s["annotations"]), text])
        if s.get("kotlin"):
            k = s["kotlin"]
            line = " ".join([*map(bounded, k.get("annotations") or ()), k["text"]]) + (
                "  [" + ", ".join(k["markers"]) + "]" if k["markers"] else "") + (
                f"  (jvm {k['role']}: {s['text']})" if k["role"] not in ("method", "constructor") else "")
        if s.get("default") is not None:
            line += f" default {bounded(s['default'])}"
        if s.get("deprecated") and not any(a.startswith("@java.lang.Deprecated") for a in s["annotations"]):
            line += "  @Deprecated"  # (the class file's Deprecated attribute alone: a javadoc @deprecated tag)
        if s["synthetic"]:
            line += "  [" + ", ".join(s["synthetic"]) + "]"
        if unnamed(s):
            line += "  (no parameter names)"
        lines.append(("" if brief else "  ") + line)
    if brief:
        return lines
    footer = [x for x in (_names_footer(items), ", ".join(dict.fromkeys(s["artifact"] for s in items)) + " (bytecode)")
              if x]
    lines.extend(f"note: {n}" for n in r.get("notes", ()))
    lines.append(" · ".join(footer))
    if r.get("next"):
        lines.append(f"next: {r['next']}")
    return lines
