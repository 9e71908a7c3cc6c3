"""Answers an agent trial found wrong on libraries no test used: `body --engine javap` of a field printed the whole
class (and the hint after a decompiled field offered it); `signature` counted a field sharing a method's name as an
overload; `--in NAME` without a glob matching no artifact suggested unrelated ones. Oracles: javap's own block of
the member, the class file's members."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from jdx.engine.relations import ArtifactFilter
from jdx.engine.src_body import BodyOptions
from jdx.errors import NotFoundError
from tests.fixtures.javac import javac_jar
from tests.service import JdxService, Options
from tests.fixtures import jdktool

pytestmark = pytest.mark.soak  # a trial's regression family with its own graph builds: the soak runs it whole (.ci/run)

SOURCES = {
    "te/Counter.java": """package te;
public class Counter {
    long count;
    public static final int LIMIT = 7;
    public long count() { return count; }
    public void add(long n) { count += n; }
    public void add(int n) { count += n; }
}""",
    "te/Level.java": """package te;
public enum Level {
    LOW { int weight() { return 1; } }, HIGH { int weight() { return 2; } }, PLAIN;
    int weight() { return 0; }
}""",
    "te/Sub.java": "package te;\npublic class Sub extends Counter implements Comparable<Sub> {\n"
                  "    public int compareTo(Sub o) { return 0; }\n}",
    "te/Use.java": """package te;
class Use {
    static void use(Counter c, Sub s) { c.add(1L); s.add(2L); s.add(3L); s.count(); }
}""",
    "te/Ctors.java": """package te;
public class Ctors {
    int[] buf = new int[8];
    public Ctors() {
        this(1);
    }
    public Ctors(int x) {
        n();
    }
    static void n() { }
    public static native long nat(long x);
    public static long nat(long x, int y) { return x; }
    public static class Inner { }
}""",
    "te/Api.java": "package te;\npublic interface Api { int size(); }",
    "IsEnum.java": """public class IsEnum {
    public static void main(String[] a) throws Exception {
        for (String n : a) System.out.println(n + " " + Class.forName(n).isEnum());
    }
}""",
}


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    if shutil.which("javac") is None or shutil.which("javap") is None:
        pytest.skip("javac/javap are not installed")
    root = tmp_path_factory.mktemp("trial_e")
    return javac_jar(root, SOURCES, "te", "trial-e.jar")


@pytest.fixture(scope="module")
def svc(built, jdx_home):
    service = JdxService(Options(jars=[str(built[0])], jdk=False, cache_dir=str(jdx_home / "cache")))
    yield service
    service.close()


def _javap_block(classes, declaration: str) -> list[str]:
    """javap's block of one member: its declaration line through the line before the next blank one."""
    out = jdktool.run(["javap", "-c", "-p", "-l", "-constants", "-s", "-cp", str(classes), "te.Counter"],
                         capture_output=True, text=True, check=True).stdout.splitlines()
    start = next(i for i, line in enumerate(out) if line.strip() == declaration)
    end = next(i for i in range(start, len(out)) if not out[i].strip())
    return [line.strip() for line in out[start:end]]


@pytest.mark.parametrize("ref, declaration", [("te.Counter#count:long", "long count;"),
                                              ("te.Counter#LIMIT", "public static final int LIMIT = 7;")])
def test_javap_of_a_field_is_its_block_alone(svc, built, ref, declaration):
    result = svc.body(ref, BodyOptions(engine="javap")).result
    assert [line.strip() for line in result["text"] if line.strip()] == _javap_block(built[1], declaration)
    assert result["header"].startswith(f"source: javap -c -p -l of {ref} from ")


def test_an_enum_constants_body_class_is_no_enum(svc, built):
    """javac flags `Level$1` (LOW's body) ACC_ENUM, but it is an anonymous class extending the enum: reflection's
    isEnum() says false, and `show` must not call it an enum."""
    names = ["te.Level", "te.Level$1", "te.Level$2"]
    out = subprocess.run(["java", "-cp", str(built[1]), "IsEnum", *names], capture_output=True, text=True,
                         check=True).stdout.split()
    oracle = dict(zip(out[0::2], out[1::2]))
    for name in names:
        kind = svc.show(name).result["kind"]
        assert (kind == "enum") == (oracle[name] == "true"), (name, kind)
    assert oracle["te.Level"] == "true" and oracle["te.Level$1"] == "false"


def test_a_member_asked_through_an_heir_says_whose_usages_these_are(svc, built):
    """`usages te.Sub#add(long)` answers Counter#add's usages (the JVM links `s.add` to it): a note says Sub declares
    no add and how many calls name Sub, as javap's call sites do."""
    from jdx.engine.rel_usages import UsageOptions

    out = jdktool.run(["javap", "-c", "-p", "-cp", str(built[1]), "te.Use"], capture_output=True, text=True,
                         check=True).stdout
    through = out.count("Method te/Sub.add:(J)V")
    result = svc.usages("te.Sub#add(long)", UsageOptions()).result
    assert result["symbol"] == "te.Counter#add(long)" and result["counts"] == {"call": out.count(".add:(J)V")}
    assert result["notes"][-1] == ("te.Sub declares no add(long): these are the usages of what it inherits from "
                                   f"te.Counter; {through} of them call it through te.Sub (marked via te.Sub)")
    assert through == 2
    assert not any("declares no" in n for n in svc.usages("te.Counter#add(long)", UsageOptions()).result["notes"])


def test_signature_counts_a_same_named_field_apart(svc):
    from jdx.render.cards import signature

    result = svc.signature("te.Counter#count").result
    assert signature(result)[0] == "signatures of te.Counter#count (1 method, 1 field)"
    assert signature(svc.signature("te.Counter#add").result)[0] == "signatures of te.Counter#add (2 overloads)"


def test_in_without_a_glob_suggests_the_names_holding_it(svc):
    from jdx.engine.relations import Artifacts

    with pytest.raises(NotFoundError) as err:
        ArtifactFilter(include=["trial"]).check(Artifacts.of(svc.store()))
    assert [c["ref"] for c in err.value.candidates] == ["trial-e.jar"]
    assert err.value.hint == "a glob matches the whole name: --in '*trial*'"


def test_from_a_simple_name_means_the_supertype_of_that_name(svc, jdx_home):
    """`--from Map` on a type with one supertype named Map picks it, not every `Map` of the workspace (exit 2 with
    javax.swing.text.html.Map listed); a supertype whose every member is overridden says so instead of "0 shown"."""
    from jdx.engine.members import MemberOptions
    from jdx.render.read import members

    jdk = JdxService(Options(jdk=True, cache_dir=str(jdx_home / "cache")))
    try:
        store = jdk.store()
        from jdx.engine.members import list_members
        r = list_members(store, "java.util.concurrent.ConcurrentHashMap", MemberOptions(from_type="Map"))
        assert r["members"] == [] and r["from_overridden"] == "java.util.Map"
        assert members({**r, "artifact_name": "java.base"}, False, None, None)[0].startswith(
            "no member of java.util.Map is shown: each is overridden below it")
        clone = list_members(store, "java.util.concurrent.ConcurrentHashMap", MemberOptions(from_type="AbstractMap"))
        assert [m["name"] for m in clone["members"]] == ["clone"] and "from_overridden" not in clone
    finally:
        jdk.close()


def test_signature_include_synthetic_and_limit(svc, built):
    """spec §7.2: `signature <member> [--include-synthetic --limit]`. javac's bridge `compareTo(Object)` shows with the
    flag (javap: ACC_BRIDGE, ACC_SYNTHETIC), never without; `--limit` cuts the overloads and states the cut."""
    from jdx.commands.cards import SignatureRequest, run_signature
    from jdx.render.cards import signature

    out = jdktool.run(["javap", "-p", "-v", "-cp", str(built[1]), "te.Sub"], capture_output=True, text=True,
                         check=True).stdout
    assert "compareTo(java.lang.Object);" in out and "ACC_BRIDGE, ACC_SYNTHETIC" in out
    plain = run_signature(svc, SignatureRequest(query="te.Sub#compareTo"))
    assert [x["ref"] for x in plain.result["signatures"]] == ["te.Sub#compareTo(te.Sub)"]
    both = run_signature(svc, SignatureRequest(query="te.Sub#compareTo", include_synthetic=True))
    assert [x["ref"] for x in both.result["signatures"]] == ["te.Sub#compareTo(te.Sub)",
                                                             "te.Sub#compareTo(java.lang.Object)"]
    cut = run_signature(svc, SignatureRequest(query="te.Counter#add", limit=1))
    assert len(cut.result["signatures"]) == 1 and cut.result["total"] == 2
    assert cut.truncated == {"shown": 1, "total": 2, "hint": "--limit 2"}
    assert signature(cut.result)[0] == "signatures of te.Counter#add (2 overloads)"
    assert run_signature(svc, SignatureRequest(query="te.Counter#add")).truncated is None


def _line_table(classes, cls: str) -> dict[str, set[int]]:
    """javap -l: each method's LineNumberTable lines, by the method's declaration line."""
    out = jdktool.run(["javap", "-p", "-l", "-cp", str(classes), cls], capture_output=True, text=True,
                         check=True).stdout.splitlines()
    tables, current = {}, None
    for line in out:
        if line.startswith("  ") and not line.startswith("    ") and "(" in line:
            current = line.strip()
            tables[current] = set()
        elif current and line.strip().startswith("line "):
            tables[current].add(int(line.split()[1].rstrip(":")))
    return tables


def test_a_frame_in_a_delegating_constructor_is_that_constructor(svc, built):
    """javac copies field initializers into every constructor not calling this(...), so `Ctors(int)`'s line range
    (the initializer's line to its end) holds all of `Ctors()`: a frame at `this(1)`'s line is `Ctors()` alone, as
    the line tables say (javap -l)."""
    from jdx.engine.search_nav import resolve

    tables = _line_table(built[1], "te.Ctors")
    line = next(iter(tables["public te.Ctors();"]))
    assert line not in tables["public te.Ctors(int);"]
    assert min(tables["public te.Ctors(int);"]) < line < max(tables["public te.Ctors(int);"])
    for frame in (f"at te.Ctors.<init>(Ctors.java:{line})", f"at te.Ctors.<init>(Ctors.java:{line}) ~[trial-e.jar:?]",
                  f"\tat te.Ctors.<init>(Ctors.java:{line}) [trial-e.jar:1.0]"):
        result, _ = resolve(svc.store(), frame, 10)
        assert [c["ref"] for c in result["candidates"]] == ["te.Ctors#<init>()"], frame


def test_a_native_method_frame_is_the_native_overload(svc, built):
    from jdx.engine.search_nav import resolve

    out = jdktool.run(["javap", "-p", "-cp", str(built[1]), "te.Ctors"], capture_output=True, text=True,
                         check=True).stdout
    assert "public static native long nat(long);" in out and "public static long nat(long, int);" in out
    result, _ = resolve(svc.store(), "at te.Ctors.nat(Native Method)", 10)
    assert [c["ref"] for c in result["candidates"]] == ["te.Ctors#nat(long)"]
    assert len(resolve(svc.store(), "te.Ctors.nat", 10)[0]["candidates"]) == 2


def test_search_takes_the_binary_name_it_prints(svc):
    from jdx.engine.search import SearchOptions

    for pattern in ("te.Ctors$Inner", "Ctors$Inner", "Ctors$In*"):
        refs = [m["ref"] for m in svc.search(pattern, SearchOptions()).result["matches"]]
        assert refs == ["te.Ctors$Inner"], pattern


@pytest.mark.parametrize("ref, what, hint", [("te.Ctors#nat(long)", "native", "jdx callers 'te.Ctors#nat(long)'"),
                                             ("te.Api#size()", "abstract",
                                              "jdx overrides 'te.Api#size()'   (its implementations)")])
def test_a_method_without_code_says_so_and_offers_no_bytecode(svc, built, ref, what, hint):
    out = jdktool.run(["javap", "-p", "-c", "-cp", str(built[1]), ref.split("#")[0]], capture_output=True,
                         text=True, check=True).stdout
    block = out.split(ref.split("#")[1].split("(")[0] + "(", 1)[1].split("\n\n", 1)[0]
    assert "Code:" not in block  # javap: no Code attribute
    result = svc.body(ref, BodyOptions()).result
    assert result["no_body"] == what and result["next"] == hint
