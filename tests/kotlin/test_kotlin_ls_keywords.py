"""`ls` and `tree` print a Kotlin class's kind word as `show` does (`object`, `sealed class`, `data class`,
`enum class`; JSON `kotlin_keyword`), not the JVM's `class` (T30: ktlint's `object ElementType` listed as
`class ElementType`). The Kotlin source is the oracle of the words, javap that the JVM kinds differ."""

from __future__ import annotations

import json
import subprocess

import pytest

pytestmark = pytest.mark.soak  # a trial's regression family with its own graph builds: the soak runs it whole (.ci/run)

SOURCE = '''package kw

object Single
sealed class Shape
data class Point(val x: Int)
enum class Color { RED }
interface Sink
class Plain
internal class Hidden
internal interface HiddenSink
'''
# an `internal` class is public to the JVM, not to Kotlin code outside its module (T97: kotlinx.coroutines'
# SharedFlowImpl listed among the public types)
WORDS = {"Single": "object", "Shape": "sealed class", "Point": "data class", "Color": "enum class",
         "Sink": "interface", "Plain": "class", "Hidden": "internal class", "HiddenSink": "internal interface"}


@pytest.fixture(scope="module")
def jar(tmp_path_factory):
    from tests.kotlin.corpus import copied_jar, kotlinc_jar

    return copied_jar(tmp_path_factory, kotlinc_jar("ls-keywords", {"K.kt": SOURCE}), "kwls", "ls-keywords.jar")


def test_ls_prints_kotlin_kind_words(jar, run_jdx):
    out = subprocess.run(["javap", "-cp", str(jar), "kw.Single", "kw.Color"], capture_output=True, text=True,
                         check=True).stdout
    assert "public final class kw.Single" in out and "public final class kw.Color extends java.lang.Enum" in out
    r = run_jdx("--jars", str(jar), "--no-jdk", "ls", "kw")
    assert r.code == 0, r.err
    listed = {line.strip().rsplit(" ", 1)[1]: line.strip().rsplit(" ", 1)[0] for line in r.out.splitlines()[1:]
              if not line.strip().startswith("+")}
    assert listed == WORDS, listed
    as_json = json.loads(run_jdx("--jars", str(jar), "--no-jdk", "ls", "kw", "--json").out)
    entries = {e["name"]: e for e in as_json["result"]["entries"] if "ref" in e}
    assert entries["Single"]["kind"] == "class" and entries["Single"]["kotlin_keyword"] == "object"


def test_tree_prints_kotlin_kind_words(jar, run_jdx):
    r = run_jdx("--jars", str(jar), "--no-jdk", "tree", "--depth", "3")
    assert r.code == 0, r.err
    assert "    object Single" in r.out and "    sealed class Shape" in r.out, r.out
