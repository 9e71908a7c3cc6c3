"""`samples <symbol>` (spec §3.6, §7.3): a few real call sites of an API, the most exemplary first.

Candidates are the symbol's usage sites (`rel_usages.usage_pairs`: calls, allocations, field reads and
writes; for a type, the uses of its constructors and methods from other types), in the artifacts `--in`/`--exclude`
keep. A method reference (`Foo::bar`) shows how the method is used but passes no arguments: it ranks after every
call, marked `method_ref`, and the total (which `usages` less them agrees with) counts it apart (`method_refs`).
Exemplariness, in order:
code that is not a test, code that is not generated, a use written in the source (string concatenation
calls `StringBuilder.append` where nothing says `append`), a site outside the symbol's own type, then
(with `--prefer-sources`) a site whose source lines exist, the share of the API's parameters the call passes
as real values rather than `null` / literals, a short enclosing method, and one site per enclosing
method before a second one. A trivial delegate (an enclosing method that makes this one call on a line or
two: `return api.greet(who, n);`) ranks after sites that show the call in some context. Ties break on the caller's canonical ref and line, so the answer is stable.

Only the best candidates by the bytecode-only criteria have their sources read, `SHORTLIST` at a time
until `limit` of them show the use (at most `MAX_SHORTLIST`): ranking a JDK method's thousands of call
sites must not parse thousands of files. A chosen site without sources is rendered from the decompiled
text of its class (`reconstruct`), labelled reconstructed (spec §11.1). Its `>` goes on the first decompiled line
of the enclosing method that the decompiler's line map (Procyon's) says was written from the site's class-file
line and spells the use (or follows such a line, mapped to no other), else the first line written from it; without
such a line, on the use found by its shape, and the sample says which.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass

from jdx.engine import descriptors as d
from jdx.engine.members import ACC
from jdx.engine.refs import format_member
from jdx.engine.relations import (ArtifactFilter, Artifacts, Symbol, Target, check_limit, resolve_symbol, rows_by_ids,
                                  symbol_name)
from jdx.engine.external_symbols import external_notes
from jdx.engine.rel_sites import in_shadowed_copy, shadowed_sites_note
from jdx.engine.rel_usages import finish_pairs, usage_pairs
from jdx.engine.usage_notes import constant_notes, inherited_asked, inherited_note
from jdx.graph_schema import queries_samples as q
from jdx.graph_schema.store import GraphStore

DEFAULT_LIMIT = 3
CONTEXT = 2  # lines shown on each side of the call
WHOLE_METHOD = 100_000  # context asked of `reconstruct`: the enclosing method's whole text, cut around the focus later
PARSE_CONTEXT = 8  # lines read after the call, for arguments that wrap
SHORTLIST = 40  # candidates whose sources are read per round
MAX_SHORTLIST = 120  # rounds stop here even when fewer sites show the use in their source
# a package part that says its code is tests (`com/x/test/Foo`); not one naming a test framework (`org/junit/...` is
# JUnit's library code) nor `it` (a locale, as often as integration tests, which `*IT` class names tell)
TEST_PARTS = {"test", "tests", "testing", "testutil", "testutils"}
# an artifact of test code: Maven's test-jar (`app-1.0-tests.jar`, `g:a:v:tests`), a project's test class directory
# (`app (tests)`, Gradle's `app (java test)`) or one named by its path (`test-classes`, Gradle's
# `build/classes/java/test`); a framework's jar (`spring-test-6.1.jar`, `testng-7.10.jar`) is not
TEST_ARTIFACT = re.compile(r"-tests\.jar$|:tests$|\((?:\w+ )?tests?\)$|^test(?:-classes)?$")
GENERATED = ("Generated", "$$")
TRIVIAL_ARG = re.compile(r'^(null|true|false|-?\d[\d_]*[lLfFdD]?|-?\d*\.\d+[fFdD]?|""|\'.\'|[A-Z_]+)$')


@dataclass
class SampleOptions:
    limit: int | None = None
    prefer_sources: bool = False
    filter: ArtifactFilter | None = None  # `--in` / `--exclude`: the artifacts whose sites are sampled


def _targets(store: GraphStore, symbol: Symbol) -> list[Target]:
    """A type's samples are calls of its non-private, non-synthetic constructors and methods (how code uses the
    type), not `usages` of the type (casts, `throws`, subtypes...): its total counts those calls
    (`counts: member_calls`), said in the header and hint (docs/relationships.md)."""
    if not symbol.is_type:
        return symbol.targets
    if symbol.external:  # no declaration: the methods and constructors the workspace calls on it
        from jdx.engine.external_symbols import external_members_of, external_target

        return [external_target(symbol.type_row, e) for e in external_members_of(store, symbol.targets[0].id)
                if not e["is_field"]]
    out = []
    for r in store.rows(q.DECLARED_CALLABLES, {"id": symbol.targets[0].id}):
        if r["access"] & (ACC["private"] | ACC["synthetic"] | ACC["bridge"]):
            continue
        owner = symbol.targets[0].id
        ref = format_member(owner, r["name"], r["descriptor"], varargs=bool(r["access"] & ACC["varargs"]))
        out.append(Target(r["id"], ref, r["kind"], r))
    return out


def is_test_code(owner: str, artifact: str) -> bool:
    """Test code by convention: a `test` package segment, a `*Test`/`*Tests`/`Test*`/`*IT` class, a test artifact
    (`TEST_ARTIFACT`). A test framework's own code (`org.junit.jupiter.api`, `testng-7.10.jar`) is library code."""
    parts = owner.split("/")
    simple = parts[-1].split("$", 1)[0]
    if any(p.lower() in TEST_PARTS for p in parts[:-1]):
        return True
    if simple.endswith(("Test", "Tests", "TestCase", "IT")) or (simple.startswith("Test") and simple[4:5].isupper()):
        return True
    return TEST_ARTIFACT.search(artifact.lower()) is not None


def _generated(site: dict, info: dict, owner_notes: list[str] | None = None) -> bool:
    """Compiler- or tool-written code: a synthetic method (lambda bodies excepted), a `$$` class name,
    a `@Generated`-style annotation on the method or its class."""
    if (info.get("access") or 0) & ACC["synthetic"] and not site.get("in_lambda"):
        return True
    owner = site["caller_id"].split("#", 1)[0]
    notes = list(info.get("annotations") or []) + list(owner_notes or [])
    return any(g in owner for g in GENERATED[1:]) or any(GENERATED[0] in a for a in notes)


def call_pattern(target_id: str) -> re.Pattern:
    """How a call of a method or constructor is written, up to its `(`: `name(`; for a constructor
    `new Simple(`, `new a.b.Simple<>(`, `new Simple<String>(`, `this(` or `super(` (an implicit `super()` has
    no text: it stays compiler-written)."""
    owner, _, rest = target_id.partition("#")
    name = rest.split("(", 1)[0].split(":", 1)[0]
    if name != "<init>":
        return re.compile(r"(?<![\w$])" + re.escape(name) + r"\s*\(")
    simple = re.escape(owner.rsplit("/", 1)[-1].rsplit("$", 1)[-1])
    return re.compile(r"(?<![\w$])(?:new\s+(?:[\w$]+\s*\.\s*)*" + simple + r"\s*(?:<[^;(){}]*>)?|this|super)\s*\(")


def call_arguments(lines: list[str], name: str | re.Pattern) -> list[str] | None:
    """The argument texts of the first call of `name(` (or of the call `call_pattern` finds) in `lines` (the
    call's line first), or None."""
    text = "\n".join(lines)
    rx = name if isinstance(name, re.Pattern) else re.compile(r"(?<![\w$])" + re.escape(name) + r"\s*\(")
    m = rx.search(text)
    if not m or m.start() > len(lines[0]):  # the call starts on the site's line; its arguments may wrap
        return None
    depth, args, cur, quote = 1, [], [], None
    i = m.end()
    while i < len(text):
        ch = text[i]
        if quote:
            cur.append(ch)
            if ch == "\\" and i + 1 < len(text):
                cur.append(text[i + 1])
                i += 1
            elif ch == quote:
                quote = None
        elif ch in "\"'":
            quote = ch
            cur.append(ch)
        elif ch in "([{":
            depth += 1
            cur.append(ch)
        elif ch in ")]}":
            depth -= 1
            if depth == 0:
                last = "".join(cur).strip()
                if last or args:
                    args.append(last)
                return args
            cur.append(ch)
        elif ch == "," and depth == 1:
            args.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
        i += 1
    return None


def source_name(target: Target) -> str:
    """The name a use of the target is written with: the method or field name, the class for a constructor."""
    owner, _, rest = target.id.partition("#")
    name = rest.split("(", 1)[0].split(":", 1)[0]
    return owner.rsplit("/", 1)[-1].rsplit("$", 1)[-1] if name == "<init>" else name


def written_use(window: dict | None, target: Target, method_ref: bool = False) -> tuple[bool, float]:
    """(visible, args used) of a site from its source lines. Visible: the use is written at the site (string
    concatenation's `StringBuilder.append`, enum switches' `ordinal()` are compiler-written and are not);
    unknown counts as visible: no sources, or sources that are not the text compiled (`stale`: edited since;
    `mismatch`: the line table puts the line elsewhere), whose line N is not the class file's. Args used: the
    share of the target's parameters the call passes as real values rather than null, literals or constants (0
    when unknown; a method reference `Foo::bar` passes none)."""
    if window is None or window.get("stale") or window.get("mismatch"):
        return True, 0.0
    name = source_name(target)
    focus = window["focus"] - window["first_line"]
    after = window["text"][focus:]
    if method_ref:  # `Foo::bar`, `this::bar`, `Foo::new`, on the site's line or a line it wraps onto
        spelled = "new" if target.id.partition("#")[2].startswith("<init>") else re.escape(name)
        return bool(re.search(r"::\s*" + spelled + r"(?![\w$])", "\n".join(after[:2]))), 0.0
    if target.kind == "field":
        return any(re.search(r"(?<![\w$])" + re.escape(name) + r"(?![\w$])", t) for t in after[:1]), 0.0
    args = call_arguments(after, call_pattern(target.id))
    if args is None:
        return False, 0.0
    n = len(d.parse_method_descriptor(target.id[target.id.index("("):])[0])
    return True, (sum(1 for a in args if not TRIVIAL_ARG.match(a)) / n if n else 1.0)


def trivial_delegate(info: dict) -> bool:
    """An enclosing method that makes at most one call (this one; none when the site is in a lambda it
    writes) on at most two lines: the site shows no usage beyond the signature. `info["calls"]` is its number
    of outgoing calls."""
    return info.get("calls", 0) <= 1 and _two_lines_at_most(info)


def _two_lines_at_most(info: dict) -> bool:
    first, last = info.get("first_line", -1), info.get("last_line", -1)
    return first > 0 and last - first <= 1


def _static_rank(site: dict, info: dict, own: str, owner_notes: list[str] | None = None) -> tuple:
    """(in a shadowed class copy, test, generated, inside the symbol's own type, trivial delegate, enclosing method
    length): what bytecode alone tells. A shadowed copy's code never runs on this classpath: it shows last."""
    length = info.get("last_line", -1) - info.get("first_line", -1) if info.get("first_line", -1) > 0 else 10_000
    owner = site["caller_id"].split("#", 1)[0]
    return (in_shadowed_copy(owner), is_test_code(owner, site["artifact"]), _generated(site, info, owner_notes),
            owner.split("$", 1)[0] == own, trivial_delegate(info), length)


def _candidate(site: dict, row: dict, arts: Artifacts) -> dict:
    """What ranking reads of a raw usage site (canonical refs are formatted only for the chosen few)."""
    return {"caller_id": row["c_id"], "line": site["line"], "kind": site["kind"], "target": site["target"],
            "artifact": arts.name(row.get("c_artifact")), "in_lambda": bool(site.get("in_lambda")),
            "via": (site.get("row") or {}).get("via"), "method_ref": bool(site.get("method_ref"))}


def samples(store: GraphStore, text: str, opts: SampleOptions, window, reconstruct=None) -> tuple[dict, dict | None]:
    """(result, truncation). `window(type_id, line, context)` returns source lines around a line or None;
    `reconstruct(caller_id, target_id, is_field, context, line)` the same from decompiled text, or None."""
    limit = check_limit(opts.limit if opts.limit is not None else DEFAULT_LIMIT)
    symbol = resolve_symbol(store, text)
    targets = _targets(store, symbol)
    by_ref = {t.ref: t for t in targets}
    # a field's reads and writes, a method's calls; a Kotlin property's are reads and writes of its getter and setter
    kinds = ("call", "new", "read", "write")
    every = usage_pairs(store, Symbol(symbol.text, symbol.type_row, targets), kinds, opts.filter) if targets else []
    # `Foo::bar` passes no arguments: the total counts the calls, and the references rank after every one of them
    pairs = [(s, row) for s, row in every if not s.get("method_ref")]
    arts = Artifacts.of(store)
    cands = [(_candidate(s, row, arts), (s, row)) for s, row in every]
    own = symbol.type_row["id"].split("$", 1)[0] if symbol.type_row else ""
    caller_ids = sorted({c["caller_id"] for c, _ in cands})
    info = {r["id"]: r for r in store.rows(q.CALLERS_BY_IDS, {"ids": caller_ids})} if cands else {}
    # the calls only a method of one or two lines is judged by (a trivial delegate): counting every caller's calls
    # read most of the call edges (`samples java.util.Map#get` held ~220 MB more of Kùzu's buffer pool)
    short = [i for i in caller_ids if _two_lines_at_most(info.get(i, {}))]
    if short:
        for r in rows_by_ids(store, q.CALLS_MADE, short):
            info.setdefault(r["id"], {})["calls"] = r["n"]
    # a member asked through a type that only inherits it: the calls that name that type first
    asked = inherited_asked(symbol)

    def aside(c: dict) -> bool:
        return asked is not None and c["via"] != asked

    ranked = sorted(cands, key=lambda x: (x[0]["method_ref"], in_shadowed_copy(x[0]["caller_id"]), aside(x[0]),
                                          _static_rank(x[0], info.get(x[0]["caller_id"], {}), own),
                                          x[0]["caller_id"], x[0]["line"]))
    shortlist, visible = [], 0
    for start in range(0, min(len(ranked), MAX_SHORTLIST), SHORTLIST):
        if start and visible >= limit:
            break
        chunk = ranked[start:start + SHORTLIST]
        owners = sorted({c["caller_id"].split("#", 1)[0] for c, _ in chunk})
        notes = {r["id"]: r["annotations"] for r in store.rows(q.TYPE_ANNOTATIONS, {"ids": owners})}
        for c, pair in chunk:
            owner = c["caller_id"].split("#", 1)[0]
            win = window(owner, c["line"], PARSE_CONTEXT) if c["line"] > 0 else None
            tgt = by_ref.get(c["target"])
            shown, used = written_use(win, tgt, c["method_ref"]) if tgt else (True, 0.0)
            visible += shown
            static = _static_rank(c, info.get(c["caller_id"], {}), own, notes.get(owner))
            key = (c["method_ref"], static[0], aside(c), static[1], static[2], not shown, static[3], static[4],
                   opts.prefer_sources and win is None, -used, static[5])
            shortlist.append((key, c, pair, win, (shown, used)))
    shortlist.sort(key=lambda x: (x[0], x[1]["caller_id"], x[1]["line"]))
    chosen = _one_per_caller(shortlist, limit)
    if reconstruct is not None:
        chosen = [(key, c, pair, win if win is not None else _reconstructed(reconstruct, c, by_ref), use)
                  for key, c, pair, win, use in chosen]
    finished = finish_pairs(store, [item[2] for item in chosen])
    out = [_render(site, win, use, info.get(site["caller_id"], {}))
           for site, (_, _, _, win, use) in zip(finished, chosen)]
    result = {"symbol": symbol_name(symbol.targets, text),
              "symbol_kind": symbol.targets[0].kind,
              "artifact": arts.name(symbol.type_row.get("artifact")) if symbol.type_row else "",
              "total": len(pairs), "method_refs": len(every) - len(pairs),
              "counts": "member_calls" if symbol.is_type else "sites", "samples": out,
              "filter": opts.filter.describe() if opts.filter is not None else "",
              "with_sources": sum(1 for s in out if s["origin"] == "source"),
              "reconstructed": sum(1 for s in out if s["origin"] == "decompiled"),
              # a compile-time constant: its inlined uses are in no bytecode; an inherited member: whose it is
              "notes": external_notes(symbol, store) + constant_notes(symbol)
              + _method_refs_note(len(every) - len(pairs))
              + inherited_note(symbol, sum(not aside(c) for c, _ in cands), "calls", "shown first")
              + shadowed_sites_note(sum(in_shadowed_copy(c["caller_id"]) for c, _ in cands), len(cands))}
    return result, limit_truncation(result, limit, _filter_words(opts.filter))


def _method_refs_note(n: int) -> list[str]:
    """What the total leaves out that `usages` counts as calls: method references (`Foo::bar`), which are sampled
    after every call (a reference passes no arguments; marked `method_ref`, counted apart in `method_refs`)."""
    return [f"{n} method reference{'s' if n > 1 else ''} (Foo::bar) left out of the total: `usages` counts "
            f"{'them' if n > 1 else 'it'} as calls"] if n else []


def _filter_words(found: ArtifactFilter | None) -> str:
    """`--in`/`--exclude` as words for a shell (` --in 'com.acme*'`), "" without a filter."""
    if found is None:
        return ""
    pairs = (("--in", found.include), ("--exclude", found.exclude))
    return "".join(f" {flag} {shlex.quote(g)}" for flag, globs in pairs for g in globs)


def limit_truncation(result: dict, limit: int = DEFAULT_LIMIT, scope: str = "") -> dict | None:
    """The cut `--limit` made of a `samples` result (`shown` of the sites and method references, and how to see more),
    or None. At most MAX_SHORTLIST sites are read: a `--limit` at or past it is told the cap, never to raise it.
    `scope`: the `--in`/`--exclude` words the `usages` it points at takes."""
    every_site = result["total"] + result.get("method_refs", 0)
    if every_site <= len(result["samples"]):
        return None
    every = (f"jdx usages '{result['symbol']}#<name>'{scope} lists one member's calls (usages of the type itself "
             "are other sites)" if result.get("counts") == "member_calls"
             else f"jdx usages '{result['symbol']}'{scope} lists every site")
    more = (f"samples reads the {MAX_SHORTLIST} best-ranked sites at most: a --limit past {MAX_SHORTLIST} shows no "
            "more; --in/--exclude pick the artifacts whose sites are sampled" if limit >= MAX_SHORTLIST
            else f"--limit N for more samples, up to {MAX_SHORTLIST}; --in/--exclude pick the artifacts sampled")
    return {"shown": len(result["samples"]), "total": every_site, "hint": f"{more}; {every}"}


def _reconstructed(reconstruct, c: dict, by_ref: dict) -> dict | None:
    tgt = by_ref.get(c["target"])
    if tgt is None:
        return None
    return focused_reconstruction(reconstruct, c["caller_id"], tgt.id, tgt.is_field, c["line"])


def focused_reconstruction(reconstruct, caller_id: str, target_id: str, is_field: bool, line: int) -> dict | None:
    """The decompiled text of the whole method `caller_id` (`reconstruct`: `Session.reconstructed_window`) focused
    on its use of `target_id` at class-file `line` (`mapped_focus`); None without a decompiled text, and the
    window's `unavailable` (code, message) when the class could not be decompiled."""
    win = reconstruct(caller_id, target_id, is_field, WHOLE_METHOD, line)
    return mapped_focus(win, line) if win is not None and "unavailable" not in win else win


def cut(win: dict, context: int) -> tuple[int, int, list[str]]:
    """The first and last line, and the lines, of window `win` within `context` lines of its focus."""
    a = max(win["first_line"], win["focus"] - context)
    b = min(win["first_line"] + len(win["text"]) - 1, win["focus"] + context)
    return a, b, win["text"][a - win["first_line"]:b - win["first_line"] + 1]


def mapped_focus(win: dict, line: int) -> dict:
    """A decompiled window focused on the first of its lines the decompiler wrote from class-file `line` that
    spells the use (`mapped_use`), else on the first line written from it (`focus_by: "line_map"`,
    `decompiled_line`); when none is (or there is no map), on the use found by its shape (`focus_by: "call_shape"`,
    `decompiled_line: None`). `line_map` says whether a map existed."""
    class_lines = win.get("class_lines")
    mapped = [win["first_line"] + i for i, origs in enumerate(class_lines or []) if line > 0 and line in origs]
    if mapped:
        focus = mapped_use(win, mapped, line) or mapped[0]
        return dict(win, focus=focus, decompiled_line=focus, focus_by="line_map", line_map=True)
    return dict(win, decompiled_line=None, focus_by="call_shape", line_map=class_lines is not None)


def mapped_use(win: dict, mapped: list[int], line: int) -> int | None:
    """The first line of window `win` spelling the use (`win["uses"]`) among the lines the decompiler wrote from
    class-file `line` (`mapped`) and those it wrote just after each, mapped to no other line: one source line may
    become several statements (kotlinc's SAM wrapper of a function reference, `if (f != null) { o = new …(f); }`
    before `r.register((Handler)o);`; javac's `Objects.requireNonNull(out);` before `r.register(out::println);`),
    and the map names only the first. None when none of them spells it."""
    uses, first, class_lines = set(win.get("uses") or ()), win["first_line"], win["class_lines"]
    for start in mapped:
        n = start
        while n - first < len(class_lines) and (n == start or set(class_lines[n - first]) <= {line}):
            if n in uses:
                return n
            n += 1
    return None


def _one_per_caller(shortlist: list, limit: int) -> list:
    """The best site of each enclosing method first; second sites of a method only to fill the limit, never one on a
    line already chosen (`isEmpty(a) || isEmpty(b)`: two calls on one line show one and the same sample)."""
    first, rest, seen, lines = [], [], set(), set()
    for item in shortlist:
        line = (item[1]["caller_id"], item[1]["line"])
        if line in lines and item[1]["line"] > 0:
            continue
        lines.add(line)
        (rest if item[1]["caller_id"] in seen else first).append(item)
        seen.add(item[1]["caller_id"])
    return (first + rest)[:limit]


def _render(site: dict, win: dict | None, use: tuple[bool, float], info: dict) -> dict:
    """One sample. Two line spaces: `line` and `method_lines` are the class file's (its LineNumberTable, the
    lines of the source it was compiled from); `source.lines` and `source.focus` number `source.text`, the same
    space when `source.numbering` is "source", the decompiled text's own lines when it is "decompiled". A
    decompiled `source` also says how its focus was found: `focus_by` "line_map" (`decompiled_line` is the focus,
    the line the decompiler wrote from `line`) or "call_shape" (`decompiled_line` None; `line_map` false when the
    decompiler gave no map at all)."""
    out = {"caller": site["caller"], "caller_id": site["caller_id"], "artifact": site["artifact"],
           "line": site["line"], "kind": site["kind"], "target": site["target"], "in_lambda": site["in_lambda"],
           "method_ref": bool(site.get("method_ref")),
           "test": is_test_code(site["caller_id"].split("#", 1)[0], site["artifact"]),
           "written": use[0], "args_used": round(use[1], 2), "origin": "bytecode"}
    if in_shadowed_copy(site["caller_id"]):
        out["shadowed"] = True  # code of a shadowed class copy: the JVM never loads it on this classpath
    if info.get("first_line", -1) > 0:
        out["method_lines"] = [info["first_line"], info["last_line"]]
    if win is not None and "unavailable" in win:  # no sources, and the decompiler failed on the class
        out["unavailable"] = win["unavailable"]
    elif win is not None:
        focus = win["focus"]
        a, b, text = cut(win, CONTEXT)
        rebuilt = bool(win.get("reconstructed"))
        # `line` is the class file's (LineNumberTable); `lines`/`focus` number the text shown, which for a
        # decompiled text is not the original source's numbering
        out.update(origin="decompiled" if rebuilt else "source",
                   source={"label": win["label"], "file": win["file"], "lines": [a, b], "focus": focus, "text": text,
                           "reconstructed": rebuilt, "numbering": "decompiled" if rebuilt else "source"})
        if win.get("mismatch"):  # the enclosing method's line table and its declaration in the sources disagree
            out["source"]["mismatch"] = win["mismatch"]
        if win.get("stale"):  # the file was edited after the class was compiled: `line` numbers another text
            out["source"]["stale"] = win["stale"]
        if rebuilt:
            out["source"].update(decompiled_line=win.get("decompiled_line"), focus_by=win.get("focus_by", "call_shape"),
                                 line_map=bool(win.get("line_map")))
    return out
