"""Text renderings of read-path answers (spec §8.1)."""

from __future__ import annotations

import shlex

from jdx.render.cards import asked_type, bounded, distinct_texts, enum_body


def _member_lines(r: dict, brief: bool) -> list[tuple[str, bool]]:
    """(line, is a member line) in output order: group headers, members, their doc lines."""
    lines: list[tuple[str, bool]] = []
    current = None
    asked = asked_type(r)  # `members 'java.util.List<String>'`: the type as asked, its arguments applied
    if body := enum_body(r):  # the body of an enum constant (`Op$3`): which one, as show says it
        asked += f" ({body})"
    if not brief and ((not r["members"] and not r.get("from_overridden")) or
                      (r["members"] and r["members"][0]["declaring"] != r["type"])):
        # (it declares none itself: the inherited groups follow; or none is shown: the footers say why)
        lines.append((f"members of {asked}", False))
    for m, jvm_text in zip(r["members"], distinct_texts(r["members"])):
        if not brief and m["declaring"] != current:
            current = m["declaring"]
            closed = current in (r.get("nonpublic_supertypes") or ())  # (its public members: through the type)
            lines.append((f"members of {asked}" if current == r["type"] else f"inherited from {current}"
                          + (f" (not public: code outside its package calls these through {r['type']})" if closed
                             else ""), False))
        k = m.get("kotlin")
        default = f" default {bounded(m['default'])}" if m.get("default") is not None else ""  # (as outline)
        text = (k["text"] + default + ("  [" + ", ".join(k["markers"]) + "]" if k["markers"] else "")) if k else \
            f"{m['kind']} {jvm_text}{default}" + (f"  [{m['record']}]" if m.get("record") else "") \
            + _jvm_markers(m)
        lines.append((("" if brief else "  ") + text + ("  @Deprecated(forRemoval=true)" if m.get("for_removal") else "  @Deprecated" if m["deprecated"] else ""), True))
        if m.get("doc"):
            inherited = f"  (inherited from {m['doc_from']})" if m.get("doc_from") else ""
            lines.append((("  " if brief else "    ") + f"// {m['doc']}{inherited}", False))
    return lines


NOT_JAVA_IDENTIFIER = "not callable from Java: not a Java identifier"


def _jvm_markers(m: dict) -> str:
    """A JVM row's markers: bridge/synthetic (--include-synthetic), a name Java source cannot write (kotlinc's
    `-deprecated_url`, `delay-VtjQ1oo`: javac reads `-` as an operator), as the Kotlin view says `Kotlin-only`."""
    marks = list(m.get("synthetic") or ()) + ([NOT_JAVA_IDENTIFIER] if m.get("not_java_identifier") else [])
    return "  [" + ", ".join(marks) + "]" if marks else ""


EXTENSION_FACADES = 3  # the files declaring a class's extensions a `members` footer names; --json has every one


def members(r: dict, brief: bool, max_lines: int | None, grep: str | None) -> list[str]:
    pairs = _member_lines(r, brief)
    cut = max_lines is not None and len(pairs) > max_lines
    if cut:
        pairs = pairs[:max_lines]
    lines = [line for line, _ in pairs]
    for owner, count in r["collapsed"].items():
        lines.append(f"+ {count} from {owner} (--from {owner} to expand)")
    if r.get("from_overridden"):
        lines.append(f"no member of {r['from_overridden']} is shown: each is overridden below it or filtered out; "
                     "without --from, members lists them where they are declared")
    companion = r.get("kotlin_companion")
    if companion and not brief:  # its members are the companion's, listed apart (its field folds away)
        lines.append(f"companion object {companion['name']}: jdx members {shlex.quote(companion['ref'])}")
    extensions = r.get("kotlin_extensions") or []
    if extensions and not brief:  # what a Kotlin caller also calls on it, declared elsewhere
        shown = ", ".join(f"{e['count']} in {e['facade']}" for e in extensions[:EXTENSION_FACADES])
        left = len(extensions) - EXTENSION_FACADES
        more = f", {left} more file{'s' * (left != 1)} (--json lists them)" if left > 0 else ""
        lines.append(f"extensions: {shown}{more} (jdx outline {shlex.quote(extensions[0]['facade'])})")
    inherited = r.get("kotlin_supertype_extensions") or []
    if inherited and not brief:  # those of its supertypes, which a Kotlin caller calls on it too
        groups: dict[str, list[str]] = {}  # receiver -> its first files, in the answer's order
        for e in inherited[:EXTENSION_FACADES]:
            groups.setdefault(e["receiver"].rsplit(".", 1)[-1].replace("$", "."), []).append(
                f"{e['count']} in {e['facade']}")
        shown = "; ".join(f"{receiver}: {', '.join(files)}" for receiver, files in groups.items())
        left = len(inherited) - EXTENSION_FACADES
        others = sorted({e["receiver"].rsplit(".", 1)[-1].replace("$", ".") for e in inherited[EXTENSION_FACADES:]})
        more = f"; {left} more file{'s' * (left != 1)} on {', '.join(others)} (--json lists them)" if left > 0 else ""
        lines.append(f"extensions on supertypes: {shown}{more} (jdx outline {shlex.quote(inherited[0]['facade'])})")
    if not brief:
        n = sum(1 for _, is_member in pairs if is_member)
        total = len(r["members"])
        of = f" of {total}" if n < total else ""
        extra = f" (filtered by --grep {grep!r})" if grep else ""
        kind = r.get("kotlin_keyword") or r["kind"]
        shown_type = asked_type(r)  # `members 'java.util.List<String>'`: the members as that type has them
        # cut by --max-lines or --limit, the truncation line that follows says how many are shown and how to see
        # the rest
        limited = r.get("total", total) > total
        count = (extra.strip()[1:-1] + " · " if extra else "") if cut or limited else \
            f"{n}{of} member{'s' if total != 1 else ''} shown{extra} · "
        lines.append(" · ".join([f"{count}{kind} {shown_type}", f"{r['artifact_name']} (bytecode)", *_left_out(r)]))
    else:  # spec §7.1: bare rows, no provenance; the footer saying what is left out stays
        if not r["members"] and not r.get("total") and not r["collapsed"] and not cut:  # nothing, not a cut
            lines.insert(0, "(none)")
        if left := _left_out(r):
            lines.append(" · ".join(left))
    return lines


def _left_out(r: dict) -> list[str]:
    """What the listing leaves out and the flag showing it: folded JVM members, Kotlin internals, hidden members."""
    jvm = " JVM member(s)" if r.get("view") == "kotlin" else ""  # (counted in JVM members, as `folded` is)
    return ([f"{r['folded']} JVM member(s) folded into their Kotlin declaration (--view jvm shows them)"]
            if r.get("folded") else []) + \
        ([f"{r['internal_hidden']} internal declaration(s) hidden (--access package shows them)"]
         if r.get("internal_hidden") else []) + \
        [f"{h['count']} {h['what']}{jvm} hidden ({h['show']})" for h in r.get("hidden") or ()]
