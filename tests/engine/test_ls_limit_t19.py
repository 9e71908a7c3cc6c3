"""`ls PKG --limit N` lists N of the package's entries under its heading line (the package itself is no row of its
listing), and the cut's numbers count the same entries: `… N of M shown (--limit M …)` where M is the public
top-level types it lists. Its subpackages and the rows counting its other types (not public, nested) are shown
whatever the cut (Trove's `ls gnu.trove` hid its subpackage behind 100 types). Oracle: the jar's class files
(`jar tf`): the public ones are `g/Cnn`, then a package-private class with a nested one, and a subpackage's class."""

from __future__ import annotations

import json

import pytest

from tests.fixtures import jdktool
from tests.fixtures.javac import javac_jar

N = 25


@pytest.fixture(scope="module")
def jar(tmp_path_factory):
    sources = {f"g/C{i:02d}.java": f"package g; public class C{i:02d} {{ }}" for i in range(N)}
    sources |= {"g/Hidden.java": "package g; class Hidden { static class In { } }",
                "g/sub/S.java": "package g.sub; public class S { }"}
    return javac_jar(tmp_path_factory.mktemp("ls_limit"), sources, "g", "g.jar")[0]


def _oracle(jar) -> list[str]:
    listed = jdktool.run(["jar", "tf", str(jar)], capture_output=True, text=True, check=True).stdout.split()
    assert {"g/Hidden.class", "g/Hidden$In.class", "g/sub/S.class"} <= set(listed)
    return sorted(n[2:-6] for n in listed if n.startswith("g/C") and n.endswith(".class"))


@pytest.mark.parametrize("limit", [1, 10, N - 1])
def test_limit_counts_the_types_listed_under_the_package(jar, run_jdx, limit):
    classes = _oracle(jar)
    assert len(classes) == N
    r = run_jdx("--no-jdk", "--jars", str(jar), "ls", "g", "--limit", str(limit))
    assert r.code == 0, r.out + r.err
    lines = r.out.splitlines()
    assert lines[0] == "package g"
    shown = [line.split()[-1] for line in lines if line.startswith("  class ")]
    assert shown == classes[:limit], r.out
    assert f"… {limit} of {N} shown (--limit {N}, or a narrower glob)" in lines, r.out
    assert lines[-4:-1] == ["  + 1 not public: Hidden", "  + 1 nested in the types above (jdx show <Type> names its "
                            "nested types)", "  package g.sub"], r.out
    answer = json.loads(run_jdx("--no-jdk", "--jars", str(jar), "ls", "g", "--limit", str(limit), "--json").out)
    assert answer["truncated"] == {"shown": limit, "total": N, "hint": f"--limit {N}, or a narrower glob"}
    assert answer["result"]["total"] == N and len(answer["result"]["entries"]) == limit + 4


def test_a_limit_that_fits_cuts_nothing(jar, run_jdx):
    for limit in (N, N + 1):
        r = run_jdx("--no-jdk", "--jars", str(jar), "ls", "g", "--limit", str(limit), "--json")
        answer = json.loads(r.out)
        assert answer["truncated"] is None and answer["result"]["total"] == N, r.out
        assert [e["name"] for e in answer["result"]["entries"][1:] if "ref" in e] == _oracle(jar)
