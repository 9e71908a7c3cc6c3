"""`Outer.Inner` where Outer inherits the member type Inner from a supertype (JLS §8.5): `HashMap.Entry` is
`Map.Entry`. jdx names the type javac binds (javap of javac's own output is the oracle); a private member type is not
inherited, and two different inherited ones are ambiguous, as javac rejects both."""

from __future__ import annotations

import re

import pytest

from jdx.engine.resolve import resolve_type
from jdx.errors import AmbiguousError, NotFoundError
from tests.fixtures import jdktool
from tests.fixtures.javac import javac_jar
from tests.service import JdxService, Options

SOURCES = {
    "m/Base.java": "package m; public class Base { public static class In {} private static class Priv {} }",
    "m/I.java": "package m; public interface I { class J {} }",
    "m/I2.java": "package m; public interface I2 { class J {} }",
    "m/Mid.java": "package m; public class Mid extends Base {}",
    "m/Sub.java": "package m; public class Sub extends Mid implements I {}",
    "m/Both.java": "package m; public class Both implements I, I2 {}",
    "m/Own.java": "package m; public class Own extends Base { public static class In {} }",
}
# what javac binds each written name to (the oracle's fields), and what it rejects
USES = {"a": "m.Sub.In", "b": "m.Sub.J", "c": "m.Own.In", "d": "java.util.HashMap.Entry<String, String>"}
REJECTED = {"m.Sub.Priv": r"Priv", "m.Both.J": r"reference to J is ambiguous"}


@pytest.fixture(scope="module")
def built(tmp_path_factory, jdx_home):
    root = tmp_path_factory.mktemp("inherited_member_types")
    jar, classes = javac_jar(root, SOURCES, "m", "m.jar")
    use = root / "use"
    use.mkdir()
    (use / "Use.java").write_text("public class Use { " + " ".join(f"{t} {n};" for n, t in USES.items()) + " }")
    jdktool.run(["javac", "-cp", str(classes), "-d", str(use), str(use / "Use.java")], check=True)
    fields = jdktool.run(["javap", "-p", "-s", "-cp", str(use), "Use"], capture_output=True, text=True,
                         check=True).stdout
    bound = dict(re.findall(r"\s(\w+);\n\s+descriptor: L([\w/$]+);", fields))
    rejected = {}
    for written in REJECTED:
        (use / "Bad.java").write_text(f"public class Bad {{ {written} x; }}")
        proc = jdktool.run(["javac", "-cp", str(classes), "-d", str(use), str(use / "Bad.java")],
                           capture_output=True, text=True)
        rejected[written] = (proc.returncode, proc.stderr)
    svc = JdxService(Options(jars=[str(jar)], jdk=True, cache_dir=str(jdx_home / "cache")))
    yield svc, bound, rejected
    svc.close()


@pytest.mark.parametrize("name", sorted(USES))
def test_the_written_name_names_the_type_javac_binds(built, name):
    svc, bound, _ = built
    written = USES[name].split("<")[0]
    assert resolve_type(svc.store(), written)["id"] == bound[name], (written, bound[name])


@pytest.mark.parametrize("written", sorted(REJECTED))
def test_what_javac_rejects_is_not_found_or_ambiguous(built, written):
    svc, _, rejected = built
    code, err = rejected[written]
    assert code != 0 and re.search(REJECTED[written], err), err
    expected = AmbiguousError if "ambiguous" in REJECTED[written] else NotFoundError
    with pytest.raises(expected) as caught:
        resolve_type(svc.store(), written)
    if expected is AmbiguousError:
        assert {c["ref"] for c in caught.value.candidates} == {"m.I$J", "m.I2$J"}


def test_resolve_lists_the_inherited_member_type_and_both_ambiguous_ones(built):
    from jdx.engine.search_nav import resolve

    svc, bound, _ = built
    result, _ = resolve(svc.store(), "m.Sub.J", 10)
    assert [c["ref"] for c in result["candidates"]] == [bound["b"].replace("/", ".")]
    result, _ = resolve(svc.store(), "m.Both.J", 10)
    assert sorted(c["ref"] for c in result["candidates"]) == ["m.I$J", "m.I2$J"]
