"""Golden text of `jdx diff` over the fixture suite (relative paths, so nothing machine-specific is printed).
Regenerate with `JDX_UPDATE_GOLDENS=1 pytest tests/diff/test_golden.py`, then review the diff."""

from __future__ import annotations

import pytest

from tests.cli.golden import GOLDENS, check, in_process


@pytest.mark.parametrize("name, args", [
    ("diff-suite.txt", ["--limit", "1000"]),
    ("diff-suite-breaking.txt", ["--severity", "breaking", "--limit", "5", "--fail-on", "breaking"]),
])
def test_diff_text_golden(name, args, diff_jars, diff_suite, jdx_env, jdx_home, monkeypatch):
    monkeypatch.chdir(diff_suite.root)
    with in_process(jdx_env) as run:
        result = run(["diff", "old.jar", "new.jar", *args])
    check(GOLDENS / name, result, 1 if "--fail-on" in args else 0, jdx_home)
