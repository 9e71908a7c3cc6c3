"""`search 'Type#member'` finds declarations (docs/search.md); when the type declares no match but inherits one, the
miss names the inherited members and the `members` line that lists them. javac is the oracle of what a type inherits
(a client calling the member through the subtype compiles, or not), javap -p of what it declares."""

from __future__ import annotations

import pytest

from jdx.engine.members import MemberOptions, list_members
from jdx.engine.search import SearchOptions, search
from jdx.engine.packages import list_packages
from jdx.errors import NotFoundError
from tests.fixtures import jdktool
from tests.fixtures.javac import javac_jar
from tests.service import JdxService, Options

SOURCES = {
    "p/I.java": "package p; public interface I { default void greet() {} void shout(); }",
    "p/Base.java": "package p; public abstract class Base implements I { public void baseWork() {} "
                   "public void baseRest() {} protected int counter; private void secret() {} }",
    "p/Sub.java": "package p; public class Sub extends Base { public void shout() {} public void own() {} }",
    # its name is camel humps of `Sub`, and it declares what Sub inherits
    "p/SubDecorator.java": "package p; public class SubDecorator { public void baseWork() {} }",
}
CALLS = {"greet": "s.greet();", "baseWork": "s.baseWork();", "wait": "s.wait();", "secret": "s.secret();"}


@pytest.fixture(scope="module")
def built(tmp_path_factory, jdx_home):
    root = tmp_path_factory.mktemp("search_inherited")
    jar, classes = javac_jar(root, SOURCES, "p", "p.jar")
    declared = jdktool.run(["javap", "-p", "-cp", str(classes), "p.Sub"], capture_output=True, text=True,
                           check=True).stdout
    compiles = {}
    for name, call in CALLS.items():
        client = root / "client" / name
        client.mkdir(parents=True)
        (client / "C.java").write_text(f"class C {{ void m(p.Sub s) throws Exception {{ {call} }} }}")
        proc = jdktool.run(["javac", "-cp", str(classes), "-d", str(client), str(client / "C.java")],
                           capture_output=True, text=True)
        compiles[name] = proc.returncode == 0
    svc = JdxService(Options(jars=[str(jar)], jdk=True, cache_dir=str(jdx_home / "cache")))
    yield svc, declared, compiles
    svc.close()


def _miss(svc, text: str) -> NotFoundError:
    with pytest.raises(NotFoundError) as miss:
        search(svc.store(), text, SearchOptions())
    return miss.value


@pytest.mark.parametrize("name, declaring", [("greet", "p.I"), ("baseWork", "p.Base"), ("wait", "java.lang.Object")])
def test_an_inherited_member_is_named_by_the_miss(built, name, declaring):
    svc, declared, compiles = built
    assert compiles[name] and f" {name}(" not in declared  # javac: Sub has it; javap: Sub does not declare it
    miss = _miss(svc, f"p.Sub#{name}")
    refs = [c["ref"] for c in miss.candidates]
    assert refs and all(r.startswith(f"{declaring}#{name}(") for r in refs), refs
    assert {c["artifact"] for c in miss.candidates} == {"java.base" if declaring.startswith("java.") else "p.jar"}
    assert f"p.Sub declares no member matching '{name}' but inherits {len(refs)}" in miss.hint
    # the hint's own command lists exactly those members
    line = miss.hint.split(": jdx members ", 1)[1].split()
    assert line[:3] == ["p.Sub", "--from", declaring] and line[3] == "--grep", line
    grep = line[4].strip("'")
    listed = list_members(svc.store(), "p.Sub", MemberOptions(from_type=declaring, grep=grep))["members"]
    assert sorted(m["ref"] for m in listed) == sorted(refs)


def test_a_simple_type_name_and_a_glob_find_the_inherited_members(built):
    svc, _, _ = built
    miss = _miss(svc, "Sub#base*")
    assert [c["ref"] for c in miss.candidates] == ["p.Base#baseRest()", "p.Base#baseWork()"]
    assert "--grep '^(baseRest|baseWork)$'" in miss.hint


def test_a_private_member_is_not_inherited(built):
    svc, _, compiles = built
    assert not compiles["secret"]  # javac: secret() has private access in p.Base
    miss = _miss(svc, "p.Sub#secret")
    assert not any("secret" in c["ref"] for c in miss.candidates), miss.candidates
    assert "inherits" not in (miss.hint or "")


def test_a_declared_member_is_found_as_before(built):
    svc, declared, _ = built
    assert " shout(" in declared
    result, _ = search(svc.store(), "p.Sub#shout", SearchOptions())
    assert [m["ref"] for m in result["matches"]] == ["p.Sub#shout()"]


def test_ls_of_a_type_names_the_type(built):
    svc, _, _ = built
    with pytest.raises(NotFoundError) as miss:
        list_packages(svc.store(), "p.Sub", 1, False, 100)
    assert str(miss.value.message) == "not found: package p.Sub: p.Sub is a class"
    assert miss.value.candidates == [{"ref": "p.Sub", "kind": "class", "artifact": "p.jar"}]
    assert miss.value.hint == "jdx show p.Sub (its card), jdx members p.Sub; jdx ls p lists its package"
    listed, _ = list_packages(svc.store(), "p", 1, False, 100)
    assert "Sub" in str(listed)


@pytest.mark.parametrize("text", ["Sub#baseWork", "Sub.baseWork"])
def test_a_type_named_by_its_simple_name_that_inherits_the_member_is_not_read_as_humps(built, text):
    svc, _declared, compiles = built
    assert compiles["baseWork"]  # javac: Sub has baseWork(); SubDecorator, a hump match of `Sub`, declares one too
    miss = _miss(svc, text)
    assert [c["ref"] for c in miss.candidates] == ["p.Base#baseWork()"], miss.candidates
    assert "p.Sub declares no member matching 'baseWork' but inherits 1" in miss.hint
