"""`resolve` of a package's dotted name (T43): `resolve io.opentelemetry.sdk.trace` said "not found" and offered that
very package as its first did-you-mean; a dotted name, whole or its trailing segments, is a package candidate as
the last segment alone already was. The oracle is the JDK's src.zip (the package's sources) and its module."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest

pytestmark = pytest.mark.soak  # a trial's regression family with its own graph builds: the soak runs it whole (.ci/run)


def _jdk_package_sources(package: str) -> list[str]:
    from jdx.loaders.jvm import find_java_home

    src = Path(find_java_home().home) / "lib" / "src.zip"
    if not src.is_file():
        pytest.skip("no JDK lib/src.zip (Debian/Ubuntu: apt-get install openjdk-17-source)")
    folder = "java.base/" + package.replace(".", "/") + "/"
    with zipfile.ZipFile(src) as z:
        return [n for n in z.namelist() if n.startswith(folder) and "/" not in n[len(folder):]]


@pytest.mark.parametrize("written", ["java.util.concurrent", "util.concurrent"])
def test_a_dotted_package_name_is_a_candidate(run_jdx, written):
    assert _jdk_package_sources("java.util.concurrent")  # the oracle: java.base holds the package
    r = run_jdx("resolve", written, "--json")
    assert r.code == 0, r.out + r.err
    candidates = json.loads(r.out)["result"]["candidates"]
    assert [(c["kind"], c["ref"], c["artifact"]) for c in candidates] == [
        ("package", "java.util.concurrent", "java.base")], candidates


def test_a_type_name_is_no_package_candidate(run_jdx):
    r = run_jdx("resolve", "java.util.Map", "--json")
    assert r.code == 0 and [c["kind"] for c in json.loads(r.out)["result"]["candidates"]] == ["interface"], r.out
