"""`sealed` types (JLS §8.1.1.2, §9.1.1.4): the extractor records each class file's PermittedSubclasses attribute
(JVMS §4.7.31) as the shard column `types.permits` and the graph's `Type.permits`, `show` prints `sealed` and the
permits clause, and a diff surface knows its sealed classes. Oracle: `javap -v` of the javac-compiled fixture.

A `non-sealed` subclass has no attribute of its own, but a permitted subclass that is neither final nor sealed must be
non-sealed (JLS §8.1.1.2), so `show` says so from its supertype's attribute; an enum with a constant body
is sealed implicitly (javac writes the attribute; Java writes no `sealed` on an enum)."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from jdx.engine.cards import MAX_PERMITS_SHOWN
from jdx.engine.diff.surface import build_surface
from jdx.render.cards import show as render_show
from tests.fixtures.javac import javac_jar
from tests.service import JdxService, Options
from tests.fixtures import jdktool

MANY = MAX_PERMITS_SHOWN + 2
SOURCES = {
    "sl/Shape.java": "package sl;\npublic sealed interface Shape permits Circle, Square, Poly {}",
    "sl/Circle.java": "package sl;\npublic final class Circle implements Shape {}",
    "sl/Square.java": "package sl;\npublic record Square(int side) implements Shape {}",
    "sl/Poly.java": "package sl;\npublic non-sealed class Poly implements Shape {}",
    "sl/Base.java": """package sl;
public abstract sealed class Base permits Base.A, Base.B {
    public static final class A extends Base {}
    public static non-sealed class B extends Base {}
}""",
    "sl/Level.java": 'package sl;\npublic enum Level { LOW, HIGH { public String toString() { return "h"; } } }',
    "sl/Many.java": "package sl;\npublic sealed interface Many permits "
                    + ", ".join(f"Many.C{i}" for i in range(MANY)) + " {\n"
                    + "".join(f"    final class C{i} implements Many {{}}\n" for i in range(MANY)) + "}",
}
CLASSES = ("Shape", "Circle", "Square", "Poly", "Base", "Base$A", "Base$B", "Level", "Level$1", "Many")
THIS_CLASS = re.compile(r"^\s*this_class: #\d+\s+// (\S+)$", re.M)


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> tuple[Path, Path]:
    if shutil.which("javac") is None or shutil.which("javap") is None:
        pytest.skip("javac/javap are not installed")
    root = tmp_path_factory.mktemp("sealed")
    return javac_jar(root, SOURCES, "sl", "sealed.jar")


@pytest.fixture(scope="module")
def javap_permits(built) -> dict[str, list[str] | None]:
    """Internal class name -> its PermittedSubclasses in class-file order (None: no attribute), by `javap -v`."""
    files = [str(built[1] / "sl" / f"{c}.class") for c in CLASSES]
    out = jdktool.run(["javap", "-v", *files], capture_output=True, text=True, check=True).stdout
    found: dict[str, list[str] | None] = {}
    for part in re.split(r"^Classfile ", out, flags=re.M)[1:]:
        name = THIS_CLASS.search(part).group(1)
        block = re.search(r"^PermittedSubclasses:\n((?:  \S+\n)+)", part, re.M)
        found[name] = block.group(1).split() if block else None
    assert sorted(found) == sorted(f"sl/{c}" for c in CLASSES)
    return found


@pytest.fixture(scope="module")
def svc(built, jdx_home):
    service = JdxService(Options(jars=[str(built[0])], jdk=False, cache_dir=str(jdx_home / "cache")))
    yield service
    service.close()


def _shard_tables(svc, jdx_home, jar: Path) -> dict:
    svc.show("sl.Shape")  # the workspace is built, its shard written
    for meta in (jdx_home / "cache" / "shards").glob("*/meta.json"):
        if json.loads(meta.read_text()).get("path") == str(jar):
            return {n: pq.read_table(meta.parent / f"{n}.parquet")
                    for n in ("types", "supertypes", "members", "annotations")}
    raise AssertionError(f"no shard for {jar}")


def test_javap_sees_the_attributes_the_sources_imply(javap_permits):
    assert javap_permits["sl/Shape"] == ["sl/Circle", "sl/Square", "sl/Poly"]
    assert javap_permits["sl/Poly"] is None and javap_permits["sl/Base$B"] is None  # non-sealed: no attribute
    assert javap_permits["sl/Level"] == ["sl/Level$1"]  # an enum with a constant body, sealed implicitly


def test_shard_column_and_graph_property_match_javap(svc, jdx_home, built, javap_permits):
    types = _shard_tables(svc, jdx_home, built[0])["types"]
    shard = {n: (p.split(",") if p is not None else None)
             for n, p in zip(types["name"].to_pylist(), types["permits"].to_pylist()) if n in javap_permits}
    assert shard == javap_permits
    rows = svc.cypher("MATCH (t:Type) WHERE t.id STARTS WITH 'sl/' RETURN t.id AS id, t.permits AS permits").result
    graph = {r["id"]: r["permits"] for r in rows["rows"] if r["id"] in javap_permits}
    assert graph == javap_permits


def test_diff_surface_knows_the_sealed_classes(svc, jdx_home, built, javap_permits):
    surface = build_surface("sealed.jar", [_shard_tables(svc, jdx_home, built[0])])
    assert set(surface.sealed) & set(javap_permits) == {n for n, p in javap_permits.items() if p}
    assert surface.types["sl/Shape"].permits == tuple(javap_permits["sl/Shape"])


@pytest.mark.parametrize("ref, modifiers, declaration", [
    ("sl.Shape", ["public", "sealed"], "public sealed interface Shape permits Circle, Square, Poly"),
    ("sl.Base", ["public", "abstract", "sealed"], "public abstract sealed class Base permits Base.A, Base.B"),
    ("sl.Base$A", ["public", "static", "final"], "public static final class Base.A"),
    ("sl.Poly", ["public", "non-sealed"], "public non-sealed class Poly"),  # as its source says (permitted by Shape)
    ("sl.Base$B", ["public", "static", "non-sealed"], "public static non-sealed class Base.B"),
    ("sl.Square", ["public", "final"], "public record Square(int side)"),  # javac makes a record final
    ("sl.Level", ["public"], "public enum Level"),  # implicitly sealed: no `sealed`, no permits clause
])
def test_show_prints_sealed_and_permits(svc, javap_permits, ref, modifiers, declaration):
    result = svc.show(ref).result
    internal = ref.replace(".", "/")
    assert result["permits"] == [p.replace("/", ".") for p in javap_permits[internal] or []]
    assert result["modifiers"] == modifiers
    assert result["declaration"] == declaration
    assert f"  {declaration}" in render_show(result)


def test_a_long_permits_clause_is_cut_with_a_marker(svc):
    result = svc.show("sl.Many").result
    assert result["permits"] == [f"sl.Many$C{i}" for i in range(MANY)]  # --json lists all
    shown = ", ".join(f"Many.C{i}" for i in range(MAX_PERMITS_SHOWN))
    assert result["declaration"] == (f"public sealed interface Many permits {shown}, … +{MANY - MAX_PERMITS_SHOWN} "
                                     "more (jdx show --json lists all)")
