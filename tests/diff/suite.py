"""Builds the fixture suite of `cases.py` once per session: sources written, compiled and linkage-checked in one
JVM (`DiffFixtures.java`), then diffed old -> new as two class directories."""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.diff.cases import CASES, EDITS, SCENARIOS

HERE = Path(__file__).resolve().parent


@dataclass
class Suite:
    root: Path
    linkage: dict[tuple[str, str], tuple[str, ...]]  # (case, side) -> () when it ran, else the thrown class chain
    messages: dict[tuple[str, str], str]


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def write_sources(src: Path) -> None:
    edits = [(side, f"p_{c.name}/{cls}", member, flag) for c in [*CASES, *SCENARIOS]
             for side, cls, member, flag in c.edits]
    assert all(e[3] in EDITS for e in edits), edits
    _write(src / "edits.tsv", "".join("\t".join(e) + "\n" for e in edits))
    for case in CASES:
        pkg = f"p_{case.name}"
        _write_side(src / "old" / pkg, pkg, case.old)
        _write_side(src / ("new-nodebug" if case.nodebug else "new") / pkg, pkg, case.new)
        cpkg = f"c_{case.name}"
        if case.caller is not None:
            _write(src / "callers" / cpkg / "Caller.java",
                   f"package {cpkg};\npublic class Caller {{\n"
                   f"    public static void run() throws Exception {{ {case.caller} }}\n}}\n")
            _write_side(src / "callers" / cpkg, cpkg, case.extra)
        if case.driver is not None:
            _write(src / "drivers" / cpkg / "Driver.java",
                   f"package {cpkg};\npublic class Driver {{ public static void run() {{ {case.driver} }} }}\n")
    for sc in SCENARIOS:
        pkg = f"p_{sc.name}"
        _write_side(src / "old" / pkg, pkg, sc.old)
        _write_side(src / "new" / pkg, pkg, sc.new)


def _write_side(folder: Path, pkg: str, classes: dict[str, str]) -> None:
    for name, body in classes.items():
        _write(folder / f"{name}.java", f"package {pkg};\n{body}\n")


def build_suite(root: Path) -> Suite:
    java = shutil.which("java")
    if java is None or shutil.which("javac") is None:
        pytest.skip("java/javac are not installed")
    shutil.rmtree(root, ignore_errors=True)
    write_sources(root / "src")
    proc = subprocess.run([java, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", str(HERE / "DiffFixtures.java"),
                           str(root)], capture_output=True, text=True, timeout=300)
    if proc.returncode != 0:
        raise AssertionError(f"fixture build failed:\n{proc.stderr[-3000:]}")
    linkage, messages = {}, {}
    for line in proc.stdout.splitlines():
        parts = line.split("\t")
        key = (parts[0], parts[1])
        linkage[key] = () if parts[2] == "OK" else tuple(parts[2].split(","))
        messages[key] = parts[3] if len(parts) > 3 else ""
    return Suite(root, linkage, messages)
