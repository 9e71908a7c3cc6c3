"""`members` of a Kotlin class shows inherited Kotlin declarations as the class sees them (docs/kotlin.md): the
declaring class's type parameters substituted through the whole Kotlin supertype chain, a declaration's own type
parameters left alone, and a `DefaultImpls` forwarder (kotlinc 1.3 without -Xjvm-default) carrying the interface's
declaration. kotlin-reflect (`KClass.members`, which lists inherited members as the class sees them) is the oracle.
The sources are compiled here by kotlinc (Kotlin 1.3) in one call, the Java ones by javac beside it."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import tempfile
import zipfile
from pathlib import Path

import pytest

from tests.fixtures import jdktool

LIB = '''package ki

abstract class Base<K, V> {
    abstract fun get(key: K): V?
    open fun put(key: K, value: V): V? = null
    open fun <V> convert(value: V, key: K): V = value
    open fun keys(): List<K> = emptyList()
    val first: K? get() = null
    var last: Map<K, List<V>>? = null
    fun <R : V> narrow(r: R): R = r
}

abstract class Middle<T> : Base<String, List<T>>()

class Leaf : Middle<Int>() {
    override fun get(key: String): List<Int>? = null
    fun own(): Int = 1
}

abstract class Holder<T> {
    open fun hold(t: T): T = t
}

class Stars : Holder<List<*>>()

interface Greeter<T> {
    fun greet(who: T): String = "hi $who"
    fun plain(): Int = 1
    fun twice(who: T): T = who
    fun abstractOne(): String
    val title: String get() = "t"
}

class Polite : Greeter<String> {
    override fun abstractOne(): String = "x"
    fun greet(who: Int): String = "int"
}

class Rude : Greeter<Long> {
    override fun greet(who: Long): String = "go away"
    override fun abstractOne(): String = "x"
}

open class PoliteBase : Greeter<Char> {
    override fun abstractOne(): String = "b"
}

class PoliteKid : PoliteBase()

open class KotlinTop<T> {
    open fun top(): T? = null
}

class FromJava : JBase<String>(), Greeter<Short> {
    override fun abstractOne(): String = "j"
}

class Bottom : JMid<String>()
'''

JAVA = {
    "JBase.java": "package ki;\npublic class JBase<T> {\n    public T pick() { return null; }\n}\n",
    "JMid.java": "package ki;\npublic class JMid<T> extends KotlinTop<T> {\n    public T mid() { return null; }\n}\n",
}

ORACLE = '''import java.util.ArrayList;
import java.util.List;
import kotlin.jvm.JvmClassMappingKt;
import kotlin.reflect.KCallable;
import kotlin.reflect.KParameter;
import kotlin.reflect.KProperty;
import kotlin.reflect.KType;
import kotlin.reflect.KTypeParameter;

/** kotlin-reflect's members of each class, inherited ones as the class sees them: one JSON line each. */
public final class InheritedOracle {
    static String q(Object o) {
        return o == null ? "null" : "\\"" + o.toString().replace("\\\\", "\\\\\\\\").replace("\\"", "\\\\\\"") + "\\"";
    }

    public static void main(String[] args) throws Exception {
        for (String name : args) {
            Class<?> c = Class.forName(name, false, InheritedOracle.class.getClassLoader());
            for (KCallable<?> m : JvmClassMappingKt.getKotlinClass(c).getMembers()) {
                List<String> params = new ArrayList<>();
                String receiver = null;
                for (KParameter p : m.getParameters()) {
                    if (p.getKind() == KParameter.Kind.VALUE) {
                        params.add(q(p.getType()));
                    } else if (p.getKind() == KParameter.Kind.EXTENSION_RECEIVER) {
                        receiver = p.getType().toString();
                    }
                }
                List<String> bounds = new ArrayList<>();
                for (KTypeParameter tp : m.getTypeParameters()) {
                    for (KType b : tp.getUpperBounds()) {
                        bounds.add(q(tp.getName() + ": " + b));
                    }
                }
                System.out.println("{\\"class\\":" + q(name) + ",\\"name\\":" + q(m.getName()) + ",\\"kind\\":"
                        + (m instanceof KProperty ? "\\"property\\"" : "\\"function\\"") + ",\\"receiver\\":"
                        + q(receiver) + ",\\"params\\":[" + String.join(",", params) + "],\\"returns\\":"
                        + q(m.getReturnType()) + ",\\"bounds\\":[" + String.join(",", bounds) + "]}");
            }
        }
    }
}
'''


def mixed_jar(name: str, kotlin: str, java: dict[str, str]) -> Path:
    """`kotlin` (one file) and the `java` sources (file name -> text) compiled together, cached by their hash."""
    kotlinc, javac = shutil.which("kotlinc"), shutil.which("javac")
    if kotlinc is None or javac is None:
        pytest.skip("kotlinc or javac is not on PATH (Debian package `kotlin`, see .ci/run)")
    digest = hashlib.sha256((kotlin + "".join(f"{k}\0{v}" for k, v in sorted(java.items()))).encode()).hexdigest()[:16]
    jar = Path(tempfile.gettempdir()) / "jdx-kotlin-fixtures" / f"{name}-{digest}.jar"
    jar.parent.mkdir(exist_ok=True)
    if not jar.exists():
        src = Path(tempfile.mkdtemp(prefix=f"jdx-kt-{name}-"))
        out = src / "classes"
        (src / "Lib.kt").write_text(kotlin)
        for file, text in java.items():
            (src / file).write_text(text)
        sources = [str(src / n) for n in sorted(java)]
        subprocess.run([kotlinc, "-nowarn", "-d", str(out), str(src / "Lib.kt"), *sources], check=True,
                       capture_output=True, timeout=600)  # kotlinc reads the Java sources, javac compiles them
        stdlib = Path(kotlinc).resolve().parent.parent / "lib" / "kotlin-stdlib.jar"
        jdktool.run([javac, "-nowarn", "-d", str(out), "-cp", f"{out}:{stdlib}", *sources], check=True,
                       capture_output=True, timeout=600)
        tmp = jar.with_suffix(f".{os.getpid()}.jar")
        with zipfile.ZipFile(tmp, "w") as z:
            for f in sorted(out.rglob("*")):
                if f.is_file():
                    z.write(f, f.relative_to(out).as_posix())
        os.replace(tmp, jar)
    return jar


@pytest.fixture(scope="module")
def jar() -> Path:
    return mixed_jar("inherited", LIB, JAVA)


@pytest.fixture(scope="module")
def members(jar, run_jdx):
    """`jdx members CLASS --json` of the fixture jar alone, once per class."""
    seen: dict[str, dict] = {}

    def get(name: str) -> dict:
        if name not in seen:
            r = run_jdx("members", name, "--jars", str(jar), "--no-jdk", "--json")
            assert r.code == 0, r.err
            seen[name] = json.loads(r.out)["result"]
        return seen[name]

    return get


def _text(run_jdx, jar: Path, name: str, *extra: str) -> list[str]:
    r = run_jdx("members", name, "--jars", str(jar), "--no-jdk", *extra)
    assert r.code == 0, r.err
    return [line.strip() for line in r.out.splitlines()]


def _kotlin(result: dict, name: str) -> list[dict]:
    return [m["kotlin"] for m in result["members"] if m.get("kotlin") and m["kotlin"]["name"] == name]


def test_a_supertype_chain_substitutes_through_every_level(run_jdx, jar, members):
    lines = _text(run_jdx, jar, "ki.Leaf")
    assert "public open fun put(key: String, value: List<Int>): List<Int>?" in lines
    assert "public open fun keys(): List<String>" in lines
    assert "public val first: String?" in lines
    assert "public var last: Map<String, List<List<Int>>>?" in lines
    assert "public open fun get(key: String): List<Int>?" in lines  # its own declaration, as declared
    put = _kotlin(members("ki.Leaf"), "put")[0]
    assert put["declared"] == "public open fun put(key: K, value: V): V?"
    assert put["substitution"] == {"K": "kotlin.String", "V": "kotlin.collections.List<kotlin.Int>"}
    assert [p["type"] for p in put["detail"]["parameters"]] == ["kotlin.String", "kotlin.collections.List<kotlin.Int>"]
    assert put["detail"]["returns"] == "kotlin.collections.List<kotlin.Int>?"
    assert _kotlin(members("ki.Leaf"), "last")[0]["detail"]["type"] == (
        "kotlin.collections.Map<kotlin.String, kotlin.collections.List<kotlin.collections.List<kotlin.Int>>>?")


def test_a_declaration_s_own_type_parameter_shadows_the_class_s(run_jdx, jar, members):
    lines = _text(run_jdx, jar, "ki.Leaf")
    assert "public open fun <V> convert(value: V, key: String): V" in lines  # V is convert's own; K is Base's
    assert "public fun <R: List<Int>> narrow(r: R): R" in lines  # its bound names the class's V
    convert = _kotlin(members("ki.Leaf"), "convert")[0]
    assert convert["substitution"] == {"K": "kotlin.String"}
    narrow = _kotlin(members("ki.Leaf"), "narrow")[0]
    assert narrow["detail"]["type_parameters"] == [{"name": "R", "bounds": ["kotlin.collections.List<kotlin.Int>"]}]


def test_a_star_projection_is_kept_and_never_substituted():
    from jdx.kotlin.model import KmClass, KmType, KmTypeParameter
    from jdx.kotlin.render import render_type
    from jdx.kotlin.substitute import chain_substitutions, substitute_type

    t = KmTypeParameter(0, "T")
    classes = {"a/Top": KmClass("a/Top", type_parameters=[t]),
               "a/Star": KmClass("a/Star", type_parameters=[KmTypeParameter(1, "E")],
                                 supertypes=[KmType("a/Top", arguments=[("*", None)])]),
               "a/Out": KmClass("a/Out", supertypes=[KmType("a/Star", arguments=[("out", KmType("kotlin/String"))])]),
               "a/Raw": KmClass("a/Raw", supertypes=[KmType("a/Star")])}
    chain = chain_substitutions("a/Out", classes.get)
    assert chain["a/Top"] == {}  # a star projection leaves T as declared
    assert render_type(chain["a/Star"]["E"]) == "String"  # a projection `out X` substitutes X
    assert chain_substitutions("a/Raw", classes.get)["a/Star"] == {}  # a raw supertype: nothing known
    uses = KmType("kotlin/collections/List", arguments=[("", KmType("T", "typeparam", nullable=True))])
    assert render_type(substitute_type(uses, {"T": KmType("kotlin/String")})) == "List<String?>"


def test_a_star_projection_inside_an_argument_stays(run_jdx, jar):
    assert "public open fun hold(t: List<*>): List<*>" in _text(run_jdx, jar, "ki.Stars")


def test_default_impls_forwarders_carry_the_interface_declaration(run_jdx, jar, members):
    lines = _text(run_jdx, jar, "ki.Polite")
    marker = "  [from ki.Greeter via DefaultImpls]"
    assert "public open fun greet(who: String): String" + marker in lines
    assert "public open fun plain(): Int" + marker in lines
    assert "public open fun twice(who: String): String" + marker in lines
    assert "public open val title: String" + marker in lines
    assert "public fun greet(who: Int): String" in lines  # its own overload of the name, not a forwarder
    assert "public open fun abstractOne(): String" in lines
    assert not any(line.startswith("method ") for line in lines)
    greet = next(k for k in _kotlin(members("ki.Polite"), "greet") if k["role"] == "forwarder")
    assert greet["forwards_to"] == "ki.Greeter$DefaultImpls#greet(ki.Greeter, java.lang.Object)"
    assert greet["substitution"] == {"T": "kotlin.String"}
    rude = _text(run_jdx, jar, "ki.Rude")
    assert "public open fun greet(who: Long): String" in rude  # its own override: no forwarder
    assert "public open fun twice(who: Long): Long" + marker in rude
    kid = _text(run_jdx, jar, "ki.PoliteKid")  # a forwarder of a superclass, seen from the subclass
    assert kid[kid.index("inherited from ki.PoliteBase") + 1:][:5] == [
        "public open fun abstractOne(): String", "public open fun greet(who: Char): String" + marker,
        "public open fun plain(): Int" + marker, "public open val title: String" + marker,
        "public open fun twice(who: Char): Char" + marker]


def test_a_java_supertype_keeps_its_jvm_form_and_a_path_through_java_is_substituted(run_jdx, jar):
    lines = _text(run_jdx, jar, "ki.FromJava")
    assert lines[lines.index("inherited from ki.JBase") + 1] == "method public String pick()"
    assert "public open fun twice(who: Short): Short  [from ki.Greeter via DefaultImpls]" in lines
    bottom = _text(run_jdx, jar, "ki.Bottom")  # Bottom : JMid<String> (Java) : KotlinTop<T>
    assert "method public String mid()" in bottom and "public open fun top(): String?" in bottom


def test_view_jvm_is_unchanged_and_the_kotlin_view_agrees_with_its_substitution(run_jdx, jar):
    jvm = _text(run_jdx, jar, "ki.Leaf", "--view", "jvm")
    assert "method public List<String> keys()" in jvm
    assert "method public List<? extends Integer> put(String, List<? extends Integer>)" in jvm
    assert not any("fun " in line or " val " in line for line in jvm)
    kotlin = _text(run_jdx, jar, "ki.Leaf")
    assert "public open fun keys(): List<String>" in kotlin
    polite = _text(run_jdx, jar, "ki.Polite", "--view", "jvm")
    assert "method public String greet(String)" in polite and not any("DefaultImpls" in x for x in polite)


def _oracle(jar: Path, classes: list[str]) -> list[dict]:
    from tests.kotlin.corpus import REFLECT, runtime_stdlib

    if not REFLECT.exists():
        pytest.skip(f"{REFLECT} is absent (kotlin-reflect 1.6.10 is the oracle)")
    stdlib = runtime_stdlib()
    out = Path(tempfile.mkdtemp(prefix="jdx-kt-inherited-oracle-"))
    src = out / "InheritedOracle.java"
    src.write_text(ORACLE)
    jdktool.run(["javac", "-nowarn", "-d", str(out), "-cp", f"{REFLECT}:{stdlib}", str(src)], check=True,
                   capture_output=True)
    proc = subprocess.run(["java", "-cp", f"{REFLECT}:{stdlib}:{out}:{jar}", "InheritedOracle", *classes],
                          capture_output=True, text=True, timeout=600, check=True)
    return [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]


def _ours(name: str, k: dict) -> str:
    d = k["detail"]
    bounds = [f"{p['name']}: {b}" for p in d["type_parameters"] for b in (p.get("bounds") or ["kotlin.Any?"])]
    params = [p["type"] for p in d.get("parameters", [])]
    shown = d["returns"] if k["kind"] == "function" else d["type"]
    return json.dumps([name, k["name"], k["kind"], d["receiver"], params, shown, bounds])


@pytest.mark.soak
def test_json_of_inherited_declarations_agrees_with_kotlin_reflect(jar, members):
    classes = ["ki.Leaf", "ki.Stars", "ki.Polite", "ki.Rude", "ki.PoliteKid", "ki.FromJava", "ki.Bottom"]
    oracle = {json.dumps([r["class"], r["name"], r["kind"], r["receiver"], r["params"], r["returns"], r["bounds"]])
              for r in _oracle(jar, classes)}
    compared = 0
    for name in classes:
        for m in members(name)["members"]:
            k = m.get("kotlin")
            inherited = m["declaring"] != name or k is not None and k["role"] == "forwarder"
            if k is None or k["kind"] not in ("function", "property") or not inherited:
                continue
            assert _ours(name, k) in oracle, (name, k["text"])
            compared += 1
    assert compared >= 20
