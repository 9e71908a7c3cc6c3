"""Defects a trial on javassist 3.24.0-GA -> 3.30.2-GA found in `jdx diff`, each judged by javap:

- javac 17 writes `Signature: ()V` on a local class's constructor, and an anonymous class's implementing an
  interface, whose parameters are all an outer instance and captured variables; javassist 3.24's javac wrote none.
  No source outside the artifact calls such a constructor, and a Signature listing fewer parameters than the
  descriptor says nothing of those it leaves out: no GENERIC_SIGNATURE_CHANGED (it was `(none) -> (): void` on
  `Javac$1#<init>` and ten more), while a real generic change of an inner class's constructor is still one, printed
  without a return type;
- PARAMETER_TYPE_CHANGED's detail shows the return type when it changed with the parameters (`TypeChecker#
  typeToString`: `StringBuffer` -> `StringBuilder` in both), not the parameters alone.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import zipfile

import pytest

from jdx.errors import JdxError
from jdx.loaders.jvm import find_asm
from tests.diff.shim import main
from tests.fixtures import jdktool
from tests.fixtures.build import write_jar
from tests.fixtures.javac import javap, side_jar

pytestmark = pytest.mark.soak  # a trial's regression family with its own graph builds: the soak runs it whole (.ci/run)

LIBRARY = {
    # old: a constructor argument passed to the superclass, a local class's own parameter (no Signature); new: the
    # same descriptors made of captured variables (javac 17: `Signature: ()V`, checked below by javap)
    "ta": ({"C": "public class C {"
                 " public Object anon(String s) { return new Thread(s) { }; }"
                 " public Object local(String s) { class L { L(String t) { } } return new L(s); } }"},
           {"C": "public class C {"
                 " public Object anon(String s) { return new Runnable() { public void run() { s.length(); } }; }"
                 " public Object local(String s) {"
                 " class L { L() { } public String toString() { return s; } } return new L(); } }"}),
    # In: the new side's constructor gets, by ASM, the Signature javac writes for an inner class's constructor (no
    # outer instance in it); Gen: a raw parameter made generic, javac's own Signature
    "tb": ({"Outer": "public class Outer { public class In { public In(String s) { } }"
                     " public class Gen { public Gen(java.util.List l) { } } }"},
           {"Outer": "public class Outer { public class In { public In(String s) { } }"
                     " public class Gen { public Gen(java.util.List<String> l) { } } }"}),
    "tc": ({"T": "public class T {"
                 " public static StringBuffer typeToString(StringBuffer b, int i) { return b; }"
                 " public static void p(int i) { } }"},
           {"T": "public class T {"
                 " public static StringBuilder typeToString(StringBuilder b, int i) { return b; }"
                 " public static void p(long i) { } }"}),
}

SET_SIGNATURE = """import java.nio.file.*;
import org.objectweb.asm.*;
public class SetSignature { public static void main(String[] a) throws Exception {
    Path path = Paths.get(a[0]);
    ClassWriter w = new ClassWriter(0);
    new ClassReader(Files.readAllBytes(path)).accept(new ClassVisitor(Opcodes.ASM9, w) {
        @Override public MethodVisitor visitMethod(int access, String name, String desc, String sig, String[] ex) {
            return super.visitMethod(access, name, desc, name.equals(a[1]) && desc.equals(a[2]) ? a[3] : sig, ex);
        }
    }, 0);
    Files.write(path, w.toByteArray());
} }
"""

IN_CLASS, IN_INIT, IN_SIGNATURE = "tb/Outer$In.class", "(Ltb/Outer;Ljava/lang/String;)V", "(Ljava/lang/String;)V"


def _set_signature(root, jar, entry: str, name: str, desc: str, signature: str):
    """Rewrites `jar`'s class `entry`: method `name``desc` gets the Signature attribute `signature` (ASM)."""
    try:
        asm, _ = find_asm(root / "cache")
    except JdxError:
        pytest.skip("ASM is not installed")
    tool = root / "asm-tool"
    tool.mkdir(exist_ok=True)
    (tool / "SetSignature.java").write_text(SET_SIGNATURE)
    jdktool.run(["javac", "-nowarn", "-cp", str(asm), "-d", str(tool), str(tool / "SetSignature.java")], check=True,
                capture_output=True, text=True)
    with zipfile.ZipFile(jar) as z:
        entries = {n: z.read(n) for n in z.namelist() if not n.endswith("/")}
    one = root / "one.class"
    one.write_bytes(entries[entry])
    subprocess.run(["java", "-cp", f"{asm}:{tool}", "SetSignature", str(one), name, desc, signature], check=True)
    entries[entry] = one.read_bytes()
    write_jar(jar, entries)


@pytest.fixture(scope="module")
def trial(tmp_path_factory):
    """(findings of `--visibility all`, its text, old jar, new jar)."""
    if shutil.which("javac") is None or shutil.which("java") is None:
        pytest.skip("java/javac are not installed")
    root = tmp_path_factory.mktemp("diff-trial-t24")
    old, new = side_jar(root, LIBRARY, "old"), side_jar(root, LIBRARY, "new")
    _set_signature(root, new, IN_CLASS, "<init>", IN_INIT, IN_SIGNATURE)
    cache = root / "cache"
    args = [str(old), str(new), "--visibility", "all", "--severity", "all", "--limit", "1000", "--cache-dir",
            str(cache)]
    code, text = main([*args, "--json"])
    assert code == 0, text
    code, plain = main(args)
    assert code == 0, plain
    return json.loads(text)["result"]["findings"], plain, old, new


def _constructor(jar, cls: str) -> tuple[str, str | None]:
    """javap's (descriptor, Signature or None) of `cls`'s one constructor."""
    text = javap(jar, cls, "-v")
    block = re.search(r"\n  (?:\w+ )*[\w.$]+\([^)]*\);\n    descriptor: (\S+)\n(.*?)(?=\n  \S|\Z)", text, re.S)
    signature = re.search(r"\n    Signature: #\d+\s+// (\S+)", "\n" + block.group(2))
    return block.group(1), signature.group(1) if signature else None


@pytest.mark.parametrize("cls", ["ta.C$1", "ta.C$1L"])
def test_no_generic_change_on_a_local_or_anonymous_constructor(trial, cls):
    found, _, old, new = trial
    old_desc, old_sig = _constructor(old, cls)
    new_desc, new_sig = _constructor(new, cls)
    # javap: one descriptor on both sides, of an outer instance and a String; the Signature only on the new side,
    # listing none of them
    assert old_desc == new_desc == "(Lta/C;Ljava/lang/String;)V"
    assert (old_sig, new_sig) == (None, "()V")
    at = [f for f in found if f["symbol"].startswith(f"{cls}#<init>")]
    assert [f["rule"] for f in at if f["rule"] == "GENERIC_SIGNATURE_CHANGED"] == [], at


def test_signature_without_the_outer_instance_is_no_generic_change(trial):
    found, _, old, new = trial
    assert _constructor(old, "tb.Outer$In") == (IN_INIT, None)
    assert _constructor(new, "tb.Outer$In") == (IN_INIT, IN_SIGNATURE)
    assert [f for f in found if f["symbol"].startswith("tb.Outer$In#<init>")] == []


def test_real_generic_change_of_an_inner_constructor_prints_no_return_type(trial):
    found, plain, old, new = trial
    # javap: javac's Signature of the new constructor leaves the outer instance out
    assert _constructor(old, "tb.Outer$Gen") == ("(Ltb/Outer;Ljava/util/List;)V", None)
    assert _constructor(new, "tb.Outer$Gen") == ("(Ltb/Outer;Ljava/util/List;)V",
                                                 "(Ljava/util/List<Ljava/lang/String;>;)V")
    at = [(f["rule"], f["detail"]) for f in found if f["symbol"].startswith("tb.Outer$Gen#<init>")]
    assert at == [("GENERIC_SIGNATURE_CHANGED", "(none) -> (java.util.List<java.lang.String>)")]
    assert ": void" not in plain


def _declaration(jar, name: str) -> tuple[str, str]:
    """javap's (parameter list, return type) of static method `name` of tc.T."""
    line = next(ln for ln in javap(jar, "tc.T").splitlines() if f" {name}(" in ln)
    head, params = line.strip().rstrip(";").split("(", 1)
    return f"({params}", head.split()[-2]


def test_parameter_type_change_shows_a_changed_return_type(trial):
    found, plain, old, new = trial
    (old_params, old_ret), (new_params, new_ret) = _declaration(old, "typeToString"), _declaration(new, "typeToString")
    assert (old_ret, new_ret) == ("java.lang.StringBuffer", "java.lang.StringBuilder")  # javap: both changed
    detail = f"{old_params}: {old_ret} -> {new_params}: {new_ret}"
    row = next(f for f in found if f["symbol"].startswith("tc.T#typeToString"))
    assert (row["rule"], row["detail"]) == ("PARAMETER_TYPE_CHANGED", detail)
    assert f"breaking  PARAMETER_TYPE_CHANGED  {row['symbol']}: {detail}" in plain.splitlines()
    # the return type unchanged: the parameters alone, as before
    (old_p, old_r), (new_p, new_r) = _declaration(old, "p"), _declaration(new, "p")
    assert old_r == new_r == "void"
    row = next(f for f in found if f["symbol"].startswith("tc.T#p("))
    assert (row["rule"], row["detail"]) == ("PARAMETER_TYPE_CHANGED", f"{old_p} -> {new_p}")
