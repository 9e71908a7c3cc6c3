"""`jdx bench` rows for incremental graphs (spec §5.2, §10.4; DESIGN.md §5): what a new workspace over an
indexed JDK, a reordered classpath and a recompiled class cost, next to the cold JDK index of the same run.

Runs standalone on its own throw-away cache: `python -m jdx.bench.incremental` (indexes the JDK first).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from jdx.bench.util import disk_usage, row

JARS = (Path("/usr/share/java/gson.jar"), Path("/usr/share/java/commons-lang3.jar"))
DIR_CLASSES = 300


def _run(args: list[str], env: dict) -> tuple[float, dict]:
    start = time.perf_counter()
    proc = subprocess.run(args, capture_output=True, text=True, env=env, check=False)
    secs = time.perf_counter() - start
    try:
        return secs, json.loads(proc.stdout)
    except ValueError:
        return secs, {"ok": False, "error": (proc.stderr or proc.stdout).strip()[-200:]}


def _sources(extra: str = "") -> dict[str, str]:
    out = {}
    for i in range(DIR_CLASSES):
        calls = f"new C{i - 1}().run() + " if i else ""
        body = extra if i == 3 else ""
        out[f"bench/C{i}.java"] = (f"package bench; public class C{i} {{ "
                                   f"public int run() {{ return {calls}java.util.List.of({i}).size(); }} "
                                   f"public void again() {{ run(); }} {body} }}")
    return out


def _javac(out: Path, sources: dict[str, str], classpath: Path | None = None) -> None:
    src = out.parent / "src"
    for rel, text in sources.items():
        (src / rel).parent.mkdir(parents=True, exist_ok=True)
        (src / rel).write_text(text)
    out.mkdir(parents=True, exist_ok=True)
    cmd = ["javac", "-g", "-d", str(out)] + (["-cp", str(classpath)] if classpath else [])
    subprocess.run(cmd + [str(src / rel) for rel in sources], check=True, capture_output=True)


def _pandas_note() -> str:
    """Where pandas is installed, Kùzu's COPY from a Python table imports it (~0.3 s of every fresh process that
    grows a graph; a plain install has none): the rows say which they measured."""
    import importlib.util

    return "; pandas installed (Kùzu imports it to COPY: ~0.3 s more)" if importlib.util.find_spec("pandas") else ""


def rows(cache: Path, env: dict, jdx: list[str], cold_seconds: float) -> list[dict]:
    """Rows measured on `cache`, which already holds the JDK's graph (indexed in `cold_seconds`)."""
    out: list[dict] = []
    jars = [j for j in JARS if j.exists()]
    if not jars:
        return [{"name": "incremental graph", "value": "skipped: no gson/commons-lang3 jar in /usr/share/java",
                 "seconds": 0.0}]
    gson = jars[0]
    before = disk_usage(cache)
    secs, _ = _run(jdx + ["--jars", str(gson), "members", "com.google.gson.Gson", "--json", "-q"], env)
    grown = disk_usage(cache) - before
    _run(jdx + ["--jars", str(gson), "daemon", "stop", "--json"], env)  # the answer may have started one
    shard = sum(disk_usage(p) for p in (cache / "shards").iterdir() if (p / "meta.json").exists()
                and json.loads((p / "meta.json").read_text()).get("name") == gson.name)
    out.append(row(f"new workspace {gson.name} + JDK (JDK indexed): first `members` answer", secs,
                   extra=f", {secs / cold_seconds:.2f}x the cold JDK index (goal ≤ 0.15x); cache grew "
                         f"{grown / 2**20:,.0f} MB = {grown / max(shard, 1):,.0f}x the jar's shard "
                         f"({shard / 2**20:,.1f} MB; goal < 3x){_pandas_note()}", unit="ms"))
    if len(jars) > 1:
        args = [a for j in jars for a in ("--jars", str(j))]
        secs, _ = _run(jdx + args + ["index", "--json", "-q"], env)
        out.append(row(f"workspace {' + '.join(j.name for j in jars)} + JDK", secs, unit="ms",
                       extra=f", {secs / cold_seconds:.2f}x the cold JDK index"))
        rev = [a for j in reversed(jars) for a in ("--jars", str(j))]
        before = disk_usage(cache)
        secs, res = _run(jdx + rev + ["index", "--json", "-q"], env)
        grown = disk_usage(cache) - before
        phases = res.get("result", {}).get("phases", {})
        out.append(row("the same jars in the other order", secs, unit="ms",
                       extra=f", {secs / cold_seconds:.2f}x the cold JDK index (goal: no graph build); phases "
                             f"{phases}; cache grew {grown / 2**20:,.1f} MB"))
    out.extend(_first_workspaces_rows(cache, env, jdx, jars, cold_seconds))
    out.extend(_class_dir_rows(env, jdx, cold_seconds))
    return out


def _first_workspaces_rows(cache: Path, env: dict, jdx: list[str], jars: list[Path], cold_seconds: float) -> list[dict]:
    """A new user's first two workspaces, each one jar over the JDK, in a cache holding the shards but no graph (the
    extraction is the cold index's, shared): the first builds the JDK's graph and grows from it, the second grows
    from the JDK's graph the first kept instead of building the JDK's rows again."""
    if len(jars) < 2:
        return []
    fresh = Path(tempfile.mkdtemp(prefix="jdx-bench-first-"))
    try:
        subprocess.run(["cp", "-al", str(cache / "shards"), str(fresh / "shards")], check=True)
        for name in ("extractor", "hashes.json", "archives.json"):  # as the cold index left them
            if (cache / name).exists():
                subprocess.run(["cp", "-a", str(cache / name), str(fresh / name)], check=True)
        run_env = {**env, "JDX_CACHE_DIR": str(fresh), "JDX_NO_DAEMON": "1"}
        out = []
        for i, jar in enumerate(jars[:2]):
            secs, _ = _run(jdx + ["--jars", str(jar), "members", "java.util.HashMap", "--json", "-q"], run_env)
            label = ("first workspace of an empty graph cache" if i == 0 else "second workspace, another jar")
            out.append(row(f"{label}: {jar.name} + JDK, first `members` answer (shards cached)", secs, unit="ms",
                           extra=f", {secs / cold_seconds:.2f}x the cold JDK index"))
        return out
    finally:
        shutil.rmtree(fresh, ignore_errors=True)


def _class_dir_rows(env: dict, jdx: list[str], cold_seconds: float) -> list[dict]:
    """A class directory of DIR_CLASSES classes over the indexed JDK, one class recompiled (a method added) and
    the next `members` answer: from a fresh process, then through the workspace's running daemon as an agent's
    edit-compile-ask loop meets it (its first change starts the daemon's JVM, later ones find it warm)."""
    out: list[dict] = []
    work = Path(tempfile.mkdtemp(prefix="jdx-bench-dir-"))
    classes = work / "classes"
    ws = ["--jars", str(classes)]
    # the daemon rows go through the workspace's daemon even where the caller's environment turns daemons off
    env = {k: v for k, v in env.items() if k != "JDX_NO_DAEMON"}

    def recompiled(method: str, run_env: dict) -> tuple[float, bool]:
        time.sleep(0.01)
        _javac(classes, {"bench/C3.java": _sources(f"public void {method}() {{}}")["bench/C3.java"]},
               classpath=classes)
        secs, res = _run(jdx + ws + ["members", "bench.C3", "--json", "-q"], run_env)
        return secs, method in json.dumps(res.get("result", {}))

    try:
        _javac(classes, _sources())
        _run(jdx + ws + ["index", "--json", "-q"], env)
        secs, seen = recompiled("added", {**env, "JDX_NO_DAEMON": "1"})
        out.append(row(f"class dir of {DIR_CLASSES} classes + JDK: one class recompiled, next `members` answer "
                       "(a new process, no daemon)", secs, unit="ms",
                       extra=f", {secs / cold_seconds:.2f}x the cold JDK index (goal ≤ 0.1x); new method seen: {seen}"))
        _run(jdx + ws + ["members", "bench.C3", "--json", "-q"], env)  # the workspace's daemon starts and answers
        for label, method in (("first change (its JVM and base context were loaded ahead, after its first answer)",
                               "addedFirst"), ("a later change", "addedLater")):
            secs, seen = recompiled(method, env)
            out.append(row(f"the same through the workspace's running daemon, {label}", secs, unit="ms",
                           extra=f", {secs / cold_seconds:.2f}x the cold JDK index (goal ≤ 0.1x); "
                                 f"new method seen: {seen}"))
    finally:
        _run(jdx + ws + ["daemon", "stop"], env)
        shutil.rmtree(work, ignore_errors=True)
    return out


def main() -> None:
    cache = Path(tempfile.mkdtemp(prefix="jdx-bench-incr-"))
    env = {**os.environ, "JDX_CACHE_DIR": str(cache)}
    jdx = [sys.executable, "-m", "jdx"]
    try:
        from jdx.loaders import jvm

        # the extractor is compiled once per install, as `jdx bench` does before its cold index
        jvm.compiled_extractor(cache, jvm.find_java_home(), jvm.find_asm(cache)[0])
        cold, res = _run(jdx + ["index", "--json", "-q"], env)
        print(f"cold JDK index: {cold:.2f} s, phases {res.get('result', {}).get('phases')}")
        for r in rows(cache, env, jdx, cold):
            print(f"{r['name']}: {r['value']}")
    finally:
        shutil.rmtree(cache, ignore_errors=True)


if __name__ == "__main__":
    main()
