"""`doc` (spec §7.1): javadoc and KDoc from sources as plain text, inherited from the nearest supertype that
documents an overridden method when the member has none (or says `{@inheritDoc}`), labelled as such; KDoc
`[links]` resolved to canonical references (kdoc.py, kotlin_doc.py)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from jdx.engine import javadoc as jd
from jdx.engine import source_match as sm
from jdx.engine.jvm_names import parse_method_descriptor
from jdx.engine.member_resolve import _substituted_descriptor, collect
from jdx.engine.refs import format_member, format_type, type_id
from jdx.engine.src_body import member_target, resolve_symbol
from jdx.engine.src_locate import (Located, SourceContext, line_drift, locate_field, locate_method, locate_type,
                                   mismatch_warnings, parse_errors)
from jdx.errors import Warning_
from jdx.graph_schema import queries

_PARAMS_END = ")"


@dataclass
class DocOptions:
    inherited: bool = True
    raw: bool = False


def _params(descriptor: str) -> str:
    return descriptor[: descriptor.index(_PARAMS_END) + 1]


def _located_doc(loc: Located | None) -> tuple[str | None, dict | None]:
    if loc is None or loc.decl is None or not loc.decl.doc:
        return None, None
    d = loc.decl
    return d.doc, {"label": loc.file.root.label, "file": loc.file.display,
                   "lines": [d.doc_start, d.start - 1 if d.start > d.doc_start else d.start]}


def _parse_doc(ctx: SourceContext, loc: Located, type_row: dict, raw: str,
               field: dict | None = None) -> tuple[jd.Javadoc, list[dict] | None]:
    """A comment as text: javadoc, or KDoc with its `[links]` resolved in the declaration's file (None: no
    links list, the comment is javadoc). `field`: the field the comment documents (`{@value}` alone)."""
    if loc.file.is_kotlin:
        from jdx.engine import kdoc, kotlin_doc

        return kdoc.parse(raw, kotlin_doc.LinkResolver(ctx, kotlin_doc.scope_of(ctx, loc, type_row)))
    return jd.parse(raw, lambda ref: _constant_value(ctx, type_row, ref, field)), None


def _constant_value(ctx: SourceContext, type_row: dict, ref: str, field: dict | None) -> str | None:
    """`{@value ref}`: the Java literal of the ConstantValue of the field `ref` names (`#K`, `Type#K`,
    `pkg.Type#K`; empty: `field`), as the javadoc tool prints it; None when no constant is found."""
    from jdx.engine.descriptors import render_constant

    if not ref:
        row = field
    else:
        owner, _, name = ref.split(None, 1)[0].partition("#")
        row = None
        for tid in _owner_ids(type_row, owner):
            rows = ctx.store.rows_cached(queries.FIELDS_OF, {"id": tid})
            row = next(({k[2:]: v for k, v in r.items()} for r in rows if r["f.name"] == name), None)
            if row is not None:
                break
    if row is None or row.get("constant") is None:
        return None
    return render_constant(row.get("descriptor") or "", row["constant"])


def _owner_ids(type_row: dict, owner: str) -> list[str]:
    """Graph ids `{@value Owner#K}` may mean: the documented type (no owner), the name as written (dots as
    package or nesting separators), the name in the documented type's package or nested in it."""
    if not owner:
        return [type_row["id"]]
    package = type_row["id"].rsplit("/", 1)[0] if "/" in type_row["id"] else ""
    parts = owner.split(".")
    out = [type_row["id"] + "$" + owner.replace(".", "$")]
    out += ["/".join(parts[:k] + ["$".join(parts[k:])]) for k in range(len(parts) - 1, -1, -1)]
    out += [p + "/" + owner.replace(".", "$") for p in (package, "java/lang") if p]
    return [o for o in out if o]


def overridden(ctx: SourceContext, type_row: dict, row: dict) -> list[tuple[dict, dict]]:
    """(supertype row, method row) for every supertype method `row` overrides, nearest first (superclass chain,
    then superinterfaces breadth-first, as member resolution walks them)."""
    if row["name"].startswith("<") or (row.get("access") or 0) & (sm.ACC_STATIC | 0x0002):
        return []
    found = collect(ctx.store, type_row)
    want = _params(row["descriptor"])
    out = []
    for trow, env in found.walk[1:]:
        if trow.get("external"):
            continue
        for m in found.methods.get(trow["id"], []):
            if m["name"] != row["name"] or (m.get("access") or 0) & (sm.ACC_STATIC | 0x0002 | sm.ACC_SYNTHETIC):
                continue
            sub = _substituted_descriptor({"row": m, "is_field": False, "env": env})
            if _params(m["descriptor"]) == want or (sub is not None and _params(sub) == want):
                out.append((ctx.type_row(trow["id"]) or trow, m))
    return out


def _member_doc(ctx: SourceContext, type_row: dict, row: dict, is_field: bool, opts: DocOptions,
                warn: bool = False, fill_tags: bool = True) -> dict:
    """The doc of one member. A method's missing parts (no comment, an empty one, `{@inheritDoc}`, and with
    `fill_tags` a missing `@param`/`@return`/`@throws`) come from the methods it overrides, nearest first, as the
    javadoc tool fills them; inherited `@param` tags take the member's own parameter names, by position."""
    loc = locate_field(ctx, type_row, row["name"], row) if is_field else locate_method(ctx, type_row, row)
    raw, source = _located_doc(loc)
    item = {"raw": raw, "source": source, "inherited_from": None, "has_sources": loc is not None,
            "_warnings": _version_warnings(ctx, type_row, row, is_field, loc) if warn else []}
    parsed, links = _parse_doc(ctx, loc, type_row, raw, row if is_field else None) if raw else (None, None)
    kotlin = loc is not None and loc.file.is_kotlin
    names = None if is_field or kotlin else _param_names(loc)
    throws = [] if is_field else _throws(ctx, type_row, row)
    component = _record_component_doc(ctx, type_row, row, is_field, loc, parsed)
    if component is not None:  # a record component's field or accessor: the record's `@param` documents it
        parsed, item["source"], item["documented_by"] = component
    # the member's own main description (no `{@inheritDoc}` in it): only tags can be inherited, and the header names
    # them and the declaration each came from (`tag_from`), not a method the whole comment would be inherited from
    own_description = parsed is not None and bool(parsed.paragraphs) and not parsed.inherit_doc
    own_tags = {(t, n) for t, n, _ in parsed.tags} if parsed is not None else set()
    tag_from: dict[tuple[str, str | None], tuple[str, dict | None, Located]] = {}
    if (opts.inherited and not is_field and component is None
            and _missing(parsed, row, names, throws, fill_tags, kotlin)):
        for srow, m in overridden(ctx, type_row, row):
            p_loc = locate_method(ctx, srow, m)
            p_raw, p_source = _located_doc(p_loc)
            if not p_raw:
                continue
            parent, p_links = _parse_doc(ctx, p_loc, srow, p_raw)
            if parent.is_empty():
                continue
            rename = None if kotlin else _rename(_param_names(p_loc), names)
            supplied = {_renamed(t, n, rename) for t, n, _ in parent.tags}  # tags this comment writes itself
            deep_from = None
            if parent.inherit_doc:
                deep, deep_loc, deep_from = _deep_parent(ctx, srow, m)
                parent = jd.fill_inherited(parent, deep or jd.Javadoc([]), _throws(ctx, srow, m),
                                           _rename(_param_names(deep_loc), _param_names(p_loc)))
            before = parsed
            parsed = (jd.fill_inherited(parsed, parent, throws, rename) if parsed is not None
                      else jd.Javadoc(parent.paragraphs, jd.declared_only(jd.rename_params(parent.tags, rename),
                                                                            throws)))
            if before is not None and not before.inherit_doc and parsed == before:
                continue  # this comment had nothing the member lacks
            for t, n, _ in parsed.tags:  # where each tag the member lacked came from, as javadoc's walk finds it
                if (t, n) not in own_tags and (t, n) not in tag_from:
                    tag_from[(t, n)] = ((format_member(srow["id"], m["name"], m["descriptor"]), p_source, p_loc)
                                        if (t, n) in supplied or deep_from is None else deep_from)
            if p_links is not None:
                links = (links or []) + p_links
            if warn and p_loc is not None:  # the text shown is read from this file too: check it as `doc` of it would
                item["_warnings"] += [w for w in _version_warnings(ctx, srow, m, False, p_loc)
                                      if w not in item["_warnings"]]
            if item["inherited_from"] is None:
                # `source` is where the comment shown comes from: the member's own when it has one (the parts
                # it takes from the overridden method's come from `inherited_source`)
                item.update(inherited_from=format_member(srow["id"], m["name"], m["descriptor"]),
                            source=source or p_source, raw=raw or p_raw)
                if raw:
                    item["inherited_source"] = p_source
            if not _missing(parsed, row, names, throws, fill_tags, kotlin):
                break
    if own_description and item["inherited_from"] is not None:
        _tags_inherited(item, parsed, tag_from)
    if (parsed is None or parsed.is_empty()) and (loc is None or loc.file.is_kotlin):
        tagged = _property_tag(ctx, type_row, row, is_field)
        if tagged is not None:  # `@property size` in the class's KDoc documents the property `size`
            parsed, links, item["source"], item["documented_by"] = tagged
    if links is not None or (loc is not None and loc.file.is_kotlin):
        item["links"] = links or []
    item["text"] = jd.render(parsed) if parsed is not None else []
    item["first_sentence"] = jd.first_sentence(parsed) if parsed is not None else ""
    return item


def _missing(doc: jd.Javadoc | None, row: dict, names: list[str] | None, throws: list[str], tags: bool,
             kotlin: bool = False) -> bool:
    """Whether a method's comment lacks what the javadoc tool inherits: its main description (or says
    `{@inheritDoc}`), and with `tags` a `@param` of a parameter, `@return` of a non-void method, or `@throws` of an
    exception of its `throws` clause. KDoc is inherited only when there is none (or it is empty)."""
    if doc is None or doc.inherit_doc or doc.is_empty():
        return True
    if kotlin:
        return False
    if not doc.paragraphs:
        return True
    if not tags:
        return False
    params = {n for t, n, _ in doc.tags if t == "param" and n}
    if names is not None:
        if any(n not in params for n in names):
            return True
    elif len([n for n in params if not n.startswith("<")]) < len(parse_method_descriptor(row["descriptor"])[0]):
        return True
    if not row["descriptor"].endswith(")V") and not any(t == "return" for t, _, _ in doc.tags):
        return True
    have = {jd._simple(n or "") for t, n, _ in doc.tags if t == "throws"}
    return any(jd._simple(x) not in have for x in throws)


def _rename(parent: list[str] | None, own: list[str] | None) -> dict[str, str] | None:
    """The overridden method's parameter names → the member's, by position (None when either is unknown)."""
    if parent is None or own is None or len(parent) != len(own):
        return None
    return {p: o for p, o in zip(parent, own) if p != o}


_COMMENT_OR_STRING = re.compile(r"/\*.*?\*/|//[^\n]*|\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])*'", re.S)
_IDENT = re.compile(r"[A-Za-z_$][\w$]*")


def _param_names(loc: Located | None) -> list[str] | None:
    """A Java method's parameter names as its declaration writes them (the names its `@param` tags use), read from
    the declaration's text; None when there is no declaration or the names cannot be told."""
    if loc is None or loc.decl is None or loc.file.is_kotlin or loc.decl.kind not in ("method", "constructor"):
        return None
    d = loc.decl
    lines = loc.file.lines[d.start - 1:d.end]
    if not lines:
        return None
    lines[0] = lines[0].encode("utf-8", "replace")[d.start_col:].decode("utf-8", "replace")
    text = _COMMENT_OR_STRING.sub(" ", "\n".join(lines))
    m = re.search(r"(?<![\w$])" + re.escape(d.name) + r"\s*\(", text)
    if m is None:
        return None
    depth, pieces, cur = 0, [], []
    for ch in text[m.end():]:
        if ch in "(<[":
            depth += 1
        elif ch in ")>]":
            if depth == 0 and ch == ")":
                break
            depth -= 1
        elif ch == "," and depth == 0:
            pieces.append("".join(cur))
            cur = []
            continue
        cur.append(ch)
    else:
        return None
    pieces.append("".join(cur))
    names = []
    for piece in pieces:
        idents = _IDENT.findall(re.sub(r"@[\w$.]+\s*(\([^()]*\))?", " ", piece))  # annotations dropped
        if not idents:
            continue
        if idents[-1] == "this":  # a receiver parameter is no parameter
            continue
        names.append(idents[-1])
    return names if len(names) == len(d.params) else None


def _version_warnings(ctx: SourceContext, type_row: dict, row: dict, is_field: bool,
                      loc: Located | None) -> list[Warning_]:
    """SOURCES_VERSION_MISMATCH as `body` gives them: the type's sources and class file disagree, the member is
    absent from its sources, or its line table falls outside the declaration found."""
    if loc is None or loc.file.is_kotlin:
        return []
    absent = loc.decl is None and not loc.implicit and not loc.ambiguous  # (overloads it cannot tell apart: there)
    out = mismatch_warnings(ctx, type_row, loc.file, loc.keys, [row] if absent and not is_field else [])
    if absent and is_field and loc.file.parsed.errors:
        out = [w for w in out if w.code != "SOURCE_PARSE_ERROR"] + parse_errors(
            ctx, type_row, loc.file, refs=[format_member(type_row["id"], row["name"], row["descriptor"], is_field=True)])
    elif absent and is_field and not any(row["name"] in w.message for w in out):
        art = ctx.artifact_name(type_row)
        ref = format_member(type_row["id"], row["name"], row["descriptor"], is_field=True)
        out.append(Warning_("SOURCES_VERSION_MISMATCH", f"{art} declares {ref} which is absent from "
                            f"{loc.file.root.label} ({loc.file.display})", art))
    drift = None if is_field else line_drift(ctx, type_row, row, loc)
    return out + ([drift] if drift is not None else [])


def _throws(ctx: SourceContext, type_row: dict, row: dict) -> list[str]:
    """The method's `throws` clause (internal names), from its row or the graph."""
    if row.get("exceptions") is not None:
        return list(row["exceptions"])
    for r in ctx.store.rows_cached(queries.MEMBERS_OF, {"id": type_row["id"]}):
        if r["m.name"] == row["name"] and r["m.descriptor"] == row["descriptor"]:
            return list(r.get("m.exceptions") or [])
    return []


_ACCESSOR = re.compile(r"(get|is|set)([A-Z].*)")


def _property_tag(ctx: SourceContext, type_row: dict, row: dict, is_field: bool):
    """A Kotlin property documented in its class's KDoc only (`@property size`, else `@param size` of a
    primary-constructor `val`), for its field or accessor: (the tag's text as a comment, links, the class comment's
    source, what documents it), or None."""
    names = [row["name"]]
    if not is_field:
        m = _ACCESSOR.fullmatch(row["name"])
        arity = 1 if m and m.group(1) == "set" else 0
        if m is None or len(parse_method_descriptor(row["descriptor"])[0]) != arity:
            return None
        rest = m.group(2)
        names = [row["name"]] if m.group(1) == "is" else [rest[0].lower() + rest[1:], rest]
    loc = locate_type(ctx, type_row)
    if loc is None or not loc.file.is_kotlin:
        return None
    raw, source = _located_doc(loc)
    if not raw:
        return None
    parsed, links = _parse_doc(ctx, loc, type_row, raw)
    for tag in ("property", "param"):
        for t, name, text in parsed.tags:
            if t == tag and name in names and text:
                return (jd.Javadoc([text]), links, source,
                        f"@{tag} {name} in the KDoc of {format_type(type_row['id'])}")
    return None


def _deep_parent(ctx: SourceContext, type_row: dict, row: dict
                 ) -> tuple[jd.Javadoc | None, Located | None, tuple[str, dict | None, Located] | None]:
    """The nearest comment without `{@inheritDoc}` of a method `row` overrides, where it is, and (the method's
    reference, the comment's source, where it is)."""
    for srow, m in overridden(ctx, type_row, row):
        loc = locate_method(ctx, srow, m)
        raw, source = _located_doc(loc)
        if raw:
            parsed = _parse_doc(ctx, loc, srow, raw)[0]
            if not parsed.inherit_doc:
                return parsed, loc, (format_member(srow["id"], m["name"], m["descriptor"]), source, loc)
    return None, None, None


def _renamed(tag: str, name: str | None, rename: dict[str, str] | None) -> tuple[str, str | None]:
    return tag, (rename.get(name, name) if rename and tag == "param" and name else name)


def _tags_inherited(item: dict, parsed: jd.Javadoc, tag_from: dict) -> None:
    """A member whose own comment has its main description and inherits only tags: not `inherited_from` (that
    says the whole comment is another's), but `inherited_tags`, each group of tags with the method that supplied
    it and where its comment is, named in `documented_by` too; `inherited_source` is the first group's comment."""
    groups: dict[str, dict] = {}
    written: dict[str, list[int]] = {}
    for t, n, _ in parsed.tags:
        if (t, n) in tag_from:
            ref, source, loc = tag_from[(t, n)]
            group = groups.setdefault(ref, {"tags": [], "from": ref, "source": source})
            label = f"@{t} {n}" if n else f"@{t}"
            if label not in group["tags"]:
                group["tags"].append(label)
                written.setdefault(ref, []).extend(_tag_lines(loc, t, n))
    for ref, group in groups.items():  # the lines of the tags taken, when they can be told, not the whole comment
        lines = written.get(ref)
        if lines and group["source"] is not None:
            group["source"] = dict(group["source"], lines=[min(lines), max(lines)])
    item["inherited_from"] = None
    if not groups:
        item.pop("inherited_source", None)
        return
    item["inherited_tags"] = list(groups.values())
    item["inherited_source"] = item["inherited_tags"][0]["source"]
    item["documented_by"] = "its own comment, with " + "; ".join(
        f"{_and(g['tags'])} inherited from {g['from']}" for g in groups.values())


_BLOCK_TAG = re.compile(r"^\s*(?:/\*\*)?\s*\*?\s*@(\w+)(?:\s+(\S+))?")


def _tag_lines(loc: Located | None, tag: str, name: str | None) -> list[int]:
    """The first and last line of the block tag `@tag name` (`@exception` for `throws`) in the comment of `loc`'s
    declaration: from its line to the line before the next block tag or the comment's end; [] when not found."""
    if loc is None or loc.decl is None or not loc.decl.doc_start:
        return []
    first, last = loc.decl.doc_start, max(loc.decl.doc_start, loc.decl.start - 1)
    lines = loc.file.lines[first - 1:last]
    tags = [(i, m) for i, ln in enumerate(lines) if (m := _BLOCK_TAG.match(ln))]
    for k, (i, m) in enumerate(tags):
        written = "throws" if m.group(1) == "exception" else m.group(1)
        if written == tag and (name is None or jd._simple(m.group(2) or "") == jd._simple(name)):
            end = tags[k + 1][0] - 1 if k + 1 < len(tags) else len(lines) - 1
            while end > i and lines[end].strip() in ("", "*", "*/", "**/"):
                end -= 1
            return [first + i, first + end]
    return []


def _and(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _record_component_doc(ctx: SourceContext, type_row: dict, row: dict, is_field: bool, loc: Located | None,
                          own: jd.Javadoc | None) -> tuple[jd.Javadoc, dict | None, str] | None:
    """A record component's private field, or its accessor without a main description of its own (implicit, or
    declared without a comment): the text of the record comment's `@param` of the component, as the javadoc tool
    documents them from it (CommentUtils.setRecordFieldTree / setRecordAccessorTree link that `@param`); (doc,
    the record comment's source, what documents it), or None."""
    if loc is None or loc.file.is_kotlin or type_row.get("kind") not in (None, "record"):
        return None
    record = sm.record_decl(loc.file.parsed, loc.keys)
    if record is None or row["name"] not in record.component_names:
        return None
    if is_field:
        if (row.get("access") or 0) & sm.ACC_STATIC:
            return None
    elif not row["descriptor"].startswith("()") or (own is not None and own.paragraphs and not own.inherit_doc):
        return None
    raw, source = _located_doc(Located(loc.file, loc.keys, record))
    if not raw:
        return None
    text = next((x for t, n, x in _parse_doc(ctx, loc, type_row, raw)[0].tags
                 if t == "param" and n == row["name"] and x), None)
    if text is None:
        return None
    what = "field" if is_field else "accessor"
    return (jd.Javadoc([text]), source, f"@param {row['name']} in the record comment of {format_type(type_row['id'])}"
                                        f", which documents the {what}'s record component")


def _type_item(ctx: SourceContext, type_row: dict, warn: bool = False) -> dict:
    loc = locate_type(ctx, type_row)
    raw, source = _located_doc(loc)
    parsed, links = _parse_doc(ctx, loc, type_row, raw) if raw else (None, None)
    item = {"ref": format_type(type_row["id"]), "kind": type_row.get("kind"), "declaring": format_type(type_row["id"]),
            "raw": raw, "source": source, "inherited_from": None, "has_sources": loc is not None,
            "text": jd.render(parsed) if parsed else [], "first_sentence": jd.first_sentence(parsed) if parsed else ""}
    if loc is not None and loc.file.is_kotlin:
        item["links"] = links or []
    if warn and loc is not None and not loc.file.is_kotlin:
        item["_warnings"] = mismatch_warnings(ctx, type_row, loc.file, loc.keys)
    return item


def doc(ctx: SourceContext, text: str, opts: DocOptions) -> tuple[dict, list[Warning_], list[dict]]:
    """Javadoc of a type or of every member a reference names (all overloads when no parameters are given)."""
    kind, found = resolve_symbol(ctx.store, text, require_one=False)
    if kind == "member":  # a Kotlin function's @JvmOverloads copies: one declaration, one KDoc
        from jdx.engine.kotlin_view import one_declaration_member

        if (one := one_declaration_member(ctx.store, found.members)) is not None:
            found.members = [one]
    items = []
    if kind == "type":
        type_row = found
        items.append({**_type_item(ctx, type_row, warn=True), "deprecated": bool(type_row.get("deprecated")),
                      "_owner": type_row["id"]})
    else:
        for e in found.members:
            owner = ctx.type_row(e["declaring"]) or {"id": e["declaring"]}
            target = member_target(ctx, e)
            item = _member_doc(ctx, owner, target.row, e["is_field"], opts, warn=True)
            items.append({"ref": e["ref"], "kind": e["kind"], "declaring": format_type(e["declaring"]), **item,
                          "deprecated": bool(target.row.get("deprecated")), "_owner": e["declaring"]})
        type_row = found.target
    warnings, provenance = [], []
    for it in items:
        owner_row = ctx.type_row(it.pop("_owner")) or type_row
        art = ctx.artifact_name(owner_row)
        version = it.pop("_warnings", [])
        warnings += [w for w in version if w not in warnings]
        has_sources = it.pop("has_sources")
        if not has_sources:
            shown = f"the javadoc shown is {it['inherited_from']}'s" if it["text"] else "so no javadoc"
            warnings.append(Warning_("NO_SOURCES", f"{it['declaring']}: no sources, {shown} "
                                     f"({_sources_hint(ctx, owner_row)})", art))
        elif not it["text"] and not any(it["ref"] in w.message and ("absent" in w.message or "not found" in w.message)
                                        for w in version):
            warnings.append(Warning_("NO_DOC", f"{it['ref']} has no {'KDoc' if 'links' in it else 'javadoc'}"
                                     + ("" if opts.inherited else " (--inherited looks in supertypes)"), art))
        # the comment shown came from a source file (the member's, or a supertype's it inherits), else nothing did
        prov = {"symbol": it["ref"], "artifact": art, "origin": "sources" if it["source"] else "bytecode"}
        if not it["source"]:
            prov["detail"] = "no javadoc: " + ("no sources" if not has_sources else "none in the sources")
        if it["source"]:
            prov.update(file=it["source"]["file"], lines=it["source"]["lines"], sources=it["source"]["label"])
        provenance.append(prov)
        if not opts.raw:
            it.pop("raw")
    return {"query": text, "docs": items}, warnings, provenance


def first_sentence_docs(ctx: SourceContext, items: list[dict], warnings: list[Warning_] | None = None,
                        inherited: dict[str, str] | None = None) -> dict[str, str]:
    """`members --with-doc`: the first javadoc sentence of each `members` result item (`ref`, `kind`,
    `declaring` as printed, `name`, `descriptor`), inherited when the member has none; keyed by `ref`.
    `inherited` gets, per ref whose sentence is an overridden method's, that method (as `doc` names it).
    Members without sources or javadoc are absent; `warnings` gets a NO_SOURCES for each declaring type without
    sources (as `doc` says it), so an answer without docs says why."""
    out: dict[str, str] = {}
    borrowed: set[str] = set()  # declaring types without sources some of whose members show a supertype's doc
    sourceless: dict[str, dict] = {}
    rows: dict[tuple[str, bool], dict] = {}
    for it in items:
        owner = type_id(it["declaring"])
        is_field = it.get("kind") == "field"
        if (owner, is_field) not in rows:
            query, prefix = (queries.FIELDS_OF, "f.") if is_field else (queries.MEMBERS_OF, "m.")
            rows[(owner, is_field)] = {(r[prefix + "name"], r[prefix + "descriptor"]): {k[2:]: v for k, v in r.items()}
                                       for r in ctx.store.rows_cached(query, {"id": owner})}
        row = rows[(owner, is_field)].get((it["name"], it["descriptor"]))
        type_row = ctx.type_row(owner)
        if row is None or type_row is None:
            continue
        doc = _member_doc(ctx, type_row, row, is_field, DocOptions(), fill_tags=False)
        if doc["first_sentence"]:
            out[it["ref"]] = doc["first_sentence"]
            if doc["inherited_from"] and inherited is not None:
                inherited[it["ref"]] = doc["inherited_from"]
        if not doc.get("has_sources", True):
            sourceless.setdefault(it["declaring"], type_row)
            if doc["first_sentence"]:
                borrowed.add(it["declaring"])
    if warnings is not None:
        warnings += [Warning_("NO_SOURCES", f"{declaring}: no sources, so no javadoc of its own for its members"
                              + ("; the sentences shown are the overridden methods'" if declaring in borrowed else "")
                              + f" ({_sources_hint(ctx, row)})", ctx.artifact_name(row))
                     for declaring, row in sourceless.items()]
    return out


def type_first_sentence(ctx: SourceContext, type_id: str) -> str | None:
    """`show`'s doc line: the first sentence of a type's javadoc, None without sources or javadoc."""
    type_row = ctx.type_row(type_id)
    if type_row is None:
        return None
    return _type_item(ctx, type_row)["first_sentence"] or None


def _sources_hint(ctx: SourceContext, type_row: dict) -> str:
    from jdx.engine.sources import missing_sources_hint

    art = ctx.artifacts.get(type_row.get("artifact") or "")
    return missing_sources_hint(getattr(art, "kind", ""), getattr(art, "spec", ""))
