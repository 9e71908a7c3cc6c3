"""Why the graph lacks a type a source file declares (T35): a sibling module's test class that *is* compiled
(`core/target/test-classes/.../PointTest.class`) is not "missing from target/test-classes (rebuild: mvn
test-compile)" — rebuilding changes nothing, since Maven puts a module's test classes on no other module's
classpath; the answer says the class is compiled but not on this workspace's classpath, and where to run jdx."""

from __future__ import annotations

import os

from tests.fixtures import jdktool

POM = ('<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion>'
       "<groupId>com.acme</groupId><artifactId>core</artifactId><version>1.0</version></project>\n")


def test_a_compiled_sibling_test_class_is_not_called_unbuilt(tmp_path, monkeypatch):
    from jdx.engine.unbuilt_sources import _why

    core = tmp_path / "core"
    src = core / "src/test/java/com/acme/core/PointTest.java"
    src.parent.mkdir(parents=True)
    src.write_text("package com.acme.core;\npublic class PointTest {}\n")
    (core / "pom.xml").write_text(POM)
    classes = core / "target/test-classes"
    jdktool.run(["javac", "-d", str(classes), str(src)], check=True)
    assert (classes / "com/acme/core/PointTest.class").is_file()  # javac's output: the oracle that it is compiled
    monkeypatch.chdir(tmp_path)
    why, detail = _why(str(core), True, "com.acme.core.PointTest")
    assert "rebuild" not in why and "lacks it" not in why, why
    assert why == (f"its compiled class in {os.path.join('core', 'target', 'test-classes')} is not on this "
                   "workspace's classpath (another module's test classes, which only that module's own --tests "
                   "classpath holds: run jdx from core with --tests)"), why
    assert detail.startswith("compiled, not on the workspace's classpath")
    # a class the directory does not hold is one to rebuild, as before
    why, _ = _why(str(core), True, "com.acme.core.Missing")
    assert why == "its module's target/test-classes lacks it (rebuild: mvn test-compile)", why
