"""Javadoc as the JDK's own docs print it (T38): `@apiNote`, `@implSpec` and `@implNote` are headed sections with
their code kept (they were dropped, `AbstractCollection#add` lost the one fact of its own), and `{@code …}` holding
braces nested to any depth is code, not raw text (`{@code` and a stray `}` printed in ReentrantLock's example). The
oracle is the JDK's src.zip."""

from __future__ import annotations

import json
import re
import zipfile
from pathlib import Path

import pytest

from jdx.engine import javadoc as jd

pytestmark = pytest.mark.soak  # a trial's regression family with its own graph builds: the soak runs it whole (.ci/run)


def test_code_with_braces_nested_deeper_than_one_level_is_code():
    raw = ("/**\n * Use it so:\n * <pre> {@code\n * class X {\n *   void m() {\n *     if (a) { b(); }\n *   }\n"
           " * }}</pre>\n * Done {@code {x}}.\n */")
    lines = jd.render(jd.parse(raw))
    assert lines == ["Use it so:", "", "    class X {", "      void m() {", "        if (a) { b(); }", "      }",
                     "    }", "", "Done {x}."], lines


def test_note_tags_are_headed_sections_in_javadoc_order():
    raw = ("/**\n * Main.\n * @param a the a\n * @implSpec Throws {@code UOE}.\n * @apiNote Use:\n * <pre>{@code\n"
           " * f(a);\n * }</pre>\n * @return r\n */")
    doc = jd.parse(raw)
    assert jd.render(doc) == ["Main.", "", "Implementation Requirements:", "Throws UOE.", "", "API Note:", "Use:",
                              "", "    f(a);", "", "@param a  the a", "@return r"], jd.render(doc)
    inherited = jd.fill_inherited(jd.parse("/** {@inheritDoc} */"), doc)
    assert inherited.notes == []  # never inherited, as the javadoc tool does


def _src_zip() -> Path:
    from jdx.loaders.jvm import find_java_home

    found = Path(find_java_home().home) / "lib" / "src.zip"
    if not found.is_file():
        pytest.skip("no JDK lib/src.zip (Debian/Ubuntu: apt-get install openjdk-17-source)")
    return found


def _comment_before(path: str, anchor: str) -> str:
    with zipfile.ZipFile(_src_zip()) as z:
        text = z.read(path).decode()
    return text[:text.index(anchor)].rsplit("/**", 1)[1]


def test_the_jdks_implspec_is_shown(run_jdx):
    comment = _comment_before("java.base/java/util/AbstractCollection.java", "public boolean add(E e)")
    assert "@implSpec" in comment and "This implementation always throws an" in comment  # the oracle
    r = run_jdx("doc", "java.util.AbstractCollection#add", "--json")
    assert r.code == 0, r.err
    lines = [line.strip() for line in json.loads(r.out)["result"]["docs"][0]["text"]]
    assert "Implementation Requirements:" in lines, lines
    assert "This implementation always throws an UnsupportedOperationException." in lines, lines


def test_reentrantlocks_example_is_the_sources_code(run_jdx):
    comment = _comment_before("java.base/java/util/concurrent/locks/ReentrantLock.java",
                              "public class ReentrantLock")
    block = comment.split("<pre> {@code", 1)[1].split("}}</pre>", 1)[0] + "}"
    code = [re.sub(r"^\s*\* ?", "", line) for line in block.splitlines()]
    code = [line for line in code if line.strip()]
    r = run_jdx("doc", "java.util.concurrent.locks.ReentrantLock")
    assert r.code == 0 and "{@code" not in r.out and "}}" not in r.out, r.out
    shown = [line.strip() for line in r.out.splitlines()]
    start = shown.index(code[0].strip())
    printed = [line for line in shown[start:] if line][:len(code)]  # the code's own blank lines aside
    assert printed == [line.strip() for line in code], printed


def test_a_deprecation_comes_first(run_jdx):
    """The javadoc tool puts `Deprecated.` above the description; jdx printed it last, after eight @see lines, where
    `--max-lines` cuts first (T38: Thread#stop)."""
    comment = _comment_before("java.base/java/lang/Thread.java", "public final void stop()")
    assert "@deprecated This method is inherently unsafe." in comment  # the oracle
    r = run_jdx("doc", "java.lang.Thread#stop()", "--json")
    assert r.code == 0, r.err
    text = json.loads(r.out)["result"]["docs"][0]["text"]
    assert text[0].startswith("@deprecated This method is inherently unsafe."), text[:3]
    assert sum(line.startswith("@deprecated") for line in text) == 1, text


def test_see_keeps_the_references_it_names(run_jdx):
    """`@see #hashCode()` printed `hashCode()` and `@see java.lang.Object#equals(java.lang.Object)` printed
    `java.lang.Object.equals(…)`: the `#` that says a member is named, and lets an agent ask jdx about it, was lost.
    The oracle is the comment's own @see lines; a labelled reference prints its label, as the javadoc tool does."""
    comment = _comment_before("java.base/java/lang/Object.java", "public boolean equals(Object obj)")
    wanted = [" ".join(line.split("@see", 1)[1].split()) for line in comment.splitlines() if "@see" in line]
    assert "#hashCode()" in wanted  # the oracle
    r = run_jdx("doc", "java.lang.Object#equals", "--json")
    assert r.code == 0, r.err
    text = json.loads(r.out)["result"]["docs"][0]["text"]
    assert [line.split("@see", 1)[1].strip() for line in text if line.startswith("@see")] == wanted, text
    assert jd.render(jd.parse("/** M.\n * @see List#add(Object) the add method\n */"))[-1] == "@see the add method"
