"""An artifact the extractor cannot read is named by its own path: the extracted shard is keyed by content, and a
second empty `.jar` elsewhere (the same bytes) was reported under the first one's path (`other.jar:
jar:/tmp/empty.jar: ZipException: zip file is empty`), sending an agent to the wrong file."""

from __future__ import annotations

import json


def test_a_second_file_with_the_same_bytes_names_its_own_path(run_jdx, tmp_path):
    first, second = tmp_path / "a" / "empty.jar", tmp_path / "b" / "other.jar"
    for path in (first, second):
        path.parent.mkdir()
        path.write_bytes(b"")
    for path in (first, second):
        r = run_jdx("index", "--no-jdk", "--jars", str(path), "--json")
        warned = [w for w in json.loads(r.out)["warnings"] if w["code"] == "ARTIFACT_READ_ERROR"]
        assert warned and all(f"jar:{path}" in w["message"] for w in warned), (path, warned)
        other = first if path == second else second
        assert not any(str(other) in w["message"] for w in warned), warned
