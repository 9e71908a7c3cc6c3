"""Kotlin declarations of a shaded jar link to their JVM members (spec §12.1; trial on Debian's
kotlin-compiler-embeddable, which relocates `com.intellij` to `org.jetbrains.kotlin.com.intellij`): the shade
plugin remaps the class references of the class files but leaves the `@kotlin.Metadata` strings, so the metadata's
JVM signatures name the original classes (`(Lcom/intellij/psi/FileViewProvider;Z)V`). Unlinked, a declaration was
printed twice (its Kotlin row and its method as a `(jvm)` row), `members` showed the Java form only and `imports` said
the function was private.

The fixture is real shaded bytecode: kotlinc (Kotlin 1.3) compiles a library and the dependency it uses, and ASM's
ClassRemapper (as the shade plugin does) moves the dependency's package `a.dep` to `shaded.a.dep` in every class file,
keeping annotation strings; `javap -v` of the result is the oracle of the mismatch."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.fixtures import jdktool
from tests.fixtures.asm import asm_jars
from tests.kotlin.corpus import kotlinc_jar

DEP = '''package a.dep

open class Thing
class Other
'''

LIB = '''package lib

import a.dep.Other
import a.dep.Thing

fun Thing.parentOf(other: Other, strict: Boolean = true): Thing? = if (strict) null else this

fun plain(x: Int): Int = x

class Holder(val thing: Thing) {
    fun things(): Array<Thing> = arrayOf(thing)
    var other: Other? = null
    fun use(other: Other): Int = 1
    fun use(thing: Thing): Int = 2
}
'''

RELOCATE = '''import java.io.*;
import java.util.zip.*;
import org.objectweb.asm.*;
import org.objectweb.asm.commons.*;

/** Relocates the classes under args[2] (an internal-name prefix) to args[3] + their name, as the shade plugin does:
 * class references are remapped, annotation strings (@kotlin.Metadata's d2) are not. */
public class Relocate {
    public static void main(String[] args) throws Exception {
        String from = args[2], to = args[3];
        Remapper remapper = new Remapper() {
            @Override public String map(String name) { return name.startsWith(from) ? to + name : name; }
        };
        try (ZipInputStream in = new ZipInputStream(new FileInputStream(args[0]));
             ZipOutputStream out = new ZipOutputStream(new FileOutputStream(args[1]))) {
            for (ZipEntry e; (e = in.getNextEntry()) != null; ) {
                byte[] bytes = in.readAllBytes();
                String name = e.getName();
                if (name.endsWith(".class")) {
                    ClassWriter writer = new ClassWriter(0);
                    new ClassReader(bytes).accept(new ClassRemapper(writer, remapper), 0);
                    bytes = writer.toByteArray();
                    name = remapper.map(name.substring(0, name.length() - 6)) + ".class";
                }
                out.putNextEntry(new ZipEntry(name));
                out.write(bytes);
                out.closeEntry();
            }
        }
    }
}
'''


@pytest.fixture(scope="module")
def jar(tmp_path_factory) -> Path:
    plain = kotlinc_jar("relocated", {"Dep.kt": DEP, "Lib.kt": LIB})
    work = tmp_path_factory.mktemp("relocate")
    (work / "Relocate.java").write_text(RELOCATE)
    cp = ":".join(map(str, asm_jars()))
    jdktool.run(["javac", "-nowarn", "-cp", cp, "-d", str(work), str(work / "Relocate.java")], check=True,
                capture_output=True)
    out = work / "shaded" / "relocated.jar"
    out.parent.mkdir()
    subprocess.run(["java", "-cp", f"{cp}:{work}", "Relocate", str(plain), str(out), "a/dep/", "shaded/"],
                   check=True, capture_output=True, timeout=300)
    return out


def _javap(jar: Path, cls: str) -> str:
    return jdktool.run(["javap", "-v", "-p", "-cp", str(jar), cls], capture_output=True, text=True,
                       check=True).stdout


def test_the_fixture_is_shaded_with_unrelocated_metadata(jar):
    text = _javap(jar, "lib.LibKt")
    assert "descriptor: (Lshaded/a/dep/Thing;Lshaded/a/dep/Other;Z)Lshaded/a/dep/Thing;" in text  # the method's
    d2 = next(line for line in text.splitlines() if "d2=" in line)
    assert '"La/dep/Thing;"' in d2 and "shaded" not in d2  # the metadata's types, whence kotlinc's default descriptor
    holder = _javap(jar, "lib.Holder")
    assert "descriptor: ()[Lshaded/a/dep/Thing;" in holder
    assert "()[La/dep/Thing;" in next(line for line in holder.splitlines() if "d2=" in line)  # a written descriptor


def _json(run_jdx, jar: Path, *args: str) -> dict:
    r = run_jdx(*args, "--json", "--jars", str(jar), "--no-jdk")
    assert r.code == 0, r.err
    return json.loads(r.out)["result"]


def test_outline_links_relocated_signatures(run_jdx, jar):
    facade = _json(run_jdx, jar, "outline", "lib.LibKt")
    rows = {e["text"]: e for e in facade["kotlin_members"]}
    parent = rows["public fun Thing.parentOf(other: Other, strict: Boolean = ...): Thing?"]
    assert {(j["role"], j["ref"]) for j in parent["jvm"]} == {
        ("method", "lib.LibKt#parentOf(shaded.a.dep.Thing, shaded.a.dep.Other, boolean)"),
        ("default",
         "lib.LibKt#parentOf$default(shaded.a.dep.Thing, shaded.a.dep.Other, boolean, int, java.lang.Object)")}
    assert parent["detail"]["jvm_descriptor"] == "(Lshaded/a/dep/Thing;Lshaded/a/dep/Other;Z)Lshaded/a/dep/Thing;"
    assert not facade["jvm_only"], facade["jvm_only"]  # no `(jvm)` row repeating it
    holder = _json(run_jdx, jar, "outline", "lib.Holder")
    assert not holder["jvm_only"], holder["jvm_only"]
    links = {e["text"]: sorted(j["ref"] for j in e["jvm"]) for e in holder["kotlin_members"]}
    assert links["public constructor(thing: Thing)"] == ["lib.Holder#<init>(shaded.a.dep.Thing)"]
    assert links["public fun things(): Array<Thing>"] == ["lib.Holder#things()"]
    assert links["public fun use(other: Other): Int"] == ["lib.Holder#use(shaded.a.dep.Other)"]
    assert links["public fun use(thing: Thing): Int"] == ["lib.Holder#use(shaded.a.dep.Thing)"]
    assert links["public var other: Other?"] == ["lib.Holder#getOther()", "lib.Holder#other",
                                                 "lib.Holder#setOther(shaded.a.dep.Other)"]


def test_members_show_the_kotlin_form(run_jdx, jar):
    r = run_jdx("members", "lib.Holder", "--jars", str(jar), "--no-jdk")
    assert r.code == 0, r.err
    assert "public fun things(): Array<Thing>" in r.out and "public var other: Other?" in r.out, r.out
    assert "method public final Thing[] things()" not in r.out


def test_imports_say_the_function_is_public(run_jdx, jar):
    entries = _json(run_jdx, jar, "imports", "lib.LibKt#parentOf")["imports"]
    assert [(e.get("language"), e["statement"]) for e in entries] == [("kotlin", "import lib.parentOf")], entries
    assert "private" not in entries[0].get("note", "")
    assert "lib.LibKt#parentOf" in entries[0].get("note", "")  # Java calls the extension as the static method
