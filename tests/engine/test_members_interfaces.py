"""`members` of interfaces (JLS §9.2, §9.4.1):
- an interface has Object's public methods only: which of Object's methods a call on an interface-typed variable may
  name is javac's answer (the oracle), so `clone()` and `finalize()`, protected, are no members;
- two unrelated superinterfaces declaring one method give one member that neither overrides (`also_declared_by`),
  while a subinterface redeclaring it overrides it;
- a type that declares nothing itself still opens with its `members of` line."""

from __future__ import annotations


import pytest

from jdx.engine import descriptors as d
from jdx.engine.members import MemberOptions
from jdx.errors import NotFoundError
from tests.service import JdxService, Options
from tests.fixtures.javac import javac_jar
from tests.fixtures import jdktool

SOURCES = {
    "t/Read.java": "package t; public interface Read { Object conf(); int size(); }",
    "t/Write.java": "package t; public interface Write { Object conf(); void put(Object o); }",
    "t/Both.java": "package t; public interface Both extends Read, Write { }",
    "t/Narrow.java": "package t; public interface Narrow extends Read { String conf(); }",
}


@pytest.fixture(scope="module")
def service(tmp_path_factory, jdx_home):
    root = tmp_path_factory.mktemp("ifaces")
    jar, _classes = javac_jar(root, SOURCES, "t", "ifaces.jar")
    svc = JdxService(Options(jars=[str(jar)], cache_dir=str(jdx_home / "cache")))
    yield svc
    svc.close()


def _object_methods(service, type_name: str, only_object: bool = True) -> list[dict]:
    opts = MemberOptions(access=("public", "protected", "package", "private"),
                         from_type="java.lang.Object" if only_object else None)
    return [m for m in service.members(type_name, opts).result["members"]
            if m["kind"] == "method" and not m["static"]]


def _signature(m: dict) -> str:
    return m["name"] + m["descriptor"][: m["descriptor"].index(")") + 1]


def _javac_accepts(tmp_path, type_name: str, methods: list[dict]) -> set[str]:
    """The signatures of `methods` (Object's) javac accepts naming on a variable of the type, from another package:
    one call per line, one javac run, the rejected ones by the lines of its errors."""
    import re

    from jdx.engine import descriptors as d

    zero = {"I": "0", "J": "0L", "Z": "false"}
    calls = []
    for m in methods:
        params, _ = d.parse_method_descriptor(m["descriptor"])
        calls.append(f"    void f{len(calls)}({type_name} x) throws Throwable {{ x.{m['name']}("
                     f"{', '.join(zero.get(p, 'null') for p in params)}); }}")
    src = tmp_path / type_name / "u" / "Call.java"
    src.parent.mkdir(parents=True)
    src.write_text("package u;\nclass Call {\n" + "\n".join(calls) + "\n}\n")
    out = jdktool.run(["javac", "-Xmaxerrs", "1000", "-d", str(src.parent.parent / "out"), str(src)],
                         capture_output=True, text=True)
    rejected = {int(n) - 3 for n in re.findall(r"Call\.java:(\d+): error", out.stderr)}
    return {_signature(m) for i, m in enumerate(methods) if i not in rejected}


@pytest.mark.parametrize("type_name", [pytest.param("java.util.List", marks=pytest.mark.soak), "java.lang.Runnable"])
def test_an_interface_has_the_object_methods_javac_lets_a_caller_name(service, tmp_path, type_name):
    every = _object_methods(service, "java.lang.Object")
    assert {"clone", "finalize", "toString", "wait"} <= {m["name"] for m in every}  # the oracle sees them all
    objects = {_signature(m) for m in every}
    # Object's methods the type has, from Object or redeclared (List declares equals and hashCode itself)
    listed = ({_signature(m) for m in _object_methods(service, type_name, only_object=False)} & objects) | {
        _signature(m) for m in _object_methods(service, type_name)}
    callable_ = _javac_accepts(tmp_path, type_name, every)
    assert listed == callable_
    assert "clone()" not in listed and "toString()" in listed
    # a member ref resolves to the same ones: `Runnable#clone()` is no member (it named Object's protected clone)
    resolved = set()
    for m in every:
        params = ", ".join(d.descriptor_to_java(p) for p in d.parse_method_descriptor(m["descriptor"])[0])
        try:
            service.signature(f"{type_name}#{m['name']}({params})")
            resolved.add(_signature(m))
        except NotFoundError as exc:
            assert "JLS §9.2" in str(exc), exc
    assert resolved == callable_


def test_a_class_keeps_objects_protected_methods(service):
    names = {m["name"] for m in _object_methods(service, "java.lang.Number")}
    assert {"clone", "finalize"} <= names  # a subclass may call them (JLS §6.6.2)


def test_unrelated_superinterfaces_share_a_member_without_overriding(service):
    members = service.members("t.Both", MemberOptions()).result["members"]
    conf = [m for m in members if m["name"] == "conf"]
    assert len(conf) == 1
    assert "overrides" not in conf[0] and conf[0]["also_declared_by"] == ["t.Write"]
    narrow = [m for m in service.members("t.Narrow", MemberOptions()).result["members"] if m["name"] == "conf"]
    assert [(m["declaring"], m.get("overrides")) for m in narrow] == [("t.Narrow", ["t.Read"])]


def test_a_type_declaring_nothing_opens_with_its_header(run_jdx, service):
    jar = service.options.jars[0]
    r = run_jdx("members", "t.Both", "--jars", jar)
    assert r.code == 0, r.out + r.err
    lines = r.out.splitlines()
    assert lines[0] == "members of t.Both" and lines[1] == "inherited from t.Read"
