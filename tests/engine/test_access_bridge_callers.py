"""Calls through javac's access bridges are callers of the method they forward to. A public class inheriting a public
method from a package-private superclass gets a synthetic bridge of the same name and descriptor (Trove's
`TObjectIntIterator#hasNext()` over `TIterator`), and a call written against the public class links to that bridge:
`callers`/`usages` list those calls (`via` the public class), not the bridge's own forwarding call. javap is the
oracle: the bridge's flags, and the `invokevirtual` of each call with its line."""

from __future__ import annotations

import re

import pytest

from jdx.engine.rel_calls import CallOptions
from jdx.engine.rel_usages import UsageOptions
from tests.fixtures.javac import compiled_jar, javap
from tests.service import JdxService, Options

SOURCES = {
    "ab/Base.java": "package ab; abstract class Base { public boolean more() { return false; } }",
    "ab/Ints.java": "package ab; public class Ints extends Base { }",
    "ab/Longs.java": "package ab; public class Longs extends Base { }",
    "ab/use/User.java": "package ab.use;\npublic class User {\n"
                        "    boolean a(ab.Ints i) {\n        return i.more();\n    }\n"
                        "    boolean b(ab.Longs l) {\n        return l.more() && l.more();\n    }\n}\n",
}


@pytest.fixture(scope="module")
def built(tmp_path_factory, jdx_home):
    _root, jar, classes = compiled_jar(tmp_path_factory, "access-bridges", SOURCES, "ab", "ab.jar", debug=True)
    service = JdxService(Options(jars=[str(jar)], cache_dir=str(jdx_home / "cache"), jdk=False))
    yield service, classes
    service.close()


def _javap_calls(classes) -> list[tuple[str, str, int]]:
    """(caller method, class the call names, line) of each `invokevirtual ….more` in ab.use.User: each call's line is
    the line table's last entry at or before its offset."""
    out = javap(str(classes), "ab.use.User", "-c", "-l")
    found, method, calls, lines = [], None, [], []

    def flush():
        for offset, owner in calls:
            found.append((method, owner, max((start, line) for start, line in lines if start <= offset)[1]))

    for text in out.splitlines():
        if m := re.match(r"\s+\S.* (\w+)\(.*\);$", text):
            if method:
                flush()
            method, calls, lines = m.group(1), [], []
        elif m := re.match(r"\s+(\d+): invokevirtual .*// Method ab/(\w+)\.more:\(\)Z", text):
            calls.append((int(m.group(1)), m.group(2)))
        elif m := re.match(r"\s+line (\d+): (\d+)", text):
            lines.append((int(m.group(2)), int(m.group(1))))
    flush()
    return sorted(found)


def test_the_oracle_sees_access_bridges(built):
    _, classes = built
    for cls in ("ab.Ints", "ab.Longs"):
        out = javap(str(classes), cls, "-v")
        assert re.search(r"public boolean more\(\);\s+descriptor: \(\)Z\s+flags: \(0x1041\) ACC_PUBLIC, ACC_BRIDGE, "
                         r"ACC_SYNTHETIC", out), out


@pytest.mark.parametrize("ref", ["ab.Ints#more()", "ab.Base#more()"])
def test_callers_and_usages_are_the_calls_through_the_bridges(built, ref):
    service, classes = built
    expected = _javap_calls(classes)
    assert len(expected) == 3, expected  # the oracle's own: three calls, two of them on one line
    usages = service.usages(ref, UsageOptions()).result
    sites = sorted((c["caller"].split("#", 1)[1].split("(", 1)[0], s["via"].rsplit(".", 1)[-1], s["line"])
                   for g in usages["groups"] for c in g["callers"] for s in c["sites"])
    assert sites == expected, sites
    assert usages["total"] == 3 and not any(c.get("bridge") for g in usages["groups"] for c in g["callers"])
    tree = service.callers(ref, CallOptions()).result["roots"][0]["tree"]
    assert sorted(e["method"].rsplit("#", 1)[1] for e in tree) == ["a(ab.Ints)", "b(ab.Longs)"], tree


def test_members_say_the_declaring_superclass_is_not_public(built):
    """T91: `members TObjectIntIterator` listed `inherited from gnu.trove.TIterator` as if code could name it."""
    from jdx.engine.members import MemberOptions
    from jdx.render.read import members as render

    service, classes = built
    assert javap(str(classes), "ab.Base").splitlines()[1].startswith("abstract class ab.Base")  # not public
    result = service.members("ab.Ints", MemberOptions()).result
    assert result["nonpublic_supertypes"] == ["ab.Base"]
    lines = render(dict(result, artifact_name="ab.jar"), False, None, None)
    assert "inherited from ab.Base (not public: code outside its package calls these through ab.Ints)" in lines
