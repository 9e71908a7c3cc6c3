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
    out = subprocess.run(["javap", "-c", "-p", "-l", "-constants", "-s", "-cp", str(classes), "te.Counter"],
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

    out = subprocess.run(["javap", "-c", "-p", "-cp", str(built[1]), "te.Use"], capture_output=True, text=True,
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

    out = subprocess.run(["javap", "-p", "-v", "-cp", str(built[1]), "te.Sub"], capture_output=True, text=True,
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
