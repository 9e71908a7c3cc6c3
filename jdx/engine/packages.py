"""ls and tree (spec §7.2): browsing packages, and the artifacts that hold them (resolve: search_nav.py)."""

from __future__ import annotations

import fnmatch
import re
import shlex
from collections import defaultdict

from jdx.engine.members import ACC
from jdx.engine.refs import format_type
from jdx.engine.search import artifact_table
from jdx.engine.search_match import glob_to_regex, levenshtein
from jdx.errors import JdxError, NotFoundError
from jdx.graph_schema import queries, queries_search
from jdx.graph_schema.store import GraphStore


# package-info and module-info: interfaces javac writes to hold a package's or module's annotations, no types
NOT_TYPES = ("package-info", "module-info")


def _package_counts(store: GraphStore, artifact_ids: set[str] | None = None) -> dict[str, int]:
    """Types per package (of these artifacts), package-info and module-info not counted."""
    counts: dict[str, int] = defaultdict(int)
    for r in store.rows_cached(queries_search.PACKAGE_TYPES):
        if artifact_ids is None or r["artifact"] in artifact_ids:
            counts[r["package"]] += r["types"]
    for r in (r for name in NOT_TYPES for r in store.rows_cached(queries.TYPES_BY_SIMPLE, {"name": name})):
        package = r["id"].rpartition("/")[0].replace("/", ".")
        package = package if package or package in counts else None  # module-info: the unnamed package's key
        if counts.get(package) and (artifact_ids is None or r["artifact"] in artifact_ids):
            counts[package] -= 1
    return counts


def _top_level_types(store: GraphStore, package: str, artifact_ids: set[str] | None = None) -> list[dict]:
    rows = store.rows_cached(queries_search.TYPES_IN_PACKAGE, {"package": package})
    return [r for r in rows if (artifact_ids is None or r["artifact"] in artifact_ids) and r["name"] not in NOT_TYPES]


UNLISTED_NAMES = 10  # non-public top-level types an `ls` names before it only counts the rest


def kotlin_keywords(store: GraphStore, type_ids: list[str]) -> dict[str, str]:
    """Type id -> the Kotlin kind word of each Kotlin class among them (`object`, `sealed class`, `data class`, ...,
    `internal class`): a listing prints what `show` does (one query, none in a workspace without Kotlin)."""
    from jdx.engine.kotlin_hits import has_kotlin
    from jdx.engine.kotlin_view import keyword_of
    from jdx.graph_schema import queries_kotlin as qk

    if not type_ids or not has_kotlin(store):
        return {}
    out = {}
    for r in store.rows(qk.KOTLIN_OF_TYPES, {"ids": sorted(type_ids)}):
        if r["kind"] != "class":
            continue
        word = keyword_of(r)
        if r["visibility"] in ("internal", "private"):  # public to the JVM, not to Kotlin code outside its module
            word = f"{r['visibility']} {word or 'class'}"
        if word:
            out.setdefault(r["member"], word)
    return out


def _subtree_count(counts: dict[str, int], prefix: str) -> int:
    return sum(n for p, n in counts.items() if p == prefix or p.startswith(prefix + "."))


def _counted(entry: dict, counts: dict[str, int], package: str) -> dict:
    """A package line's `--counts`: `types`, its subpackages' included, and `types_here`, its own types, when they
    differ (the listed package's line and each subpackage's line alike)."""
    entry["types"] = _subtree_count(counts, package)
    if entry["types"] != counts.get(package, 0):
        entry["types_here"] = counts.get(package, 0)
    return entry


def _children(counts: dict[str, int], prefix: str) -> list[str]:
    """Next-level package prefixes under `prefix` ('' for the roots)."""
    out = set()
    for p in counts:
        if not p:
            continue
        if not prefix:
            out.add(p.split(".", 1)[0])
        elif p.startswith(prefix + "."):
            out.add(prefix + "." + p[len(prefix) + 1:].split(".", 1)[0])
    return sorted(out)


def _walk(store, counts, prefix: str, level: int, depth: int, with_counts: bool, entries: list[dict],
          artifact_ids: set[str] | None) -> None:
    """Entries under package `prefix`: its public top-level types, then its subpackages, `depth` levels deep."""
    if level > depth:
        return
    if prefix in counts:
        top = _top_level_types(store, prefix, artifact_ids)
        public = [t for t in top if t["access"] & ACC["public"] and not t["name"].isdigit()]
        words = kotlin_keywords(store, [t["fqn"].replace(".", "/") for t in public])
        entries.extend({"kind": t["kind"], "name": t["name"], "ref": t["fqn"], "level": level,
                        **({"kotlin_keyword": words[k]} if (k := t["fqn"].replace(".", "/")) in words else {})}
                       for t in public)
        if artifact_ids is None:  # never a silent cut (spec G6): the rest are named, or counted with a way to see them
            entries.extend(_nonpublic(top, public, level))
            nested = counts[prefix] - len(top)
            if nested > 0:
                entries.append({"kind": "nested", "name": "nested", "level": level, "types": nested})
    for child in _children(counts, prefix):
        entry = {"kind": "package", "name": child, "level": level}
        entries.append(_counted(entry, counts, child) if with_counts else entry)
        _walk(store, counts, child, level + 1, depth, with_counts, entries, artifact_ids)


def _nonpublic(top: list[dict], public: list[dict], level: int) -> list[dict]:
    """The row naming a package's top-level types that are not public (`+ 9 not public: …`), if it has any."""
    hidden = sorted({t["name"] for t in top} - {t["name"] for t in public})
    return [{"kind": "nonpublic", "name": "not public", "level": level, "types": len(hidden),
             "names": hidden[:UNLISTED_NAMES]}] if hidden else []


def _named_type(store: GraphStore, text: str) -> None:
    """`ls java.util.HashMap`: a type, not a package; the miss names the type, its package and the commands that
    show a type."""
    from jdx.engine.resolve import declaring_artifacts, resolve_type

    try:
        row = resolve_type(store, text)
    except JdxError:
        return
    fqn = format_type(row["id"])
    kind = row.get("kind") or "type"
    package = row["id"].rpartition("/")[0].replace("/", ".")
    quoted = shlex.quote(fqn)
    raise NotFoundError(f"not found: package {text}: {fqn} is {'an' if kind[0] in 'aeiou' else 'a'} {kind}",
                        candidates=[{"ref": fqn, "kind": kind, "artifact": declaring_artifacts(store, [row["id"]])[0]}],
                        hint=f"jdx show {quoted} (its card), jdx members {quoted}"
                        + (f"; jdx ls {package} lists its package" if package else ""))


def list_packages(store: GraphStore, glob: str | None, depth: int, with_counts: bool,
                  limit: int) -> tuple[dict, dict | None]:
    """`ls`: no argument -> the root namespaces; a package -> its types and subpackages; a glob -> the
    packages it matches. --depth expands subpackages that many levels, --counts adds type counts (subpackages
    included; a package with subpackages' types also counts its own apart, `types_here`)."""
    counts = _package_counts(store)
    entries: list[dict] = []
    if glob is None or not glob.strip():
        _walk(store, counts, "", 0, depth - 1, with_counts, entries, None)
        entries = [e for e in entries if e["kind"] == "package"]
    elif any(c in glob for c in "*?"):
        rx = re.compile(glob_to_regex(glob))
        for p in sorted(x for x in counts if x and rx.fullmatch(x)):
            entry = {"kind": "package", "name": p, "level": 0}
            if with_counts:
                entry["types"] = counts[p]
            entries.append(entry)
            if depth > 1:
                _walk(store, counts, p, 1, depth - 1, with_counts, entries, None)
    else:
        package = glob.strip()
        if package not in counts and not _children(counts, package):
            _named_type(store, package)
            close = sorted((p for p in counts if p), key=lambda p: (levenshtein(p, package), p))[:5]
            raise NotFoundError(f"not found: package {package}",
                                candidates=[{"ref": p, "kind": "package"} for p in close])
        entry = {"kind": "package", "name": package, "level": 0}
        entries.append(_counted(entry, counts, package) if with_counts else entry)
        _walk(store, counts, package, 1, depth, with_counts, entries, None)
        # the package's own line heads the listing: --limit counts the types listed under it; its subpackages and
        # the rows counting its other types are always shown
        return _capped({"query": glob or "", "entries": entries}, limit, head=1,
                       kept=("package", "nonpublic", "nested"))
    if not entries and glob:
        prefix = glob.strip()[:-2] if glob.strip().endswith(".*") else ""
        if prefix in counts and prefix:  # `java.lang.constant.*` matches subpackages only; the package has none
            raise NotFoundError(f"not found: no package matches {glob}",
                                candidates=[{"ref": prefix, "kind": "package"}],
                                hint=f"jdx ls {prefix} lists its types")
        raise NotFoundError(f"not found: no package matches {glob}")
    return _capped({"query": glob or "", "entries": entries}, limit)


def package_artifacts(store: GraphStore, packages: list[str], subpackages: bool = False) -> list[str]:
    """Names of the artifacts holding types of `packages` (with `subpackages`, of packages under them too), in
    classpath order: what a listing of those packages draws on (its provenance)."""
    wanted = set(packages)
    prefixes = tuple(p + "." for p in packages if p)

    def listed(package: str) -> bool:
        return package in wanted or (subpackages and (not all(packages) or package.startswith(prefixes)))
    holding = {r["artifact"] for r in store.rows_cached(queries_search.PACKAGE_TYPES) if listed(r["package"] or "")}
    return [a["name"] for a in sorted(artifact_table(store), key=lambda a: a["position"]) if a["id"] in holding]


def listing_artifacts(store: GraphStore, result: dict) -> list[str]:
    """The artifacts an `ls` or `tree` answer draws on: each artifact it shows, the artifacts of the types it
    lists, and those holding the packages it shows (subpackages included), in classpath order."""
    arts = sorted(artifact_table(store), key=lambda a: a["position"])
    shown = {e["name"] for e in result["entries"] if e["kind"] == "artifact"}
    if shown:
        return [a["name"] for a in arts if a["name"] in shown]
    packages = [e["name"] for e in result["entries"] if e["kind"] == "package"]
    packages += sorted({e["ref"].rsplit(".", 1)[0] if "." in e["ref"] else "" for e in result["entries"] if "ref" in e})
    return package_artifacts(store, packages, subpackages=True)


def _capped(result: dict, limit: int, head: int = 0, kept: tuple[str, ...] = ()) -> tuple[dict, dict | None]:
    """At most `limit` entries past the first `head` (a heading line, always kept and never counted), entries of a
    `kept` kind always shown and never counted; `total` and the cut's numbers count the same entries."""
    entries = result["entries"]
    listed = sum(1 for e in entries[head:] if e["kind"] not in kept)
    result["total"] = listed
    if listed <= limit:
        return result, None
    shown, out = 0, entries[:head]
    for e in entries[head:]:
        if e["kind"] in kept or shown < limit:
            out.append(e)
            shown += e["kind"] not in kept
    result["entries"] = out
    return result, {"shown": limit, "total": listed, "hint": f"--limit {listed}, or a narrower glob"}


_VERSION_TAIL = re.compile(r"-\d[\w.+-]*$")


def _artifact_names(a: dict) -> set[str]:
    """The names an artifact answers to beside its file name: the name without `.jar` and without its version
    (`jopt-simple-5.0.4.jar` -> `jopt-simple`), a coordinate's artifact id (`g:jopt-simple:5.0.4`), its module."""
    name = a["name"]
    out = {name, name.removesuffix(".jar"), _VERSION_TAIL.sub("", name.removesuffix(".jar"))}
    if name.count(":") >= 2:
        out.add(name.split(":")[1])
    if a.get("module"):
        out.add(a["module"])
    return out


def artifact_tree(store: GraphStore, glob: str | None, depth: int | None, with_counts: bool,
                  limit: int) -> tuple[dict, dict | None]:
    """`tree`: artifacts in classpath order (level 0), their packages (1), public top-level types (2)."""
    arts = sorted(artifact_table(store), key=lambda a: a["position"])
    if glob:
        picked = [a for a in arts if fnmatch.fnmatchcase(a["name"], glob)]
        if not picked and not any(c in glob for c in "*?["):  # `jopt-simple`: the artifact id, or the module
            picked = [a for a in arts if glob in _artifact_names(a)]
        if not picked:
            close = sorted(arts, key=lambda a: (not any(n.startswith(glob) or glob.startswith(n)
                                                        for n in _artifact_names(a)),
                                                min(levenshtein(n, glob) for n in _artifact_names(a)), a["name"]))[:5]
            package = glob in _package_counts(store)  # `tree java.util`: a package, which `ls` lists
            raise NotFoundError(f"not found: no artifact matches {glob}",
                                candidates=[] if package else [{"ref": a["name"], "kind": "artifact",
                                                                "artifact": a["kind"]} for a in close],
                                hint=f"{glob} is a package: jdx ls {glob} lists its types" if package else None)
        arts = picked
    depth = depth if depth is not None else (2 if glob else 1)
    entries: list[dict] = []
    for a in arts:
        counts = _package_counts(store, {a["id"]})
        entry = {"kind": "artifact", "name": a["name"], "artifact_kind": a["kind"], "level": 0}
        if with_counts:
            entry["types"] = sum(counts.values())
        entries.append(entry)
        if depth < 2:
            continue
        for package in sorted(counts):
            pentry = {"kind": "package", "name": package or "(unnamed)", "level": 1}
            if with_counts:
                pentry["types"] = counts[package]
            entries.append(pentry)
            if depth >= 3:
                top = _top_level_types(store, package, {a["id"]})
                public = [t for t in top if t["access"] & ACC["public"] and not t["name"].isdigit()]
                words = kotlin_keywords(store, [t["fqn"].replace(".", "/") for t in public])
                for t in public:
                    entries.append({"kind": t["kind"], "name": t["name"], "ref": t["fqn"], "level": 2,
                                    **({"kotlin_keyword": words[k]} if (k := t["fqn"].replace(".", "/")) in words
                                       else {})})
                entries.extend(_nonpublic(top, public, 2))  # counted, never dropped silently (as `ls` does)
    return _capped({"query": glob or "", "depth": depth, "entries": entries}, limit)
