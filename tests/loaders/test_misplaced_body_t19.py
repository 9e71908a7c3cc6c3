"""A class jdx indexes away from the path its name gives (MISPLACED_CLASS: a Spring Boot jar's `BOOT-INF/classes/`,
a war's `WEB-INF/classes/`, a jmod's `classes/`, a class directory with `wrong/Foo.class` declaring app.Main) is read,
so `body` and `source` show its code too: javap and the decompiler read the class file where it is, not where a class
path lookup would look (`app/Main.class`). javap of the class compiled by javac is the oracle."""

from __future__ import annotations

import json
import re
import shutil
import zipfile

import pytest

from jdx.loaders import class_files as cf
from jdx.loaders import decompile as d
from tests.fixtures import jdktool
from tests.fixtures.javac import javac_jar

pytestmark = pytest.mark.soak  # a trial's regression family with its own graph builds: the soak runs it whole (.ci/run)

MAIN = """package app;
public class Main {
    static class Inner { int x = 3; }
    public static void main(String[] args) { System.out.println("hi " + args.length + new Inner().x); }
}
"""
LAYOUTS = ("boot", "war", "jmod", "dir")


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    root = tmp_path_factory.mktemp("misplaced-body")
    _, classes = javac_jar(root, {"app/Main.java": MAIN, "module-info.java": "module app { exports app; }"},
                           "app", "plain.jar")
    own = {p.name: p.read_bytes() for p in (classes / "app").glob("*.class")}
    out = {}
    for layout, prefix, suffix in (("boot", "BOOT-INF/classes/", ".jar"), ("war", "WEB-INF/classes/", ".war")):
        out[layout] = root / f"app{suffix}"
        with zipfile.ZipFile(out[layout], "w") as z:
            z.writestr("META-INF/MANIFEST.MF", "Manifest-Version: 1.0\n")
            for name, data in sorted(own.items()):
                z.writestr(f"{prefix}app/{name}", data)
    out["jmod"] = root / "app.jmod"
    jdktool.run(["jmod", "create", "--class-path", str(classes), str(out["jmod"])], check=True)
    wrong = root / "cdir" / "wrong"
    wrong.mkdir(parents=True)
    shutil.copy(classes / "app" / "Main.class", wrong / "Foo.class")
    shutil.copy(classes / "app" / "Main$Inner.class", wrong / "Foo$Inner.class")
    out["dir"] = root / "cdir"
    return classes, out


def _javap_code(classes, name: str) -> list[str]:
    """The oracle's instructions of a class (javap -c, opcode and operands, no constant-pool comments)."""
    text = jdktool.run(["javap", "-c", "-p", "-cp", str(classes), name], capture_output=True, text=True,
                       check=True).stdout
    return [line.split("//")[0].strip() for line in text.splitlines() if re.match(r"\s+\d+: ", line)]


def _answer(run_jdx, root, *args):
    r = run_jdx("--jars", str(root), "--no-jdk", *args, "--json")
    assert r.code == 0, r.out + r.err
    return json.loads(r.out)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_javap_reads_a_misplaced_class_where_it_is(built, run_jdx, layout):
    classes, roots = built
    answer = _answer(run_jdx, roots[layout], "body", "app.Main$Inner#<init>()", "--engine", "javap")
    codes = [w["code"] for w in answer["warnings"]]
    assert "JAVAP_FAILED" not in codes and "SIGNATURES_ONLY" not in codes, answer["warnings"]
    assert "MISPLACED_CLASS" in codes
    text = json.dumps(answer)
    for instruction in _javap_code(classes, "app.Main$Inner"):  # the whole class: <init> is its only code
        assert instruction in text, (instruction, text)


@pytest.mark.skipif(not d.available_engines(), reason="no decompiler installed (see .ci/run)")
@pytest.mark.parametrize("layout", LAYOUTS)
def test_body_and_source_decompile_a_misplaced_class(built, run_jdx, layout):
    _, roots = built
    body = _answer(run_jdx, roots[layout], "body", "app.Main#main(String[])")
    codes = [w["code"] for w in body["warnings"]]
    assert not {"DECOMPILE_FAILED", "JAVAP_FAILED", "SIGNATURES_ONLY"} & set(codes), body["warnings"]
    text = "\n".join(body["result"]["text"])
    assert body["result"]["engine"]["name"] in ("procyon", "vineflower") and '"hi "' in text and "Inner()" in text, text
    source = _answer(run_jdx, roots[layout], "source", "app.Main")
    text = json.dumps(source)
    assert "class Main" in text and "class Inner" in text and "DECOMPILE_FAILED" not in text, source


def test_class_entry_finds_the_file_by_its_declared_name(built):
    classes, roots = built
    assert cf.declared_name((classes / "app" / "Main$Inner.class").read_bytes()) == "app/Main$Inner"
    assert cf.class_entry("jar", str(roots["boot"]), "app/Main") == "BOOT-INF/classes/app/Main.class"
    assert cf.class_entry("jar", str(roots["jmod"]), "app/Main$Inner") == "classes/app/Main$Inner.class"
    assert cf.class_entry("dir", str(roots["dir"]), "app/Main$Inner") == "wrong/Foo$Inner.class"
    assert cf.class_entry("dir", str(roots["dir"]), "app/Nope") is None
    moved = cf.relocated_class_files("dir", str(roots["dir"]), "app/Main")
    assert [name for name, _ in moved] == ["app/Main$Inner.class", "app/Main.class"]
    assert moved[1][1] == (classes / "app" / "Main.class").read_bytes()
    assert cf.class_bytes("jar", str(roots["war"]), None, "app/Main") == (classes / "app" / "Main.class").read_bytes()
