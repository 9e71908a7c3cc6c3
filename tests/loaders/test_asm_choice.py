"""Which ASM the extractor runs with, and what depends on it: JDX_ASM_JAR first, else the newest ASM found (not
Debian's 9.4 before a newer one in ~/.m2); what it knows, read from the jar and checked against ASM's own
ClassReader; the shard key naming it (a newer ASM re-extracts what an older one read); JPype's JVM quiet on a JDK
that warns about restricted methods."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from jdx.loaders import jvm

TEMURIN_25 = Path("/usr/lib/jvm/temurin-25-jdk-amd64")


def fake_jar(path: Path, manifest: dict[str, str] | None = None) -> Path:
    """A jar holding only a manifest (what the choice reads; the choice never opens the classes)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = ["Manifest-Version: 1.0"] + [f"{k}: {v}" for k, v in (manifest or {}).items()]
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("META-INF/MANIFEST.MF", "\r\n".join(lines) + "\r\n")
    return path


@pytest.fixture
def home(tmp_path, monkeypatch):
    """An empty home and no JDX_ASM_JAR; Debian's jar is wherever a test puts it (absent unless it does)."""
    h = tmp_path / "home"
    h.mkdir()
    monkeypatch.setenv("HOME", str(h))
    monkeypatch.delenv("JDX_ASM_JAR", raising=False)
    monkeypatch.setattr(jvm, "DEBIAN_ASM", tmp_path / "usr-share-java" / "asm.jar")
    return h


def m2_jar(home: Path, version: str) -> Path:
    return fake_jar(home / f".m2/repository/org/ow2/asm/asm/{version}/asm-{version}.jar",
                    {"Implementation-Version": version})


def debian_jar(version: str) -> Path:
    """Debian's layout: asm.jar a symlink to asm-<version>.jar, whose manifest says <version>-SNAPSHOT."""
    target = fake_jar(jvm.DEBIAN_ASM.parent / f"asm-{version}.jar",
                      {"Implementation-Version": f"{version}-SNAPSHOT", "Bundle-Version": f"{version}.0.SNAPSHOT"})
    jvm.DEBIAN_ASM.symlink_to(target.name)
    return jvm.DEBIAN_ASM


def test_a_newer_asm_in_m2_wins_over_debians(home, tmp_path):
    debian_jar("9.4")
    newest = m2_jar(home, "9.10.1")
    m2_jar(home, "9.9.1")
    m2_jar(home, "9.10")
    fake_jar(home / ".m2/repository/org/ow2/asm/asm/9.11/asm-9.11-sources.jar", {"Implementation-Version": "9.11"})
    assert jvm.find_asm(tmp_path / "cache") == (newest, "~/.m2")
    ranked = [jvm.asm_version(j) for j, _ in jvm.candidate_asm_jars(tmp_path / "cache")]
    assert ranked == ["9.10.1", "9.10", "9.9.1", "9.4"]  # 9.10 after 9.10.1, before 9.9.1: by number, not text


def test_debians_asm_wins_when_it_is_the_newest_and_ties_keep_the_order(home, tmp_path):
    jar = debian_jar("9.12")
    m2_jar(home, "9.10.1")
    assert jvm.find_asm(tmp_path / "cache") == (jar, "/usr/share/java")
    (home / ".m2/repository/org/ow2/asm/asm/9.12").mkdir(parents=True)
    m2_jar(home, "9.12")
    assert jvm.candidate_asm_jars(tmp_path / "cache")[0] == (jar, "/usr/share/java")


def test_the_version_of_a_jar_named_without_one_comes_from_its_manifest(home, tmp_path):
    jvm.DEBIAN_ASM.parent.mkdir(parents=True)
    fake_jar(jvm.DEBIAN_ASM, {"Bundle-Version": "9.11.0"})  # no Implementation-Version, no version in its name
    m2_jar(home, "9.10.1")
    assert jvm.asm_version(jvm.DEBIAN_ASM) == "9.11.0"
    assert jvm.find_asm(tmp_path / "cache")[0] == jvm.DEBIAN_ASM


def test_jdx_asm_jar_comes_first_even_when_older(home, tmp_path, monkeypatch):
    m2_jar(home, "9.10.1")
    old = fake_jar(tmp_path / "mine" / "asm-9.2.jar")
    monkeypatch.setenv("JDX_ASM_JAR", str(old))
    assert jvm.find_asm(tmp_path / "cache") == (old, "JDX_ASM_JAR")


def real_asm_jars() -> dict[str, Path]:
    """The real ASM jars on this machine by version (Debian's and ~/.m2's)."""
    jars = [Path("/usr/share/java/asm.jar"), *Path.home().glob(".m2/repository/org/ow2/asm/asm/*/asm-*.jar")]
    return {jvm.asm_version(j): j for j in jars if j.is_file() and "sources" not in j.name and jvm.asm_version(j)}


def test_what_an_asm_knows_is_what_its_classreader_accepts(tmp_path):
    """asm_max_major reads the jar's Opcodes; the oracle is ASM's ClassReader in a JVM, fed a class file of each
    major version (the extractor's asmMaxMajor does the same)."""
    jars = real_asm_jars()
    if not jars:
        pytest.skip("no ASM jar on this machine")
    java = jvm.find_java_home()
    if java.javac is None:
        pytest.skip(f"no javac next to {java.home}")
    probe = tmp_path / "Probe.java"
    probe.write_text("""
import org.objectweb.asm.*;
public class Probe {
    public static void main(String[] a) {
        ClassWriter w = new ClassWriter(0);
        w.visit(Opcodes.V1_8, Opcodes.ACC_PUBLIC, "P", null, "java/lang/Object", null);
        byte[] b = w.toByteArray();
        int best = 52;
        for (int v = 53; v < 200; v++) {
            b[6] = (byte) (v >> 8); b[7] = (byte) v;
            try { new ClassReader(b); best = v; } catch (IllegalArgumentException e) { break; }
        }
        System.out.println(best);
    }
}
""")
    some = next(iter(jars.values()))
    subprocess.run([str(java.javac), "--release", "8", "-cp", str(some), "-d", str(tmp_path), str(probe)], check=True,
                   capture_output=True)
    java_bin = java.home / "bin" / "java"
    checked = 0
    ordered = sorted(jars.items(), key=lambda kv: jvm._version_tuple(kv[0]))
    for version, jar in ordered[:1] + ordered[-3:] if len(ordered) > 4 else ordered:  # the oldest, the newest
        out = subprocess.run([str(java_bin), "-cp", f"{jar}{os.pathsep}{tmp_path}", "Probe"], check=True,
                             capture_output=True, text=True).stdout.strip()
        assert jvm.asm_max_major(jar) == int(out), (version, jar)
        checked += 1
    assert checked


def test_doctor_rows_warn_when_the_jdk_is_newer_than_the_asm(tmp_path):
    jars = real_asm_jars()
    old = next((j for v, j in jars.items() if jvm.asm_max_major(j) and jvm.asm_max_major(j) < 69), None)
    if old is None:
        pytest.skip("no ASM older than Java 25 on this machine")
    jdk = tmp_path / "jdk25"
    jdk.mkdir()
    (jdk / "release").write_text('IMPLEMENTOR="Eclipse Adoptium"\nJAVA_VERSION="25.0.3"\n')
    home = jvm.JavaHome(home=jdk, libjvm=jdk / "lib/server/libjvm.so", javac=None, source="JAVA_HOME")
    rows = jvm.asm_checks(old, "/usr/share/java", home)
    version = jvm.asm_version(old)
    assert rows[0] == ("asm", True, f"{old} (from /usr/share/java, ASM {version})")
    name, ok, detail = rows[1]
    assert (name, ok) == ("asm for jdk", False)
    assert f"knows class files up to major {jvm.asm_max_major(old)}" in detail and "major 69" in detail
    (jdk / "release").write_text('JAVA_VERSION="1.8.0_402"\n')
    assert jvm.java_feature(jdk) == 8
    assert jvm.asm_checks(old, "x", home)[1][1] is True


def test_the_shard_key_names_the_asm(home, tmp_path, monkeypatch):
    from jdx.loaders import shards

    monkeypatch.setattr(jvm, "_started", {})  # a JVM this test process started would name its own ASM
    monkeypatch.setenv("JDX_CACHE_DIR", str(tmp_path / "cache"))
    versions = {}
    for version in ("9.4", "9.10.1"):
        monkeypatch.setenv("JDX_ASM_JAR", str(m2_jar(home, version)))
        versions[version] = shards.extractor_version()
        assert versions[version].endswith(f":asm{version}")
    assert versions["9.4"] != versions["9.10.1"]
    unnamed = fake_jar(tmp_path / "custom" / "bytecode.jar")  # no version anywhere: its path, size and mtime
    monkeypatch.setenv("JDX_ASM_JAR", str(unnamed))
    first = shards.extractor_version()
    assert ":asm-" in first
    os.utime(unnamed, ns=(1, 1))
    jvm._ASM_IDENTITY.clear()  # once per process: another process sees the changed jar
    assert shards.extractor_version() != first


def env_for(tmp_path: Path, **extra: str) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith("JDX_")}
    env.update(JDX_CACHE_DIR=str(tmp_path / "cache"), JDX_CONFIG_DIR=str(tmp_path / "config"), JDX_NO_DAEMON="1",
               JDX_RUNTIME_DIR=str(tmp_path / "run"))
    env.update(extra)
    return env


def jar_of_major(tmp_path: Path, name: str, major: int) -> Path:
    """A jar of one class compiled by the JDK's javac, its class file's major version set to `major`."""
    java = jvm.find_java_home()
    if java.javac is None:
        pytest.skip(f"no javac next to {java.home}")
    src = tmp_path / name / "src" / "p" / f"{name}.java"
    src.parent.mkdir(parents=True)
    src.write_text(f"package p; public class {name} {{ public int twice(int x) {{ return 2 * x; }} }}\n")
    out = tmp_path / name / "classes"
    subprocess.run([str(java.javac), "--release", "11", "-d", str(out), str(src)], check=True, capture_output=True)
    data = bytearray((out / "p" / f"{name}.class").read_bytes())
    data[6:8] = major.to_bytes(2, "big")
    jar = tmp_path / f"{name}.jar"
    with zipfile.ZipFile(jar, "w") as z:
        z.writestr(f"p/{name}.class", bytes(data))
    return jar


@pytest.mark.soak  # two cold extractions in child processes (~12 s); CI's soak runs it
def test_a_newer_asm_reextracts_what_an_older_one_read(tmp_path):
    """The shard of a jar read by an ASM that did not know its classes is not reused once JDX_ASM_JAR names one
    that does: its UNSUPPORTED_CLASS_VERSION went (a second jar makes it another graph, so only shards are
    shared between the two runs)."""
    jars = real_asm_jars()
    old = next((j for j in jars.values() if (jvm.asm_max_major(j) or 99) < 69), None)
    new = next((j for j in jars.values() if (jvm.asm_max_major(j) or 0) >= 69), None)
    if old is None or new is None:
        pytest.skip(f"needs an ASM older and one newer than Java 25; found {sorted(jars)}")
    future = jar_of_major(tmp_path, "Future", 69)
    other = jar_of_major(tmp_path, "Other", 55)

    def index(asm: Path, *jars: Path) -> dict:
        proc = subprocess.run([sys.executable, "-m", "jdx", "--json", "index", "--no-jdk",
                               "--jars", os.pathsep.join(map(str, jars))],
                              capture_output=True, text=True, env=env_for(tmp_path, JDX_ASM_JAR=str(asm)), timeout=600)
        assert proc.returncode == 0, proc.stderr
        return json.loads(proc.stdout)

    def unsupported(envelope: dict) -> list:
        return [w for w in envelope.get("warnings", []) if w.get("code") == "UNSUPPORTED_CLASS_VERSION"]

    first = index(old, future)
    assert unsupported(first), first  # the old ASM knows no major 69
    known = jvm.asm_max_major(old)
    assert unsupported(first)[0]["message"].endswith(  # how many, up to which version, the first, what to do (T73)
        f"1 class file up to major version 69 (Java 25; first: p/Future.class) read by an ASM that knows up to "
        f"{known} (Java {known - 44}): newer constructs may be missed; set JDX_ASM_JAR to a newer ASM jar "
        "(jdx doctor)"), unsupported(first)
    second = index(new, future, other)
    assert not unsupported(second), second


@pytest.mark.soak  # a JVM start and an index under JDK 25 (~7 s)
@pytest.mark.skipif(not (TEMURIN_25 / "lib/server/libjvm.so").is_file(),
                    reason=f"no JDK 25 at {TEMURIN_25} (its JVM warns about JPype's restricted method calls)")
def test_jpype_on_jdk_25_prints_no_restricted_method_warning(tmp_path):
    src = tmp_path / "src" / "p" / "Hello.java"
    src.parent.mkdir(parents=True)
    src.write_text("package p; public class Hello { public int twice(int x) { return 2 * x; } }\n")
    classes = tmp_path / "classes"
    subprocess.run([str(TEMURIN_25 / "bin/javac"), "-d", str(classes), str(src)], check=True, capture_output=True)
    env = env_for(tmp_path, JAVA_HOME=str(TEMURIN_25))
    env["PATH"] = f"{TEMURIN_25 / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    proc = subprocess.run([sys.executable, "-m", "jdx", "index", "--no-daemon", "--no-jdk", "--jars", str(classes)],
                          capture_output=True, text=True, env=env, timeout=600)
    assert proc.returncode == 0, proc.stderr
    assert "index built: 1 artifacts · 1 classes" in proc.stdout
    assert "WARNING: A restricted method" not in proc.stderr, proc.stderr
    assert "--enable-native-access" not in proc.stderr, proc.stderr
