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
