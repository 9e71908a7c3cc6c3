"""The inspection core (spec §7.1): members, show, outline, signature."""

from __future__ import annotations

import functools

from dataclasses import dataclass

from jdx.commands.registry import Command, Request, argument, option, renderer
from jdx.errors import UsageError

_ACCESS = ("public", "protected", "package", "private", "all")
_VIEW_HELP = "kotlin: Kotlin declarations for Kotlin classes (default) | jvm: the JVM projection"


def _view():
    return option("kotlin", "--view", _VIEW_HELP, choices=("kotlin", "jvm"))
_TYPE = "a type reference, e.g. java.util.HashMap"


def _static(static: bool, instance: bool) -> bool | None:
    if static and instance:
        raise UsageError("--static and --instance exclude each other")
    return True if static else (False if instance else None)


@dataclass(frozen=True)
class MembersRequest(Request):
    query: str = argument(_TYPE, "TYPE")
    inherited: bool = option(True, "--inherited", "include members of supertypes (default)", negative="--declared")
    kind: str = option("all", "--kind", "only members of this kind",
                       choices=("method", "field", "ctor", "constructor", "all"))
    static: bool = option(False, "--static", "only static members")
    instance: bool = option(False, "--instance", "only instance members")
    access: tuple = option(("public", "protected"), "--access", "only members of these visibilities "
                           "(repeatable or comma list; default public,protected)", choices=_ACCESS)
    from_type: str | None = option(None, "--from", "only members inherited from this supertype", kind="str")
    grep: str | None = option(None, "--grep", "filter member names by regex", kind="str")
    sort: str = option("kind", "--sort", "order of the rows", choices=("kind", "name", "declaring"))
    include_synthetic: bool = option(False, "--include-synthetic", "show bridge/synthetic members")
    with_doc: bool = option(False, "--with-doc", "each member's first javadoc sentence (from sources)")
    limit: int | None = option(None, "--limit", "show at most N members (default all); the rest is counted",
                               kind="int", minimum=1)
    view: str = _view()

    def validate(self) -> None:
        _static(self.static, self.instance)
        if self.from_type and not self.inherited:
            from jdx.engine.members import DECLARED_FROM

            raise UsageError(DECLARED_FROM)
        if self.brief and self.with_doc:  # spec §7.1: --brief is signatures only
            raise UsageError("--brief and --with-doc exclude each other: --brief prints signatures only")


def run_members(session, req: MembersRequest):
    from jdx.engine.members import MemberOptions

    opts = MemberOptions(inherited=req.inherited, kind="ctor" if req.kind == "constructor" else req.kind,
                         static=_static(req.static, req.instance), access=req.access, from_type=req.from_type,
                         grep=req.grep, sort=req.sort, include_synthetic=req.include_synthetic,
                         with_doc=req.with_doc)
    return members_answer(session, req.query, opts, req.view, req.limit)


def members_answer(session, text: str, opts, view: str = "jvm", limit: int | None = None):
    """`members` with engine options (`MemberOptions`); `view` kotlin maps Kotlin classes' members; `limit` keeps the
    first N members in the answer's order, the rest counted (`total`, and the `truncated` cut naming `--limit`)."""
    from jdx.engine.answer import Answer
    from jdx.engine.members import unresolved_warnings
    from jdx.engine.members import list_members
    from jdx.engine.resolve import artifact_names
    from jdx.engine.search_aliases import alias_misses

    store = session.store()
    with alias_misses(session.store, text):  # a Kotlin type alias: not-found naming the class it expands to
        result = list_members(store, text, opts)
    if result.pop("kotlin_target", False) and view == "kotlin":
        from jdx.engine.kotlin_members import members_view

        members_view(store, result, opts.access, opts.sort, opts)
    artifact = artifact_names(store).get(result.pop("artifact") or "", "")
    result["artifact_name"] = artifact
    total = result["total"] = len(result["members"])
    cut = None
    if limit is not None and total > limit:
        del result["members"][limit:]
        cut = {"shown": limit, "total": total, "hint": f"--limit {total}"}
    warnings = unresolved_warnings(result["unresolved_supertypes"])
    provenance = [{"symbol": result["type"], "artifact": artifact, "origin": "bytecode"}]
    if opts.with_doc:
        borrowed: dict[str, str] = {}
        docs = session.first_sentence_docs(result["members"], warnings, borrowed)
        for item in result["members"]:
            item["doc"] = docs.get(item["ref"])
            if item["ref"] in borrowed:  # the javadoc of the method it overrides (the member has none)
                item["doc_from"] = borrowed[item["ref"]]
        warnings += source_mismatches(session, result["type"])
        provenance.append({"symbol": result["type"], "artifact": artifact, "origin": "sources",
                           "detail": f"first javadoc sentence of {len(docs)} of {len(result['members'])} members"})
    return Answer(result, warnings, truncated=cut, provenance=provenance)


def _render_members(result: dict, req: MembersRequest) -> list[str]:
    from jdx.render import cards

    return cards.members_fitted(result, req.brief, req.max_lines, req.grep)[0]


def _members_cut(result: dict, req: MembersRequest):
    from jdx.render import cards

    return cards.members_fitted(result, req.brief, req.max_lines, req.grep)[1]


@dataclass(frozen=True)
class ShowRequest(Request):
    query: str = argument(_TYPE, "TYPE")
    view: str = _view()


def card(session, fn_name: str, text: str, opts):
    from jdx.engine import cards
    from jdx.engine.answer import Answer
    from jdx.engine.search_aliases import alias_misses

    # outline and signature name the parameters a class file leaves unnamed from the type's sources (src_params)
    named = {"sources": session.source_context} if fn_name in ("outline_type", "member_signatures") else {}
    with alias_misses(session.store, text):  # a Kotlin type alias: not-found naming the class it expands to
        result, warnings, provenance = getattr(cards, fn_name)(session.store(), text, opts, **named)
    return Answer(result, warnings, provenance=provenance)


def run_show(session, req: ShowRequest):
    return show_answer(session, req.query, req.view)


def show_answer(session, text: str, view: str = "jvm"):
    """The class card, with where the sources are and the first sentence of the type's javadoc."""
    from jdx.engine.refs import type_id
    from jdx.engine.src_locate import source_file

    answer = card(session, "show_type", text, view)
    ctx = session.source_context()
    type_row = ctx.type_row(type_id(answer.result["ref"]))
    found = source_file(ctx, type_row) if type_row else None
    answer.result["sources"] = found[0].root.label if found else None
    answer.result["doc"] = session.type_first_sentence(type_row["id"]) if found else None
    if found:
        answer.warnings += source_mismatches(session, answer.result["ref"])
    unexported = _unexported_by(session, answer.result)
    if unexported:
        answer.result["module_unexported"] = unexported
    return answer


@functools.lru_cache(maxsize=64)
def _module_exports(path: str, key: str, read):
    """`read(path)` once per jar content (its artifact key): a warm `show` opens no jar."""
    return read(path)


def _unexported_by(session, result: dict) -> str | None:
    """The module of a jar that declares one (module-info.class) and does not export the type's package: code on the
    class path uses it, code in a module cannot (JDK types say `jdk_internal` instead)."""
    from jdx.loaders.jdk_modules import jar_module_exports

    if result.get("jdk_internal") or not result.get("package"):
        return None
    jar = next((a for a in session.artifacts() if a.name == result.get("artifact") and a.kind == "jar"), None)
    declared = _module_exports(jar.path, jar.key, jar_module_exports) if jar is not None else None
    if declared is None or result["package"].replace(".", "/") in declared[1]:
        return None
    return declared[0]


def source_mismatches(session, ref: str) -> list:
    """SOURCES_VERSION_MISMATCH (spec §11.1) of a type whose sources an answer read (its doc): a method or field the
    source declares and the class lacks (an edit not compiled yet) or the reverse, as `body` says it."""
    from jdx.engine.refs import type_id
    from jdx.engine.src_locate import mismatch_warnings, source_file

    ctx = session.source_context()
    type_row = ctx.type_row(type_id(ref))
    found = source_file(ctx, type_row) if type_row else None
    return mismatch_warnings(ctx, type_row, found[0], found[1]) if found else []


@dataclass(frozen=True)
class OutlineRequest(Request):
    query: str = argument(_TYPE, "TYPE")
    kind: str = option("all", "--kind", "only members (or nested types) of this kind",
                       choices=("method", "field", "ctor", "constructor", "type", "all"))
    static: bool = option(False, "--static", "only static members")
    instance: bool = option(False, "--instance", "only instance members")
    access: tuple = option(("all",), "--access", "only members of these visibilities (repeatable or comma "
                           "list; default all)", choices=_ACCESS)
    grep: str | None = option(None, "--grep", "filter member names by regex", kind="str")
    from_type: str | None = option(None, "--from", "also the members inherited from this supertype, after the "
                                   "type's own", kind="str")
    include_synthetic: bool = option(False, "--include-synthetic", "show bridge/synthetic members")
    limit: int | None = option(None, "--limit", "show at most N members (default all); the rest is counted",
                               kind="int", minimum=1)
    view: str = _view()

    def validate(self) -> None:
        _static(self.static, self.instance)


def run_outline(session, req: OutlineRequest):
    from jdx.engine.cards import OutlineOptions

    opts = OutlineOptions(kind="ctor" if req.kind == "constructor" else req.kind,
                          static=_static(req.static, req.instance), access=req.access, grep=req.grep,
                          include_synthetic=req.include_synthetic, view=req.view, from_type=req.from_type)
    return outline_answer(session, req.query, opts, req.limit)


# the lists of an outline answer whose entries are its rows, in the order they print (Kotlin view: the Kotlin
# declarations, then the JVM members no declaration claims; then the members inherited `--from` a supertype)
_ROW_LISTS = {"kotlin": ("kotlin_members", "jvm_only", "inherited"), "jvm": ("members", "inherited")}


def outline_answer(session, text: str, opts, limit: int | None = None):
    """`outline`; a Kotlin class's declarations carry their `.kt` declaration line when sources exist; `limit` keeps
    the first N rows, the rest counted (`total`, and the `truncated` cut naming `--limit`), as `members` does."""
    answer = card(session, "outline_type", text, opts)
    result = answer.result
    lists = _ROW_LISTS["kotlin" if result.get("view") == "kotlin" else "jvm"]
    total = sum(len(result.get(k) or ()) for k in lists)
    if limit is not None and total > limit:  # (`total` only on a cut answer: an uncut one counts its rows)
        result["total"] = total
        result["declared"] = len(result["kotlin_members" if result.get("view") == "kotlin" else "members"])
        room = limit
        for key in lists:
            if key in result:
                del result[key][room:]
                room -= len(result[key])
        answer.truncated = {"shown": limit, "total": total, "hint": f"--limit {total}"}
    if result.get("view") == "kotlin" and result.get("kotlin_members"):
        from jdx.engine.kotlin_source import declaration_lines
        from jdx.engine.refs import type_id

        ctx = session.source_context()
        type_row = ctx.type_row(type_id(result["type"]))
        file = declaration_lines(ctx, type_row, result["kotlin_members"]) if type_row else None
        if file is not None:
            answer.provenance.append({"symbol": result["type"], "artifact": result["artifact"], "origin": "sources",
                                      "file": file.display, "sources": file.root.label,
                                      "detail": "declaration lines of the Kotlin declarations"})
    return answer


def _render_outline(result: dict, req: OutlineRequest) -> list[str]:
    from jdx.render import cards

    return cards.outline_fitted(result, req.brief, req.max_lines)[0]


def _outline_cut(result: dict, req: OutlineRequest):
    from jdx.render import cards

    return cards.outline_fitted(result, req.brief, req.max_lines)[1]


@dataclass(frozen=True)
class SignatureRequest(Request):
    query: str = argument("a member reference, e.g. 'java.util.HashMap#put'", "MEMBER")
    include_synthetic: bool = option(False, "--include-synthetic", "also the bridges and synthetic overloads")
    limit: int | None = option(None, "--limit", "show at most N overloads (default 50); the rest is counted",
                               kind="int", minimum=1)
    view: str = _view()


def run_signature(session, req: SignatureRequest):
    from jdx.engine import cards
    from jdx.engine.answer import Answer
    from jdx.engine.limits import check_limit
    from jdx.engine.search_aliases import alias_misses

    limit = check_limit(req.limit)
    with alias_misses(session.store, req.query):  # a Kotlin type alias: not-found naming the class it expands to
        result, warnings, provenance = cards.member_signatures(session.store(), req.query, req.view,
                                                               req.include_synthetic, limit,
                                                               sources=session.source_context)
    total = result["total"]
    cut = {"shown": limit, "total": total, "hint": f"--limit {total}"} if total > limit else None
    return Answer(result, warnings, truncated=cut, provenance=provenance)



COMMANDS = (
    Command("show", "The class card: declaration, supertypes, nesting, member counts.",
            "jdx show java.util.HashMap", ShowRequest, run_show, renderer("cards", "show", brief=True),
            next_hint="members for what you can call, outline for every declared member"),
    Command("members", "What can I call on this type: members, inherited ones included, generics substituted.",
            "jdx members java.util.HashMap", MembersRequest, run_members, _render_members, _members_cut,
            next_hint="signature or doc for one member, body for its code"),
    Command("outline", "One dense line per declared member, fields, constructors and methods each in declaration "
            "order, with parameter names.",
            "jdx outline java.util.HashMap --kind method", OutlineRequest, run_outline, _render_outline,
            _outline_cut, next_hint="body for a member's code"),
    Command("signature", "Every overload's signature with parameter names.",
            "jdx signature 'java.util.HashMap#put'", SignatureRequest, run_signature,
            renderer("cards", "signature", brief=True),
            next_hint="doc for its javadoc, body for its code, usages for who calls it"),
)
