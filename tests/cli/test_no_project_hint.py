"""A name not found in the default workspace (no flags, no project discovered: the JDK alone) says that no project
was discovered from the current directory, so an agent in the wrong directory learns why; with a workspace
given (--jars), or for a JDK name, no such hint."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest

HINT = "no project was discovered from the current directory"


def _jdx(env, cwd, *args) -> dict:
    proc = subprocess.run([sys.executable, "-m", "jdx", *args, "--json"], capture_output=True, text=True, env=env,
                          cwd=cwd, timeout=600)
    return json.loads(proc.stdout)


@pytest.mark.soak  # ~3 s: a cold process on the JDK; CI's soak runs it
def test_the_default_workspace_says_no_project_was_found(jdx_env, tmp_path):
    (tmp_path / "a" / "b").mkdir(parents=True)
    env = _jdx(jdx_env, tmp_path / "a" / "b", "show", "com.acme.Missing")
    assert env["error"]["code"] == "NOT_FOUND"
    assert HINT in env["error"]["hint"]
    jdk = _jdx(jdx_env, tmp_path / "a" / "b", "show", "java.util.HashMapp")
    assert HINT not in (jdk["error"].get("hint") or "")

@pytest.mark.soak  # slow: the soak runs it (.ci/run)

def test_an_explicit_workspace_has_no_such_hint(jdx_env, tmp_path):
    if shutil.which("javac") is None:
        pytest.skip("javac is not installed")
    from tests.fixtures.javac import javac_jar

    jar, _ = javac_jar(tmp_path / "w", {"nh/A.java": "package nh;\npublic class A { }"}, "nh", "nh.jar")
    env = _jdx(jdx_env, tmp_path, "--no-jdk", "--jars", str(jar), "show", "nh.Missing")
    assert env["error"]["code"] == "NOT_FOUND"
    assert HINT not in json.dumps(env)
