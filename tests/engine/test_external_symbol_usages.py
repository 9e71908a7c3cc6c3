"""`usages`/`callers` of a type or member that only an external node stands for: a client jar indexed without the
library it was compiled against references the library's type, methods and field; those references are all the
workspace knows of them, so they answer (with a note that the symbol is external), held to `javap -c` of the client.
A name neither declared nor referenced stays not found, its did-you-mean free of unrelated JDK types."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from jdx.engine.rel_calls import CallOptions
from jdx.errors import NotFoundError, UsageError
from tests.fixtures import jdktool
from tests.fixtures.javac import javac_jar
from tests.service import JdxService, Options

SOURCES = {
    "xl/Lib.java": """package xl;
public class Lib {
    public int count;
    public Lib() {}
    public String greet(String who) { return "hi " + who; }
    public String greet(String who, int n) { return who; }
    public static class Builder {
        public Builder add(Object o) { return this; }
        public Lib build() { return new Lib(); }
    }
}""",
    "xc/Client.java": """package xc;
import xl.Lib;
public class Client {
    public String run() {
        Lib lib = new Lib();
        lib.count = 4;
        String s = lib.greet("a");
        return s + lib.greet("b", lib.count);
    }
    Lib make() {
        return new Lib.Builder()
            .add("x")
            .build();
    }
}""",
    "xc/Sub.java": """package xc;
public class Sub extends xl.Lib {
    static String use() {
        return new Sub().greet("s");
    }
}""",
}
CLASSES = ("Client", "Sub")
METHOD = re.compile(r"^  (?:[\w.$<>\[\], ]+ )?([\w$.]+)\(.*\);$")
# `// Method xl/Lib.greet:(...)`, `// Field xl/Lib.count:I`, `// class xl/Lib`; javap leaves out the owner when it is
# the class itself (`// Method greet:(...)`)
INSN = re.compile(r"^\s+(\d+): (\w+)\s+#\d+(?:,\s*\d+)?\s+// (?:(?:Method|Field) (?:([\w/$]+)\.)?([\w$<>\"]+):(\S+)"
                  r"|class ([\w/$]+))")
LINE = re.compile(r"^\s+line (\d+): (\d+)")


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> tuple[Path, Path]:
    if shutil.which("javac") is None or shutil.which("javap") is None:
        pytest.skip("javac/javap are not installed")
    # both packages compiled together, only the client's jarred: the library is absent from the workspace
    return javac_jar(tmp_path_factory.mktemp("external_symbols"), SOURCES, "xc", "client.jar", debug=True)


@pytest.fixture(scope="module")
def svc(built, jdx_home):
    service = JdxService(Options(jars=[str(built[0])], jdk=False, cache_dir=str(jdx_home / "cache")))
    yield service
    service.close()


def _javap_sites(classes: Path) -> list[tuple[str, str, str, str, str, int]]:
    """Every instruction of the client naming a class, method or field (javap -c -l): (caller class, caller method,
    opcode, owner, member name and descriptor, line)."""
    out = []
    for cls in CLASSES:
        text = jdktool.run(["javap", "-c", "-l", "-p", str(classes / f"xc/{cls}.class")], capture_output=True,
                           text=True, check=True).stdout
        method, insns, lines = None, [], []

        def flush():
            for offset, op, owner, member in insns:
                line = max((start, n) for start, n in lines if start <= offset)[1]
                out.append((cls, method, op, owner, member, line))
        for raw in text.splitlines():
            if m := METHOD.match(raw):
                if method is not None:
                    flush()
                method, insns, lines = m.group(1).rsplit(".", 1)[-1], [], []
            elif m := INSN.match(raw):
                member = f"{m.group(4).strip(chr(34))}:{m.group(5)}" if m.group(4) else ""
                owner = m.group(6) or m.group(3) or f"xc/{cls}"
                insns.append((int(m.group(1)), m.group(2), owner, member))
            elif m := LINE.match(raw):
                lines.append((int(m.group(2)), int(m.group(1))))
        if method is not None:
            flush()
    return out


def _sites(answer) -> set[tuple[str, str, int]]:
    """(caller class simple name, caller method name, line) of every site of a `usages` answer."""
    out = set()
    for group in answer.result["groups"]:
        for caller in group["callers"]:
            owner, _, rest = caller["caller_id"].partition("#")
            for site in caller["sites"]:
                out.add((owner.rsplit("/", 1)[-1], rest.split("(", 1)[0], site["line"]))
    return out


def _expected(built, owner: str, name: str, ops: tuple[str, ...]) -> set[tuple[str, str, int]]:
    return {(cls, method if method != cls else "<init>", line) for cls, method, op, o, member, line
            in _javap_sites(built[1]) if o == owner and member.split(":", 1)[0] == name and op in ops}


def test_usages_of_an_external_method_are_the_client_s_calls(svc, built):
    answer = svc.usages("xl.Lib#greet")
    want = _expected(built, "xl/Lib", "greet", ("invokevirtual",))
    assert len(want) == 2 and _sites(answer) == want
    assert answer.result["external"] is True and answer.result["total"] == 2
    assert any("xl.Lib#greet is external" in n and "artifact is missing" in n for n in answer.result["notes"])
    one = svc.usages("xl.Lib#greet(String, int)")  # parameters pick the overload among the external nodes
    assert one.result["targets"] == ["xl.Lib#greet(java.lang.String, int)"]
    assert _sites(one) == {s for s in want if s[2] == max(w[2] for w in want)}


def test_a_member_of_an_external_nested_type_and_its_constructor(svc, built):
    for ref, owner, name in (("xl.Lib$Builder#add", "xl/Lib$Builder", "add"),
                             ("xl.Lib.Builder.build", "xl/Lib$Builder", "build"),
                             ("xl.Lib#Lib", "xl/Lib", "<init>")):
        answer = svc.usages(ref)
        want = _expected(built, owner, name, ("invokevirtual", "invokespecial"))
        assert want and _sites(answer) == want, ref
        assert answer.result["external"] is True


def test_callers_of_an_external_method(svc, built):
    answer = svc.callers("xl.Lib#greet(String)", CallOptions())
    (root,) = answer.result["roots"]
    assert root["external"] is True and root["artifact"] == "(external)"
    want = _expected(built, "xl/Lib", "greet", ("invokevirtual",))
    line = min(w[2] for w in want)
    assert [(e["method"], e["lines"]) for e in root["tree"]] == [("xc.Client#run()", [line])]
    assert any("is external" in n for n in answer.result["notes"])
    assert not any("virtual dispatch" in n for n in answer.result["notes"])  # its flags are unknown


def test_reads_and_writes_of_an_external_field(svc, built):
    answer = svc.usages("xl.Lib#count")
    javap = _javap_sites(built[1])
    reads = {(c, m, n) for c, m, op, o, f, n in javap if o == "xl/Lib" and f == "count:I" and op == "getfield"}
    writes = {(c, m, n) for c, m, op, o, f, n in javap if o == "xl/Lib" and f == "count:I" and op == "putfield"}
    assert reads and writes and answer.result["counts"] == {"read": len(reads), "write": len(writes)}
    assert _sites(answer) == reads | writes
    with pytest.raises(UsageError):
        svc.callers("xl.Lib#count", CallOptions())  # a field is no method, external or not


def test_usages_of_an_external_type(svc, built):
    answer = svc.usages("xl.Lib")
    news = {(c, m, n) for c, m, op, o, _, n in _javap_sites(built[1]) if op == "new" and o == "xl/Lib"}
    got = {(s["kind"], s["caller"]) for g in answer.result["groups"] for c in g["callers"] for s in c["sites"]}
    assert ("impl", "xc.Sub") in got  # xc.Sub extends it
    assert {s for s in _sites(answer) if s[2] > 0} == news
    assert answer.result["external"] is True
    assert any("xl.Lib is external" in n for n in answer.result["notes"])


def test_a_member_a_workspace_type_inherits_from_a_missing_supertype(svc, built):
    answer = svc.usages("xc.Sub#greet")
    assert _sites(answer) == _expected(built, "xc/Sub", "greet", ("invokevirtual",)) != set()
    assert any("xc.Sub does not declare it" in n for n in answer.result["notes"])


def test_unknown_names_stay_not_found(svc):
    with pytest.raises(NotFoundError) as miss:
        svc.usages("xl.Nope")
    assert {c["ref"] for c in miss.value.candidates} <= {"xl.Lib", "xl.Lib$Builder"}  # what the package has
    with pytest.raises(NotFoundError) as miss:
        svc.usages("xl.Lib#nope")
    assert "xl.Lib is external" in miss.value.message and "no type" not in miss.value.message
    assert "xl.Lib#greet(java.lang.String)" in {c["ref"] for c in miss.value.candidates}
    with pytest.raises(NotFoundError):
        svc.usages("xl.Lib#greet(int)")
    with pytest.raises(NotFoundError):
        svc.callers("com.nowhere.Thing#run", CallOptions())
    with pytest.raises(NotFoundError) as miss:
        svc.show("xl.Lib")  # a card needs the declaration: not found, saying where its sites are
    assert "is external" in miss.value.message and "jdx usages" in (miss.value.hint or "")


@pytest.mark.soak  # a workspace with the JDK (~2 s); the JDK-free cases stay in the default tier
def test_with_the_jdk(built, jdx_home):
    service = JdxService(Options(jars=[str(built[0])], cache_dir=str(jdx_home / "cache")))
    try:
        answer = service.usages("xl.Lib#greet")
        assert _sites(answer) == _expected(built, "xl/Lib", "greet", ("invokevirtual",))
        for text in ("com.nowhere.Builder", "org.commonmark.renderer.html.HtmlRenderer$Builder#nodeRendererFactory"):
            with pytest.raises(NotFoundError) as miss:
                service.usages(text)
            # a package no artifact holds: no unrelated JDK type (`java.util.Calendar$Builder`) is suggested
            assert not any(c["ref"].startswith(("java.", "javax.", "jdk.", "sun.", "com.sun."))
                           for c in miss.value.candidates), miss.value.candidates
        with pytest.raises(NotFoundError) as miss:
            service.usages("java.utl.HashMap")  # a typo of a package keeps its near names
        assert "java.util.HashMap" in {c["ref"] for c in miss.value.candidates}
    finally:
        service.close()


def test_samples_of_an_external_type_are_the_calls_of_its_members(svc, built):
    """`samples` of a type is calls of its methods and constructors; an external type declares none, so they are the
    ones the workspace calls on it (javap -c: every invoke naming xl/Lib), with the external note."""
    answer = svc.samples("xl.Lib")
    want = {(c, m, n) for c, m, op, o, _, n in _javap_sites(built[1])
            if o == "xl/Lib" and op.startswith("invoke")}
    got = {(s["caller"].rsplit(".", 1)[-1].split("#")[0], s["caller"].split("#")[1].split("(")[0], s["line"])
           for s in answer.result["samples"]}
    assert want and got <= {(c, m if m != c else "<init>", n) for c, m, n in want} and got, (got, want)
    assert any("xl.Lib is external" in n for n in answer.result["notes"])


def test_resolve_of_an_external_name_says_it_is_external(svc):
    """`jdx resolve` of a name only the workspace's references hold: not found, saying it is external and pointing at
    `usages` (it offered near names of unrelated types)."""
    from jdx.engine.search_nav import resolve

    for name, fqn in (("xl.Lib", "xl.Lib"), ("xl.Lib#greet", "xl.Lib"), ("xl.Lib.Builder", "xl.Lib$Builder")):
        with pytest.raises(NotFoundError) as exc:
            resolve(svc.store(), name, 10)
        assert f"({fqn} is external:" in str(exc.value) and exc.value.hint.startswith("jdx usages"), (name, exc.value)
    with pytest.raises(NotFoundError) as exc:
        resolve(svc.store(), "com.nowhere.Thing", 10)
    assert "external" not in str(exc.value)
