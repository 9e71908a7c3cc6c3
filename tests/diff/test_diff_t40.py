"""Defects a trial of `jdx diff` found (commons-io 2.11.0 -> 2.22.0, commons-collections4 4.4 -> 4.5.0), each judged
by javac and the JVM (clients compiled against the old library, run against the new one in one JVM, and compiled
anew against the new one):

- a checked exception removed from `throws` (`IOUtils#readLines(Reader)`'s IOException) is a THROWS_REMOVED rated
  suspicious, the mirror of CHECKED_EXCEPTION_ADDED: a caller's `catch (IOException e)` around the call no longer
  compiles ("never thrown"), and a subclass overriding the method with `throws IOException` neither; compiled
  clients still link and run. An unchecked one, one still declared as its superclass, one narrowed to a subclass
  (of a method no outside class overrides), `Exception` itself (a `catch (Exception e)` always compiles) stay info;
- a member the old view re-exported from a package-private supertype that the new version made public
  (`PatriciaTrie#firstKey()`, declared by `AbstractPatriciaTrie` in both) is no MEMBER_MOVED_TO_SUPERTYPE, nor is
  (`--include-synthetic`) javac's visibility bridge for it: the same declaration is still inherited from the same
  class; a real move (`BoundedReader#close()`) stays;
- a side written as a classpath (`a.jar:b.jar`) is a usage error (exit 3) saying a side is one jar, a directory or a
  glob of jars.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from jdx.engine.diff.findings import Finding
from jdx.engine.diff.modules import diff_notes, lower_unexported
from jdx.engine.diff.rules import BREAKING, INFO, SUSPICIOUS
from tests.diff.shim import main, run_client_bodies
from tests.fixtures import jdktool
from tests.fixtures.javac import javap, side_jar

pytestmark = pytest.mark.soak  # a trial's regression family with its own graph builds: the soak runs it whole (.ci/run)

IO = "java.io.IOException"
FNF = "java.io.FileNotFoundException"
LIBRARY = {
    # S's static methods each lose one exception; B's overridable run() is narrowed to a subclass
    "ta": ({"OwnException": "public class OwnException extends Exception { }",
            "S": "public class S {"
                 f" public static void caught() throws {IO} {{ }}"
                 " public static void own() throws OwnException { }"
                 f" public static void covered() throws {IO}, {FNF} {{ }}"
                 " public static void unchecked() throws IllegalStateException { }"
                 f" public static void narrowed() throws {IO} {{ }}"
                 " public static void any() throws Exception { } }",
            "B": f"public class B {{ public void run() throws {IO} {{ }} }}"},
           {"OwnException": "public class OwnException extends Exception { }",
            "S": "public class S {"
                 " public static void caught() { }"
                 " public static void own() { }"
                 f" public static void covered() throws {IO} {{ }}"
                 " public static void unchecked() { }"
                 f" public static void narrowed() throws {FNF} {{ }}"
                 " public static void any() { } }",
            "B": f"public class B {{ public void run() throws {FNF} {{ }} }}"}),
    # Base, package-private, made public (its members stay); fin() made final with it; moved() really moves up
    "tb": ({"Base": "abstract class Base { public int size() { return 1; } public int count = 2;"
                    " public int fin() { return 3; } }",
            "Impl": "public class Impl extends Base { }",
            "Up": "public class Up { }",
            "Down": "public class Down extends Up { public int moved() { return 4; } }"},
           {"Base": "public abstract class Base { public int size() { return 1; } public int count = 2;"
                    " public final int fin() { return 3; } }",
            "Impl": "public class Impl extends Base { }",
            "Up": "public class Up { public int moved() { return 4; } }",
            "Down": "public class Down extends Up { }"}),
}

# client class -> (its source after the package line, what running it against the new library gives, whether javac
# compiles it against the new library)
CLIENTS = {
    "CatchCaught": ("public class CatchCaught { public static void use() {"
                    f" try {{ ta.S.caught(); }} catch ({IO} e) {{ }} }} }}", "ok", False),
    "CatchOwn": ("public class CatchOwn { public static void use() {"
                 " try { ta.S.own(); } catch (ta.OwnException e) { } } }", "ok", False),
    "CatchCovered": ("public class CatchCovered { public static void use() throws Exception {"
                     f" try {{ ta.S.covered(); }} catch ({FNF} e) {{ }} }} }}", "ok", True),
    "CatchUnchecked": ("public class CatchUnchecked { public static void use() {"
                       " try { ta.S.unchecked(); } catch (IllegalStateException e) { } } }", "ok", True),
    "CatchNarrowed": ("public class CatchNarrowed { public static void use() {"
                      f" try {{ ta.S.narrowed(); }} catch ({IO} e) {{ }} }} }}", "ok", True),
    "CatchAny": ("public class CatchAny { public static void use() {"
                 " try { ta.S.any(); } catch (Exception e) { } } }", "ok", True),
    "CatchRun": ("public class CatchRun { public static void use() {"
                 f" try {{ new ta.B().run(); }} catch ({IO} e) {{ }} }} }}", "ok", True),
    "OverridesRun": (f"class SubB extends ta.B {{ @Override public void run() throws {IO} {{ }} }}\n"
                     "public class OverridesRun { public static void use() throws Exception { new SubB().run(); } }",
                     "ok", False),
    "UsesImpl": ("public class UsesImpl { public static void use() {"
                 " tb.Impl i = new tb.Impl(); int n = i.size() + i.count + i.fin() + new tb.Down().moved(); } }",
                 "ok", True),
    "OverridesFin": ("class SubImpl extends tb.Impl { @Override public int fin() { return 9; } }\n"
                     "public class OverridesFin { public static void use() { new SubImpl(); } }",
                     "IncompatibleClassChangeError", False),
}


@pytest.fixture(scope="module")
def trial(tmp_path_factory):
    """(the JVM's verdict per client, root, old jar, new jar, cache dir): one javac per side, one JVM."""
    if shutil.which("javac") is None or shutil.which("java") is None:
        pytest.skip("java/javac are not installed")
    root = tmp_path_factory.mktemp("diff-t40")
    old, new = side_jar(root, LIBRARY, "old"), side_jar(root, LIBRARY, "new")
    verdicts = run_client_bodies(root, {n: c[:2] for n, c in CLIENTS.items()}, old, new)
    return verdicts, root, old, new, root / "cache"


def _findings(trial, *flags: str) -> list[dict]:
    _, _, old, new, cache = trial
    code, text = main([str(old), str(new), "--json", "--limit", "1000", "--cache-dir", str(cache), *flags])
    assert code == 0, text
    return json.loads(text)["result"]["findings"]


def _failing(trial, jar) -> dict[str, str]:
    """The clients javac refuses against `jar` (each in its own file) -> javac's error. `should-stop.ifError=FLOW`:
    an error in one file's attribution must not skip the flow analysis ("never thrown") of the others."""
    root = trial[1]
    sources = sorted((root / "clients" / "client").glob("*.java"))
    run = jdktool.run(["javac", "-XDshould-stop.ifError=FLOW", "-Xmaxerrs", "1000", "-d",
                       str(root / f"recompiled-{jar.stem}"), "-cp", str(jar), *map(str, sources)],
                      capture_output=True, text=True)
    return dict(re.findall(r"(\w+)\.java:\d+: error: (.*)", run.stdout + run.stderr))


@pytest.mark.parametrize("client", sorted(CLIENTS))
def test_the_jvm_agrees_with_the_fixture(trial, client):
    verdict = trial[0][f"client.{client}"]
    assert verdict.rsplit(".", 1)[-1] == CLIENTS[client][1], verdict


def test_javac_agrees_with_the_fixture(trial):
    assert _failing(trial, trial[2]) == {}
    failing = _failing(trial, trial[3])
    assert set(failing) == {n for n, c in CLIENTS.items() if not c[2]}, failing
    assert failing["CatchCaught"] == "exception IOException is never thrown in body of corresponding try statement"
    assert failing["CatchOwn"] == "exception OwnException is never thrown in body of corresponding try statement"
    assert failing["OverridesRun"] == "run() in SubB cannot override run() in B", failing


def test_a_removed_checked_exception_is_suspicious(trial):
    found = {f["symbol"]: (f["severity"], f["detail"]) for f in _findings(trial) if f["rule"] == "THROWS_REMOVED"}
    catch = f"a caller's `catch ({IO} e)` around it no longer compiles (never thrown)"
    linked = "; compiled clients still link and run (rated suspicious, not info)"
    assert found == {
        "ta.S#caught()": (SUSPICIOUS, f"{IO} (checked): {catch}{linked}"),
        "ta.S#own()": (SUSPICIOUS, "ta.OwnException (checked): a caller's `catch (ta.OwnException e)` around it no "
                                   f"longer compiles (never thrown){linked}"),
        "ta.B#run()": (SUSPICIOUS, f"{IO} (checked; narrowed to its subclass {FNF}): a subclass outside the "
                                   f"artifact overriding it with `throws {IO}` no longer compiles{linked}"),
        "ta.S#covered()": (INFO, f"{FNF} (checked; still declared as its superclass {IO})"),
        "ta.S#unchecked()": (INFO, "java.lang.IllegalStateException (unchecked)"),
        "ta.S#narrowed()": (INFO, f"{IO} (narrowed to its subclass {FNF})"),
        "ta.S#any()": (INFO, "java.lang.Exception (checked)"),
    }, found


def test_a_raised_finding_lowered_for_its_module_is_noted():
    """A THROWS_REMOVED raised to suspicious, then lowered to info for a package its module does not export, is
    counted in the PACKAGE_NOT_EXPORTED note as any finding lowered one level."""
    raised = Finding("THROWS_REMOVED", "p.A#m()", "method", "", "", "java.io.IOException (checked)", "p/A#m()V",
                     raised=SUSPICIOUS)
    lowered = lower_unexported([raised], {"p": "a.mod"}, {}, {"p/A"})
    assert [f.severity for f in lowered] == [INFO]
    assert [n["code"] for n in diff_notes(lowered, {"p": "a.mod"}, {})] == ["PACKAGE_NOT_EXPORTED"]


def test_the_fixture_has_visibility_bridges(trial):
    old_impl = javap(trial[2], "tb.Impl", "-v")
    assert re.search(r"public int size\(\);\n\s+descriptor: \(\)I\n\s+flags: \(0x1041\) ACC_PUBLIC, ACC_BRIDGE, "
                     r"ACC_SYNTHETIC", old_impl), old_impl
    assert "public int size();" not in javap(trial[3], "tb.Impl")


@pytest.mark.parametrize("flags", [(), ("--include-synthetic",)])
def test_a_supertype_made_public_moves_nothing(trial, flags):
    found = sorted((f["symbol"], f["rule"], f["severity"]) for f in _findings(trial, *flags)
                   if f["symbol"].startswith("tb."))
    assert found == [
        ("tb.Base", "TYPE_ADDED", INFO),
        ("tb.Down#moved()", "MEMBER_MOVED_TO_SUPERTYPE", SUSPICIOUS),
        ("tb.Impl#fin()", "MEMBER_MADE_FINAL", BREAKING),
        ("tb.Up#moved()", "MEMBER_ADDED", INFO),
    ], found


def test_the_envelope_names_both_sides(trial):
    """T40: the JSON envelope's `query` held the old side only."""
    _, _, old, new, cache = trial
    code, text = main([str(old), str(new), "--json", "--cache-dir", str(cache)])
    assert code == 0 and json.loads(text)["query"] == f"{old} {new}", text
    code, text = main([str(old), str(old.parent / "missing.jar"), "--json", "--cache-dir", str(cache)])
    assert code == 5 and json.loads(text)["query"] == f"{old} {old.parent / 'missing.jar'}", text


def test_a_classpath_side_is_a_usage_error(tmp_path):
    for old, new in (("a.jar:b.jar", "c.jar:b.jar"), (f"{tmp_path}/a.jar:{tmp_path}/b.jar", str(tmp_path))):
        code, text = main([old, new, "--cache-dir", str(tmp_path / "cache")])
        assert code == 3, text
        assert text.splitlines()[0] == f"error: {old}: a side is one jar, a class directory or a glob of jars, " \
                                       "not a classpath", text
        assert text.splitlines()[1].startswith("hint: put the side's jars in one directory"), text
    # a coordinate is no classpath
    code, text = main(["no.such.group:none:1.0", "no.such.group:none:2.0", "--cache-dir", str(tmp_path / "cache")])
    assert code == 5 and "not a classpath" not in text, text


# the trial's artifacts, from ~/.m2 (the soak runs them)
M2 = Path.home() / ".m2" / "repository"
COMMONS_IO = [M2 / "commons-io/commons-io" / v / f"commons-io-{v}.jar" for v in ("2.11.0", "2.22.0")]
COLLECTIONS = [M2 / "org/apache/commons/commons-collections4" / v / f"commons-collections4-{v}.jar"
               for v in ("4.4", "4.5.0")]


def _real(jdx_home, jars: list[Path], *flags: str) -> list[dict]:
    absent = [str(j) for j in jars if not j.is_file()]
    if absent:
        pytest.skip(f"{', '.join(absent)} not in ~/.m2")
    code, text = main([*map(str, jars), "--json", "--limit", "5000", "--cache-dir", str(jdx_home / "cache"), *flags])
    assert code == 0, text
    return json.loads(text)["result"]["findings"]


@pytest.mark.soak
def test_commons_io_removed_checked_exceptions(jdx_home):
    found = {(f["symbol"], f["severity"]) for f in _real(jdx_home, COMMONS_IO) if f["rule"] == "THROWS_REMOVED"}
    assert ("org.apache.commons.io.IOUtils#readLines(java.io.Reader)", SUSPICIOUS) in found, found
    assert ("org.apache.commons.io.input.BOMInputStream#getBOM()", SUSPICIOUS) in found, found
    assert ("org.apache.commons.io.input.SwappedDataInputStream#skipBytes(int)", INFO) in found, found
    assert ("org.apache.commons.io.HexDump#dump(byte[], long, java.io.OutputStream, int)", INFO) in found, found


@pytest.mark.soak
def test_patricia_trie_moves_nothing_and_real_moves_stay(jdx_home):
    for flags in ((), ("--include-synthetic",)):
        moved = [f["symbol"] for f in _real(jdx_home, COLLECTIONS, *flags) if f["rule"] == "MEMBER_MOVED_TO_SUPERTYPE"]
        assert not [s for s in moved if ".trie.PatriciaTrie#" in s], moved
    moved = [f["symbol"] for f in _real(jdx_home, COMMONS_IO) if f["rule"] == "MEMBER_MOVED_TO_SUPERTYPE"]
    assert "org.apache.commons.io.input.BoundedReader#close()" in moved, moved
