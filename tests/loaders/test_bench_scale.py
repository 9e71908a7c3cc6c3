"""`jdx bench --scale`: the local Maven repository plus the JDK as one workspace, and its skip reason."""

from __future__ import annotations

import shutil
import tempfile

import pytest

from tests.conftest import GSON


def test_scale_rows_say_why_they_are_skipped_without_a_repository(tmp_path, monkeypatch):
    from jdx.bench import scale

    monkeypatch.setenv("JDX_MAVEN_REPO", str(tmp_path / "absent"))
    rows = scale.rows()
    assert len(rows) == 1 and rows[0]["value"].startswith("skipped: no local Maven repository at ")
    assert str(tmp_path / "absent") in rows[0]["value"] and "JDX_MAVEN_REPO" in rows[0]["value"]


@pytest.mark.soak
def test_scale_rows_index_a_repository_with_the_jdk_and_ask_it(tmp_path, monkeypatch):
    if not GSON.exists():
        pytest.skip(f"{GSON} is absent (apt-get install libgoogle-gson-java)")
    from jdx.bench import scale

    repo = tmp_path / "m2"
    version = repo / "com" / "google" / "code" / "gson" / "gson" / "2.10"
    version.mkdir(parents=True)
    shutil.copy(GSON, version / "gson-2.10.jar")
    monkeypatch.setenv("JDX_MAVEN_REPO", str(repo))
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    rows = scale.rows(iterations=1)
    assert [r["name"].split("`")[1] if "`" in r["name"] else "index" for r in rows] == [
        "index", "usages java.util.List#size()", "usages java.util.List#size()", "hierarchy java.util.AbstractList",
        "hierarchy java.util.Collection"]
    assert rows[1]["name"].startswith("scale: first ") and all("slowest" in r["value"] for r in rows[2:])
    index = rows[0]
    assert index["classes"] > 26_000 and index["rss"] > 0 and index["cache_bytes"] > 0, index
    assert "71 artifacts (1 jars" in index["value"], index["value"]
    assert all(r["seconds"] > 0 for r in rows[1:])
    assert "sites" in rows[2]["value"]
    assert not any(p.name.startswith("jdx-bench-scale-") for p in tmp_path.iterdir())  # the cache is removed
