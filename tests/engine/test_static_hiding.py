"""A static method hides every static method of its signature in the supertypes (JLS §8.4.8), whatever they return;
hidden methods and static interface methods are not inherited (§9.4.1). So `C#of(java.util.Map)` names C's own `of`
alone, never `B#of(Map)` as an "inherited overload": `signature`, `body`, `usages` and `samples` agree with `members`.
An instance override with a narrower return (covariant) is one member too, with or without a bridge (an interface
has none). Oracles: javac (which `invokestatic` `C.of(m)` compiles to) and javap (the call sites of each method)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from jdx.engine.members import MemberOptions
from jdx.engine.rel_usages import UsageOptions
from tests.fixtures.javac import javac_jar
from tests.service import JdxService, Options
from tests.fixtures import jdktool

SOURCES = {
    "sh/B.java": """package sh;
public class B {
    public static B of(java.util.Map m) { return new B(); }
    public static B of(String s) { return new B(); }
    public Object get() { return null; }
}""",
    "sh/C.java": """package sh;
public class C extends B implements I {
    public static C of(java.util.Map m) { return new C(); }
    public String get() { return "c"; }
    public String value() { return "v"; }
}""",
    "sh/I.java": """package sh;
public interface I {
    static I of(java.util.Map m) { return null; }
    Object value();
}""",
    "sh/J.java": """package sh;
public interface J extends I {
    static J of(java.util.Map m) { return null; }
    String value();
}""",
    "sh/Use.java": """package sh;
public class Use {
    static int use(java.util.Map m, J j) {
        Object a = C.of(m);
        Object b = B.of(m);
        Object c = B.of(m);
        Object d = I.of(m);
        Object e = C.of("s");
        return String.valueOf(new C().get()).length() + j.value().length();
    }
}""",
}
INVOKE = re.compile(r"(invoke\w+)\s+#\d+\s+// (?:Interface)?Method (sh/\w+)\.(\w+):(\S+)")


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> tuple[Path, Path, Path]:
    if shutil.which("javac") is None or shutil.which("javap") is None:
        pytest.skip("javac/javap are not installed")
    root = tmp_path_factory.mktemp("static_hiding")
    jar, classes = javac_jar(root, SOURCES, "sh", "hiding.jar", debug=True)
    return jar, classes, root / "src"


@pytest.fixture(scope="module")
def calls(built) -> list[tuple[str, str, str, str]]:
    """(opcode, owner, name, descriptor) of every call in sh.Use, by javap."""
    out = jdktool.run(["javap", "-c", "-p", str(built[1] / "sh/Use.class")], capture_output=True, text=True,
                         check=True).stdout
    return INVOKE.findall(out)


@pytest.fixture(scope="module")
def svc(built, jdx_home):
    service = JdxService(Options(jars=[str(built[0])], sources=[str(built[2])], jdk=False,
                                 cache_dir=str(jdx_home / "cache")))
    yield service
    service.close()


def _sites(svc, ref: str) -> list[tuple[str, str]]:
    result = svc.usages(ref, UsageOptions(limit=1000)).result
    return [(c["caller"], s["kind"]) for g in result["groups"] for c in g["callers"] for s in c["sites"]]


def test_javac_binds_each_call_to_the_hiding_method(calls):
    statics = [(o, n, d) for op, o, n, d in calls if op == "invokestatic"]
    assert ("sh/C", "of", "(Ljava/util/Map;)Lsh/C;") in statics  # C.of(m): the hiding method, not B's
    assert statics.count(("sh/B", "of", "(Ljava/util/Map;)Lsh/B;")) == 2
    assert ("sh/C", "of", "(Ljava/lang/String;)Lsh/B;") in statics  # C.of("s"): B's, inherited through C
    assert ("sh/I", "of", "(Ljava/util/Map;)Lsh/I;") in statics
    assert not any(o == "sh/C" and d.startswith("(Ljava/util/Map;)Lsh/B") for o, _n, d in statics)


@pytest.mark.parametrize("ref, declaring", [
    ("sh.C#of(java.util.Map)", "sh.C"), ("sh.B#of(java.util.Map)", "sh.B"),
    ("sh.J#of(java.util.Map)", "sh.J"), ("sh.C#get()", "sh.C"), ("sh.J#value()", "sh.J"),
    ("sh.C#value()", "sh.C")])
def test_signature_names_the_declared_member_only(svc, ref, declaring):
    sigs = svc.signature(ref).result["signatures"]
    assert [s["declaring"] for s in sigs] == [declaring], sigs


def test_bare_name_lists_the_inherited_overload_not_the_hidden_one(svc):
    sigs = svc.signature("sh.C#of").result["signatures"]
    assert sorted(s["ref"] for s in sigs) == ["sh.B#of(java.lang.String)", "sh.C#of(java.util.Map)"]
    members = svc.members("sh.C", MemberOptions(grep="^of$")).result["members"]
    assert sorted(m["ref"] for m in members) == sorted(s["ref"] for s in sigs)  # resolution agrees with members


def test_body_is_not_ambiguous(svc):
    body = svc.body("sh.C#of(java.util.Map)").result
    assert "return new C();" in str(body), body


@pytest.mark.parametrize("ref, owner, descriptor", [
    ("sh.C#of(java.util.Map)", "sh/C", "(Ljava/util/Map;)Lsh/C;"),
    ("sh.B#of(java.util.Map)", "sh/B", "(Ljava/util/Map;)Lsh/B;"),
    ("sh.J#of(java.util.Map)", "sh/J", "(Ljava/util/Map;)Lsh/J;")])
def test_usages_and_samples_count_javap_sites(svc, calls, ref, owner, descriptor):
    want = sum(1 for _op, o, n, d in calls if (o, n, d) == (owner, "of", descriptor))
    sites = [s for s in _sites(svc, ref) if s[0].startswith("sh.Use#")]
    assert len(sites) == want, sites
    assert svc.samples(ref).result["total"] == want


def test_declared_with_from_is_a_flag_conflict_not_a_missing_supertype():
    """`members T --declared --from java.lang.Object`: Object is a supertype; the flags exclude each other, and the
    request refuses them (CLI, daemon, MCP and HTTP alike) before any workspace is read."""
    from jdx.commands.cards import MembersRequest
    from jdx.errors import UsageError

    with pytest.raises(UsageError, match="--declared and --from exclude each other"):
        MembersRequest(query="java.util.HashMap", inherited=False, from_type="java.lang.Object")
    MembersRequest(query="java.util.HashMap", from_type="java.lang.Object")  # --from alone is fine


def test_a_hiding_static_method_hides_and_overrides_nothing(svc):
    """`C#of(Map)` hides `B#of(Map)` (JLS §8.4.8.2): `members` and `signature` say `hides`, never `overrides`; the
    instance method `C#get()` beside it still overrides `B#get()`, and `overrides` finds nothing above `of`."""
    members = {m["ref"]: m for m in svc.members("sh.C", MemberOptions()).result["members"]}
    of, get = members["sh.C#of(java.util.Map)"], members["sh.C#get():java.lang.String"]
    assert of.get("hides") == ["sh.B"] and "overrides" not in of, of
    assert get.get("overrides") == ["sh.B"] and "hides" not in get, get
    sig = svc.signature("sh.C#of(java.util.Map)").result["signatures"][0]
    assert sig.get("hides") == ["sh.B"] and "overrides" not in sig, sig
    assert svc.overrides("sh.C#of(java.util.Map)").result["methods"][0]["overrides"] == []
