"""A `--src` or `--sources` path on the command line that does not exist is an error naming it (exit 5), as a missing
`--jars` path is: before, the answer said NO_SOURCES and asked for the very flag given (T92)."""

from __future__ import annotations

import json

import pytest

from tests.fixtures.build import fixtures_jar


@pytest.mark.parametrize("flag", ["--src", "--sources"])
def test_a_missing_source_path_is_an_error_naming_it(run_jdx, jdx_home, tmp_path, flag):
    missing = tmp_path / "no" / "such"
    base = ["--no-jdk", "--jars", str(fixtures_jar(jdx_home)), flag, str(missing)]
    r = run_jdx(*base, "doc", "fx.Box#size")
    assert r.code == 5, r.out + r.err
    assert f"cannot read {flag} {missing}: no such file or directory" in r.err, r.err
    data = json.loads(run_jdx(*base, "doc", "fx.Box#size", "--json").out)
    assert data["error"]["code"] == "ARTIFACT_READ_ERROR" and str(missing) in data["error"]["message"]
    missing.mkdir(parents=True)  # once it exists, the answer is given
    assert run_jdx(*base, "doc", "fx.Box#size").code == 0
