"""The search index held in memory by a long-lived process (batch, daemon, MCP, a notebook).

A one-shot `jdx search` asks the graph (one scan of the Name index, RE2 in Kùzu). A process that has already
searched LOAD_AFTER times loads the Name and Symbol tables once (~0.9 s CPU on the JDK; symbols stay an Arrow
table) and then matches in Python: prefixes by bisection over sorted names, camel humps by `re.finditer` over
one newline-joined text of all names' words (C speed, no per-name Python loop), symbols by their row span.
Same patterns, same tiers, same groups as the graph path (tests compare them).
"""

from __future__ import annotations

import bisect
import itertools
import re
import weakref

from jdx.engine.search_match import Pattern
from jdx.graph_schema import queries_search
from jdx.graph_schema.store import GraphStore

_INDEXES: "weakref.WeakKeyDictionary[GraphStore, NameIndex]" = weakref.WeakKeyDictionary()
_SEARCHES: "weakref.WeakKeyDictionary[GraphStore, int]" = weakref.WeakKeyDictionary()
LOAD_AFTER = 3  # searches answered by the graph before a process loads the index (~0.9 s CPU on the JDK)


def index_for(store: GraphStore) -> "NameIndex | None":
    """The store's in-memory index once this process has searched before; None for a first search."""
    found = _INDEXES.get(store)
    if found is None:
        seen = _SEARCHES.get(store, 0)
        _SEARCHES[store] = seen + 1
        if seen < LOAD_AFTER:
            return None
        found = _INDEXES[store] = NameIndex(store)
    return found


def loaded_index(store: GraphStore) -> NameIndex | None:
    """The store's in-memory index if this process has loaded it (never loads, never counts a search)."""
    return _INDEXES.get(store)


def group_rows(index: NameIndex, names, owners) -> list[dict]:
    """queries_kotlin.SYMBOLS_OF_GROUPS from the in-memory index: the method and field symbols of these names
    declared in these owners, by id."""
    import pyarrow as pa

    indices = [i for n in names if n in index.span for i in range(*index.span[n])]
    if not indices:
        return []
    taken = index.table.select(["name", "kind", "owner", "descriptor", "access"]).take(pa.array(indices, pa.int64()))
    cols = {c: taken.column(c).to_pylist() for c in taken.column_names}
    owners = set(owners)
    out = []
    for name, kind, owner, descriptor, access in zip(cols["name"], cols["kind"], cols["owner"], cols["descriptor"],
                                                     cols["access"]):
        if kind in ("method", "field") and owner in owners:
            sid = f"{owner}#{name}{descriptor}" if kind == "method" else f"{owner}#{name}:{descriptor}"
            out.append({"id": sid, "name": name, "owner": owner, "kind": kind, "descriptor": descriptor,
                        "access": access})
    out.sort(key=lambda r: r["id"])
    return out


def set_memory_index(store: GraphStore, enabled: bool) -> None:
    """Force the in-memory index on (loaded now) or off (the graph answers every search): bench and tests."""
    if enabled:
        _INDEXES[store] = NameIndex(store)
    else:
        _INDEXES.pop(store, None)
        _SEARCHES[store] = -(10 ** 9)


class NameIndex:
    def __init__(self, store: GraphStore):
        names = store.query(queries_search.INDEX_NAMES)
        self.names: list[str] = names.column("name").to_pylist()
        words = names.column("words").to_pylist()
        self.words = dict(zip(self.names, words))
        self.words_text = "\n".join(words) + "\n"
        self.words_starts = _line_starts(words)
        self.names_text = "\n".join(self.names) + "\n"
        self.names_starts = _line_starts(self.names)
        by_lower = sorted((n.lower(), n) for n in self.names)
        self.lowers = [lo for lo, _ in by_lower]
        self.lower_names = [n for _, n in by_lower]
        import pyarrow.compute as pc

        symbols = store.query(queries_search.INDEX_SYMBOLS)
        # symbols stay an Arrow table sorted by name; a name maps to its row span, rows become Python objects
        # only when a search needs them (loading: ~0.3 s on the JDK instead of ~1.3 s for Python rows)
        self.table = symbols.take(pc.sort_indices(symbols, [("name", "ascending"), ("kind", "ascending"),
                                                            ("owner", "ascending")]))
        runs = pc.run_end_encode(self.table.column("name").combine_chunks())
        ends = runs.run_ends.to_pylist()
        self.span: dict[str, tuple[int, int]] = dict(zip(runs.values.to_pylist(), zip([0] + ends[:-1], ends)))

    def matching(self, p: Pattern) -> dict[str, int]:
        """name -> tier for every name the pattern matches (hump and glob patterns)."""
        found: set[str] = set()
        if p.mode == "hump":
            if p.lower:  # prefixes: a range of the sorted lower-case names
                lo = bisect.bisect_left(self.lowers, p.lower)
                hi = bisect.bisect_left(self.lowers, p.lower + "\U0010ffff")
                found.update(self.lower_names[lo:hi])
            # a word match lies within one line (`.` stops at a newline), so searching for the regex's core finds
            # every line whose whole-line match would succeed, at C speed
            for core in _literal_starts(p.core):
                found.update(self.names[i] for i in _lines(re.compile(core), self.words_text, self.words_starts))
        else:
            found.update(self.names[i] for i in _lines(_multiline(p.anywhere), self.names_text, self.names_starts))
        out = {}
        for name in found:
            tier = p.tier(name, self.words[name])
            if tier is not None:
                out[name] = tier
        return out

    def count(self, names, kinds) -> int:
        """Groups of these names among `kinds` (no other filter): their `first` rows, counted in Arrow."""
        import pyarrow as pa
        import pyarrow.compute as pc

        indices = [i for n in names if n in self.span for i in range(*self.span[n])]
        if not indices:
            return 0
        taken = self.table.select(["kind", "first"]).take(pa.array(indices, pa.int64()))
        mask = pc.and_(taken.column("first"), pc.is_in(taken.column("kind"), value_set=pa.array(list(kinds))))
        return pc.sum(mask.cast(pa.int64())).as_py() or 0

    def rows(self, names, kinds, artifacts, package_regex, owner_regexes) -> list[dict]:
        """Symbol rows of the names within the filters, shaped like the graph's rows."""
        import pyarrow as pa

        indices = [i for n in names if n in self.span for i in range(*self.span[n])]
        if not indices:
            return []
        taken = self.table.take(pa.array(indices, pa.int64()))
        cols = {c: taken.column(c).to_pylist() for c in taken.column_names}
        kinds = set(kinds)
        arts = set(artifacts) if artifacts is not None else None
        pkg = re.compile(package_regex) if package_regex is not None else None
        types_rx = members_rx = None
        if owner_regexes is not None:
            types_rx, members_rx = (re.compile(x) for x in owner_regexes)
        out = []
        for name, kind, owner, package, pub, rank, descriptor, access, artifact in zip(
                cols["name"], cols["kind"], cols["owner"], cols["package"], cols["pub"], cols["rank"],
                cols["descriptor"], cols["access"], cols["artifact"]):
            if kind not in kinds or (arts is not None and artifact not in arts):
                continue
            if pkg is not None and not pkg.fullmatch(package or ""):
                continue
            if types_rx is not None and not (members_rx if kind in ("method", "field") else types_rx).fullmatch(owner):
                continue
            out.append({"name": name, "words": None, "kind": kind, "owner": owner, "pub": pub, "rank": rank,
                        "descriptor": descriptor, "access": access, "artifact": artifact})
        return out


_EITHER_CASE_START = re.compile(r"^ \[(.)(.)\]")


def _literal_starts(core: str) -> list[str]:
    """` [hH]...` -> [` h...`, ` H...`]: a regex that starts with a two-character literal is searched for with
    the engine's fast literal scan (measured: 4x faster over the JDK's 124k names than a character class)."""
    m = _EITHER_CASE_START.match(core)
    if not m:
        return [core]
    rest = core[m.end():]
    return [" " + m.group(1) + rest, " " + m.group(2) + rest]


def _multiline(regex: str) -> "re.Pattern":
    """A whole-line version of a full-match regex (a leading `(?i)` becomes a flag)."""
    flags = re.M
    if regex.startswith("(?i)"):
        regex, flags = regex[4:], flags | re.I
    return re.compile("^(?:" + regex + ")$", flags)


def _line_starts(lines: list[str]) -> list[int]:
    """Offsets of each line of "\n".join(lines) + "\n"."""
    return [0] + list(itertools.accumulate(len(x) + 1 for x in lines))[:-1]


def _lines(rx: "re.Pattern", text: str, starts: list[int]):
    """Line numbers of the matches of a MULTILINE regex (a match never spans lines: `.` stops at newline)."""
    for m in rx.finditer(text):
        yield bisect.bisect_right(starts, m.start()) - 1
