"""`.kt` sources (spec §11.1, §12.2): body, source and doc of Kotlin declarations from a sources jar and a
`--src` directory, paired with the bytecode by line table and Kotlin name. The sources under
tests/kotlin/sources are compiled at test time by the Debian `kotlinc` (once, cached by their hash) and
laid out here as a binary jar beside a sources jar, a stale sources jar, a sources jar with a broken file,
and a `--src` directory. The differential check reads the files with tree-sitter directly."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest

from jdx.engine.refs import format_member
from jdx.engine.src_body import BodyOptions
from jdx.engine.src_doc import DocOptions
from tests.service import JdxService, Options

SOURCES = Path(__file__).resolve().parent / "sources"
STALE_EDIT = ("fun distanceTo(other: Vec): Double {", "fun distanceFrom(other: Vec): Double {")
STALE_EXTRA = "    fun extra(): Int = 42\n\n    /** The length of this vector. */"


@dataclass(frozen=True)
class Layout:
    root: Path

    @property
    def paired(self) -> Path:
        return self.root / "paired/kt-1.0.jar"

    @property
    def stale(self) -> Path:
        return self.root / "stale/kt-1.0.jar"

    @property
    def broken(self) -> Path:
        return self.root / "broken/kt-1.0.jar"

    @property
    def bare(self) -> Path:
        return self.root / "bare/kt-1.0.jar"

    @property
    def srcdir(self) -> Path:
        return self.root / "project"


def _sources() -> dict[str, bytes]:
    """`kt/Geometry.kt`-style entry names (package directories, except misc/Odd.kt) → bytes."""
    out = {}
    for p in sorted(SOURCES.rglob("*.kt")):
        rel = p.relative_to(SOURCES).as_posix()
        out[rel if rel.startswith("misc/") else "kt/" + rel] = p.read_bytes()
    return out


def _zip(path: Path, entries: dict[str, bytes]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for name in sorted(entries):
            info = zipfile.ZipInfo(name, (2024, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(info, entries[name])


def build_layout() -> Layout:
    """Every layout, built once per content of tests/kotlin/sources (kotlinc takes ~10 s to start)."""
    kotlinc = shutil.which("kotlinc")
    if kotlinc is None:
        pytest.skip("kotlinc is not on PATH (Debian package `kotlin`, see .ci/run)")
    sources = _sources()
    digest = hashlib.sha256(b"".join(k.encode() + v for k, v in sources.items())).hexdigest()[:16]
    root = Path(tempfile.gettempdir()) / f"jdx-kotlin-sources-{digest}"
    if (root / "done").exists():
        return Layout(root)
    work = Path(tempfile.mkdtemp(prefix="jdx-kotlin-sources-"))
    src = work / "src"
    for name, data in sources.items():
        (src / name).parent.mkdir(parents=True, exist_ok=True)
        (src / name).write_bytes(data)
    binary = work / "classes.jar"
    subprocess.run([kotlinc, "-nowarn", "-d", str(binary), *map(str, sorted(src.rglob("*.kt")))], check=True,
                   capture_output=True, timeout=600)
    lay = Layout(work / "layout")
    for jar in (lay.paired, lay.stale, lay.broken, lay.bare):
        jar.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(binary, jar)
    _zip(lay.paired.with_name("kt-1.0-sources.jar"), sources)
    geometry = sources["kt/Geometry.kt"].decode()
    stale = geometry.replace(*STALE_EDIT).replace("    /** The length of this vector. */", STALE_EXTRA, 1)
    _zip(lay.stale.with_name("kt-1.0-sources.jar"), dict(sources, **{"kt/Geometry.kt": stale.encode()}))
    _zip(lay.broken.with_name("kt-1.0-sources.jar"),
         dict(sources, **{"kt/Top.kt": b"package kt\n\nfun clamp(n: Int): Int = if (n < 0 {{{ ))) ]]\n@@@ %%%\n"}))
    for name, data in sources.items():  # a project directory: src/main/kotlin, files where they are
        dest = lay.srcdir / "src/main/kotlin" / name
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_bytes(data)
    (work / "layout" / "done").write_text("ok")
    try:
        os.replace(work / "layout", root)
    except OSError:  # another worker built it first
        pass
    shutil.rmtree(work, ignore_errors=True)
    return Layout(root)


@pytest.fixture(scope="session")
def layout() -> Layout:
    return build_layout()


@pytest.fixture(scope="module")
def services(layout, jdx_home):
    made: dict[str, JdxService] = {}

    def get(name: str) -> JdxService:
        if name not in made:
            jar = {"paired": layout.paired, "stale": layout.stale, "broken": layout.broken,
                   "srcdir": layout.bare, "bare": layout.bare}[name]
            opts = Options(jars=[str(jar)], jdk=False, cache_dir=str(jdx_home / "cache"))
            if name == "srcdir":
                opts.src = [str(layout.srcdir)]
            made[name] = JdxService(opts)
        return made[name]

    yield get
    for s in made.values():
        s.close()


def _lines(rel: str) -> list[str]:
    entry = rel[len("kt/"):] if rel.startswith("kt/") else rel
    return (SOURCES / entry).read_text().splitlines()


def _span(rel: str, first: str, last: str | None = None) -> tuple[int, int]:
    """1-based lines of the first line containing `first` and the next one containing `last` (or `first`)."""
    lines = _lines(rel)
    a = next(i for i, line in enumerate(lines, 1) if first in line)
    b = a if last is None else next(i for i, line in enumerate(lines, 1) if i >= a and last in line)
    return a, b


# --- body ----------------------------------------------------------------------------------------

BODIES = [
    # (reference, file, first line containing, last line containing) - the declaration's span
    ("kt.Vec#distanceTo(kt.Vec)", "kt/Geometry.kt", "fun distanceTo", "    }"),  # a class method
    ("kt.Exts#doubled(kt.Vec)", "kt/Ext.kt", "fun Vec.doubled", None),  # an extension function, @JvmName file
    ("kt.TopKt#clamp(int)", "kt/Top.kt", "fun clamp", None),  # a top-level function of a file facade
    ("kt.Vec#getNorm()", "kt/Geometry.kt", "val norm: Double", "get() = sqrt"),  # a property getter
    ("kt.Vec#setLabel(String)", "kt/Geometry.kt", "var label", "        }"),  # a setter: its property
    ("kt.Vec#getX()", "kt/Geometry.kt", "data class Vec", None),  # a constructor property (data class)
    ("kt.Vec$Companion#parse(String)", "kt/Geometry.kt", "@JvmStatic", "        }"),  # companion
    ("kt.Vec#parse(String)", "kt/Geometry.kt", "@JvmStatic", "        }"),  # its @JvmStatic copy
    ("kt.Exts#join$default(java.util.List, String, String, int, Object)", "kt/Ext.kt", "fun join",
     "prefix + items"),  # the default-arguments stub: its function
    ("kt.Named$DefaultImpls#greet(kt.Named, String)", "kt/Geometry.kt", "fun greet(prefix: String = ", None),
    ("kt.Figure#area()", "kt/Geometry.kt", "abstract fun area", None),  # no line table: the name decides
    ("kt.Axis$Y#flip()", "kt/Geometry.kt", "override fun flip() = X", None),  # an enum entry's body
    ("kt.Person#<init>(String, String)", "kt/Geometry.kt", "constructor(first", None),  # secondary constructor
    ("kt.text.Strings#whisper(String)", "kt/text/StringsB.kt", "fun whisper", "}"),  # multi-file
    ("kt.text.Strings#getVowels(String)", "kt/text/StringsA.kt", "val String.vowels", "get() = count"),
    ("kt.Vec#norm", "kt/Geometry.kt", "val norm: Double", "get() = sqrt"),  # Kotlin names as references
    ("kt.text.Strings#vowels", "kt/text/StringsA.kt", "val String.vowels", "get() = count"),
    ("kt.Single#f()", "misc/Odd.kt", "fun f() = 1", None),  # a one-line object body, a file off its package dir
    ("kt.Odd$runner$1#run()", "misc/Odd.kt", "override fun run()", "        }"),  # an object literal's member
    ("kt.Odd$adder$1#invoke(int)", "misc/Odd.kt", "= { k ->", "    }"),  # a lambda
    # `@Suppress(…)` on its own line and `Runnable by inner {`: two shapes tree-sitter-kotlin 1.1 misreads
    ("kt.Counted#count()", "misc/Odd.kt", "fun count()", None),
    ("kt.Counted#<init>(Runnable, int)", "misc/Odd.kt", "@Suppress", "internal class Counted"),
]


@pytest.mark.parametrize("ref,rel,first,last", BODIES)
def test_body_from_the_sources_jar(services, ref, rel, first, last):
    answer = services("paired").body(ref)
    r = answer.result
    a, b = _span(rel, first, last)
    assert r["origin"] == "sources", (r["header"], answer.warnings)
    assert r["source"] == {"label": "kt-1.0-sources.jar", "how": "sibling", "file": rel, "lines": [a, b]}
    # a lambda class's method says which function's lambda it is (kotlinc compiled it to `kt.Odd$adder$1`)
    lambda_label = "  (lambda body in Odd#adder(): kotlinc compiled the lambda to this class)" if "$adder$" in ref else ""
    assert r["header"] == f"source: kt-1.0-sources.jar ({rel}:{a}-{b})" + lambda_label
    lines = _lines(rel)[a - 1:b]
    assert [t.strip() for t in r["text"]] == [t.strip() for t in lines] or r["text"][0].strip() in lines[0]
    assert not answer.warnings, [w.message for w in answer.warnings]
    assert answer.provenance[0]["origin"] == "sources" and answer.provenance[0]["lines"] == [a, b]


@pytest.mark.parametrize("ref,implicit", [
    ("kt.Counted#run()", "delegated with `by`: written by the compiler"),
    ("kt.Vec#component1()", "data class member written by the compiler"),
    ("kt.Vec#copy(double, double)", "data class member written by the compiler"),
    ("kt.Axis#values()", "enum method written by the compiler"),
    ("kt.Figure$Empty#<init>()", "constructor of an object"),
])
def test_members_kotlinc_writes_show_their_class_header(services, ref, implicit):
    r = services("paired").body(ref).result
    assert r["origin"] == "sources" and r["implicit"] == implicit
    assert f"(implicit: {implicit};" in r["header"]


def test_a_facade_class_is_its_file_and_a_type_its_declaration(services):
    body = services("paired").body("kt.Exts").result
    assert body["source"]["lines"] == [1, len(_lines("kt/Ext.kt"))] and body["text"][0] == '@file:JvmName("Exts")'
    vec = services("paired").body("kt.Vec").result
    assert vec["text"][0] == "data class Vec(val x: Double, val y: Double = 0.0) {" and vec["text"][-1] == "}"
    companion = services("paired").body("kt.Vec$Companion").result
    assert companion["text"][0].strip() == "companion object {"


def test_src_directory_finds_files_wherever_they_are(services):
    """`--src <project>` reads `src/main/kotlin`; a file whose directory is not its package is found by its
    `package` line."""
    for ref, rel in (("kt.Vec#distanceTo(kt.Vec)", "kt/Geometry.kt"), ("kt.Odd#twice()", "misc/Odd.kt")):
        r = services("srcdir").body(ref).result
        assert r["origin"] == "sources" and r["source"]["how"] == "--src", r["header"]
        assert r["source"]["file"] == f"src/main/kotlin/{rel}"


def test_body_json_and_text_through_the_cli(layout, jdx_env):
    from tests.cli import golden

    args = ["--jars", str(layout.paired), "--no-jdk"]
    with golden.in_process(jdx_env) as run:
        assert run(args + ["index"]).code == 0
        text = run(args + ["body", "kt.Exts#doubled"])
        data = json.loads(run(args + ["body", "kt.Exts#doubled", "--json"]).out)
    a, _ = _span("kt/Ext.kt", "fun Vec.doubled")
    assert text.code == 0 and text.out.splitlines()[:3] == [
        "kt.Exts#doubled(kt.Vec)", f"source: kt-1.0-sources.jar (kt/Ext.kt:{a}-{a})",
        "fun Vec.doubled(): Vec = scale(2.0)"]
    assert data["result"]["origin"] == "sources" and data["result"]["source"]["lines"] == [a, a]
    assert data["provenance"] == [{"symbol": "kt.Exts#doubled(kt.Vec)", "artifact": "kt-1.0.jar", "origin": "sources",
                                   "file": "kt/Ext.kt", "lines": [a, a], "sources": "kt-1.0-sources.jar"}]


# --- the differential check ----------------------------------------------------------------------

def _tree_sitter_functions(data: bytes) -> list[tuple[str, int, int, str]]:
    """(name, first line, last line, text) of every member and top-level function of a file, straight from
    the tree-sitter tree (not through jdx's walk): functions inside function bodies and lambdas are local."""
    import tree_sitter
    import tree_sitter_kotlin

    tree = tree_sitter.Parser(tree_sitter.Language(tree_sitter_kotlin.language())).parse(data)
    out, stack = [], [tree.root_node]
    while stack:
        node = stack.pop()
        if node.type == "function_declaration":
            out.append((node.child_by_field_name("name").text.decode(), node.start_point[0] + 1,
                        node.end_point[0] + 1, node.text.decode()))
        body_as_lambda = node.type == "lambda_literal" and node.parent.type == "annotated_lambda" \
            and node.parent.parent.parent.type == "explicit_delegation"  # `I by d { … }`: a class body
        if node.type not in ("function_declaration", "function_body", "object_literal", "lambda_literal") \
                or body_as_lambda:
            stack.extend(node.named_children)
    return sorted(out)


def test_every_function_body_is_the_span_tree_sitter_gives_and_the_line_table_agrees(services):
    """For every function the fixture sources declare (tree-sitter's own spans), `body` of the JVM method it
    compiles to (the metadata's link) prints exactly those lines, and the method's line table falls inside."""
    from jdx.graph_schema import queries_kotlin as qk

    service = services("paired")
    store = service.store()
    kotlin_types = [r["id"] for r in store.query(
        "MATCH (t:Type) WHERE NOT t.external AND t.id STARTS WITH 'kt/' RETURN t.id AS id ORDER BY id").to_pylist()]
    by_file: dict[str, list[tuple[str, int, int]]] = {}
    checked = 0
    ctx = service.source_context()
    for tid in kotlin_types:
        row = ctx.type_row(tid)
        if row["outer"] and not row["inner_name"]:
            continue  # an object literal's members are local functions of the file, not its declarations
        for d in store.rows(qk.KOTLIN_DECLS_OF, {"id": tid}):
            if d["kind"] != "function" or d["owner"] != tid:
                continue
            method = next((link.split(":", 1)[1] for link in d["jvm"] if link.startswith("method:")), None)
            assert method is not None, d
            owner, _, rest = method.partition("#")
            name, desc = rest[: rest.index("(")], rest[rest.index("("):]
            answer = service.body(format_member(owner, name, desc), BodyOptions())
            r = answer.result
            if r["implicit"]:  # data class members kotlinc writes: no declaration to compare
                continue
            assert r["origin"] == "sources", (method, r["header"])
            a, b = r["source"]["lines"]
            by_file.setdefault(r["source"]["file"], []).append((d["name"], a, b, "\n".join(r["text"]).strip()))
            lines = _lines(r["source"]["file"])
            row = next(x for x in store.rows("MATCH (m:Method {id: $id}) RETURN m.first_line AS f, m.last_line AS l",
                                             {"id": method}))
            if row["f"] is not None and 0 < row["f"] <= len(lines):
                assert a <= row["f"] <= b, (method, row, a, b)
                assert row["l"] > len(lines) or row["l"] <= b, (method, row, a, b)
            checked += 1
    declared = {}
    for rel in by_file:
        entry = rel[len("kt/"):] if rel.startswith("kt/") else rel
        declared[rel] = _tree_sitter_functions((SOURCES / entry).read_bytes())
    for rel, found in by_file.items():  # the same spans, and the printed text is exactly the node's
        assert sorted(found) == [(n, a, b, text.strip()) for n, a, b, text in declared[rel]], rel
    every_file = {p.relative_to(SOURCES).as_posix() for p in SOURCES.rglob("*.kt")}
    assert {r[len("kt/"):] if r.startswith("kt/") else r for r in by_file} == every_file
    assert checked == sum(len(v) for v in declared.values()) >= 20


# --- doc -----------------------------------------------------------------------------------------

def test_kdoc_above_an_annotation_line_and_a_delegating_class(services):
    item = services("paired").doc("kt.Counted", DocOptions()).result["docs"][0]
    assert item["text"] == ["Counts, delegating the rest to inner."]  # a constructor parameter: text
    a, _ = _span("misc/Odd.kt", "/** Counts")
    assert item["source"]["lines"] == [a, a]


def test_kdoc_as_plain_text_with_links_resolved(services):
    answer = services("paired").doc("kt.Vec", DocOptions())
    item = answer.result["docs"][0]
    assert item["text"][0] == ("A point in the plane. See kt.Vec#distanceTo(kt.Vec) and "
                               "kt.Vec$Companion#getOrigin().")
    assert "Points are immutable; use kt.Vec#copy(double, double) to change one." in item["text"]
    assert "@property x  the horizontal coordinate" in item["text"]
    assert {"text": "distanceTo", "target": "distanceTo", "ref": "kt.Vec#distanceTo(kt.Vec)"} in item["links"]
    assert {"text": "x", "target": "x", "ref": None} in item["links"]  # a constructor parameter stays text
    a, b = _span("kt/Geometry.kt", "/**", " */")
    assert item["source"] == {"label": "kt-1.0-sources.jar", "file": "kt/Geometry.kt", "lines": [a, b]}
    assert not answer.warnings


@pytest.mark.parametrize("ref,text", [
    ("kt.Vec#distanceTo(kt.Vec)", ["The Euclidean distance to other, as kotlin.math.sqrt computes it.", "",
                                   "@param other  the other point", "@return a non-negative distance",
                                   "@see kt.Vec#getNorm()"]),
    ("kt.Exts#doubled", ["Twice this vector. Same as kt.Vec#scale with 2.", "", "@receiver the vector to double"]),
    ("kt.TopKt#clamp", ["Clamps n to 0..kt.TopKt#LIMIT."]),
    ("kt.Vec#norm", ["The length of this vector."]),
    ("kt.Vec$Companion#parse", ['Parses "x,y"; see kt.Vec.']),
    ("kt.text.Strings#shout", ["Shouts s; see kt.text.Strings#whisper(java.lang.String)."]),
    ("kt.text.Strings#whisper", ["Whispers s, the opposite of kt.text.Strings#shout(java.lang.String)."]),
    ("kt.Named#greet", ["A greeting for this name.", "", '    Person("Ada").greet()  // "Hello, Ada"', "",
                        "@param prefix  what comes first, kt.Person#name after it"]),
])
def test_doc_of_kotlin_members(services, ref, text):
    item = services("paired").doc(ref, DocOptions()).result["docs"][0]
    assert item["text"] == text


def test_a_property_documented_by_its_class_kdoc(services):
    """`@property x` in Vec's KDoc documents the property x: its field and its getter, labelled as such."""
    for ref in ("kt.Vec#getX()", "kt.Vec#x"):
        answer = services("paired").doc(ref, DocOptions())
        item = answer.result["docs"][0]
        assert item["text"] == ["the horizontal coordinate"], (ref, item)
        assert item["documented_by"] == "@property x in the KDoc of kt.Vec" and not answer.warnings
    assert services("paired").doc("kt.Vec#getY()", DocOptions()).result["docs"][0]["text"] == [
        "the vertical coordinate"]
    assert services("paired").doc("kt.Vec#component1()", DocOptions()).result["docs"][0]["text"] == []


def test_an_override_without_kdoc_inherits_its_interfaces(services):
    answer = services("paired").doc("kt.Person#greet(String)", DocOptions())
    item = answer.result["docs"][0]
    assert item["inherited_from"] == "kt.Named#greet(java.lang.String)"
    assert item["text"][0] == "A greeting for this name."


def test_members_with_doc_and_show_read_kdoc(services):
    from jdx.engine.members import MemberOptions

    service = services("paired")
    members = service.members("kt.Vec", MemberOptions(inherited=False, with_doc=True)).result["members"]
    docs = {m["name"]: m.get("doc") for m in members}
    assert docs["distanceTo"] == "The Euclidean distance to other, as kotlin.math.sqrt computes it."
    shown = service.show("kt.Vec").result
    assert shown["sources"] == "kt-1.0-sources.jar" and shown["doc"] == "A point in the plane."


def test_outline_gives_kotlin_declarations_their_source_lines(services):
    from jdx.engine.cards import OutlineOptions

    answer = services("paired").outline("kt.Vec", OutlineOptions(view="kotlin"))
    lines = {(m["kind"], m["name"], m.get("line")) for m in answer.result["kotlin_members"]}
    assert ("function", "distanceTo", _span("kt/Geometry.kt", "fun distanceTo")[0]) in lines
    assert ("property", "norm", _span("kt/Geometry.kt", "val norm")[0]) in lines
    assert ("constructor", "<init>", _span("kt/Geometry.kt", "data class Vec")[0]) in lines
    scales = sorted(m["line"] for m in answer.result["kotlin_members"] if m["name"] == "scale")
    assert scales == [_span("kt/Geometry.kt", "fun scale(k: Double)")[0], _span("kt/Geometry.kt", "fun scale(k: Int)")[0]]
    assert answer.provenance[-1]["origin"] == "sources" and answer.provenance[-1]["file"] == "kt/Geometry.kt"
    bare = services("bare").outline("kt.Vec", OutlineOptions(view="kotlin")).result["kotlin_members"]
    assert all("line" not in m for m in bare)


# --- source --------------------------------------------------------------------------------------

def test_source_of_a_kotlin_class_whole_and_around_a_member(services):
    service = services("paired")
    whole = service.source("kt.Vec").result
    assert whole["origin"] == "sources" and whole["text"] == _lines("kt/Geometry.kt")
    a, b = _span("kt/Geometry.kt", "fun distanceTo", "    }")
    around = service.source("kt.Vec", around="distanceTo", context=1).result
    assert around["source"]["lines"] == [a - 1, b + 1]
    multi = service.source("kt.text.Strings").result  # a multi-file facade: its first part's file
    assert multi["source"]["file"] == "kt/text/StringsA.kt"


# --- mismatches and bad input ---------------------------------------------------------------------

def test_stale_sources_are_named_and_fall_back_to_decompiled(services):
    service = services("stale")
    answer = service.body("kt.Vec#distanceTo(kt.Vec)")
    r = answer.result
    assert r["origin"] in ("decompiled", "javap") and "reconstructed" in r["header"] or r["origin"] == "javap"
    messages = [w.message for w in answer.warnings if w.code == "SOURCES_VERSION_MISMATCH"]
    assert any(m.startswith("kt-1.0.jar declares kt.Vec#distanceTo(kt.Vec) which is absent from "
                            "kt-1.0-sources.jar (kt/Geometry.kt): its line table") and "distanceFrom" in m
               for m in messages), messages
    assert any("kt-1.0-sources.jar declares fun kt.Vec#distanceFrom(Vec)" in m for m in messages), messages
    assert any("kt-1.0-sources.jar declares fun kt.Vec#extra()" in m for m in messages), messages
    ok = service.body("kt.Vec#getX()")
    assert ok.result["origin"] == "sources"  # the rest of the file still answers, with the warnings
    assert sum(w.code == "SOURCES_VERSION_MISMATCH" for w in ok.warnings) == 2
    moved = service.body("kt.Vec#scale(int)")  # below the edit: found by name, its lines moved
    assert moved.result["origin"] == "sources" and moved.result["text"][0].strip() == "fun scale(k: Int): Vec ="
    drift = [w.message for w in moved.warnings if "compiled kt.Vec#scale(int) from other lines" in w.message]
    assert len(drift) == 1 and "function scale is at line" in drift[0], [w.message for w in moved.warnings]


def test_a_broken_kt_file_is_a_named_warning_and_a_labelled_fallback(services, layout, jdx_env):
    answer = services("broken").body("kt.TopKt#fetch(int, kotlin.coroutines.Continuation)")
    codes = [w.code for w in answer.warnings]
    assert "SOURCE_PARSE_ERROR" in codes and "SOURCES_VERSION_MISMATCH" not in codes
    assert answer.result["origin"] in ("decompiled", "javap")
    from tests.cli import golden

    args = ["--jars", str(layout.broken), "--no-jdk"]
    with golden.in_process(jdx_env) as run:
        assert run(args + ["index"]).code == 0
        r = run(args + ["body", "kt.TopKt#fetch"])
        d = run(args + ["doc", "kt.TopKt#clamp"])
    assert r.code == 0 and "Traceback" not in r.out + r.err and "SOURCE_PARSE_ERROR" in r.out + r.err
    assert d.code == 0 and "Traceback" not in d.out + d.err


def test_no_sources_says_so_for_kotlin_too(services):
    answer = services("bare").body("kt.Vec#distanceTo(kt.Vec)")
    assert [w.code for w in answer.warnings][:1] == ["NO_SOURCES"]
    assert "not Java" not in answer.warnings[0].message


# --- units ---------------------------------------------------------------------------------------

def test_one_line_type_bodies_parse():
    from jdx.engine.kotlin_parse import parse_kotlin

    parsed = parse_kotlin(b"package p\n\nobject A { fun f() = 1 }\nclass B { val x = 2 }\n")
    assert parsed.errors == 0
    assert [(d.kind, d.name, d.path) for d in parsed.decls] == [
        ("object", "A", ["A"]), ("function", "f", ["A"]), ("class", "B", ["B"]), ("property", "x", ["B"])]


def test_unparseable_bytes_give_errors_not_exceptions():
    from jdx.engine.kotlin_parse import parse_kotlin

    for data in (b"\xff\xfe\x00garbage{{{", b"fun (((( class ]]]", b"", b"}" * 10000, b"(" * 20000):
        parsed = parse_kotlin(data)
        assert parsed.errors >= 0 and isinstance(parsed.decls, list)


def test_kdoc_markdown():
    from jdx.engine import kdoc

    doc, links = kdoc.parse("/**\n * First **bold** `code` and [a.B] or [label][C] or [site](https://x.y).\n"
                            " *\n * - one\n * - two\n *   continued\n * a[0] stays.\n"
                            " * @param[x] the x\n * @throws IllegalStateException when\n"
                            " *   it is so\n * @sample p.sampleOf\n */",
                            lambda t: {"a.B": "a.B", "C": "p.C"}.get(t))
    assert doc.paragraphs == ["First bold code and a.B or label (p.C) or site (https://x.y).",
                              "- one\n- two continued a[0] stays."]
    assert doc.tags == [("param", "x", "the x"), ("throws", "IllegalStateException", "when it is so"),
                        ("sample", None, "p.sampleOf")]
    assert [lk["ref"] for lk in links] == ["a.B", "p.C", None, None]


# --- the real standard library (soak) -------------------------------------------------------------

@pytest.mark.soak
def test_stdlib_bodies_and_docs_from_its_sources_jar(jdx_home):
    """kotlin-stdlib with its `-sources.jar` from the local Maven repository: `listOf` through the multi-file
    facade CollectionsKt, KDoc of well-known functions, and every public function of a sample of facades
    answered from the sources without a mismatch."""
    from tests.kotlin.corpus import M2, STDLIB_VERSIONS

    found = [(v, M2 / f"kotlin-stdlib/{v}/kotlin-stdlib-{v}.jar") for v in reversed(STDLIB_VERSIONS)]
    found = [(v, jar) for v, jar in found if jar.exists() and jar.with_name(f"kotlin-stdlib-{v}-sources.jar").exists()]
    if not found:
        print("skipped: no kotlin-stdlib-*-sources.jar beside a kotlin-stdlib jar in ~/.m2")
        pytest.skip("no kotlin-stdlib-*-sources.jar beside a kotlin-stdlib jar in the local Maven repository")
    version, jar = found[0]
    service = JdxService(Options(jars=[str(jar)], jdk=False, cache_dir=str(jdx_home / "cache")))
    try:
        body = service.body("kotlin.collections.CollectionsKt#listOf(Object[])")
        assert body.result["origin"] == "sources", (body.result["header"], body.warnings)
        assert "fun <T> listOf(vararg elements: T): List<T>" in "\n".join(body.result["text"])
        for ref, words in (("kotlin.collections.CollectionsKt#listOf(Object[])", "list"),
                           ("kotlin.text.StringsKt#trim(String)", "whitespace"),
                           ("kotlin.collections.CollectionsKt#first(java.util.List)", "first")):
            item = service.doc(ref, DocOptions()).result["docs"][0]
            assert words in " ".join(item["text"]).lower(), (ref, item["text"])
        store = service.store()
        mismatched, answered = [], 0
        for facade in ("kotlin/collections/CollectionsKt", "kotlin/text/StringsKt", "kotlin/io/FilesKt"):
            for m in store.rows("MATCH (t:Type {id: $id})-[:DECLARES]->(m:Method) WHERE m.access % 2 = 1 "
                                "RETURN m.name AS name, m.descriptor AS descriptor ORDER BY name, descriptor",
                                {"id": facade}):
                ref = format_member(facade, m["name"], m["descriptor"])
                answer = service.body(ref)
                answered += answer.result["origin"] == "sources"
                mismatched += [(ref, w.message) for w in answer.warnings if w.code == "SOURCES_VERSION_MISMATCH"]
        print(f"kotlin-stdlib {version}: {answered} facade methods answered from sources, {len(mismatched)} mismatches")
        assert answered > 500 and not mismatched, mismatched[:10]
    finally:
        service.close()


def test_hostile_kdoc_is_text_not_a_hang_or_a_crash():
    from jdx.engine import kdoc

    for raw in ("/** " + "**a " * 20000 + " */", "/** " + "[x" * 30000 + " */", "/** ```" + "`a" * 20000 + " */",
                "/**\n" + " * ```\n" * 5001 + " */", "/** @param */", "/** @see */", "/**/", "/** [] [](x) [a][] */"):
        doc, links = kdoc.parse(raw, lambda target: None)
        assert isinstance(doc.paragraphs, list) and all(link["ref"] is None for link in links)
