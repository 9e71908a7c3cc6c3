"""`imports` of several names orders the block by the imported name, as google-java-format and IDEs do (static
imports first, then the others, each group ASCII-sorted by the name): trial `jdx imports ExtensionContext Namespace`
printed `import ...ExtensionContext.Namespace;` before `import ...ExtensionContext;`, the whole lines sorted and `.`
before `;`. Oracle: google-java-format's ordering rule (lexicographic on the imported name); javac compiles a class
under the block. Fixtures compiled by javac at test time, in a workspace without the JDK."""

from __future__ import annotations

import shutil

import pytest

from jdx.engine.imports_block import imports_block, java_block
from tests.fixtures import jdktool
from tests.fixtures.javac import javac_jar
from tests.service import JdxService, Options

SOURCES = {
    "io/ctx/ExtensionContext.java": "package io.ctx;\npublic interface ExtensionContext {\n"
                                    "  class Namespace { public static Namespace create() { return null; } }\n"
                                    "  static int global() { return 1; }\n}\n",
    "io/ctx/ExtensionContextHolder.java": "package io.ctx;\npublic class ExtensionContextHolder { }\n",
}


def _google_java_format_order(statements: list[str]) -> list[str]:
    """google-java-format's import order: static first, then non-static, each lexicographic on the imported name."""
    def name(s: str) -> str:
        return s.removeprefix("import ").removeprefix("static ").rstrip(";")
    return sorted(statements, key=lambda s: (not s.startswith("import static "), name(s)))


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    if shutil.which("javac") is None:
        pytest.skip("javac is not installed")
    root = tmp_path_factory.mktemp("imports_order")
    return root, javac_jar(root, SOURCES, "io", "ctx.jar")[0]


@pytest.fixture(scope="module")
def store(built, jdx_home):
    service = JdxService(Options(jars=[str(built[1])], jdk=False, cache_dir=str(jdx_home / "cache")))
    yield service.store()
    service.close()


def test_a_nested_type_follows_its_outer_type(store, built):
    asked = ["Namespace", "ExtensionContextHolder", "ExtensionContext", "io.ctx.ExtensionContext.Namespace#create",
             "ExtensionContext#global"]
    result, _warnings, code = imports_block(store, asked)
    statements = result["statements"]
    assert code == 0, result
    assert statements == ["import static io.ctx.ExtensionContext.Namespace.create;",
                          "import static io.ctx.ExtensionContext.global;",
                          "import io.ctx.ExtensionContext;",
                          "import io.ctx.ExtensionContext.Namespace;",
                          "import io.ctx.ExtensionContextHolder;"], statements
    assert statements == _google_java_format_order(statements)
    root, jar = built
    src = root / "use" / "q"
    src.mkdir(parents=True)
    (src / "U.java").write_text("package q;\n" + "\n".join(statements) + "\nclass U { Object use() { "
                                "ExtensionContextHolder h = null; ExtensionContext c = null; global(); "
                                "return (Namespace) create(); } }\n")
    javac = jdktool.run(["javac", "-cp", str(jar), "-d", str(root / "use" / "out"), str(src / "U.java")],
                        capture_output=True, text=True)
    assert javac.returncode == 0, javac.stderr


def test_a_commented_out_line_sorts_by_its_statement():
    entries = [{"statement": "import a.B.C;", "ref": "a.B$C"}, {"statement": "import a.B;", "ref": "a.B"},
               {"statement": "import z.C;", "ref": "z.C"}]
    block, clashes = java_block(entries)
    assert block == ["import a.B;", "import a.B.C;",
                     "// import z.C;  // clashes with import a.B.C; (one simple name): write z.C qualified"], block
    assert clashes == [["import a.B.C;", "import z.C;"]]
