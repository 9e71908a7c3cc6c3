"""The compiled fixture suite, shared by every diff test of the session (built once: one JVM)."""

from __future__ import annotations

import pytest

from tests.diff.shim import main
from tests.diff.suite import build_suite
from tests.fixtures.build import write_jar


@pytest.fixture(scope="session")
def diff_suite(tmp_path_factory):
    return build_suite(tmp_path_factory.mktemp("diff-suite"))


@pytest.fixture(scope="session")
def diff_jars(diff_suite):
    """(old.jar, new.jar) of the whole suite, written deterministically."""
    out = []
    for side in ("old", "new"):
        folder = diff_suite.root / side
        jar = diff_suite.root / f"{side}.jar"
        write_jar(jar, {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*.class"))})
        out.append(jar)
    return tuple(out)


@pytest.fixture()
def diff(jdx_home):
    """`jdx diff ARGS` in process on the session's cache: (exit code, stdout + stderr)."""
    def call(*args: str) -> tuple[int, str]:
        return main([*args, "--cache-dir", str(jdx_home / "cache")])
    return call
