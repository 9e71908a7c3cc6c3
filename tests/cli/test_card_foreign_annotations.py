"""Cards never print an annotation value unbounded: scalac's pickled signatures (`@scala.reflect.ScalaSignature`,
`ScalaLongSignature`) collapse as kotlinc's bookkeeping does, any other element past a few hundred characters is cut
with a marker, and `--json` keeps every value whole. The language word comes from the SourceFile extension.

Fixtures compiled at test time: javac stubs of the Scala annotation types (there is no scalac here) and classes whose
values are built by generated sources; a `.scala`/`.groovy` SourceFile is written into the class file by hand."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from jdx.render.cards import MAX_ELEMENT, bounded, compiler_internal

from tests.fixtures import jdktool

SCALA_REFLECT = Path.home() / ".m2/repository/org/scala-lang/scala-reflect/2.13.11/scala-reflect-2.13.11.jar"
CONTROL = 20_000  # U+0001 characters: one byte each in the class file, `\u0001` (six characters) each as text
LONG = 50_000
PLAIN = 1_000


def _sources() -> dict[str, str]:
    runtime = "@java.lang.annotation.Retention(java.lang.annotation.RetentionPolicy.RUNTIME)\n"
    return {
        "scala/reflect/ScalaSignature.java":
            f"package scala.reflect;\n{runtime}public @interface ScalaSignature {{ String bytes(); }}\n",
        "scala/reflect/ScalaLongSignature.java":
            f"package scala.reflect;\n{runtime}public @interface ScalaLongSignature {{ String[] bytes(); }}\n",
        "fa/Sig.java": f"package fa;\n{runtime}public @interface Sig {{ String bytes(); int n() default 1; }}\n",
        "fa/Pickled.java": "package fa;\n@scala.reflect.ScalaSignature(bytes = \"" + "\\1" * CONTROL + "\")\n"
                           "public class Pickled { public void run() {} }\n",
        "fa/LongPickled.java": "package fa;\n@scala.reflect.ScalaLongSignature(bytes = {\"" + "a" * LONG + "\", \""
                               + "b" * LONG + "\"})\npublic class LongPickled {}\n",
        "fa/Plain.java": "package fa;\n@Deprecated\n@Sig(bytes = \"" + "x" * PLAIN + "\", n = 2)\n"
                         "public class Plain {\n  @Sig(bytes = \"" + "y" * PLAIN + "\") public void marked() {}\n}\n",
        "fa/Pkg.java": "package fa;\npublic class Pkg {}\n",
        "fa/Gro.java": "package fa;\npublic class Gro {}\n",
    }


def _source_file(cls: Path, old: str, new: str) -> None:
    """Renames the SourceFile attribute's string in the constant pool (a Utf8 entry: length, bytes); nothing in a
    class file points at byte offsets of the pool, so the entry may change length."""
    data = cls.read_bytes()
    entry = lambda s: b"\x01" + len(s).to_bytes(2, "big") + s.encode()  # noqa: E731
    assert data.count(entry(old)) == 1
    cls.write_bytes(data.replace(entry(old), entry(new)))


@pytest.fixture(scope="module")
def jar(tmp_path_factory) -> Path:
    if shutil.which("javac") is None:
        pytest.skip("javac is not installed")
    root = tmp_path_factory.mktemp("foreign-annotations")
    src, classes = root / "src", root / "classes"
    for name, text in _sources().items():
        (src / name).parent.mkdir(parents=True, exist_ok=True)
        (src / name).write_text(text)
    jdktool.run(["javac", "-d", str(classes), *map(str, sorted(src.rglob("*.java")))], check=True)
    _source_file(classes / "fa/Pkg.class", "Pkg.java", "package.scala")
    _source_file(classes / "fa/Gro.class", "Gro.java", "Gro.groovy")
    out = root / "foreign.jar"
    jdktool.run(["jar", "cf", str(out), "-C", str(classes), "fa", "-C", str(classes), "scala"], check=True)
    return out


def _show(run_jdx, jar: Path, ref: str, *flags: str):
    r = run_jdx("show", ref, "--jars", str(jar), "--no-jdk", *flags)
    assert r.code == 0, r.err
    return r.out


def test_scala_signature_collapses_in_the_card_and_keeps_its_value_in_json(run_jdx, jar):
    out = _show(run_jdx, jar, "fa.Pickled")
    assert "  + @scala.reflect.ScalaSignature (compiler-internal; --json has its value)" in out.splitlines()
    assert max(map(len, out.splitlines())) < 400
    value = json.loads(_show(run_jdx, jar, "fa.Pickled", "--json"))["result"]["annotations"]
    assert value == ['@scala.reflect.ScalaSignature(bytes="' + "\\u0001" * CONTROL + '")']


def test_scala_long_signature_collapses_too(run_jdx, jar):
    out = _show(run_jdx, jar, "fa.LongPickled")
    assert "  + @scala.reflect.ScalaLongSignature (compiler-internal; --json has its value)" in out.splitlines()
    assert max(map(len, out.splitlines())) < 400
    (ann,) = json.loads(_show(run_jdx, jar, "fa.LongPickled", "--json"))["result"]["annotations"]
    assert len(ann) > 2 * LONG and "b" * LONG in ann


def test_a_long_element_of_any_annotation_is_cut_with_a_marker(run_jdx, jar):
    lines = _show(run_jdx, jar, "fa.Plain").splitlines()
    (sig,) = [line for line in lines if line.startswith("  @fa.Sig(")]
    assert sig.startswith('  @fa.Sig(bytes="xxx') and sig.endswith("more characters; --json has the whole value], n=2)")
    assert len(sig) < MAX_ELEMENT + 100 and "  @java.lang.Deprecated" in lines
    whole = json.loads(_show(run_jdx, jar, "fa.Plain", "--json"))["result"]["annotations"]
    assert f'@fa.Sig(bytes="{"x" * PLAIN}", n=2)' in whole


def test_signature_cuts_a_member_annotation(run_jdx, jar):
    r = run_jdx("signature", "fa.Plain#marked", "--jars", str(jar), "--no-jdk")
    assert r.code == 0, r.err
    (line,) = [x for x in r.out.splitlines() if x.startswith("  method ")]
    assert "--json has the whole value]" in line and len(line) < MAX_ELEMENT + 100
    r = run_jdx("signature", "fa.Plain#marked", "--jars", str(jar), "--no-jdk", "--json")
    assert json.loads(r.out)["result"]["signatures"][0]["annotations"] == [f'@fa.Sig(bytes="{"y" * PLAIN}")']


@pytest.mark.parametrize("ref, source, language", [("fa.Pkg", "package.scala", "scala"),
                                                    ("fa.Gro", "Gro.groovy", "groovy"),
                                                    ("fa.Pickled", "Pickled.java", "java")])
def test_the_language_comes_from_the_source_file_extension(run_jdx, jar, ref, source, language):
    facts = _show(run_jdx, jar, ref).splitlines()[1]
    assert facts.endswith(f"source file {source} · {language}")
    assert json.loads(_show(run_jdx, jar, ref, "--json"))["result"]["language"] == language


def test_bounded_leaves_short_values_and_cuts_only_the_long_element():
    assert bounded("@a.B(x=1)") == "@a.B(x=1)"
    long = '@a.B(s="' + "\\u0006" * 100 + '", t={1, 2})'
    cut = bounded(long)
    assert cut.endswith("more characters; --json has the whole value], t={1, 2})")
    assert "\\u00…" not in cut and "\\u0…" not in cut  # never inside an escape
    assert bounded("x" * 1000).startswith("x" * 100) and len(bounded("x" * 1000)) < MAX_ELEMENT
    assert compiler_internal("@scala.reflect.ScalaInlineInfo(x=1)") and not compiler_internal("@scala.reflect.Other")


@pytest.mark.soak
def test_scala_reflect_types_card_is_small(run_jdx):
    """The trial's case: scala-reflect's `Types` card printed one 154,535-character line."""
    if not SCALA_REFLECT.exists():
        print(f"skipped: {SCALA_REFLECT} is not in ~/.m2")
        pytest.skip(f"{SCALA_REFLECT} is not in ~/.m2")
    r = run_jdx("show", "scala.reflect.internal.Types", "--jars", str(SCALA_REFLECT))
    assert r.code == 0, r.err
    lines = r.out.splitlines()
    assert "source file Types.scala · scala" in lines[1]
    assert "  + @scala.reflect.ScalaSignature (compiler-internal; --json has its value)" in lines
    assert len(r.out) < 10_000


def test_usages_of_an_annotation_cut_its_values(run_jdx, jar):
    """`usages fa.Sig`: each annotated declaration's site shows the annotation, its long element cut the same way."""
    r = run_jdx("usages", "fa.Sig", "--jars", str(jar), "--no-jdk")
    assert r.code == 0, r.err
    assert max(map(len, r.out.splitlines())) < MAX_ELEMENT + 300, max(map(len, r.out.splitlines()))
    assert "--json has the whole value]" in r.out and "fa.Plain" in r.out
