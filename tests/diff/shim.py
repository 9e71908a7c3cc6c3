"""`jdx diff ...` through the real CLI entry point, in process: (exit code, stdout + stderr)."""

from __future__ import annotations

import contextlib
import io

from jdx.cli.main import main as cli_main


def main(argv: list[str]) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        code = cli_main(["diff", *argv])
    return code, out.getvalue().rstrip("\n")


def version_jars(root, old: dict[str, str], new: dict[str, str], package: str):
    """(root, old.jar, new.jar): the two versions of package `package` compiled by javac under `root`."""
    from tests.fixtures.javac import javac_jar

    return root, javac_jar(root / "old", old, package, "old.jar")[0], javac_jar(root / "new", new, package, "new.jar")[0]


def findings_json(cache_dir, old, new) -> list[dict]:
    """The findings of `jdx diff old new --json` (every one), with the cache in `cache_dir`."""
    import json

    code, text = main([str(old), str(new), "--json", "--limit", "1000", "--cache-dir", str(cache_dir)])
    assert code == 0, text
    return json.loads(text)["result"]["findings"]
