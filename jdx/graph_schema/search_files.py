"""The search index's files beside a graph build (`search/`): what `jdx search` and name resolution match.

The index is not in the graph. Its two tables (a row per distinct simple name, a row per searchable symbol)
were a quarter of the cold COPY, a third of every graph's size, and two of the large primary-key indexes every
incremental update's commit paid for (measured on the JDK: 15.2 -> 13.5 s cold, 325 -> 206 MB, an update
2.7 -> 2.15 s). Here they are Arrow IPC files, one part per graph step: a full build writes one part; an
update hard-links its base's parts (no byte copied) and adds one for the artifacts that joined.

A part holds no classpath position: a symbol's search rank comes from its artifact's place in the workspace
(Artifact.position) when the index is loaded, so a part never changes once written.

- `part-NNN.names.arrow`: `name`, `lower` (lower-cased as Python does), `words` (schema.name_words), sorted by
  name;
- `part-NNN.symbols.arrow`: `name`, `kind`, `owner`, `package`, `public`, `descriptor`, `access`, `artifact`,
  `first` (one row per kind/owner/name), sorted by name, kind, owner.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO

from jdx.errors import NoIndexError
from jdx.graph_schema.store import link_or_copy, write_context_table, write_context_tables

if TYPE_CHECKING:
    import pyarrow as pa

SEARCH_DIR = "search"
SYMBOL_COLUMNS = ("name", "kind", "owner", "package", "public", "descriptor", "access", "artifact", "first")
NAME_COLUMNS = ("name", "lower", "words")


def _parts(build: Path) -> list[str]:
    folder = build / SEARCH_DIR
    try:
        names = sorted(p.name for p in folder.iterdir())
    except OSError:
        return []
    return sorted({n.split(".", 1)[0] for n in names if n.startswith("part-") and n.endswith(".arrow")})


SYMBOL_BATCH_ROWS = 1 << 17  # symbols sorted and written this many rows at a time


def write_part(build: Path, names: "pa.Table", symbols: "pa.Table", batch_rows: int = SYMBOL_BATCH_ROWS) -> None:
    """The next part of the build's index: these names and symbols (every column but `first`, which is drawn here),
    sorted as the loader expects. The symbols are taken in sorted order a batch at a time, never copied whole (a
    Maven repository's 0.87M symbols were 150 MB, twice over while sorted)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    seq = len(_parts(build))
    stem = build / SEARCH_DIR / f"part-{seq:03d}"
    names = names.select(list(NAME_COLUMNS))
    write_context_table(Path(f"{stem}.names.arrow"), names.take(pc.sort_indices(names, [("name", "ascending")])))
    symbols = symbols.select([c for c in SYMBOL_COLUMNS if c != "first"])
    keys = ("name", "kind", "owner")
    # a stable sort: a row's (name, kind, owner) group keeps its rows in their given order, so the first row of a
    # group here is the group's first row in `symbols`
    order = pc.sort_indices(symbols, [(k, "ascending") for k in keys])

    def batches():
        for start in range(0, max(len(order), 1), batch_rows):
            lead = 1 if start else 0  # the row before the batch: does the batch's first row start a group?
            rows = symbols.take(order.slice(start - lead, batch_rows + lead)).combine_chunks()
            yield rows.slice(lead).append_column("first", _group_starts(rows, keys).slice(lead))

    write_context_tables(Path(f"{stem}.symbols.arrow"), symbols.schema.append(pa.field("first", pa.bool_())),
                         batches())


def _group_starts(rows: "pa.Table", keys: tuple[str, ...]) -> "pa.Array":
    """Per row of sorted `rows`, whether its keys (never null) differ from the row before (the first row: yes)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    n = rows.num_rows
    if n < 2:
        return pa.array([True] * n, pa.bool_())
    same = None
    for k in keys:
        col = rows[k].combine_chunks()
        eq = pc.equal(col.slice(1), col.slice(0, n - 1))
        same = eq if same is None else pc.and_(same, eq)
    return pa.concat_arrays([pa.array([True]), pc.invert(same)])


def link_parts(base: Path, build: Path) -> None:
    """The base build's parts in `build`, hard-linked (copied where the filesystem cannot link)."""
    target = build / SEARCH_DIR
    target.mkdir(parents=True, exist_ok=True)
    for stem in _parts(base):
        for kind in ("names", "symbols"):
            src = base / SEARCH_DIR / f"{stem}.{kind}.arrow"
            dst = target / src.name
            link_or_copy(src, dst)


def open_parts(build: Path) -> list[tuple[str, str, BinaryIO]]:
    """The build's part files opened for reading, (stem, names|symbols, file); none when they cannot be opened
    (read_index then says why)."""
    out = []
    try:
        for stem in _parts(build):
            for kind in ("names", "symbols"):
                out.append((stem, kind, open(build / SEARCH_DIR / f"{stem}.{kind}.arrow", "rb")))
    except OSError:
        for _stem, _kind, handle in out:
            handle.close()
        return []
    return out


def read_index(build: "Path | str", opened: list | None = None) -> tuple["pa.Table", "pa.Table"]:
    """(names, symbols) of the build's index (`build`: its folder, a Path or a str), each sorted as one part is, from
    the files `opened` (open_parts) when given, else by name; a missing or unreadable part is NO_INDEX with the way
    out (the graph was written by an older jdx, or damaged)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    build = Path(build)
    stems = sorted({stem for stem, _kind, _handle in opened}) if opened else _parts(build)
    if not stems:
        raise NoIndexError(f"the search index of {build} is missing; rebuild it with `jdx index --force`")
    handles = {(stem, kind): handle for stem, kind, handle in opened or ()}
    names, symbols = [], []
    try:
        for stem in stems:
            for kind, out, columns in (("names", names, NAME_COLUMNS), ("symbols", symbols, SYMBOL_COLUMNS)):
                handle = handles.get((stem, kind))
                if handle is not None:
                    handle.seek(0)
                    source = pa.BufferReader(handle.read())
                else:
                    source = pa.memory_map(str(build / SEARCH_DIR / f"{stem}.{kind}.arrow"))
                with source:
                    out.append(pa.ipc.open_file(source).read_all().select(list(columns)))
    except (OSError, KeyError, pa.ArrowException) as exc:
        raise NoIndexError(f"the search index of {build} is unreadable ({str(exc).splitlines()[0] if str(exc) else exc}"
                           "); rebuild it with `jdx index --force`") from exc
    if len(stems) == 1:
        return names[0], symbols[0]
    all_names = pa.concat_tables(names)
    all_names = all_names.take(pc.sort_indices(all_names, [("name", "ascending")]))
    col = all_names.column("name").combine_chunks()
    if len(col) > 1:  # a name several parts carry: kept once
        keep = pc.not_equal(col.slice(1), col.slice(0, len(col) - 1))
        all_names = all_names.filter(pa.concat_arrays([pa.array([True]), keep.fill_null(True)]))
    all_symbols = pa.concat_tables(symbols)
    order = pc.sort_indices(all_symbols, [("name", "ascending"), ("kind", "ascending"), ("owner", "ascending")])
    return all_names, all_symbols.take(order)
