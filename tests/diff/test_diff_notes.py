"""What `jdx diff` says beside a rule (docs/diff.md "Notes"), each checked against javac and the JVM:

- a compile-time constant removed stays MEMBER_REMOVED (breaking, spec §7.7) and says that clients compiled against
  the old version still run (javac inlined it) while recompiling fails; a changed constant says compiled clients keep
  the old value (JLS §13.4.9);
- a type in a package its module does not export (module-info.java without `exports`) is no API for module users:
  its findings are rated one level lower, the detail and a PACKAGE_NOT_EXPORTED note say why, and a package renamed
  whole (a versioned shaded package) gets one PACKAGE_RENAMED note;
- every rule the engine can emit is in docs/diff.md's rule index, with its severity.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from jdx.engine.diff.rules import RULES

from tests.fixtures import jdktool

REPO = Path(__file__).resolve().parents[2]

API_OLD = """package nl.api;
public class Api {
    public static final String NAME = "old-name";
    public static final int LIMIT = 1;
    public static String hello() { return "hi"; }
}
"""
API_NEW = """package nl.api;
public class Api {
    public static final int LIMIT = 2;
    public static String hello() { return "hi"; }
}
"""
CLIENT = """package nlc;
public class Client {
    public static void main(String[] args) { System.out.println(nl.api.Api.NAME + " " + nl.api.Api.LIMIT); }
}
"""


def _shaded(version: str) -> dict[str, str]:
    return {f"nl/internal/shaded/{version}/{name}.java":
            f"package nl.internal.shaded.{version};\npublic class {name} {{ public int size() {{ return 1; }} }}\n"
            for name in ("Parser", "Decimal")}


def _library(root: Path, api: str, version: str, module: bool) -> Path:
    """A jar of `nl.api.Api` and two public classes of `nl.internal.shaded.<version>`; `module`: a module-info that
    exports nl.api only."""
    src, classes = root / "src", root / "classes"
    sources = {"nl/api/Api.java": api, **_shaded(version)}
    if module:
        sources["module-info.java"] = "module nl.lib { exports nl.api; }\n"
    for name, text in sources.items():
        (src / name).parent.mkdir(parents=True, exist_ok=True)
        (src / name).write_text(text)
    jdktool.run(["javac", "-d", str(classes), *map(str, sorted(src.rglob("*.java")))], check=True)
    jar = root / "lib.jar"
    jdktool.run(["jar", "cf", str(jar), "-C", str(classes), "."], check=True)
    return jar


@pytest.fixture(scope="module")
def libs(tmp_path_factory):
    root = tmp_path_factory.mktemp("diff-notes")
    jars = {
        "old": _library(root / "old", API_OLD, "v2_21_2", module=True),
        "new": _library(root / "new", API_NEW, "v2_22_3", module=True),
        # the same libraries without module-info: every public type is API
        "old-cp": _library(root / "old-cp", API_OLD, "v2_21_2", module=False),
        "new-cp": _library(root / "new-cp", API_OLD, "v2_22_3", module=False),
        "patch": _library(root / "patch", API_OLD, "v2_22_3", module=True),
    }
    return root, jars


def _json(run_jdx, *args):
    res = run_jdx("diff", *map(str, args), "--json")
    return res.code, json.loads(res.out)

@pytest.mark.soak  # slow: the soak runs it (.ci/run)

def test_constant_removed_and_changed_with_the_jvm(libs, run_jdx, tmp_path):
    root, jars = libs
    # the oracle: a client compiled against the old jar runs on the new one with the old values, and no longer
    # compiles against it
    (tmp_path / "nlc").mkdir()
    (tmp_path / "nlc" / "Client.java").write_text(CLIENT)
    jdktool.run(["javac", "-cp", str(jars["old"]), "-d", str(tmp_path / "out"), str(tmp_path / "nlc" /
                    "Client.java")], check=True)
    ran = subprocess.run(["java", "-cp", f"{tmp_path / 'out'}:{jars['new']}", "nlc.Client"], capture_output=True,
                         text=True)
    assert ran.returncode == 0 and ran.stdout.strip() == "old-name 1", ran.stderr
    again = jdktool.run(["javac", "-cp", str(jars["new"]), "-d", str(tmp_path / "out2"),
                            str(tmp_path / "nlc" / "Client.java")], capture_output=True, text=True)
    assert again.returncode != 0 and "NAME" in again.stderr

    code, env = _json(run_jdx, jars["old"], jars["new"], "--fail-on", "breaking")
    found = {(f["rule"], f["symbol"]): f for f in env["result"]["findings"]}
    removed = found[("MEMBER_REMOVED", "nl.api.Api#NAME")]
    assert removed["severity"] == "breaking"  # spec §7.7 keeps it breaking: recompiling fails
    assert 'a compile-time constant (= "old-name"): clients compiled against the old version inlined its value ' \
           "and still run; recompiling them fails" in removed["detail"]
    changed = found[("FIELD_CONSTANT_VALUE_CHANGED", "nl.api.Api#LIMIT")]
    assert changed["detail"] == "1 -> 2: clients compiled against the old version inlined 1 and keep it until " \
                                "recompiled (JLS §13.4.9)"
    assert code == 1 and env["result"]["gate"]["failed"]

@pytest.mark.soak  # slow: the soak runs it (.ci/run)

def test_unexported_package_rated_lower_and_renamed(libs, run_jdx):
    root, jars = libs
    # a patch release of a module that only renamed its unexported shaded package: nothing breaks module users
    code, env = _json(run_jdx, jars["old"], jars["patch"], "--fail-on", "breaking")
    result = env["result"]
    removed = [f for f in result["findings"] if f["rule"] == "TYPE_REMOVED"]
    assert sorted(f["symbol"] for f in removed) == ["nl.internal.shaded.v2_21_2.Decimal",
                                                    "nl.internal.shaded.v2_21_2.Parser"]
    assert {f["severity"] for f in removed} == {"suspicious"}
    assert all("package nl.internal.shaded.v2_21_2 is not exported by module nl.lib" in f["detail"]
               for f in removed)
    assert result["counts"]["breaking"] == 0 and code == 0 and not result["gate"]["failed"]
    codes = [n["code"] for n in result["notes"]]
    assert codes == ["PACKAGE_NOT_EXPORTED", "PACKAGE_RENAMED"]
    assert "package nl.internal.shaded.v2_21_2 -> nl.internal.shaded.v2_22_3: 2 types" in result["notes"][1]["message"]
    text = run_jdx("diff", str(jars["old"]), str(jars["patch"])).out
    assert "note PACKAGE_RENAMED: package nl.internal.shaded.v2_21_2 -> nl.internal.shaded.v2_22_3" in text

    # the same change without module-info: the types are API, their removal breaking
    code, env = _json(run_jdx, jars["old-cp"], jars["new-cp"])
    removed = [f for f in env["result"]["findings"] if f["rule"] == "TYPE_REMOVED"]
    assert len(removed) == 2 and {f["severity"] for f in removed} == {"breaking"}
    assert [n["code"] for n in env["result"]["notes"]] == ["PACKAGE_RENAMED"]


def _doc_rule_index() -> dict[str, str]:
    text = (REPO / "docs" / "diff.md").read_text()
    index = text.split("## Rule index", 1)[1].split("\n## ", 1)[0]
    return {m.group(1): m.group(2) for m in re.finditer(r"^\| `([A-Z_]+)` \| (breaking|suspicious|info) \|", index,
                                                         re.M)}


def _emitted_rules() -> set[str]:
    """Every rule id the engine's sources name as a quoted constant (jdx/engine/diff, the Kotlin view)."""
    out = set()
    for path in [*(REPO / "jdx" / "engine" / "diff").glob("*.py"), REPO / "jdx" / "kotlin" / "diff.py"]:
        out |= set(re.findall(r'"([A-Z][A-Z_]+_[A-Z_]+)"', path.read_text())) & set(RULES) | {
            r for r in re.findall(r'(?:Finding|make|finding)\("([A-Z_]+)"', path.read_text())}
    return out


def test_every_rule_is_in_the_docs_rule_index():
    index = _doc_rule_index()
    emitted = _emitted_rules()
    assert emitted <= set(RULES), emitted - set(RULES)
    assert set(RULES) <= set(index), sorted(set(RULES) - set(index))
    assert {r: index[r] for r in RULES} == dict(RULES)


def test_workspace_flags_given_to_diff_are_named():
    from jdx.commands.diff import ignored_flags_warning

    assert ignored_flags_warning([]) is None
    assert ignored_flags_warning(["--cache-dir", "/tmp/c"]) is None
    w = ignored_flags_warning(["-w", "ws", "--jars", "a.jar", "--jars", "b.jar", "--no-jdk", "--cache-dir", "/c"])
    assert w["code"] == "WORKSPACE_FLAGS_IGNORED"
    assert w["message"].startswith("-w --jars --no-jdk: ignored by diff")

@pytest.mark.soak  # slow: the soak runs it (.ci/run)

def test_workspace_flags_on_the_command_line_are_warned_and_change_nothing(libs, run_jdx):
    _root, jars = libs
    plain = run_jdx("diff", str(jars["old-cp"]), str(jars["new-cp"]))
    flagged = run_jdx("diff", str(jars["old-cp"]), str(jars["new-cp"]), "--jars", str(jars["patch"]), "--no-jdk")
    assert plain.code == flagged.code == 0, flagged.err
    warning = "⚠ WORKSPACE_FLAGS_IGNORED: --jars --no-jdk: ignored by diff"
    assert warning not in plain.out and warning in flagged.out, flagged.out
    assert flagged.out.replace("\n" + next(l for l in flagged.out.splitlines() if l.startswith(warning)), "") == \
        plain.out  # the same answer, and its next: step gains no ignored flag
