"""One repository, Maven project and Gradle project per test session (built with javac in the embedded JVM)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from jdx.loaders.maven_resolver import maven_lib
from tests.maven import fixture as fx

WORKTREE = Path(__file__).resolve().parents[2]
NO_MAVEN = "Maven's resolver jars are absent (/usr/share/maven/lib; apt-get install maven)"


@dataclass
class World:
    root: Path
    repo: Path
    maven: Path
    gradle: Path
    gradle_cache: Path
    cache: Path


@pytest.fixture(scope="session")
def world(tmp_path_factory, jdx_home) -> World:
    if maven_lib() is None:
        pytest.skip(NO_MAVEN)
    root = tmp_path_factory.mktemp("mvn")
    repo = fx.build_repository(root)
    maven = fx.build_maven_project(root, repo)
    gradle = fx.build_gradle_project(root, repo)
    # util and its POM only in the Gradle cache; util's own dependencies come from the Maven repository
    cache = fx.gradle_cache_from(repo, root / "gradle-files-2.1", [("util", "1.0")])
    return World(root, repo, maven, gradle, cache, jdx_home / "cache")


@pytest.fixture(scope="session")
def world_env(world, jdx_env) -> dict:
    """The CLI's environment: the test repository and Gradle cache instead of the machine's."""
    return {**jdx_env, "JDX_MAVEN_REPO": str(world.repo), "JDX_GRADLE_CACHE": str(world.gradle_cache),
            "PYTHONPATH": str(WORKTREE) + os.pathsep + jdx_env.get("PYTHONPATH", "")}


def batch(env: dict, cwd: Path, lines: list[str], *flags: str) -> list[dict]:
    """`jdx --json batch` run in `cwd`: one envelope per line."""
    proc = subprocess.run([sys.executable, "-m", "jdx", "--json", *flags, "batch"], input="\n".join(lines) + "\n",
                          capture_output=True, text=True, env=env, cwd=cwd, timeout=600)
    assert proc.returncode == 0, proc.stderr
    out = [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]
    assert len(out) == len(lines), proc.stdout + proc.stderr
    return out


def jdx(env: dict, cwd: Path, *args: str):
    return subprocess.run([sys.executable, "-m", "jdx", *args], capture_output=True, text=True, env=env, cwd=cwd,
                          timeout=600)
