"""A Kotlin property named by its Kotlin name (`kp.Box#size`, where Kotlin declares `val size` and the JVM has a
private field `size` and a public getter `getSize()`) is the property: `member_resolve.lookup` answers its getter,
setter and backing field, so `callers` and `usages` reach the accessors' call sites, not only the field's reads inside
the class. A JVM name, a parameter list or a field type keeps its JVM meaning; a Java class with a field and a
same-named method is unchanged; `@get:JvmName`, `@JvmField` and `const val` properties resolve as the JVM has them.

Oracles: javap (the JVM members kotlinc made) and `javap -c -l` of a Java client compiled by javac against the Kotlin
jar and of a Kotlin client compiled with it: the (method, line) of every `invokevirtual kp/Box.getSize` /
`setLabel`."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from jdx.engine.member_resolve import lookup
from jdx.engine.rel_calls import CallOptions, call_tree
from jdx.engine.rel_usages import UsageOptions, usages
from jdx.errors import UsageError
from tests.fixtures import jdktool
from tests.fixtures.javac import javap

LIB = '''package kp

class Box(val n: Int) {
    val size: Int = n * 2
    var label: String = "x"
    @get:JvmName("width") val width: Int = n + 1
    @JvmField val depth: Int = n + 3
    fun twice(): Int = size + size

    companion object {
        const val MAX: Int = 9
    }
}
'''

USE_K = '''package kp.use

import kp.Box

fun useK(b: Box): Int {
    b.label = "y"
    return b.size +
        b.width
}

fun readLabel(b: Box): String = b.label
'''

USE_J = '''package ju;

import kp.Box;

public class User {
    public static int use(Box b) {
        b.setLabel(b.getLabel() + "z");
        int s = b.getSize();
        return s
            + b.getSize()
            + b.width() + b.depth;
    }

    public static String label(Box b) {
        return b.getLabel();
    }
}
'''

J_BOX = '''package ju;

public class JBox {
    public int size;

    public int size() {
        return size;
    }

    static int use(JBox b) {
        return b.size() + b.size;
    }
}
'''


def _kotlin_jar() -> Path:
    from tests.kotlin.corpus import kotlinc_jar

    return kotlinc_jar("property-refs", {"Box.kt": LIB, "UseK.kt": USE_K})


@pytest.fixture(scope="module")
def java_jar(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("kprop-java")
    src, classes = root / "src", root / "classes"
    (src / "ju").mkdir(parents=True)
    (src / "ju" / "User.java").write_text(USE_J)
    (src / "ju" / "JBox.java").write_text(J_BOX)
    jdktool.run(["javac", "-g", "-d", str(classes), "-cp", str(_kotlin_jar()), str(src / "ju" / "User.java"),
                 str(src / "ju" / "JBox.java")], check=True, capture_output=True, text=True)
    jar = root / "ju.jar"
    jdktool.run(["jar", "cf", str(jar), "-C", str(classes), "ju"], check=True)
    return jar


@pytest.fixture(scope="module")
def store(tmp_path_factory, jdx_home, java_jar):
    from tests.kotlin.corpus import indexed_store

    yield from indexed_store(tmp_path_factory, jdx_home, _kotlin_jar(), "kprop", "property-refs.jar", (java_jar,))


def _call_lines(classpath: str, cls: str, target: str) -> set[tuple[str, int]]:
    """(method name, source line) of every `invokevirtual <target>` in `javap -c -l` of `cls`: the oracle."""
    out = javap(classpath, cls, "-c", "-l")
    found: set[tuple[str, int]] = set()
    for block in re.split(r"\n(?=  \S)", out):  # one block per member
        head = re.match(r"  [^\n]*?(\w+)\(", block)
        if head is None or "Code:" not in block:
            continue
        offsets = [int(m.group(1)) for m in re.finditer(rf"\n\s+(\d+): invokevirtual .*// Method {re.escape(target)}:",
                                                        block)]
        table = sorted((int(pc), int(line)) for line, pc in re.findall(r"line (\d+): (\d+)", block))
        for off in offsets:
            found.add((head.group(1), max(line for pc, line in table if pc <= off)))
    return found


def _oracle(java_jar: Path, target: str) -> set[tuple[str, int]]:
    """Every call of `target` (`kp/Box.getSize`) in the two clients, as `Class#method` and line."""
    cp = f"{_kotlin_jar()}:{java_jar}"
    return {(f"ju.User#{m}", line) for m, line in _call_lines(cp, "ju.User", target)} | \
        {(f"kp.use.UseKKt#{m}", line) for m, line in _call_lines(cp, "kp.use.UseKKt", target)}


def _refs(store, text: str, **kw) -> list[str]:
    return [e["ref"] for e in lookup(store, text, **kw).members]


def _callers(store, text: str, view: str = "kotlin") -> dict[str, set[tuple[str, int]]]:
    result, _ = call_tree(store, text, CallOptions(view=view), "in")
    return {root["method"]: {(n["method"].split("(", 1)[0], line) for n in root["tree"] for line in n["lines"]}
            for root in result["roots"]}


def test_the_oracles(java_jar):
    out = javap(_kotlin_jar(), "kp.Box")
    for line in ("private final int size;", "public final int getSize();", "private java.lang.String label;",
                 "public final java.lang.String getLabel();", "public final void setLabel(java.lang.String);",
                 "private final int width;", "public final int width();", "public final int depth;",
                 "public static final int MAX;"):
        assert line in out, (line, out)
    assert "getWidth" not in out and "getDepth" not in out and "getMAX" not in out
    assert not re.search(r"\bsize\(", out)  # no JVM method is named `size`: the name is the property's and the field's
    # javac compiled the Java client against the Kotlin jar: it calls the accessors by their JVM names
    assert _oracle(java_jar, "kp/Box.getSize") == {("ju.User#use", 8), ("ju.User#use", 10), ("kp.use.UseKKt#useK", 7)}


def test_a_property_name_is_its_accessors_and_field(store):
    assert _refs(store, "kp.Box#size") == ["kp.Box#getSize()", "kp.Box#size"]
    assert _refs(store, "kp.Box#label") == ["kp.Box#getLabel()", "kp.Box#setLabel(java.lang.String)", "kp.Box#label"]
    assert _refs(store, "kp.Box#width") == ["kp.Box#width()", "kp.Box#width:int"]  # @get:JvmName: the getter's name
    assert _refs(store, "kp.Box#depth") == ["kp.Box#depth"]  # @JvmField: a public field, no accessor
    assert _refs(store, "kp.Box#MAX") == ["kp.Box#MAX"]  # const val: the static field only
    notes = lookup(store, "kp.Box#size").notes
    assert notes == ["size is a Kotlin property: the answer includes its getter kp.Box#getSize() (a ref with "
                     "parameters or a type names one JVM member)"], notes
    assert "its getter kp.Box#getLabel(), setter kp.Box#setLabel(java.lang.String) (" in \
        lookup(store, "kp.Box#label").notes[0]
    assert lookup(store, "kp.Box#width").notes == []  # nothing added: the JVM name was the property's already


def test_a_jvm_name_keeps_its_jvm_meaning(store):
    assert _refs(store, "kp.Box#getSize()") == ["kp.Box#getSize()"]
    assert _refs(store, "kp.Box#getSize") == ["kp.Box#getSize()"]
    assert _refs(store, "kp.Box#size:int") == ["kp.Box#size"]
    assert _refs(store, "kp.Box#setLabel(String)") == ["kp.Box#setLabel(java.lang.String)"]
    assert _refs(store, "kp.Box#size", kotlin_properties=False) == ["kp.Box#size"]
    assert _refs(store, "kp.Box#size", require_one=True) == ["kp.Box#size"]  # one member asked: the field, as before


def test_a_java_class_is_unchanged(store):
    assert _refs(store, "ju.JBox#size") == _refs(store, "ju.JBox#size", kotlin_properties=False)
    assert sorted(_refs(store, "ju.JBox#size")) == ["ju.JBox#size()", "ju.JBox#size:int"]
    assert lookup(store, "ju.JBox#size").notes == []


def test_callers_of_a_property_are_its_accessors_callers(store, java_jar):
    got = _callers(store, "kp.Box#size")
    assert list(got) == ["kp.Box#getSize()"], got
    assert got["kp.Box#getSize()"] == _oracle(java_jar, "kp/Box.getSize")
    got = _callers(store, "kp.Box#label")
    assert list(got) == ["kp.Box#getLabel()", "kp.Box#setLabel(java.lang.String)"], got
    assert got["kp.Box#getLabel()"] == _oracle(java_jar, "kp/Box.getLabel")
    assert got["kp.Box#setLabel(java.lang.String)"] == _oracle(java_jar, "kp/Box.setLabel")
    assert _callers(store, "kp.Box#width") == {"kp.Box#width()": _oracle(java_jar, "kp/Box.width")}
    with pytest.raises(UsageError, match="names a field"):  # a @JvmField property has no accessor to call
        _callers(store, "kp.Box#depth")
    result, _ = call_tree(store, "kp.Box#size", CallOptions(), "in")
    assert result["notes"][0].startswith("size is a Kotlin property: the answer includes its getter "), result


def test_usages_of_a_property_include_its_getter_calls(store, java_jar):
    result, _, _ = usages(store, "kp.Box#size", UsageOptions())
    sites = {(c["caller"].split("(", 1)[0], s["line"]) for g in result["groups"] for c in g["callers"]
             for s in c["sites"] if s.get("via") == "getSize"}
    assert sites == _oracle(java_jar, "kp/Box.getSize")
    assert all(s["kind"] == "read" for g in result["groups"] for c in g["callers"] for s in c["sites"]
               if s.get("via") == "getSize")
