"""`doc` fills what a method's own comment lacks from the method it overrides, as the javadoc tool does: missing
`@param` / `@return` tags even when the method has its own comment, inherited `@param` tags named as the overriding
method names its parameters (by position), `<pre>{@code …}</pre>` lines kept aligned, and a stale supertype source
file the inherited text is read from is warned about (SOURCES_VERSION_MISMATCH) as `doc` of the supertype's member is.

Fixture: package `p` compiled by javac at test time, indexed from its class directory with its source directory.
Oracle: the javadoc tool's HTML for the same sources (run in this process's JVM through its ToolProvider when it can
be, else as a command)."""

from __future__ import annotations

import html
import json
import os
import re
import shutil
import time

import pytest

from tests.fixtures import jdktool
from tests.fixtures.javac import javac_jar

SOURCES = {
    "p/I.java": (
        "package p;\n"
        "public interface I {\n"
        "    /**\n"
        "     * Combines two operands.\n"
        "     * <pre>{@code\n"
        "     *   List<String> xs = new ArrayList<>();\n"
        "     *   xs.add(\"a\");\n"
        "     *     nested();\n"
        "     * }</pre>\n"
        "     * @param left the first operand\n"
        "     * @param right the second operand\n"
        "     * @return the result\n"
        "     */\n"
        "    int op(int left, int right);\n"
        "}\n"),
    # its own comment on one line: `@param` is not at a line start, so javadoc reads it as description text
    "p/Z.java": (
        "package p;\n"
        "public class Z implements I {\n"
        "    /** Adds. @param left first */\n"
        "    public int op(int left, int right) { return left + right; }\n"
        "}\n"),
    "p/W.java": (
        "package p;\n"
        "public class W implements I {\n"
        "    /**\n"
        "     * Multiplies.\n"
        "     * @param left first\n"
        "     */\n"
        "    public int op(int left, int right) { return left * right; }\n"
        "}\n"),
    "p/Y.java": (
        "package p;\n"
        "public class Y implements I {\n"
        "    public int op(int a, int b) { return a - b; }\n"
        "}\n"),
    # renamed parameters, one documented, the other and @return inherited under the new names
    "p/V.java": (
        "package p;\n"
        "public class V implements I {\n"
        "    /**\n"
        "     * Subtracts.\n"
        "     * @param x minuend\n"
        "     */\n"
        "    public int op(final int x, @Deprecated int y) { return x - y; }\n"
        "}\n"),
    "p/S.java": (
        "package p;\n"
        "public class S {\n"
        "    /** Runs the step. @return a count */\n"
        "    public int run() { return 1; }\n"
        "}\n"),
    "p/T.java": (
        "package p;\n"
        "public class T extends S {\n"
        "    public int run() { return 2; }\n"
        "}\n"),
}
CLASSES = ("I", "Z", "W", "Y", "V")


@pytest.fixture(scope="module")
def fx(tmp_path_factory, run_jdx):
    if shutil.which("javac") is None or shutil.which("javadoc") is None:
        pytest.skip("javac / javadoc are not installed")
    root = tmp_path_factory.mktemp("docinherit")
    _, classes = javac_jar(root, SOURCES, "p", "p.jar", debug=True)
    jdktool.javadoc(root / "out", [root / "src" / "p" / f"{c}.java" for c in CLASSES])
    # S.java edited after compiling (a method added): the supertype file T#run's doc is read from is stale
    stale = root / "src" / "p" / "S.java"
    stale.write_text(SOURCES["p/S.java"].replace("}\n}", "}\n    public int extra() { return 3; }\n}"))
    later = time.time() + 60
    os.utime(stale, (later, later))
    args = ["--jars", str(classes), "--src", str(root / "src"), "--no-jdk"]
    r = run_jdx("index", *args)
    assert r.code == 0, r.err
    return {"root": root, "args": args}


def _doc(run_jdx, fx, ref) -> dict:
    r = run_jdx("doc", ref, *fx["args"], "--json")
    assert r.code == 0, r.out + r.err
    return json.loads(r.out)


def _oracle(fx, cls: str) -> dict:
    """What javadoc's HTML says of `cls#op(int,int)`: description (text, `<pre>` lines), params, return."""
    page = (fx["root"] / "out" / "p" / f"{cls}.html").read_text()
    section = page[page.index('<section class="detail" id="op(int,int)">'):]
    section = section[:section.index("</section>")]
    block = re.findall(r'<div class="block">(.*?)</div>', section, re.S)[-1]
    pre = re.search(r"<pre><code>(.*?)</code></pre>", block, re.S)
    pre_lines = [html.unescape(ln) for ln in pre.group(1).splitlines() if ln.strip()] if pre else []
    text = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", re.sub(r"<pre>.*?</pre>", " ", block, flags=re.S))).split())
    notes: dict[str, list[str]] = {}
    current = None
    for m in re.finditer(r"<dt>(.*?)</dt>|<dd>(.*?)</dd>", section, re.S):
        if m.group(1) is not None:
            current = notes.setdefault(m.group(1).strip(), [])
        elif current is not None:
            current.append(" ".join(html.unescape(re.sub(r"<[^>]+>", "", m.group(2))).split()))
    params = [tuple(p.split(" - ", 1)) for p in notes.get("Parameters:", [])]
    return {"text": text, "pre": _dedent(pre_lines), "params": params, "return": (notes.get("Returns:") or [None])[0]}


def _dedent(lines: list[str]) -> list[str]:
    n = min((len(ln) - len(ln.lstrip()) for ln in lines if ln.strip()), default=0)
    return [ln[n:].rstrip() for ln in lines]


def _rendered(item: dict) -> dict:
    lines = item["text"]
    body = [ln for ln in lines if not ln.startswith("@")]
    pre = [ln for ln in body if ln.startswith("    ")]
    text = " ".join(" ".join(ln for ln in body if not ln.startswith("    ")).split())
    params = [tuple(re.match(r"@param (\S+)\s+(.*)", ln).groups()) for ln in lines if ln.startswith("@param ")]
    ret = next((ln[len("@return "):] for ln in lines if ln.startswith("@return ")), None)
    return {"text": text, "pre": _dedent(pre), "params": params, "return": ret}


@pytest.mark.parametrize("cls", CLASSES)
def test_doc_matches_javadoc(fx, run_jdx, cls):
    item = _doc(run_jdx, fx, f"p.{cls}#op(int, int)")["result"]["docs"][0]
    assert _rendered(item) == _oracle(fx, cls), item["text"]


def test_own_comment_gets_the_missing_tags_with_its_parameter_names(fx, run_jdx):
    env = _doc(run_jdx, fx, "p.W#op(int, int)")
    item = env["result"]["docs"][0]
    assert "@param right  the second operand" in item["text"] and "@return the result" in item["text"]
    # its own description: not "inherited from"; the tags it inherits name the declaration that wrote them
    assert item["inherited_from"] is None and [(g["tags"], g["from"]) for g in item["inherited_tags"]] == [
        (["@param right", "@return"], "p.I#op(int, int)")], item
    assert item["source"]["file"].endswith("p/W.java") and item["inherited_source"]["file"].endswith("p/I.java")
    renamed = _doc(run_jdx, fx, "p.Y#op(int, int)")["result"]["docs"][0]["text"]
    assert [ln.split()[1] for ln in renamed if ln.startswith("@param")] == ["a", "b"], renamed


def test_pre_code_lines_stay_aligned(fx, run_jdx):
    text = _doc(run_jdx, fx, "p.I#op(int, int)")["result"]["docs"][0]["text"]
    written = [ln.split("*", 1)[1][1:] for ln in SOURCES["p/I.java"].splitlines()[5:8]]  # the source's own lines
    assert _dedent([ln for ln in text if ln.startswith("    ")]) == _dedent(written), text


def test_stale_supertype_file_is_warned_about(fx, run_jdx):
    own = _doc(run_jdx, fx, "p.S#run()")
    inherited = _doc(run_jdx, fx, "p.T#run()")
    assert inherited["result"]["docs"][0]["inherited_from"] == "p.S#run()"
    stale = [w["message"] for w in own["warnings"] if w["code"] == "SOURCES_VERSION_MISMATCH"]
    assert stale and any("S.java" in m for m in stale)
    got = [w["message"] for w in inherited["warnings"] if w["code"] == "SOURCES_VERSION_MISMATCH"]
    assert set(stale) <= set(got), (stale, got)
