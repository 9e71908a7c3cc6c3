"""Decompilation in process: decompiled text parses as Java and declares the binary's methods; cache; timeouts;
corrupt input; the engine missing. Oracles: tree-sitter-java for syntax, our own class-file reader for members."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
import time
import zipfile
from pathlib import Path

import pytest

from jdx.loaders import decompile as d
from tests.conftest import GSON, LANG3
from tests.fixtures.build import fixtures_jar
from tests.loaders.test_decompile_classfile import (ACC_BRIDGE, ACC_ENUM, ACC_SYNTHETIC, param_count,
                                                     read_class)
from tests.fixtures import jdktool

pytestmark = pytest.mark.skipif(not d.available_engines(), reason="no decompiler installed (see .ci/run)")

JDK_SAMPLE = ["java/util/HashMap", "java/util/concurrent/ConcurrentHashMap", "java/lang/String",
              "java/util/ArrayList", "java/util/Optional", "java/util/concurrent/TimeUnit", "java/util/Map",
              "java/util/regex/Pattern"]


def _top_level_classes(jar: Path, step: int) -> list[str]:
    """Every `step`-th top-level class of a jar, in name order (a fixed, spread-out sample)."""
    if not jar.exists():
        return []
    with zipfile.ZipFile(jar) as zf:
        names = sorted(n[:-6] for n in zf.namelist()
                       if n.endswith(".class") and "$" not in n and not n.endswith(("module-info.class",
                                                                                    "package-info.class")))
    return names[::step]


@pytest.fixture(scope="module")
def cache(tmp_path_factory, jdx_home) -> Path:
    """A private decompilation cache; the JVM (and the extractor it is started with) comes from the session cache."""
    from jdx.loaders import java_tools

    java_tools.ensure_jvm(jdx_home / "cache")
    return tmp_path_factory.mktemp("decompile-cache")


@pytest.fixture(scope="module")
def fixtures(jdx_home) -> Path:
    """The compiled fixtures, built once per session for the decompile and javap tests."""
    (jdx_home / "decompile-fixtures").mkdir(exist_ok=True)
    return fixtures_jar(jdx_home / "decompile-fixtures")


def _parser():
    import tree_sitter
    import tree_sitter_java

    return tree_sitter.Parser(tree_sitter.Language(tree_sitter_java.language()))


def _nodes(root):
    stack = [root]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(node.children)


def _declared(text: str) -> tuple[list, dict, dict]:
    """(syntax error lines, {method name: {param counts}}, {constructor name: {param counts}}) of Java text."""
    tree = _parser().parse(text.encode())
    lines = text.splitlines()
    errors = [lines[n.start_point[0]].strip() for n in _nodes(tree.root_node) if n.type == "ERROR" or n.is_missing]
    methods: dict[str, set[int]] = {}
    constructors: dict[str, set[int]] = {}
    for node in _nodes(tree.root_node):
        if node.type in ("method_declaration", "constructor_declaration"):
            params = node.child_by_field_name("parameters")
            count = sum(1 for c in params.named_children if c.type in ("formal_parameter", "spread_parameter"))
            target = methods if node.type == "method_declaration" else constructors
            target.setdefault(node.child_by_field_name("name").text.decode(), set()).add(count)
        elif node.type == "annotation_type_element_declaration":
            methods.setdefault(node.child_by_field_name("name").text.decode(), set()).add(0)
        elif node.type == "compact_constructor_declaration":
            constructors.setdefault(node.child_by_field_name("name").text.decode(), set()).add(-1)
    return errors, methods, constructors


def _class_file(kind: str, path: str, internal_name: str) -> bytes:
    if kind == "jrt":
        from jdx.loaders import java_tools

        return dict(java_tools.jrt_class_files(path.removeprefix("jrt:/"), internal_name))[internal_name + ".class"]
    return dict(d.class_files(kind, path, internal_name))[internal_name + ".class"]


def _expected_members(data: bytes) -> tuple[list[tuple[str, int]], list[int]]:
    """Methods (name, parameter count) and constructor parameter counts a faithful decompilation must declare.

    Compiler-made members are left out: synthetic and bridge methods, lambda bodies and accessors ($ in the
    name), static initialisers, an enum's values()/valueOf(String) and its constructors (their two hidden
    parameters), records' implicit accessors/equals/hashCode/toString, and no-argument constructors (a default
    constructor is legitimately omitted).
    """
    info = read_class(data)
    enum = bool(info["access"] & ACC_ENUM)
    record = info["super"] == "java/lang/Record"
    record_names = {n for n, _, _ in info["fields"]} | {"equals", "hashCode", "toString"} if record else set()
    methods, constructors = [], []
    for name, desc, access in info["methods"]:
        if access & (ACC_SYNTHETIC | ACC_BRIDGE) or "$" in name or name == "<clinit>" or name in record_names:
            continue
        if enum and (name in ("values", "valueOf") or name == "<init>"):
            continue
        if name == "<init>":
            if param_count(desc) and not record:
                constructors.append(param_count(desc))
            continue
        methods.append((name, param_count(desc)))
    return methods, constructors


def _check(result: d.Decompiled, data: bytes, internal_name: str) -> None:
    errors, methods, constructors = _declared(result.text)
    assert errors == [], f"{internal_name}: {result.engine} output does not parse: {errors[:3]}"
    simple = internal_name.rpartition("/")[2]
    expected_methods, expected_constructors = _expected_members(data)
    missing = [m for m in expected_methods if m[1] not in methods.get(m[0], set())]
    assert missing == [], f"{internal_name}: methods missing from the decompiled text: {missing[:5]}"
    missing_ctors = [n for n in expected_constructors if n not in constructors.get(simple, set())]
    assert missing_ctors == [], f"{internal_name}: constructors missing (parameter counts): {missing_ctors}"


CASES = ([("jar", str(GSON), n) for n in _top_level_classes(GSON, 20)]
         + [("jar", str(LANG3), n) for n in _top_level_classes(LANG3, 40)]
         + [("jrt", "jrt:/java.base", n) for n in JDK_SAMPLE])
# the default tier decompiles three of them (a jar class and two JDK ones); the soak all of them
DEFAULT_CASES = {"com/google/gson/internal/bind/TypeAdapters", "java/util/HashMap", "java/util/Map"}
PARAMS = [pytest.param(*c, id=c[2], marks=() if c[2] in DEFAULT_CASES else pytest.mark.soak) for c in CASES]


@pytest.mark.parametrize("kind,path,internal_name", PARAMS)
def test_decompiled_text_parses_and_declares_the_binary_methods(cache, kind, path, internal_name):
    classpath = [("jar", str(GSON)), ("jar", str(LANG3)), ("jrt", "jrt:/java.base")]
    result = d.decompile_class(cache, kind, path, internal_name, classpath)
    assert (result.engine, result.engine_version) == d.available_engines()[0][:2]
    _check(result, _class_file(kind, path, internal_name), internal_name)


def test_fixture_classes_records_enums_nested_and_sealed(cache, fixtures):
    """Every top-level class of the compiled fixtures (records, enums, inner/anonymous classes, generics)."""
    names = _top_level_classes(fixtures, 1)
    assert len(names) >= 10
    for name in names:
        result = d.decompile_class(cache, "jar", str(fixtures), name, [("jar", str(fixtures))])
        _check(result, _class_file("jar", str(fixtures), name), name)


def test_nested_classes_come_inside_their_top_level_class(cache):
    result = d.decompile_class(cache, "jrt", "jrt:/java.base", "java/util/HashMap", [])
    errors, methods, _ = _declared(result.text)
    assert not errors
    for nested in ("class Node", "class TreeNode", "class KeySet", "class EntryIterator"):
        assert nested in result.text
    assert "getNode" in methods and "putVal" in methods


def test_repeat_comes_from_the_cache_with_identical_text(cache):
    first = d.decompile_class(cache, "jar", str(GSON), "com/google/gson/JsonArray", [("jar", str(GSON))])
    again = d.decompile_class(cache, "jar", str(GSON), "com/google/gson/JsonArray", [("jar", str(GSON))])
    assert again.cached is True
    assert again.text == first.text
    assert (again.engine, again.engine_version) == (first.engine, first.engine_version)
    stored = list((cache / "decompiled").rglob("*.java"))
    assert any(p.read_text() == first.text for p in stored)
    shadow_id = d.decompile_class(cache, "jar", str(GSON), "com/google/gson/JsonArray@0123456789abcdef", [])
    assert shadow_id.cached and shadow_id.text == first.text


def test_a_cache_hit_does_not_start_a_jvm(cache, tmp_path, jdx_env):
    d.decompile_class(cache, "jar", str(GSON), "com/google/gson/JsonPrimitive", [])
    script = textwrap.dedent(f"""
        import sys, jpype
        from pathlib import Path
        from jdx.loaders import decompile as d
        r = d.decompile_class(Path({str(cache)!r}), "jar", {str(GSON)!r}, "com/google/gson/JsonPrimitive", [])
        print(r.cached, jpype.isJVMStarted())
    """)
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=jdx_env, timeout=120)
    assert proc.stdout.split() == ["True", "False"], proc.stderr


def _compile(src_root: Path, out: Path, source: str) -> None:
    (src_root / "dx").mkdir(parents=True, exist_ok=True)
    (src_root / "dx" / "Tool.java").write_text(source)
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    jdktool.run(["javac", "--release", "11", "-g", "-d", str(out), str(src_root / "dx" / "Tool.java")],
                   check=True, capture_output=True, text=True)


TOOL = """package dx;
import java.util.*;
public class Tool {
    private final List<String> names = new ArrayList<>();
    public Tool(String first) { names.add(first); }
    public int count() { return names.size(); }
    public Runnable printer() { return () -> System.out.println(names); }
    public Iterator<String> anonymous() {
        return new Iterator<String>() {
            int i;
            public boolean hasNext() { return i < names.size(); }
            public String next() { return names.get(i++); }
        };
    }
    static class Helper { int twice(int x) { return 2 * x; } }
    %s
}
"""


@pytest.mark.soak
def test_class_directory_and_a_changed_class_misses_the_cache(cache, tmp_path):
    """A class directory artifact; recompiling with a new method changes the bytes, so the key, so the text."""
    if shutil.which("javac") is None:
        pytest.skip("javac is not installed")
    out = tmp_path / "classes"
    _compile(tmp_path / "src", out, TOOL % "")
    first = d.decompile_class(cache, "dir", str(out), "dx/Tool", [("dir", str(out))])
    assert first.cached is False
    _check(first, (out / "dx/Tool.class").read_bytes(), "dx/Tool")
    assert "class Helper" in first.text and "new Iterator<String>()" in first.text
    assert d.decompile_class(cache, "dir", str(out), "dx/Tool", []).cached is True
    _compile(tmp_path / "src", out, TOOL % "public String added(String a, int b) { return a + b; }")
    second = d.decompile_class(cache, "dir", str(out), "dx/Tool", [("dir", str(out))])
    assert second.cached is False
    assert "added(" in second.text and "added(" not in first.text


@pytest.mark.soak
def test_a_slow_class_times_out_with_a_named_error_and_the_engine_stays_usable(cache, tmp_path):
    """The timeout hits while a fresh engine loader is still initialising classes, the worst moment to stop."""
    from jdx.loaders import java_tools

    java_tools.forget_loader(list(d.find_engines()[0].jars))
    start = time.perf_counter()
    with pytest.raises(d.DecompileTimeout) as info:
        d.decompile_class(tmp_path, "jrt", "jrt:/java.base", "java/lang/Character", [], timeout=0.05)
    assert time.perf_counter() - start < 10
    assert info.value.code == "DECOMPILE_TIMEOUT"
    assert info.value.warning("java.base").code == "DECOMPILE_TIMEOUT"
    assert "\n" not in info.value.message
    assert not list(tmp_path.rglob("*.java"))
    after = d.decompile_class(cache, "jar", str(GSON), "com/google/gson/JsonObject", [])
    assert "class JsonObject" in after.text


@pytest.mark.soak
def test_a_process_with_an_abandoned_worker_exits_promptly(tmp_path, jdx_env):
    script = textwrap.dedent(f"""
        from pathlib import Path
        from jdx.loaders import decompile as d
        try:
            d.decompile_class(Path({str(tmp_path)!r}), "jrt", "jrt:/java.base", "java/lang/Character", [],
                              timeout=0.05)
        except d.DecompileTimeout as exc:
            print(exc.code)
    """)
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          env={**jdx_env, "JDX_CACHE_DIR": jdx_env["JDX_CACHE_DIR"]}, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "DECOMPILE_TIMEOUT"
    assert proc.stderr == ""  # the stopped worker prints nothing (no uncaught ThreadDeath, no traceback)
    assert time.perf_counter() - start < 60


def _jar_with(tmp_path: Path, entries: dict[str, bytes]) -> Path:
    jar = tmp_path / "broken.jar"
    with zipfile.ZipFile(jar, "w") as zf:
        for name, data in entries.items():
            zf.writestr(name, data)
    return jar


@pytest.mark.parametrize("mangle", ["truncated", "garbage", "empty"])
def test_a_corrupt_class_file_fails_with_a_named_error(cache, tmp_path, mangle):
    good = d.class_files("jar", str(GSON), "com/google/gson/JsonNull")[0][1]
    data = {"truncated": good[: len(good) // 2], "garbage": b"\xca\xfe\xba\xbe" + os.urandom(64),
            "empty": b""}[mangle]
    jar = _jar_with(tmp_path, {"com/google/gson/JsonNull.class": data})
    with pytest.raises(d.DecompileFailed) as info:
        d.decompile_class(cache, "jar", str(jar), "com/google/gson/JsonNull", [])
    assert info.value.code == "DECOMPILE_FAILED"
    assert "\n" not in info.value.message and "Traceback" not in info.value.message


def test_a_corrupt_class_in_a_directory_fails_with_a_named_error(cache, tmp_path):
    (tmp_path / "p").mkdir()
    (tmp_path / "p" / "Half.class").write_bytes(b"\xca\xfe\xba\xbe\x00\x00\x00\x37\x00\x10")
    with pytest.raises(d.DecompileFailed):
        d.decompile_class(cache, "dir", str(tmp_path), "p/Half", [])


def test_a_missing_class_or_artifact_fails_with_a_named_error(cache, tmp_path):
    with pytest.raises(d.DecompileFailed, match="is not in"):
        d.decompile_class(cache, "jar", str(GSON), "com/google/gson/Nope", [])
    with pytest.raises(d.DecompileFailed, match="is not in"):
        d.decompile_class(cache, "jrt", "jrt:/java.base", "java/util/Nope", [])
    with pytest.raises(d.DecompileFailed):
        d.decompile_class(cache, "jar", str(tmp_path / "absent.jar"), "a/B", [])
    not_a_jar = tmp_path / "not.jar"
    not_a_jar.write_text("hello")
    with pytest.raises(d.DecompileFailed):
        d.decompile_class(cache, "jar", str(not_a_jar), "a/B", [])


@pytest.mark.soak  # ~4 s of a crashing decompiler JVM; CI's soak runs it
def test_an_engine_crash_is_a_named_failure(cache):
    """Procyon 0.6 recurses without end on java.util.stream.Collectors: a real engine crash (StackOverflowError)."""
    engine, version, _ = d.available_engines()[0]
    if (engine, version) != ("procyon", "0.6.0"):
        pytest.skip("the crash is specific to Procyon 0.6.0")
    with pytest.raises(d.DecompileFailed, match="StackOverflowError"):
        d.decompile_class(cache, "jrt", "jrt:/java.base", "java/util/stream/Collectors", [])


def test_no_engine_is_decompiler_unavailable(cache, monkeypatch, tmp_path):
    monkeypatch.setenv("JDX_DECOMPILER", "none")
    assert d.available_engines() == []
    with pytest.raises(d.DecompileUnavailable) as info:
        d.decompile_class(cache, "jar", str(GSON), "com/google/gson/JsonNull", [])
    assert info.value.code == "DECOMPILER_UNAVAILABLE"
    assert "procyon-decompiler" in info.value.message
    monkeypatch.delenv("JDX_DECOMPILER")
    monkeypatch.setenv("JDX_PROCYON_DIR", str(tmp_path / "nowhere"))
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("JDX_VINEFLOWER_JAR", raising=False)
    assert d.available_engines() == []
    with pytest.raises(d.DecompileUnavailable):
        d.decompile_class(cache, "jar", str(GSON), "com/google/gson/JsonNull", [])


def _fake_jar(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("META-INF/MANIFEST.MF", "Manifest-Version: 1.0\n")
    return path


def test_a_vineflower_jar_that_does_not_load_falls_through_to_the_next_engine(cache, monkeypatch, tmp_path):
    if not any(e[0] == "procyon" for e in d.available_engines()):
        pytest.skip("needs Procyon as the next engine")
    fake = _fake_jar(tmp_path / "vineflower-1.10.1.jar")
    monkeypatch.setenv("JDX_VINEFLOWER_JAR", str(fake))
    assert d.available_engines()[0] == ("vineflower", "1.10.1", str(fake))
    result = d.decompile_class(cache, "jar", str(GSON), "com/google/gson/JsonNull", [])
    assert result.engine == "procyon"
    monkeypatch.setenv("JDX_DECOMPILER", "vineflower")
    with pytest.raises(d.DecompileUnavailable, match="vineflower 1.10.1"):
        d.decompile_class(cache, "jar", str(GSON), "com/google/gson/JsonNull", [])


@pytest.mark.soak
def test_engine_log_noise_stays_off_stderr(cache, tmp_path, jdx_env, capfd):
    """Procyon logs unresolved generics through java.util.logging (commons-lang3's Failable triggers it)."""
    if d.available_engines()[0][0] != "procyon":
        pytest.skip("the noise is Procyon's")
    name, classpath = "org/apache/commons/lang3/function/Failable", [("jar", str(LANG3))]
    script = textwrap.dedent(f"""
        from pathlib import Path
        from jdx.loaders import decompile as d
        d.PROCYON_LOGGERS = ()
        d.decompile_class(Path({str(tmp_path)!r}), "jar", {str(LANG3)!r}, {name!r}, {classpath!r})
    """)
    loud = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=jdx_env, timeout=120)
    assert loud.returncode == 0, loud.stderr
    assert "WARNING" in loud.stderr  # the trigger is real, so the silence below means something
    capfd.readouterr()
    assert d.decompile_class(tmp_path / "quiet", "jar", str(LANG3), name, classpath).cached is False
    assert capfd.readouterr().err == ""


def test_one_call_can_force_an_engine(cache, monkeypatch, tmp_path):
    monkeypatch.setenv("HOME", str(tmp_path))  # no Vineflower in a Gradle or Maven cache
    monkeypatch.delenv("JDX_VINEFLOWER_JAR", raising=False)
    monkeypatch.setenv("JDX_CONFIG_DIR", str(tmp_path))
    with pytest.raises(d.DecompileUnavailable, match="no vineflower decompiler"):
        d.decompile_class(cache, "jar", str(GSON), "com/google/gson/JsonNull", [], engine="vineflower")
    if d.available_engines("procyon"):
        result = d.decompile_class(cache, "jar", str(GSON), "com/google/gson/JsonNull", [], engine="procyon")
        assert result.engine == "procyon"


@pytest.mark.soak
@pytest.mark.parametrize("kind,path,internal_name", [("jar", str(GSON), "com/google/gson/Gson"),
                                                     ("jrt", "jrt:/java.base", "java/util/TreeMap")])
def test_a_kept_type_cache_gives_the_same_text_as_a_fresh_one(cache, tmp_path, monkeypatch, kind, path,
                                                              internal_name):
    """Runs over immutable inputs keep Procyon's type cache between classes; the text must not depend on it."""
    if d.available_engines()[0][0] != "procyon":
        pytest.skip("the kept type cache is Procyon's")
    classpath = [("jar", str(GSON)), ("jar", str(LANG3))]
    d.decompile_class(tmp_path / "warm-up", "jar", str(GSON), "com/google/gson/JsonObject", classpath)
    kept = d.decompile_class(tmp_path / "kept", kind, path, internal_name, classpath)
    assert d._shared_key(d.find_engines()[0], (kind, path), classpath) in d._SHARED
    monkeypatch.setattr(d, "_shared_key", lambda *args: None)
    fresh = d.decompile_class(tmp_path / "fresh", kind, path, internal_name, classpath)
    assert not kept.cached and not fresh.cached
    assert kept.text == fresh.text


def test_an_unreadable_workspace_jar_only_costs_type_resolution(cache, tmp_path):
    bad = tmp_path / "bad.jar"
    bad.write_bytes(b"PK\x03\x04 truncated")
    result = d.decompile_class(tmp_path, "jar", str(GSON), "com/google/gson/JsonNull", [("jar", str(bad))])
    assert "class JsonNull" in result.text
