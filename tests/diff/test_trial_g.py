"""Defects a trial on real jars found in `jdx diff`, each judged by javac and the JVM (clients compiled against the old
library, run against the new one in one JVM: `shim.run_clients`):

- TYPE_MADE_FINAL on a class no class outside the artifact could extend (commons-cli 1.0 -> 1.9's `OptionBuilder`,
  whose only constructor was private) is rated info, the detail saying why; with a public or protected constructor
  it stays breaking;
- a removed bridge whose descriptor a superclass still implements with a bridge of its own (protobuf 4.28.2 ->
  4.32.1's `UnknownFieldSet$Parser#parseFrom(byte[])` under `--include-synthetic`) is no ABSTRACT_ADDED, and a
  superclass's concrete bridge implements an abstract method a new supertype brings;
- `--max-lines` drops finding rows, never the header or the tally, and its one cut line names what shows all;
- a coordinate without a version is a usage error (exit 3), unless a file of that name exists.
"""

from __future__ import annotations

import json
import os
import shutil

import pytest

from jdx.engine.diff.rules import BREAKING, INFO
from tests.diff.shim import main, run_client_bodies
from tests.fixtures import jdktool
from tests.fixtures.javac import javap, side_jar

pytestmark = pytest.mark.soak  # a trial's regression family with its own graph builds: the soak runs it whole (.ci/run)

LIBRARY = {
    # made final: only a private constructor (OptionBuilder), a package-private one, a private nested one; a public
    # and a protected constructor (outside subclasses existed)
    "ga": ({"Ob": "public class Ob { private Ob() { } public static Ob make() { return new Ob(); } }",
            "Pkg": "public class Pkg { Pkg() { } public static Pkg make() { return new Pkg(); } }",
            "Outer": "public class Outer { public static class In { private In() { } }"
                     " public static In make() { return new In(); } }",
            "Open": "public class Open { public Open() { } }",
            "Prot": "public abstract class Prot { protected Prot() { } }"},
           {"Ob": "public final class Ob { private Ob() { } public static Ob make() { return new Ob(); } }",
            "Pkg": "public final class Pkg { Pkg() { } public static Pkg make() { return new Pkg(); } }",
            "Outer": "public class Outer { public static final class In { private In() { } }"
                     " public static In make() { return new In(); } }",
            "Open": "public final class Open { public Open() { } }",
            "Prot": "public final class Prot { protected Prot() { } }"}),
    # javac writes `Object parse(byte[])` and `Msg parse(byte[])` bridges into AP (P<T>'s erasure, AP<T extends
    # Msg>'s) and, for the override, into U.Parser; v2 drops the override: AP's bridges implement them
    "gb": ({"Msg": "public interface Msg { }",
            "P": "public interface P<T> { T parse(byte[] b); }",
            "AP": "public abstract class AP<T extends Msg> implements P<T> {"
                  " public T parse(byte[] b) { return null; } }",
            "U": "public final class U implements Msg { public static final class Parser extends AP<U> {"
                 " public Parser() { } @Override public U parse(byte[] b) { return new U(); } } }"},
           {"Msg": "public interface Msg { }",
            "P": "public interface P<T> { T parse(byte[] b); }",
            "AP": "public abstract class AP<T extends Msg> implements P<T> {"
                  " public T parse(byte[] b) { return null; } }",
            "U": "public final class U implements Msg { public static final class Parser extends AP<U> {"
                 " public Parser() { } } }"}),
    # A gains I's abstract `Object get()`: Base's bridge `Object get()` (for Supplier<String>) implements it
    "gc": ({"Base": "public class Base implements java.util.function.Supplier<String> {"
                    " public String get() { return \"b\"; } }",
            "A": "public abstract class A extends Base { public A() { } }"},
           {"Base": "public class Base implements java.util.function.Supplier<String> {"
                    " public String get() { return \"b\"; } }",
            "I": "public interface I { Object get(); }",
            "A": "public abstract class A extends Base implements I { public A() { } }"}),
}

# client class -> (its source after the package line, what running it against the new library throws)
CLIENTS = {
    "UsesFinal": ("public class UsesFinal { public static void use() {"
                  " ga.Ob.make(); ga.Pkg.make(); ga.Outer.make(); new ga.Open(); } }", "ok"),
    "ExtendsOpen": ("class SubOpen extends ga.Open { }\n"
                    "public class ExtendsOpen { public static void use() { new SubOpen(); } }",
                    "IncompatibleClassChangeError"),
    "ExtendsProt": ("class SubProt extends ga.Prot { }\n"
                    "public class ExtendsProt { public static void use() { new SubProt(); } }",
                    "IncompatibleClassChangeError"),
    "CallsThroughBridge": ("public class CallsThroughBridge { public static void use() {"
                           " gb.P<gb.U> p = new gb.U.Parser(); p.parse(new byte[0]);"
                           " gb.AP<gb.U> a = new gb.U.Parser(); a.parse(new byte[0]); } }", "ok"),
    "SubclassOfA": ("class SubA extends gc.A { }\n"
                    "public class SubclassOfA { public static void use() {"
                    " Object o = new SubA(); ((java.util.function.Supplier<?>) o).get(); } }", "ok"),
}

# subclasses javac refuses against the old library: why TYPE_MADE_FINAL breaks nothing there
NEVER_COMPILED = {
    "ga.Ob": ("class SubOb extends ga.Ob { }", "Ob() has private access"),
    "ga.Pkg": ("class SubPkg extends ga.Pkg { }", "Pkg() is not public"),
    "ga.Outer$In": ("class SubIn extends ga.Outer.In { }", "In() has private access"),
}


@pytest.fixture(scope="module")
def trial(tmp_path_factory):
    """(the JVM's verdict per client, findings by flags, root, old jar, new jar, cache dir): one javac per side."""
    if shutil.which("javac") is None or shutil.which("java") is None:
        pytest.skip("java/javac are not installed")
    root = tmp_path_factory.mktemp("diff-trial-g")
    old, new = side_jar(root, LIBRARY, "old"), side_jar(root, LIBRARY, "new")
    verdicts = run_client_bodies(root, CLIENTS, old, new)
    return verdicts, root, old, new, root / "cache"


def _findings(trial, *flags: str) -> list[dict]:
    _, _, old, new, cache = trial
    code, text = main([str(old), str(new), "--json", "--limit", "1000", "--cache-dir", str(cache), *flags])
    assert code == 0, text
    return json.loads(text)["result"]["findings"]


def _of(found: list[dict], prefix: str) -> list[tuple[str, str, str]]:
    return sorted((f["symbol"], f["rule"], f["severity"]) for f in found if f["symbol"].startswith(prefix))


def _javac_against(root, jar, name: str, body: str):
    path = root / "never" / name / "client" / "Sub.java"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"package client;\n{body}\n")
    return jdktool.run(["javac", "-d", str(root / "never" / name / "out"), "-cp", str(jar), str(path)],
                       capture_output=True, text=True)


@pytest.mark.parametrize("client", sorted(CLIENTS))
def test_the_jvm_agrees_with_the_fixture(trial, client):
    verdict = trial[0][f"client.{client}"]
    assert verdict.rsplit(".", 1)[-1] == CLIENTS[client][1], verdict


@pytest.mark.parametrize("symbol", sorted(NEVER_COMPILED))
def test_no_outside_subclass_of_these_ever_compiled(trial, symbol):
    body, error = NEVER_COMPILED[symbol]
    run = _javac_against(trial[1], trial[2], symbol, body)
    assert run.returncode != 0 and error in run.stdout + run.stderr, run.stdout + run.stderr


def test_a_class_no_outside_class_could_extend_made_final_is_info(trial):
    found = _findings(trial)
    assert _of(found, "ga.") == [
        ("ga.Ob", "TYPE_MADE_FINAL", INFO), ("ga.Open", "TYPE_MADE_FINAL", BREAKING),
        ("ga.Outer$In", "TYPE_MADE_FINAL", INFO), ("ga.Pkg", "TYPE_MADE_FINAL", INFO),
        ("ga.Prot", "ABSTRACT_REMOVED", INFO), ("ga.Prot", "TYPE_MADE_FINAL", BREAKING)]
    detail = {f["symbol"]: f["detail"] for f in found if f["rule"] == "TYPE_MADE_FINAL"}
    assert detail["ga.Ob"].startswith("no class outside the artifact could extend it before (it had no public or "
                                      "protected constructor"), detail
    assert detail["ga.Open"].startswith("it had a public or protected constructor: a subclass compiled against the "
                                        "old version fails to load (IncompatibleClassChangeError)"), detail
    assert detail["ga.Prot"] == detail["ga.Open"]


def test_info_made_final_is_no_module_note(trial):
    _, _, old, new, cache = trial
    code, text = main([str(old), str(new), "--json", "--cache-dir", str(cache)])
    assert code == 0 and json.loads(text)["result"]["notes"] == [], text


def test_the_fixture_has_the_bridges(trial):
    old_parser, new_ap = javap(trial[2], "gb.U$Parser"), javap(trial[3], "gb.AP")
    assert "public java.lang.Object parse(byte[]);" in old_parser, old_parser
    assert "public java.lang.Object parse(byte[]);" in new_ap and "public T parse(byte[]);" in new_ap, new_ap
    assert "public java.lang.Object get();" in javap(trial[3], "gc.Base")


def test_a_removed_bridge_a_superclass_bridge_implements_is_no_abstract_added(trial):
    found = [f for f in _findings(trial, "--include-synthetic") if f["symbol"].startswith("gb.U$Parser#")]
    by_id = {f["id"]: (f["rule"], f["severity"], f["detail"]) for f in found}
    assert by_id["gb/U$Parser#parse([B)Ljava/lang/Object;"] == (
        "MEMBER_MOVED_TO_SUPERTYPE", "suspicious", "now inherited from gb.AP"), found
    assert by_id["gb/U$Parser#parse([B)Lgb/Msg;"][0] == "MEMBER_MOVED_TO_SUPERTYPE", found
    # the override itself is gone: a caller of `U parse(byte[])` fails to link
    assert by_id["gb/U$Parser#parse([B)Lgb/U;"][0] == "MEMBER_REMOVED", found
    assert not [f for f in found if f["rule"] == "ABSTRACT_ADDED"], found


def test_a_superclass_bridge_implements_a_new_supertypes_abstract_method(trial):
    assert _of(_findings(trial), "gc.") == [("gc.A", "SUPERTYPE_ADDED", INFO), ("gc.I", "TYPE_ADDED", INFO)]
    # javac agrees: a subclass compiled against the new version need not implement get()
    run = _javac_against(trial[1], trial[3], "gc-new", "class SubA extends gc.A { }")
    assert run.returncode == 0, run.stdout + run.stderr


def _text(trial, *flags: str) -> list[str]:
    _, _, old, new, cache = trial
    code, text = main([str(old), str(new), "--cache-dir", str(cache), *flags])
    assert code == 0, text
    return text.splitlines()


def test_max_lines_keeps_the_header_and_the_tally(trial):
    full = _text(trial)
    tally = next(line for line in full if " breaking · " in line)
    cut = _text(trial, "--max-lines", "7")
    assert len(cut) == 7 and cut[0] == full[0] and tally in cut, cut
    rows = [line for line in cut if line.split("  ", 1)[0] in (BREAKING, "suspicious", INFO)]
    assert rows == full[1:1 + len(rows)] and len(rows) == 4, cut  # the most severe rows first
    assert cut[-1] == f"… {len(rows)} of {len(full) - 5} shown (--max-lines {len(full)} for all)", cut
    assert _text(trial, "--max-lines", str(len(full))) == full


def test_max_lines_drops_sources_and_next_before_findings(trial):
    """T40: `--max-lines 5` printed six lines, the header, the tally, two `source:` lines, `next:` and the cut, and no
    finding (the breaking one included); the `source:`/`next:` lines go first, then findings from the least severe.
    The least a cut prints is the header, the tally and its own line."""
    full = _text(trial)
    first_row = full[1]
    assert first_row.startswith(BREAKING), full
    cut = _text(trial, "--max-lines", "5")
    assert len(cut) == 5 and cut[1:3] == full[1:3] and not any(line.startswith(("source:", "next:")) for line in cut), cut
    assert len(_text(trial, "--max-lines", "1")) == 3


def test_max_lines_with_limit_states_one_cut_naming_what_shows_everything(trial):
    full = _text(trial)
    cut = _text(trial, "--limit", "3", "--max-lines", "7")
    cuts = [line for line in cut if line.startswith("… ")]
    matching = len(full) - 5  # header, tally, two sources, next: the rest are rows
    assert len(cut) == 7 and any(" breaking · " in line for line in cut), cut
    assert cuts == [f"… 3 of {matching} shown (--max-lines 9 for all 3, --limit {matching} --max-lines "
                    f"{len(full)} for all {matching})"], cut
    assert _text(trial, "--limit", str(matching), "--max-lines", str(len(full))) == full


def test_brief_max_lines_keeps_whole_rows(trial):
    cut = _text(trial, "--brief", "--max-lines", "3")
    assert len(cut) == 3 and cut[-1].startswith("… 2 of "), cut


def test_a_coordinate_without_a_version_is_a_usage_error(trial, tmp_path, monkeypatch):
    _, _, old, new, cache = trial
    code, text = main(["commons-cli:commons-cli", str(new), "--cache-dir", str(cache)])
    assert code == 3 and "needs group:artifact:version" in text, text
    monkeypatch.chdir(tmp_path)
    shutil.copy(old, tmp_path / "lib:old")  # a file of that name is compared
    code, text = main(["lib:old", str(new), "--cache-dir", str(cache), "--json"])
    assert code == 0 and os.path.exists("lib:old"), text
