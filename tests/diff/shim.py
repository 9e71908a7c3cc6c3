"""`jdx diff ...` through the real CLI entry point, in process: (exit code, stdout + stderr)."""

from __future__ import annotations

import contextlib
import io

from jdx.cli.main import main as cli_main

from tests.fixtures import jdktool


def main(argv: list[str]) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        code = cli_main(["diff", *argv])
    return code, out.getvalue().rstrip("\n")


def version_jars(root, old: dict[str, str], new: dict[str, str], package: str):
    """(root, old.jar, new.jar): the two versions of package `package` compiled by javac under `root`."""
    from tests.fixtures.javac import javac_jar

    return root, javac_jar(root / "old", old, package, "old.jar")[0], javac_jar(root / "new", new, package, "new.jar")[0]


RUNNER = """public class Runner { public static void main(String[] args) throws Exception {
    for (String name : args) {
        try { Class.forName(name).getDeclaredMethod("use").invoke(null); System.out.println(name + " ok"); }
        catch (java.lang.reflect.InvocationTargetException e) {
            System.out.println(name + " " + e.getCause().getClass().getName()); }
    } } }"""


def run_clients(root, sources: list, compiled_against: list, run_against: list, names: list[str]) -> dict[str, str]:
    """Each client class (a static `use()`) compiled from `sources` against `compiled_against`, then run against
    `run_against` in one JVM: class name -> "ok" or the class of what it threw (the linkage oracle of diff tests)."""
    import os
    import subprocess

    out = root / "linked-classes"
    (root / "Runner.java").write_text(RUNNER)
    jdktool.run(["javac", "-nowarn", "-d", str(out), "-cp", os.pathsep.join(map(str, compiled_against)),
                    *map(str, sources), str(root / "Runner.java")], check=True, capture_output=True, text=True)
    run = subprocess.run(["java", "-cp", os.pathsep.join([str(out), *map(str, run_against)]), "Runner", *names],
                         capture_output=True, text=True, check=True, timeout=120)
    return dict(line.split(" ", 1) for line in run.stdout.splitlines())


def run_client_bodies(root, clients: dict, old, new) -> dict[str, str]:
    """`run_clients` for `clients` (name -> (body of `package client;` class text, anything)): each written to
    `clients/client/<name>.java`, compiled against `old` and run against `new`."""
    sources = []
    for name, (body, _) in clients.items():
        path = root / "clients" / "client" / f"{name}.java"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"package client;\n{body}\n")
        sources.append(path)
    return run_clients(root, sources, [old], [new], [f"client.{n}" for n in clients])


def findings_json(cache_dir, old, new) -> list[dict]:
    """The findings of `jdx diff old new --json` (every one), with the cache in `cache_dir`."""
    import json

    code, text = main([str(old), str(new), "--json", "--limit", "1000", "--cache-dir", str(cache_dir)])
    assert code == 0, text
    return json.loads(text)["result"]["findings"]
