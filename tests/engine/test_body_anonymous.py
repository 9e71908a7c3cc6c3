"""`body` of an anonymous class starts at the expression that opens it (`new Iterator<E>() {`), and the title
says where the class is declared (its EnclosingMethod); local and member classes keep their own headers.

Oracles: the source text itself (the body is a verbatim slice of it) and `javap -v` (a class's supertypes and
EnclosingMethod). The fixture is compiled at test time, paired with a sources jar and bare (decompiled)."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from tests.fixtures.build import compile_java_in, write_jar
from tests.fixtures import jdktool

SOURCE = """package ax;

import java.util.Iterator;
import java.util.concurrent.Callable;

public class Anon {
    static final Runnable FIELD = new Runnable() {
        public void run() {
        }
    };

    static <E> Iterator<E> one(E e) {
        return new Iterator<E>() {
            boolean more = true;

            public boolean hasNext() {
                return more;
            }

            public E next() {
                more = false;
                return e;
            }
        };
    }

    static Thread wrapped(String name) {
        return new Thread(
                name) {
            @Override
            public void run() {
            }
        };
    }

    static Object argument() {
        return call(1, new Callable<String>() {
            public String call() {
                return "x";
            }
        });
    }

    static Object call(int n, Callable<String> c) {
        return c;
    }

    static int local() {
        class Box {
            int v;
        }
        return new Box().v;
    }

    static class Member {
        int x;
    }
}
"""


@pytest.fixture(scope="module")
def fx(jdx_home, run_jdx, tmp_path_factory):
    work = tmp_path_factory.mktemp("anon")
    (work / "in" / "ax").mkdir(parents=True)
    (work / "in" / "ax" / "Anon.java.in").write_text(SOURCE)
    classes, _ = compile_java_in(work / "in", work, "ax")
    paired, bare = work / "paired" / "ax-1.0.jar", work / "bare" / "ax-1.0.jar"
    write_jar(paired, classes)
    write_jar(paired.with_name("ax-1.0-sources.jar"), {"ax/Anon.java": SOURCE.encode()})
    write_jar(bare, classes)
    for jar in (paired, bare):
        r = run_jdx("index", "--jars", str(jar))
        assert r.code == 0, r.err
    anonymous = sorted(n[:-6] for n in classes if re.fullmatch(r"ax/Anon\$\d+\.class", n))
    assert len(anonymous) == 4
    return {"paired": ["--jars", str(paired)], "bare": ["--jars", str(bare)], "classes": work / "ax-classes",
            "anonymous": anonymous}


def _javap(classes: Path, name: str) -> tuple[str, str | None]:
    """Oracle: (the supertype an anonymous class is written with, simple name; its enclosing method or None)."""
    if shutil.which("javap") is None:
        pytest.skip("javap is not installed")
    out = jdktool.run(["javap", "-v", "-cp", str(classes), name.replace("/", ".")], capture_output=True,
                         text=True, check=True).stdout
    head = re.search(r"^class \S+(?: extends (\S+))?(?: implements (\S+))?", out, re.M)
    written = head.group(2) or head.group(1)  # an interface's anonymous class extends Object
    enclosing = re.search(r"EnclosingMethod: #\d+\.#(\d+)\s+// (\S+)", out)  # `#0`: no method (an initializer)
    method = enclosing.group(2).rsplit(".", 1)[1] if enclosing.group(1) != "0" else None
    return written.split("<", 1)[0].rsplit(".", 1)[-1], method


def _body(run_jdx, args: list[str], ref: str) -> tuple[dict, str]:
    r = run_jdx("body", ref, *args, "--json")
    assert r.code == 0, r.out + r.err
    text = run_jdx("body", ref, *args)
    assert text.code == 0, text.err
    return json.loads(r.out)["result"], text.out


@pytest.mark.soak
@pytest.mark.parametrize("layout", ["paired", "bare"])
def test_anonymous_class_body_opens_with_its_expression(fx, run_jdx, layout):
    if layout == "bare":
        from jdx.loaders.decompile import available_engines

        if not available_engines():
            pytest.skip("no decompiler installed")
    lines = SOURCE.splitlines()
    for name in fx["anonymous"]:
        ref = name.replace("/", ".")
        res, text = _body(run_jdx, fx[layout], ref)
        supertype, method = _javap(fx["classes"], name)
        first = res["text"][0].strip()
        assert re.match(rf"new {supertype}\b", first), (ref, res["text"][:2])
        assert res["enclosing"] == {"role": "anonymous", "type": "ax.Anon",
                                    "method": res["enclosing"]["method"]}
        if method is None:  # a field initialiser: no EnclosingMethod method
            assert res["enclosing"]["method"] is None and f"{ref}  (anonymous class in an initializer of ax.Anon)" \
                in text.splitlines()[0]
        else:
            assert res["enclosing"]["method"].startswith(f"ax.Anon#{method}(")
            assert text.splitlines()[0] == f"{ref}  (anonymous class in {res['enclosing']['method']})"
        if layout == "paired":  # a verbatim slice: the first line is cut where the expression starts
            a, b = res["source"]["lines"]
            assert lines[a - 1].endswith(res["text"][0].lstrip()) and res["text"][1:-1] == lines[a:b - 1], ref
            assert lines[b - 1].startswith(res["text"][-1]), ref  # `};` / `});` cut after the class's brace
            assert res["text"][0].lstrip() != "{"
        else:
            assert res["origin"] == "decompiled" and "⚠ reconstructed" in res["header"]


def test_wrapped_arguments_are_part_of_the_header(fx, run_jdx):
    res, _ = _body(run_jdx, fx["paired"], "ax.Anon$3")
    assert [t.strip() for t in res["text"][:2]] == ["new Thread(", "name) {"]


@pytest.mark.parametrize("layout", ["paired", "bare"])
def test_local_and_member_classes_keep_their_headers(fx, run_jdx, layout):
    if layout == "bare":
        from jdx.loaders.decompile import available_engines

        if not available_engines():
            pytest.skip("no decompiler installed")
    res, text = _body(run_jdx, fx[layout], "ax.Anon$1Box")
    assert res["text"][0].strip().startswith("class Box")
    assert res["enclosing"] == {"role": "local", "type": "ax.Anon", "method": "ax.Anon#local()"}
    assert text.splitlines()[0] == "ax.Anon$1Box  (local class in ax.Anon#local())"
    res, text = _body(run_jdx, fx[layout], "ax.Anon$Member")
    assert res["text"][0].strip().startswith("static class Member") and res["enclosing"] is None
    assert text.splitlines()[0] == "ax.Anon$Member"


def test_member_of_an_anonymous_class_is_unchanged(fx, run_jdx):
    res, _ = _body(run_jdx, fx["paired"], "ax.Anon$2#hasNext()")
    assert res["text"][0].strip() == "public boolean hasNext() {" and res["enclosing"] is None
