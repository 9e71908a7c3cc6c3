"""KOTLIN_* diff rules (spec §7.7) over two versions of real kotlinc output: the fixtures, and the same
sources edited (a @JvmName added, suspend dropped, nullability, defaults, a parameter renamed, val -> var)."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from functools import cache
from pathlib import Path

import pytest

from jdx.kotlin.diff import kotlin_findings
from tests.kotlin.corpus import fixtures_jar, metadata_rows
from tests.fixtures import jdktool

EDITS = [
    ("fun area(width: Double, height: Double = 1.0, scale: Int = 1)",
     "fun area(width: Double, height: Double, scale: Int = 1)"),
    ("fun area(shape: Shape, scale: Int = 1)", "fun area(shape: Shape, scale: Int)"),
    ("fun Shape.describe(prefix: String? = null): String = (prefix ?: \"\")",
     "@JvmName(\"describeShape\") fun Shape.describe(label: String? = null): String = (label ?: \"\")"),
]
EDITS_FUNCTIONS = [
    ("suspend fun fetch(url: String, retries: Int = 3): String? = null", "fun fetch(url: String, retries: Int = 3): String = \"\""),
]
EDITS_MODEL = [("data class Point(val x: Int, val y: Int = 0)", "data class Point(val x: Int, var y: Int = 0)")]


@cache
def _edited_jar() -> Path:
    from tests.kotlin.corpus import FIXTURES

    kotlinc = shutil.which("kotlinc")
    if kotlinc is None:
        pytest.skip("kotlinc is not on PATH")
    import hashlib

    texts = {}
    for src, edits in (("Shapes.kt", EDITS), ("Functions.kt", EDITS_FUNCTIONS), ("Model.kt", EDITS_MODEL)):
        text = (FIXTURES / src).read_text()
        for a, b in edits:
            assert a in text, a
            text = text.replace(a, b)
        texts[src] = text
    digest = hashlib.sha256("".join(k + v for k, v in sorted(texts.items())).encode()).hexdigest()[:16]
    jar = Path(tempfile.gettempdir()) / "jdx-kotlin-fixtures" / f"edited-{digest}.jar"  # kotlinc is slow: once
    jar.parent.mkdir(exist_ok=True)
    if not jar.exists():
        work = Path(tempfile.mkdtemp(prefix="jdx-kotlin-diff-"))
        for src, text in texts.items():
            (work / src).write_text(text)
        tmp = work / "edited.jar"
        subprocess.run([kotlinc, "-nowarn", "-d", str(tmp), *map(str, sorted(work.glob("*.kt")))], check=True,
                       capture_output=True, timeout=600)
        shutil.move(str(tmp), jar)
        shutil.rmtree(work, ignore_errors=True)
    return jar


def _rows(jar: Path) -> list[dict]:
    from jdx.loaders.extractor import JPypeExtractor
    from jdx.loaders.roots import resolve_roots

    with tempfile.TemporaryDirectory(prefix="jdx-kotlin-diff-cache-") as tmp:
        cache_dir = Path(tmp)
        arts = [a for a in resolve_roots([str(jar)], None, cache_dir).artifacts if a.kind == "jar"]
        (extracted,) = list(JPypeExtractor(cache_dir).extract(arts))
        return extracted.tables["kotlin"].to_pylist()


def test_kotlin_rules_on_edited_sources():
    metadata_rows(fixtures_jar())  # the same session extractor
    found = {(f.rule, f.detail) for f in kotlin_findings(_rows(fixtures_jar()), _rows(_edited_jar()))}
    rules = {r for r, _ in found}
    assert ("KOTLIN_DEFAULT_ARG_REMOVED", "parameter height lost its default value") in found
    assert ("KOTLIN_NAME_CHANGED", "JVM name describe -> describeShape") in found
    assert ("KOTLIN_PARAMETER_NAME_CHANGED", "parameter 1: prefix -> label (breaks named arguments)") in found
    assert any(r == "KOTLIN_SUSPEND_CHANGED" for r in rules)
    assert ("KOTLIN_NULLABILITY_CHANGED", "return: kotlin.String? -> kotlin.String") in found
    assert ("KOTLIN_PROPERTY_BECAME_MUTABLE", "val -> var") in found
    assert not list(kotlin_findings(_rows(fixtures_jar()), _rows(fixtures_jar())))


def test_the_last_default_removed_takes_the_default_stub_with_it():
    """`area(shape, scale = 1)` -> `area(shape, scale)`: kotlinc writes no `area$default` any more (javap), so a caller
    compiled against the old version fails to link: breaking. `area(width, height = 1.0, scale = 1)` losing one of its
    two defaults keeps the stub: suspicious only."""
    def stubs(jar: Path) -> set[str]:
        out = jdktool.run(["javap", "-p", "-cp", str(jar), "kx.ShapeUtils"], capture_output=True, text=True,
                             check=True).stdout
        return {line.split("(", 1)[1].split(")", 1)[0] for line in out.splitlines() if " area$default(" in line}

    old, new = stubs(fixtures_jar()), stubs(_edited_jar())
    assert len(old) == 2 and len(new) == 1 and next(iter(new)) in old  # the (shape, scale) stub is the one gone
    found = [f for f in kotlin_findings(_rows(fixtures_jar()), _rows(_edited_jar()))
             if f.rule == "KOTLIN_DEFAULT_STUB_REMOVED"]
    assert [(f.severity, f.declaration) for f in found] == [("BREAKING", "public fun area(shape: Shape, scale: Int): Double")]


def test_jdx_diff_reports_kotlin_rules_and_pairs_renames(run_jdx):
    """Through `jdx diff`: the rename by @JvmName and the suspend flip replace a removal and an addition."""
    import json

    r = run_jdx("diff", str(fixtures_jar()), str(_edited_jar()), "--json", "--no-daemon")
    assert r.code == 0, r.err
    findings = json.loads(r.out)["result"]["findings"]
    by_rule = {(f["rule"], f["symbol"]) for f in findings}
    assert ("KOTLIN_NAME_CHANGED", "kx.ShapeUtils#describe(kx.Shape, java.lang.String)") in by_rule
    assert any(rule == "KOTLIN_SUSPEND_CHANGED" and s.startswith("kx.FunctionsKt#fetch") for rule, s in by_rule)
    assert ("KOTLIN_DEFAULT_ARG_REMOVED", "kx.ShapeUtils#area") in by_rule
    assert ("KOTLIN_PROPERTY_BECAME_MUTABLE", "kx.Point#y") in by_rule
    removed = {f["symbol"] for f in findings if f["rule"] == "MEMBER_REMOVED"}
    assert not any("describe" in s or "fetch" in s for s in removed)
