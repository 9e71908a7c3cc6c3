"""`jdx export` writes the same bytes for the same graph (T45: INVOKES, READS, WRITES and REFERENCES came out in
another order on each export, two calls of one method to the same callee being a tie the sort left to Kùzu). The
fixture's loop puts its body's call before its update's in the bytecode (javap -c -l is the oracle), so the
order the rows were stored in is not the line order."""

from __future__ import annotations

import hashlib
import json
import re

import pyarrow.parquet as pq
import pytest

from tests.fixtures.javac import javac_jar, javap

pytestmark = pytest.mark.soak  # a trial's regression family with its own graph builds: the soak runs it whole (.ci/run)

SOURCES = {"p/Loop.java": """package p;
public class Loop {
    boolean more() { return false; }
    void run() {
        for (int i = 0; i < 3; i += more() ? 1 : 2) {
            more();
        }
    }
}
"""}


def _call_lines(jar) -> list[int]:
    """The class-file lines of run()'s two calls of more(), in bytecode order (javap -c -l)."""
    code = javap(jar, "p.Loop", "-c", "-l").split("void run()", 1)[1].split("LocalVariableTable", 1)[0]
    pcs = [int(line.split(":")[0]) for line in code.splitlines() if "invokevirtual" in line and "more" in line]
    table = [(int(pc), int(n)) for n, pc in re.findall(r"line (\d+): (\d+)", code)]
    return [max((p, n) for p, n in table if p <= pc)[1] for pc in pcs]


@pytest.mark.soak  # slow (kotlinc runs the client; two exports): the soak runs it (.ci/run)
def test_an_export_is_ordered_by_every_column_and_the_same_twice(run_jdx, tmp_path):
    jar = javac_jar(tmp_path / "fx", SOURCES, "p", "lib.jar", debug=True)[0]
    in_bytecode = _call_lines(jar)
    assert len(in_bytecode) == 2 and in_bytecode[0] > in_bytecode[1], in_bytecode  # the body's call (a later line) comes first
    digests = []
    for n in (1, 2):
        out = tmp_path / f"out{n}"
        r = run_jdx("export", str(out), "--no-jdk", "--jars", str(jar), "--json")
        assert r.code == 0, r.err
        digests.append({p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(out.iterdir())})
        rows = pq.read_table(out / "INVOKES.parquet").to_pylist()
        pair = [r["line"] for r in rows if r["from"].endswith("#run()V") and r["to"].endswith("#more()Z")]
        assert pair == sorted(in_bytecode), rows
        assert json.loads(r.out)["result"]["tables"]["INVOKES"] == len(rows)
    assert digests[0] == digests[1]


def test_every_edge_table_is_ordered_by_all_its_columns():
    """What makes the order total: a sort on `from` and `to` alone left ties (T45: 4 of 20 files differed between two
    exports of guava, their rows equal once sorted)."""
    from jdx.graph_schema.queries import export_rel
    from jdx.graph_schema.schema import REL_TABLES

    for name, (pairs, props) in REL_TABLES.items():
        src, dst = pairs[0]
        order = export_rel(name, src, dst).rsplit("ORDER BY", 1)[1].replace(" ", "").split(",")
        assert order == ["`from`", "`to`", *(c for c, _ in props)], (name, order)


def test_arrow_ipc_export_equals_the_parquet_one_and_a_second_export_says_what_it_replaced(run_jdx, tmp_path):
    """T62: `--format arrow` was refused although the help promised an Arrow dataset, and an export into a directory
    holding an earlier one replaced its files without a word."""
    import pyarrow as pa
    import pyarrow.dataset as ds

    jar = javac_jar(tmp_path / "fx", SOURCES, "p", "lib.jar", debug=True)[0]
    answers = {}
    for fmt in ("parquet", "arrow"):
        r = run_jdx("export", str(tmp_path / fmt), "--format", fmt, "--no-jdk", "--jars", str(jar), "--json")
        assert r.code == 0, r.err
        answers[fmt] = json.loads(r.out)["result"]
        assert "replaced" not in answers[fmt]
    assert answers["parquet"]["tables"] == answers["arrow"]["tables"]
    for name in ("Type", "INVOKES"):
        with pa.OSFile(str(tmp_path / "arrow" / f"{name}.arrow")) as f:
            assert pa.ipc.open_file(f).read_all().equals(pq.read_table(tmp_path / "parquet" / f"{name}.parquet"))
    assert ds.dataset(str(tmp_path / "arrow" / "Method.arrow"), format="arrow").count_rows() == \
        answers["arrow"]["tables"]["Method"]
    again = run_jdx("export", str(tmp_path / "arrow"), "--format", "arrow", "--no-jdk", "--jars", str(jar))
    assert again.code == 0 and again.out.splitlines()[-1] == \
        f"replaced {len(answers['arrow']['tables'])} files of an earlier export in {tmp_path / 'arrow'}", again.out
    switched = run_jdx("export", str(tmp_path / "arrow"), "--format", "parquet", "--no-jdk", "--jars", str(jar),
                       "--json")  # T70: the other format's files stayed, and the folder read as no dataset
    result = json.loads(switched.out)["result"]
    assert sorted(result["removed"]) == sorted(f"{t}.arrow" for t in answers["arrow"]["tables"]), result
    assert sorted(p.name for p in (tmp_path / "arrow").iterdir()) == sorted(f"{t}.parquet" for t in result["tables"])
    assert ds.dataset(str(tmp_path / "arrow"), format="parquet").count_rows() == sum(result["tables"].values())
    bad = run_jdx("export", str(tmp_path / "x"), "--format", "csv", "--no-jdk", "--jars", str(jar))
    assert bad.code == 3 and "use parquet or arrow" in bad.err
