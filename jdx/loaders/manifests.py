"""A graph build's manifest (`manifest.json`: its artifacts in classpath order, counts, warnings), read back; and what
every answer asks of the graph, recorded in the manifest so that a one-shot query reads it instead of scanning the
graph: each artifact's newest class-file version (CLASS_NEWER_THAN_JDK) and the top-level classes whose name holds a
literal `$` (jvm_names.literal_dollars). Taken from each artifact's shard when its graph is built, carried over from
the base build's manifest when a graph grows from or shares another."""

from __future__ import annotations

from pathlib import Path

from jdx.graph_schema.store import read_manifest


def manifest_keys(manifest: dict) -> list[str]:
    return [a["key"] for a in manifest.get("artifacts", [])]


def manifest_files(manifest: dict) -> list[tuple[str, str, str]]:
    return [(a["key"], a.get("name"), a.get("path")) for a in manifest.get("artifacts", [])]


def read_build_manifest(build: Path) -> dict:
    """A build's manifest; ValueError when it cannot be read or is not one (a damaged cache)."""
    try:
        manifest = read_manifest(build)
    except OSError as exc:
        raise ValueError(exc.strerror or str(exc)) from exc
    if not isinstance(manifest, dict) or not isinstance(manifest.get("counts"), dict) \
            or not isinstance(manifest.get("artifacts", []), list):
        raise ValueError("not a build manifest")
    return manifest


def shard_facts(shard) -> tuple[int, list[str]]:
    """Of a shard's classes: the newest class-file major version (0: none), and the top-level classes whose name
    holds a `$` that nests nothing (queries_graph.LITERAL_DOLLAR_NAMES asks the graph the same). Its meta holds
    them since its extraction (`types_facts`: no read, even while a shard store still writes it); a shard written
    before is read."""
    if isinstance(shard.meta.get("newest"), int) and isinstance(shard.meta.get("dollars"), list):
        return shard.meta["newest"], shard.meta["dollars"]
    return types_facts(shard.table("types", ["name", "kind", "outer", "version"]))


def types_facts(types) -> tuple[int, list[str]]:
    """`shard_facts` of an artifact's `types` table (its `name`, `kind`, `outer` and `version` columns)."""
    import pyarrow.compute as pc

    from jdx.loaders.extractor import TYPE_KINDS

    types = types.filter(pc.not_equal(types["kind"], TYPE_KINDS.index("module")))  # no Type node (graph_build)
    if not types.num_rows:
        return 0, []
    top = types.filter(pc.and_(pc.is_null(types["outer"]), pc.match_substring(types["name"], "$")))
    return int(pc.max(types["version"]).as_py() or 0), top["name"].to_pylist()


def graph_facts(manifest: dict) -> dict | None:
    """What every answer asks of a graph, as its build recorded it in the manifest: `newest`, (name, kind, newest
    class-file major version) per artifact in classpath order (CLASS_NEWER_THAN_JDK), and `literal_dollars`
    (jvm_names.literal_dollars). None for a manifest written before they were kept: the graph is asked."""
    arts = manifest.get("artifacts")
    if not isinstance(arts, list) or not all(isinstance(a, dict) and isinstance(a.get("newest"), int)
                                             and isinstance(a.get("dollars"), list) for a in arts):
        return None
    return {"newest": [(a.get("name"), a.get("kind"), a["newest"]) for a in arts],
            "literal_dollars": sorted({n for a in arts for n in a["dollars"]})}
