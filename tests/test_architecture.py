"""The layers of DESIGN.md §3 are a contract (adapters -> commands -> engine | loaders | render -> graph_schema;
only graph_schema imports kuzu), and every command module is reachable and documented."""

import importlib
import pkgutil
import subprocess
import sys
from pathlib import Path

import jdx

ROOT = Path(__file__).resolve().parent.parent


def test_import_linter_contracts_hold():
    proc = subprocess.run([sys.executable, "-c", "import sys; from importlinter.cli import lint_imports_command; "
                           "sys.exit(lint_imports_command())"], cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Contracts: 2 kept, 0 broken" in proc.stdout


def test_every_module_imports():
    """Every module of the package imports on its own (so the linter sees every edge, and nothing is dead)."""
    for info in pkgutil.walk_packages(jdx.__path__, "jdx."):
        if info.name != "jdx.__main__":
            importlib.import_module(info.name)


def test_every_command_module_is_in_the_registry():
    from jdx.commands import registry

    modules = {c.run.__module__ for c in registry.registry()}
    on_disk = {f"jdx.commands.{p.stem}" for p in (ROOT / "jdx" / "commands").glob("*.py")
               if "COMMANDS = (" in p.read_text()}
    assert modules == on_disk == set(registry.MODULES)


def test_every_command_has_help_with_an_example():
    from jdx.cli import commands
    from jdx.commands.registry import registry

    for cmd in registry():
        assert cmd.summary.endswith(".") and "\n" not in cmd.summary, cmd.name
        assert cmd.example.startswith(f"jdx {cmd.name}"), cmd.name
    for group in (commands.app, commands.ws_app, commands.cache_app):
        for info in group.registered_commands:
            doc = (info.callback.__doc__ or "").strip()
            assert doc, f"{info.callback.__name__} has no help"
            assert "Example: jdx" in doc, f"{info.callback.__name__}: help needs an example"
