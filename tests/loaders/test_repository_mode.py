"""Repository mode: `--jars <a local Maven repository root>` takes the newest version of each artifact, or every
version with `--all-versions`; a directory that is not laid out as a repository still gives all its jars.

Which version is newest is Maven's call: the version order is checked against Maven's own
`ComparableVersion` (Debian's maven-artifact jar) on tricky pairs and on every artifact of the machine's local
repository (skipped where absent)."""

from __future__ import annotations

import os
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest

from jdx.loaders.maven_repo import compare_versions, repository_jars
from jdx.loaders.roots import expand_jar_arg

from tests.fixtures import jdktool

MAVEN_ARTIFACT = Path("/usr/share/java/maven-artifact-3.x.jar")
M2 = Path.home() / ".m2" / "repository"

# (path in the repository, class it holds): one class per version, so which jar was taken shows in the graph
LAYOUT = {
    "com/acme/lib/1.9/lib-1.9.jar": "v1_9",
    "com/acme/lib/1.10/lib-1.10.jar": "v1_10",
    "com/acme/lib/2.0-rc1/lib-2.0-rc1.jar": "v2_0_rc1",
    "com/acme/lib/1.10/lib-1.10-tests.jar": "tests1_10",
    "com/acme/lib/1.10/lib-1.10-sources.jar": None,
    "org/x/util/0.8/util-0.8.jar": "u0_8",
    "org/x/util/0.9-SNAPSHOT/util-0.9-20240101.101010-1.jar": "u0_9_b1",
    "org/x/util/0.9-SNAPSHOT/util-0.9-20240202.101010-2.jar": "u0_9_b2",
    "org/x/util-core/3.0/util-core-3.0.jar": "core3",
}
# ordered by group, then artifact; an artifact's versions newest first
NEWEST = ["com/acme/lib/2.0-rc1/lib-2.0-rc1.jar", "org/x/util/0.9-SNAPSHOT/util-0.9-20240202.101010-2.jar",
          "org/x/util-core/3.0/util-core-3.0.jar"]
EVERY = ["com/acme/lib/2.0-rc1/lib-2.0-rc1.jar", "com/acme/lib/1.10/lib-1.10.jar", "com/acme/lib/1.9/lib-1.9.jar",
         "org/x/util/0.9-SNAPSHOT/util-0.9-20240202.101010-2.jar", "org/x/util/0.8/util-0.8.jar",
         "org/x/util-core/3.0/util-core-3.0.jar"]
PAIRS = ["1.9 1.10", "2.0-rc1 2.0", "2.0 2.0.1", "1.0 1.0.0", "1.0-SNAPSHOT 1.0", "1.0-SNAPSHOT 0.9", "1.0-sp1 1.0",
         "31.1-jre 31.1-android", "0.9.0.M4 0.9.0.M3", "4.0.0-M15 4.0.0-M9", "4.0.0-M15 4.0.0", "1.0-alpha-2 1.0-beta",
         "1.0.0.v20140518 0.9.0.M2", "2.0.0-alpha1 2.0.0-beta1", "33.0.0-jre 32.1.3-jre", "1.0-rc1 1.0-cr2",
         "1.0-ga 1.0", "1.0-final 1.0", "1.0-milestone-1 1.0-m2", "2.17.0 2.9.1", "1.0.0-RC1 1.0.0-rc2"]


@pytest.fixture(scope="module")
def repo(tmp_path_factory) -> Path:
    if shutil.which("javac") is None:
        pytest.skip("javac is not installed")
    work = tmp_path_factory.mktemp("m2")
    src, classes = work / "src", work / "classes"
    names = sorted({c for c in LAYOUT.values() if c})
    for name in names:
        (src / name).mkdir(parents=True)
        (src / name / "Lib.java").write_text(f"package {name}; public class Lib {{ public int {name}() {{ return 1; }} }}")
    jdktool.run(["javac", "--release", "11", "-d", str(classes), *[str(src / n / "Lib.java") for n in names]],
                   check=True, capture_output=True)
    root = work / "repository"
    for rel, name in LAYOUT.items():
        jar = root / rel
        jar.parent.mkdir(parents=True, exist_ok=True)
        with zipfile.ZipFile(jar, "w") as z:
            if name:
                z.write(classes / name / "Lib.class", f"{name}/Lib.class")
            else:
                z.writestr("v1_10/Lib.java", "package v1_10; public class Lib {}")
    (root / "com/acme/lib/maven-metadata-local.xml").write_text("<metadata/>")
    return root


def _rel(root: Path, paths) -> list[str]:
    return [Path(p).relative_to(root).as_posix() for p in paths]


def test_a_repository_root_gives_the_newest_version_of_each_artifact(repo):
    paths, warnings = expand_jar_arg(str(repo))
    assert not warnings and _rel(repo, paths) == NEWEST


def test_all_versions_gives_every_version_newest_first(repo):
    paths, warnings = expand_jar_arg(str(repo), all_versions=True)
    assert not warnings and _rel(repo, paths) == EVERY


@pytest.mark.parametrize("subtree, newest", [
    ("com/acme/lib", ["com/acme/lib/2.0-rc1/lib-2.0-rc1.jar"]),  # an artifact's directory: its versions
    ("com/acme", ["com/acme/lib/2.0-rc1/lib-2.0-rc1.jar"]),  # a group's
    ("org", NEWEST[1:]),
    ("com/acme/lib/1.10", ["com/acme/lib/1.10/lib-1.10.jar"]),  # one version's: its main jar, no classifier
])
def test_a_subtree_of_a_repository_gives_the_newest_version_of_each_artifact_in_it(repo, subtree, newest):
    paths, warnings = expand_jar_arg(str(repo / subtree))
    assert not warnings and _rel(repo, paths) == newest


def test_a_directory_not_laid_out_as_a_repository_gives_all_its_jars(repo, tmp_path):
    flat = tmp_path / "libs"
    flat.mkdir()
    for rel in LAYOUT:
        shutil.copy(repo / rel, flat / Path(rel).name)
    paths, _ = expand_jar_arg(str(flat))
    assert sorted(p.name for p in paths) == sorted(Path(r).name for r in LAYOUT if not r.endswith("-sources.jar"))
    # one stray jar outside the layout: not a repository either
    stray = tmp_path / "mixed"
    shutil.copytree(repo, stray)
    shutil.copy(repo / NEWEST[0], stray / "stray.jar")
    paths, _ = expand_jar_arg(str(stray))
    assert len(paths) == len(LAYOUT) and repository_jars(stray, paths) is None


def test_the_cli_indexes_the_newest_versions_and_the_daemon_key_names_all_versions(repo, run_jdx, tmp_path):
    r = run_jdx("members", "v2_0_rc1.Lib", "--no-jdk", "--jars", str(repo), "--json")
    assert r.code == 0, r.err
    r = run_jdx("members", "v1_10.Lib", "--no-jdk", "--jars", str(repo))
    assert r.code == 1, r.out  # an older version is not on the classpath
    r = run_jdx("members", "v1_10.Lib", "--no-jdk", "--all-versions", "--jars", str(repo))
    assert r.code == 0 and "v1_10()" in r.out, r.err
    r = run_jdx("members", "tests1_10.Lib", "--no-jdk", "--all-versions", "--jars", str(repo))
    assert r.code == 1  # a classifier's jar is never taken
    from jdx.cli.main import split_globals
    from jdx.daemon.paths import workspace_argv, workspace_hash

    plain, _ = split_globals(["--jars", str(repo)])
    every, _ = split_globals(["--jars", str(repo), "--all-versions"])
    assert workspace_hash(plain.workspace_key()) != workspace_hash(every.workspace_key())
    assert "--all-versions" in workspace_argv(every.workspace_key())


def test_a_named_workspace_keeps_all_versions(repo, run_jdx):
    r = run_jdx("ws", "create", "every-version", "--all-versions", "--no-jdk", "--jars", str(repo))
    assert r.code == 0, r.err
    r = run_jdx("ws", "info", "every-version", "--json")
    import json

    arts = json.loads(r.out)["result"]["artifacts"]
    assert [a["path"] for a in arts] == [os.path.realpath(repo / p) for p in EVERY]
    run_jdx("ws", "remove", "every-version")


# --- the version order against Maven's ComparableVersion ---------------------------------------------------------

ORACLE = """import org.apache.maven.artifact.versioning.ComparableVersion;
import java.io.*;
public class Oracle {
    // each line: versions separated by spaces; prints the sign of compareTo for two, else the greatest
    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        for (String line; (line = in.readLine()) != null; ) {
            String[] v = line.trim().split(" ");
            if (v.length == 2 && line.startsWith("?")) {
                System.out.println(Integer.signum(new ComparableVersion(v[0].substring(1)).compareTo(new ComparableVersion(v[1]))));
                continue;
            }
            String best = v[0];
            for (String s : v) if (new ComparableVersion(s).compareTo(new ComparableVersion(best)) > 0) best = s;
            System.out.println(best);
        }
    }
}
"""


@pytest.fixture(scope="module")
def oracle(tmp_path_factory):
    if not MAVEN_ARTIFACT.exists() or shutil.which("javac") is None:
        pytest.skip(f"{MAVEN_ARTIFACT} (Debian maven) or javac is not installed")
    work = tmp_path_factory.mktemp("oracle")
    (work / "Oracle.java").write_text(ORACLE)
    jdktool.run(["javac", "-cp", str(MAVEN_ARTIFACT), "-d", str(work), str(work / "Oracle.java")], check=True,
                   capture_output=True)

    def ask(lines: list[str]) -> list[str]:
        proc = subprocess.run(["java", "-cp", f"{MAVEN_ARTIFACT}:{work}", "Oracle"], input="\n".join(lines) + "\n",
                              capture_output=True, text=True, check=True)
        return proc.stdout.split()

    return ask


def test_version_order_matches_maven_on_tricky_pairs(oracle):
    want = [int(x) for x in oracle(["?" + p for p in PAIRS])]
    got = []
    for pair in PAIRS:
        a, b = pair.split()
        c = compare_versions(a, b)
        # versions Maven holds equal (1.0 and 1.0.0) are still ordered by text here, to stay deterministic
        got.append(0 if want[len(got)] == 0 and c != 0 else c)
    assert got == want, [(p, g, w) for p, g, w in zip(PAIRS, got, want) if g != w]


def test_newest_version_matches_maven_on_the_local_repository(oracle):
    if not M2.is_dir():
        pytest.skip(f"{M2} is absent: no local Maven repository to compare on")
    groups = []
    for meta in M2.rglob("*"):
        if meta.is_dir() and not meta.name.startswith("."):
            versions = sorted(d.name for d in meta.iterdir() if d.is_dir() and (d / f"{meta.name}-{d.name}.jar").exists())
            if len(versions) > 1:
                groups.append(versions)
    if not groups:
        pytest.skip(f"{M2} holds no artifact in several versions")
    from functools import cmp_to_key

    want = oracle([" ".join(g) for g in groups])
    got = [max(g, key=cmp_to_key(compare_versions)) for g in groups]
    wrong = [(g, a, b) for g, a, b in zip(groups, got, want) if a != b and compare_versions(a, b) != 0]
    assert not wrong, wrong[:10]
    assert len(groups) >= 10
