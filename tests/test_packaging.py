"""`pip install .` (not editable) must ship the extractor's Java source: the package-data globs cover it all."""

import fnmatch
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_every_java_source_is_package_data():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    globs = config["tool"]["setuptools"]["package-data"]["jdx.loaders"]
    base = ROOT / "jdx" / "loaders"
    sources = sorted(p.relative_to(base).as_posix() for p in (base / "java").rglob("*.java"))
    assert sources, "the extractor's Java source is missing"
    unshipped = [s for s in sources if not any(fnmatch.fnmatch(s, g) for g in globs)]
    assert not unshipped, f"not in the wheel: {unshipped}"


def test_jdx_processes_allocate_arrow_memory_with_jemalloc_unless_the_user_chose():
    """Every jdx process (the CLI, the daemon, the extraction child: each imports jdx before pyarrow) uses jemalloc
    for Arrow where the wheel has it; a user's ARROW_DEFAULT_MEMORY_POOL wins."""
    import os
    import subprocess
    import sys

    import pytest

    if not sys.platform.startswith("linux"):
        pytest.skip("jemalloc is chosen on Linux only")
    probe = "import jdx, pyarrow as pa; print(pa.default_memory_pool().backend_name)"
    env = {k: v for k, v in os.environ.items() if k != "ARROW_DEFAULT_MEMORY_POOL"}
    has = subprocess.run([sys.executable, "-c", "import pyarrow as pa; pa.jemalloc_memory_pool()"], env=env,
                         capture_output=True).returncode == 0
    if not has:
        pytest.skip("this pyarrow has no jemalloc")
    got = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True, check=True)
    assert got.stdout.strip() == "jemalloc"
    chosen = subprocess.run([sys.executable, "-c", probe], env={**env, "ARROW_DEFAULT_MEMORY_POOL": "system"},
                            capture_output=True, text=True, check=True)
    assert chosen.stdout.strip() == "system"
