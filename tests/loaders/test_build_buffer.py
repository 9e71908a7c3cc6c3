"""The graph writer's buffer pool (JDX_BUILD_BUFFER_MB): a bad setting is refused before anything is written, and a
build that outgrows the pool fails with a message naming the setting, never an internal error from the database."""

from __future__ import annotations

import json
import zipfile

import pyarrow as pa
import pytest

from jdx.errors import EXIT_INTERNAL, EXIT_USAGE, JdxError, UsageError
from jdx.graph_schema import store
from jdx.graph_schema.store import GraphWriter

PACKAGES = 600_000  # rows of a node table past a 64 MB pool (measured: its COPY fails after ~2 s)


def _packages() -> pa.Table:
    names = [f"org.example.some.long.package.name.number{i:09d}" for i in range(PACKAGES)]
    return pa.table({"id": pa.array([n.replace(".", "/") for n in names]), "name": pa.array(names),
                     "jdk_internal": pa.nulls(PACKAGES, pa.bool_())})


def _build_too_big(root) -> JdxError:
    writer = GraphWriter(root)
    writer.nodes("Package", _packages())
    with pytest.raises(JdxError) as caught:
        writer.commit({})
    writer.abort()
    return caught.value


@pytest.mark.parametrize("value", ["lots", "8", "-1"])
def test_a_bad_setting_is_a_usage_error_before_anything_is_written(monkeypatch, tmp_path, value):
    monkeypatch.setenv("JDX_BUILD_BUFFER_MB", value)
    with pytest.raises(UsageError, match="JDX_BUILD_BUFFER_MB") as caught:
        GraphWriter(tmp_path / "graph")
    assert caught.value.exit_code == EXIT_USAGE and repr(value) in caught.value.message
    assert not (tmp_path / "graph").exists() or not any((tmp_path / "graph").iterdir())


def test_a_build_outgrowing_the_set_pool_names_the_setting(monkeypatch, tmp_path):
    monkeypatch.setenv("JDX_BUILD_BUFFER_MB", "64")
    error = _build_too_big(tmp_path / "graph")
    assert isinstance(error, UsageError) and error.exit_code == EXIT_USAGE, error
    assert "64 MB buffer pool" in error.message and "JDX_BUILD_BUFFER_MB=64" in error.message
    assert "raise JDX_BUILD_BUFFER_MB" in error.hint
    assert not any((tmp_path / "graph").iterdir())  # the half-written build went with the abort
    assert store.current_build(tmp_path / "graph") is None


def test_a_build_outgrowing_the_default_pool_says_how_to_raise_it(monkeypatch, tmp_path):
    monkeypatch.delenv("JDX_BUILD_BUFFER_MB", raising=False)
    monkeypatch.setattr(store, "BUILD_BUFFER_MB", 64)
    error = _build_too_big(tmp_path / "graph")
    assert type(error) is JdxError and error.exit_code == EXIT_INTERNAL, error
    assert error.message == "building the graph ran out of its 64 MB buffer pool"
    assert error.hint.startswith("set JDX_BUILD_BUFFER_MB above 64")


def test_the_cli_refuses_a_bad_setting_in_one_line(run_jdx, tmp_path):
    empty = tmp_path / "empty.jar"
    zipfile.ZipFile(empty, "w").close()
    run = run_jdx("index", "--json", "--force", "--no-jdk", "--jars", str(empty), env={"JDX_BUILD_BUFFER_MB": "lots"})
    assert run.code == EXIT_USAGE, run
    assert "Traceback" not in run.err
    envelope = json.loads(run.out)
    assert envelope["error"]["code"] == "USAGE" and "JDX_BUILD_BUFFER_MB='lots'" in envelope["error"]["message"]
