"""Who may import what (JLS §6.6.1, §7.5): the notes `imports` adds to a statement that compiles only somewhere (a
type that is not public, a static member reached through a class another package cannot name, a package its JDK
module exports to no one), the refusal of a statement that compiles nowhere (a private member), and how the types
a short name leaves out are named."""

from __future__ import annotations

from jdx.engine import descriptors as d
from jdx.engine.ranking import internal_packages, is_jdk_internal
from jdx.engine.refs import format_type
from jdx.engine.search import artifacts_by_id
from jdx.engine.search_nav import ACC_PRIVATE, ACC_PROTECTED, ACC_PUBLIC
from jdx.engine.source_match import descriptor_params
from jdx.graph_schema import queries
from jdx.graph_schema import queries_graph as qg
from jdx.graph_schema.store import GraphStore

ACC_DEPRECATED = 0x20000  # the Deprecated attribute, kept in the index's and the Type row's `access`


def type_row(store: GraphStore, type_id: str) -> dict | None:
    """The Type row of `type_id` (internal name), its columns without the `t.` prefix; None when none."""
    found = store.rows_cached(queries.TYPE_BY_ID, {"id": type_id})
    return {k[2:]: v for k, v in found[0].items()} if found else None


def importable_row(store: GraphStore, row: dict) -> bool:
    """Can a compilation unit of another package import this declared type: public, a member type of public ones only
    (no local or anonymous class), in a named package."""
    return (bool(row["access"] & ACC_PUBLIC) and bool(row.get("package")) and not row.get("outer_method")
            and not (row.get("outer") and not row.get("inner_name")) and closed_outer(store, row) is None)


def importable_type(store: GraphStore, type_id: str, internal: frozenset[str] | None) -> bool:
    """May another package's import name the declared type `type_id`: `importable_row`, outside the JDK's
    implementation packages."""
    row = type_row(store, type_id)
    return row is not None and not is_jdk_internal(type_id, internal) and importable_row(store, row)


def closed_outer(store: GraphStore, row: dict) -> dict | None:
    """The innermost enclosing type of a nested type that is not public (a public member of a package-private or
    private class is accessible only where that class is, JLS §6.6.1), or None."""
    outer_id = row.get("outer")
    while outer_id:
        outer = type_row(store, outer_id)
        if outer is None:
            return None
        if not outer["access"] & ACC_PUBLIC:
            return outer
        outer_id = outer.get("outer")
    return None


def private_holder(store: GraphStore, row: dict) -> dict | None:
    """The type itself or the innermost type enclosing it that is private (a nested type's InnerClasses flag, the
    Type row's `access`), or None: no import names a type there, not even in its own package (javac: "has private
    access"; an import is outside the top-level class body that alone may use it, JLS §6.6.1, §7.5.1)."""
    while row is not None:
        if row.get("outer") and row["access"] & ACC_PRIVATE:
            return row
        row = type_row(store, row["outer"]) if row.get("outer") else None
    return None


def private_refusal(store: GraphStore, row: dict) -> str | None:
    """The message refusing the import of a type `private_holder` finds one for, or None."""
    private = private_holder(store, row)
    if private is None:
        return None
    where = "private" if private is row else f"inside {private['fqn']}, which is private"
    return (f"{row['fqn']} is {where}: no import can name it (only code inside "
            f"{format_type(row['id'].split('$', 1)[0])} can use it)")


def access_note(row: dict, package: str) -> str:
    """Who may use a type that is not public nor private (JLS §6.6.1; `private_refusal` refuses a private one): a
    nested type's modifiers are its InnerClasses flags (the Type row's `access`); a protected one is seen also by the
    subclasses of its outer class."""
    if row.get("outer") and row["access"] & ACC_PROTECTED:
        return f"protected: only code in package {package} and subclasses of {format_type(row['outer'])} can use it"
    return f"not public: only code in package {package} can use it"


def type_access_note(store: GraphStore, row: dict) -> str | None:
    """Who may use a type another package cannot name (not public, or inside a type that is not), or None."""
    package = row.get("package") or ""
    if not row["access"] & ACC_PUBLIC:
        return access_note(row, package)
    outer = closed_outer(store, row)
    if outer is not None:  # javac: "defined in an inaccessible class or interface" outside what the outer allows
        return f"inside {format_type(outer['id'])}, which is {access_note(outer, package)}"
    return None


def member_access_note(rows: list[dict], declaring: str, package: str) -> str:
    """Who may use a member none of whose overloads is public (JLS §6.6.1): the most open one decides."""
    if any(r["access"] & ACC_PROTECTED for r in rows):
        return (f"protected: only code in package {d.package_of(declaring)} and subclasses of "
                f"{format_type(declaring)} can use it")
    if all(r["access"] & ACC_PRIVATE for r in rows):
        return f"private: only code inside {format_type(declaring.split('$', 1)[0])} can use it"
    return f"package-private: only code in package {d.package_of(declaring) or package} can use it"


def add_exports(store: GraphStore, row: dict) -> str | None:
    """`module/package=ALL-UNNAMED` when the type is in a JDK package its module exports to no one (the graph's
    Package.jdk_internal): javac's and java's `--add-exports` value that lets classpath code use it; else None."""
    package = row.get("package") or ""
    internal = internal_packages(store)
    if not package or internal is None or package not in internal:
        return None
    art = artifacts_by_id(store).get(row.get("artifact") or "", {})
    module = art.get("module") or art.get("name")
    return f"{module}/{package}=ALL-UNNAMED" if module else None


def export_note(value: str) -> str:
    """The note of an `add_exports` value: javac rejects the import without the flag (`package … is not visible`)."""
    module, package = value.split("=", 1)[0].split("/", 1)
    return (f"package {package} is not exported by module {module}: javac and java need --add-exports {value} "
            "(javac: not with --release)")


def note_export(store: GraphStore, row: dict, entry: dict) -> None:
    """Adds the export note and JSON `add_exports` to an import entry of a type (or of a static member of it) in a
    JDK package no module exports."""
    value = add_exports(store, row)
    if value:
        entry["add_exports"] = value
        add_note(entry, export_note(value))


def add_note(entry: dict, said: str) -> None:
    """Appends `said` to an import entry's note (after what it says already)."""
    entry["note"] = f"{entry['note']}; {said}" if entry.get("note") else said


OTHERS_NAMED = 3  # a note names at most this many of the types a short name leaves out


def others_said(store: GraphStore, refs: list[str], internal: frozenset[str] | None) -> str:
    """`2 others not importable: com.sun.tools.javac.parser.ParserFactory (JDK internal), p.Q (not public)`: the types
    (or members, `Type#name`) a short name names that no import can, the first OTHERS_NAMED named with why."""
    named = [f"{format_type(r.replace('.', '/'))} ({_why_not(store, r, internal)})" for r in refs[:OTHERS_NAMED]]
    more = f", +{len(refs) - OTHERS_NAMED} more" if len(refs) > OTHERS_NAMED else ""
    return f"{len(refs)} other{'s' * (len(refs) != 1)} not importable: {', '.join(named)}{more}"


def _why_not(store: GraphStore, ref: str, internal: frozenset[str] | None) -> str:
    owner = ref.split("#", 1)[0].replace(".", "/")
    if is_jdk_internal(owner, internal):
        return "JDK internal"
    row = type_row(store, owner)
    return "not public" if row is None or not row["access"] & ACC_PUBLIC else "inside a type that is not public"



def public_heirs(store: GraphStore, owner: dict, member: str, field: bool) -> list[str]:
    """The nearest public subtypes another package can import a public static member of a type it cannot name through
    (`import static org.jose4j.keys.RsaKeyUtil.pemEncode` for KeyPairUtil's): subclasses for a method, implementing
    types too for an interface's field (JLS §8.4.8, §9.4.1.1), that declare no member of that name (which would hide
    it); by FQN, the nearest level that has one."""
    from jdx.engine.relations import rows_by_ids
    from jdx.graph_schema import queries_search

    interface = owner.get("kind") in ("interface", "annotation")
    if interface and not field:
        return []
    internal = internal_packages(store)
    seen, frontier = {owner["id"]}, [owner["id"]]
    while frontier:
        rows = [r for r in rows_by_ids(store, qg.SUBTYPES_OF, frontier)
                if r["id"] not in seen and not r["external"] and (interface or r["rel"] == "EXTENDS")]
        seen.update(r["id"] for r in rows)
        ids = [r["id"] for r in rows]
        hiding = {r["owner"] for q in (queries_search.MEMBERS_NAMED, queries_search.FIELDS_NAMED)
                  for r in store.rows(q, {"owners": ids, "name": member})} if ids else set()
        frontier = sorted(i for i in ids if i not in hiding)
        found = sorted(r["fqn"] for r in rows if r["id"] in frontier and importable_type(store, r["id"], internal))
        if found:
            return found
    return []


def deprecated(access: int | None) -> bool:
    return bool((access or 0) & ACC_DEPRECATED)


def overloads_said(static: list[dict], declaring: str) -> list[str]:
    """What `import static` of several overloads brings into another package's file: all of them when all are public,
    else how many are public (those alone: JLS §6.6.1, §7.5.3) and which are not, by access, with who may use them."""
    if len(static) < 2:
        return []
    public = [r for r in static if r["access"] & ACC_PUBLIC]
    what = "static overloads" if all(r["kind"] == "method" for r in static) else "static members"  # a field too
    if len(public) == len(static):
        return [f"imports all {len(static)} {what}"]
    said = [f"{len(public)} public (usable anywhere)"] if public else []
    for level, rows in _by_access(r for r in static if not r["access"] & ACC_PUBLIC):
        who = member_access_note(rows, declaring, d.package_of(declaring)).split(": ", 1)[1]
        said.append(f"{len(rows)} {level}: {', '.join(_overload(r) for r in rows)} ({who.removesuffix(' it')} them)")
    return [f"{len(static)} {what} of which {'; '.join(said)}"]


def _by_access(rows) -> list[tuple[str, list[dict]]]:
    """Non-public member rows by access level, the most open first: (level, rows)."""
    levels: dict[str, list[dict]] = {"protected": [], "package-private": [], "private": []}
    for r in rows:
        level = "protected" if r["access"] & ACC_PROTECTED else "private" if r["access"] & ACC_PRIVATE \
            else "package-private"
        levels[level].append(r)
    return [(level, found) for level, found in levels.items() if found]


def _overload(row: dict) -> str:
    """`max(int, int)`: an overload by its parameter types (a field by its name)."""
    name = row["id"].rsplit("#", 1)[-1].split("(", 1)[0].split(":", 1)[0]
    if row["kind"] != "method":
        return f"the field {name}"
    return f"{name}({', '.join(descriptor_params(row['descriptor']))})"


def kotlin_class(store: GraphStore, type_id: str) -> bool:
    """A class kotlinc compiled (its Kotlin metadata): after a Java one of its name, a Java file's likelier type
    (java.time.Duration before kotlin.time.Duration, an inline class Java sees as a long)."""
    row = type_row(store, type_id)
    return bool(row and row.get("kotlin"))
