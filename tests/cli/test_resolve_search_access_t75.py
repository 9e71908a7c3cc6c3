"""`resolve` and `search` defects a trial on commons-text, commons-lang3, jose4j and the JDK found:

- a stack frame's class is its binary name: `at Client.main(Client.java:5)` of a class of the unnamed package
  resolved to the JDK's `com.sun.security.ntlm.Client` by its simple name;
- resolve's candidates did not say which are deprecated, as search does (`StringEscapeUtils`);
- a non-public type named as written (`java.lang.WeakPairMap$Pair`) ranked before the public `KeyPair`; a public
  type nested in a non-public one counted as public; a library's `internal` package ranked as API; a member of a
  deprecated class ranked as any other;
- nothing said a JDK type is in a package its module does not export (`com.sun.tools.javac.tree.JCTree`).

Oracles: a real JVM's stack trace, javap (access flags, `Deprecated: true`) of javac-compiled fixtures, and the JDK's
own module descriptor (`java --describe-module`)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess

import pytest

from tests.fixtures import jdktool
from tests.fixtures.javac import javap

pytestmark = pytest.mark.soak  # a trial's regression family with its own builds: the soak runs it whole (.ci/run)

SOURCES = {
    "Boom.java": "public class Boom {\n  public static void main(String[] a) {\n"
                 "    throw new IllegalStateException(\"boom\");\n  }\n}\n",
    "fx/Client.java": "package fx;\npublic class Client {\n  public static void main(String[] a) {\n"
                      "    throw new IllegalStateException(\"fx\");\n  }\n}\n",
    "fx/Pair.java": "package fx;\npublic class Pair {}\n",
    "fx/KeyPair.java": "package fx;\npublic class KeyPair {}\n",
    "fx/Util.java": "package fx;\nclass Util {\n  public static class Pair {}\n}\n",
    "fx/Knob.java": "package fx;\n@Deprecated public class Knob {\n  public void turn() {}\n}\n",
    "fx/dial/Knob.java": "package fx.dial;\npublic class Knob {\n  @Deprecated public void turn() {}\n"
                         "  public void turn(int n) {}\n  @Deprecated public int level;\n}\n",
    # without the fix the deprecated class's member came first (its owner sorts first)
    "fx/AgedBuilder.java": "package fx;\n@Deprecated public class AgedBuilder {\n  public boolean isBlank() "
                           "{ return true; }\n}\n",
    "fx/Builder.java": "package fx;\npublic class Builder {\n  public boolean isBlank() { return true; }\n}\n",
    # a library's `internal` package sorts first by name, yet is no API
    "fx/base/internal/Codec64.java": "package fx.base.internal;\npublic class Codec64 {}\n",
    "fx/codec/Codec64.java": "package fx.codec;\npublic class Codec64 {}\n",
}


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """(the workspace's class directory, the real JVM's `at` lines of Boom and of a default-package Client the
    workspace lacks)."""
    if shutil.which("javac") is None or shutil.which("java") is None:
        pytest.skip("javac and java are not installed")
    root = tmp_path_factory.mktemp("access-t75")
    classes = root / "classes"
    src = root / "src"
    for name, text in SOURCES.items():
        (src / name).parent.mkdir(parents=True, exist_ok=True)
        (src / name).write_text(text)
    jdktool.run(["javac", "-g", "-d", str(classes), *map(str, sorted(src.rglob("*.java")))], check=True)
    elsewhere = root / "elsewhere"  # the class that ran, in no artifact of the workspace
    (elsewhere / "Client.java").parent.mkdir(parents=True)
    (elsewhere / "Client.java").write_text("public class Client {\n  public static void main(String[] a) {\n"
                                           "    throw new IllegalStateException(\"client\");\n  }\n}\n")
    jdktool.run(["javac", "-d", str(elsewhere), str(elsewhere / "Client.java")], check=True)
    frames = {}
    for cp, cls in ((classes, "Boom"), (elsewhere, "Client"), (classes, "fx.Client")):
        proc = subprocess.run(["java", "-cp", str(cp), cls], capture_output=True, text=True, timeout=120)
        frames[cls] = next(ln.strip() for ln in proc.stderr.splitlines() if ln.strip().startswith("at "))
    return classes, frames


def _json(run_jdx, classes, *args: str) -> tuple[int, dict]:
    r = run_jdx("--jars", str(classes), *args, "--json")
    return r.code, json.loads(r.out or r.err)


# --- a frame's class is its binary name --------------------------------------------------------------------------

def test_the_jvm_names_a_default_package_class_by_its_simple_name(built):
    _classes, frames = built
    assert frames["Client"] == "at Client.main(Client.java:3)", frames
    assert frames["fx.Client"] == "at fx.Client.main(Client.java:4)", frames


def test_a_frame_of_a_default_package_class_the_workspace_lacks_is_no_other_client(run_jdx, built):
    classes, frames = built
    code, data = _json(run_jdx, classes, "resolve", frames["Client"])
    assert code == 1, data
    message = data["error"]["message"]
    assert "class Client of the frame is not in the workspace" in message and "unnamed package" in message, message
    assert "fx.Client" not in json.dumps(data) and "ntlm" not in json.dumps(data), data


def test_a_frame_of_a_default_package_class_the_workspace_has_resolves(run_jdx, built):
    classes, frames = built
    for cls, ref in (("Boom", "Boom#main(java.lang.String[])"), ("fx.Client", "fx.Client#main(java.lang.String[])")):
        code, data = _json(run_jdx, classes, "resolve", frames[cls])
        assert code == 0, data
        assert [c["ref"] for c in data["result"]["candidates"]] == [ref], data


def test_a_name_still_resolves_by_its_end(run_jdx, built):
    classes, _frames = built
    code, data = _json(run_jdx, classes, "resolve", "Client")
    assert code == 0 and "fx.Client" in [c["ref"] for c in data["result"]["candidates"]], data
    code, data = _json(run_jdx, classes, "resolve", "Client.main")
    assert code == 0 and [c["ref"] for c in data["result"]["candidates"]] == ["fx.Client#main(java.lang.String[])"]


def test_a_trace_answers_the_lacking_frame_in_place(run_jdx, built):
    classes, frames = built
    r = run_jdx("--jars", str(classes), "resolve", f"{frames['Client']}\n{frames['Boom']}\n")
    assert r.code == 0, r.err
    out = r.out.splitlines()
    assert out[out.index(frames["Client"]) + 1].startswith("  not found: class Client of the frame"), r.out


# --- deprecation in resolve, as search says it ---------------------------------------------------------------------

def _deprecated(classes, cls: str) -> dict[str, bool]:
    """javap's word: the class (`""`) and each member name, deprecated when every declaration of it is."""
    flags: dict[str, list[bool]] = {}
    name, body = "", False
    for line in javap(classes, cls, "-v").splitlines():
        head = re.fullmatch(r"  \S.*? ([\w.$]+)(?:\(.*\))?;", line) if body else None
        if line == "{":
            body = True
        elif head:
            name = head.group(1).rsplit(".", 1)[-1] if "(" not in line or "." not in head.group(1) else None
            if name is not None:
                flags.setdefault(name, []).append(False)
        elif line == "    Deprecated: true" and name:
            flags[name][-1] = True
        elif line == "Deprecated: true":
            flags[""] = [True]
    return {k: all(v) for k, v in flags.items()}


def test_resolve_marks_deprecated_candidates_as_search_does(run_jdx, built):
    classes, _frames = built
    aged, dial = _deprecated(classes, "fx.Knob"), _deprecated(classes, "fx.dial.Knob")
    assert aged.get("") and not dial.get("") and dial["level"] and not dial["turn"], (aged, dial)
    code, data = _json(run_jdx, classes, "resolve", "Knob")
    assert code == 0, data
    found = [(c["ref"], c.get("deprecated", False)) for c in data["result"]["candidates"]]
    assert found == [("fx.dial.Knob", False), ("fx.Knob", True)], found  # the deprecated one after, as search ranks
    code, searched = _json(run_jdx, classes, "search", "Knob", "--kind", "class")
    assert [(m["ref"], m.get("deprecated", False)) for m in searched["result"]["matches"]] == found
    code, data = _json(run_jdx, classes, "resolve", "fx.dial.Knob.level")
    assert [(c["ref"], c.get("deprecated")) for c in data["result"]["candidates"]] == [("fx.dial.Knob#level", True)]
    text = run_jdx("--jars", str(classes), "resolve", "Knob").out.splitlines()
    assert text[:2] == ["class fx.dial.Knob  classes", "class fx.Knob [deprecated]  classes"], text


# --- what can be used first ----------------------------------------------------------------------------------------

def _public(classes, cls: str) -> bool:
    """Reachable from outside the package: the class and every class around it public (javap's first line)."""
    parts = cls.split("$")
    return all(javap(classes, "$".join(parts[:i])).splitlines()[1].startswith("public ")
               for i in range(1, len(parts) + 1))


def test_a_public_type_in_a_closed_class_is_not_public(run_jdx, built):
    classes, _frames = built
    assert javap(classes, "fx.Util$Pair").splitlines()[1].startswith("public class")  # its own flags: public
    assert not _public(classes, "fx.Util$Pair") and _public(classes, "fx.KeyPair")
    code, data = _json(run_jdx, classes, "search", "Pair", "--kind", "class", "--in", str(classes))
    refs = [(m["ref"], m["public"]) for m in data["result"]["matches"]]
    # the non-public exact match after every public type (a worse tier's KeyPair too)
    assert refs == [("fx.Pair", True), ("fx.KeyPair", True), ("fx.Util$Pair", False)], refs
    code, data = _json(run_jdx, classes, "resolve", "Pair")
    assert [(c["ref"], c["public"]) for c in data["result"]["candidates"]][:2] == [("fx.Pair", True),
                                                                                   ("fx.Util$Pair", False)], data


def test_the_jdk_private_pairs_come_after_its_public_types(run_jdx, built):
    """The trial's `Pair`: java.lang.WeakPairMap$Pair and friends (not public: javap) came before KeyPair."""
    classes, _frames = built
    code, data = _json(run_jdx, classes, "search", "Pair", "--kind", "class,interface", "--limit", "200")
    assert code == 0, data
    matches = data["result"]["matches"]
    public = [m["public"] and not m.get("jdk_internal") for m in matches]
    assert public == sorted(public, reverse=True), [(m["ref"], m["public"]) for m in matches]
    refs = [m["ref"] for m in matches]
    assert refs.index("java.security.KeyPair") < refs.index("java.lang.WeakPairMap$Pair"), refs
    assert "public" not in javap("", "java.lang.WeakPairMap$Pair").splitlines()[1].split("interface")[0]


def test_a_library_internal_package_and_a_deprecated_class_member_rank_after(run_jdx, built):
    classes, _frames = built
    code, data = _json(run_jdx, classes, "search", "Codec64", "--in", str(classes))
    assert [m["ref"] for m in data["result"]["matches"]] == ["fx.codec.Codec64", "fx.base.internal.Codec64"], data
    assert _deprecated(classes, "fx.AgedBuilder") == {"": True, "isBlank": False}
    code, data = _json(run_jdx, classes, "search", "isBlank", "--in", str(classes))
    found = [(m["ref"], m.get("deprecated", False)) for m in data["result"]["matches"]]
    # marked only when deprecated itself (docs/search.md), ranked after as a deprecated member is
    assert found == [("fx.Builder#isBlank()", False), ("fx.AgedBuilder#isBlank()", False)], found


# --- JDK internal ---------------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def compiler_exports() -> dict[str, str]:
    """`java --describe-module jdk.compiler`: each package it exports, to all (`exports`) or some modules only."""
    if shutil.which("java") is None:
        pytest.skip("java is not installed")
    out = subprocess.run(["java", "--describe-module", "jdk.compiler"], capture_output=True, text=True,
                         check=True).stdout
    found = {}
    for line in out.splitlines():
        words = line.split()
        if words[:1] == ["exports"]:
            found[words[1]] = "all"
        elif words[:2] == ["qualified", "exports"]:
            found[words[2]] = "some"
    return found


def test_a_type_of_a_package_exported_to_some_modules_is_jdk_internal(run_jdx, built, compiler_exports):
    classes, _frames = built
    assert compiler_exports["com.sun.tools.javac.tree"] == "some" and compiler_exports["com.sun.source.tree"] == "all"
    code, data = _json(run_jdx, classes, "search", "JCClassDecl")
    (hit,) = data["result"]["matches"]
    assert hit["ref"] == "com.sun.tools.javac.tree.JCTree$JCClassDecl" and hit["jdk_internal"] is True, hit
    r = run_jdx("--jars", str(classes), "search", "JCClassDecl")
    assert r.out.splitlines()[0] == "class com.sun.tools.javac.tree.JCTree$JCClassDecl (JDK internal)  jdk.compiler"
    code, data = _json(run_jdx, classes, "search", "ClassTree", "--kind", "interface")
    assert all("jdk_internal" not in m for m in data["result"]["matches"]
               if m["ref"].startswith("com.sun.source.tree.")), data
    code, data = _json(run_jdx, classes, "resolve", "JCClassDecl")
    assert [(c["ref"], c.get("jdk_internal")) for c in data["result"]["candidates"]] == [
        ("com.sun.tools.javac.tree.JCTree$JCClassDecl", True)]


def test_show_says_a_type_is_jdk_internal(run_jdx, built, compiler_exports):
    classes, _frames = built
    code, data = _json(run_jdx, classes, "show", "com.sun.tools.javac.tree.JCTree")
    assert code == 0 and data["result"]["jdk_internal"] is True, data
    card = run_jdx("--jars", str(classes), "show", "com.sun.tools.javac.tree.JCTree").out.splitlines()
    assert "JDK internal: jdk.compiler does not export com.sun.tools.javac.tree to every module" in card[1], card
    code, data = _json(run_jdx, classes, "show", "com.sun.source.tree.ClassTree")
    assert "jdk_internal" not in data["result"], data
    assert "JDK internal" not in run_jdx("--jars", str(classes), "show", "fx.Pair").out
