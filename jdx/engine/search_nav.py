"""resolve (spec §7.2): what a name, a reference or a stack-trace line is (ls and tree: packages.py; imports:
imports.py)."""

from __future__ import annotations

import re
import shlex
from collections import defaultdict

from jdx.engine.enum_bodies import mark_declaring_classes
from jdx.engine.ranking import internal_packages, is_jdk_internal
from jdx.engine.refs import (MAX_REF_LENGTH, SHADOW_SUFFIX, SymbolRef, annotation_type, format_member, format_type,
                             matches_params, parse_ref)
from jdx.engine.relations import is_lambda_name, lambda_writers, split_method_id
from jdx.engine.search import SearchOptions, artifacts_by_id, jdk_internal, search
from jdx.engine.search import package_artifacts as search_package_artifacts
from jdx.engine.search_index import index_for
from jdx.engine.frame_inlined import ClassReader, frame_lines, inlined_note
from jdx.engine.kotlin_toplevel import kotlin_candidates
from jdx.engine.search_frames import (  # noqa: F401  (frame_warnings, is_frame_location: re-exported)
    exception_message, exception_type, frame_member_miss, frame_warnings, hidden_class, is_frame_location,
    lambda_proxy_note, lambda_writer_name, omitted_frames, parse_frame, trace_line)
from jdx.engine.search_linkage import add_linkage
from jdx.engine.search_match import fuzzy_budget, levenshtein
from jdx.engine.search_rank import ACC_DEPRECATED, enclosed_flags, type_flags
from jdx.errors import AmbiguousError, JdxError, NotFoundError, RefSyntaxError, UsageError
from jdx.graph_schema import queries, queries_search
from jdx.graph_schema.queries_search import TYPE_KINDS
from jdx.graph_schema.store import GraphStore

ACC_PUBLIC, ACC_PRIVATE, ACC_PROTECTED, ACC_STATIC = 0x0001, 0x0002, 0x0004, 0x0008
ACC_BRIDGE, ACC_VARARGS, ACC_SYNTHETIC = 0x0040, 0x0080, 0x1000
ACC_NATIVE = 0x0100
LAMBDA_BODIES_LISTED = 10  # a lambda proxy's frame lists its class's lambda bodies up to this many
# kotlinc 1.3's class for a callable reference (`::top`, `this::greet`, `Foo::bar`) extends one of these
KOTLIN_REFERENCE = re.compile(r"kotlin/jvm/internal/(?:Mutable)?(?:Function|Property\d?)Reference(?:Impl)?")
_ENUM_HIDDEN = "(Ljava/lang/String;I"  # javac's enum constructors take the constant's name and ordinal first


# --- resolve -------------------------------------------------------------------------------------------------
def types_named(store: GraphStore, written: str, binary: bool = False) -> list[dict]:
    """Loaded types a (possibly partial) dotted name denotes: exact binary names first, else every type whose
    simple name is the last segment and whose qualified name ends with what was written. `binary`: the name is a
    binary name (a stack frame's class: `Client` is a class of the unnamed package), matched whole or not at all."""
    if binary:
        return _type_row(store, written.replace(".", "/"))
    try:
        ref = parse_ref(written)
    except RefSyntaxError:
        return []
    if ref.member is not None and not ref.ambiguous_dot:
        return []
    for fqn in ref.type_candidates():
        if found := _type_row(store, fqn.replace(".", "/")):
            return found
    head, dollar, tail = written.rpartition("$")  # `Outer$1Row`, `Op$3`: javac's local, anonymous class, by its outer
    if dollar and head and tail[:1].isdigit():  # (no index names them so)
        return [r for o in types_named(store, head) for r in _type_row(store, f"{o['id']}${tail}")]
    simple = re.split(r"[.$]", written)[-1]
    suffix = written.replace("$", ".")
    rows = [r for r in index_for(store).named(simple) if r["kind"] in TYPE_KINDS]
    return [{"id": r["owner"], "kind": r["kind"], "artifact": r["artifact"], "access": r["access"]} for r in rows
            if (dotted := format_type(r["owner"]).replace("$", ".")) == suffix or dotted.endswith("." + suffix)]


def _type_row(store: GraphStore, type_id: str) -> list[dict]:
    """[the type of this id] when the workspace declares it (its `access` with ACC_DEPRECATED when @Deprecated, as
    the search index's), else []."""
    rows = store.rows_cached(queries.TYPE_BY_ID, {"id": type_id})
    if not rows or rows[0]["t.external"]:
        return []
    t = rows[0]
    return [{"id": t["t.id"], "kind": t["t.kind"], "artifact": t["t.artifact"],
             "access": (t["t.access"] or 0) | (ACC_DEPRECATED if t.get("t.deprecated") else 0)}]


def _member_candidates(store: GraphStore, owners: list[dict], name: str, line: int | None,
                       native: bool = False, line_tables=None, written: SymbolRef | None = None,
                       smap=None) -> list[dict]:
    ids = [o["id"] for o in owners]
    methods = store.rows(queries_search.MEMBERS_NAMED, {"owners": ids, "name": name})
    if written is not None:  # `Hex#decodeHex(String)`: the overloads its parameters fit
        return _rows(store, name, _fits(store, written, name, methods + store.rows(
            queries_search.FIELDS_NAMED, {"owners": ids, "name": name})), methods)
    if native:  # the JVM prints `(Native Method)` only for a native method's frame
        methods = [m for m in methods if m["access"] & ACC_NATIVE] or methods
    if line is not None:
        # none holding the line: those of a shadowed copy that do follow the loaded copy's (FRAME_SHADOWED_COPY)
        methods = _at_line(store, methods, line, line_tables, smap) or methods + _shadowed_at_line(
            store, owners, name, line, line_tables, smap)
    fields = [] if line is not None or native else store.rows(queries_search.FIELDS_NAMED, {"owners": ids, "name": name})
    return _rows(store, name, methods + fields, methods)


def _shadowed_at_line(store: GraphStore, owners: list[dict], name: str, line: int, line_tables=None,
                      smap=None) -> list[dict]:
    """The methods of copies of the frame's class that the classpath shadows (an earlier artifact provides the
    class) whose line tables hold the line the loaded copy's do not (by their ranges when the class file cannot be
    read, as `_at_line` decides): the copy that ran when the classpath that ran had its artifact first. Each copy's
    class file is read from its own artifact (its graph id carries the artifact: `a/B@<key>`)."""
    copies = [c["id"] for o in owners for c in store.rows(queries_search.TYPE_COPIES, {"name": o["id"]})
              if c["shadowed"] and c["id"] != o["id"]]
    if not copies:
        return []
    methods = store.rows(queries_search.MEMBERS_NAMED, {"owners": copies, "name": name})
    plain = [dict(m, owner=SHADOW_SUFFIX.sub("", m["owner"]), copy=m["owner"]) for m in methods]
    return [{k: v for k, v in dict(m, owner=m["copy"]).items() if k != "copy"}
            for m in _at_line(store, plain, line, line_tables, smap)]


def _rows(store: GraphStore, name: str, members: list[dict], methods: list[dict]) -> list[dict]:
    """Resolve's candidate rows for member rows (MEMBERS_NAMED, FIELDS_NAMED) of one name; `methods`: all the
    owners' methods of the name (whose descriptors decide which refs need a return type)."""
    # methods of one owner, name and parameters that differ in their return (a bridge and the method it bridges):
    # their refs carry the return type, or they would print alike and name the same method
    params = defaultdict(int)
    for m in methods:
        params[(m["owner"], m["descriptor"].split(")")[0])] += 1
    out = []
    enclosed = enclosing_notes(store, [m["id"] for m in members if m["kind"] != "field" and "$" in m["owner"]])
    for m in members:
        is_field = m["kind"] == "field"
        # a bridge's ref always carries it (`next():java.lang.Object`, the ref `body` takes as the bridge)
        with_return = not is_field and (bool(m["access"] & ACC_BRIDGE)
                                        or params[(m["owner"], m["descriptor"].split(")")[0])] > 1)
        try:
            ref = format_member(m["owner"], name, m["descriptor"], is_field=is_field,
                                varargs=bool(m["access"] & ACC_VARARGS), with_return=with_return)
        except ValueError:
            ref = format_type(m["owner"]) + "#" + name
        kind = "constructor" if name == "<init>" else "initializer" if name == "<clinit>" else m["kind"]
        row = _marked(store, {"kind": kind, "ref": ref, "artifact": m["artifact"],
                              "public": bool(m["access"] & ACC_PUBLIC)}, SHADOW_SUFFIX.sub("", m["owner"]), True,
                      m["access"])
        if m["access"] & (ACC_SYNTHETIC | ACC_BRIDGE):  # after the written method holding the same line
            row["synthetic"] = True
        if not is_field and m.get("first_line", -1) not in (None, -1):
            row["lines"] = [m["first_line"], m["last_line"]]
        if SHADOW_SUFFIX.search(m["owner"]):  # a copy the classpath shadows, whose lines hold the frame's
            row["shadowed"] = True
            row["note"] = "shadowed copy: an earlier artifact on the classpath provides this class"
        elif m.get("inlined"):  # the frame's line is code kotlinc inlined: where it came from
            row["inlined"] = m["inlined"]
            row["note"] = inlined_note(m["inlined"])
        elif is_lambda_name(name):
            row["note"] = _lambda_note(store, m)
        elif not is_field and m["access"] & ACC_BRIDGE:
            row["note"] = "bridge: synthetic, forwards to the method of this name"
        elif not is_field and m["id"] in enclosed:
            row["note"] = enclosed[m["id"]]
        elif m["access"] & ACC_SYNTHETIC:
            row["note"] = "synthetic"
        out.append(row)
    return out


def _at_line(store: GraphStore, methods: list[dict], line: int, line_tables=None, smap=None) -> list[dict]:
    """The methods a frame's line is in: those whose LineNumberTable holds it, read from the class file (a
    constructor's table also holds the field initializers javac copies into it, so a line of `int size = 0;` is in
    every constructor that runs it; kotlinc numbers inlined code past the file's end, outside the graph's range);
    when the class file cannot be read (or no `line_tables` reader is given), the innermost of the ranges holding
    it. `line_tables(kind, path, module, internal_name)`: a class's {(method name, descriptor): lines} or None
    (loaders.class_files.line_tables: the engine reads no artifact); `smap(...)`: its SourceDebugExtension text."""
    lined = [m for m in methods if m["first_line"] is not None and m["first_line"] >= 0]
    ranged = [m for m in lined if m["first_line"] <= line <= m["last_line"]]
    if not lined:
        return []
    classes = ClassReader(store, line_tables, smap)
    known, unknown = [], []
    for m in lined:
        table = classes.tables(m["artifact"], m["owner"])
        lines = None if table is None else table.get((m["id"].split("#", 1)[1].split("(", 1)[0], m["descriptor"]))
        if lines is None:
            if m in ranged:
                unknown.append(m)
        elif line in lines:
            known.append(frame_lines(classes, m, lines, line))
    return known + _innermost(unknown) if known or unknown else _innermost(ranged)


def _innermost(methods: list[dict]) -> list[dict]:
    """The methods whose line range holds no other's: a constructor's range also spans the field initializers javac
    copies into it (`int[] buf = new int[8];` at line 153, the constructor at 283-307: 153-307), so it holds the
    ranges of the constructors and methods between; source bodies never nest (lambdas and local classes are methods
    of their own), so a range holding another's is such a constructor, not where the line is."""
    def holds(a: dict, b: dict) -> bool:
        return a is not b and a["first_line"] <= b["first_line"] and b["last_line"] <= a["last_line"] \
            and (a["first_line"], a["last_line"]) != (b["first_line"], b["last_line"])

    return [m for m in methods if not any(holds(m, other) for other in methods)]


def _lambda_note(store: GraphStore, method: dict) -> str:
    """`lambda body in getBestMatch(List)`: the method that wrote the lambda, as `callers` attributes its calls (the
    handle edge into the body, nested lambdas followed outward); ECJ's `lambda$0` names no method, and javac's
    `lambda$new$0` / `lambda$static$1` a constructor or initializer only by a word."""
    writer = lambda_writers(store, [method["id"]]).get(method["id"])
    if writer is None or writer["c_id"] == method["id"]:
        written = lambda_writer_name(method["id"].split("#", 1)[1].split("(", 1)[0])
        return f"lambda body in {written}" if written else "lambda body"
    return "lambda body in " + _short_method(writer["c_id"]).split("#", 1)[1]


def _short_method(method_id: str) -> str:
    """`KService#wire(Registry)`: a method id as a ref without packages (nor outer classes)."""
    owner, name, descriptor = split_method_id(method_id)
    try:
        ref = format_member(owner, name, descriptor, is_field=False)
    except ValueError:
        return f"{owner.rsplit('/', 1)[-1]}#{name}"
    return re.sub(r"[\w$]+\.", "", ref)


def enclosing_notes(store: GraphStore, method_ids: list[str], anonymous: bool = True) -> dict[str, str]:
    """Method id -> where the anonymous class declaring it is written, for those of `method_ids` in an anonymous
    class whose EnclosingMethod is known. A Kotlin lambda compiled to a class (kotlinc before 2.0: `KService$wire$1`,
    extending kotlin.jvm.internal.Lambda or SAM-converted) holds a lambda body, as javac's `lambda$wire$0` does:
    `lambda body in KService#wire(Registry): …`, nested lambdas followed outward, as `callers` attributes its calls
    (`rel_kotlin_lambdas.kotlin_lambda_writers`); kotlinc 1.3's class for a callable reference (`::top`, extending a
    kotlin.jvm.internal `…Reference`) holds no code of a source's own; a suspend function's continuation resumes that
    function; a Java anonymous class (or a Kotlin `object :` expression, or a lambda class's constructor) declares
    methods of its own: `in an anonymous class in JavaSide#wire(Registry)` (left out unless `anonymous`)."""
    from jdx.engine.rel_kotlin_lambdas import kotlin_lambda_writers
    from jdx.engine.relations import rows_by_ids
    from jdx.graph_schema import queries_graph

    ids = sorted({m for m in method_ids if "$" in m.split("#", 1)[0]})
    classes = {r["id"]: r for r in rows_by_ids(store, queries_graph.ANONYMOUS_CLASSES,
                                               {m.split("#", 1)[0] for m in ids}) if r["om"]}
    ids = [m for m in ids if m.split("#", 1)[0] in classes]
    outer = {c: _short_method(f"{r['outer']}#{r['om']}") for c, r in classes.items()}
    notes = {m: f"in an anonymous class in {outer[m.split('#', 1)[0]]}" for m in ids} if anonymous else {}
    for m, enc in (kotlin_lambda_writers(store, ids) if ids else {}).items():
        where, base = _short_method(enc.row["c_id"]), classes[m.split("#", 1)[0]]["super"] or ""
        notes[m] = (f"continuation of {where}: its state machine, which resumes it" if enc.continuation else
                    f"callable reference in {where}: kotlinc compiled `::name` to this class"
                    if KOTLIN_REFERENCE.fullmatch(base) else
                    f"lambda body in {where}: kotlinc compiled the lambda to this class")
    return notes


def _inherited_member_type(store: GraphStore, written: str) -> list[dict]:
    """`HashMap.Entry`: the member type a type inherits (JLS §8.5), as javac binds the name (resolve.py)."""
    from jdx.engine.refs import parse_ref
    from jdx.engine.resolve import inherited_member_type as inherited

    try:
        row = inherited(store, parse_ref(written), written)
    except AmbiguousError as exc:  # inherited from two supertypes: both are candidates (javac: ambiguous)
        return [r for c in exc.candidates for r in types_named(store, c["ref"])]
    except (JdxError, ValueError):
        return []
    return [{k: row[k] for k in ("id", "kind", "artifact", "access")}] if row else []


def _written_member(line: str) -> SymbolRef | None:
    """`Hex#decodeHex(String)`, `a.B.c(java.io.File, int)`, `B#c(Ljava/lang/String;)V`, `B#f:int`: a member ref that
    names parameters or a type, which narrow the overloads as `signature` does; None for a frame or a bare name."""
    if parse_frame(line)[1] is not None:
        return None
    try:
        ref = parse_ref(line.strip())
    except RefSyntaxError:
        return None
    if ref.member is None or ref.is_glob or ref.coord or (ref.params is None and ref.descriptor is None
                                                          and ref.return_type is None):
        return None
    return ref


def _fits(store: GraphStore, ref: SymbolRef, name: str, rows: list[dict]) -> list[dict]:
    """The member rows (MEMBERS_NAMED, FIELDS_NAMED) of `name` that the ref's parameters or type fit: by simple or
    qualified names, type variables by the generic signature, an inner class's constructor without its outer
    instance and an enum's without name and ordinal, as member_resolve matches."""
    from jdx.engine.member_render import source_descriptor, with_outer_instance

    owners = sorted({r["owner"] for r in rows})
    signatures = {(r["owner"], r["name"], r["descriptor"]): r["signature"]
                  for r in store.rows(queries.METHODS_OF_TYPES, {"ids": owners})} if owners else {}
    out = []
    for r in rows:
        descriptor = r["descriptor"]
        if ref.descriptor is None and (r["kind"] == "field") != (ref.params is None):
            continue  # parentheses name methods; `name:Type` without them names a field
        if matches_params(ref, descriptor, signature=signatures.get((r["owner"], name, descriptor))):
            out.append(r)
        elif name == "<init>" and ref.descriptor is None:  # the constructor as its source declares it
            found = store.rows_cached(queries.TYPE_BY_ID, {"id": r["owner"]})
            type_row = {k[2:]: v for k, v in found[0].items()} if found else {}
            source = source_descriptor(with_outer_instance({**r, "name": name}, type_row))
            if type_row.get("kind") == "enum" and descriptor.startswith(_ENUM_HIDDEN):
                source = "(" + descriptor[len(_ENUM_HIDDEN):]
            if source and matches_params(ref, source):
                out.append(r)
    return out


def resolve(store: GraphStore, text: str, limit: int, line_tables=None, smap=None) -> tuple[dict, dict | None]:
    """Every candidate for a name, a `Foo.bar`/`Foo#bar(params)` fragment, a stack-trace frame or a trace's exception
    line (`Caused by: a.B: msg`: its type). `line_tables`: reads a frame's class's line tables (`_at_line`;
    without it, the methods' line ranges decide)."""
    if not text.strip():
        raise UsageError("resolve needs a name, e.g. jdx resolve Entry or jdx resolve 'at a.B.c(B.java:12)'")
    if len(text) > MAX_REF_LENGTH:
        raise UsageError(f"resolve text is {len(text)} characters long; the limit is {MAX_REF_LENGTH}")
    line = annotation_type(trace_line(text))
    if omitted_frames(line) is not None:
        return _omitted(line), None
    thrown = exception_type(line)
    written = None if thrown is not None else _written_member(line)
    sym, frame = (thrown, None) if thrown is not None else (line.strip(), None) if written else parse_frame(line)
    arts = artifacts_by_id(store)
    candidates: list[dict] = []
    owners: list[dict] = []
    owner_text, sep, member = (written.type_name, "#", written.member) if written else split_member(sym)
    hidden = hidden_class(owner_text) if frame is not None else None
    if hidden is not None:  # `a.B$$Lambda$1/0x….run`: a class the runtime generated, in no artifact
        frame["hidden"] = {"class": owner_text, **({"lambda_of": hidden[1]} if hidden[1] else {})}
        owner_text, owners, candidates = _hidden_frame(store, owner_text, member, hidden[1])
    elif thrown is not None:  # an exception line names its exception's type
        owner_text, sep, member = "", "", ""
        candidates = _type_rows(store, types_named(store, thrown))
    elif not sep and "." not in sym:
        candidates = _unqualified(store, sym)
        candidates.extend(kotlin_candidates(store, sym, None, candidates))
        if not candidates and "$" in sym:  # `Selector$SelectorParseException`: a nested type by its binary name
            candidates = _type_rows(store, types_named(store, sym))
    else:
        if not sep and frame is None:
            candidates.extend(_type_rows(store, types_named(store, sym) or _inherited_member_type(store, sym)))
            # `io.opentelemetry.sdk.trace`, `sdk.trace`: a package (did-you-mean offered it as a miss)
            candidates.extend(_package_rows(store, lambda package: package == sym or package.endswith("." + sym)))
        if owner_text:
            owners = types_named(store, owner_text, binary=frame is not None)
            if frame is not None:
                _source_file(store, owners, frame)
            candidates.extend(_member_candidates(store, owners, member, frame["line"] if frame else None,
                                                 bool(frame and frame.get("native")), line_tables, written, smap))
            if not sep and frame is None:  # `fx.perimeter`: a Kotlin top-level declaration of package fx
                candidates.extend(kotlin_candidates(store, member, owner_text, candidates))
            if owners and frame is None and written is None:  # `HttpUrl.Companion.toHttpUrl`: by its Kotlin name
                candidates.extend(kotlin_candidates(store, member, None, candidates, {o["id"] for o in owners}))
    if not sep and frame is None and thrown is None:  # a Kotlin type alias, pointing at what it expands to
        from jdx.engine.search_aliases import resolve_candidates

        candidates.extend(resolve_candidates(store, sym))
    if not candidates:
        raise _resolve_miss(store, line.strip(), sym, owners, owner_text, member, frame, written, thrown is not None)
    internal = internal_packages(store)
    mark_declaring_classes(store, candidates, "ref")  # `Outer$1Row`: local, `Op$3`: an enum constant's body
    for c in candidates:
        a = arts.get(c["artifact"], {})
        c["artifact"], c["rank"] = a.get("name", ""), a.get("rank", 0)
        if jdk_internal(a.get("origin", ""), c["ref"], internal, is_package=c["kind"] == "package"):
            c["jdk_internal"] = True
    # public before non-public across artifacts (`Node`: org.w3c.dom.Node before java.util.HashMap$Node), then the
    # deprecated after the others as public, as search ranks; a frame's candidates in classpath order, a synthetic
    # accessor after the method that holds the line
    candidates.sort(key=lambda c: (is_jdk_internal(c["ref"], internal), frame is None and not c.get("public", True),
                                   frame is None and bool(c.get("deprecated")),
                                   c["rank"], bool(c.get("synthetic")), not c.get("public", True),
                                   c["kind"] not in TYPE_KINDS + ("typealias",), c["ref"], c["kind"]))
    for c in candidates:
        del c["rank"]
        c.pop("synthetic", None)
    total = len(candidates)
    result = {"name": line.strip(), "frame": frame, "candidates": candidates[:limit], "total": total}
    if thrown is not None:  # a linkage error's message names a class or a method: does the workspace have it?
        add_linkage(store, result, thrown, exception_message(line), arts)
    truncated = {"shown": limit, "total": total, "hint": f"--limit {total}"} if total > limit else None
    return result, truncated


def _source_file(store: GraphStore, owners: list[dict], frame: dict) -> None:
    """The frame's class's SourceFile, as `source_file`, when it is not the file the frame names (`HashMap.forEach
    (TreeMap.java:1424)`): FRAME_SOURCE_FILE. A frame without a file (`Unknown Source`, `Native Method`) or a class
    without the attribute says nothing."""
    if len(owners) != 1 or not frame["file"] or " " in frame["file"]:
        return
    rows = store.rows_cached(queries.TYPE_BY_ID, {"id": owners[0]["id"]})
    written = rows[0].get("t.source_file") if rows else None
    if written and written != frame["file"]:
        frame["source_file"] = written


def _hidden_frame(store: GraphStore, hidden: str, member: str, outer: str | None) -> tuple[str, list[dict], list[dict]]:
    """A hidden class's frame: a lambda's (`a.B$$Lambda$1/0x….run`) answers the class that wrote the lambda, saying
    what the frame is, then that class's lambda bodies; any other hidden class is in no artifact (not found).
    (the class named, its type rows, the candidates)"""
    if outer is None:
        raise NotFoundError(f"not found: {hidden} of the frame is a hidden class the runtime generated "
                            "(Lookup.defineHiddenClass): no artifact holds it",
                            hint="resolve the trace's frames around it: the code that called it and the code it calls")
    owners = types_named(store, outer, binary=True)
    ids = [o["id"] for o in owners]
    bodies = sorted({r["name"] for r in store.rows(queries.METHODS_OF_TYPES, {"ids": ids})
                     if is_lambda_name(r["name"])}) if ids else []
    listed = bodies if len(bodies) <= LAMBDA_BODIES_LISTED else []
    rows = [dict(r, note=lambda_proxy_note(hidden, member, r["ref"], len(bodies), bool(listed)))
            for r in _type_rows(store, owners)]
    for name in listed:
        rows.extend(_member_candidates(store, owners, name, None))
    return outer, owners, rows


def _omitted(line: str) -> dict:
    """A cause's `... N more`: no frame, N frames omitted (the last N of the trace it caused, printed above it);
    answered (exit 0) with nothing to resolve."""
    n = omitted_frames(line)
    return {"name": line.strip(), "frame": None, "candidates": [], "total": 0, "omitted": n,
            "notes": [f"not a frame: the {n} frame{'s' * (n != 1)} this cause's trace shares with the trace it caused "
                      "(its last ones, printed above), omitted; resolve those lines"]}


def _resolve_miss(store: GraphStore, line: str, sym: str, owners: list[dict], owner_text: str, member: str,
                  frame: dict | None, written: SymbolRef | None, thrown: bool = False) -> NotFoundError:
    """Why nothing answers: the type has no such member (or no overload takes the written parameters), a frame's
    class is in no artifact of the workspace, the name is external, or no near name."""
    if owner_text and owners:  # the type exists: only its own members (and its supertypes') can be meant
        if written is not None:
            overloads = _member_candidates(store, owners, member, None)
            if overloads:
                shown = str(written).split("#", 1)[1]
                return NotFoundError(f"not found: no {member} of {format_type(owners[0]['id'])} fits {shown} "
                                     f"({len(overloads)} declared)",
                                     candidates=[{k: c[k] for k in ("ref", "kind")} for c in overloads],
                                     hint=f"jdx signature {shlex.quote(format_type(owners[0]['id']) + '#' + member)}"
                                     " lists its overloads with parameter names")
        from jdx.engine.external_symbols import shadowed_member_miss

        shadowed = shadowed_member_miss(store, sym, written or parse_ref(f"{owner_text}#{member}"))
        return shadowed or _no_such_member(store, owners, owner_text, member, frame is not None)
    from jdx.engine.external_symbols import external_reference_miss

    external = external_reference_miss(store, sym)
    if external is not None:  # referenced by the workspace's code, declared by none of its artifacts
        return external
    if frame is not None and owner_text:  # `at Boom.main(Boom.java:14)`: no other class's members are meant
        unnamed = "a class of the unnamed package; " if "." not in owner_text else ""  # a frame names it whole
        return NotFoundError(f"not found: class {owner_text} of the frame is not in the workspace ({unnamed}the "
                             "artifact holding it is not on the classpath)",
                             hint="add its jar or classes directory with --jars, then resolve the frame again")
    if thrown:  # an exception line: only a type is meant
        return NotFoundError(f"not found: exception type {sym} (of {line})", candidates=_suggest(store, sym, TYPE_KINDS),
                             hint="jdx search <pattern> finds names by camel humps and globs")
    if re.search(r"\s", line) and frame is None:  # `Was expecting one of:`: a line of an exception's message
        return NotFoundError(f"not found: {line} names nothing: it is no name, frame (`at a.B.c(B.java:12)`) or "
                             "exception line (`Caused by: a.B: msg`), such as a line of an exception's message",
                             hint="resolve the trace's `at …` and `Caused by: …` lines, one per call")
    return NotFoundError(f"not found: {line}", candidates=_suggest(store, member or sym),
                         hint="jdx search <pattern> finds names by camel humps and globs")


def split_member(sym: str) -> tuple[str, str, str]:
    """`a.B#c` / `a.B::c` / `a.B.c` -> (owner, separator, member); a bare name has no owner."""
    for sep in ("#", "::"):
        if sep in sym:
            owner, _, member = sym.partition(sep)
            return owner, sep, member.split("(", 1)[0]
    owner, _, member = sym.rpartition(".")
    return owner, "", member


def _type_rows(store: GraphStore, types: list[dict]) -> list[dict]:
    return [_marked(store, {"kind": t["kind"], "ref": format_type(t["id"]), "artifact": t["artifact"],
                            "public": bool(t["access"] & ACC_PUBLIC)}, t["id"], False, t["access"]) for t in types]


def _marked(store: GraphStore, row: dict, owner: str, member: bool, access: int | None, indexed: bool = False) -> dict:
    """A candidate `row` of a type (`owner` its id) or member (`owner` its type) as search marks it: non-public also
    when a type around it is (search_rank.enclosed_flags) or a member's own type is (unless `indexed`: the index's
    `public` says it), `deprecated` when it is (`access` with ACC_DEPRECATED)."""
    closed, _ = enclosed_flags(type_flags(store), owner, member)
    if closed or (member and not indexed and owner in type_flags(store)[0]):
        row["public"] = False
    if (access or 0) & ACC_DEPRECATED:
        row["deprecated"] = True
    return row


def _unqualified(store: GraphStore, name: str) -> list[dict]:
    """Every loaded symbol of exactly this name: types, methods and fields (overloads grouped), packages."""
    grouped: dict[tuple[str, str], list[dict]] = defaultdict(list)
    for r in index_for(store).named(name):
        grouped[(r["kind"], r["owner"])].append(r)
    parts = _facade_parts(store, grouped)
    out = []
    for (kind, owner), rows in grouped.items():
        if (kind, owner) in parts:
            continue
        r = rows[0]
        if kind in TYPE_KINDS:
            ref = format_type(owner)
        elif kind == "field" or len(rows) > 1:
            ref = format_type(owner) + "#" + name
        else:
            ref = format_member(owner, name, r["descriptor"], varargs=bool(r["access"] & ACC_VARARGS))
        deprecated = all((x["access"] or 0) & ACC_DEPRECATED for x in rows)  # every overload, as search groups
        row = _marked(store, {"kind": kind, "ref": ref, "artifact": r["artifact"],
                              "public": any(x["pub"] for x in rows)}, owner, kind not in TYPE_KINDS,
                      ACC_DEPRECATED if deprecated else 0, indexed=True)
        if kind == "method":
            row["overloads"] = len(rows)
        out.append(row)
    return out + _package_rows(store, lambda package: package.rsplit(".", 1)[-1] == name)


def _package_rows(store: GraphStore, wanted) -> list[dict]:
    """A candidate per named package `wanted(name)` accepts, with the first artifact holding its types."""
    holders = search_package_artifacts(store)
    return [{"kind": "package", "ref": p["name"], "artifact": held[0]["id"] if (held := holders.get(p["name"])) else "",
             "public": True} for p in store.rows_cached(queries_search.PACKAGES) if wanted(p["name"])]


def _facade_parts(store: GraphStore, grouped: dict[tuple[str, str], list[dict]]) -> set[tuple[str, str]]:
    """Method groups of a Kotlin multi-file facade's part (`BuildersKt__Builders_commonKt#launch`) whose every method
    has its facade's copy among the candidates (`BuildersKt#launch`): one Kotlin function, called through the facade,
    which holds the candidate, as `search` folds it (a frame or a reference naming the part still finds it)."""
    parts = {k: rows for k, rows in grouped.items() if k[0] == "method" and "__" in k[1]}
    if not parts:
        return set()
    from jdx.engine.kotlin_view import member_kotlin

    decls = member_kotlin(store, [r["id"] for rows in parts.values() for r in rows])
    listed = {r["id"] for (kind, _owner), rows in grouped.items() if kind == "method" for r in rows}

    def in_facade(member_id: str) -> bool:
        d = (decls.get(member_id) or [{}])[0]
        return bool(d.get("facade")) and any(link.split(":", 1)[1] in listed for link in d.get("jvm") or ()
                                             if link.split(":", 1)[1].split("#", 1)[0] == d["facade"])

    return {k for k, rows in parts.items() if all(in_facade(r["id"]) for r in rows)}


def _no_such_member(store: GraphStore, owners: list[dict], owner_text: str, member: str,
                    frame: bool) -> NotFoundError:
    """Not-found for a member of a type that exists: did-you-mean offers that type's members (and its supertypes')
    near the name, never an unrelated type's (`ObjectMapper$1.foo` is no `AccessibleRole#FOOTER`)."""
    what = "method" if frame or member in ("<init>", "<clinit>") else "member"
    named = format_type(owners[0]["id"]) if len(owners) == 1 else f"no type named {owner_text}"
    message = (f"not found: {named} has no {what} {member}" if len(owners) == 1
               else f"not found: {named} has a {what} {member}")
    hint = (f"jdx members {shlex.quote(format_type(owners[0]['id']))} lists its members" if len(owners) == 1
            else "jdx search <pattern> finds names by camel humps and globs")
    if frame and len(owners) == 1:  # a lambda body the class no longer has: another build ran the trace
        missed = frame_member_miss(message, named, member,
                                   store.rows(queries.METHODS_OF_TYPES, {"ids": [owners[0]["id"]]}))
        if missed is not None:
            return missed
    return NotFoundError(message, candidates=_near_members(store, owners, member, methods_only=frame), hint=hint)


def _near_members(store: GraphStore, owners: list[dict], member: str, limit: int = 5,
                  methods_only: bool = False) -> list[dict]:
    """Members of the named type(s) and their supertypes near `member`, nearest first: within a typo's reach
    (edit distance, case ignored), then those it begins (`readVal` -> `readValue`); the type's own before
    inherited ones. Constructors, initializers, lambda bodies and a supertype's private members are left out."""
    arts = artifacts_by_id(store)
    distance_of = {o["id"]: 0 for o in owners}  # 0: the named type, 1: a supertype
    art_of = {o["id"]: arts.get(o["artifact"], {}).get("name", "") for o in owners}
    for o in owners:
        for s in store.rows_cached(queries.SUPERTYPES_CLOSURE, {"id": o["id"]}):
            if not s["external"] and s["id"] not in distance_of:
                distance_of[s["id"]] = 1
    for sid in [i for i in distance_of if i not in art_of]:
        rows = store.rows_cached(queries.TYPE_BY_ID, {"id": sid})
        art_of[sid] = arts.get(rows[0]["t.artifact"], {}).get("name", "") if rows else ""
    low = member.lower()
    budget = fuzzy_budget(low)
    scored = []
    queried = ((queries.METHODS_OF_TYPES, False),) if methods_only else (
        (queries.METHODS_OF_TYPES, False), (queries.FIELDS_OF_TYPES, True))
    for q, is_field in queried:
        for r in store.rows(q, {"ids": sorted(distance_of)}):
            name = r["name"]
            if name.startswith(("<", "lambda$")) or (distance_of[r["owner"]] and r["access"] & ACC_PRIVATE):
                continue
            d = levenshtein(name.lower(), low)
            if d <= budget or (len(low) >= 3 and name.lower().startswith(low)):
                near = d if d <= budget else budget + 1
                scored.append((near, distance_of[r["owner"]], format_type(r["owner"]) + "#" + name,
                               "field" if is_field else "method", r["owner"]))
    out, seen = [], set()
    for _near, _inherited, ref, kind, owner in sorted(scored, key=lambda x: (*x[:3], x[3] != "method")):
        if ref not in seen:
            seen.add(ref)
            out.append({"ref": ref, "kind": kind, "artifact": art_of.get(owner, "")})
    return out[:limit]


def _suggest(store: GraphStore, name: str, kinds: tuple[str, ...] = ()) -> list[dict]:
    """Did-you-mean for resolve/imports: the search machinery's near names (of `kinds`, or any)."""
    simple = re.split(r"[.$#]", name)[-1]
    if not simple or not re.fullmatch(r"[\w$]+", simple):
        return []
    try:
        found, _ = search(store, simple, SearchOptions(kinds=kinds, fuzzy=True, limit=5))
    except NotFoundError as exc:
        return exc.candidates
    return [{"ref": m["ref"], "kind": m["kind"], "artifact": m["artifact"]} for m in found["matches"]]
