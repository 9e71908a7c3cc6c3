"""The search index of a workspace graph, held in memory by the process that searches (search_files.py).

Loaded once per open graph from the build's `search/` files (names and symbols as Arrow tables, ~0.1 s on the
JDK), then matched in Python: prefixes by bisection over sorted names, camel humps by `re.finditer` over one
newline-joined text of all names' words (C speed, no per-name Python loop), globs and `--regex` by RE2 over
the names (Arrow's RE2, the engine Kùzu's `=~` runs: linear time whatever the pattern), typos by the graph's
levenshtein() over the declared names, symbols by their row span. A symbol's rank is its artifact's search
rank in this workspace's classpath order (schema.origin_ranks).
"""

from __future__ import annotations

import bisect
import itertools
import re
import weakref

from jdx.engine.search_match import Pattern
from jdx.graph_schema.store import GraphStore

_INDEXES: "weakref.WeakKeyDictionary[GraphStore, NameIndex]" = weakref.WeakKeyDictionary()


def index_for(store: GraphStore) -> "NameIndex":
    """The store's search index, loaded on first use."""
    found = _INDEXES.get(store)
    if found is None:
        found = _INDEXES[store] = NameIndex(store)
    return found


def loaded_index(store: GraphStore) -> NameIndex | None:
    """The store's in-memory index if this process has loaded it (never loads)."""
    return _INDEXES.get(store)


def group_rows(index: NameIndex, names, owners) -> list[dict]:
    """The method and field symbols of these names declared in these owners, by id (the Kotlin view's groups)."""
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


class NameIndex:
    def __init__(self, store: GraphStore):
        import pyarrow as pa
        import pyarrow.compute as pc

        from jdx.engine.search import artifact_table
        from jdx.graph_schema.search_files import read_index

        self.store = weakref.ref(store)
        names, symbols = read_index(store.path.parent)
        self.name_array = names.column("name").combine_chunks()
        self.names: list[str] = self.name_array.to_pylist()
        words = names.column("words").to_pylist()
        self.words = dict(zip(self.names, words))
        self.words_text = "\n".join(words) + "\n"
        self.words_starts = _line_starts(words)
        lowers = pa.array([n.lower() for n in self.names], pa.string())  # as a pattern is lower-cased
        by_lower = pc.sort_indices(pa.table({"lower": lowers, "name": self.name_array}),
                                   [("lower", "ascending"), ("name", "ascending")])
        self.lowers = lowers.take(by_lower).to_pylist()
        self.lower_names = self.name_array.take(by_lower).to_pylist()
        # symbols stay an Arrow table sorted by name; a name maps to its row span, rows become Python objects
        # only when a search needs them; ranks follow this workspace's classpath order
        arts = artifact_table(store)
        art_ids = pa.array([a["id"] for a in arts], pa.string())
        ranks = pa.array([a["rank"] for a in arts], pa.int32())
        rank = pc.take(ranks, pc.index_in(symbols.column("artifact"), value_set=art_ids)).fill_null(1 << 30)
        self.table = symbols.rename_columns(["pub" if c == "public" else c for c in symbols.column_names]
                                            ).append_column("rank", rank)
        runs = pc.run_end_encode(self.table.column("name").combine_chunks()) if self.table.num_rows else None
        ends = runs.run_ends.to_pylist() if runs is not None else []
        values = runs.values.to_pylist() if runs is not None else []
        self.span: dict[str, tuple[int, int]] = dict(zip(values, zip([0] + ends[:-1], ends)))

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
        else:  # globs and --regex: RE2, linear in the names whatever the pattern
            import pyarrow.compute as pc

            from jdx.engine.search_match import HUMP

            rx, fold = p.anywhere, False
            if rx.startswith("(?i)"):
                rx, fold = rx[4:], True
            hits = pc.match_substring_regex(self.name_array, "^(?:" + rx + ")$", ignore_case=fold)
            return dict.fromkeys(self.name_array.filter(hits).to_pylist(), HUMP)
        out = {}
        for name in found:
            tier = p.tier(name, self.words[name])
            if tier is not None:
                out[name] = tier
        return out

    def fuzzy(self, lower: str, budget: int) -> dict[str, int]:
        """name -> edit distance (case ignored) for every searchable name within `budget` edits of `lower`: the
        graph's levenshtein() over the declared names (C speed), kept where the index has the name."""
        from jdx.engine.search_match import levenshtein
        from jdx.graph_schema.queries_search import fuzzy_names

        store = self.store()
        if store is None:
            return {}
        found: set[str] = set()
        for cypher in fuzzy_names(lower, budget):
            found.update(store.query(cypher).column(0).to_pylist())
        return {n: levenshtein(n.lower(), lower) for n in found if n in self.words}

    def named(self, name: str) -> list[dict]:
        """Every symbol of exactly this simple name, by rank, owner, id (resolution of unqualified names)."""
        import pyarrow as pa

        if name not in self.span:
            return []
        taken = self.table.take(pa.array(range(*self.span[name]), pa.int64()))
        cols = {c: taken.column(c).to_pylist() for c in ("kind", "owner", "pub", "rank", "descriptor", "access",
                                                         "artifact")}
        out = []
        for kind, owner, pub, rank, descriptor, access, artifact in zip(*cols.values()):
            sid = (owner if kind not in ("method", "field") else
                   f"{owner}#{name}{descriptor}" if kind == "method" else f"{owner}#{name}:{descriptor}")
            out.append({"kind": kind, "owner": owner, "pub": pub, "rank": rank, "id": sid, "descriptor": descriptor,
                        "access": access, "artifact": artifact})
        out.sort(key=lambda r: (r["rank"], r["owner"], r["id"]))
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


def _line_starts(lines: list[str]) -> list[int]:
    """Offsets of each line of "\n".join(lines) + "\n"."""
    return [0] + list(itertools.accumulate(len(x) + 1 for x in lines))[:-1]


def _lines(rx: "re.Pattern", text: str, starts: list[int]):
    """Line numbers of the matches of a MULTILINE regex (a match never spans lines: `.` stops at newline)."""
    for m in rx.finditer(text):
        yield bisect.bisect_right(starts, m.start()) - 1
