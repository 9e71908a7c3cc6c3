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
import functools
import itertools
import re
import weakref
from collections.abc import Collection

from jdx.engine.search_match import Pattern, owner_test
from jdx.graph_schema.schema import name_words
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
    taken = index.take(names, ["name", "kind", "owner", "descriptor", "access"])
    if taken is None:
        return []
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


def _ints(values, kind: str = "q"):
    """Python ints as an Arrow int64 (q) or int32 (i) array. pa.array() would do, but it imports pandas where
    pandas is installed (~0.25 s, in every process that searches): the buffer is handed over instead."""
    import array

    import pyarrow as pa

    buf = array.array(kind, values)
    return pa.Array.from_buffers(pa.int64() if kind == "q" else pa.int32(), len(buf), [None, pa.py_buffer(buf)])


def pa_strings(values: list[str]):
    import pyarrow as pa

    return pa.array(values, pa.string())


# an anonymous class (`Yaml$1`) or a class nested in one: search lists neither it nor its members (docs/search.md)
ANONYMOUS_OWNER = r"\$[0-9]+(?:\$|$)"
_ANONYMOUS = re.compile(ANONYMOUS_OWNER)

ROW_DICT_AFTER = 2000  # names one search looks up, past which the index keeps a dict of every name's row


class NameIndex:
    def __init__(self, store: GraphStore):
        import pyarrow.compute as pc

        from jdx.engine.search import artifact_table
        from jdx.graph_schema.search_files import read_index

        self.store = weakref.ref(store)
        names, symbols = read_index(store.path.parent, store.search_files)
        self.name_array = names.column("name").combine_chunks()
        self.names: list[str] = self.name_array.to_pylist()  # sorted: a name's row is found by bisection
        self.word_list: list[str] = names.column("words").to_pylist()
        self.words_text = "\n".join(self.word_list) + "\n"
        self.words_starts = _line_starts(self.word_list)
        by_lower = pc.sort_indices(names, [("lower", "ascending"), ("name", "ascending")])
        self.lowers = names.column("lower").take(by_lower).to_pylist()
        self.lower_names = self.name_array.take(by_lower).to_pylist()
        # symbols stay an Arrow table sorted by name, one run of rows per name (the names' order), which become
        # Python objects only when a search needs them; ranks follow this workspace's classpath order
        arts = {a["id"]: a["rank"] for a in artifact_table(store)}
        codes = pc.dictionary_encode(symbols.column("artifact").combine_chunks())
        rank = pc.take(_ints([arts.get(k, 1 << 30) for k in codes.dictionary.to_pylist()], "i"), codes.indices)
        self.table = symbols.rename_columns(["pub" if c == "public" else c for c in symbols.column_names]
                                            ).append_column("rank", rank)
        if self.table.num_rows:
            runs = pc.run_end_encode(self.table.column("name").combine_chunks())
            self.ends: list[int] = runs.run_ends.to_pylist()
        else:
            self.ends = []
        if len(self.ends) != len(self.names):
            raise RuntimeError("search index: its names and symbols disagree")  # never written so (search_files)
        kinds = pc.unique(self.table.column("kind").combine_chunks()) if self.table.num_rows else None
        self._kinds = kinds
        self._kind_names = kinds.to_pylist() if kinds is not None else []
        self._lengths = None  # of the names, in code points: the typo search's first cut
        self._row_of: dict[str, int] | None = None  # name -> row, once a search looked up many (`_many_lookups`)

    def _row(self, name: str) -> int | None:
        if self._row_of is not None:
            return self._row_of.get(name)
        i = bisect.bisect_left(self.names, name)
        return i if i < len(self.names) and self.names[i] == name else None

    def _many_lookups(self, n: int) -> None:
        """A search about to look up `n` names: past ROW_DICT_AFTER of them, every later lookup goes through a dict
        of all the names (~15 ms once for the JDK's 125k; a bisection per name cost `search get`'s 13k names ~20 ms
        each time), so a narrow search in a one-shot process never builds it."""
        if self._row_of is None and n > ROW_DICT_AFTER:
            self._row_of = dict(zip(self.names, range(len(self.names))))

    def word(self, name: str) -> str | None:
        """The name's camel-hump words (schema.name_words), None when the index has no such name."""
        i = self._row(name)
        return None if i is None else self.word_list[i]

    def span(self, name: str) -> tuple[int, int] | None:
        """The rows of the name's symbols, None when the index has no such name."""
        i = self._row(name)
        return None if i is None else (self.ends[i - 1] if i else 0, self.ends[i])

    def take(self, names: Collection[str], columns: list[str] | None = None):
        """The symbol rows of these names (in their order), or None when none is in the index."""
        self._many_lookups(len(names))
        indices = [j for n in names if (sp := self.span(n)) is not None for j in range(*sp)]
        if not indices:
            return None
        table = self.table.select(columns) if columns is not None else self.table
        return table.take(_ints(indices))

    def members(self, ids) -> dict[str, dict]:
        """The symbol rows of these method and field ids (`a/B#m(I)V`, `a/B#f:I`) by id, those the index lists
        (not synthetic, not a shadowed copy): the JVM members of the Kotlin declarations a search finds by name. Each
        name's run of rows is sliced (no copy) and cut to the owners asked for before it becomes Python objects: a
        name like `get` has thousands of rows (a `take` of them cost ~11 ms on okhttp's workspace)."""
        import pyarrow.compute as pc

        by_name: dict[str, set[str]] = {}
        for i in ids:
            owner, _, rest = i.partition("#")
            by_name.setdefault(rest.split("(", 1)[0].split(":", 1)[0], set()).add(owner)
        wanted = set(ids)
        columns = ["name", "kind", "owner", "descriptor", "access", "artifact", "pub", "rank", "package"]
        out = {}
        for name, owners in by_name.items():
            sp = self.span(name)
            if sp is None:
                continue
            rows = self.table.slice(sp[0], sp[1] - sp[0]).select(columns)
            if rows.num_rows > 16:
                rows = rows.filter(pc.is_in(rows.column("owner"), value_set=pa_strings(sorted(owners))))
            for r in rows.to_pylist():
                if r["kind"] in ("method", "field"):
                    sid = (f"{r['owner']}#{name}{r['descriptor']}" if r["kind"] == "method"
                           else f"{r['owner']}#{name}:{r['descriptor']}")
                    if sid in wanted:
                        out[sid] = {**r, "id": sid}
        return out

    def matching(self, p: Pattern) -> dict[str, int]:
        """name -> tier for every name the pattern matches (hump and glob patterns)."""
        if p.mode == "hump":
            found = _hump_candidates(self, p)
        else:  # globs and --regex: RE2, linear in the names whatever the pattern
            import pyarrow.compute as pc

            from jdx.engine.search_match import HUMP

            rx, fold = p.anywhere, False
            if rx.startswith("(?i)"):
                rx, fold = rx[4:], True
            hits = pc.match_substring_regex(self.name_array, "^(?:" + rx + ")$", ignore_case=fold)
            return dict.fromkeys(self.name_array.filter(hits).to_pylist(), HUMP)
        self._many_lookups(len(found))
        out = {}
        for name in found:
            tier = p.tier(name, self.word(name))
            if tier is not None:
                out[name] = tier
        return out

    def fuzzy(self, lower: str, budget: int) -> dict[str, int]:
        """name -> edit distance (case ignored) for every searchable name within `budget` edits of `lower`: the
        index's distinct names of a length within the budget (Arrow), measured by the graph's levenshtein() (C speed).
        Names of any kind: the rows a search takes of them keep its kinds (`rows`). Before, the graph measured every
        declared type, method and field name of that length, duplicates included (45-65 ms for `HashMpa` on the JDK,
        against 23-28 ms for its 22,956 distinct names)."""
        import pyarrow.compute as pc

        from jdx.engine.search_match import levenshtein
        from jdx.graph_schema.queries_search import FUZZY_AMONG

        store = self.store()
        if store is None:
            return {}
        if self._lengths is None:
            self._lengths = pc.utf8_length(self.name_array)
        n = len(lower)
        sized = pc.and_(pc.greater_equal(self._lengths, n - budget), pc.less_equal(self._lengths, n + budget))
        names = self.name_array.filter(sized).to_pylist()
        if not names:
            return {}
        found = store.query(FUZZY_AMONG, {"names": names, "lower": lower, "budget": budget}).column(0).to_pylist()
        return {name: levenshtein(name.lower(), lower) for name in found}

    def named(self, name: str) -> list[dict]:
        """Every symbol of exactly this simple name, by rank, owner, id (resolution of unqualified names)."""
        sp = self.span(name)
        if sp is None:
            return []
        taken = self.table.slice(sp[0], sp[1] - sp[0])
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
        import pyarrow.compute as pc

        taken = self.take(names, ["kind", "first", "owner"])
        kinds = set(kinds)
        wanted = [i for i, k in enumerate(self._kind_names) if k in kinds]
        if taken is None or not wanted:
            return 0
        mask = pc.and_(taken.column("first"), pc.is_in(taken.column("kind"), value_set=self._kinds.take(_ints(wanted))))
        mask = pc.and_(mask, pc.invert(pc.match_substring_regex(taken.column("owner"), ANONYMOUS_OWNER)))
        return pc.sum(mask).as_py() or 0

    def rows(self, names, kinds, artifacts, package_regex, owner_regexes) -> list[dict]:
        """Symbol rows of the names within the filters, shaped like search's groups want them. `owner_regexes`:
        (types', members' owner regex), or sets of type ids (search_match.owner_test)."""
        taken = self.take(names)
        if taken is None:
            return []
        cols = {c: taken.column(c).to_pylist() for c in taken.column_names}
        kinds = set(kinds)
        arts = set(artifacts) if artifacts is not None else None
        pkg = re.compile(package_regex) if package_regex is not None else None
        types_ok = members_ok = None
        if owner_regexes is not None:
            types_ok, members_ok = owner_test(owner_regexes[0], True), owner_test(owner_regexes[1], False)
        out = []
        for name, kind, owner, package, pub, rank, descriptor, access, artifact in zip(
                cols["name"], cols["kind"], cols["owner"], cols["package"], cols["pub"], cols["rank"],
                cols["descriptor"], cols["access"], cols["artifact"]):
            if kind not in kinds or (arts is not None and artifact not in arts) or _ANONYMOUS.search(owner):
                continue
            if pkg is not None and not pkg.fullmatch(package or ""):
                continue
            if types_ok is not None and not (members_ok if kind in ("method", "field") else types_ok)(owner):
                continue
            out.append({"name": name, "words": None, "kind": kind, "owner": owner, "pub": pub, "rank": rank,
                        "descriptor": descriptor, "access": access, "artifact": artifact})
        return out


def _hump_candidates(names, p: Pattern) -> set[str]:
    """The names a camel-hump pattern may match (its tier decides): a prefix range of the sorted lower-case names,
    then a scan of the words text. `names`: a NameIndex or a NameList."""
    found: set[str] = set()
    if p.lower:  # prefixes: a range of the sorted lower-case names
        lo = bisect.bisect_left(names.lowers, p.lower)
        hi = bisect.bisect_left(names.lowers, p.lower + "\U0010ffff")
        found.update(names.lower_names[lo:hi])
    # a word match lies within one line (`.` stops at a newline), so searching for the regex's core finds
    # every line whose whole-line match would succeed, at C speed
    for core in _literal_starts(p.core):
        found.update(names.names[i] for i in _lines(re.compile(core), names.words_text, names.words_starts))
    return found


class NameList:
    """A few hundred names outside the index matched as the index matches its own (the Kotlin names whose JVM
    member has another name, kotlin_toplevel.KotlinNames): built once per open graph, so a warm search pays a
    prefix bisection and one regex scan of their words, not a Python loop over every name."""

    def __init__(self, names):
        self.names = sorted(set(names))
        self.word_list = [name_words(n) for n in self.names]
        self.words = dict(zip(self.names, self.word_list))
        self.words_text = "\n".join(self.word_list) + "\n"
        self.words_starts = _line_starts(self.word_list)
        by_lower = sorted(self.names, key=lambda n: (n.lower(), n))
        self.lowers = [n.lower() for n in by_lower]
        self.lower_names = by_lower

    def matching(self, p: Pattern) -> dict[str, int]:
        """name -> tier of every name the pattern matches (hump, glob and regex: Python's `re` reads the pattern
        as RE2 does, search_match)."""
        if p.mode != "hump":
            return {n: t for n in self.names if (t := p.tier(n)) is not None}
        return {n: t for n in _hump_candidates(self, p) if (t := p.tier(n, self.words[n])) is not None}

    def fuzzy(self, lower: str, budget: int) -> dict[str, int]:
        """name -> edit distance (case ignored) of the names within `budget` edits of `lower`."""
        from jdx.engine.search_match import levenshtein

        out = {}
        for n in self.names:
            if abs(len(n) - len(lower)) <= budget and (d := levenshtein(n.lower(), lower)) <= budget:
                out[n] = d
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


HUMP_ANY_CASE = "camel-hump-any-case"  # the match word of a camel-hump match that misses a capital (rank_tier)


def rank_tier(tier: int, name: str, written: str | None) -> int:
    """The tier a name the pattern `written` (a camel-hump pattern as typed; None: no case rule) matched with `tier`
    ranks in: a pattern with a capital past its first character (`HMap`, `LMap`, `URLConn`) names words by its
    capitals, so an exact, prefix or camel-hump match whose name does not carry them all as capitals (`headMap`: `h`
    for `H`; the field `lmap` for `LMap`) ranks with the prefixes any case, after every name whose humps do
    (`HashMap`, `LinkedMap`). An all-lower-case or single-capital pattern (`hashmap`, `Version`) keeps its
    case-insensitive tiers."""
    from jdx.engine.search_match import LOOSE_PREFIX

    if written is None or tier >= LOOSE_PREFIX or not _missed_capital(written, name):
        return tier
    return LOOSE_PREFIX


def tier_word(tier: int, name: str, written: str | None) -> str:
    """The match word of a name matched with `tier` (search_match.TIER_NAMES), the tier it ranks in (`rank_tier`):
    an exact or prefix match missing a capital is a prefix any case, a camel-hump one `camel-hump-any-case`."""
    from jdx.engine.search_match import HUMP, TIER_NAMES

    ranked = rank_tier(tier, name, written)
    return HUMP_ANY_CASE if ranked != tier and tier == HUMP else TIER_NAMES.get(ranked, "word")


@functools.lru_cache(maxsize=4096)
def _missed_capital(written: str, name: str) -> bool:
    rx = _case_sensitive_humps(written)
    return rx is not None and rx.fullmatch(name_words(name)) is None


@functools.lru_cache(maxsize=32)
def _case_sensitive_humps(written: str) -> "re.Pattern | None":
    """search_match.hump_regex with the pattern's capitals matched as capitals (its lower-case letters either case),
    unanchored; None when the pattern has no capital past its first character."""
    from jdx.engine.search_match import hump_regex

    if not any(c.isupper() for c in written[1:]):
        return None
    return re.compile(hump_regex(written, False, capitals=True), re.DOTALL)
