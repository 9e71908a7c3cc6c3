"""`--fetch` / `--repo` (spec §13): a coordinate absent locally is downloaded by Maven Resolver from a repository
served on 127.0.0.1 into `<cache-dir>/m2`, checksums verified, its sources jar too; never any request without
--fetch."""

from __future__ import annotations

import hashlib
import http.server
import re
import shutil
import socket
import subprocess
import sys
import threading
import zipfile
from pathlib import Path

import pytest

from jdx.loaders.maven_resolver import maven_lib
from tests.fixtures import jdktool
from tests.maven import fixture as fx

GROUP = "com.example.fetch"
LIB_SOURCE = ("package com.example.fetch.lib;\n\n/** Fetched from a remote repository. */\n"
              "public class Lib {\n"
              "    public static final String NAME = \"lib\";\n"
              "    public Lib() {}\n"
              "    public String greet(String who) {\n"
              "        return \"hello \" + who + new com.example.fetch.dep.Dep().tag();\n    }\n"
              "    public static int twice(int n) { return 2 * n; }\n"
              "    protected void hidden() {}\n"
              "}\n")
DEP_SOURCE = ("package com.example.fetch.dep;\n\npublic class Dep {\n"
              "    public String tag() { return \"!\"; }\n}\n")
BAD_SOURCE = "package com.example.fetch.bad;\n\npublic class Bad {\n    public void x() {}\n}\n"


def _checksums(path: Path) -> None:
    data = path.read_bytes()
    path.with_name(path.name + ".sha1").write_text(hashlib.sha1(data).hexdigest())
    path.with_name(path.name + ".md5").write_text(hashlib.md5(data).hexdigest())


def _artifact(repo: Path, classes: Path, artifact: str, rel: str, source: str, pom_body: str = "",
              with_sources: bool = False) -> Path:
    folder = repo.joinpath(*GROUP.split("."), artifact, "1.0")
    jar = folder / f"{artifact}-1.0.jar"
    fx._jar(classes, jar, GROUP, artifact, "1.0", rel.rsplit("/", 1)[0] + "/")
    pom = folder / f"{artifact}-1.0.pom"
    pom.write_text(fx._pom(artifact, "1.0", pom_body, group=GROUP))
    for f in (jar, pom):
        _checksums(f)
    if with_sources:
        src = folder / f"{artifact}-1.0-sources.jar"
        with zipfile.ZipFile(src, "w") as z:
            z.writestr(rel, source)
        _checksums(src)
    return jar


SOURCES = {"dep": ("com/example/fetch/dep/Dep.java", DEP_SOURCE), "lib": ("com/example/fetch/lib/Lib.java", LIB_SOURCE),
           "bad": ("com/example/fetch/bad/Bad.java", BAD_SOURCE)}


def build_remote(root: Path) -> Path:
    """`lib` (with its sources jar) depends on `dep`; `bad`'s jar does not match its .sha1."""
    repo = root / "remote"
    classes = root / "classes"
    fx.javac(dict(SOURCES.values()), classes)  # one javac for the three artifacts, split by package into jars
    _artifact(repo, classes, "dep", *SOURCES["dep"])
    _artifact(repo, classes, "lib", *SOURCES["lib"], fx.deps(fx.dep("dep", "1.0", group=GROUP)), with_sources=True)
    bad = _artifact(repo, classes, "bad", *SOURCES["bad"])
    with zipfile.ZipFile(bad, "a") as z:  # the jar changed after its checksum was taken
        z.writestr("extra.txt", "tampered")
    return repo


class Served:
    """A directory served over HTTP on 127.0.0.1, counting requests."""

    def __init__(self, folder: Path):
        served = self
        self.paths: list[str] = []

        class Handler(http.server.SimpleHTTPRequestHandler):
            def __init__(self, *args, **kwargs):
                super().__init__(*args, directory=str(folder), **kwargs)

            def log_message(self, *args):
                pass

            def do_GET(self):
                served.paths.append(self.path)
                super().do_GET()

            def do_HEAD(self):
                served.paths.append(self.path)
                super().do_HEAD()

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/maven"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def remote(tmp_path_factory, jdx_env):
    if maven_lib() is None:
        pytest.skip("Maven's resolver jars are absent (/usr/share/maven/lib; apt-get install maven)")
    root = tmp_path_factory.mktemp("fetch")
    repo = build_remote(root)
    www = root / "www"
    www.mkdir()
    (www / "maven").symlink_to(repo)
    served = Served(www)
    # the resolver helper, compiled once into the session's cache (other Maven tests may have done it already), is
    # what each test's own cache starts from; nothing is fetched there
    helper = Path(jdx_env["JDX_CACHE_DIR"]) / "maven-helper"
    if not helper.is_dir():
        subprocess.run([sys.executable, "-m", "jdx", "--coord", f"{GROUP}:warm:1.0", "members", "x.Y", "--no-jdk"],
                       env={**jdx_env, "JDX_MAVEN_REPO": str(root / "empty")}, capture_output=True, timeout=600)
    yield served, repo, helper
    served.close()


@pytest.fixture()
def env(remote, jdx_env, tmp_path):
    """Its own cache (so <cache>/m2 starts empty), an empty local repository and home, and a Central that refuses
    connections: nothing comes from this machine's ~/.m2 or the network."""
    served, _repo, helper = remote
    home = tmp_path / "home"
    (home / ".m2" / "repository").mkdir(parents=True)
    cache = tmp_path / "cache"
    cache.mkdir()
    if helper.is_dir():
        shutil.copytree(helper, cache / "maven-helper")
    out = {**jdx_env, "HOME": str(home), "JDX_MAVEN_REPO": str(home / ".m2" / "repository"),
           "JDX_GRADLE_CACHE": str(tmp_path / "no-gradle"), "JDX_CACHE_DIR": str(cache),
           "JDX_CONFIG_DIR": str(tmp_path / "config"),
           "JDX_MAVEN_CENTRAL": f"http://127.0.0.1:{_closed_port()}/maven2"}
    out.pop("JDX_FETCH", None)
    served.paths.clear()
    return out


def _m2(env: dict) -> Path:
    return Path(env["JDX_CACHE_DIR"]) / "m2" / GROUP.replace(".", "/")


def _public_members(jar: Path, cls: str) -> set[str]:
    """The oracle: the public members javap prints, as simple names."""
    out = jdktool.run(["javap", "-public", "-cp", str(jar), cls], check=True, capture_output=True, text=True).stdout
    names = set()
    for line in out.splitlines()[2:]:
        line = line.strip().rstrip(";")
        if not line or line == "}":
            continue
        head = line.split("(")[0].split()
        names.add(head[-1].rsplit(".", 1)[-1])
    return names


@pytest.mark.soak  # ~7 s: a local HTTP repository, a download and a cold index; CI's soak runs it
def test_fetch_downloads_artifact_dependency_and_answers(run_jdx, env, remote):
    served, repo, _helper = remote
    lib = f"{GROUP}:lib:1.0"
    r = run_jdx("--fetch", "--repo", served.url, "--coord", lib, "members", "com.example.fetch.lib.Lib", "--no-jdk",
                env=env)
    assert r.code == 0, r.out + r.err
    assert f"FETCHED: {lib} from {served.url}" in r.out + r.err
    assert f"FETCHED: {GROUP}:dep:1.0 from {served.url}" in r.out + r.err
    assert (_m2(env) / "lib/1.0/lib-1.0.jar").read_bytes() == (repo / GROUP.replace(".", "/") / "lib/1.0/lib-1.0.jar"
                                                               ).read_bytes()
    assert (_m2(env) / "dep/1.0/dep-1.0.jar").is_file()
    assert not list(Path(env["JDX_MAVEN_REPO"]).rglob("*")), "the local repository is never written"
    expected = _public_members(repo / GROUP.replace(".", "/") / "lib/1.0/lib-1.0.jar", "com.example.fetch.lib.Lib")
    assert expected >= {"Lib", "greet", "twice", "NAME"}
    shown = set(re.findall(r"\b(\w+)\(", r.out)) | set(re.findall(r"\b([A-Z_]{2,})\b", r.out))
    assert expected <= shown, (expected, r.out)
    assert "hidden" not in r.out or "protected" in r.out
    assert served.paths, "the repository was asked"

    # (b) the same line without --fetch answers from <cache>/m2: no request at all
    before = len(served.paths)
    again = run_jdx("--coord", lib, "members", "com.example.fetch.lib.Lib", "--no-jdk", env=env)
    assert again.code == 0, again.out + again.err
    assert "FETCHED" not in again.out + again.err
    assert len(served.paths) == before
    assert again.out.split("⚠")[0] == r.out.split("⚠")[0]

    # (e) the sources jar came too: `source` shows the real text
    src = run_jdx("--coord", lib, "source", "com.example.fetch.lib.Lib", "--no-jdk", env=env)
    assert src.code == 0, src.out + src.err
    assert (_m2(env) / "lib/1.0/lib-1.0-sources.jar").is_file()
    assert "/** Fetched from a remote repository. */" in src.out
    assert len(served.paths) == before


@pytest.mark.soak  # slow: the soak runs it (.ci/run)
def test_without_fetch_no_request_and_the_message_says_how(run_jdx, env, remote):
    served, _repo, _helper = remote
    r = run_jdx("--repo", served.url, "--coord", f"{GROUP}:lib:1.0", "members", "com.example.fetch.lib.Lib",
                "--no-jdk", env=env)
    assert r.code == 5, r.out + r.err
    assert "--fetch" in r.err
    assert "not in the local repository" in r.err
    assert "Traceback" not in r.err
    assert served.paths == []
    assert not (Path(env["JDX_CACHE_DIR"]) / "m2").exists()


@pytest.mark.soak  # slow: the soak runs it (.ci/run)
def test_checksum_mismatch_fails_and_leaves_nothing(run_jdx, env, remote):
    served, _repo, _helper = remote
    r = run_jdx("--fetch", "--repo", served.url, "--coord", f"{GROUP}:bad:1.0", "members",
                "com.example.fetch.bad.Bad", "--no-jdk", env=env)
    assert r.code == 5, r.out + r.err
    assert "checksum" in r.err.lower()
    assert f"{GROUP}:bad:1.0" in r.err
    assert "Traceback" not in r.err
    assert not list((_m2(env) / "bad").rglob("*.jar")), "nothing usable is left for a later offline read"


@pytest.mark.soak  # slow: the soak runs it (.ci/run)
def test_missing_everywhere_names_the_repositories_tried(run_jdx, env, remote):
    served, _repo, _helper = remote
    r = run_jdx("--fetch", "--repo", served.url, "--coord", f"{GROUP}:nowhere:1.0", "members", "x.Y", "--no-jdk",
                env=env)
    assert r.code == 5, r.out + r.err
    assert "Traceback" not in r.err
    line = next(ln for ln in r.err.splitlines() if f"{GROUP}:nowhere:1.0" in ln)
    assert served.url in line and env["JDX_MAVEN_CENTRAL"] in line
    assert any("nowhere" in p for p in served.paths)


def test_bad_repo_url_is_a_usage_error(run_jdx, env):
    r = run_jdx("--fetch", "--repo", "ftp://x/y", "--coord", f"{GROUP}:lib:1.0", "members", "x.Y", "--no-jdk",
                env=env)
    assert r.code == 3, r.out + r.err
    assert "--repo" in r.err and "Traceback" not in r.err


@pytest.mark.soak  # slow: the soak runs it (.ci/run)
def test_config_fetch_and_repos_serve_diff_of_coordinates(run_jdx, env, remote):
    """`fetch = true` and `repos = [...]` in config.toml turn fetching on without flags; `diff g:a:v g:a:v` reads
    each side's jar from the remote repository into <cache>/m2."""
    served, _repo, _helper = remote
    config = Path(env["JDX_CONFIG_DIR"])
    config.mkdir(parents=True, exist_ok=True)
    (config / "config.toml").write_text(f'fetch = true\nrepos = ["{served.url}"]\n')
    r = run_jdx("diff", f"{GROUP}:dep:1.0", f"{GROUP}:lib:1.0", env=env)
    assert r.code == 0, r.out + r.err
    assert "TYPE_REMOVED  com.example.fetch.dep.Dep" in r.out
    assert f"FETCHED: {GROUP}:lib:1.0 from {served.url}" in r.out + r.err
    assert (_m2(env) / "dep/1.0/dep-1.0.jar").is_file()
