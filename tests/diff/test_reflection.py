"""Differential test of `jdx diff` against the JVM's reflection, on real versions of real libraries (the local
Maven repository) and on the JDK itself (java.base 17 -> 25): every public member reflection sees vanish is
reported breaking, and no removal is reported where reflection sees none (except removals the diff keeps breaking
because a supertype outside the artifact could not be looked into, spec §7.7)."""

from __future__ import annotations

import os
import shutil
import zipfile
from pathlib import Path

import pytest

from jdx.commands.diff import DiffRequest, run_diff
from jdx.commands.session import Options, Session
from tests.diff.reflection import check, reflect

M2 = Path.home() / ".m2" / "repository"
JDK17 = Path("/usr/lib/jvm/java-17-openjdk-amd64")
JDK25 = Path("/usr/lib/jvm/temurin-25-jdk-amd64")
DEFAULT_PAIRS = [("commons-io/commons-io", "2.11.0", "2.22.0")]
SOAK_PAIRS = [
    ("commons-io/commons-io", "2.5", "2.11.0"),
    ("org/codehaus/plexus/plexus-utils", "3.0", "4.0.2"),
    ("org/codehaus/plexus/plexus-utils", "1.5.8", "3.5.1"),
    ("org/junit/platform/junit-platform-commons", "1.9.2", "1.14.1"),
    ("org/junit/platform/junit-platform-commons", "1.14.1", "6.0.3"),
    ("com/google/guava/guava", "31.1-jre", "33.5.0-jre"),
]


def _jar(coord: str, version: str) -> Path:
    artifact = coord.rsplit("/", 1)[1]
    path = M2 / coord / version / f"{artifact}-{version}.jar"
    if not path.is_file():
        pytest.skip(f"{path} is not in the local Maven repository")
    return path


def _class_names(jar: Path) -> list[str]:
    with zipfile.ZipFile(jar) as z:
        names = [n[:-6].replace("/", ".") for n in z.namelist()
                 if n.endswith(".class") and not n.startswith("META-INF/") and "-info" not in n]
    return sorted(n for n in names if not any(part[:1].isdigit() for part in n.split("$")[1:]))


def _diff(old: str, new: str, cache: Path) -> list[dict]:
    answer = run_diff(Session(Options(cache_dir=str(cache))), DiffRequest(query=old, new=new, limit=10_000_000))
    return answer.result["findings"]


def _java(home: Path) -> str:
    java = home / "bin" / "java"
    if not java.exists():
        pytest.skip(f"{home} is not installed")
    return str(java)


def _library(coord, v_old, v_new, cache):
    old, new = _jar(coord, v_old), _jar(coord, v_new)
    java = shutil.which("java") or pytest.skip("java is not installed")
    names = sorted(set(_class_names(old)) | set(_class_names(new)))
    findings = _diff(str(old), str(new), cache)
    unexplained, unconfirmed, unproven, vanished = check(findings, reflect(java, names, [str(old)]),
                                                         reflect(java, names, [str(new)]))
    print(f"{coord} {v_old} -> {v_new}: {len(findings)} findings, reflection saw {vanished} public members vanish, "
          f"{unproven} removals unproven (supertype outside)")
    assert unexplained == [], unexplained[:20]
    assert unconfirmed == [], unconfirmed[:20]


@pytest.mark.parametrize("coord,v_old,v_new", DEFAULT_PAIRS)
def test_library_against_reflection(coord, v_old, v_new, jdx_home):
    _library(coord, v_old, v_new, jdx_home / "cache")


@pytest.mark.soak
@pytest.mark.parametrize("coord,v_old,v_new", SOAK_PAIRS)
def test_library_against_reflection_soak(coord, v_old, v_new, jdx_home):
    _library(coord, v_old, v_new, jdx_home / "cache")


def _jdk_names(cache: Path, sample: int) -> list[str]:
    """Classes of java.base 17 in exported java.* packages, every `sample`-th one (1: all)."""
    from jdx.commands.diff_artifacts import load_sides, resolve_side
    from jdx.loaders.roots import HashCache

    side = resolve_side(f"jrt:{JDK17}!java.base", HashCache(cache))
    load_sides([side], cache).wait()
    names = sorted(n.replace("/", ".") for entries in side.surfaces for n in (e[0][0] for e in entries)
                   if n.startswith("java/") and "-info" not in n)
    names = [n for n in names if not any(part[:1].isdigit() for part in n.split("$")[1:])]
    return names[::sample]


def _jdk(cache: Path, sample: int) -> None:
    java17, java25 = _java(JDK17), _java(JDK25)
    names = _jdk_names(cache, sample)
    findings = _diff(f"jrt:{JDK17}!java.base", f"jrt:{JDK25}!java.base", cache)
    unexplained, unconfirmed, unproven, vanished = check(findings, reflect(java17, names, []),
                                                         reflect(java25, names, []))
    print(f"java.base 17 -> 25: {len(names)} classes reflected, {len(findings)} findings, reflection saw {vanished} "
          f"public members vanish, {unproven} unproven")
    assert unexplained == [], unexplained[:20]
    assert unconfirmed == [], unconfirmed[:20]


@pytest.mark.soak
def test_jdk_sample_against_reflection(jdx_home):
    _jdk(jdx_home / "cache", int(os.environ.get("JDX_DIFF_JDK_SAMPLE", "12")))


@pytest.mark.soak
def test_jdk_against_reflection_soak(jdx_home):
    _jdk(jdx_home / "cache", 1)
