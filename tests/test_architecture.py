"""The layers of DESIGN.md §3 are a contract: adapters -> engine -> loaders -> graph_schema; only graph_schema imports kuzu."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_import_linter_contracts_hold():
    proc = subprocess.run([sys.executable, "-c", "import sys; from importlinter.cli import lint_imports_command; "
                           "sys.exit(lint_imports_command())"], cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Contracts: 2 kept, 0 broken" in proc.stdout


def test_every_command_has_help_with_an_example():
    from jdx.cli import commands, commands_read  # noqa: F401 - registers commands

    for group in (commands.app, commands.ws_app, commands.cache_app):
        for info in group.registered_commands:
            doc = (info.callback.__doc__ or "").strip()
            assert doc, f"{info.callback.__name__} has no help"
            assert "Example: jdx" in doc, f"{info.callback.__name__}: help needs an example"
