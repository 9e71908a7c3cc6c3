"""`members --include-synthetic` lists every JVM method a class declares: a bridge beside the real method with its
parameters (`AbstractStringBuilder append(boolean)` beside `StringBuilder append(boolean)`), never instead of it,
marked `bridge`/`synthetic`. Oracle: `javap -p -v` (each method's descriptor and ACC_BRIDGE/ACC_SYNTHETIC flags)."""

from __future__ import annotations

import re

import pytest

from jdx.engine.members import MemberOptions
from tests.fixtures import jdktool
from tests.service import JdxService, Options

CLASSES = ["java.lang.StringBuilder", "java.lang.String", "java.lang.Integer", "java.util.stream.Collectors",
           "java.time.LocalDate"]


def javap_methods(fqn: str) -> dict[tuple[str, str], list[str]]:
    """(name, descriptor) -> its markers (`bridge`, `synthetic`) for every method and constructor `fqn` declares (the
    static initializer, `static {};`, is no member)."""
    out = jdktool.run(["javap", "-p", "-v", fqn], capture_output=True, text=True, check=True).stdout
    found: dict[tuple[str, str], list[str]] = {}
    decl = last = None
    for line in out.splitlines():
        if re.match(r"^  \S.*\);$|^  \S.*\) throws .*;$", line):
            head = line[: line.index("(")].split()
            decl = head[-1] if head else None
        elif decl and line.startswith("    descriptor: "):
            desc = line.split(": ", 1)[1]
            name = "<init>" if decl == fqn else decl
            found[(name, desc)] = []
            last = (name, desc)
        elif decl and line.startswith("    flags: "):
            flags = line.split(")", 1)[1]
            found[last] = [t for t, f in (("bridge", "ACC_BRIDGE"), ("synthetic", "ACC_SYNTHETIC")) if f in flags]
            decl = None
    return found


@pytest.fixture(scope="module")
def svc(jdx_home):
    service = JdxService(Options(cache_dir=str(jdx_home / "cache")))
    yield service
    service.close()


def listed(svc, fqn: str, synthetic: bool) -> dict[tuple[str, str], list[str]]:
    opts = MemberOptions(inherited=False, access=("all",), include_synthetic=synthetic)
    members = svc.members(fqn, opts).result["members"]
    return {(m["name"], m["descriptor"]): m.get("synthetic", []) for m in members if m["kind"] != "field"}


@pytest.mark.parametrize("fqn", CLASSES)
def test_declared_with_synthetic_equals_javap(svc, fqn):
    want = javap_methods(fqn)
    assert any(want.values()), f"{fqn}: the oracle found no bridge"  # (every class here has one)
    assert listed(svc, fqn, True) == want


def test_stringbuilder_append_keeps_the_real_method(svc):
    got = listed(svc, "java.lang.StringBuilder", True)
    appends = {desc: marks for (name, desc), marks in got.items() if name == "append"}
    assert len(appends) == 29
    real = [desc for desc, marks in appends.items() if not marks]
    assert len(real) == 13 and all(desc.endswith(")Ljava/lang/StringBuilder;") for desc in real)
    assert "(Z)Ljava/lang/AbstractStringBuilder;" in appends and appends["(Z)Ljava/lang/AbstractStringBuilder;"] \
        == ["bridge", "synthetic"]


def test_inherited_with_synthetic_lists_the_real_methods(svc):
    """With the supertypes: the real `StringBuilder append(boolean)` is listed, its bridges beside it."""
    members = svc.members("java.lang.StringBuilder",
                          MemberOptions(grep="^append$", include_synthetic=True)).result["members"]
    descs = {m["descriptor"] for m in members if m["declaring"] == "java.lang.StringBuilder"}
    assert {"(Z)Ljava/lang/StringBuilder;", "(Z)Ljava/lang/AbstractStringBuilder;"} <= descs
    assert len(members) == 29
    from jdx.render.read import members as render

    result = svc.members("java.lang.StringBuilder", MemberOptions(grep="^append$", include_synthetic=True)).result
    text = "\n".join(render(result, False, None, None)) + "\n"
    real = text.index("  method public StringBuilder append(boolean)\n")  # each method first, its bridges marked after
    assert text.index("  method public AbstractStringBuilder append(boolean)  [bridge, synthetic]\n") > real


def test_without_synthetic_only_the_real_methods(svc):
    got = listed(svc, "java.lang.StringBuilder", False)
    want = {k for k, marks in javap_methods("java.lang.StringBuilder").items() if not marks}
    assert set(got) == want
    assert not any(got.values())
