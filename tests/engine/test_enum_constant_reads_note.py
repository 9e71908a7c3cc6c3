"""`usages` of an enum type leaves its constants' reads to the constants (`Mode.ON` is a `getstatic` of the field
ON), as an IDE's Find Usages of the class does, and says so: a note with how many reads of how many constants, per
constant, within the artifact filter, and the command that lists them. The oracle is `javap -c`: the getstatic
instructions naming each constant."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from jdx.engine.rel_usages import UsageOptions
from jdx.engine.relations import ArtifactFilter
from tests.fixtures import jdktool
from tests.service import JdxService, Options

LIB = {"en/Mode.java": "package en; public enum Mode { ON, OFF, IDLE, UNUSED }"}
APP = {"app/Use.java": "package app; import en.Mode;\n"
                       "public class Use {\n"
                       "  Mode a() { return Mode.ON; }\n"
                       "  boolean b(Mode m) { return m == Mode.ON || m == Mode.OFF; }\n"
                       "  int c(Mode m) { switch (m) { case IDLE: return 1; default: return 0; } }\n"
                       "}\n"}


def _compile(folder, name: str, sources: dict, classpath=None):
    src, out = folder / f"src-{name}", folder / f"classes-{name}"
    for path, text in sources.items():
        (src / path).parent.mkdir(parents=True, exist_ok=True)
        (src / path).write_text(text)
    jdktool.run(["javac", "-d", str(out), *(["-cp", str(classpath)] if classpath else []),
                 *map(str, sorted(src.rglob("*.java")))], check=True, capture_output=True)
    jar = folder / f"{name}.jar"
    jdktool.run(["jar", "cf", str(jar), "-C", str(out), "."], check=True)
    return jar, out


@pytest.fixture(scope="module")
def world(jdx_home, tmp_path_factory):
    folder = tmp_path_factory.mktemp("enum_reads")
    lib, lib_classes = _compile(folder, "lib", LIB)
    app, app_classes = _compile(folder, "app", APP, lib_classes)
    service = JdxService(Options(jars=[str(lib), str(app)], cache_dir=str(jdx_home / "cache"), jdk=False))
    yield {"service": service, "classes": {"lib": lib_classes, "app": app_classes}}
    service.close()


def _getstatics(classes) -> Counter:
    """How many getstatic instructions read each constant of en.Mode, by `javap -c` of every class (Mode's own
    name them without their owner)."""
    files = sorted(str(p) for p in classes.rglob("*.class"))
    out = jdktool.run(["javap", "-c", "-p", *files], capture_output=True, text=True, check=True).stdout
    return Counter(re.findall(r"getstatic .*Field (?:en/Mode\.)?(\w+):Len/Mode;", out))


def _note(result: dict) -> list[str]:
    return [n for n in result["notes"] if n.startswith("reads of its enum constants")]


def test_the_enum_type_names_its_constants_reads_as_javap_counts_them(world):
    reads = _getstatics(world["classes"]["lib"]) + _getstatics(world["classes"]["app"])
    assert reads == {"ON": 3, "OFF": 2, "IDLE": 2, "UNUSED": 1}  # Mode's own `$values()` reads each once
    result = world["service"].usages("en.Mode", UsageOptions()).result
    assert all(s["kind"] != "read" for g in result["groups"] for c in g["callers"] for s in c["sites"])
    shown = ", ".join(f"{name} {n}" for name, n in sorted(reads.items(), key=lambda x: (-x[1], x[0])))
    assert _note(result) == [f"reads of its enum constants are usages of those fields, not listed here: "
                             f"{sum(reads.values())} reads of 4 constants ({shown}): jdx usages 'en.Mode#ON'"]
    on = world["service"].usages("en.Mode#ON", UsageOptions(kinds=("read",))).result
    assert on["total"] == reads["ON"]


def test_the_count_keeps_to_the_artifact_filter(world):
    reads = _getstatics(world["classes"]["app"])
    result = world["service"].usages("en.Mode", UsageOptions(filter=ArtifactFilter(["app.jar"]))).result
    (note,) = _note(result)
    assert note.startswith(f"reads of its enum constants are usages of those fields, not listed here: "
                           f"{sum(reads.values())} reads of 3 constants (")


def test_a_class_that_is_no_enum_has_no_such_note(world):
    assert _note(world["service"].usages("app.Use", UsageOptions()).result) == []
