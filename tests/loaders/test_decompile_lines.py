"""Procyon's line map: each decompiled line names the class-file lines (LineNumberTable) of the code written on
it. Oracle: the fixture's own source, compiled with `javac -g` at test time, so a class-file line is the line of
the source that holds the statement; the k-th `greet(` of a method must map to the k-th `greet(` of its
decompiled text, though blank lines and comments make the two numberings drift apart. Also: the map is cached
beside the text and never served with another text."""

from __future__ import annotations

import json
import re
import shutil
import zipfile
from pathlib import Path

import pytest

from jdx.loaders import decompile as d

from tests.fixtures import jdktool

LINES_JAVA = """\
package lx;

import java.util.List;

public class Lines {
    private final StringBuilder out = new StringBuilder();
    int count;

    public String greet(String who, int n) {
        return who + n;
    }

    String twice(String who) {
        String a = greet(who, 1);

        // the decompiler drops comments and blank lines,


        String b = greet(a, 2);
        return greet(b, 3);
    }

    String loop(List<String> names) {
        /* so the decompiled lines drift from the class file's */
        for (String n : names) {

            out.append(greet(n, 0));
        }
        return out.toString();
    }

    int bump() {
        count = count + 1;
        return count;
    }
}
"""
USER_JAVA = """\
package lx;

public class User {
    int both(Lines l, String w) {
        int x = l.greet(w, 1).length()
            + l.greet(w, 2).length();
        return x;
    }
}
"""
CALLS = re.compile(r"(?<![\w$])greet\(")


def build_lines_jar(workdir: Path) -> Path:
    """`workdir/lines-fixture.jar` (lx.Lines, lx.User) compiled with `javac -g`, built on first use."""
    jar = workdir / "lines-fixture.jar"
    if jar.exists():
        return jar
    if shutil.which("javac") is None:
        pytest.skip("javac is not installed")
    src, classes = workdir / "lines-src" / "lx", workdir / "lines-classes"
    src.mkdir(parents=True, exist_ok=True)
    (src / "Lines.java").write_text(LINES_JAVA)
    (src / "User.java").write_text(USER_JAVA)
    jdktool.run(["javac", "-g", "--release", "17", "-d", str(classes), str(src / "Lines.java"),
                    str(src / "User.java")], check=True, capture_output=True, text=True)
    tmp = jar.with_suffix(".tmp")
    with zipfile.ZipFile(tmp, "w") as z:
        for path in sorted(classes.rglob("*.class")):
            z.writestr(zipfile.ZipInfo(str(path.relative_to(classes)), date_time=(2020, 1, 1, 0, 0, 0)),
                       path.read_bytes())
    tmp.replace(jar)
    return jar


def method_lines(text: str, name: str) -> list[int]:
    """1-based lines of `text` inside the method `name` (its declaration line to its closing brace)."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if re.search(rf"\s{name}\(.*\)\s*\{{\s*$", line))
    indent = len(lines[start]) - len(lines[start].lstrip())
    end = next(i for i in range(start + 1, len(lines)) if lines[i].strip() == "}"
               and len(lines[i]) - len(lines[i].lstrip()) == indent)
    return list(range(start + 1, end + 2))


def call_lines(text: str, name: str) -> list[int]:
    """Lines of method `name` in `text` that call greet, in order."""
    lines = text.splitlines()
    return [n for n in method_lines(text, name) if CALLS.search(lines[n - 1])]


@pytest.fixture(scope="module")
def procyon(jdx_home):
    from jdx.loaders import java_tools

    if not d.find_engines("procyon"):
        pytest.skip("Procyon is not installed")
    java_tools.ensure_jvm(jdx_home / "cache")


@pytest.fixture(scope="module")
def jar(jdx_home) -> Path:
    (jdx_home / "lines-fixture").mkdir(exist_ok=True)
    return build_lines_jar(jdx_home / "lines-fixture")


def _decompile(cache: Path, jar: Path, name: str, classpath=None) -> d.Decompiled:
    return d.decompile_class(cache, "jar", str(jar), name,
                             [("jar", str(jar))] if classpath is None else classpath, engine="procyon")


@pytest.mark.parametrize("method", ["twice", "loop"])
def test_each_call_line_maps_to_the_decompiled_line_of_that_call(procyon, jar, tmp_path, method):
    dec = _decompile(tmp_path, jar, "lx/Lines")
    source_calls, decompiled_calls = call_lines(LINES_JAVA, method), call_lines(dec.text, method)
    assert len(source_calls) == len(decompiled_calls) >= 1, dec.text
    span = method_lines(dec.text, method)
    for line, expected in zip(source_calls, decompiled_calls):
        assert dec.decompiled_lines(line, span[0], span[-1])[:1] == [expected], (line, dec.line_map, dec.text)
    assert source_calls != decompiled_calls  # the two numberings differ here, so the map is what places them


def test_an_unshared_run_gives_the_same_map(procyon, jar, tmp_path):
    """A class directory on the classpath takes Procyon's other path (no kept type cache): same text, same map."""
    shared = _decompile(tmp_path / "a", jar, "lx/Lines")
    classes = tmp_path / "classes"
    with zipfile.ZipFile(jar) as z:
        z.extractall(classes)
    unshared = _decompile(tmp_path / "b", jar, "lx/Lines", [("dir", str(classes))])
    assert unshared.text == shared.text and unshared.line_map == shared.line_map and shared.line_map


def test_joined_lines_map_to_one_decompiled_line(procyon, jar, tmp_path):
    """Procyon writes `count = count + 1; return count;` as `return ++this.count;`: the line it merged away maps
    nowhere (samples say so), the other to the joined line."""
    dec = _decompile(tmp_path, jar, "lx/Lines")
    span = method_lines(dec.text, "bump")
    bump = LINES_JAVA.splitlines().index("        count = count + 1;") + 1
    joined = dec.decompiled_lines(bump + 1, span[0], span[-1])
    assert joined and "++this.count" in dec.text.splitlines()[joined[0] - 1]
    assert dec.decompiled_lines(bump, span[0], span[-1]) == []


def test_the_map_is_cached_with_its_text_and_never_with_another(procyon, jar, tmp_path):
    first = _decompile(tmp_path, jar, "lx/User")
    again = _decompile(tmp_path, jar, "lx/User")
    assert not first.cached and again.cached
    assert again.text == first.text and again.line_map == first.line_map and first.line_map
    [text_file] = (tmp_path / "decompiled").rglob("*.java")
    sidecar = text_file.with_suffix(".lines")
    stored = json.loads(sidecar.read_text())
    sidecar.write_text(json.dumps(dict(stored, text_sha256="0" * 64)))  # a map made for another text
    assert _decompile(tmp_path, jar, "lx/User").line_map is None
    sidecar.unlink()  # a text stored without a map: served without one
    old = _decompile(tmp_path, jar, "lx/User")
    assert old.cached and old.text == first.text and old.line_map is None


def test_entries_of_the_format_before_the_map_are_made_again(procyon, jar, tmp_path, monkeypatch):
    engine = d.find_engines("procyon")[0]
    key = d._class_key(d.class_files("jar", str(jar), "lx/User"))
    monkeypatch.setattr(d, "CACHE_FORMAT", "2")
    d._write_atomically(d._cache_file(tmp_path, engine, key), "class User { /* format 2 */ }\n")
    monkeypatch.undo()
    fresh = _decompile(tmp_path, jar, "lx/User")
    assert not fresh.cached and "format 2" not in fresh.text and fresh.line_map


def test_a_shortened_permits_clause_moves_the_lines_after_it():
    text = "enum E permits\n    E$1, E$2 {\n    A {\n    };\n    void f() {\n        g();\n    }\n}\n"
    fixed, line_map = d.drop_invalid_permits_mapped(text, [(10, 6), (20, 2), (30, 1)])
    assert fixed.splitlines()[0] == "enum E {"
    assert fixed.splitlines()[4] == "        g();"  # was line 6, now line 5
    assert line_map == {1: (20, 30), 5: (10,)}
    assert d.drop_invalid_permits(text) == fixed
