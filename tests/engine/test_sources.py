"""Sources pairing, tree-sitter declarations, member matching, body / source / doc on fixtures compiled at
test time in every layout spec §5.2 names (tests/fixtures/build_sources.py)."""

from __future__ import annotations

import pytest

from jdx.engine import javadoc as jd
from jdx.engine import src_body
from jdx.engine import src_decompiled
from jdx.engine.java_parse import parse_source
from tests.service import JdxService, Options
from jdx.engine.source_match import descriptor_params
from jdx.engine.sources import paired_jars, source_roots
from jdx.engine.src_doc import DocOptions
from jdx.errors import AmbiguousError, NotFoundError, UsageError
from jdx.graph_schema import queries
from tests.fixtures.build_sources import build_layouts

SX_TYPES = ["sx/Shapes", "sx/Shapes$1", "sx/Shapes$1Counter", "sx/Shapes$Corner", "sx/Shapes$Point", "sx/Color",
            "sx/Color$1", "sx/Range", "sx/Named", "sx/Dog"]


@pytest.fixture(scope="module")
def layouts(jdx_home):
    return build_layouts(jdx_home)


@pytest.fixture(scope="module")
def services(layouts, jdx_home):
    """One service per layout, without the JDK (fast to index); closed at the end."""
    cache = str(jdx_home / "cache")
    made = {}

    def get(name: str, **extra) -> JdxService:
        if name not in made:
            jars = {"paired": layouts.paired, "bare": layouts.bare, "stale": layouts.stale,
                    "embedded": layouts.embedded, "maven": layouts.maven, "gradle": layouts.gradle,
                    "srcdir": layouts.bare, "explicit": layouts.bare}[name]
            opts = Options(jars=[str(jars)], jdk=False, cache_dir=cache)
            if name == "srcdir":
                opts.src = [str(layouts.srcdir)]
            if name == "explicit":
                opts.sources = [str(layouts.explicit_sources)]
            made[name] = JdxService(opts)
        return made[name]

    yield get
    for s in made.values():
        s.close()


# --- pairing -------------------------------------------------------------------------------------

@pytest.mark.parametrize("layout,label,how", [
    ("paired", "sx-1.0-sources.jar", "sibling"),
    ("stale", "sx-1.0-sources.jar", "sibling"),
    ("maven", "sx-1.0-sources.jar", "maven"),
    ("gradle", "sx-1.0-sources.jar", "gradle"),
    ("embedded", "sx-embedded-1.0.jar", "embedded"),
    ("srcdir", "srcdir", "--src"),
    ("explicit", "sx-src.zip", "--sources"),
])
def test_body_names_where_the_sources_came_from(services, layouts, layout, label, how):
    """Every pairing rule of spec §5.2 finds the file and the provenance line names it; a source directory by its
    path (no project here: absolute), so the file opens from it."""
    answer = services(layout).body("sx.Shapes#area(double)")
    r = answer.result
    named = str(layouts.srcdir) if layout == "srcdir" else label
    assert r["origin"] == "sources" and r["source"]["how"] == how
    assert r["header"] == f"source: {named} (sx/Shapes.java:45-47)"
    assert r["text"] == ["    public static double area(double r) {", "        return Math.PI * r * r;", "    }"]
    root = {"root": str(layouts.srcdir)} if layout == "srcdir" else {}
    assert answer.provenance == [{"symbol": "sx.Shapes#area(double)", "artifact": answer.result["artifact"],
                                  "origin": "sources", "file": "sx/Shapes.java", "lines": [45, 47],
                                  "sources": label, **root}]
    assert not [w for w in answer.warnings if w.code != "ARTIFACT_READ_ERROR"]


def test_gradle_sources_live_in_another_hash_directory(layouts):
    roots = paired_jars(str(layouts.gradle))
    assert [(r.how, r.label) for r in roots] == [("gradle", "sx-1.0-sources.jar")]
    assert "/9f8e7d/" in roots[0].path


def test_jdk_modules_pair_with_src_zip(tmp_path):
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "src.zip").write_bytes(b"PK\x05\x06" + b"\0" * 18)
    roots = source_roots("jrt", "jrt:/java.base", f"jrt:{tmp_path}!java.base", [], [])
    assert [(r.how, r.label, r.prefix) for r in roots] == [("src.zip", "src.zip", "java.base/")]


def test_explicit_sources_come_first(layouts):
    roots = source_roots("jar", str(layouts.paired), f"jar:{layouts.paired}", [str(layouts.explicit_sources)],
                         [str(layouts.srcdir)])
    assert [r.how for r in roots] == ["--sources", "sibling", "embedded", "--src"]


def test_bare_jar_is_decompiled_and_labelled(services):
    answer = services("bare").body("sx.Shapes#area(double)")
    r = answer.result
    codes = [w.code for w in answer.warnings]
    if r["origin"] == "decompiled":
        assert r["header"].startswith("source: decompiled by ") and r["header"].endswith("⚠ reconstructed")
        assert "(no sources jar)" in r["header"]
        assert r["text"][0].strip().startswith("public static double area(")
        parsed = parse_source("\n".join(["class W {"] + r["text"] + ["}"]).encode())
        assert parsed.errors == 0  # the decompiled body parses as Java
    else:  # no decompiler on this machine: the next rung, labelled
        assert "DECOMPILER_UNAVAILABLE" in codes and r["origin"] in ("javap", "signature")
    assert "NO_SOURCES" in codes


# --- matching: every method of every fixture class -------------------------------------------------

def _methods(service, type_id):
    rows = service.store().rows(queries.MEMBERS_OF, {"id": type_id})
    return [{k[2:]: v for k, v in r.items()} for r in rows]


@pytest.mark.parametrize("type_id", SX_TYPES)
def test_every_fixture_method_finds_its_declaration(services, type_id):
    """Overloads, generics, varargs, anonymous/local/inner classes, enums, records, constructors and static
    initialisers: each non-synthetic method's body comes from the sources, begins with its declaration and
    contains the LineNumberTable lines; compiler-written ones are labelled implicit."""
    service = services("paired")
    ctx = service.source_context()
    type_row = ctx.type_row(type_id)
    implicit = []
    for m in _methods(service, type_id):
        if m["access"] & 0x1040:
            continue
        target = src_body.Target(type_row, f"{type_id}#{m['name']}{m['descriptor']}", m["kind"], m)
        r, warnings, _ = src_body.body(ctx, target, src_body.BodyOptions())
        assert r["origin"] == "sources", (target.ref, r["header"])
        assert not warnings, (target.ref, warnings)
        if r["implicit"]:
            implicit.append((m["name"], r["implicit"]))
            continue
        decls = [d for d in parse_source(("class W {\n" + "\n".join(r["text"]) + "\n}").encode()).decls
                 if d.kind in ("method", "constructor", "compact_constructor", "static_initializer")]
        first = decls[0]
        if m["name"] == "<init>":
            assert first.kind in ("constructor", "compact_constructor")
        elif m["name"] == "<clinit>":
            assert first.kind == "static_initializer"
        else:
            assert (first.name, len(first.params)) == (m["name"], len(descriptor_params(m["descriptor"])))
        a, b = r["source"]["lines"]
        if m["first_line"] > 0 and m["name"] not in ("<init>", "<clinit>"):
            assert a <= m["first_line"] and m["last_line"] <= b, target.ref
    expected = {"sx/Color": {("values", "enum method written by the compiler"),
                             ("valueOf", "enum method written by the compiler"),
                             ("<clinit>", "static initializer made of field initializers only")},
                "sx/Shapes$1": {("<init>", "constructor of an anonymous class")},
                "sx/Color$1": {("<init>", "constructor of an anonymous class")},
                "sx/Shapes$1Counter": {("<init>", "default constructor")},
                "sx/Shapes$Point": {("<init>", "default constructor")},
                "sx/Dog": {("<init>", "default constructor")},
                "sx/Range": {("lo", "record component accessor"), ("hi", "record component accessor"),
                             ("equals", "record method written by the compiler"),
                             ("hashCode", "record method written by the compiler"),
                             ("toString", "record method written by the compiler")}}
    assert set(implicit) == expected.get(type_id, set())


@pytest.mark.parametrize("ref,first_line", [
    ("sx.Shapes#<init>(Comparable, Comparable...)", "    @SafeVarargs"),
    ("sx.Shapes#<init>()", "    public Shapes() {"),
    ("sx.Shapes#area(int, int)", "    public static int area(int w, int h) {"),
    ("sx.Shapes#area(double, double)", "    public static double area(double w, double h) {"),
    ("sx.Shapes$1#run", "            @Override"),
    ("sx.Shapes$1Counter#bump", "            void bump() {"),
    ("sx.Shapes$Corner#<init>", "        public Corner(int index) {"),
    ("sx.Shapes$Corner#owner", "        public T owner() {"),
    ("sx.Color$1#label", "        @Override"),
    ("sx.Color#<init>", "    Color(int brightness) {"),
    ("sx.Range#<init>(int, int)", "    public Range {"),
    ("sx.Range#<init>(int)", "    public Range(int only) {"),
    ("sx.Shapes#<clinit>", "    static {"),
    ("sx.Shapes#made", "    static int made;"),
    ("sx.Shapes$Point", "    public static class Point {"),
    ("sx.Named#name", "    String name();"),
])
def test_body_of_odd_shapes(services, ref, first_line):
    assert services("paired").body(ref).result["text"][0] == first_line


def test_stale_sources_warn_both_ways_and_fall_back(services):
    """The binary's fetch() and SOUND are absent from the stale sources; the sources' fetch(int), sit() and
    barks are absent from the binary. Structure from bytecode, the body reconstructed."""
    answer = services("stale").body("sx.Dog#fetch")
    messages = [w.message for w in answer.warnings if w.code == "SOURCES_VERSION_MISMATCH"]
    assert messages[0] == ("sx-1.0.jar declares sx.Dog#fetch() which is absent from sx-1.0-sources.jar "
                           "(sx/Dog.java). Structure shown from bytecode.")
    assert any("declares sx.Dog#fetch(int) (line 15) which is absent from sx-1.0.jar" in m for m in messages)
    assert any("declares sx.Dog#sit() (line 19)" in m for m in messages)
    assert answer.result["origin"] != "sources"
    ok = services("stale").body("sx.Dog#name")
    assert ok.result["origin"] == "sources" and ok.result["header"] == "source: sx-1.0-sources.jar (sx/Dog.java:4-7)"
    fields = [w.message for w in ok.warnings if w.code == "SOURCES_VERSION_MISMATCH" and " field " in w.message]
    assert fields == ["sx-1.0.jar declares field sx.Dog#SOUND which is absent from sx-1.0-sources.jar (sx/Dog.java). "
                      "Structure shown from bytecode.",
                      "sx-1.0-sources.jar declares field sx.Dog#barks (line 22) which is absent from sx-1.0.jar. "
                      "Structure shown from bytecode."]
    assert sum(w.code == "SOURCES_VERSION_MISMATCH" for w in ok.warnings) == 4
    fresh = services("paired").body("sx.Dog#fetch")
    assert fresh.result["origin"] == "sources" and not fresh.warnings


def test_body_flags(services):
    s = services("paired")
    doc = s.body("sx.Shapes#area(double)", src_body.BodyOptions(with_doc=True)).result
    assert doc["text"][0] == "    /**" and doc["source"]["lines"] == [39, 47]
    ctx = s.body("sx.Shapes#area(double)", src_body.BodyOptions(context=2)).result
    assert ctx["source"]["lines"] == [43, 49] and ctx["first_line"] == 43
    sig = s.body("sx.Shapes#count", src_body.BodyOptions(with_signature=True)).result
    assert sig["signature"] == "public <K, V extends List<K>> int count(Map<K, V> map, K... keys)"
    with pytest.raises(UsageError):
        s.body("sx.Shapes#area(double)", src_body.BodyOptions(engine="fernflower"))
    with pytest.raises(AmbiguousError):
        s.body("sx.Shapes#area")
    with pytest.raises(NotFoundError):
        s.body("sx.Shapes#areaa")


def test_javap_engine_and_the_signature_rung(services, monkeypatch):
    s = services("paired")
    r = s.body("sx.Shapes#area(double)", src_body.BodyOptions(engine="javap")).result
    assert r["origin"] == "javap" and "⚠ bytecode, not source" in r["header"]
    assert any("dmul" in line for line in r["text"])

    def broken(*_a, **_k):
        raise RuntimeError("no javap here")

    monkeypatch.setattr(src_body, "_from_javap", broken)
    answer = s.body("sx.Shapes#area(double)", src_body.BodyOptions(engine="javap"))
    assert answer.result["origin"] == "signature"
    assert answer.result["text"] == ["public static double area(double r)"]
    assert [w.code for w in answer.warnings] == ["JAVAP_FAILED", "SIGNATURES_ONLY"]
    # it says what was tried and how it ended, not that the tools are missing
    assert answer.warnings[-1].message == ("sx.Shapes#area(double): no sources, not decompiled (--engine javap), "
                                           "javap failed; the signature from bytecode is all there is")


def test_decompiler_timeout_falls_back_with_a_named_warning(layouts, jdx_home, tmp_path, monkeypatch):
    """A decompiler that does not answer in time never hangs `body`: DECOMPILE_TIMEOUT, then javap."""
    from jdx.loaders import decompile

    if not decompile.available_engines():
        pytest.skip("no decompiler installed")
    import shutil

    # a copy of its own: no Procyon type system kept from another test's run over the same jar answers at once
    jar = shutil.copy(layouts.bare, tmp_path / "bare-copy.jar")
    service = JdxService(Options(jars=[str(jar)], jdk=False, cache_dir=str(jdx_home / "cache")))
    try:
        service.body("sx.Range#length")  # the engine loads with the normal timeout (a load that times out
        monkeypatch.setattr(src_decompiled, "DECOMPILE_TIMEOUT", 1e-6)  # counts as an unusable engine instead)
        monkeypatch.setattr(decompile, "_cache_file", lambda cache, engine, key: tmp_path / "never" / f"{key}.java")
        answer = service.body("sx.Shapes#max")
    finally:
        service.close()
    codes = [w.code for w in answer.warnings]
    assert "DECOMPILE_TIMEOUT" in codes and answer.result["origin"] in ("javap", "signature")


# --- source ----------------------------------------------------------------------------------------

def test_source_whole_slice_and_around(services, layouts):
    s = services("paired")
    whole = s.source("sx.Range").result
    assert whole["text"] == layouts.sources["sx/Range.java"].splitlines()
    assert whole["header"] == f"source: sx-1.0-sources.jar (sx/Range.java:1-{len(whole['text'])})"
    part = s.source("sx.Shapes", lines="45:47").result
    assert part["text"][0] == "    public static double area(double r) {" and part["first_line"] == 45
    around = s.source("sx.Shapes", around="area(double)", context=1).result
    assert around["source"]["lines"] == [44, 48]
    nested = s.source("sx.Shapes$Corner", lines="100:").result
    assert nested["source"]["lines"] == [100, len(layouts.sources["sx/Shapes.java"].splitlines())]
    for bad in ("0:3", "9:2", "x"):
        with pytest.raises(UsageError):
            s.source("sx.Shapes", lines=bad)
    with pytest.raises(UsageError):
        s.source("sx.Shapes", lines="9999")


def test_source_window_for_samples(services):
    w = services("paired").source_window("sx/Shapes$1", 82, context=1)
    assert w == {"label": "sx-1.0-sources.jar", "file": "sx/Shapes.java", "lines": [81, 83], "first_line": 81,
                 "focus": 82, "text": ["            public void run() {",
                                       '                System.out.println("shape " + name);', "            }"]}
    assert services("bare").source_window("sx/Shapes", 82) is None


# --- doc -------------------------------------------------------------------------------------------

def test_doc_renders_html_links_and_tags(services):
    r = services("paired").doc("sx.Named#greet").result["docs"][0]
    assert r["inherited_from"] is None
    assert r["text"] == ["A greeting that uses name().", "", "- polite: Please", "", "- otherwise: Hi", "",
                         "@param polite  whether to say please", "@return the greeting", "@since 1.1"]


def test_doc_inherits_from_the_interface(services):
    s = services("paired")
    name = s.doc("sx.Dog#name").result["docs"][0]
    assert name["inherited_from"] == "sx.Named#name()"
    assert name["text"] == ["The name of this thing.", "", "@return a non-empty name"]
    greet = s.doc("sx.Dog#greet").result["docs"][0]  # {@inheritDoc} plus its own words
    assert greet["inherited_from"] == "sx.Named#greet(boolean)"
    assert greet["text"][:7] == ["A greeting that uses name().", "", "- polite: Please", "", "- otherwise: Hi", "",
                                 "Dogs bark it."]
    assert "@param polite  whether to say please" in greet["text"]
    own = s.doc("sx.Dog#name", DocOptions(inherited=False))
    assert own.result["docs"][0]["text"] == [] and [w.code for w in own.warnings] == ["NO_DOC"]


def test_doc_of_a_type_a_record_and_without_sources(services):
    s = services("paired")
    shapes = s.doc("sx.Shapes").result["docs"][0]
    assert shapes["text"] == ["Geometry helpers: overloads, generics, varargs and nested classes. "
                              "See Shapes.area(double) and Shapes.area."]
    assert shapes["first_sentence"] == "Geometry helpers: overloads, generics, varargs and nested classes."
    rng = s.doc("sx.Range").result["docs"][0]
    assert rng["text"][-2:] == ["@param lo  the lower bound", "@param hi  the upper bound"]
    bare = services("bare").doc("sx.Shapes")
    assert [w.code for w in bare.warnings] == ["NO_SOURCES"]


def test_first_sentence_docs(services):
    """The members --with-doc hook: one sentence per `members` item, inherited when the member has none."""
    from jdx.engine.members import MemberOptions

    s = services("paired")
    items = s.members("sx.Dog", MemberOptions(access=("all",))).result["members"]
    out = s.first_sentence_docs(items)
    assert out == {"sx.Dog#name()": "The name of this thing.", "sx.Dog#greet(boolean)": "A greeting that uses name()."}


# --- units -----------------------------------------------------------------------------------------

def test_javadoc_rendering_units():
    doc = jd.parse("/**\n * Returns {@code x < y}, see {@link java.util.List#add(Object) add}.\n *\n"
                   " * <pre>\n *   a();\n *     b();\n * </pre>\n * @throws IllegalStateException when closed\n"
                   " * @deprecated use {@link #other()}\n * @author nobody\n */")
    assert jd.render(doc) == ["@deprecated use other()", "", "Returns x < y, see add.", "", "    a();", "      b();",
                              "", "@throws IllegalStateException  when closed"]
    assert jd.first_sentence(jd.parse("/** Does it. Then more. */")) == "Does it."
    assert jd.first_sentence(jd.parse("/** Uses e.g. this. Then more. */")) == "Uses e.g. this."


def test_parse_keys_erasure_and_varargs():
    src = b"""package p;
class A<T extends Comparable<T>> {
  <U extends T> U m(java.util.Map.Entry<String, U>[] e, T t, int d[], String... rest) { return null; }
  Object f = new Object() { };
  void g() { Runnable r = () -> { class L {} }; new Thread(new Runnable() { public void run() {} }) { }; }
}"""
    p = parse_source(src)
    m = next(d for d in p.decls if d.name == "m")
    assert m.params == ["Entry[]", "Comparable", "int[]", "String[]"] and m.varargs
    assert [d.path for d in p.types()] == [["A"], ["A", "1"], ["A", "1L"], ["A", "2"], ["A", "3"]]
    assert descriptor_params("(ILjava/util/Map$Entry;[[Ljava/lang/String;Lp/A$1L;)V") == \
        ["int", "Entry", "String[][]", "L"]


def test_clinit_spans_every_static_block():
    from jdx.engine.source_match import match_method

    src = b"class A {\n  static int a;\n  static { a = 1; }\n  static int b = 2;\n  static {\n    b = a;\n  }\n}\n"
    row = {"name": "<clinit>", "descriptor": "()V", "access": 8, "first_line": 3, "last_line": 6}
    decl = match_method(parse_source(src), row, {"id": "A", "kind": "class"}, ["A"]).decl
    assert (decl.start, decl.end) == (3, 7)


def test_source_engines(services):
    s = services("paired")
    javap = s.source("sx.Range", engine="javap").result
    assert javap["origin"] == "javap" and javap["text"][0] == 'Compiled from "Range.java"'
    assert any("java.lang.Record" in line for line in javap["text"][:3])
    with pytest.raises(UsageError):
        s.source("sx.Range", engine="javap", around="length")
    with pytest.raises(UsageError):
        s.source("sx.Range", engine="jad")
    from jdx.loaders import decompile

    if decompile.available_engines():
        forced = s.source("sx.Range", engine=decompile.available_engines()[0][0], around="length", context=0)
        assert forced.result["origin"] == "decompiled" and not forced.warnings
        assert forced.result["text"][0].strip() == "public int length() {"
        assert "(--engine " in forced.result["header"]


def test_show_doc_line_hook(services):
    s = services("paired")
    assert s.type_first_sentence("sx/Shapes") == "Geometry helpers: overloads, generics, varargs and nested classes."
    assert s.type_first_sentence("sx/Dog") is None and services("bare").type_first_sentence("sx/Shapes") is None


@pytest.mark.parametrize("type_id", ["sx/Shapes", "sx/Color", "sx/Range", "sx/Dog"])
def test_decompiled_classes_parse_as_java(services, type_id):
    """Procyon's (or Vineflower's) text of every fixture class parses with no tree-sitter error, and every
    method the bytecode declares outside anonymous classes is found in it."""
    from jdx.loaders import decompile

    if not decompile.available_engines():
        pytest.skip("no decompiler installed")
    s, paired = services("bare"), services("paired")
    ctx, pctx = s.source_context(), paired.source_context()
    engine = decompile.available_engines()[0][0]
    file, keys, _dec = src_decompiled.decompiled_file(ctx, ctx.type_row(type_id))
    assert file.parsed.errors == 0, file.data.decode()
    for m in _methods(s, type_id):
        if m["access"] & 0x1040 or m["name"] == "<clinit>":
            continue
        target = src_body.Target(ctx.type_row(type_id), m["name"], m["kind"], m)
        if src_body.body(pctx, target, src_body.BodyOptions())[0]["implicit"]:
            continue  # compiler-written: decompilers leave default constructors and enum values() out
        r, w, _p = src_body.body(ctx, target, src_body.BodyOptions(engine=engine))
        assert r["origin"] == "decompiled" and not w, (m, r["header"], w)
        name = type_id.rsplit("/", 1)[-1] if m["name"] == "<init>" else m["name"]
        assert any(name + "(" in line or f"{name} {{" in line for line in r["text"][:3]), r["text"][:3]


def test_zip_index_reads_entries_like_zipfile(layouts, tmp_path, monkeypatch):
    """Large archives (src.zip) are read through an on-disk entry index; its bytes equal zipfile's."""
    import zipfile

    from jdx.engine import sources

    monkeypatch.setattr(sources, "INDEX_MIN_BYTES", 0)
    monkeypatch.setattr(sources, "_INDEXES", {})
    jar = layouts.paired.with_name("sx-1.0-sources.jar")
    root = sources.SourceRoot("zip", str(jar), jar.name, "sibling", "", str(tmp_path))
    with zipfile.ZipFile(jar) as z:
        for name in z.namelist():
            assert root.read(name) == z.read(name)
    assert root.read("sx/Nope.java") is None
    assert list((tmp_path / "srcindex").glob("*.json"))
    monkeypatch.setattr(sources, "_INDEXES", {})  # a second process: the index comes from disk
    assert root.read("sx/Dog.java") == layouts.sources["sx/Dog.java"].encode()


def test_non_java_source_files_are_named_in_the_warning():
    target = src_body.Target({"id": "k/A", "source_file": "A.groovy", "artifact": ""}, "k.A", "class")
    assert src_body._sources_missing_why(None, target) == \
        "its source file A.groovy is neither Java nor Kotlin (only .java and .kt sources are read)"


def test_every_method_of_the_fx_fixtures_from_a_src_dir(jdx_home):
    """A second corpus written by someone else (tests/fixtures/fx, compiled by tests/fixtures/build.py),
    read back through `--src tests/fixtures`: bridges, covariant returns, inner-class constructors, enums,
    records, anonymous and local classes, code compiled without debug information."""
    from pathlib import Path

    from tests.fixtures.build import fixtures_jar

    service = JdxService(Options(jars=[str(fixtures_jar(jdx_home))], jdk=False, src=[str(Path(__file__).parents[1]
                                                                                          / "fixtures")],
                                 cache_dir=str(jdx_home / "cache")))
    try:
        ctx = service.source_context()
        types = [r["id"] for r in service.store().query(
            "MATCH (t:Type) WHERE NOT t.external AND t.id STARTS WITH 'fx/' RETURN t.id AS id ORDER BY id").to_pylist()]
        assert len(types) > 15
        checked = 0
        for tid in types:
            type_row = ctx.type_row(tid)
            for m in _methods(service, tid):
                if m["access"] & 0x1040:
                    continue
                target = src_body.Target(type_row, f"{tid}#{m['name']}{m['descriptor']}", m["kind"], m)
                r, warnings, _ = src_body.body(ctx, target, src_body.BodyOptions())
                assert r["origin"] == "sources" and r["source"]["how"] == "--src", (target.ref, r["header"])
                assert not [w for w in warnings if w.code == "SOURCES_VERSION_MISMATCH"], (target.ref, warnings)
                if r["implicit"]:
                    continue
                checked += 1
                text = "\n".join(r["text"])
                if m["name"] not in ("<init>", "<clinit>"):
                    assert m["name"] + "(" in text.split("{")[0].replace(" (", "("), (target.ref, r["text"][:2])
        assert checked > 40
    finally:
        service.close()


def test_doc_inherited_into_a_class_without_sources(jdx_home):
    """A jar without sources overriding a JDK generic method (`StringList extends ArrayList<String>`,
    `add(String)` overrides `add(E)`) still gets the JDK's javadoc, labelled both ways. The workspace is
    fixtures.jar + JDK, the graph tests/engine/test_cards.py builds too."""
    from tests.fixtures.build import fixtures_jar

    service = JdxService(Options(jars=[str(fixtures_jar(jdx_home))], cache_dir=str(jdx_home / "cache")))
    try:
        answer = service.doc("fx.StringList#add(String)")
    finally:
        service.close()
    item = answer.result["docs"][0]
    assert item["inherited_from"] == "java.util.ArrayList#add(java.lang.Object)"
    assert item["text"][0] == "Appends the specified element to the end of this list."
    assert [w.message for w in answer.warnings if w.code == "NO_SOURCES"] == [
        "fx.StringList: no sources, the javadoc shown is java.util.ArrayList#add(java.lang.Object)'s "
        "(pass --sources <jar> or --src <dir>)"]


def test_dotted_refs_name_types_or_members(services):
    s = services("paired")
    assert s.body("sx.Shapes.area(double)").result["text"][0] == "    public static double area(double r) {"
    assert s.body("sx.Shapes.Point").result["kind"] == "class"
    assert s.doc("sx.Named.name").result["docs"][0]["ref"] == "sx.Named#name()"
    with pytest.raises(NotFoundError) as miss:
        s.body("sx.Shapes.aera")
    assert [c["ref"] for c in miss.value.candidates][:1] == ["sx.Shapes#area(double)"]
    with pytest.raises(NotFoundError) as typo:
        s.body("sx.Shapez")
    assert "sx.Shapes" in [c["ref"] for c in typo.value.candidates]


def test_implicit_members_in_decompiled_text(services):
    """Without sources, a compiler-written member (an anonymous class's constructor, an enum's values())
    is labelled implicit in the decompiled text too, not reported as missing."""
    from jdx.loaders import decompile

    if not decompile.available_engines():
        pytest.skip("no decompiler installed")
    s = services("bare")
    for ref in ("sx.Shapes$1#<init>", "sx.Color#values"):
        answer = s.body(ref)
        assert answer.result["origin"] == "decompiled" and answer.result["implicit"], (ref, answer.result["header"])
        assert [w.code for w in answer.warnings] == ["NO_SOURCES"]


@pytest.mark.parametrize("source_file,top", [("../../etc/passwd.java", "p/A"), ("/etc/x.java", "p/A"),
                                            ("A.java", "p/../A"), ("A.java", "/A"), ("A.kt", "p/A")])
def test_source_paths_never_leave_their_root(source_file, top):
    from jdx.engine.src_locate import source_rel

    assert source_rel({"source_file": source_file}, top) is None
    assert source_rel({"source_file": "A.java"}, "p/A") == "p/A.java"


def test_javadoc_code_keeps_angle_brackets_and_links_do_not_break_paragraphs():
    raw = """/**
 * <p>This class is a member of the
 * <a href="{@docRoot}/java.base/java/util/package-summary.html#CollectionsFramework">
 * Java Collections Framework</a>.
 * Produces a {@code Map<K, List<T>>}, {@literal a<b>} and &lt;html&gt;.
 *
 * <pre>{@code
 * Map<String, List<T>> m = new HashMap<>();
 *
 * if (a < b) { m.put(x, y); }
 * }</pre>
 * @return a {@code List<T>}
 */"""
    assert jd.render(jd.parse(raw)) == [
        "This class is a member of the Java Collections Framework. Produces a Map<K, List<T>>, a<b> and <html>.",
        "", "    Map<String, List<T>> m = new HashMap<>();", "", "    if (a < b) { m.put(x, y); }", "",
        "@return a List<T>"]


def test_parse_survives_expressions_deeper_than_the_recursion_limit():
    """Generated tables (the JDK's sun.nio.cs.ext.IBM33722) concatenate thousands of literals: the walk for
    anonymous classes must not recurse per expression level, and still finds a class behind the chain."""
    from jdx.engine.java_parse import parse_source

    chain = " + ".join(f'"s{i}"' for i in range(5000))
    src = ("package p;\npublic class Deep {\n"
           f"    static final String S = {chain};\n"
           "    Runnable r() { return new Runnable() { public void run() { String t = " + chain + "; } }; }\n"
           "}\n").encode()
    parsed = parse_source(src)
    names = [(d.kind, d.name) for d in parsed.decls]
    assert ("field", "S") in names and ("method", "r") in names
    assert any(d.kind == "class" and d.path == ["Deep", "1"] for d in parsed.decls), names  # Deep$1


def test_a_source_directory_is_labelled_by_the_module_not_the_language():
    """A discovered project's `src/main/java` read `sources: java · … · java` (a trial): the label climbs past the
    layout words to the directory naming the module; a directory named for itself keeps its name."""
    from jdx.engine.sources import dir_label

    assert dir_label("/w/proj/src/main/java") == "proj/src/main/java"
    assert dir_label("/w/proj/src/test/kotlin") == "proj/src/test/kotlin"
    assert dir_label("/w/gson-src") == "gson-src" and dir_label("/src") == "src"


def test_src_roots_carry_the_label(tmp_path):
    from jdx.engine.sources import src_dir_roots

    java = tmp_path / "app" / "src" / "main" / "java"
    java.mkdir(parents=True)
    assert {r.label for r in src_dir_roots([str(java)])} == {"app/src/main/java"}
