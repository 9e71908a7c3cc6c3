"""Where a daemon lives (spec §17.1, §14.3): runtime dir precedence, private dirs only, the workspace key."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from jdx.daemon.paths import (
    SUN_PATH_MAX, check_socket_path, code_fingerprint, daemon_paths, runtime_dir, workspace_argv, workspace_flags,
    workspace_hash)
from jdx.errors import UsageError


@pytest.fixture
def env(monkeypatch, tmp_path):
    for name in ("JDX_RUNTIME_DIR", "XDG_RUNTIME_DIR", "TMPDIR", "JDX_WORKSPACE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("JDX_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("JDX_CONFIG_DIR", str(tmp_path / "config"))
    return monkeypatch


def test_runtime_dir_precedence(env, tmp_path):
    xdg, tmp = tmp_path / "xdg", tmp_path / "tmp"
    xdg.mkdir()
    tmp.mkdir()
    assert runtime_dir() == tmp_path / "cache" / "run"
    env.setenv("TMPDIR", str(tmp))
    assert runtime_dir() == tmp / f"jdx-{os.getuid()}"
    env.setenv("XDG_RUNTIME_DIR", str(xdg))
    assert runtime_dir() == xdg / "jdx"
    env.setenv("JDX_RUNTIME_DIR", str(tmp_path / "mine"))
    assert runtime_dir() == tmp_path / "mine" and (tmp_path / "mine").is_dir()
    assert (xdg / "jdx").stat().st_mode & 0o777 == 0o700


def test_a_shared_tmp_dir_someone_else_opened_is_skipped(env, tmp_path):
    tmp = tmp_path / "tmp"
    (tmp / f"jdx-{os.getuid()}").mkdir(parents=True)
    os.chmod(tmp / f"jdx-{os.getuid()}", 0o777)
    env.setenv("TMPDIR", str(tmp))
    assert runtime_dir() == tmp_path / "cache" / "run"


def test_names_are_version_stamped_and_side_by_side(env, tmp_path):
    env.setenv("JDX_RUNTIME_DIR", str(tmp_path / "rt"))
    ws = workspace_flags(jars=["a.jar"])
    paths = daemon_paths(ws)
    stem = paths.socket.name.removesuffix(".sock")
    assert stem.endswith("-v" + __import__("jdx").__version__)
    assert {p.name for p in (paths.socket, paths.pid, paths.lock, paths.log)} == {
        f"{stem}.sock", f"{stem}.pid", f"{stem}.lock", f"{stem}.log"}
    assert daemon_paths(ws, version="9.9.9").socket != paths.socket
    assert daemon_paths(ws, code="0" * 8).socket != paths.socket  # other jdx files: another daemon


def test_the_code_fingerprint_follows_the_package_files(tmp_path):
    fresh = code_fingerprint(fresh=True)
    assert fresh == code_fingerprint() and len(fresh) == 8
    pkg = tmp_path / "jdx"
    shutil.copytree(Path(__file__).resolve().parents[2] / "jdx", pkg, ignore=shutil.ignore_patterns("__pycache__"))
    copied = code_fingerprint(fresh=True, root=str(pkg))
    assert copied != fresh  # another checkout of the same version
    (pkg / "__pycache__").mkdir(exist_ok=True)
    (pkg / "__pycache__" / "x.cpython-311.pyc").write_bytes(b"\0")
    assert code_fingerprint(fresh=True, root=str(pkg)) == copied  # byte-code caches are not code
    edited = pkg / "engine" / "members.py"
    stat = edited.stat()
    edited.write_text(edited.read_text().replace("def ", "def  ", 1))
    os.utime(edited, ns=(stat.st_atime_ns, stat.st_mtime_ns))  # same mtime: the size still tells
    assert code_fingerprint(fresh=True, root=str(pkg)) != copied


def test_workspace_hash_is_stable_and_order_sensitive(env, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    a = workspace_flags(jars=["a.jar", "b.jar"])
    assert a["jars"] == [str(tmp_path / "a.jar"), str(tmp_path / "b.jar")]
    assert workspace_hash(a) == workspace_hash(workspace_flags(jars=[str(tmp_path / "a.jar"), "b.jar"]))
    assert workspace_hash(a) != workspace_hash(workspace_flags(jars=["b.jar", "a.jar"]))
    assert workspace_hash(a) != workspace_hash(workspace_flags(jars=["a.jar", "b.jar"], jdk=False))
    assert workspace_hash(workspace_flags()) != workspace_hash(workspace_flags(workspace="app"))
    env.setenv("JDX_WORKSPACE", "app")
    assert workspace_hash(workspace_flags()) == workspace_hash(workspace_flags(workspace="app"))


def test_workspace_argv_round_trips_through_the_cli_globals(env, tmp_path):
    from jdx.cli.main import split_globals

    ws = workspace_flags(workspace="app", jars=["/x/a.jar", "/y/*.jar"], src=["/s"], sources=["/z-sources.jar"],
                         jdk=False, cache_dir=str(tmp_path / "c"))
    g, rest = split_globals(["daemon", "run", *workspace_argv(ws)])
    assert rest == ["daemon", "run"]
    assert (g.workspace, g.jars, g.src, g.sources, g.jdk, g.cache_dir) == (
        "app", ["/x/a.jar", "/y/*.jar"], ["/s"], ["/z-sources.jar"], False, str(tmp_path / "c"))
    assert workspace_hash(g.workspace_key()) == workspace_hash(ws)


def test_sun_path_guard():
    check_socket_path(Path("/tmp/" + "a" * (SUN_PATH_MAX - 6)))
    with pytest.raises(UsageError) as info:
        check_socket_path(Path("/tmp/" + "a" * (SUN_PATH_MAX - 5)))
    assert info.value.exit_code == 3 and "JDX_RUNTIME_DIR" in info.value.hint


def test_answer_env_keys_the_daemon(env, tmp_path, monkeypatch):
    """A daemon answers with the JDK, ASM and repositories of the client that started it: a client whose JAVA_HOME
    (or other answer-changing variable) differs must reach another daemon (T36: a daemon started under JDK 17 told a
    JAVA_HOME=<JDK 25> client that java.lang.ScopedValue does not exist)."""
    from jdx.daemon.paths import ANSWER_ENV, daemon_paths

    import tempfile

    monkeypatch.chdir(tmp_path)
    env.setenv("JDX_RUNTIME_DIR", tempfile.mkdtemp(prefix="jx"))  # a socket path within the unix limit
    for name in ANSWER_ENV:
        env.delenv(name, raising=False)
    ws = workspace_flags(jars=["a.jar"])
    plain = workspace_hash(ws)
    env.setenv("JAVA_HOME", "/usr/lib/jvm/temurin-25-jdk-amd64")
    jdk25 = workspace_hash(ws)
    env.setenv("JAVA_HOME", "/usr/lib/jvm/java-17-openjdk-amd64")
    jdk17 = workspace_hash(ws)
    assert len({plain, jdk25, jdk17}) == 3
    paths17 = daemon_paths(ws)
    env.setenv("JDX_ASM_JAR", "/opt/asm-9.10.jar")
    assert workspace_hash(ws) != jdk17 and daemon_paths(ws).socket != paths17.socket
    env.delenv("JDX_ASM_JAR")
    env.setenv("JDX_NO_DAEMON", "1")  # how to reach a daemon is no answer's input
    assert workspace_hash(ws) == jdk17


def test_a_project_subdirectory_keys_the_project_roots_daemon(env, tmp_path):
    """`--project proj/src` answers from proj (the project root found there or above): one daemon, not two."""
    proj = tmp_path / "proj"
    (proj / "src" / "main").mkdir(parents=True)
    (proj / "pom.xml").write_text("<project/>")
    root = workspace_flags(project=str(proj))
    assert root["project"] == str(proj)
    for sub in (proj / "src", proj / "src" / "main"):
        assert workspace_flags(project=str(sub)) == root
        assert workspace_hash(workspace_flags(project=str(sub))) == workspace_hash(root)
    assert workspace_flags(project=str(tmp_path / "missing"))["project"] == str(tmp_path / "missing")
