"""`jdx diff` after trial T59 (commons-compress 1.21 -> 1.28.0, opentelemetry 1.44 -> 1.66), each judged by javac:

- an exception type gaining a superclass the old side already had (commons-compress's ArchiveException, now an
  IOException) is SUPERTYPE_ADDED rated suspicious: a multi-catch naming both no longer compiles; a superclass new
  in this version is no such case (no old source names it);
- a removal that rests on a supertype neither side holds (the new XXHash32 extends commons-codec's) names that type
  in the finding's `unresolved` and an UNRESOLVED_SUPERTYPE note counts them, the rating unchanged (spec §7.7);
- an interface's default method reads `default` in the finding's form, as javap prints it;
- `--grep` matches the symbol up to its parameter list, never a parameter's type.
"""

from __future__ import annotations

import json
import shutil

import pytest

from tests.diff.shim import main, version_jars
from tests.fixtures import jdktool

pytestmark = pytest.mark.soak  # a trial's regression family with its own graph builds: the soak runs it whole (.ci/run)

OLD = {
    "tx/ArcEx.java": "package tx; public class ArcEx extends Exception { }",
    "tx/Fresh.java": "package tx; public class Fresh extends Exception { }",
    "tx/Sum.java": "package tx; public class Sum { public long value() { return 1; } public void reset() { } }",
    "tx/Cb.java": "package tx; public interface Cb { void run(); }",
    "tx/Pipe.java": "package tx; public class Pipe { public void send(tx.Cb cb) { } public void stop() { } }",
}
NEW = {
    "tx/ArcEx.java": "package tx; public class ArcEx extends java.io.IOException { }",
    "tx/Base.java": "package tx; public class Base extends Exception { }",
    "tx/Fresh.java": "package tx; public class Fresh extends Base { }",
    "dep/Hash.java": "package dep; public class Hash { public long value() { return 2; } public void reset() { } }",
    "tx/Sum.java": "package tx; public class Sum extends dep.Hash { }",
    "tx/Cb.java": "package tx; public interface Cb { void run(); default Cb then(Cb next) { return next; } }",
    "tx/Pipe.java": "package tx; public class Pipe { public void stop() { } }",
}
CLIENT = """package c;
public class Client {
    static void go() throws tx.ArcEx, java.io.IOException { }
    public static void use() {
        try { go(); } catch (java.io.IOException | tx.ArcEx e) { }
    }
}
"""


@pytest.fixture(scope="module")
def jars(tmp_path_factory):
    if shutil.which("javac") is None:
        pytest.skip("javac is not installed")
    return version_jars(tmp_path_factory.mktemp("diff-t59"), OLD, NEW, "tx")


def _diff(jars, *args: str) -> dict:
    root, old, new = jars
    code, text = main([str(old), str(new), "--json", "--cache-dir", str(root / "cache"), *args])
    assert code == 0, text
    return json.loads(text)["result"]


def _compiles(jars, which: int, tmp_path) -> bool:
    (tmp_path / "c").mkdir(parents=True)
    (tmp_path / "c" / "Client.java").write_text(CLIENT)
    done = jdktool.run(["javac", "-d", str(tmp_path / "out"), "-cp", str(jars[which]), str(tmp_path / "c" / "Client.java")],
                       capture_output=True, text=True)
    return done.returncode == 0


def test_an_exception_under_an_old_superclass_is_suspicious_as_javac_says(jars, tmp_path):
    assert _compiles(jars, 1, tmp_path / "old") and not _compiles(jars, 2, tmp_path / "new")  # the oracle
    added = {(f["symbol"], f["detail"].split(":")[0]): f for f in _diff(jars)["findings"]
             if f["rule"] == "SUPERTYPE_ADDED"}
    arc = added[("tx.ArcEx", "java.io.IOException")]
    assert arc["severity"] == "suspicious" and "multi-catch" in arc["detail"], arc
    # tx.Base is new: no source compiled against the old version names it in a catch
    assert added[("tx.Fresh", "tx.Base")]["severity"] == "info"


def test_removals_resting_on_a_missing_supertype_say_so_in_a_field_and_a_note(jars):
    result = _diff(jars)
    resting = {f["symbol"]: f for f in result["findings"] if f.get("unresolved")}
    assert set(resting) == {"tx.Sum#value()", "tx.Sum#reset()"}, sorted(resting)
    assert all(f["unresolved"] == ["dep.Hash"] and f["severity"] == "breaking" for f in resting.values())
    assert "unresolved" not in next(f for f in result["findings"] if f["symbol"] == "tx.Pipe#send(tx.Cb)")
    note = next(n for n in result["notes"] if n["code"] == "UNRESOLVED_SUPERTYPE")
    assert note["message"].startswith("2 findings (2 breaking) rest on supertypes neither side holds (dep.Hash)")


def test_a_default_method_reads_default(jars, tmp_path):
    then = next(f for f in _diff(jars)["findings"] if f["symbol"] == "tx.Cb#then(tx.Cb)")
    javap = jdktool.run(["javap", "-cp", str(jars[2]), "tx.Cb"], capture_output=True, text=True).stdout
    assert "public default tx.Cb then(tx.Cb);" in javap  # the oracle
    assert then["new"] == "public default tx.Cb then(tx.Cb)", then


def test_grep_leaves_parameter_types_out(jars):
    shown = [f["symbol"] for f in _diff(jars, "--grep", r"tx\.Cb")["findings"]]
    assert shown and all(s.startswith("tx.Cb") for s in shown), shown  # not tx.Pipe#send(tx.Cb)
