"""search, resolve, imports, ls and tree on a real workspace: gson plus the JDK (one graph for the module)."""

from __future__ import annotations

import re
import zipfile

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from jdx.engine.ranking import PUBLIC_MEMBER, internal_packages, is_jdk_internal, nesting, package_of, reach
from jdx.engine.search import SearchOptions, parse_kinds, search
from jdx.engine.search_match import EXACT, HUMP, LOOSE_PREFIX, PREFIX, WORD, compile_pattern
from jdx.engine.imports import imports
from jdx.engine.packages import artifact_tree, list_packages
from jdx.engine.search_nav import parse_frame, resolve
from tests.service import JdxService, Options
from jdx.errors import AmbiguousError, NotFoundError, UsageError
from tests.conftest import GSON, require
from tests.fixtures import jdktool

TIERS = {"exact": EXACT, "prefix": PREFIX, "camel-hump": HUMP, "prefix-any-case": LOOSE_PREFIX,
         "camel-hump-any-case": LOOSE_PREFIX, "word": WORD,
         "glob": HUMP, "regex": HUMP}
ORIGINS = {"workspace": 0, "dependency": 1, "jdk": 2}


@pytest.fixture(scope="module")
def store(jdx_home):
    service = JdxService(Options(jars=[str(require(GSON))], cache_dir=str(jdx_home / "cache")))
    yield service.store()
    service.close()


def find(store, text, **kw):
    return search(store, text, SearchOptions(**kw))


def refs(result) -> list[str]:
    return [m["ref"] for m in result[0]["matches"]]


# --- the acceptance cases ------------------------------------------------------------------------

def test_glob_puts_hashmap_first(store):
    assert refs(find(store, "H*Map", kinds=("class",)))[0] == "java.util.HashMap"


def test_camel_hump_finds_hashmap(store):
    result, _ = find(store, "HMap")
    first = result["matches"][0]
    assert (first["ref"], first["match"], first["kind"]) == ("java.util.HashMap", "camel-hump", "class")


def test_gjson_finds_gsons_get_as_json_methods(store):
    found = refs(find(store, "gJson", kinds=("method",), limit=200))
    gson = [r for r in found if r.startswith("com.google.gson.")]
    assert "com.google.gson.JsonElement#getAsJsonObject()" in gson
    assert "com.google.gson.JsonElement#getAsJsonArray()" in gson
    assert gson == found[: len(gson)], "gson (a dependency) ranks before the JDK at equal tier and length"


def test_typo_is_found_with_fuzzy(store):
    result, _ = find(store, "HashMpa", fuzzy=True)
    assert result["mode"] == "fuzzy" and result["matches"][0]["ref"] == "java.util.HashMap"


def test_nothing_found_is_not_found_with_did_you_mean(store):
    with pytest.raises(NotFoundError) as err:
        find(store, "HashMpa")
    assert err.value.exit_code == 1
    assert err.value.candidates[0]["ref"] == "java.util.HashMap"
    assert len(err.value.candidates) <= 5


# --- ranking --------------------------------------------------------------------------------------------

def _in_deprecated(store, m: dict) -> bool:
    """A member of a deprecated type or a type nested in one, by the graph's Type.deprecated."""
    if m["kind"] in ("package", "module"):
        return False
    owner = m["ref"].split("#", 1)[0].replace(".", "/")
    ids = [owner[:i] for i in range(len(owner)) if owner[i] == "$"] + ([owner] if "#" in m["ref"] else [])
    return any(store.rows("MATCH (t:Type) WHERE t.id = $id AND t.deprecated RETURN t.id", {"id": i}) for i in ids)


def _key(m: dict, tier: int, rank: int):
    return (tier, not m["public"], len(m["name"]), rank)


@pytest.mark.parametrize("pattern", ["Json", "get", "toString", "HMap", "parse", "*Adapter", "JsonR", "RBM"])
def test_results_follow_the_documented_ranking(store, pattern):
    result, _ = find(store, pattern, limit=120)
    keys = []
    internal = internal_packages(store)
    for m in result["matches"]:
        rank = ORIGINS[m["origin"]] if m["origin"] else -1
        pkg = m["kind"] in ("package", "module")
        jdk_internal = is_jdk_internal(m["ref"], internal, is_package=pkg)
        as_written = m["match"] == "exact" and m["name"] == pattern and m["kind"] not in ("method", "field", "package",
                                                                                          "module")
        first = reach(m["kind"] not in ("method", "field"), m["public"], jdk_internal)
        if as_written and not jdk_internal:  # a non-public type named as written: with the public members
            first = min(first, PUBLIC_MEMBER)
        # a package named `internal` (gson's `com.google.gson.internal.bind`) after the rest as public
        named_internal = not pkg and ".internal." in f".{package_of(m['ref'])}."
        keys.append((first, TIERS[m["match"]], jdk_internal, not m["public"], named_internal,
                     m.get("deprecated", False) or _in_deprecated(store, m),
                     not m["public"] and m["origin"] == "jdk", len(m["name"]), 0 if pkg else nesting(m["ref"]), rank))
    # origin is compared coarsely here (position breaks ties inside one origin); the rest exactly
    assert keys == sorted(keys), pattern


def test_exact_prefix_hump_order(store):
    result, _ = find(store, "Gson", kinds=("class",), limit=100)
    tiers = [m["match"] for m in result["matches"] if m["public"]]
    assert tiers[0] == "exact" and result["matches"][0]["ref"] == "com.google.gson.Gson"
    assert {"prefix", "camel-hump"} <= set(tiers) and tiers == sorted(tiers, key=lambda t: TIERS[t])
    public = [m["public"] for m in result["matches"]]  # the public types first, the rest after them
    assert public == sorted(public, reverse=True)
    assert "com.google.gson.GsonBuilder" in [m["ref"] for m in result["matches"] if m["match"] == "prefix"]


def test_capitals_are_word_starts(store):
    """`RBM` names three words: `RadioButtonMenuItem`-like humps come before `rbMonochrome`, a prefix only when case
    is ignored (the JDK's `sun.print.ServiceDialog$ChromaticityPanel#rbMonochrome`)."""
    result, _ = find(store, "RBM", limit=500)
    tiers = [m["match"] for m in result["matches"]]
    assert "camel-hump" in tiers and "prefix-any-case" in tiers
    assert tiers.index("prefix-any-case") > max(i for i, t in enumerate(tiers) if t == "camel-hump")
    assert all(m["name"].lower().startswith("rbm") for m in result["matches"] if m["match"] == "prefix-any-case")


def test_public_before_non_public_in_one_tier(store):
    result, _ = find(store, "Node", kinds=("class",), limit=500)
    internal = internal_packages(store)
    exact = [m for m in result["matches"] if m["match"] == "exact"]
    assert True in [m["public"] for m in exact] and False in [m["public"] for m in exact]
    # inside one internal/API group the public ones come first (nesting ranks after visibility)
    for flag in (False, True):
        flags = [m["public"] for m in exact if is_jdk_internal(m["ref"], internal) == flag]
        assert flags == sorted(flags, reverse=True), flag


def test_dependency_before_jdk_at_equal_rank(store):
    result, _ = find(store, "toString", kinds=("method",), limit=5)
    assert {m["origin"] for m in result["matches"]} == {"dependency"}


def test_same_query_same_answer(store):
    assert find(store, "get", limit=30) == find(store, "get", limit=30)


# --- filters and truncation ---------------------------------------------------------------------------

def test_kind_package_and_artifact_filters(store):
    methods, _ = find(store, "size", kinds=("method",), package_glob="java.util.concurrent*", limit=100)
    assert methods["matches"] and all(m["kind"] == "method" for m in methods["matches"])
    assert all(m["ref"].startswith("java.util.concurrent.") for m in methods["matches"])
    gson, _ = find(store, "Json", artifact_globs=("gson*",), limit=100)
    assert gson["matches"] and {m["artifact"] for m in gson["matches"]} == {GSON.name}
    with pytest.raises(NotFoundError):
        find(store, "Json", artifact_globs=("no-such-artifact*",))
    with pytest.raises(UsageError):
        find(store, "Json", limit=0)


def test_in_is_every_commands_in(store):
    """search's `--in` matches as usages' and hierarchy's do (relations.ArtifactFilter): repeatable, by name in any
    case, path or file name; it was one glob over the name only, a string where the other MCP tools take an array."""
    both, _ = find(store, "D*", kinds=parse_kinds(("type",)), artifact_globs=(GSON.name.upper(), "java.sql"), limit=200)
    assert {m["artifact"] for m in both["matches"]} == {GSON.name, "java.sql"}
    by_path, _ = find(store, "Json", artifact_globs=(f"*/{GSON.name}",), limit=100)
    assert by_path["matches"] and {m["artifact"] for m in by_path["matches"]} == {GSON.name}
    from jdx.commands.search import SearchRequest
    from jdx.mcp.tools import input_schema

    assert input_schema(SearchRequest)["properties"]["include"]["type"] == "array"


def test_packages_and_modules_are_searchable(store):
    assert "java.util.function" in refs(find(store, "function", kinds=("package",)))
    assert refs(find(store, "java.sq*", kinds=("module",))) == ["java.sql", "java.sql.rowset"]
    assert refs(find(store, "java.util.*", kinds=("package",), limit=100))[0].startswith("java.util.")


def test_dotted_patterns_qualify_the_name(store):
    assert refs(find(store, "java.util.HashMap"))[0] == "java.util.HashMap"
    assert refs(find(store, "Map.Entry", kinds=("interface",)))[0] == "java.util.Map$Entry"
    found = refs(find(store, "HashMap.get", kinds=("method",)))
    assert found[0] == "java.util.HashMap#get(java.lang.Object)"


def test_truncation_is_explicit(store):
    result, truncated = find(store, "get", limit=3)
    assert len(result["matches"]) == 3 and truncated["shown"] == 3
    assert truncated["total"] == result["total"] > 3 and "--limit" in truncated["hint"]


def test_regex_mode(store):
    result, _ = find(store, r"^getAsJson[A-Z][a-z]+$", regex=True, kinds=("method",), limit=100)
    names = {m["name"] for m in result["matches"]}
    assert {"getAsJsonArray", "getAsJsonObject", "getAsJsonPrimitive"} <= names
    assert all(re.search(r"^getAsJson[A-Z][a-z]+$", n) for n in names)


@pytest.mark.parametrize("pattern, regex", [("HMap", False), ("gJson", False), ("URLConn", False), ("NPE", False),
                                            ("Map", False), ("mV", False), ("x509", False), ("H*Map", False),
                                            ("*Http*Client", False), ("^get[A-Z][a-z]+Json[A-Za-z]*$", True)])
def test_index_matching_agrees_with_python(store, pattern, regex):
    """The index matches humps with Python re over the names' words and globs/regexes with RE2 (Arrow), the
    oracle is Pattern.tier on every name: same names, same tiers."""
    from jdx.engine.search_index import index_for

    p = compile_pattern(pattern, regex=regex)
    index = index_for(store)
    found = index.matching(p)
    python = {n: t for n in index.names if (t := p.tier(n, index.word(n))) is not None}
    assert found == python and found


def _graph_symbols(store, kind: str) -> list[dict]:
    """The searchable methods or fields straight from the graph's nodes (not from the search index): loaded,
    not synthetic, no constructors, not of an anonymous class or a class nested in one (docs/search.md); public
    when the member and its declaring type are."""
    from jdx.engine.search import artifact_table

    label = "Method" if kind == "method" else "Field"
    types = {r["id"]: r for r in store.rows(
        "MATCH (t:Type) WHERE NOT t.external AND NOT t.shadowed RETURN t.id AS id, t.access AS access, "
        "t.deprecated AS deprecated")}
    rank = {a["id"]: a["rank"] for a in artifact_table(store)}
    out = []
    for r in store.rows(f"MATCH (m:{label}) WHERE NOT m.external AND NOT m.shadowed RETURN m.name AS name, "
                        "m.owner AS owner, m.access AS access, m.artifact AS artifact, m.deprecated AS deprecated"):
        if r["access"] & 0x1000 or r["name"] in ("<init>", "<clinit>") or re.search(r"\$[0-9]+(\$|$)", r["owner"]):
            continue
        # its type and every type around it (`a/B$C` is inside `a/B`): public, and deprecated when one is
        owner = r["owner"]
        around = [owner] + [owner[:i] for i in range(owner.rfind("/") + 2, len(owner)) if owner[i] == "$"]
        pub = bool(r["access"] & 1) and all((types.get(t) or {}).get("access", 0) & 1 for t in around)
        deprecated = bool(r["deprecated"]) or any((types.get(t) or {}).get("deprecated") for t in around)
        out.append(dict(r, pub=pub, rank=rank[r["artifact"]], deprecated=deprecated))
    return out


# --- resolve ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text, sym, line", [
    ("at java.base/java.util.HashMap.putVal(HashMap.java:640)", "java.util.HashMap.putVal", 640),
    ("\tat app//com.x.Foo.bar(Foo.java:12)", "com.x.Foo.bar", 12),
    ("at a.B.<init>(Unknown Source)", "a.B.<init>", None),
    ("at a.B.c(Native Method)", "a.B.c", None),
])
def test_parse_frame(text, sym, line):
    got, frame = parse_frame(text)
    assert got == sym and frame["line"] == line


def test_resolve_a_frame_picks_the_overload_by_line(store):
    result, _ = resolve(store, "at java.base/java.util.HashMap.putVal(HashMap.java:640)", 50)
    (only,) = result["candidates"]
    assert only["ref"].startswith("java.util.HashMap#putVal(") and only["lines"][0] <= 640 <= only["lines"][1]


def test_resolve_fragments(store):
    assert [c["ref"] for c in resolve(store, "HashMap.get", 50)[0]["candidates"]] == \
        ["java.util.HashMap#get(java.lang.Object)"]
    assert [c["ref"] for c in resolve(store, "Gson#toJson", 50)[0]["candidates"]][0].startswith(
        "com.google.gson.Gson#toJson(")
    entry = resolve(store, "Entry", 200)[0]["candidates"]
    assert "java.util.Map$Entry" in [c["ref"] for c in entry]
    assert all(c["kind"] and c["artifact"] for c in entry)


def test_resolve_tells_a_bridge_from_the_method_it_bridges(store):
    """StringBuilder#reverse() returns StringBuilder; javac's bridge for AbstractStringBuilder's covariant reverse()
    has the same parameters: each ref names its own method (with its return type), the bridge says what it is."""
    candidates = resolve(store, "java.lang.StringBuilder#reverse", 50)[0]["candidates"]
    by_ref = {c["ref"]: c for c in candidates}
    assert len(by_ref) == len(candidates) >= 2, candidates
    real = by_ref["java.lang.StringBuilder#reverse():java.lang.StringBuilder"]
    bridge = by_ref["java.lang.StringBuilder#reverse():java.lang.AbstractStringBuilder"]
    assert "note" not in real and bridge["note"].startswith("bridge"), candidates
    assert resolve(store, "java.util.HashMap#get", 50)[0]["candidates"][0]["ref"] == \
        "java.util.HashMap#get(java.lang.Object)"  # no bridge: no return type


def test_resolve_unknown_is_not_found(store):
    with pytest.raises(NotFoundError) as err:
        resolve(store, "com.nowhere.Nothing.none", 50)
    assert err.value.exit_code == 1


# --- imports ----------------------------------------------------------------------------------------------

def test_imports(store):
    result, warnings = imports(store, "Map.Entry")
    assert result["imports"][0]["statement"] == "import java.util.Map.Entry;" and not warnings
    assert imports(store, "JsonParser")[0]["imports"][0]["statement"] == "import com.google.gson.JsonParser;"
    assert "implicitly" in imports(store, "java.lang.String")[0]["imports"][0]["note"]
    static = imports(store, "java.util.Collections#emptyList")[0]["imports"][0]
    assert static["statement"] == "import static java.util.Collections.emptyList;"
    size = imports(store, "java.util.ArrayList#size")[0]  # no import names an instance member: its type's import
    assert size["member"] == "java.util.ArrayList#size" and size["imports"][0]["statement"] == \
        "import java.util.ArrayList;" and size["imports"][0]["note"].startswith("size is an instance method")
    with pytest.raises(AmbiguousError) as err:
        imports(store, "List")
    assert err.value.candidates[0]["ref"] == "java.util.List"
    with pytest.raises(NotFoundError):
        imports(store, "NoSuchTypeAnywhere")


@pytest.mark.soak
def test_imports_warns_when_several_artifacts_provide_the_fqn(jdx_home, tmp_path):
    gson = require(GSON)
    shaded = tmp_path / "shaded.jar"
    with zipfile.ZipFile(gson) as src, zipfile.ZipFile(shaded, "w") as dst:
        dst.writestr("com/google/gson/JsonNull.class", src.read("com/google/gson/JsonNull.class"))
    service = JdxService(Options(jars=[str(shaded), str(gson)], jdk=False, cache_dir=str(jdx_home / "cache")))
    try:
        _result, warnings = imports(service.store(), "com.google.gson.JsonNull")
    finally:
        service.close()
    (w,) = warnings
    assert w.code == "DUPLICATE_CLASS" and "shaded.jar (loaded)" in w.message and "(shadowed)" in w.message


@pytest.mark.soak
def test_imports_skips_types_no_import_can_name(jdx_home, tmp_path):
    """A package-private nested class and a JDK implementation class (`jdk.internal.reflect.ConstantPool`, in a
    package java.base does not export) are no import candidates while one importable type of the name exists
    (jsoup's `OutputSettings` beside an xalan-internal one answered ambiguous before)."""

    src = tmp_path / "src"
    for path, text in {"q/ConstantPool.java": "package q; public class ConstantPool {}",
                       "q/Thing.java": "package q; public class Thing {}",
                       "p/Out.java": "package p; public class Out { static class Thing {} }",
                       "r/Two.java": "package r; public class Two { public static class Thing {} }"}.items():
        (src / path).parent.mkdir(parents=True, exist_ok=True)
        (src / path).write_text(text)
    jdktool.run(["javac", "-d", str(tmp_path / "classes"), *map(str, sorted(src.rglob("*.java")))], check=True)
    jdktool.run(["jar", "cf", str(tmp_path / "imp.jar"), "-C", str(tmp_path / "classes"), "."], check=True)
    service = JdxService(Options(jars=[str(tmp_path / "imp.jar")], cache_dir=str(jdx_home / "cache")))
    try:
        store = service.store()
        assert is_jdk_internal("jdk/internal/reflect/ConstantPool", internal_packages(store))
        (entry,) = imports(store, "ConstantPool")[0]["imports"]
        assert entry["statement"] == "import q.ConstantPool;" and "the only importable type" in entry["note"]
        with pytest.raises(AmbiguousError) as err:  # two public ones: both offered, the package-private one not
            imports(store, "Thing")
        assert sorted(c["ref"] for c in err.value.candidates) == ["q.Thing", "r.Two$Thing"]
    finally:
        service.close()


# --- ls and tree -----------------------------------------------------------------------------------------

def test_ls_package_lists_types_and_subpackages(store):
    result, _ = list_packages(store, "java.util", 1, True, 1000)
    names = {(e["kind"], e["name"]) for e in result["entries"]}
    assert ("class", "HashMap") in names and ("package", "java.util.function") in names
    assert result["entries"][0]["types"] > 100
    roots, _ = list_packages(store, None, 1, False, 100)
    assert {"java", "javax", "com"} <= {e["name"] for e in roots["entries"]}
    with pytest.raises(NotFoundError):
        list_packages(store, "java.utl", 1, False, 100)


def test_ls_limit_truncates(store):
    result, truncated = list_packages(store, "java.*", 1, False, 5)
    assert len(result["entries"]) == 5 and truncated["total"] > 5


def test_tree(store):
    result, _ = artifact_tree(store, "gson*", 3, True, 10_000)
    entries = result["entries"]
    assert entries[0]["kind"] == "artifact" and entries[0]["types"] > 100
    assert {"kind": "package", "name": "com.google.gson", "level": 1, "types": entries[1]["types"]} in entries
    assert any(e["kind"] == "class" and e["ref"] == "com.google.gson.Gson" for e in entries)
    top, _ = artifact_tree(store, None, None, False, 1000)
    assert [e["level"] for e in top["entries"]] == [0] * len(top["entries"])
    with pytest.raises(NotFoundError):
        artifact_tree(store, "nothing*", None, False, 10)


@pytest.mark.soak
@pytest.mark.parametrize("pattern", ["get", pytest.param("set", marks=pytest.mark.soak),
                                     pytest.param("is", marks=pytest.mark.soak)])
def test_broad_patterns_rank_and_count_like_a_full_fetch(store, pattern):
    """Tier-by-tier fetching with a counted rest must give the same top and total as ranking every searchable
    method of the graph (its Method nodes, not the search index) by the documented key."""
    from jdx.graph_schema.schema import name_words

    result, _ = find(store, pattern, kinds=("method",), limit=20)
    p = compile_pattern(pattern)
    best: dict[tuple, dict] = {}
    for r in _graph_symbols(store, "method"):
        tier = p.tier(r["name"], name_words(r["name"]))
        if tier is None:
            continue
        key = (r["name"], r["owner"])
        g = best.setdefault(key, {"tier": tier, "pub": False, "rank": r["rank"], "deprecated": True})
        g["pub"] = g["pub"] or r["pub"]
        g["rank"] = min(g["rank"], r["rank"])
        g["deprecated"] = g["deprecated"] and r["deprecated"]  # a group is deprecated when every overload is
    assert result["total"] == len(best) > 900
    internal = internal_packages(store)
    order = sorted(best, key=lambda k: (reach(False, best[k]["pub"], is_jdk_internal(k[1], internal)),
                                        best[k]["tier"], is_jdk_internal(k[1], internal), not best[k]["pub"],
                                        "/internal/" in "/" + k[1].rpartition("/")[0] + "/", best[k]["deprecated"],
                                        len(k[0]), nesting(k[1]), best[k]["rank"], k[0], k[1]))
    top = [(m["name"], m["ref"].split("#")[0]) for m in result["matches"]]
    assert top == [(name, owner.replace("/", ".")) for name, owner in order[:20]]


@pytest.mark.soak
@pytest.mark.parametrize("regex", ["(a+)+b", pytest.param("^get[A-Z]", marks=pytest.mark.soak)])
def test_a_broad_regex_counts_every_matching_group(store, regex):
    """A --regex matching thousands of names reports them all (the graph path once stopped at the groups it had
    fetched: 12 for `(a+)+b` on the JDK), counted against the graph's Method nodes."""
    result, truncated = find(store, regex, regex=True, kinds=("method",), limit=5)
    rx = re.compile(regex)
    groups = {(r["name"], r["owner"]) for r in _graph_symbols(store, "method") if rx.search(r["name"])}
    assert result["total"] == len(groups) > 1000 and truncated["total"] == len(groups)


@pytest.mark.parametrize("typo, budget", [("hashmpa", 2), ("charet", 2),
                                          pytest.param("stringbuildr", 3, marks=pytest.mark.soak), ("lst", 1)])
def test_fuzzy_names_equal_a_python_levenshtein_over_the_index_names(store, typo, budget):
    """The index's typo matches (the graph's levenshtein() over declared names) are exactly the searchable
    names within the budget by the Python edit distance."""
    from jdx.engine.search_index import index_for
    from jdx.engine.search_match import levenshtein

    index = index_for(store)
    expected = {n: d for n in index.names if abs(len(n) - len(typo)) <= budget
                and (d := levenshtein(n.lower(), typo)) <= budget}
    assert index.fuzzy(typo, budget) == expected and expected


@given(st.text(min_size=1, max_size=12), st.booleans())
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_any_text_is_an_answer_or_a_named_error(store, text, glob):
    """Quotes, backslashes, regex syntax, non-ASCII: every pattern is matched literally or refused with a named
    error (never a Cypher syntax error, never a crash), and every match really matches."""
    pattern = text + ("*" if glob else "")
    try:
        result, _ = find(store, pattern, limit=5)
    except NotFoundError:
        return
    except UsageError as exc:
        assert not exc.message.startswith("cypher"), exc.message
        return
    p = compile_pattern(pattern)
    for m in result["matches"]:
        if m["kind"] not in ("package", "module") and p.qualifier is None:
            assert p.tier(m["name"]) is not None, (pattern, m)


@pytest.mark.parametrize("pattern, kw", [("get", {}), ("HMap", {}), ("to*", {"kinds": ("method",)}),
                                         ("gJson", {}), ("Gson", {"kinds": ("class",)})])
def test_a_broad_search_looks_names_up_by_dict_as_a_narrow_one_by_bisection(store, monkeypatch, pattern, kw):
    """Past `ROW_DICT_AFTER` names, the index keeps a dict of every name's row: the same rows as the bisection."""
    from jdx.engine import search_index

    index = search_index.index_for(store)
    monkeypatch.setattr(index, "_row_of", None)
    monkeypatch.setattr(search_index, "ROW_DICT_AFTER", 1 << 60)
    bisected = find(store, pattern, limit=200, **kw)
    assert index._row_of is None
    monkeypatch.setattr(search_index, "ROW_DICT_AFTER", 0)
    assert find(store, pattern, limit=200, **kw) == bisected
    assert index._row_of is not None and len(index._row_of) == len(index.names)
