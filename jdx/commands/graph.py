"""The relationship graph (spec §7.3): hierarchy, implementors, overrides, usages, callers, calls.

Every answer comes from bytecode (the workspace graph), which its provenance says.
"""

from __future__ import annotations

from dataclasses import dataclass

from jdx.commands.registry import Command, Request, argument, option, renderer
from jdx.errors import JdxError, UsageError

_IN = "only artifacts matching this glob (name or path; repeatable)"
_EXCLUDE = "leave out artifacts matching this glob (repeatable)"
_LIMIT = "show at most N entries (default 50); the rest is counted"
_METHOD = "a method reference, e.g. 'java.util.List#size()'"
_VIEW = ("kotlin: symbols of Kotlin classes named by their Kotlin declarations, next to the JVM reference (default) "
         "| jvm: JVM references only")
USAGE_KINDS = ("call", "ref", "impl", "override", "read", "write", "new", "throw", "annotation", "signature", "all")


def _provenance(symbol: str, artifact: str) -> list[dict]:
    return [{"symbol": symbol, "artifact": artifact, "origin": "bytecode"}]


def _filter(req, session=None):
    """The request's `--in`/`--exclude`; an `--in` that names no artifact of `session`'s workspace is refused."""
    from jdx.engine.relations import ArtifactFilter, Artifacts

    found = ArtifactFilter(list(req.include), list(req.exclude))
    if session is not None and found.include:
        found.check(Artifacts.of(session.store()), session.store())
    return found


def _depth(direct: bool, depth: int | None) -> int | None:
    if direct and depth is not None and depth != 1:
        raise UsageError("--direct and --depth exclude each other")
    return 1 if direct else depth


@dataclass(frozen=True)
class _Scoped(Request):
    include: tuple = option((), "--in", _IN)
    exclude: tuple = option((), "--exclude", _EXCLUDE)
    limit: int | None = option(None, "--limit", _LIMIT, kind="int", minimum=1)
    view: str = option("kotlin", "--view", _VIEW, choices=("kotlin", "jvm"))


@dataclass(frozen=True)
class HierarchyRequest(_Scoped):
    query: str = argument("a type reference, e.g. java.util.AbstractList", "TYPE")
    up: bool = option(False, "--up", "only supertypes")
    down: bool = option(False, "--down", "only subtypes")
    direct: bool = option(False, "--direct", "one level (same as --depth 1)")
    depth: int | None = option(None, "--depth", "levels to walk (default: all)", kind="int", minimum=1)

    def validate(self) -> None:
        _depth(self.direct, self.depth)


def run_hierarchy(session, req: HierarchyRequest):
    from jdx.engine.rel_hierarchy import HierarchyOptions

    both = not req.up and not req.down
    opts = HierarchyOptions(up=req.up or both, down=req.down or both, depth=_depth(req.direct, req.depth),
                            filter=_filter(req, session), limit=req.limit)
    return hierarchy_answer(session, req.query, opts, req.view)


def _type_lines(store, result: dict, lists: tuple[str, ...]) -> None:
    """The Kotlin view of a type answer: the root and each listed type that is a Kotlin class carry `kotlin`."""
    from jdx.engine.kotlin_hits import types_of

    entries: list[dict] = []

    def walk(items):
        for e in items:
            entries.append(e)
            walk(e.get("children", ()))
    for key in lists:
        walk(result.get(key, ()))
    found = types_of(store, [result["type"]] + [e["type"] for e in entries])
    if not found:
        return
    for e in entries:
        if e["type"] in found:
            e["kotlin"] = found[e["type"]]
    if result["type"] in found:
        result["kotlin"] = found[result["type"]]
    result["view"] = "kotlin"


def hierarchy_answer(session, text: str, opts, view: str = "jvm"):
    from jdx.engine.answer import Answer
    from jdx.engine.rel_hierarchy import hierarchy
    from jdx.engine.search_aliases import alias_misses

    with alias_misses(session.store, text):  # a Kotlin type alias: not-found naming the class it expands to
        result, warnings, truncated = hierarchy(session.store(), text, opts)
    if view == "kotlin":
        _type_lines(session.store(), result, ("up", "down"))
    return Answer(result, warnings, truncated,
                  _provenance(result["type"], result["artifact"]))


@dataclass(frozen=True)
class ImplementorsRequest(_Scoped):
    query: str = argument("a type reference, e.g. java.util.Map", "TYPE")
    direct: bool = option(False, "--direct", "only direct subtypes")
    depth: int | None = option(None, "--depth", "levels to walk (default: all)", kind="int", minimum=1)

    def validate(self) -> None:
        _depth(self.direct, self.depth)


def run_implementors(session, req: ImplementorsRequest):
    from jdx.engine.rel_hierarchy import HierarchyOptions

    opts = HierarchyOptions(up=False, down=True, depth=_depth(req.direct, req.depth), filter=_filter(req, session),
                            limit=req.limit)
    return implementors_answer(session, req.query, opts, req.view)


def implementors_answer(session, text: str, opts, view: str = "jvm"):
    from jdx.engine.answer import Answer
    from jdx.engine.rel_hierarchy import implementors
    from jdx.engine.search_aliases import alias_misses

    with alias_misses(session.store, text):  # a Kotlin type alias: not-found naming the class it expands to
        result, warnings, truncated = implementors(session.store(), text, opts)
    if view == "kotlin":
        _type_lines(session.store(), result, ("implementors",))
    return Answer(result, warnings, truncated,
                  _provenance(result["type"], result["artifact"]))


@dataclass(frozen=True)
class OverridesRequest(_Scoped):
    query: str = argument("a method reference, e.g. 'java.util.List#size'", "METHOD")


def run_overrides(session, req: OverridesRequest):
    return overrides_answer(session, req.query, _filter(req, session), req.limit, req.view)


def overrides_answer(session, text: str, artifact_filter=None, limit: int | None = None, view: str = "jvm"):
    from jdx.engine.answer import Answer
    from jdx.engine.kotlin_hits import members_of
    from jdx.engine.members import unresolved_warnings
    from jdx.engine.relations import ArtifactFilter
    from jdx.engine.rel_overrides import overrides
    from jdx.engine.resolve import declaring_artifacts

    result, truncated = overrides(session.store(), text, artifact_filter or ArtifactFilter(), limit)
    lines = [e for m in result["methods"] for e in [m, *m["overrides"], *m["overridden_by"]]]
    artifacts = declaring_artifacts(session.store(), [m["_id"] for m in result["methods"]])
    found = members_of(session.store(), [e["_id"] for e in lines]) if view == "kotlin" else {}
    for e in lines:
        k = found.get(e.pop("_id"))
        if k is not None:
            e["kotlin"] = k
    if found:
        result["view"] = "kotlin"
    warnings = unresolved_warnings(result.get("unresolved_supertypes", []), "it may declare methods these override")
    return Answer(result, warnings, truncated, [{"symbol": m["method"], "artifact": a, "origin": "bytecode"}
                                                for m, a in zip(result["methods"], artifacts)])


@dataclass(frozen=True)
class UsagesRequest(_Scoped):
    query: str = argument("a type, method, constructor or field reference", "SYMBOL")
    kind: tuple = option(("all",), "--kind", "only sites of these kinds (repeatable; all: every kind but "
                               "signature, which lists declarations naming a type)", choices=USAGE_KINDS)
    limit: int | None = option(None, "--limit", "show at most N sites (default 50); the rest is counted",
                               kind="int", minimum=1)
    context: int | None = option(None, "--context", "source lines around each site (needs sources)", kind="int",
                                 minimum=0)


def run_usages(session, req: UsagesRequest):
    from jdx.engine.rel_usages import UsageOptions

    opts = UsageOptions(kinds=tuple(req.kind), filter=_filter(req, session), limit=req.limit, context=req.context,
                        view=req.view)
    answer = usages_answer(session, req.query, opts, req.view)
    if not answer.result["total"]:
        answer.result["notes"] = answer.result["notes"] + tests_left_out(session)
    return answer


def usages_answer(session, text: str, opts=None, view: str = "jvm"):
    from jdx.engine.answer import Answer
    from jdx.engine.rel_usages import UsageOptions, usages
    from jdx.engine.resolve import declaring_artifacts
    from jdx.engine.search_aliases import alias_misses

    opts = opts or UsageOptions()
    with alias_misses(session.store, text):  # a Kotlin type alias: not-found naming the class it expands to
        result, warnings, truncated = usages(session.store(), text, opts)
    ids = result.pop("_target_ids")
    if view == "kotlin":
        _usages_view(session.store(), result, ids)
    provenance = [{"symbol": t, "artifact": a, "origin": "bytecode"}
                  for t, a in zip(result["targets"], declaring_artifacts(session.store(), ids))]
    if opts.context is not None:
        more, engines = _site_context(session, result, opts.context, dict(zip(result["targets"], ids)))
        warnings = warnings + more
        provenance += [{"symbol": result["symbol"], "artifact": artifact, "origin": "decompiled", "engine": engine,
                        "detail": f"--context of {n} site(s) without sources: lines of the decompiled text"}
                       for (engine, artifact), n in sorted(engines.items())]
    return Answer(result, warnings, truncated, provenance)


def _usages_view(store, result: dict, ids: list[str]) -> None:
    """The Kotlin view of `usages`: the heading names the Kotlin declaration (a type's class header, or the one
    declaration every target compiles from), each calling method of a Kotlin class its declaration."""
    from jdx.engine.kotlin_hits import members_of, one_declaration, types_of

    callers = [c for g in result["groups"] for c in g["callers"]]
    if result["symbol_kind"] in ("member", "method", "constructor", "field"):
        found = members_of(store, ids + [c["caller_id"] for c in callers])
        head = one_declaration(found, ids)
    else:
        found = members_of(store, [c["caller_id"] for c in callers])
        head = types_of(store, [result["symbol"]]).get(result["symbol"])
    if head is not None:
        result["kotlin"] = head
    for c in callers:
        if c["caller_id"] in found:
            c["kotlin"] = found[c["caller_id"]]
    if head is not None or any("kotlin" in c for c in callers):
        result["view"] = "kotlin"


DECOMPILED_CONTEXT_CLASSES = 10  # classes `usages --context` decompiles per answer (each ~0.1-1 s the first time)


def _site_context(session, result: dict, context: int,
                  target_ids: dict[str, str]) -> tuple[list, dict[tuple[str, str], int]]:
    """`--context N`: the source lines around each shown site (`context` on the site), from the sources the
    workspace pairs with each caller's class; else, as `samples` does, from the decompiled text of the caller's
    class (`reconstructed`, its lines the decompiled text's, focused on the line the decompiler wrote from the
    site's class-file line), for sites in at most DECOMPILED_CONTEXT_CLASSES classes. Returns the warnings (how
    many sites have neither; SOURCES_VERSION_MISMATCH for source lines that are not the ones compiled, a file edited
    since: `src_source.source_window`) and the sites' count per (decompiler, caller's artifact)."""
    from jdx.engine.src_locate import window_mismatches
    from jdx.errors import Warning_

    missing, engines, decompiled = 0, {}, set()
    for group in result["groups"]:
        for caller in group["callers"]:
            for site in caller["sites"]:
                found = None
                owner = site["caller_id"].split("#", 1)[0]
                if site["line"] > 0 and "#" in site["caller_id"]:
                    found = session.source_window(owner, site["line"], context)
                    target = target_ids.get(site.get("target", ""))
                    if found is None and target and (owner in decompiled
                                                     or len(decompiled) < DECOMPILED_CONTEXT_CLASSES):
                        found = _decompiled_window(session, site, target, context)
                        decompiled.add(owner)
                if found is None:
                    missing += 1
                    continue
                site["context"] = found
                if found.get("reconstructed"):
                    key = (found["label"], site.get("artifact") or "")
                    engines[key] = engines.get(key, 0) + 1
    mismatched = window_mismatches([(site.get("context"), site.get("artifact")) for group in result["groups"]
                                    for caller in group["callers"] for site in caller["sites"]])
    if not missing:
        return mismatched, engines
    return mismatched + [Warning_("CONTEXT_UNAVAILABLE", f"{missing} site(s) have no source lines (no sources paired "
                                  "with their artifact and no decompiled text, or no line number): they show line "
                                  "numbers only")], engines


def _decompiled_window(session, site: dict, target: str, context: int) -> dict | None:
    """The decompiled lines around a site: the caller's whole method, focused on the site, cut to `context`."""
    from jdx.engine.samples import cut, focused_reconstruction

    member = target.split("#", 1)[1] if "#" in target else ""
    win = focused_reconstruction(session.reconstructed_window, site["caller_id"], target,
                                 bool(member) and "(" not in member, site["line"])
    if win is None or "unavailable" in win:
        return None
    a, b, text = cut(win, context)
    return {"label": win["label"], "file": win["file"], "lines": [a, b], "first_line": a, "focus": win["focus"],
            "text": text, "reconstructed": True, "lines_of": "decompiled text"}


@dataclass(frozen=True)
class CallersRequest(_Scoped):
    query: str = argument(_METHOD, "METHOD")
    depth: int | None = option(None, "--depth", "levels of callers (default 1)", kind="int", minimum=1)


@dataclass(frozen=True)
class CallsRequest(_Scoped):
    query: str = argument("a method reference, e.g. 'java.util.HashMap#put'", "METHOD")
    depth: int | None = option(None, "--depth", "levels of callees (default 1)", kind="int", minimum=1)
    external_only: bool = option(False, "--external-only", "only calls leaving the method's own artifact")


def _call_tree(session, req, direction: str):
    from jdx.engine.rel_calls import CallOptions

    opts = CallOptions(depth=req.depth, filter=_filter(req, session), limit=req.limit,
                       external_only=getattr(req, "external_only", False), view=req.view)
    return call_tree_answer(session, req.query, opts, direction, req.view)


def call_tree_answer(session, text: str, opts, direction: str, view: str = "jvm"):
    from jdx.engine.answer import Answer
    from jdx.engine.rel_calls import CallOptions, call_tree, call_tree_warnings

    result, truncated = call_tree(session.store(), text, opts or CallOptions(), direction)
    warnings: list = call_tree_warnings(session.store(), result)  # a missing member's shadowed copy, said
    if view == "kotlin":
        from jdx.engine.kotlin_hits import members_of

        entries: list[dict] = []

        def walk(items):
            for e in items:
                entries.append(e)
                walk(e.get("children", ()))
        for root in result["roots"]:
            entries.append(root)
            walk(root["tree"])
        found = members_of(session.store(), [e["id"] for e in entries if e.get("id")])
        for e in entries:
            if e.get("id") in found:
                e["kotlin"] = found[e["id"]]
        if found:
            result["view"] = "kotlin"
    if direction == "in" and not any(r["tree"] or r.get("not_shown") for r in result["roots"]):
        result["notes"] = result["notes"] + tests_left_out(session)
    return Answer(result, warnings, truncated,
                  [{"symbol": r["method"], "artifact": r["artifact"], "origin": "bytecode"} for r in result["roots"]])


def tests_left_out(session) -> list[str]:
    """A note for an answer that found nothing in a discovered project whose compiled test classes it left out (no
    --tests): the callers or usages may all be in tests, and "none" must not read as dead code."""
    import os

    try:
        if not session.selection().spec.project or session.selection().spec.tests or session.options.tests:
            return []
        dirs = [a.path for a in session.artifacts() if a.kind == "dir"]
    except JdxError:
        return []
    found = []
    for d in dirs:
        parts = os.path.normpath(d).split(os.sep)
        if parts[-2:] == ["target", "classes"]:  # Maven
            test = os.sep.join(parts[:-1] + ["test-classes"])
        elif len(parts) > 3 and parts[-4:-2] == ["build", "classes"] and parts[-1] == "main":  # Gradle, per language
            test = os.sep.join(parts[:-1] + ["test"])
        else:
            continue
        try:
            with os.scandir(test) as entries:
                if any(entries):
                    found.append(os.path.relpath(test, session.selection().spec.project))
        except OSError:
            continue
    if not found:
        return []
    shown = sorted(set(found))
    return [f"test classes are not in the workspace ({', '.join(shown[:2])}{', …' if len(shown) > 2 else ''}): "
            "--tests adds them"]

COMMANDS = (
    Command("hierarchy", "Supertypes up and subtypes down, as trees.",
            "jdx hierarchy java.util.AbstractList --down --direct", HierarchyRequest, run_hierarchy,
            renderer("graph", "hierarchy", brief=True), next_hint="implementors for a flat list of subtypes"),
    Command("implementors", "Every subtype of a type in the workspace, flat.",
            "jdx implementors java.util.Map --in 'gson*'", ImplementorsRequest, run_implementors,
            renderer("graph", "implementors", brief=True), next_hint="show or members on one of them"),
    Command("overrides", "What a method overrides, and every method that overrides it.",
            "jdx overrides 'java.lang.Object#hashCode'", OverridesRequest, run_overrides, renderer("graph", "overrides", brief=True),
            next_hint="body on an override for its code"),
    Command("usages", "Every place the workspace uses a symbol, by artifact then method.",
            "jdx usages 'java.util.List#size()'", UsagesRequest, run_usages, renderer("graph", "usages", brief=True),
            next_hint="samples for the most exemplary call sites, callers for a call tree"),
    Command("callers", "Who calls a method, as a tree (cycle-safe).",
            "jdx callers 'java.util.List#size()' --depth 2", CallersRequest,
            lambda session, req: _call_tree(session, req, "in"), renderer("graph", "call_tree", brief=True),
            next_hint="body on a caller for its code"),
    Command("calls", "What a method calls, as a tree of invoked declarations.",
            "jdx calls 'java.util.HashMap#put' --depth 2", CallsRequest,
            lambda session, req: _call_tree(session, req, "out"), renderer("graph", "call_tree", brief=True),
            next_hint="signature or body on a callee"),
)
