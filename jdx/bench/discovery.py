"""`jdx bench` rows for project auto-discovery (spec §13): a Maven project with ~100 dependencies from the local
repository, resolved cold (JVM and Maven's resolver started) and then from the resolution cache."""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

DEPENDENCIES = 100


def _pick_dependencies(repo: Path, count: int) -> list[tuple[str, str, str]]:
    """(group, artifact, version) of the first `count` artifacts (sorted by path) with both a jar and a POM,
    newest version directory by name; deterministic for one repository."""
    picked: list[tuple[str, str, str]] = []
    seen: set[tuple[str, str]] = set()
    for pom in sorted(repo.rglob("*.pom")):
        version_dir = pom.parent
        artifact, version = version_dir.parent.name, version_dir.name
        if pom.name != f"{artifact}-{version}.pom" or not (version_dir / f"{artifact}-{version}.jar").is_file():
            continue
        group = ".".join(version_dir.parent.parent.relative_to(repo).parts)
        if (group, artifact) in seen or not group:
            continue
        seen.add((group, artifact))
        picked.append((group, artifact, version))
        if len(picked) >= count:
            break
    return picked


def _write_project(folder: Path, deps: list[tuple[str, str, str]]) -> None:
    items = "".join(f"<dependency><groupId>{g}</groupId><artifactId>{a}</artifactId><version>{v}</version>"
                    f"</dependency>" for g, a, v in deps)
    (folder / "pom.xml").write_text(
        '<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion>'
        "<groupId>bench</groupId><artifactId>bench</artifactId><version>1</version>"
        f"<dependencies>{items}</dependencies></project>\n")


def _timed(args: list[str], env: dict) -> tuple[float, dict]:
    start = time.perf_counter()
    proc = subprocess.run(args, capture_output=True, text=True, env=env)
    secs = time.perf_counter() - start
    try:
        return secs, json.loads(proc.stdout)
    except ValueError:
        return secs, {}


def rows(cache: Path, env: dict, iterations: int) -> list[dict]:
    from jdx.loaders.maven_repo import local_repository
    from jdx.loaders.maven_resolver import maven_lib

    repo, _how = local_repository()
    if maven_lib() is None or not repo.is_dir():
        return [{"name": "project discovery (~100 dependencies)", "value": "skipped: no Maven resolver or no local "
                                                                           f"repository at {repo}", "seconds": 0}]
    deps = _pick_dependencies(repo, DEPENDENCIES)
    with tempfile.TemporaryDirectory(prefix="jdx-bench-project-") as tmp:
        project = Path(tmp)
        _write_project(project, deps)
        args = [sys.executable, "-m", "jdx", "--json", "--no-jdk", "--no-daemon", "--project", str(project),
                "ws", "info"]
        cold, answer = _timed(args, env)
        artifacts = len((answer.get("result") or {}).get("artifacts", []))
        cached = statistics.median(_timed(args, env)[0] for _ in range(max(iterations, 3)))
        from jdx.bench.pom_python import PythonResolver
        from jdx.loaders import maven_resolver

        start = time.perf_counter()
        python_order = PythonResolver(repo).resolve(deps)
        python_secs = time.perf_counter() - start
        request = maven_resolver.ResolveRequest(repo=repo, scopes=("compile", "runtime"),
                                                modules=(("bench:bench:1", str(project / "pom.xml"), ""),),
                                                projects=(str(project / "pom.xml"),))
        start = time.perf_counter()
        maven = maven_resolver.resolve(cache, request, use_cache=False)
        maven_secs = time.perf_counter() - start
        maven_set = {d.display for d in maven.dependencies} | {m.replace(":jar:", ":") for m in maven.missing}
        differ = sorted(set(python_order) ^ maven_set)
    return [
        {"name": f"project discovery, cold: pom.xml with {len(deps)} direct dependencies -> {artifacts} artifacts "
                 "(Maven Resolver and JVM start, jar hashing included)",
         "value": f"{cold:.2f} s", "seconds": cold},
        {"name": "project discovery, cached (`jdx ws info` in the project, process start included)",
         "value": f"{cached * 1000:.0f} ms median (goal ≤ 1000 ms)", "seconds": cached},
        {"name": "the same POMs: Maven Resolver in this process (JVM start if first) vs the pure-Python yardstick "
                 "(jdx/bench/pom_python.py)",
         "value": f"{maven_secs * 1000:.0f} ms vs {python_secs * 1000:.0f} ms; {len(differ)} artifact(s) differ"
                  + (f" ({', '.join(differ[:3])})" if differ else ""), "seconds": maven_secs},
    ]
