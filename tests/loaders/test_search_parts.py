"""The search index's part files (`search_files.write_part`): sorted by name, kind and owner, `first` marking the
first row of each (kind, owner, name) group in the order the build gave them, however many rows are written at a
time."""

from __future__ import annotations

import pyarrow as pa
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from jdx.graph_schema.search_files import SYMBOL_COLUMNS, read_index, write_part

ROW = st.tuples(st.sampled_from(["get", "Get", "size", "a", "b"]), st.sampled_from(["class", "method", "field"]),
                st.sampled_from(["p/A", "p/B", "q/C"]), st.sampled_from([None, "()V", "(I)V", "I"]),
                st.integers(0, 0x1001))


def _symbols(rows) -> pa.Table:
    return pa.table({
        "name": pa.array([r[0] for r in rows], pa.string()),
        "kind": pa.array([r[1] for r in rows], pa.string()),
        "owner": pa.array([r[2] for r in rows], pa.string()),
        "package": pa.array([r[2].rsplit("/", 1)[0] for r in rows], pa.string()),
        "public": pa.array([bool(r[4] & 1) for r in rows], pa.bool_()),
        "descriptor": pa.array([r[3] for r in rows], pa.string()),
        "access": pa.array([r[4] for r in rows], pa.int32()),
        "artifact": pa.array([f"art{i % 3}" for i in range(len(rows))], pa.string()),
    })


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(st.lists(ROW, max_size=60), st.integers(1, 9), st.integers(1, 3))
def test_a_part_is_sorted_and_marks_each_groups_first_row_for_any_batch_size(tmp_path_factory, rows, batch, chunks):
    build = tmp_path_factory.mktemp("build")
    symbols = _symbols(rows)
    if chunks > 1 and len(rows) > 1:  # the build hands over tables of several chunks (artifacts concatenated)
        cut = len(rows) // chunks or 1
        symbols = pa.concat_tables([symbols.slice(0, cut), symbols.slice(cut)])
    names = pa.table({"name": pa.array(sorted({r[0] for r in rows}), pa.string()),
                      "lower": pa.array([n.lower() for n in sorted({r[0] for r in rows})], pa.string()),
                      "words": pa.array(sorted({r[0] for r in rows}), pa.string())})
    write_part(build, names, symbols, batch_rows=batch)
    got_names, got = read_index(build)
    assert got.column_names == list(SYMBOL_COLUMNS)
    assert got_names["name"].to_pylist() == sorted({r[0] for r in rows})
    # the oracle: a stable sort of the given rows, and the first occurrence of each (kind, owner, name) in them
    given_rows = symbols.to_pylist()
    seen: set[tuple] = set()
    for row in given_rows:
        key = (row["kind"], row["owner"], row["name"])
        row["first"] = key not in seen
        seen.add(key)
    want = sorted(given_rows, key=lambda r: (r["name"], r["kind"], r["owner"]))
    assert got.to_pylist() == want
    assert sum(got["first"].to_pylist()) == len(seen)
