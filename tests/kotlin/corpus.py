"""Kotlin test corpus: the stdlib jars of the local Maven repository, their raw `@Metadata` as the real
extractor records it, and kotlin-reflect (1.6.10) run in a JVM as the differential oracle (spec §18)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from functools import cache
from pathlib import Path

import pytest

from tests.fixtures import jdktool

M2 = Path.home() / ".m2/repository/org/jetbrains/kotlin"
STDLIB_VERSIONS = ("1.8.21", "1.9.10", "2.0.21")
REFLECT = M2 / "kotlin-reflect/1.6.10/kotlin-reflect-1.6.10.jar"
HERE = Path(__file__).resolve().parent


def kotlinc_jar(name: str, sources: dict[str, str]) -> Path:
    """`sources` (file name -> Kotlin text) compiled by kotlinc in one call, cached in the temp dir by their hash
    (a test module's own fixtures: `kotlinc_jar("call-sites", {"Lib.kt": LIB, "Use.kt": USE})`)."""
    import hashlib

    kotlinc = shutil.which("kotlinc")
    if kotlinc is None:
        pytest.skip("kotlinc is not on PATH (Debian package `kotlin`, see .ci/run)")
    digest = hashlib.sha256("\0".join(f"{k}\0{v}" for k, v in sorted(sources.items())).encode()).hexdigest()[:16]
    jar = Path(tempfile.gettempdir()) / "jdx-kotlin-fixtures" / f"{name}-{digest}.jar"
    jar.parent.mkdir(exist_ok=True)
    if not jar.exists():
        src = Path(tempfile.mkdtemp(prefix=f"jdx-kt-{name}-"))
        for file, text in sources.items():
            (src / file).write_text(text)
        tmp = jar.with_suffix(f".{os.getpid()}.jar")
        subprocess.run([kotlinc, "-nowarn", "-d", str(tmp), *(str(src / f) for f in sorted(sources))], check=True,
                       capture_output=True, timeout=600)
        os.replace(tmp, jar)
    return jar


def stdlib_jar(version: str) -> Path:
    jar = M2 / f"kotlin-stdlib/{version}/kotlin-stdlib-{version}.jar"
    if not jar.exists():
        pytest.skip(f"{jar} is absent (the local Maven repository has no Kotlin stdlib {version})")
    return jar


@cache
def _work() -> Path:
    return Path(tempfile.mkdtemp(prefix="jdx-kotlin-tests-"))


@cache
def metadata_rows(jar: Path) -> tuple[tuple[str, str], ...]:
    """(JVM class name, raw @Metadata JSON) of every Kotlin class of the jar, as the extractor records them."""
    from jdx.loaders.extractor import JPypeExtractor
    from jdx.loaders.roots import resolve_roots

    cache_dir = _work() / "cache"
    arts = [a for a in resolve_roots([str(jar)], None, cache_dir).artifacts if a.kind == "jar"]
    rows: list[tuple[str, str]] = []
    for extracted in JPypeExtractor(cache_dir).extract(arts):
        t = extracted.tables["types"]
        rows.extend((n, k) for n, k in zip(t["name"].to_pylist(), t["kotlin"].to_pylist()) if k)
    return tuple(sorted(rows))


@cache
def _oracle_classes(stdlib: Path) -> Path:
    if not REFLECT.exists():
        pytest.skip(f"{REFLECT} is absent (kotlin-reflect 1.6.10 is the oracle)")
    javac = shutil.which("javac")
    if javac is None:
        pytest.skip("javac is not on PATH")
    out = _work() / f"oracle-{stdlib.stem}"
    out.mkdir(parents=True, exist_ok=True)
    src = out / "KotlinReflectOracle.java"
    src.write_text((HERE / "KotlinReflectOracle.java.in").read_text())
    jdktool.run([javac, "-nowarn", "-d", str(out), "-cp", f"{REFLECT}:{stdlib}", str(src)], check=True,
                   capture_output=True)
    return out


def reflect_view(stdlib: Path, targets: list[str], extra: Path | None = None) -> list[dict]:
    """kotlin-reflect's declarations for `class:<name>` / `package:<name>` targets (binary names) of the
    stdlib jar, or of `extra` run against that stdlib."""
    classes = _oracle_classes(stdlib)
    cp = f"{REFLECT}:{stdlib}:{classes}" + (f":{extra}" if extra else "")
    proc = subprocess.run(["java", "-cp", cp, "KotlinReflectOracle", *targets],
                          capture_output=True, text=True, timeout=600, check=True)
    return [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]


FIXTURES = HERE / "fixtures"


@cache
def fixtures_jar() -> Path:
    """tests/kotlin/fixtures/*.kt compiled by the Debian `kotlinc` (Kotlin 1.3) in one call, cached by the
    hash of the sources (kotlinc takes seconds to start)."""
    import hashlib

    kotlinc = shutil.which("kotlinc")
    if kotlinc is None:
        pytest.skip("kotlinc is not on PATH (Debian package `kotlin`, see .ci/run)")
    sources = sorted(FIXTURES.glob("*.kt"))
    digest = hashlib.sha256(b"".join(p.name.encode() + p.read_bytes() for p in sources)).hexdigest()[:16]
    jar = Path(tempfile.gettempdir()) / "jdx-kotlin-fixtures" / f"fixtures-{digest}.jar"  # not in the temp dir's top:
    jar.parent.mkdir(exist_ok=True)  # jars there would make it a plain project to jdx
    if not jar.exists():
        tmp = jar.with_suffix(f".{os.getpid()}.jar")
        subprocess.run([kotlinc, "-nowarn", "-d", str(tmp), *map(str, sources)], check=True, capture_output=True,
                       timeout=600)
        os.replace(tmp, jar)
    return jar


def runtime_stdlib() -> Path:
    """A Kotlin stdlib to run kotlin-reflect with: the newest of the local Maven repository."""
    for version in reversed(STDLIB_VERSIONS):
        jar = M2 / f"kotlin-stdlib/{version}/kotlin-stdlib-{version}.jar"
        if jar.exists():
            return jar
    pytest.skip("no Kotlin stdlib in the local Maven repository to run kotlin-reflect with")


def copied_jar(tmp_path_factory, jar: Path, name: str, file_name: str) -> Path:
    """A copy of a cached fixture jar named `file_name` in a fresh temp dir `name` (what answers name it by)."""
    copy = tmp_path_factory.mktemp(name) / file_name
    shutil.copy(jar, copy)
    return copy


def indexed_store(tmp_path_factory, jdx_home, jar: Path, name: str, file_name: str, extra: tuple[Path, ...] = (),
                  jdk: bool = False):
    """A graph of a copy of `jar` (named `file_name`), then `extra` jars, without the JDK unless `jdk`, in the session's
    cache: yields its store, closes it after (the body of a module-scoped `store` fixture: `yield from
    indexed_store(...)`)."""
    from jdx.commands.session import Options, Session

    copy = copied_jar(tmp_path_factory, jar, name, file_name)
    session = Session(Options(jars=[str(copy), *map(str, extra)], jdk=jdk, cache_dir=str(jdx_home / "cache")))
    session.index()
    yield session.store()
    session.close()


def jar_fixtures(make_jar, name: str, file_name: str):
    """A test module's two module-scoped fixtures over the jar `make_jar()` builds: `store` (its graph, without the
    JDK) and `jar_args` (the CLI flags naming a copy of it). Use: `store, jar_args = jar_fixtures(_jar, "kt", "k.jar")`."""

    @pytest.fixture(scope="module")
    def store(tmp_path_factory, jdx_home):
        yield from indexed_store(tmp_path_factory, jdx_home, make_jar(), name, file_name)

    @pytest.fixture(scope="module")
    def jar_args(tmp_path_factory):
        return ("--jars", str(copied_jar(tmp_path_factory, make_jar(), name + "-cli", file_name)), "--no-jdk")

    return store, jar_args
