"""Kotlin top-level declarations in `imports` and `resolve`, and the Kotlin `outline` of a class with a companion and
of a class with lambda bodies (docs/kotlin.md): `imports` prints Java's `import static` and Kotlin's `import pkg.name`
(Kotlin's only for an extension), finds a top-level function or property by its Kotlin name, and names a multi-file
part's member in its facade; `resolve` finds a property by its Kotlin name; `outline` lists the companion's `const`,
`@JvmField` and `@JvmStatic` declarations whose JVM member lives in the class, and hides kotlinc 2's lambda bodies
unless `--include-synthetic`. The sources are compiled here by kotlinc (Kotlin 1.3) in one call."""

from __future__ import annotations

import json

import pytest

from tests.kotlin.corpus import jar_fixtures

UTIL = '''@file:JvmName("Util")
package fx

fun scaled(x: Int, k: Int = 2): Int = x * k

val Box.perimeter: Int get() = 2 * (w + h)

fun Box.area(): Int = w * h

const val LIMIT = 10

fun helper(): Int = 1
'''

BOX = '''package fx

class Box(val w: Int, val h: Int) {
    fun grow(): Box = Box(w + 1, h + 1)

    companion object {
        const val UNIT = 1
        private const val SECRET = 3
        @JvmField val ZERO = Box(0, 0)
        @JvmStatic fun square(n: Int): Box = Box(n, n)
        fun plain(): Int = SECRET
    }
}
'''

SHAPES = '''@file:JvmName("Shapes")
@file:JvmMultifileClass
package fx

fun shapeCount(): Int = CORNERS

private const val CORNERS = 3
'''

OTHER = '''package fy

fun helper(): Int = 2
'''


def _jar():
    from tests.kotlin.corpus import kotlinc_jar

    return kotlinc_jar("toplevel", {"Util.kt": UTIL, "Box.kt": BOX, "Shapes.kt": SHAPES, "Other.kt": OTHER})


store, jar_args = jar_fixtures(_jar, "kttop", "top.jar")


def _imports(store, text: str) -> list[tuple]:
    from jdx.engine.imports import imports

    result, _ = imports(store, text)
    return [(e.get("language"), e["statement"]) for e in result["imports"]]


def test_imports_of_a_top_level_function_gives_the_java_and_the_kotlin_import(store, run_jdx, jar_args):
    both = [("java", "import static fx.Util.scaled;"), ("kotlin", "import fx.scaled")]
    assert _imports(store, "fx.Util#scaled") == both
    assert _imports(store, "scaled") == both  # by its Kotlin name
    assert _imports(store, "fx.scaled") == both
    assert _imports(store, "LIMIT") == [("java", "import static fx.Util.LIMIT;"), ("kotlin", "import fx.LIMIT")]
    r = run_jdx("imports", "fx.Util#scaled", *jar_args)
    assert r.code == 0, r.err
    assert r.out.splitlines() == ["Java: import static fx.Util.scaled;", "Kotlin: import fx.scaled", "  // from top.jar"]
    r = run_jdx("imports", "scaled", *jar_args, "--json")
    kotlin = json.loads(r.out)["result"]["imports"][1]
    assert kotlin["kotlin_name"] == "fx.scaled" and kotlin["ref"] == "fx.Util#scaled(int, int)"
    assert kotlin["declarations"] == ["public fun scaled(x: Int, k: Int = ...): Int"]


def test_a_companion_member_is_imported_where_kotlin_imports_it(store):
    """A companion's (or an object's) member is not static on the JVM, yet Kotlin imports it by its name there;
    its @JvmStatic copy gives Java's `import static` too. A class's instance member has no import: the answer is its
    type's import, with a note saying so (spec §16: never fail where a lesser answer exists)."""
    assert _imports(store, "fx.Box$Companion#plain") == [("kotlin", "import fx.Box.Companion.plain")]
    assert _imports(store, "fx.Box$Companion#square") == [("java", "import static fx.Box.square;"),
                                                          ("kotlin", "import fx.Box.Companion.square")]
    from jdx.engine.imports import imports

    answer, _ = imports(store, "fx.Box#grow")
    assert answer["member"] == "fx.Box#grow" and [i["statement"] for i in answer["imports"]] == ["import fx.Box;"]
    assert answer["imports"][0]["note"].startswith("grow is an instance method: no import names it")


def test_an_extension_is_imported_by_its_kotlin_name_only(store, run_jdx, jar_args):
    only = [("kotlin", "import fx.perimeter")]
    assert _imports(store, "perimeter") == only
    assert _imports(store, "fx.Util#getPerimeter") == only
    assert _imports(store, "fx.Util#perimeter") == only
    assert _imports(store, "area") == [("kotlin", "import fx.area")]
    r = run_jdx("imports", "perimeter", *jar_args)
    assert r.code == 0, r.err
    assert r.out.splitlines() == [
        "Kotlin: import fx.perimeter  // extension: Java calls it as the static method fx.Util#getPerimeter(fx.Box)",
        "  // from top.jar"]


def test_a_multi_file_part_is_imported_through_its_facade(store):
    both = [("java", "import static fx.Shapes.shapeCount;"), ("kotlin", "import fx.shapeCount")]
    assert _imports(store, "shapeCount") == both
    assert _imports(store, "fx.Shapes#shapeCount") == both
    assert _imports(store, "fx.Shapes__ShapesKt#shapeCount") == both


def test_a_name_of_several_packages_is_ambiguous_naming_each_package(store):
    from jdx.errors import AmbiguousError

    with pytest.raises(AmbiguousError) as exc:
        _imports(store, "helper")
    assert [c["ref"] for c in exc.value.candidates] == ["fx.helper", "fy.helper"]
    assert _imports(store, "fy.helper") == [("java", "import static fy.OtherKt.helper;"),
                                            ("kotlin", "import fy.helper")]


def test_resolve_finds_a_top_level_property_by_its_kotlin_name(store, run_jdx, jar_args):
    from jdx.engine.search_nav import resolve

    for text in ("perimeter", "fx.perimeter"):
        result, _ = resolve(store, text, 50)
        assert [(c["kind"], c["ref"], c["note"]) for c in result["candidates"]] == [
            ("method", "fx.Util#getPerimeter(fx.Box)", "Kotlin val Box.perimeter: Int")]
    result, _ = resolve(store, "scaled", 50)  # its JVM name is its Kotlin name: found as before
    assert [(c["ref"], c.get("note")) for c in result["candidates"]] == [("fx.Util#scaled(int, int)", None)]
    r = run_jdx("resolve", "perimeter", *jar_args)
    assert r.code == 0, r.err
    assert r.out.splitlines()[0] == "method fx.Util#getPerimeter(fx.Box)  [Kotlin val Box.perimeter: Int]  top.jar"


def test_outline_lists_the_companion_declarations_compiled_into_the_class(run_jdx, jar_args):
    r = run_jdx("outline", "fx.Box", *jar_args)
    assert r.code == 0, r.err
    rows = [line.strip() for line in r.out.splitlines()[1:-1]]
    assert rows == [
        "public constructor(w: Int, h: Int)",
        "public fun grow(): Box",
        "public val h: Int",
        "public val w: Int",
        "public fun square(n: Int): Box  [@JvmStatic, in companion object]",
        "private const val SECRET: Int = 3  [in companion object]",
        "public const val UNIT: Int = 1  [in companion object]",
        "public val ZERO: Box  [@JvmField, in companion object]",
        "public companion object Companion",
    ]
    assert r.out.splitlines()[-1].startswith("9 Kotlin declarations")  # the companion object among them
    r = run_jdx("outline", "fx.Box", "--access", "public", "--kind", "field", *jar_args, "--json")
    members = json.loads(r.out)["result"]["kotlin_members"]
    assert [(m["name"], m.get("companion")) for m in members] == [("h", None), ("w", None), ("UNIT", "Companion"),
                                                                  ("ZERO", "Companion")]
    assert members[2]["jvm"] == [{"role": "field", "ref": "fx.Box#UNIT"}]


@pytest.mark.soak
def test_outline_hides_kotlinc_2_lambda_bodies(run_jdx):
    from tests.kotlin.corpus import M2

    jar = M2 / "kotlin-scripting-common/2.0.21/kotlin-scripting-common-2.0.21.jar"
    if not jar.exists():
        pytest.skip(f"{jar} is absent (a kotlinc 2 jar: kotlinc 1.3 compiles lambdas to classes, not methods)")
    args = ("outline", "kotlin.script.experimental.api.ErrorHandlingKt", "--jars", str(jar), "--no-jdk")
    r = run_jdx(*args)
    assert r.code == 0, r.err
    assert "$lambda$" not in r.out
    assert r.out.splitlines()[-1].endswith("· 1 lambda body hidden (--include-synthetic)")
    r = run_jdx(*args, "--include-synthetic")
    assert ("  method private static final CharSequence valueOrThrow$lambda$5$lambda$3(ScriptDiagnostic it)  (jvm)"
            in r.out.splitlines())
    r = run_jdx(*args, "--json")
    result = json.loads(r.out)["result"]
    assert result["hidden_lambdas"] == 1 and not [x for x in result["jvm_only"] if "$lambda$" in x]


def test_a_facade_outline_marks_what_only_its_part_holds(run_jdx, jar_args):
    """`outline kotlinx.coroutines.BuildersKt` listed `private const val RESUMED: Int` as if the facade had it; javap
    of the facade has no such field (kotlinc keeps a part's private declarations in the part class)."""
    from tests.fixtures.javac import javap

    jar = jar_args[jar_args.index("--jars") + 1]
    part = "Shapes__ShapesKt"  # kotlinc's name: the facade's, then the file's
    assert "CORNERS" not in javap(jar, "fx.Shapes", "-constants") and "CORNERS" in javap(jar, f"fx.{part}",
                                                                                          "-constants")
    out = run_jdx("outline", "fx.Shapes", *jar_args).out.splitlines()
    assert f"  private const val CORNERS: Int = 3  [only in part {part}]" in out, out
    assert any(line.startswith("  public fun shapeCount(): Int") and "only in part" not in line for line in out), out
