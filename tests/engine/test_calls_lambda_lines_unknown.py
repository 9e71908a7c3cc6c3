"""`calls` of a method calling a callee directly and in a lambda (or through a method reference) says both, and
never names an unknown line (a site before the method's first LineNumberTable entry, kotlinc's
`Intrinsics.checkNotNullParameter`; every site of a class compiled `javac -g:none`) as the lambda's: the trial's
`checkNotNullParameter(…) (in lambda: line ?)` read as "only in a lambda". Where every line shown is also a lambda
site's (the direct one unknown, or on the same line) the mark says `also`. Oracle: `javap -c -l` (the invoke sites,
in the method and in its `lambda$` body, and their lines)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from jdx.engine.rel_calls import CallOptions
from jdx.render import graph as render
from tests.fixtures import jdktool
from tests.service import JdxService, Options

NO_LINES = """package ul;
public class Blind {
    public static void go() {}
    static void both() {
        go();
        Runnable r = () -> go();
        r.run();
    }
    static void refs() {
        go();
        Runnable r = Blind::go;
        r.run();
    }
}
"""
LINES = """package ul2;
public class Seen {
    public static void go() {}
    static void apart() {
        go();
        Runnable r = () -> go();
        r.run();
    }
    static void same() {
        go(); Runnable r = () -> go(); r.run();
    }
}
"""


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> tuple[Path, Path]:
    """One jar: `ul` compiled `-g:none` (no LineNumberTable), `ul2` with lines."""
    if shutil.which("javac") is None or shutil.which("javap") is None:
        pytest.skip("javac/javap are not installed")
    root = tmp_path_factory.mktemp("calls_lines")
    classes = root / "classes"
    for pkg, text, flag in (("ul", NO_LINES, "-g:none"), ("ul2", LINES, "-g:lines")):
        src = root / "src" / pkg / f"{'Blind' if pkg == 'ul' else 'Seen'}.java"
        src.parent.mkdir(parents=True)
        src.write_text(text)
        jdktool.run(["javac", flag, "-d", str(classes), str(src)], check=True)
    jar = root / "lines.jar"
    jdktool.run(["jar", "cf", str(jar), "-C", str(classes), "ul", "-C", str(classes), "ul2"], check=True)
    return jar, classes


@pytest.fixture(scope="module")
def svc(built, jdx_home):
    service = JdxService(Options(jars=[str(built[0])], jdk=False, cache_dir=str(jdx_home / "cache")))
    yield service
    service.close()


def _sites(classes: Path, cls: str, callee: str) -> dict[str, list[int | None]]:
    """javap -c -l: method name -> the line of each invoke (or method handle) of `callee`, None without a line."""
    text = jdktool.run(["javap", "-c", "-l", "-p", str(classes / f"{cls}.class")], capture_output=True, text=True,
                       check=True).stdout
    out: dict[str, list] = {}
    for chunk in re.split(r"\n(?=  \S.*\);\n)", text):
        head = re.match(r"  .*?([\w$]+)\(.*\);", chunk)
        if not head:
            continue
        lines = [(int(o), int(n)) for n, o in re.findall(r"line (\d+): (\d+)", chunk)]
        offsets = [int(o) for o in re.findall(rf"(\d+): invoke\w+ .*{callee}:", chunk)]
        out[head.group(1)] = [max(((o, n) for o, n in lines if o <= at), default=(0, None))[1] for at in offsets]
    return out


def _row(svc, method: str, callee: str) -> tuple[dict, str]:
    answer = svc.calls(method, CallOptions())
    tree = answer.result["roots"][0]["tree"]
    entry = next(e for e in tree if e["method"].endswith(f"#{callee}()"))
    line = next(t for t in render.call_tree(answer.result) if f"#{callee}()" in t)
    return entry, line


def test_a_direct_and_a_lambda_call_without_lines_say_also_in_lambda(svc, built):
    sites = _sites(built[1], "ul/Blind", "go")
    lam = next(k for k in sites if k.startswith("lambda$both$"))
    assert sites["both"] == [None] and sites[lam] == [None]  # javap: one call each, neither with a line
    entry, line = _row(svc, "ul.Blind#both()", "go")
    assert entry["in_lambda"] is True and entry["lambda_lines"] == [-1] and entry["lines"] == [-1], entry
    assert line.endswith("ul.Blind#go()  (also in lambda)"), line
    assert "line ?" not in line


def test_a_call_and_a_method_reference_without_lines_say_also_method_ref(svc, built):
    text = jdktool.run(["javap", "-v", "-p", str(built[1] / "ul/Blind.class")], capture_output=True,
                       text=True, check=True).stdout
    assert "LineNumberTable" not in text and "REF_invokeStatic ul/Blind.go:()V" in text
    entry, line = _row(svc, "ul.Blind#refs()", "go")
    assert entry["method_ref"] is True and entry["method_ref_lines"] == [-1], entry
    assert line.endswith("ul.Blind#go()  (also method-ref)"), line


def test_lines_known_name_the_lambda_line_and_say_also_where_every_line_is_one(svc, built):
    sites = _sites(built[1], "ul2/Seen", "go")
    apart = next(k for k in sites if k.startswith("lambda$apart$"))
    same = next(k for k in sites if k.startswith("lambda$same$"))
    direct, inner = sites["apart"][0], sites[apart][0]
    assert direct is not None and inner is not None and direct != inner
    entry, line = _row(svc, "ul2.Seen#apart()", "go")
    assert entry["lambda_lines"] == [inner]
    assert line.endswith(f"line {direct}, {inner}  (in lambda: line {inner})"), line  # line {direct} is the direct one
    assert sites["same"][0] == sites[same][0] is not None  # both calls on one line
    entry, line = _row(svc, "ul2.Seen#same()", "go")
    assert line.endswith(f"line {sites['same'][0]}  (also in lambda: line {sites['same'][0]})"), line
