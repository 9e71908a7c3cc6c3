"""Compile-time constants (JLS §13.1): javac copies a `static final` primitive or String with a constant value into
every use, so no getstatic reaches the field. `usages` and `samples` on such a field say so (a note in text and in
the JSON `notes`) instead of a bare 0 an agent would read as "unused"; a boxed constant is a real field read.
The oracle is `javap -c` of the class that uses them."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from jdx.engine.rel_usages import UsageOptions
from tests.fixtures.javac import javac_jar
from tests.service import JdxService, Options
from tests.fixtures import jdktool

SOURCES = {
    "kc/A.java": "package kc;\npublic class A {\n  public static final int K = 20;\n"
                 "  public static final String S = \"x\";\n  public static final Integer BOXED = 1;\n"
                 "  public static int plain = 3;\n}\n",
    "kc/B.java": "package kc;\npublic class B {\n  int use() {\n    int k = A.K;\n    String s = A.S;\n"
                 "    Integer b = A.BOXED;\n    return k + s.length() + b + A.plain;\n  }\n}\n",
}
INLINED = "is a compile-time constant"


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> tuple[Path, Path]:
    if shutil.which("javac") is None:
        pytest.skip("javac is not installed")
    return javac_jar(tmp_path_factory.mktemp("constants"), SOURCES, "kc", "constants.jar")


@pytest.fixture(scope="module")
def svc(built, jdx_home) -> JdxService:
    service = JdxService(Options(jars=[str(built[0])], cache_dir=str(jdx_home / "cache"), jdk=False))
    yield service
    service.close()


def _getstatics(classes: Path) -> set[str]:
    """The fields of kc.A that kc.B's bytecode reads, by `javap -c`."""
    out = jdktool.run(["javap", "-c", "-p", str(classes / "kc/B.class")], capture_output=True, text=True,
                         check=True).stdout
    return {line.rsplit("Field kc/A.", 1)[1].split(":", 1)[0] for line in out.splitlines()
            if "getstatic" in line and "Field kc/A." in line}


def test_javap_oracle_reads_only_the_fields_that_are_not_constants(built):
    assert _getstatics(built[1]) == {"BOXED", "plain"}


@pytest.mark.parametrize("name", ["K", "S"])
def test_a_constant_has_no_sites_and_a_note(svc, built, name):
    assert name not in _getstatics(built[1])
    r = svc.usages(f"kc.A#{name}", UsageOptions()).result
    assert r["total"] == 0 and r["groups"] == []
    (note,) = [n for n in r["notes"] if INLINED in n]
    assert f"kc.A#{name} {INLINED}" in note and "not in the bytecode" in note and f"grep -rnw '{name}'" in note
    assert "without sources, javap -c -p of the classes shows the value where it was inlined" in note  # T96
    s = svc.samples(f"kc.A#{name}").result
    assert s["total"] == 0 and [n for n in s["notes"] if INLINED in n] == [note]


@pytest.mark.parametrize("name", ["BOXED", "plain"])
def test_a_field_that_is_read_has_its_site_and_no_note(svc, built, name):
    assert name in _getstatics(built[1])
    r = svc.usages(f"kc.A#{name}", UsageOptions()).result
    assert r["counts"] == {"read": 1, "write": 1}  # B reads it, A's static initializer writes it
    sites = [(c["caller"], s["kind"]) for g in r["groups"] for c in g["callers"] for s in c["sites"]]
    assert sites == [("kc.A#<clinit>()", "write"), ("kc.B#use()", "read")]
    assert not any(INLINED in n for n in r["notes"])
    assert svc.samples(f"kc.A#{name}").result["notes"] == []


def test_the_note_prints_in_text_and_json(run_jdx, built):
    r = run_jdx("usages", "kc.A#K", "--jars", str(built[0]), "--no-jdk")
    assert r.code == 0, r.err
    lines = r.out.splitlines()
    assert lines[0] == "usages of field kc.A#K: 0"
    assert lines[1].startswith(f"  note: kc.A#K {INLINED} (= 20)") and lines[2] == "  (no usages in workspace)"
    # a narrowed question's "none" says what narrowed it (T61: `--kind all --in 'com.acme*'` read as a whole "no")
    narrowed = run_jdx("usages", "kc.A#K", "--in", "*", "--kind", "read", "--jars", str(built[0]), "--no-jdk")
    assert narrowed.out.splitlines()[-1] == "  (none of the kinds --kind asks in the artifacts --in/--exclude keep)"
    r = run_jdx("usages", "kc.A#S", "--jars", str(built[0]), "--no-jdk", "--json")
    assert any('(= "x")' in n for n in json.loads(r.out)["result"]["notes"])
    r = run_jdx("samples", "kc.A#K", "--jars", str(built[0]), "--no-jdk")
    assert r.code == 0, r.err
    assert r.out.splitlines()[-1].startswith(f"note: kc.A#K {INLINED}")
