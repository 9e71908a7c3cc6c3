"""The thin client's import closure (spec §14.1, issue 10 part 5): standard library plus four small jdx modules,
never kuzu, pyarrow, typer, click, rich or the engine. Measured with `python -X importtime`."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FORBIDDEN = ("kuzu", "ladybug", "pyarrow", "typer", "click", "rich", "networkx", "jpype", "tree_sitter",
             "jdx.engine", "jdx.loaders", "jdx.graph_schema", "jdx.render", "jdx.cli")
ALLOWED_JDX = {"jdx", "jdx.errors", "jdx.dirs", "jdx.commands", "jdx.commands.wire", "jdx.daemon",
               "jdx.daemon.paths", "jdx.daemon.client"}


def imported_modules(statement: str) -> dict[str, int]:
    """Module -> cumulative import microseconds, from `python -X importtime -c statement`."""
    proc = subprocess.run([sys.executable, "-X", "importtime", "-c", statement], capture_output=True, text=True,
                          timeout=60, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.returncode == 0, proc.stderr
    modules = {}
    for line in proc.stderr.splitlines():
        if line.startswith("import time:") and "|" in line and "imported package" not in line:
            _self, cumulative, name = line.removeprefix("import time:").split("|")
            modules[name.strip()] = int(cumulative)
    return modules


def test_client_imports_only_the_standard_library_and_the_wire():
    modules = imported_modules("import jdx.daemon.client")
    assert "jdx.daemon.client" in modules
    heavy = sorted(m for m in modules if m.split(".")[0] in FORBIDDEN or m.startswith(FORBIDDEN))
    assert heavy == []
    assert {m for m in modules if m == "jdx" or m.startswith("jdx.")} <= ALLOWED_JDX
    print(f"import jdx.daemon.client: {modules['jdx.daemon.client'] / 1000:.1f} ms cumulative")


def test_cli_thin_client_path_imports_nothing_heavy():
    """What `jdx members X` imports before it asks a running daemon: the CLI entry, the registry lookup and
    the daemon key (which walks up to a project root with the standard library alone)."""
    modules = imported_modules("import jdx.cli.main; from jdx.commands.registry import command; command('members'); "
                               "from jdx.daemon.paths import workspace_flags; workspace_flags(); "
                               "import jdx.daemon.client")
    heavy = sorted(m for m in modules if m.split(".")[0] in FORBIDDEN[:9])
    assert heavy == []
    loaders = sorted(m for m in modules if m.startswith("jdx.loaders."))
    assert loaders == ["jdx.loaders.project_root"], loaders
    assert not any(m.startswith(("jdx.graph_schema", "jdx.render", "jdx.engine.members", "jdx.engine.session"))
                   for m in modules)
