"""scalac's (2.12+) lambda bodies are lambda bodies: a lambda compiles to a public static final synthetic
`$anonfun$foo$1` that a LambdaMetafactory invokedynamic in `foo` hands over, and each class's `$deserializeLambda$`
hands every body of its class to LambdaDeserialize's bootstrap again. Read as method references, `implementors` and
`usages` of a functional interface counted each Scala lambda as a method reference, `callers` named the synthetic
body (or `$deserializeLambda$`) instead of the method that wrote the lambda, and `resolve` of a lambda proxy's frame
listed no lambda body.

The fixture is scalac's shape in javac-built bytecode: javac compiles method references to plain static methods, and
ASM's ClassRemapper renames them to scalac's names (`anonfun_twice_1` -> `$anonfun$twice$1`, `deserializeLambda` ->
`$deserializeLambda$`) and marks the bodies synthetic, as scalac does. Oracle: `javap -c -p -v`: which method's
invokedynamic hands each body over (its second bootstrap argument), and which bodies call `helper()`."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from tests.fixtures import jdktool
from tests.fixtures.asm import asm_jars
from tests.fixtures.javac import javac_jar

OPS = """package sc;

import java.util.function.IntUnaryOperator;
import java.util.function.Supplier;

public final class Ops {
    static int helper() {
        return 1;
    }
    public static int twice(int x) {
        IntUnaryOperator f = Ops::anonfun_twice_1;
        return f.applyAsInt(x);
    }
    public static final int anonfun_twice_1(int y) {
        return y * 2 + helper();
    }
    public static Runnable nested() {
        return Ops::anonfun_nested_1;
    }
    public static final void anonfun_nested_1() {
        Supplier<String> s = Ops::anonfun_nested_2;
        s.get();
    }
    public static final String anonfun_nested_2() {
        return String.valueOf(helper());
    }
    public static int absolute(int x) {
        IntUnaryOperator f = Math::abs;
        return f.applyAsInt(x);
    }
    private static Object deserializeLambda(Object lambda) {
        IntUnaryOperator a = Ops::anonfun_twice_1;
        Runnable b = Ops::anonfun_nested_1;
        return lambda == null ? a : b;
    }
}
"""

SCALAC_NAMES = '''import java.io.*;
import java.util.zip.*;
import org.objectweb.asm.*;
import org.objectweb.asm.commons.*;

/** Renames `anonfun_foo_1` to scalac's `$anonfun$foo$1` (marked synthetic, as scalac writes it) and
 * `deserializeLambda` to `$deserializeLambda$`, in declarations and handles alike. */
public class ScalacNames {
    static String scalac(String name) {
        if (name.startsWith("anonfun_")) return "$" + name.replace('_', '$');
        return name.equals("deserializeLambda") ? "$deserializeLambda$" : name;
    }
    public static void main(String[] args) throws Exception {
        Remapper remapper = new Remapper() {
            @Override public String mapMethodName(String owner, String name, String desc) { return scalac(name); }
        };
        try (ZipInputStream in = new ZipInputStream(new FileInputStream(args[0]));
             ZipOutputStream out = new ZipOutputStream(new FileOutputStream(args[1]))) {
            for (ZipEntry e; (e = in.getNextEntry()) != null; ) {
                byte[] bytes = in.readAllBytes();
                if (e.getName().endsWith(".class")) {
                    ClassWriter writer = new ClassWriter(0);
                    ClassVisitor synthetic = new ClassVisitor(Opcodes.ASM9, writer) {
                        @Override public MethodVisitor visitMethod(int access, String name, String desc, String sig,
                                                                   String[] exceptions) {
                            int flags = name.startsWith("$anonfun$") ? access | Opcodes.ACC_SYNTHETIC : access;
                            return super.visitMethod(flags, name, desc, sig, exceptions);
                        }
                    };
                    new ClassReader(bytes).accept(new ClassRemapper(synthetic, remapper), 0);
                    bytes = writer.toByteArray();
                }
                out.putNextEntry(new ZipEntry(e.getName()));
                out.write(bytes);
                out.closeEntry();
            }
        }
    }
}
'''
METHOD = re.compile(r"^  \S.*?([\w$]+)\(.*\);$")
HANDLE = re.compile(r"REF_invokeStatic sc/Ops\.([\w$]+):")
INDY = re.compile(r"invokedynamic\s+#\d+,\s+0\s+// InvokeDynamic #(\d+):")
BOOTSTRAP = re.compile(r"^  (\d+): #\d+ REF_invokeStatic")


@pytest.fixture(scope="module")
def jar(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("scala_lambdas")
    plain, _ = javac_jar(root / "javac", {"sc/Ops.java": OPS}, "sc", "ops.jar", debug=True)
    (root / "ScalacNames.java").write_text(SCALAC_NAMES)
    cp = ":".join(map(str, asm_jars()))
    jdktool.run(["javac", "-nowarn", "-cp", cp, "-d", str(root), str(root / "ScalacNames.java")], check=True,
                capture_output=True)
    out = root / "scala-shaped.jar"
    subprocess.run(["java", "-cp", f"{cp}:{root}", "ScalacNames", str(plain), str(out)], check=True,
                   capture_output=True, timeout=300)
    return out


@pytest.fixture(scope="module")
def oracle(jar) -> dict:
    """By javap: each method's body lines, the lambda bodies each method's invokedynamics hand over (second bootstrap
    argument), and the synthetic flag of each method."""
    text = jdktool.run(["javap", "-c", "-p", "-v", "-cp", str(jar), "sc.Ops"], capture_output=True, text=True,
                       check=True).stdout
    lines, methods, current, flags = text.splitlines(), {}, None, {}
    for line in lines:
        m = METHOD.match(line)
        if m:
            current = m.group(1)
            methods[current] = []
        elif current and line.strip().startswith("flags:"):
            flags[current] = "ACC_SYNTHETIC" in line
        elif current:
            methods[current].append(line)
    section = text.split("BootstrapMethods:", 1)[1].splitlines()
    bootstrap, index = {}, None
    for line in section:
        b = BOOTSTRAP.match(line)
        if b:
            index, bootstrap[b.group(1)] = b.group(1), []
        elif index is not None and line.startswith("      #"):
            bootstrap[index].append(line)
    hands = {name: [HANDLE.search(bootstrap[i][1]).group(1) for i in INDY.findall("\n".join(body))
                    if HANDLE.search(bootstrap[i][1])]
             for name, body in methods.items()}
    calls_helper = {name for name, body in methods.items() if any("Method helper:()I" in b for b in body)}
    return {"hands": hands, "synthetic": flags, "calls_helper": calls_helper}


def _json(run_jdx, jar: Path, *args: str, code: int = 0) -> dict:
    r = run_jdx(*args, "--json", "--jars", str(jar), "--no-jdk")
    assert r.code == code, r.out + r.err
    return json.loads(r.out)


def _writer(oracle: dict, body: str) -> str:
    """The method whose invokedynamic hands `body` over, nested lambdas followed outward; scalac's
    `$deserializeLambda$` writes none."""
    writer = next(m for m, bodies in oracle["hands"].items() if body in bodies and m != "$deserializeLambda$")
    return _writer(oracle, writer) if writer.startswith("$anonfun$") else writer


def test_the_fixture_has_scalacs_shape(oracle):
    assert oracle["synthetic"]["$anonfun$twice$1"] and oracle["synthetic"]["$anonfun$nested$2"]
    assert not oracle["synthetic"]["twice"]
    assert oracle["hands"]["$deserializeLambda$"] == ["$anonfun$twice$1", "$anonfun$nested$1"]
    assert oracle["calls_helper"] == {"$anonfun$twice$1", "$anonfun$nested$2"}


def test_callers_name_the_method_that_wrote_the_lambda(run_jdx, jar, oracle):
    roots = _json(run_jdx, jar, "callers", "sc.Ops#helper()")["result"]["roots"]
    got = sorted(c["method"] for c in roots[0]["tree"])
    expected = sorted({f"sc.Ops#{_writer(oracle, b)}" for b in oracle["calls_helper"]})
    assert [g.split("(", 1)[0] for g in got] == expected, got
    assert all(c.get("in_lambda") for c in roots[0]["tree"]), roots[0]["tree"]


def test_a_scala_lambda_is_no_method_reference(run_jdx, jar, oracle):
    sites = _json(run_jdx, jar, "usages", "java.util.function.IntUnaryOperator", "--kind", "impl")["result"]
    details = {(s["caller"].split("(", 1)[0], s["detail"])
               for g in sites["groups"] for c in g["callers"] for s in c["sites"]}
    assert ("sc.Ops#twice", "lambda") in details, details  # oracle: its body is `$anonfun$twice$1`
    assert ("sc.Ops#absolute", "method-ref") in details, details  # `Math::abs`
    assert "absolute" not in oracle["hands"]["absolute"] and not oracle["hands"]["absolute"]


def test_resolve_a_lambda_body_frame(run_jdx, jar, oracle):
    out = _json(run_jdx, jar, "resolve", "at sc.Ops.$anonfun$twice$1(Ops.java:15)")["result"]
    notes = [c.get("note") for c in out["candidates"]]
    assert f"lambda body in {_writer(oracle, '$anonfun$twice$1')}(int)" in notes, out["candidates"]


def test_resolve_a_lambda_proxy_frame_lists_the_bodies(run_jdx, jar, oracle):
    out = _json(run_jdx, jar, "resolve", "at sc.Ops$$Lambda$14/0x0000000800c4a0a0.applyAsInt(Unknown Source)")
    refs = [c["ref"] for c in out["result"]["candidates"]]
    bodies = sorted(m for m, synthetic in oracle["synthetic"].items() if synthetic and m.startswith("$anonfun$"))
    assert [r.split("#", 1)[1].split("(", 1)[0] for r in refs[1:]] == bodies, refs


def test_a_missing_scala_lambda_body_is_another_build(run_jdx, jar):
    r = run_jdx("resolve", "at sc.Ops.$anonfun$twice$9(Ops.java:15)", "--jars", str(jar), "--no-jdk")
    assert r.code == 1, r.out + r.err  # not found (spec §16)
    assert "a lambda body the compiler named" in r.err + r.out
    assert "$anonfun$twice$1" in r.err + r.out  # the same method's body first among the candidates
