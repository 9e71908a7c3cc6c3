"""Defects an agent trial found in `jdx diff`, judged by the JVM and javac: a method made more visible breaks a
subclass that overrode (or hid) it with the old access only when recompiled (METHOD_VISIBILITY_WIDENED, suspicious);
a side that is a named pipe is refused at once; a class file a side holds but cannot read is neither removed nor
added; and an unreadable artifact's text names its ARTIFACT_READ_ERROR code."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from jdx.engine.diff.rules import RULES, SUSPICIOUS
from tests.diff.shim import findings_json, main, run_clients
from tests.fixtures.build import write_jar
from tests.fixtures.javac import side_jar
from tests.fixtures import jdktool

pytestmark = pytest.mark.soak  # a trial's regression family with its own graph builds: the soak runs it whole (.ci/run)

ROOT = Path(__file__).resolve().parents[2]

CZ_B = ("public class B { public void b() { } public int c(String s) { return s.length(); }"
        " public static final String X = \"a constant long enough to make the class file pass 300 bytes\";"
        " public void d(java.util.List<String> l) { } }")
# package -> (old classes, new classes): class name -> body after the package line
LIBRARY = {
    "vw": ({"B": "public class B { public B() { } protected B(int i) { } protected void m() { }"
                 " protected static void s() { } void p() { } protected final void f() { } protected int x; }",
            "A": "public class A { private A() { } protected void m() { } }"},
           {"B": "public class B { public B() { } public B(int i) { } public void m() { }"
                 " public static void s() { } public void p() { } public final void f() { } public int x; }",
            "A": "public class A { private A() { } public void m() { } }"}),
    # `cz.B` is truncated to 300 bytes on one side (`_cut`); A gains a method, so the rest is still compared
    "cz": ({"A": "public class A { public void a() { } }", "B": CZ_B},
           {"A": "public class A { public void a() { } public void added() { } }", "B": CZ_B}),
}

# client sources compiled against the old library: path under the client root -> text
CLIENTS = {
    # overrides m() and hides s() as protected, hides field x as protected, calls B(int) from outside
    "client/OverridesWeaker.java": "package client;\n"
                                   "class SubB extends vw.B { SubB() { super(1); } protected void m() { }"
                                   " protected static void s() { } protected int x; }\n"
                                   "public class OverridesWeaker { public static void use() {"
                                   " new SubB().m(); SubB.s(); } }\n",
    # a class of the same package outside the artifact (a split package) overriding package-private p()
    "vw/SubP.java": "package vw;\npublic class SubP extends B { void p() { }"
                    " public static void go() { new SubP().p(); } }\n",
    "client/SplitPackage.java": "package client;\n"
                                "public class SplitPackage { public static void use() { vw.SubP.go(); } }\n",
}


@pytest.fixture(scope="module")
def trial(tmp_path_factory):
    """(the JVM's verdict per client, javac's errors against the new library, the jars, the cache)."""
    if shutil.which("javac") is None or shutil.which("java") is None:
        pytest.skip("java/javac are not installed")
    root = tmp_path_factory.mktemp("diff-trial-e")
    old, new = side_jar(root, LIBRARY, "old"), side_jar(root, LIBRARY, "new")
    sources = []
    for name, text in CLIENTS.items():
        path = root / "clients" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        sources.append(path)
    verdicts = run_clients(root, sources, [old], [new], ["client.OverridesWeaker", "client.SplitPackage"])
    recompiled = jdktool.run(["javac", "-d", str(root / "recompiled"), "-cp", str(new), *map(str, sources)],
                                capture_output=True, text=True)
    assert recompiled.returncode != 0, "the clients still compile against the new library"
    return verdicts, recompiled.stderr, (old, new, root / "cache")


def _widened(findings: list[dict]) -> list[tuple[str, str, str]]:
    return sorted((f["symbol"], f["rule"], f["severity"]) for f in findings if f["symbol"].startswith("vw."))


def test_old_overriders_of_widened_methods_still_link_and_run(trial):
    assert trial[0] == {"client.OverridesWeaker": "ok", "client.SplitPackage": "ok"}


def test_javac_rejects_exactly_the_overriders_of_the_widened_methods(trial):
    """The oracle of the rule's scope: the overriding m() and p() and the hiding s() fail (weaker access), the field
    hiding x and the constructor call compile."""
    stderr = trial[1]
    failing = set(re.findall(r"error: (\w+)\(\) in \w+ cannot (?:override|hide) \1\(\) in B", stderr))
    assert failing == {"m", "s", "p"}, stderr
    assert stderr.count("attempting to assign weaker access privileges") == 3, stderr
    assert stderr.count("error:") == 3, stderr


def test_a_method_made_more_visible_is_suspicious_where_an_outside_subclass_could_override_it(trial):
    old, new, cache = trial[2]
    # protected -> public: m() (overridden) and s() (hidden); p() was no public API, so it is simply added; the
    # final f(), the field x, the constructor B(int) and A#m() (no outside subclass: private constructor) are no
    # finding at all
    assert _widened(findings_json(cache, old, new)) == [
        ("vw.B#m()", "METHOD_VISIBILITY_WIDENED", SUSPICIOUS), ("vw.B#p()", "MEMBER_ADDED", "info"),
        ("vw.B#s()", "METHOD_VISIBILITY_WIDENED", SUSPICIOUS)]
    assert RULES["METHOD_VISIBILITY_WIDENED"] == SUSPICIOUS
    code, text = main([str(old), str(new), "--json", "--visibility", "all", "--cache-dir", str(cache)])
    assert code == 0, text
    found = [f for f in json.loads(text)["result"]["findings"] if f["symbol"].startswith("vw.")]
    assert [(f["symbol"], f["detail"].split(":")[0]) for f in sorted(found, key=lambda f: f["symbol"])] == [
        ("vw.B#m()", "protected -> public"), ("vw.B#p()", "package-private -> public"), ("vw.B#s()", "protected -> public")]
    assert all(f["rule"] == "METHOD_VISIBILITY_WIDENED" for f in found), found
    assert "hides it as protected" in next(f["detail"] for f in found if f["symbol"] == "vw.B#s()")


def _cut(jar: Path, out: Path) -> Path:
    """`jar` with `cz/B.class` truncated to 300 bytes (a corrupt class file the extractor cannot read)."""
    with zipfile.ZipFile(jar) as z:
        entries = {n: z.read(n) for n in z.namelist() if not n.endswith("/")}
    assert len(entries["cz/B.class"]) > 300
    entries["cz/B.class"] = entries["cz/B.class"][:300]
    write_jar(out, entries)
    return out


def test_a_class_one_side_cannot_read_is_neither_removed_nor_added(trial, tmp_path):
    old, new, cache = trial[2]
    for pair in ((old, _cut(new, tmp_path / "new-cut.jar")), (_cut(old, tmp_path / "old-cut.jar"), new)):
        code, text = main([*map(str, pair), "--json", "--limit", "1000", "--cache-dir", str(cache)])
        assert code == 0, text
        env = json.loads(text)
        found = [(f["rule"], f["symbol"]) for f in env["result"]["findings"] if f["symbol"].startswith("cz.")]
        assert found == [("MEMBER_ADDED", "cz.A#added()")], found
        corrupt = [w["message"] for w in env["warnings"] if w["code"] == "CORRUPT_CLASS"]
        assert len(corrupt) == 1 and "cz/B.class" in corrupt[0], env["warnings"]
        assert corrupt[0].endswith("cz.B was not compared (left out of both sides)"), corrupt


def test_an_unreadable_artifact_names_its_code_in_text(trial, tmp_path):
    old, _new, cache = trial[2]
    bad = tmp_path / "zip-garbage-1.0.jar"
    bad.write_bytes(b"not a zip archive\n" * 4)
    code, text = main([str(bad), str(old), "--cache-dir", str(cache)])
    assert code == 5 and text.startswith(f"error: cannot read {bad}"), text
    assert text.endswith("(ARTIFACT_READ_ERROR)") and len(text.splitlines()) == 1, text  # once, code named
    code, text = main([str(old), str(tmp_path / "missing.jar"), "--cache-dir", str(cache)])
    assert code == 5 and text.endswith("missing.jar: no such file (ARTIFACT_READ_ERROR)") and "⚠" not in text, text


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes")
def test_a_named_pipe_side_is_refused_at_once(trial, tmp_path, jdx_env):
    """Hashing a pipe would block forever: it is refused before it is read, as `--jars` refuses it."""
    old = trial[2][0]
    fifo = tmp_path / "fifo.jar"
    os.mkfifo(fifo)
    proc = subprocess.run([sys.executable, "-m", "jdx", "diff", str(fifo), str(old)], cwd=tmp_path,
                          env={**jdx_env, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 5, proc.stderr
    assert f"error: {fifo}: not a regular file (a pipe or device)" in proc.stderr, proc.stderr
    assert "(a pipe or device) (ARTIFACT_READ_ERROR)" in proc.stderr and "⚠" not in proc.stderr, proc.stderr
