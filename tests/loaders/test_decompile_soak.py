"""Soak: a wide sample of real classes decompiles to Java that parses and declares the binary's methods.

Every other top-level class of gson and commons-lang3, every eighth of guava, every third of java.util,
java.util.concurrent, java.lang and java.io (about 350 classes, a minute or two). Procyon 0.6 is not perfect:
measured 2026-11-29, 3 of 352 fail — statements before `super(...)` in a constructor (commons-lang3
LockingVisitors$StampedLockVisitor) and `throw;` where it cannot rebuild a rethrow (guava CollectCollectors,
TableCollectors). The floor below keeps that honest; the failures are named in the assertion message.
"""

from __future__ import annotations

import zipfile

import pytest

from jdx.loaders import decompile as d
from tests.conftest import GSON, GUAVA, LANG3, require
from tests.loaders.test_decompile import _class_file, _declared, _expected_members

pytestmark = [pytest.mark.soak,
              pytest.mark.skipif(not d.available_engines(), reason="no decompiler installed (see .ci/run)")]

FLOOR = 0.98


def _jar_sample(jar, step: int) -> list[tuple[str, str, str]]:
    with zipfile.ZipFile(require(jar)) as zf:
        names = sorted(n[:-6] for n in zf.namelist() if n.endswith(".class") and "$" not in n and "-info" not in n)
    return [("jar", str(jar), n) for n in names[::step]]


def _jdk_sample(packages: list[str], step: int) -> list[tuple[str, str, str]]:
    from jdx.loaders import java_tools

    fs = java_tools.jclass("java.nio.file.FileSystems").getFileSystem(
        java_tools.jclass("java.net.URI").create("jrt:/"))
    files = java_tools.jclass("java.nio.file.Files")
    out = []
    for package in packages:
        stream = files.list(fs.getPath("/modules/java.base/" + package))
        try:
            names = sorted(str(p.getFileName()) for p in stream.toArray())
        finally:
            stream.close()
        out += [("jrt", "jrt:/java.base", f"{package}/{n[:-6]}") for n in names
                if n.endswith(".class") and "$" not in n][::step]
    return out


def test_a_wide_sample_decompiles_to_java_that_parses_and_declares_the_methods(jdx_home, tmp_path):
    from jdx.loaders import java_tools

    java_tools.ensure_jvm(jdx_home / "cache")
    cases = (_jar_sample(GSON, 2) + _jar_sample(LANG3, 2) + _jar_sample(GUAVA, 8)
             + _jdk_sample(["java/util", "java/util/concurrent", "java/lang", "java/io"], 3))
    classpath = [("jar", str(GSON)), ("jar", str(LANG3)), ("jar", str(GUAVA))]
    failures = []
    for kind, path, name in cases:
        try:
            result = d.decompile_class(tmp_path, kind, path, name, classpath, timeout=60)
        except d.DecompileError as exc:
            failures.append(f"{name}: {exc.code} {exc.message}")
            continue
        errors, methods, _ = _declared(result.text)
        expected, _ = _expected_members(_class_file(kind, path, name))
        missing = [m for m in expected if m[1] not in methods.get(m[0], set())]
        if errors or missing:
            failures.append(f"{name}: {'does not parse: ' + errors[0] if errors else f'lacks {missing[:3]}'}")
    rate = 1 - len(failures) / len(cases)
    assert len(cases) > 300
    assert rate >= FLOOR, f"{rate:.1%} of {len(cases)} classes; failures:\n" + "\n".join(failures)
