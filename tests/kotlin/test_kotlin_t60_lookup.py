"""A member looked up by its Kotlin name is only that name's declarations, though @JvmName gives several Kotlin names
one JVM name (okio 3.6.0: `String.toPath`, `File.toOkioPath` and `java.nio.file.Path.toOkioPath` are all the
companion's `get`; `Path.div` and `Path.resolve` are all `resolve`); a parameter list may name Kotlin's types,
`Boolean` for the JVM's `boolean`, an extension's receiver first; the note on a companion's member found through its
class says how Kotlin calls an extension (on its receiver, once imported) and how Java calls a @JvmStatic one (the
outer class's static copy). Oracles: `javap -p -s -v -l` (JVM names, descriptors, flags, and the local kotlinc names
`$this$toPath` for an extension's receiver) and the fixture's declarations."""

from __future__ import annotations

import re

import pytest

from tests.fixtures import jdktool
from tests.kotlin.corpus import jar_fixtures

pytestmark = pytest.mark.soak  # kotlinc 1.3 compiles its fixture (~10-30 s cold): the soak runs it (.ci/run)

PATH = '''package kt60

import java.io.File

class Path(val s: String) {
    @JvmName("resolve")
    operator fun div(child: String): Path = Path(s + "/" + child)

    @JvmName("resolve")
    operator fun div(child: Path): Path = Path(s + "/" + child.s)

    fun resolve(child: String, normalize: Boolean): Path = Path(s + "/" + child + normalize)

    fun resolve(child: Path, normalize: Boolean): Path = Path(s + "/" + child.s + normalize)

    companion object {
        @JvmStatic
        @JvmName("get")
        @JvmOverloads
        fun String.toPath(normalize: Boolean = false): Path = Path(this + normalize)

        @JvmStatic
        @JvmName("get")
        @JvmOverloads
        fun File.toKtPath(normalize: Boolean = false): Path = Path(path + normalize)

        @JvmStatic
        @JvmName("get")
        @JvmOverloads
        fun java.nio.file.Path.toKtPath(normalize: Boolean = false): Path = Path(toString() + normalize)

        fun of(s: String): Path = Path(s)

        val String.asPath: Path get() = Path(this)
    }
}
'''

COMPANION = "kt60.Path$Companion"


def _jar():
    from tests.kotlin.corpus import kotlinc_jar

    return kotlinc_jar("t60-lookup", {"Path.kt": PATH})


store, jar_args = jar_fixtures(_jar, "kt60", "t60.jar")


def _javap(cls: str) -> dict[str, dict]:
    """JVM name + descriptor -> {flags, receiver}: the method's flags line and the Kotlin name of the extension
    receiver kotlinc names `$this$<name>` in its local variable table (None when there is none)."""
    out = jdktool.run(["javap", "-p", "-s", "-v", "-l", "-cp", str(_jar()), cls], capture_output=True, text=True,
                      check=True).stdout
    found: dict[str, dict] = {}
    name = key = None
    for line in out.splitlines():
        m = re.match(r"\s+(?:[\w<>,.? \[\]$]+ )?([\w$]+)\(.*\);$", line)
        if m:
            name, key = m.group(1), None
        elif name and line.strip().startswith("descriptor:"):
            key = name + line.split(":", 1)[1].strip()
            found[key] = {"flags": "", "receiver": None}
        elif key and line.strip().startswith("flags:"):
            found[key]["flags"] = line.strip()
        elif key and (lv := re.match(r"\s+\d+\s+\d+\s+\d+\s+\$this\$(\w+)\s", line)):
            found[key]["receiver"] = lv.group(1)
    return found


def _members(found) -> set[str]:
    return {e["row"]["name"] + e["row"]["descriptor"] for e in found.members}


def test_a_kotlin_name_is_only_its_own_functions_among_those_sharing_its_jvm_name(store):
    from jdx.engine.member_resolve import lookup

    jvm = _javap(COMPANION)
    gets = {k for k, v in jvm.items() if k.startswith("get(") and "ACC_SYNTHETIC" not in v["flags"]}
    to_path = {k for k in gets if jvm[k]["receiver"] == "toPath"}
    assert len(gets) == 6 and len(to_path) == 2  # two Kotlin names, one JVM name
    assert _members(lookup(store, f"{COMPANION}#toPath")) == to_path
    assert _members(lookup(store, f"{COMPANION}#toKtPath")) == gets - to_path
    assert _members(lookup(store, f"{COMPANION}#get")) == gets  # the JVM name keeps its meaning: every one

    outer = _javap("kt60.Path")
    resolves = {k for k in outer if k.startswith("resolve(")}
    divs = {k for k in resolves if k.count(";") + k.count("Z") == 2}  # `div(child)`: one parameter and the return
    assert len(resolves) == 4 and len(divs) == 2
    assert _members(lookup(store, "kt60.Path#div")) == divs
    assert _members(lookup(store, "kt60.Path#resolve")) == resolves


def test_parameters_of_another_kotlin_name_under_the_jvm_name_are_not_found(store, run_jdx, jar_args):
    jvm = _javap(COMPANION)
    assert jvm["get(Ljava/io/File;)Lkt60/Path;"]["receiver"] == "toKtPath"  # a `get(File)` that is not toPath
    r = run_jdx("signature", f"{COMPANION}#toPath(java.io.File)", *jar_args)
    assert r.code != 0 and "not found: kt60.Path$Companion#toPath(java.io.File)" in r.err + r.out, r.out
    assert "get(java.io.File" not in r.err + r.out  # no suggestion of toKtPath's JVM methods
    r = run_jdx("signature", f"{COMPANION}#toPath(Boolean)", *jar_args)
    assert r.code == 0, r.err
    assert "String.toPath(normalize: Boolean" in r.out and "toKtPath" not in r.out, r.out
    r = run_jdx("signature", "kt60.Path#div", *jar_args)
    assert r.code == 0, r.err
    assert "(2 overloads)" in r.out and "fun resolve(" not in r.out, r.out
    assert r.out.splitlines()[0] == "signatures of kt60.Path#div (2 overloads)", r.out  # as asked, not `#resolve`


def test_a_parameter_list_may_name_kotlin_types_with_the_receiver_first(store):
    from jdx.engine.member_resolve import lookup
    from jdx.errors import NotFoundError

    jvm, outer = _javap(COMPANION), _javap("kt60.Path")
    key = "get(Ljava/lang/String;Z)Lkt60/Path;"
    assert jvm[key]["receiver"] == "toPath" and "ACC_STATIC" in outer[key]["flags"]
    for ref in (f"{COMPANION}#toPath(String, Boolean)", f"{COMPANION}#toPath(java.lang.String, Boolean)",
                f"{COMPANION}#get(String, Boolean)", f"{COMPANION}#toPath(String, boolean)"):
        found = lookup(store, ref)
        assert found.target["id"] == "kt60/Path$Companion" and _members(found) == {key}, ref
    found = lookup(store, "kt60.Path#get(String, Boolean)")  # the @JvmStatic copy in the outer class
    assert found.target["id"] == "kt60/Path" and _members(found) == {key}
    file_get = "get(Ljava/io/File;Z)Lkt60/Path;"
    assert _members(lookup(store, f"{COMPANION}#toKtPath(java.io.File, Boolean)")) == {file_get}
    with pytest.raises(NotFoundError):
        lookup(store, f"{COMPANION}#toPath(String, Int)")


def test_the_companion_note_says_how_each_language_calls_an_extension_and_a_jvmstatic_member(store, run_jdx,
                                                                                           jar_args):
    from jdx.engine.member_resolve import lookup

    outer = _javap("kt60.Path")
    assert "ACC_STATIC" in outer["get(Ljava/lang/String;)Lkt60/Path;"]["flags"]  # Java: kt60.Path.get("a")
    assert not any(k.startswith(("getAsPath(", "of(")) for k in outer)  # no static copies of these
    assert _javap(COMPANION)["getAsPath(Ljava/lang/String;)Lkt60/Path;"]["receiver"] == "asPath"
    found = lookup(store, "kt60.Path#toPath")
    assert found.target["id"] == "kt60/Path$Companion"
    assert found.notes == ["toPath is a member of the companion object kt60.Path.Companion, not of kt60.Path: Kotlin "
                           "calls it as an extension on String (import kt60.Path.Companion.toPath), Java as "
                           "kt60.Path.get (@JvmStatic)"]
    assert lookup(store, "kt60.Path#asPath").notes == [
        "asPath is a member of the companion object kt60.Path.Companion, not of kt60.Path: Kotlin calls it as an "
        "extension on String (import kt60.Path.Companion.asPath), Java through kt60.Path.Companion"]
    assert lookup(store, "kt60.Path#of").notes == [
        "of is a member of the companion object kt60.Path.Companion, not of kt60.Path: Kotlin calls it as "
        "kt60.Path.of, Java through kt60.Path.Companion"]
    assert lookup(store, "kt60.Path#toKtPath").notes == [  # java.nio.file.Path beside kt60.Path: qualified
        "toKtPath is a member of the companion object kt60.Path.Companion, not of kt60.Path: Kotlin calls it as an "
        "extension on File or java.nio.file.Path (import kt60.Path.Companion.toKtPath), Java as kt60.Path.get "
        "(@JvmStatic)"]
    r = run_jdx("signature", "kt60.Path#toPath", *jar_args)
    assert r.code == 0, r.err
    assert "Java as kt60.Path.get (@JvmStatic)" in r.out and "toKtPath" not in r.out, r.out
