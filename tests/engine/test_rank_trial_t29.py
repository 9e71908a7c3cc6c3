"""Trial T29: what a first page shows. `search visitor` on antlr4-runtime + byte-buddy + the JDK listed sixteen
non-public fields named `visitor` and the JDK's internal `Visitor`s, never antlr's public `ParseTreeVisitor`
(56th); `implementors ElementMatcher` showed 50 deep subclasses and left the direct subtypes to rows 68-82.
Now an unqualified search lists public types first, public members next, the rest last (ranking.reach), and
`implementors` lists nearest first (rel_hierarchy.implementor_key). Oracles: javap of the javac fixtures."""

from __future__ import annotations

import re
from collections import deque
from pathlib import Path

import pytest

from jdx.engine.rel_hierarchy import HierarchyOptions
from jdx.engine.search import SearchOptions, search
from tests.fixtures.javac import javac_jar, javap
from tests.service import JdxService, Options

pytestmark = pytest.mark.soak  # a trial's regression family with its own graph builds: the soak runs it whole (.ci/run)

SEARCH_SOURCES = {
    "rk/Visitor.java": "package rk; public interface Visitor {}",
    "rk/FooVisitor.java": "package rk; public class FooVisitor implements Visitor { private Visitor visitor; }",
    "rk/ZzzTreeVisitor.java": "package rk; public abstract class ZzzTreeVisitor implements Visitor {}",
    "rk/HiddenVisitor.java": "package rk; class HiddenVisitor {}",
    "rk/Open.java": "package rk; public class Open { public Object visitor; public Object getVisitor() { return null; }"
                    " public static Object visitorFor() { return null; } }",
    **{f"rk/Holder{i}.java": f"package rk; public class Holder{i} {{ Object visitor; }}" for i in range(1, 6)},
}


@pytest.fixture(scope="module")
def search_jar(tmp_path_factory) -> tuple[Path, Path]:
    return javac_jar(tmp_path_factory.mktemp("t29-search"), SEARCH_SOURCES, "rk", "visitors.jar")


@pytest.fixture(scope="module")
def search_store(search_jar, jdx_home):
    service = JdxService(Options(jars=[str(search_jar[0])], jdk=False, cache_dir=str(jdx_home / "cache")))
    yield service.store()
    service.close()


def _declared(classes: Path) -> dict[str, tuple[str, bool]]:
    """ref -> (kind word, public) of every class, field and method javap -p lists in the fixture."""
    out: dict[str, tuple[str, bool]] = {}
    for cls in sorted(p.stem for p in (classes / "rk").glob("*.class")):
        text = javap(classes, f"rk.{cls}")
        for line in text.splitlines():
            line = line.strip().rstrip(";{ ")
            head = re.match(r"(.*?)\b(class|interface) rk\.(\w+)", line)
            if head:
                out[f"rk.{head.group(3)}"] = ("type", "public" in head.group(1).split())
            elif line and not line.startswith(("Compiled", "}")):
                words = line.split("(")[0].split()
                kind = "method" if "(" in line else "field"
                out[f"rk.{cls}#{words[-1]}"] = (kind, "public" in words)
    return out


def test_search_lists_public_types_then_public_members_then_the_rest(search_store, search_jar):
    declared = _declared(search_jar[1])
    matches = search(search_store, "visitor", SearchOptions())[0]["matches"]
    refs = [m["ref"].split("(")[0] for m in matches]
    assert all(r in declared for r in refs), refs
    for m, r in zip(matches, refs):
        assert m["public"] == declared[r][1], (r, m)  # the answer's word agrees with javap
    reach = [0 if declared[r] == ("type", True) else 1 if declared[r][1] else 2 for r in refs]
    assert reach == sorted(reach), refs
    # within each group: exact, prefix, then a later word; equal tiers by length, then owner (deterministic)
    assert refs == ["rk.Visitor", "rk.FooVisitor", "rk.ZzzTreeVisitor",
                    "rk.Open#visitor", "rk.Open#visitorFor", "rk.Open#getVisitor",
                    "rk.FooVisitor#visitor", *(f"rk.Holder{i}#visitor" for i in range(1, 6)), "rk.HiddenVisitor"]
    # a short page shows the public types, and says how many it left out
    page, cut = search(search_store, "visitor", SearchOptions(limit=3))
    assert [m["ref"] for m in page["matches"]] == refs[:3] and cut["total"] == len(refs)


def test_a_type_named_as_written_still_comes_first(search_store):
    """`HiddenVisitor`, typed as its name, names that class: non-public, it still leads (the user named it)."""
    refs = [m["ref"] for m in search(search_store, "HiddenVisitor", SearchOptions())[0]["matches"]]
    assert refs[0] == "rk.HiddenVisitor", refs


ANTLR = Path.home() / ".m2/repository/org/antlr/antlr4-runtime/4.13.2/antlr4-runtime-4.13.2.jar"
BYTE_BUDDY = Path.home() / ".m2/repository/net/bytebuddy/byte-buddy/1.18.14/byte-buddy-1.18.14.jar"


@pytest.mark.soak  # slow: the soak runs it (.ci/run); indexes antlr4-runtime and byte-buddy from ~/.m2
def test_search_visitor_on_the_trial_workspace_shows_parse_tree_visitor(jdx_home):
    missing = [str(p) for p in (ANTLR, BYTE_BUDDY) if not p.is_file()]
    if missing:
        print(f"skipped: {', '.join(missing)} absent from ~/.m2")
        pytest.skip(f"{', '.join(missing)} absent")
    service = JdxService(Options(jars=[str(ANTLR), str(BYTE_BUDDY)], cache_dir=str(jdx_home / "cache")))
    try:
        matches = search(service.store(), "visitor", SearchOptions())[0]["matches"]
    finally:
        service.close()
    refs = [m["ref"] for m in matches]
    assert "org.antlr.v4.runtime.tree.ParseTreeVisitor" in refs, refs
    # no non-public symbol on the first page while public ones are left out
    first_hidden = next((i for i, m in enumerate(matches) if not m["public"]), len(matches))
    assert first_hidden == len(matches), refs[first_hidden]


IMPL_SOURCES = {
    "im/Shape.java": "package im; public interface Shape {}",
    "im/Named.java": "package im; public interface Named extends Shape {}",
    "im/Zeta.java": "package im; public class Zeta implements Shape { static Shape ANON = new Shape() {}; }",
    "im/Hidden.java": "package im; class Hidden implements Shape {}",
    "im/Base.java": "package im; public abstract class Base implements Named {}",
    "im/A1.java": "package im; public class A1 extends Base {}",
    "im/Alpha.java": "package im; public class Alpha extends Base {}",
    "im/A2.java": "package im; public class A2 extends A1 {}",
}


def _javap_order(classes: Path, root: str) -> tuple[list[str], dict[str, int]]:
    """The expected order (public, non-public named, anonymous; each nearest first, then by name) and each type's
    depth below `root`, from javap's supertypes."""
    supers: dict[str, list[str]] = {}
    public: dict[str, bool] = {}
    for path in sorted((classes / "im").glob("*.class")):
        name = "im." + path.stem
        decl = next(line for line in javap(classes, name).splitlines() if re.search(r"\b(class|interface) im\.", line))
        public[name] = decl.split()[0] == "public"
        rest = decl.split(name, 1)[1]
        supers[name] = re.findall(r"im\.[\w$]+", rest)
    depth = {root: 0}
    todo = deque([root])
    while todo:
        top = todo.popleft()
        for sub in sorted(n for n, ups in supers.items() if top in ups):
            if sub not in depth:
                depth[sub] = depth[top] + 1
                todo.append(sub)
    del depth[root]
    anonymous = {n: bool(re.search(r"\$\d", n)) for n in depth}
    order = sorted(depth, key=lambda n: (anonymous[n], not public[n], depth[n], n))
    return order, depth


def test_implementors_list_nearest_first(tmp_path_factory, jdx_home):
    jar, classes = javac_jar(tmp_path_factory.mktemp("t29-impl"), IMPL_SOURCES, "im", "shapes.jar")
    expected, depth = _javap_order(classes, "im.Shape")
    assert expected[:3] == ["im.Named", "im.Zeta", "im.Base"] and expected[-2:] == ["im.Hidden", "im.Zeta$1"]
    service = JdxService(Options(jars=[str(jar)], jdk=False, cache_dir=str(jdx_home / "cache")))
    try:
        full = service.implementors("im.Shape").result
        page = service.implementors("im.Shape", HierarchyOptions(limit=4))
    finally:
        service.close()
    assert [e["type"] for e in full["implementors"]] == expected
    assert {e["type"]: e["depth"] for e in full["implementors"]} == depth
    assert [e["type"] for e in page.result["implementors"]] == expected[:4]
    assert page.truncated["total"] == len(expected)
