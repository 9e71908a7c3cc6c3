"""Text renderings of the relationship graph (spec §8.1: two-space indent, leading kind words, markers
instead of box drawing; `…(cycle)` where a tree meets an ancestor, `(seen above)` where it meets a node
expanded elsewhere). `brief` (`--brief`): the rows only, one indent less, no header, notes or `next:`; the
section and group labels a row cannot be read without stay, and so does every line saying what a limit cut; an
empty answer is `(none)`, never empty output."""

from __future__ import annotations

import shlex

from jdx.render.cards import STALE_NOTE, asked_type, bounded, enum_body


SHADOWED_GROUP = "(shadowed copies: never loaded)"  # a usages group of code in shadowed class copies
SUB_INTERFACES_SHOWN = 5  # an interface's sub-interfaces named with their lambdas' count


def _markers(e: dict) -> str:
    out = []
    if e.get("missing"):  # a callee the loaded copy of its class lacks; a shadowed copy declares it
        m = e["missing"]
        out.append(f"(missing from the loaded copy: {m['error']}; declared by {m['artifact']}'s shadowed copy)")
    if e.get("shadowed"):
        out.append("(shadowed copy: never loaded)")
    if e.get("unresolved"):
        out.append("⚠ not in workspace")
    out += _type_marks(e)
    if e.get("via"):
        out.append("via " + ", ".join(e["via"]))
    if "lambda_lines" in e:  # also called directly
        out.append(_some_lines(e, e["lambda_lines"], "in lambda"))
    elif e.get("in_lambda"):
        out.append("(in lambda)")
    if e.get("lambda_writer"):  # the queried lambda body's writer: its invokedynamic hands the body over
        out.append("(writes this lambda)")
    if "method_ref_lines" in e:  # also invoked
        out.append(_some_lines(e, e["method_ref_lines"], "method-ref"))
    elif e.get("method_ref"):
        out.append("(method-ref)")
    if e.get("external") and e.get("artifact") != "(external)":  # the artifact column says it already
        out.append("(external)")
    if e.get("bridge"):
        out.append("(compiler bridge)")
    if e.get("accessor"):
        out.append("(synthetic accessor)")
    if e.get("part"):  # a multi-file facade's copy: the code, and the lines, are its part's
        out.append(f"(code in {e['part'].split('#', 1)[0].rsplit('.', 1)[-1]})")
    if "inline" in e.get("kinds", ()):
        out.append("(inlined)")  # kotlinc copied an inline function's body into the caller (its SMAP says where)
    if e.get("seen"):
        out.append("(seen below)" if e.get("seen_below") else "(seen above)")
    if e.get("cycle"):
        out.append("…(cycle)")
    return ("  " + " ".join(out)) if out else ""


def _some_lines(e: dict, some: list[int], what: str) -> str:
    """The mark of a callee's sites of one kind among others (`in lambda` among direct calls): `(in lambda: line 7)`
    beside a line that is another site's, else `(also in lambda…)`, as the lines shown may all be these (another
    site's line unknown, or the same); an unknown line (-1, no LineNumberTable entry) is never named."""
    known = [n for n in some if n >= 0]
    at = f": line {', '.join(map(str, known))}" if known else ""
    other_shown = any(n >= 0 and n not in known for n in e.get("lines", ()))
    return f"({what}{at})" if known and other_shown else f"(also {what}{at})"


def _type_marks(e: dict) -> list[str]:
    """`(anonymous, in KService#wire)`, `(local)`, `(body of enum constant Op.DIV)`, `(synthetic)`, `(non-public)`: a
    subtype no source names or code outside its package cannot (`rel_hierarchy._marks`), a class in one (rows of
    callers and usages)."""
    return type_place(e) + (["(non-public)"] if e.get("public") is False else []) + \
        ([f"({STALE_NOTE})"] if e.get("stale") else [])


def type_place(e: dict) -> list[str]:
    """`_type_marks` but `(non-public)`: where a class no source names is declared, what made it."""
    out = []
    if body := enum_body(e):
        out.append(f"({body})")
    elif e.get("anonymous"):
        where = e.get("declared_in")
        word = "local" if e.get("local") else "anonymous"
        out.append(f"({word}, in {_short_member(where)})" if where else f"({word})")
    elif e.get("synthetic") is True:
        out.append("(synthetic)")
    return out


def _short_member(ref: str) -> str:
    """`KService#wire` of `com.acme.fx.KService#wire()`; `an initializer of KService` of a class (no EnclosingMethod
    method: a field initializer's or an initializer block's code)."""
    owner, _, member = ref.partition("#")
    short = owner.rsplit(".", 1)[-1]
    return f"{short}#{member.split('(', 1)[0]}" if member else f"an initializer of {short}"


def _named(e: dict, ref: str, kind: str | None = None) -> str:
    """`kind ref`, or in the Kotlin view the Kotlin declaration (its keyword the kind word) then the JVM
    reference, as search lines print them; `kind` None: the bare reference."""
    k = e.get("kotlin")
    if k is None:
        mark = "abstract" if e.get("abstract") else "final" if e.get("final") else None
        kind = f"{mark} {kind}" if kind and mark else kind
        return f"{kind} {ref}" if kind else ref
    return f"{k['text'].removeprefix('public ')}  {ref}" + "".join(f"  [{x}]" for x in k["markers"])


def _as_copy(e: dict) -> dict:
    """An inlined copy carries its original's Kotlin metadata, so its Kotlin label names the original: say so
    (the JVM reference after it is the copy's own)."""
    k = e.get("kotlin")
    if not (e.get("inlined_copy") and k):
        return e
    return {**e, "kotlin": {**k, "text": "inlined copy of " + k["text"].removeprefix("public ")}}


def _type_tree(entries: list[dict], indent: int, down: bool, lines: list[str]) -> None:
    for e in map(_as_copy, entries):
        head = f"{_named(e, e['type'] if down else e.get('as_seen', e['as']), e['kind'])}  {e['artifact']}"
        if down:
            head += f"  {e['relation']} {e['as']}"
        lines.append("  " * indent + head + _markers(e))
        _type_tree(e.get("children", []), indent + 1, down, lines)
        if n := e.get("not_shown"):  # its own supertypes (subtypes) the limit left out
            lines.append("  " * (indent + 1) + f"… {n} more {'sub' if down else 'super'}type{'s' * (n != 1)} "
                         "past --limit")


def hierarchy(r: dict, brief: bool = False) -> list[str]:
    both = "up" in r and "down" in r  # brief keeps the arrows only where the two trees would run together
    lines = [] if brief else [f"{_named(r, asked_type(r), r['kind'])}  {r['artifact']}"]
    lines += [] if brief else [f"  note: {n}" for n in r.get("notes", ())]
    for direction, arrow, title in (("up", "↑", "supertypes"), ("down", "↓", "subtypes in workspace")):
        if direction not in r:
            continue
        cut = r.get(direction + "_not_shown", 0)
        if not brief:
            lines.append(f"  {arrow} {title} ({r[direction + '_count']})")
            if not r[direction] and not cut:
                lines.append("    (none)")
        elif both:
            lines.append(f"{arrow} {title}")
        indent = (1 if both else 0) if brief else 2
        _type_tree(r[direction], indent, direction == "down", lines)
        if cut:  # the root's own supertypes (subtypes) the limit left out
            lines.append("  " * indent + f"… {cut} more {title.split()[0][:-1]}{'s' * (cut != 1)} past --limit")
    return _brief_none(lines, brief)


def _brief_none(lines: list[str], brief: bool) -> list[str]:
    """`--brief` of an empty answer is `(none)`: no rows must not read as lost output."""
    return ["(none)"] if brief and not lines else lines


def implementors(r: dict, brief: bool = False) -> list[str]:
    lines = [] if brief else [f"implementors of {_named(r, r['type'], r['kind'])}: {r['count']}"]
    lines += [] if brief else [f"  note: {n}" for n in r.get("notes", ())]
    if not r["implementors"] and not brief and not r.get("lambdas"):
        lines.append("  (none in workspace)")
    for e in map(_as_copy, r["implementors"]):
        lines.append(("" if brief else "  ") + f"{_named(e, e['type'], e['kind'])}  {e['artifact']}  "
                     f"{', '.join(e['supertypes'])}" + _markers(e))
    lines += [("" if brief else "  ") + x for x in _lambdas_lines(r.get("lambdas"), r["type"], "create a")]
    return _brief_none(lines, brief)


def _lambdas_lines(lam: dict | None, name: str, what: str) -> list[str]:
    """`+ 4 lambdas and method references create a com.acme.Handler (3 lambdas, 1 method-ref): jdx usages …`, and
    how many create its sub-interfaces (`rel_hierarchy.lambda_implementations`): code no class file implements.
    `what`: the verb phrase (`create a`)."""
    if not lam:
        return []
    out = []
    if lam["count"]:
        parts = [f"{lam[k]} {w}{'s' * (lam[k] != 1)}" for k, w in (("lambda", "lambda"), ("method_ref", "method-ref"))
                 if lam[k]]
        out.append(f"+ {_lambdas(lam['count'], what)} {name} ({', '.join(parts)}): {lam['command']}")
    if subs := lam.get("sub_interfaces"):
        n = sum(x["count"] for x in subs)
        shown = ", ".join(f"{x['type']} {x['count']}" for x in subs[:SUB_INTERFACES_SHOWN])
        more = f", … {len(subs) - SUB_INTERFACES_SHOWN} more" if len(subs) > SUB_INTERFACES_SHOWN else ""
        out.append(f"+ {_lambdas(n, 'create', 'more ' if lam['count'] else '')} sub-interfaces of {name}: "
                   f"{shown}{more}")
    return out


def _lambdas(n: int, verb: str, more: str = "") -> str:
    """`4 lambdas and method references create`, `1 more lambda or method reference creates` (`verb`: plural)."""
    if n == 1:
        first, _, rest = verb.partition(" ")
        return f"1 {more}lambda or method reference {first}s{' ' + rest if rest else ''}"
    return f"{n} {more}lambdas and method references {verb}"


def overrides(r: dict, brief: bool = False) -> list[str]:
    """brief: the method's line only when there are several (one per overload), the two sections' labels kept."""
    lines: list[str] = []
    pad = "  " if brief and len(r["methods"]) > 1 else ""
    for m in r["methods"]:
        if not brief:
            lines.append(_named(m, m["method"], "method"))
            pad = "  "
        elif pad:
            lines.append(m["method"])
        lines.append(f"{pad}overrides:" + ("" if m["overrides"] else " (none)"))
        for o in m["overrides"]:
            lines.append(f"{pad}  {_named(o, o['method'])}  {o['artifact']}" + _override_marks(o, "in a subclass"))
        lines += [] if brief else [f"{pad}  note: {n}" for n in m.get("notes", ())]
        lines.append(f"{pad}overridden by ({m['overridden_by_count']}):" + ("" if m["overridden_by"] else " (none)"))
        for o in m["overridden_by"]:
            lines.append(f"{pad}  {_named(o, o['method'])}  {o['artifact']}"
                         + _override_marks(o, "inherited by a subclass"))
        owner = m["method"].split("#", 1)[0]
        lines += [f"{pad}  {x}" for x in _lambdas_lines(m.get("lambdas"), owner, "implement it as a")]
    return lines


def _override_marks(o: dict, inherited: str) -> str:
    """`(indirect)` past the nearest; `inherited`'s words for a method that overrides only where a subclass
    inherits it (JLS §8.4.8.1); the class no source names it is declared in (`(anonymous, in Outer#rows)`)."""
    marks = ([] if o["direct"] else ["indirect"]) + ([inherited] if o.get("inherited") else [])
    return (f"  ({', '.join(marks)})" if marks else "") + "".join("  " + m for m in _type_marks(o))


def _site_text(s: dict, many_targets: bool) -> str:
    text = s["kind"] + (f" {s['line']}" if s["line"] >= 0 else "")
    if s["kind"] in ("ref", "override", "annotation", "impl", "signature") and s["detail"]:
        text += f" ({bounded(s['detail'])})"  # an annotation's values can run to 100k characters (ScalaSignature)
    if s.get("via"):
        text += f" via {s['via']}"
    if s["detail"] == "inline":
        text += " inlined"
    if s["in_lambda"]:
        text += " in lambda"
    if s["method_ref"] and s["detail"] != "method-ref":  # an impl site's detail says it already
        text += " method-ref"
    if s.get("lambda_writer"):
        text += " (writes this lambda)"
    if many_targets:
        text += f" → {s['target']}"
    return text


def _site_texts(sites: list[dict], many_targets: bool) -> str:
    """The sites of one row, identical neighbours once with their count (`read 479 ×4`)."""
    runs: list[list] = []
    for text in (_site_text(s, many_targets) for s in sites):
        if runs and runs[-1][0] == text:
            runs[-1][1] += 1
        else:
            runs.append([text, 1])
    return ", ".join(text + (f" ×{n}" if n > 1 else "") for text, n in runs)


def usages(r: dict, brief: bool = False) -> list[str]:
    """brief: the caller rows (and any context asked for) without the artifact groups, whose name each row's
    caller carries."""
    many = len(r["targets"]) > 1
    pad = "" if brief else "  "
    lines: list[str] = []
    several = len(r["groups"]) > 1  # brief rows of several artifacts name theirs (the group lines are gone)
    for g in r["groups"]:
        shown = "" if g["count"] == g["total"] else f", {g['count']} shown"
        dead = f" {SHADOWED_GROUP}" if g.get("shadowed") else ""
        if not brief:
            lines.append(f"{g['artifact']}{dead} ({g['total']}{shown})")
        where = f"  · {g['artifact']}{dead}" if brief and (several or dead) else ""
        for c in g["callers"]:
            more = c.get("more_sites", 0)  # the limit cut this row partway
            marks = "".join("  " + m for m in _type_marks(c))  # a subtype's
            entry = [f"{pad}{_named(c, c['caller'])}{'  (compiler bridge)' if c.get('bridge') else ''}{marks}  "
                     + _site_texts(c["sites"], many) + (f", … +{more} more site{'s' * (more > 1)} past --limit"
                                                        if more else "") + where]
            shown_ctx: set = set()
            for s in c["sites"]:
                ctx = s.get("context")
                if ctx and (ctx["file"], ctx["first_line"], len(ctx["text"])) not in shown_ctx:
                    shown_ctx.add((ctx["file"], ctx["first_line"], len(ctx["text"])))  # two calls on one line: once
                    entry.append(f"{pad}  {ctx['file']}:{ctx['lines'][0]}-{ctx['lines'][1]}" + (
                        f"  ({ctx['label']}, lines of the decompiled text)   ⚠ reconstructed"
                        if ctx.get("reconstructed") else ""))
                    entry.extend(f"{pad}  {'>' if n == ctx['focus'] else ' '}{n:>5}  {t}"
                                 for n, t in enumerate(ctx["text"], ctx["first_line"]))
            lines.append("\n".join(entry))  # one entity: `--max-lines` keeps or drops it whole (spec §8.3)
    for g in r.get("groups_not_shown", ()):  # what the limit cut says where the rest is, brief or not
        dead = f" {SHADOWED_GROUP}" if g.get("shadowed") else ""
        lines.append(f"{'· ' if brief else ''}{g['artifact']}{dead} ({g['total']}, none shown)")
    if brief:
        return _brief_none(lines, brief)
    counts = ", ".join(f"{k} {n}" for k, n in r["counts"].items())
    prop = r.get("property")  # a Kotlin property: its own members by role, the other members of its name by name
    head = f"usages of {_named(r, r['symbol'], 'property' if prop else r['symbol_kind'])}: {r['total']}" + (
        f" ({counts})" if counts else "")
    if many and prop:
        own, others = f"its {_and(prop['parts'])}", _and([f"method {_short_params(ref, named=True)}" if "(" in ref
                                                          else f"field {ref}" for ref in prop["others"]])
        head += f" across {own}" + (f"{',' * (' and ' in own)} and {others}" if others else "")
    elif many:
        head += f" across {len(r['targets'])} " + ("overloads" if r["symbol_kind"] != "member" else "members")
    lines[:0] = [head + (f"  [{r['filter']}]" if r["filter"] else "")] + [f"  note: {n}" for n in r["notes"]]
    if not r["groups"] and r["total"] == 0:  # a narrowed question's "no" is no more than its own
        kinds = " of the kinds --kind asks" if r.get("kinds", ["all"]) != ["all"] else ""
        where = " in the artifacts --in/--exclude keep" if r["filter"] else ""
        lines.append(f"  (none{kinds}{where})" if kinds or where else "  (no usages in workspace)")
    if r["total"] and r["symbol_kind"] in ("method", "constructor") and len(r["targets"]) == 1:
        lines.append(f"next: jdx callers {shlex.quote(r['targets'][0])} --depth 3")
    return lines


def _and(words: list[str]) -> str:
    """`a`, `a and b`, `a, b and c`."""
    return ", ".join(words[:-1]) + " and " + words[-1] if len(words) > 1 else "".join(words)


def _call_tree(entries: list[dict], indent: int, parent_artifact: str, lines: list[str], noun: str) -> None:
    for e in entries:
        where = ", ".join(str(n) for n in e["lines"] if n >= 0)
        text = "  " * indent + _named(e, e["method"])
        if e["artifact"] != parent_artifact:
            text += f"  {e['artifact']}"
        if where:
            text += f"  line {where}"
        lines.append(text + _markers(e))
        _call_tree(e.get("children", []), indent + 1, e["artifact"], lines, noun)
        if cut := _cut_below(e, noun):  # its own entries the limit left out: never read as a leaf
            lines.append("  " * (indent + 1) + cut)


def _cut_below(e: dict, noun: str) -> str | None:
    """What `--limit` left out below a shown entry (`noun`: callers or callees)."""
    n = e.get("not_shown", 0)
    if n:
        return f"… {n} {'more ' if e.get('children') else ''}{noun if n > 1 else noun[:-1]} past --limit"
    return f"… {noun} past --limit, not counted" if e.get("not_counted") else None


def call_tree(r: dict, brief: bool = False) -> list[str]:
    """A root whose direct entries `--limit` left out says so, never `(none in workspace)`; brief keeps a bare root
    line only when there are several (the overloads of a name), so each tree stays attributable."""
    lines: list[str] = []
    several = len(r["roots"]) > 1
    noun = "callers" if r["direction"] == "callers" else "callees"
    # several overloads (a bare name): the ones with nothing to show are one line after the trees, not a tree each;
    # a Kotlin property's getter and setter keep their own, labelled (`[setter]` ... `(none in workspace)`)
    empty = [root for root in r["roots"] if several and not brief and not root["tree"] and not root.get("not_shown")
             and (root.get("kotlin") or {}).get("role") not in ("getter", "setter")]
    for root in r["roots"]:
        if any(root is e for e in empty):
            continue
        indent = 1 if not brief or several else 0
        if not brief:
            lines.append(f"{r['direction']} of {_named(root, root['method'])}  {root['artifact']}  (depth {r['depth']})"
                         + (f"  [{r['filter'].strip()}]" if r["filter"].strip() else ""))
        elif several:
            lines.append(root["method"])
        cut = root.get("not_shown", 0) if several else 0  # one root: the answer's own truncation line says it
        if not root["tree"] and not root.get("not_shown") and not brief:
            lines.append("  (none in workspace)")
        _call_tree(root["tree"], indent, root["artifact"], lines, noun)
        if cut:
            what = f"{cut} direct {noun if cut > 1 else noun[:-1]}"
            lines.append("  " * indent + (f"… {what} more past --limit" if root["tree"]
                                          else f"(not shown: its {what} {'are' if cut > 1 else 'is'} past --limit)"))
    if empty:
        names = list(dict.fromkeys(e["method"].split("(", 1)[0] for e in empty))
        # one JVM name: its parameter lists; several (a Kotlin name's @JvmName overloads), or parameter lists that do
        # not tell the overloads apart (okhttp's getter `url()` and `-deprecated_url()`): each member's name too
        params = [_short_params(root["method"]) for root in r["roots"]]
        named = len(names) > 1 or len(set(params)) < len(params)
        shown = [_short_params(e["method"], named=named) for e in empty]
        lines.append(f"{r['direction']} of {r['symbol'] if named else names[0]}  (depth {r['depth']}): none in "
                     f"workspace for {len(empty)} of {len(r['roots'])} overloads: {', '.join(shown)}")
    if not brief:
        lines.extend(f"note: {n}" for n in r["notes"])
    return _brief_none(lines, brief)


def _short_params(ref: str, named: bool = False) -> str:
    """`(JsonParser, ResolvedType)` of `...ObjectMapper#readValue(com.fasterxml...JsonParser, ...ResolvedType)`;
    `named`: `readValue(JsonParser, ResolvedType)`."""
    head, _, params = ref.partition("(")
    name = head.rpartition("#")[2] if named else ""
    def short(p: str) -> str:  # `dev.failsafe.Policy...` -> `Policy...`, `java.lang.String[]` -> `String[]`
        base = p.rstrip(".[]")
        return base.rsplit(".", 1)[-1] + p[len(base):]

    return name + "(" + ", ".join(short(p) for p in params.rstrip(")").split(", ") if p) + ")"
