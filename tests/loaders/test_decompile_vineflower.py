"""How jdx drives Vineflower, checked against a stand-in engine compiled at test time.

No Vineflower jar can be fetched on the test machines, so these tests pin the plumbing, not Vineflower's
output: the stand-in has Vineflower's public entry points (BaseDecompiler, DirectoryResultSaver,
PrintStreamLogger in org.jetbrains.java.decompiler.main.decompiler) and writes back what it was given — the
class files offered as sources, the libraries, the options. When a real Vineflower jar is configured
(JDX_VINEFLOWER_JAR), the last test decompiles with it and checks the text parses.
"""

from __future__ import annotations

import os
import shutil
import time
import zipfile
from pathlib import Path

import pytest

from jdx.loaders import decompile as d
from tests.conftest import GSON
from tests.fixtures import jdktool

PACKAGE = "org/jetbrains/java/decompiler/main/decompiler"
STAND_IN = {
    "DirectoryResultSaver": """
        public class DirectoryResultSaver {
            final java.io.File root;
            public DirectoryResultSaver(java.io.File root) { this.root = root; }
        }""",
    "PrintStreamLogger": """
        public class PrintStreamLogger {
            public PrintStreamLogger(java.io.PrintStream stream) { }
        }""",
    "BaseDecompiler": """
        import java.io.File;
        import java.nio.file.*;
        import java.util.*;
        public class BaseDecompiler {
            private final DirectoryResultSaver saver;
            private final Map<String, Object> options;
            private final List<File> sources = new ArrayList<>();
            private final List<File> libraries = new ArrayList<>();
            public BaseDecompiler(DirectoryResultSaver saver, Map<String, Object> options, PrintStreamLogger log) {
                this.saver = saver;
                this.options = options;
            }
            public void addSource(File source) { sources.add(source); }
            public void addLibrary(File library) { libraries.add(library); }
            public void decompileContext() {
                try {
                    List<String> classes = new ArrayList<>();
                    Path top = null;
                    for (File source : sources) {
                        try (var walk = Files.walk(source.toPath())) {
                            for (Path p : (Iterable<Path>) walk.sorted()::iterator) {
                                if (p.toString().endsWith(".class")) {
                                    classes.add(source.toPath().relativize(p).toString());
                                    if (!p.getFileName().toString().contains("$")) top = source.toPath().relativize(p);
                                }
                            }
                        }
                    }
                    if (classes.stream().anyMatch(c -> c.contains("Slow"))) Thread.sleep(60_000);
                    String simple = top.getFileName().toString().replace(".class", "");
                    Path out = saver.root.toPath().resolve(top).resolveSibling(simple + ".java");
                    Files.createDirectories(out.getParent());
                    Files.writeString(out, "// sources: " + String.join(" ", classes) + "\\n// libraries: "
                        + libraries + "\\n// include-runtime: " + options.get("include-runtime")
                        + "\\nclass " + simple + " {}\\n");
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
            }
        }""",
}


@pytest.fixture(scope="module")
def stand_in(tmp_path_factory) -> Path:
    if shutil.which("javac") is None:
        pytest.skip("javac is not installed")
    work = tmp_path_factory.mktemp("vineflower-stand-in")
    src = work / "src" / PACKAGE
    src.mkdir(parents=True)
    for name, body in STAND_IN.items():
        (src / f"{name}.java").write_text(f"package {PACKAGE.replace('/', '.')};\n{body}\n")
    out = work / "classes"
    jdktool.run(["javac", "--release", "11", "-d", str(out), *map(str, sorted(src.glob("*.java")))],
                   check=True, capture_output=True, text=True)
    jar = work / "vineflower-9.9.9.jar"
    with zipfile.ZipFile(jar, "w") as zf:
        for path in sorted(out.rglob("*.class")):
            zf.write(path, path.relative_to(out).as_posix())
    return jar


@pytest.fixture
def vineflower(stand_in, monkeypatch) -> Path:
    monkeypatch.setenv("JDX_VINEFLOWER_JAR", str(stand_in))
    monkeypatch.delenv("JDX_DECOMPILER", raising=False)
    return stand_in


@pytest.fixture(scope="module")
def cache(jdx_home, tmp_path_factory) -> Path:
    from jdx.loaders import java_tools

    java_tools.ensure_jvm(jdx_home / "cache")
    return tmp_path_factory.mktemp("vineflower-cache")


def test_vineflower_is_offered_the_class_and_its_nested_classes_with_the_workspace(vineflower, cache):
    result = d.decompile_class(cache, "jar", str(GSON), "com/google/gson/Gson",
                               [("jar", str(GSON)), ("jrt", "jrt:/java.base")], engine="vineflower")
    assert (result.engine, result.engine_version, result.cached) == ("vineflower", "9.9.9", False)
    lines = result.text.splitlines()
    with zipfile.ZipFile(GSON) as zf:
        expected = sorted(n for n in zf.namelist() if n == "com/google/gson/Gson.class"
                          or n.startswith("com/google/gson/Gson$"))
    assert lines[0].removeprefix("// sources: ").split() == expected
    assert lines[1] == f"// libraries: [{GSON}]"  # the JDK comes from include-runtime, not as a library
    assert lines[2] == "// include-runtime: current"
    again = d.decompile_class(cache, "jar", str(GSON), "com/google/gson/Gson", [], engine="vineflower")
    assert again.cached and again.text == result.text


def test_vineflower_on_a_jdk_class_and_a_class_directory(vineflower, cache, tmp_path):
    jdk = d.decompile_class(cache, "jrt", "jrt:/java.base", "java/util/HashMap", [], engine="vineflower")
    assert "java/util/HashMap$Node.class" in jdk.text.splitlines()[0].split()
    src = tmp_path / "src" / "q" / "Fast.java"
    src.parent.mkdir(parents=True)
    src.write_text("package q; public class Fast { static class Inner { } Runnable r = new Runnable() {"
                   " public void run() { } }; }\n")
    jdktool.run(["javac", "-d", str(tmp_path / "out"), str(src)], check=True, capture_output=True)
    (tmp_path / "out" / "q" / "Faster.class").write_bytes(b"not offered: another class")
    result = d.decompile_class(cache, "dir", str(tmp_path / "out"), "q/Fast", [("dir", str(tmp_path / "out"))],
                               engine="vineflower")
    assert result.text.splitlines()[0].split()[2:] == ["q/Fast$1.class", "q/Fast$Inner.class", "q/Fast.class"]
    assert result.text.splitlines()[1] == f"// libraries: [{tmp_path / 'out'}]"
    with pytest.raises(d.DecompileFailed, match="is not in"):
        d.decompile_class(cache, "dir", str(tmp_path / "out"), "q/Missing", [], engine="vineflower")


def test_a_vineflower_run_past_the_timeout_is_abandoned(vineflower, cache, tmp_path):
    src = tmp_path / "src" / "Slow.java"
    src.parent.mkdir()
    src.write_text("public class Slow { }\n")
    jdktool.run(["javac", "-d", str(tmp_path / "out"), str(src)], check=True, capture_output=True)
    start = time.perf_counter()
    with pytest.raises(d.DecompileTimeout, match="vineflower"):
        d.decompile_class(cache, "dir", str(tmp_path / "out"), "Slow", [], timeout=0.5, engine="vineflower")
    assert time.perf_counter() - start < 10


@pytest.mark.skipif(not os.environ.get("JDX_VINEFLOWER_JAR"), reason="no real Vineflower jar configured")
def test_a_real_vineflower_decompiles_to_java_that_parses(cache, tmp_path):
    import tree_sitter
    import tree_sitter_java

    result = d.decompile_class(tmp_path, "jar", str(GSON), "com/google/gson/Gson", [("jar", str(GSON))],
                               engine="vineflower")
    tree = tree_sitter.Parser(tree_sitter.Language(tree_sitter_java.language())).parse(result.text.encode())
    assert not tree.root_node.has_error
    assert "class Gson" in result.text
