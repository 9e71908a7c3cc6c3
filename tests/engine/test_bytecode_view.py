"""`--engine javap` differential: the in-process ToolProvider javap against the `javap` subprocess, member by member.

The subprocess output is cut into its member paragraphs and paired, in order, with the fields and methods our
own class-file reader lists (javap prints fields, then methods, in class-file order); javap_member(tools, name,
descriptor) must return exactly that paragraph.
"""

from __future__ import annotations

import shutil
import zipfile
from pathlib import Path

import pytest

from jdx.loaders.jvm_tools import LoaderJvmTools
from jdx.engine import bytecode_view as bv
from jdx.errors import NotFoundError
from tests.conftest import GSON, LANG3
from tests.fixtures.build import fixtures_jar
from tests.loaders.test_decompile_classfile import read_class
from tests.fixtures import jdktool

pytestmark = pytest.mark.skipif(shutil.which("javap") is None, reason="javap is not installed")


@pytest.fixture(scope="module")
def cache(jdx_home) -> Path:
    return jdx_home / "cache"


@pytest.fixture(scope="module")
def fixtures(jdx_home) -> Path:
    """The compiled fixtures, built once per session for the decompile and javap tests."""
    (jdx_home / "decompile-fixtures").mkdir(exist_ok=True)
    return fixtures_jar(jdx_home / "decompile-fixtures")


def _subprocess_javap(kind: str, path: str, internal_name: str) -> str:
    """The oracle: the javap program, told about the class the ordinary way (-classpath, or nothing for the JDK)."""
    where = [] if kind == "jrt" else ["-classpath", path]
    proc = jdktool.run(["javap", "-c", "-p", "-l", "-constants", "-s", *where, internal_name.replace("/", ".")],
                          capture_output=True, text=True, check=True)
    return proc.stdout


def _paragraphs(text: str) -> list[str]:
    """The member paragraphs between the class header's `{` and the closing `}`."""
    lines = text.splitlines()
    body = lines[next(i for i, line in enumerate(lines) if line.endswith("{") and not line.startswith(" ")) + 1:]
    assert body[-1] == "}"
    return ["\n".join(p.splitlines()) + "\n" for p in "\n".join(body[:-1]).split("\n\n") if p.strip()]


def _class_bytes(kind: str, path: str, internal_name: str, cache: Path) -> bytes:
    if kind == "jrt":
        from jdx.loaders import java_tools

        java_tools.ensure_jvm(cache)
        return dict(java_tools.jrt_class_files(path.removeprefix("jrt:/"), internal_name))[internal_name + ".class"]
    if kind == "dir":
        return Path(path, internal_name + ".class").read_bytes()
    with zipfile.ZipFile(path) as zf:
        return zf.read(internal_name + ".class")


CASES = [("jrt", "jrt:/java.base", "java/util/HashMap"), ("jrt", "jrt:/java.base", "java/lang/String"),
         ("jrt", "jrt:/java.base", "java/util/HashMap$Node"), ("jrt", "jrt:/java.base", "java/util/Map"),
         ("jar", str(GSON), "com/google/gson/Gson"), ("jar", str(GSON), "com/google/gson/FieldNamingPolicy"),
         ("jar", str(GSON), "com/google/gson/stream/JsonReader"),
         ("jar", str(LANG3), "org/apache/commons/lang3/StringUtils")]
FIXTURES = ["fx/Outer$1", "fx/Point", "fx/Level", "fx/Level$1", "fx/Config", "fx/Box", "fx/NoDebug", "fx/Shape"]


def _differential(cache: Path, kind: str, path: str, internal_name: str) -> int:
    expected = _subprocess_javap(kind, path, internal_name)
    info = read_class(_class_bytes(kind, path, internal_name, cache))
    members = info["fields"] + info["methods"]
    paragraphs = _paragraphs(expected)
    assert len(paragraphs) == len(members), internal_name
    for (name, descriptor, _), paragraph in zip(members, paragraphs):
        got = bv.javap_member(LoaderJvmTools(), cache, kind, path, internal_name, name, descriptor)
        assert got == paragraph, f"{internal_name} {name}{descriptor}"
    assert bv.javap_member(LoaderJvmTools(), cache, kind, path, internal_name, None, None) == expected
    return len(members)


DEFAULT_CASES = {"java/util/HashMap$Node", "java/util/Map", "com/google/gson/FieldNamingPolicy"}  # the rest: soak


@pytest.mark.parametrize("kind,path,internal_name", [
    pytest.param(*c, id=c[2], marks=() if c[2] in DEFAULT_CASES else pytest.mark.soak) for c in CASES])
def test_each_member_block_equals_the_javap_subprocess(cache, kind, path, internal_name):
    if kind == "jar" and not Path(path).exists():
        pytest.skip(f"{path} is not installed (see .ci/run)")
    assert _differential(cache, kind, path, internal_name) > 0


@pytest.mark.soak
def test_fixture_members_equal_the_javap_subprocess(cache, fixtures):
    """Anonymous and nested classes, a record, an enum with a constant body, an annotation, no debug info."""
    total = sum(_differential(cache, "jar", str(fixtures), name) for name in FIXTURES)
    assert total > 20


def test_a_class_directory(cache, fixtures, tmp_path):
    with zipfile.ZipFile(fixtures) as zf:
        zf.extractall(tmp_path)
    assert _differential(cache, "dir", str(tmp_path), "fx/Point") > 0


def test_overloads_without_a_descriptor_come_back_together(cache):
    text = bv.javap_member(LoaderJvmTools(), cache, "jrt", "jrt:/java.base", "java/lang/String", "valueOf", None)
    declarations = [line for line in text.splitlines() if line.startswith("  ") and not line.startswith("   ")]
    descriptors = [line.split(":", 1)[1].strip() for line in text.splitlines() if line.startswith("    descriptor:")]
    assert len(declarations) == 9 and all(" valueOf(" in line for line in declarations)
    assert len(set(descriptors)) == 9


def test_constructor_and_static_initialiser_names(cache):
    blocks = bv.member_blocks(bv.javap_class(LoaderJvmTools(), cache, "jrt", "jrt:/java.base", "java/util/HashMap"))
    names = {b.name for b in blocks}
    assert "<init>" in names and "get" in names and "table" in names
    clinit = bv.member_blocks(bv.javap_class(LoaderJvmTools(), cache, "jrt", "jrt:/java.base", "java/lang/Integer"))
    assert any(b.name == "<clinit>" and b.descriptor == "()V" for b in clinit)


def test_absent_class_or_member_is_not_found(cache, tmp_path):
    with pytest.raises(NotFoundError, match="java.util.Nope"):
        bv.javap_member(LoaderJvmTools(), cache, "jrt", "jrt:/java.base", "java/util/Nope", None, None)
    with pytest.raises(NotFoundError, match="no member nope"):
        bv.javap_member(LoaderJvmTools(), cache, "jrt", "jrt:/java.base", "java/util/HashMap", "nope", None)
    with pytest.raises(NotFoundError):
        bv.javap_member(LoaderJvmTools(), cache, "jrt", "jrt:/java.base", "java/util/HashMap", "get", "(I)V")
    with pytest.raises(NotFoundError):
        bv.javap_member(LoaderJvmTools(), cache, "jar", str(tmp_path / "absent.jar"), "a/B", None, None)


def test_a_jar_class_that_shadows_a_jdk_class_is_read_from_the_jar(cache, tmp_path):
    """`javap -classpath jar javax.xml.XMLConstants` would print the JDK's class; the graph asked for the jar's."""
    src = tmp_path / "src/javax/xml/XMLConstants.java"
    src.parent.mkdir(parents=True)
    src.write_text("package javax.xml;\npublic class XMLConstants { public static int mine() { return 1; } }\n")
    jdktool.run(["javac", "--release", "8", "-d", str(tmp_path / "out"), str(src)], check=True,
                   capture_output=True)
    jar = tmp_path / "shadow.jar"
    with zipfile.ZipFile(jar, "w") as zf:
        zf.write(tmp_path / "out/javax/xml/XMLConstants.class", "javax/xml/XMLConstants.class")
    assert "mine()" not in _subprocess_javap("jar", str(jar), "javax/xml/XMLConstants")
    block = bv.javap_member(LoaderJvmTools(), cache, "jar", str(jar), "javax/xml/XMLConstants", "mine", "()I")
    assert block.startswith("  public static int mine();") and "iconst_1" in block
    assert "NULL_NS_URI" not in bv.javap_member(LoaderJvmTools(), cache, "jar", str(jar), "javax/xml/XMLConstants", None, None)


def test_a_corrupt_class_file_is_a_named_failure(cache, tmp_path):
    jar = tmp_path / "broken.jar"
    good = zipfile.ZipFile(GSON).read("com/google/gson/JsonNull.class")
    with zipfile.ZipFile(jar, "w") as zf:
        zf.writestr("com/google/gson/JsonNull.class", good[: len(good) // 2])
    with pytest.raises(bv.JavapFailed) as info:
        bv.javap_member(LoaderJvmTools(), cache, "jar", str(jar), "com/google/gson/JsonNull", None, None)
    assert info.value.code == "JAVAP_FAILED" and "\n" not in info.value.message
    assert f"{jar}!/com/google/gson/JsonNull.class" in info.value.message


def test_a_shadowed_copys_graph_id_is_accepted(cache):
    shadowed = bv.javap_member(LoaderJvmTools(), cache, "jar", str(GSON), "com/google/gson/JsonNull@0123456789abcdef", None, None)
    assert shadowed == bv.javap_class(LoaderJvmTools(), cache, "jar", str(GSON), "com/google/gson/JsonNull")
