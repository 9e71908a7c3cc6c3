"""Kotlin lambda classes (kotlinc before 2.0 for every lambda, 2.x for suspend lambdas) and suspend functions'
continuations in the relationship answers: the method whose code holds a lambda class's method (`usages`,
`callers`, `resolve` name it), the lambda code a method writes (`calls` runs into it), and the plumbing kotlinc
writes around that code, which holds no line of the lambda."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass

from jdx.engine.relations import is_bridge, rows_by_ids, split_method_id
from jdx.graph_schema import queries_graph as q
from jdx.graph_schema.store import GraphStore

# a Kotlin lambda compiled to a class (kotlinc before 2.0 for every lambda, 2.x still for suspend lambdas) extends one
# of these; a suspend function's state machine (`Foo$bar$1`, its continuation) extends one of the last two
KOTLIN_LAMBDA_BASES = ("kotlin/jvm/internal/Lambda", "kotlin/coroutines/jvm/internal/SuspendLambda",
                       "kotlin/coroutines/jvm/internal/RestrictedSuspendLambda")
KOTLIN_CONTINUATION_BASES = ("kotlin/coroutines/jvm/internal/ContinuationImpl",
                             "kotlin/coroutines/jvm/internal/RestrictedContinuationImpl")


@dataclass(frozen=True)
class Enclosing:
    """Where the code of a method of a Kotlin lambda class was written: `row` the enclosing method (`c_` columns),
    `body` the lambda class's method (`LibKt$main$1#invoke`, the innermost of nested lambdas), `lambda_class` that
    class's id; `continuation` when the class is a suspend function's own state machine (its code, no lambda), which
    calls that function (`resumes`, its EnclosingMethod) to resume it; `in_lambda` when a lambda class is on the way
    out to `row` (the state machine of a suspend function written in a lambda is in that lambda)."""

    row: dict
    body: str
    lambda_class: str
    continuation: bool = False
    resumes: str | None = None
    in_lambda: bool = False


def _kotlin_lambda_class(r: dict) -> str | None:
    """`lambda`, `suspend` (a suspend lambda) or `continuation` for an anonymous class row (`ANONYMOUS_CLASSES`)
    kotlinc wrote for a lambda or a suspend function, None for the rest: a Java anonymous class and a Kotlin `object :`
    expression declare methods a source names, and stay their own callers."""
    if r["om"] is None or not r["kotlin"]:
        return None
    if r["super"] in KOTLIN_LAMBDA_BASES:
        return "lambda" if r["super"] == KOTLIN_LAMBDA_BASES[0] else "suspend"
    if r["super"] in KOTLIN_CONTINUATION_BASES:
        return "continuation"
    try:  # a lambda SAM-converted to a Java or `fun interface` (`Runnable { … }`): a synthetic class (k=3)
        return "lambda" if json.loads(r["kotlin"]).get("k") == 3 else None
    except ValueError:
        return None


def _enclosing_method(r: dict) -> str:
    """The id of an anonymous class row's EnclosingMethod; a shadowed class copy's enclosing class is the copy beside
    it."""
    shadow = "@" + r["id"].split("@", 1)[1] if "@" in r["id"] and "@" not in r["outer"] else ""
    return f"{r['outer']}{shadow}#{r['om']}"


def _is_plumbing(method_id: str, access: int, kind: str) -> bool:
    """A method kotlinc writes around the code of a lambda class (`kind` as `_kotlin_lambda_class` says): its
    constructor and static initializer (the `INSTANCE` of a lambda capturing nothing), its bridges (`invoke()Object`
    boxing what `invoke()I` returns) and, in a suspend lambda or a continuation, `create` and `invoke`, which start the
    state machine `invokeSuspend` holds. No line of the lambda is in them."""
    name = split_method_id(method_id)[1]
    if name in ("<init>", "<clinit>") or is_bridge({"id": method_id, "access": access}):
        return True
    return kind != "lambda" and name in ("create", "invoke")


def _lambda_classes(store: GraphStore, owners: Iterable[str], outward: bool = True) -> dict[str, tuple[str, str]]:
    """Class id -> (its enclosing method's id, its kind) for the Kotlin lambda classes (and continuations) among
    `owners` and, `outward`, the lambda classes enclosing them; one query per nesting level."""
    classes: dict[str, tuple[str, str]] = {}
    pending, seen = set(owners), set()
    while pending:
        seen |= pending
        for r in rows_by_ids(store, q.ANONYMOUS_CLASSES, pending):
            kind = _kotlin_lambda_class(r)
            if kind is not None:
                classes[r["id"]] = (_enclosing_method(r), kind)
        pending = {e.split("#", 1)[0] for e, _ in classes.values()} - seen if outward else set()
    return classes


def kotlin_lambda_writers(store: GraphStore, method_ids: Iterable[str]) -> dict[str, Enclosing]:
    """For each method of a Kotlin lambda class (or a suspend function's continuation) among `method_ids`, the method
    whose code holds the lambda: the class's EnclosingMethod, nested lambdas followed outward. A class whose
    enclosing method the graph does not hold maps to nothing, its methods stay as they are; so does a class's plumbing
    (`_is_plumbing`: its constructor, bridges, a suspend lambda's `create` and `invoke`), which holds no line of the
    lambda. One query per nesting level, none for a graph without Kotlin."""
    from jdx.engine.kotlin_hits import has_kotlin

    ids = sorted({m for m in method_ids if "$" in m.split("#", 1)[0]})
    if not ids or not has_kotlin(store):
        return {}
    classes = _lambda_classes(store, {m.split("#", 1)[0] for m in ids})
    chains: dict[str, list[str]] = {}
    for m in ids:
        chain, owner = [], m.split("#", 1)[0]
        while owner in classes and len(chain) < 64:
            chain.append(classes[owner][0])
            owner = chain[-1].split("#", 1)[0]
        if chain:
            chains[m] = chain
    rows = {r["id"]: r for r in rows_by_ids(store, q.METHODS_BY_IDS,
                                            {e for c in chains.values() for e in c} | set(chains))}
    out = {}
    for m, chain in chains.items():
        held = [e for e in chain if e in rows]
        owner, name, _ = split_method_id(m)
        kind = classes[owner][1]
        if not held or _is_plumbing(m, (rows[m]["access"] or 0) if m in rows else 0, kind):
            continue
        row = rows[held[-1]]
        passed = [owner] + [e.split("#", 1)[0] for e in chain[:chain.index(held[-1])]]  # the classes out to `row`
        out[m] = Enclosing({"c_id": row["id"], "c_access": row["access"], "c_artifact": row["artifact"]},
                           f"{owner.rsplit('/', 1)[-1]}#{name}", owner, kind == "continuation",
                           chain[0] if kind == "continuation" else None,
                           any(classes[c][1] != "continuation" for c in passed))
    return out


def kotlin_lambda_code(store: GraphStore, writer_ids: Iterable[str]) -> dict[str, Enclosing]:
    """The inverse of `kotlin_lambda_writers`: every method of a Kotlin lambda class (or a suspend function's
    continuation) whose code it gives to one of `writer_ids`, nested lambdas followed inward (the code `calls` of a
    method runs in the lambdas it writes). The candidates are the anonymous classes the writers' classes declare, one
    query per nesting level, none for a graph without Kotlin; `kotlin_lambda_writers` keeps those it maps to a
    writer."""
    from jdx.engine.kotlin_hits import has_kotlin

    writers = set(writer_ids)
    if not writers or not has_kotlin(store):
        return {}
    found: set[str] = set()
    pending, seen = {w.split("#", 1)[0] for w in writers}, set()
    while pending:
        seen |= pending
        for r in rows_by_ids(store, q.NESTED_ANONYMOUS, pending):
            if _kotlin_lambda_class(r) is not None and (r["declaring"] in found or _enclosing_method(r) in writers):
                found.add(r["id"])
        pending = found - seen
    methods = [r["id"] for r in rows_by_ids(store, q.DECLARED_METHOD_IDS, found)]
    return {m: e for m, e in kotlin_lambda_writers(store, methods).items() if e.row["c_id"] in writers}


def kotlin_lambda_plumbing(store: GraphStore, access: dict[str, int | None]) -> set[str]:
    """The methods among `access` (method id -> its access flags) that are plumbing of a Kotlin lambda class or
    continuation (`_is_plumbing`): the method writing a lambda constructs its class, and that call runs no code of
    the lambda, so `callers` and `calls` leave it out. One query, none for a graph without Kotlin."""
    from jdx.engine.kotlin_hits import has_kotlin

    ids = {m for m in access if "$" in m.split("#", 1)[0]}
    if not ids or not has_kotlin(store):
        return set()
    classes = _lambda_classes(store, {m.split("#", 1)[0] for m in ids}, outward=False)
    return {m for m in ids if m.split("#", 1)[0] in classes
            and _is_plumbing(m, access[m] or 0, classes[m.split("#", 1)[0]][1])}
