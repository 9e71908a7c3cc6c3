"""Procyon's line map where lambdas and anonymous classes sit inside a method: every class-file line maps only into
the decompiled text of the code whose LineNumberTable holds it (a lambda's lines into the lambda's body, the
enclosing method's lines to its own statements, never one of them onto the other).

Oracle: the fixture compiled with javac at test time; `javap -l -p` says which method's LineNumberTable holds each
line, and the fixture's own source says what is written on it: each line that holds a string literal must map to a
decompiled line holding the same literal (every literal is written once)."""

from __future__ import annotations

import re
import shutil
import zipfile
from pathlib import Path

import pytest

from jdx.loaders import decompile as d

from tests.fixtures import jdktool

LAMBDA_JAVA = """\
package lam;

public class L {
    static void call(String label, Runnable r) { r.run(); }
    static final Runnable STATIC = () -> System.out.println("static-field");

    public static void main(String[] a) {
        call("first", () -> {
            System.out.println("one");
            System.out.println("two");
        });
        call("second", () -> {
            System.out.println("three");
            call("nested", () -> System.out.println("inner"));
            System.out.println("four");
        });
        Runnable anon = new Runnable() {
            public void run() {
                System.out.println("anon-body");
            }
        };
        System.out.println("after-anon");
        call("third", anon);
        class Local {
            void go() {
                System.out.println("local-body");
            }
        }
        new Local().go();
        System.out.println("after-local");
    }
}
"""
LITERAL = re.compile(r'"([\w-]+)"')


def _line_tables(jar: Path, cls: str) -> dict[str, set[int]]:
    """Method name → the lines of its LineNumberTable, as `javap -l -p` prints them."""
    out = jdktool.run(["javap", "-l", "-p", "-cp", str(jar), cls], capture_output=True, text=True,
                      check=True).stdout
    tables: dict[str, set[int]] = {}
    current = None
    for line in out.splitlines():
        decl = re.match(r"\s+[\w.<>\[\], $]*?([\w$<>]+)\(.*\);$", line) or re.match(r"\s+(static) \{\};$", line)
        if decl:
            current = tables.setdefault(decl.group(1), set())
        found = re.match(r"\s+line (\d+): \d+", line)
        if found and current is not None:
            current.add(int(found.group(1)))
    return tables


@pytest.fixture(scope="module")
def jar(jdx_home) -> Path:
    from jdx.loaders import java_tools

    if shutil.which("javac") is None or shutil.which("javap") is None:
        pytest.skip("javac / javap are not installed")
    if not d.find_engines("procyon"):
        pytest.skip("Procyon is not installed")
    java_tools.ensure_jvm(jdx_home / "cache")
    work = jdx_home / "lambda-lines"
    src, classes = work / "src" / "lam", work / "classes"
    src.mkdir(parents=True, exist_ok=True)
    (src / "L.java").write_text(LAMBDA_JAVA)
    jdktool.run(["javac", "-g", "--release", "17", "-d", str(classes), str(src / "L.java")], check=True,
                capture_output=True, text=True)
    jar = work / "lambda-lines.jar"
    with zipfile.ZipFile(jar, "w") as z:
        for path in sorted(classes.rglob("*.class")):
            z.writestr(str(path.relative_to(classes)), path.read_bytes())
    return jar


def _decompile(cache: Path, jar: Path) -> d.Decompiled:
    return d.decompile_class(cache, "jar", str(jar), "lam/L", [("jar", str(jar))], engine="procyon")


def test_each_line_maps_into_the_code_whose_line_table_holds_it(jar, tmp_path):
    tables = {**_line_tables(jar, "lam.L"), **{f"L$1.{k}": v for k, v in _line_tables(jar, "lam.L$1").items()},
              **{f"L$1Local.{k}": v for k, v in _line_tables(jar, "lam.L$1Local").items()}}
    # the fixture has what the defect needs: lambda methods (one nested) and the anonymous class's method
    assert {"main", "lambda$main$1", "lambda$main$2", "lambda$main$3", "lambda$static$0", "L$1.run",
            "L$1Local.go"} <= set(tables)
    dec = _decompile(tmp_path, jar)
    text, source = dec.text.splitlines(), LAMBDA_JAVA.splitlines()
    checked = []
    for method, lines in sorted(tables.items()):
        for line in sorted(lines):
            literal = LITERAL.search(source[line - 1])
            if literal is None:
                continue
            mapped = dec.decompiled_lines(line)
            assert mapped, (method, line, dec.line_map, dec.text)
            assert all(f'"{literal.group(1)}"' in text[n - 1] for n in mapped), \
                (method, line, [text[n - 1] for n in mapped], dec.text)
            checked.append(literal.group(1))
    # every line that holds a literal was checked (a line shared by two codes, as a lambda written on the line of
    # the call that takes it, in each of them)
    assert set(checked) == {m.group(1) for line in LAMBDA_JAVA.splitlines() for m in [LITERAL.search(line)] if m}


def test_the_first_call_of_each_lambda_is_not_moved_into_the_lambda_before_it(jar, tmp_path):
    """The trial's case: main's second call was mapped onto the second statement of the first lambda."""
    dec = _decompile(tmp_path, jar)
    text = dec.text.splitlines()
    second = LAMBDA_JAVA.splitlines().index('        call("second", () -> {') + 1
    assert [text[n - 1].strip() for n in dec.decompiled_lines(second)] == ['call("second", () -> {']


def test_the_text_is_procyons_decompile_type_text(jar):
    """jdx prints Procyon's tree itself (to read the lines): the text is what Language.decompileType prints."""
    from jdx.loaders import java_tools as jt

    engine = d.find_engines("procyon")[0]
    loader = jt.engine_loader(list(engine.jars))
    files = d.class_files("jar", str(jar), "lam/L")
    type_loader = jt.jclass("com.strobel.assembler.metadata.ITypeLoader", loader)
    composite = jt.jclass("com.strobel.assembler.metadata.CompositeTypeLoader", loader)

    def system():
        loaders = d._procyon_loaders(loader, files, [], [])
        return jt.jclass("com.strobel.assembler.metadata.MetadataSystem", loader)(
            composite(jt.java_array(type_loader, loaders)))

    ours, _ = d._procyon_decompile_type(loader, system(), "lam/L", 30.0)
    settings = jt.jclass("com.strobel.decompiler.DecompilerSettings", loader).javaDefaults()
    settings.setJavaFormattingOptions(
        jt.jclass("com.strobel.decompiler.languages.java.JavaFormattingOptions", loader).createDefault())
    options = jt.jclass("com.strobel.decompiler.DecompilationOptions", loader)()
    options.setSettings(settings)
    options.setFullDecompilation(True)
    output = jt.jclass("com.strobel.decompiler.PlainTextOutput", loader)()
    settings.getLanguage().decompileType(system().lookupType("lam/L").resolve(), output, options)
    assert ours == str(output.toString()) and "anon-body" in ours


def test_the_map_format_is_a_new_cache_entry():
    """A map stored by the format before (lambda lines misread) is not reused."""
    assert int(d.CACHE_FORMAT) >= 5
