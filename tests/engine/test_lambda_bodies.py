"""`body` and `source --around` of a lambda's method (`lambda$lazy$0`), a stack trace's line the decompiler wrote with
another line's code, and a method Procyon could not decompile.

Oracles: fixtures compiled with javac at test time; `javap -l -p` names each lambda method and the lines of its
LineNumberTable; the fixture's source says what is written on those lines. The undecompilable method is a javac
class whose LocalVariableTable gives a variable a shorter range than its use (as bytecode rewriters leave them): the
JVM runs it, `javap -l` shows the entry, and Procyon 0.6 replaces the method's body with its note
`// This method could not be decompiled.` and a throw."""

from __future__ import annotations

import json
import re
import shutil
import struct
import zipfile
from pathlib import Path

import pytest

from tests.fixtures import jdktool

pytestmark = pytest.mark.soak  # a trial's regression family with its own graph builds: the soak runs it whole (.ci/run)

W_JAVA = """\
package lw;

import java.util.function.Function;
import java.util.function.Supplier;

public class W {
    static final java.util.Map<String, Integer> TABLE = new java.util.HashMap<>();
    int count;

    public Supplier<Integer> lazy(String k) {
        return () -> {
            Function<String, Integer> f = s -> TABLE.get(s) + 1;
            return f.apply(k);
        };
    }

    int bump() {
        count = count + 1;
        return count;
    }
}
"""
V_JAVA = """\
package lv;

public class V {
    public static int f(int x) {
        int a = x + 1;
        if (a > 3) { int b = a * 2; return b; }
        String s = "q" + a;
        return s.length();
    }

    public static int g(int x) {
        return x * 7;
    }
}
"""


def _compile(work: Path, name: str, text: str) -> Path:
    src = work / "src" / name
    src.mkdir(parents=True, exist_ok=True)
    path = src / (re.search(r"class (\w+)", text).group(1) + ".java")
    path.write_text(text)
    jdktool.run(["javac", "-g", "--release", "17", "-d", str(work / "classes"), str(path)], check=True,
                capture_output=True, text=True)
    return work / "classes"


def _jar(classes: Path, jar: Path, edit=None) -> Path:
    with zipfile.ZipFile(jar, "w") as z:
        for path in sorted(classes.rglob("*.class")):
            data = path.read_bytes()
            z.writestr(str(path.relative_to(classes)), edit(data) if edit else data)
    return jar


def _shorten_local(data: bytes, name: str, length: int) -> bytes:
    """The class file with the LocalVariableTable entry of local `name` (an int in slot 1) made `length` long."""
    from jdx.loaders.decompile_procyon import read_class

    cf = read_class(data)

    def utf8(i):
        try:
            return cf.utf8(i)
        except Exception:  # noqa: BLE001 - another kind of constant
            return None

    name_i, int_i = (next(i for i in range(1, cf.cp_count) if utf8(i) == s) for s in (name, "I"))
    key = struct.pack(">HHH", name_i, int_i, 1)
    at = data.index(key) - 4  # start_pc, length, name, descriptor, slot
    return data[:at + 2] + struct.pack(">H", length) + data[at + 4:]


def _lambda_tables(jar: Path, cls: str) -> dict[str, list[int]]:
    """Lambda method name → the lines of its LineNumberTable (javap -l -p)."""
    out = jdktool.run(["javap", "-l", "-p", "-cp", str(jar), cls], capture_output=True, text=True,
                      check=True).stdout
    tables: dict[str, list[int]] = {}
    current = None
    for line in out.splitlines():
        if re.match(r"  \S.*;$", line):  # a member's declaration (`static {};` too)
            decl = re.match(r".*?([\w$]+)\(.*\);$", line)
            current = decl.group(1) if decl and decl.group(1).startswith("lambda$") else None
        found = re.match(r"\s+line (\d+): \d+", line)
        if found and current:
            tables.setdefault(current, []).append(int(found.group(1)))
    return tables


@pytest.fixture(scope="module")
def fx(jdx_home, run_jdx):
    from jdx.loaders.decompile import available_engines

    if shutil.which("javac") is None or shutil.which("javap") is None:
        pytest.skip("javac / javap are not installed")
    if not any(name == "procyon" for name, *_ in available_engines()):
        pytest.skip("Procyon is not installed")
    work = jdx_home / "lambda-bodies"
    w = _jar(_compile(work / "w", "lw", W_JAVA), work / "lw.jar")
    v = _jar(_compile(work / "v", "lv", V_JAVA), work / "lv.jar", lambda d: _shorten_local(d, "a", 5))
    for jar in (w, v):
        assert run_jdx("index", "--jars", str(jar)).code == 0
    return {"w": ["--jars", str(w)], "w_src": ["--jars", str(w), "--src", str(work / "w" / "src")],
            "v": ["--jars", str(v)], "w_jar": w, "v_jar": v}


def _json(run_jdx, *args) -> tuple[dict, list[dict]]:
    r = run_jdx(*args, "--json")
    assert r.code == 0, r.out + r.err
    doc = json.loads(r.out)
    return doc["result"], doc.get("warnings", [])


def test_a_lambda_body_from_sources_is_the_lines_of_its_line_table(fx, run_jdx):
    tables = _lambda_tables(fx["w_jar"], "lw.W")
    assert len(tables) == 2, tables
    source = W_JAVA.splitlines()
    for name, lines in tables.items():
        res, _ = _json(run_jdx, "body", f"lw.W#{name}", *fx["w_src"])
        assert res["origin"] == "sources", res["header"]
        assert res["text"] == source[min(lines) - 1:max(lines)], (name, lines, res["text"])
        assert "lambda body" in res["header"]


def test_a_lambda_body_without_sources_is_its_place_in_the_enclosing_method(fx, run_jdx):
    tables = _lambda_tables(fx["w_jar"], "lw.W")
    outer = max(tables, key=lambda n: len(set(tables[n])))  # the outer lambda spans both lines
    for name, lines in tables.items():
        res, warnings = _json(run_jdx, "body", f"lw.W#{name}", *fx["w"])
        assert res["origin"] == "decompiled", res["header"]
        assert res["source"]["class_file_lines"] == [min(lines), max(lines)]
        joined = "\n".join(res["text"])
        assert "TABLE.get(s) + 1" in joined, joined  # both lambdas' code is on that line
        assert ("f.apply(k)" in joined) == (name == outer), (name, joined)
        assert any(w["code"] == "NO_SOURCES" for w in warnings)
        # `source --around` the lambda method shows the same place (it said "no declaration", exit 1)
        around, _ = _json(run_jdx, "source", "lw.W", "--around", name, "--context", "0", *fx["w"])
        assert around["text"] == res["text"]


def test_a_lambda_line_of_a_stack_trace_is_placed(fx, run_jdx):
    """The advice for a lambda's line is the decompiled line holding it, not "name the method" (which looped)."""
    line = W_JAVA.splitlines().index("            return f.apply(k);") + 1
    r = run_jdx("source", "lw.W", "--around", str(line), *fx["w"])
    assert r.code == 3, r.out + r.err
    found = re.search(rf"class-file line {line} is decompiled line (\d+)", r.err)
    assert found, r.err
    text, _ = _json(run_jdx, "source", "lw.W", *fx["w"])
    assert "f.apply(k)" in text["text"][int(found.group(1)) - 1]


def test_a_line_the_decompiler_merged_points_at_the_nearest_line_of_its_method(fx, run_jdx):
    """Procyon writes `count = count + 1; return count;` as `return ++this.count;`: the first line has no decompiled
    line of its own, so the advice names bump's nearest line that has one."""
    line = W_JAVA.splitlines().index("        count = count + 1;") + 1
    r = run_jdx("source", "lw.W", "--around", str(line), *fx["w"])
    assert r.code == 3, r.out + r.err
    found = re.search(rf"class-file line {line} has no decompiled line of its own.*nearest line of lw\.W#bump "
                      rf"that has one is class-file line {line + 1}, decompiled line (\d+)", r.err)
    assert found, r.err
    text, _ = _json(run_jdx, "source", "lw.W", *fx["w"])
    assert "++this.count" in text["text"][int(found.group(1)) - 1]


def test_a_method_procyon_could_not_decompile_falls_to_javap(fx, run_jdx):
    out = jdktool.run(["javap", "-l", "-p", "-cp", str(fx["v_jar"]), "lv.V"], capture_output=True, text=True,
                      check=True).stdout
    assert re.search(r"^\s+4\s+5\s+1\s+a\s+I$", out, re.M), out  # the shortened entry, as javap reads it
    res, warnings = _json(run_jdx, "body", "lv.V#f", *fx["v"])
    assert res["origin"] == "javap", res["header"]
    assert any(w["code"] == "DECOMPILE_FAILED" and "could not decompile lv.V#f(int)" in w["message"]
               for w in warnings), warnings
    assert not any("could not be decompiled" in line for line in res["text"])
    ok, ok_warnings = _json(run_jdx, "body", "lv.V#g", *fx["v"])  # the other method decompiles
    assert ok["origin"] == "decompiled" and not any(w["code"] == "DECOMPILE_FAILED" for w in ok_warnings)
    whole, whole_warnings = _json(run_jdx, "source", "lv.V", *fx["v"])
    assert any("This method could not be decompiled." in line for line in whole["text"])
    failed = [w for w in whole_warnings if w["code"] == "DECOMPILE_FAILED"]
    assert len(failed) == 1 and "1 method(s) of lv.V shown: f (line" in failed[0]["message"], whole_warnings
