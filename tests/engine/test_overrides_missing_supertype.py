"""`overrides` of a method whose overridden method the workspace lacks says so instead of a bare `(none)`: the
supertype is missing (a missing jar), or present in a version without the method (a newer JDK's
`TreeVisitor#visitDeconstructionPattern` on JDK 17) while javac's bridge shows the override, or, with no bridge, the
method's parameter type is missing. javac compiles against the newer interfaces; the jar holds older ones (or none);
javap shows the bridges the notes name.

One javac, one graph for the module."""

from __future__ import annotations

import pytest

from jdx.engine.relations import ArtifactFilter
from jdx.render.graph import overrides as render_overrides
from tests.fixtures import jdktool
from tests.service import JdxService, Options

NEW = {  # what the classes are compiled against
    "X.java": "public class X {}",
    "Y.java": "public class Y {}",
    "I.java": "public interface I<T> { T visit(X x, T t); }",
    "J.java": "public interface J { void take(Y y); }",
    "Impl.java": "public class Impl implements I<String> { public String visit(X x, String t) { return t; } }",
    "Impl2.java": "public class Impl2 implements J { public void take(Y y) {} }",
}
OLD = {"I.java": "public interface I<T> {}", "J.java": "public interface J {}"}  # before `visit` and `take`
# per package, the classes its jar holds from the new and the old compile: `full` all, `old` the old interfaces
# (Y left out, as a newer JDK's type is), `gone` the class alone (its interface and parameter type in a missing jar)
PACKAGES = {"full": (["X", "Y", "I", "J", "Impl", "Impl2"], []), "old": (["X", "Impl", "Impl2"], ["I", "J"]),
            "gone": (["Impl"], [])}


def _compile(folder, name: str, sources: dict, classpath: str | None = None):
    src, out = folder / f"src-{name}", folder / f"classes-{name}"
    files = []
    for package in PACKAGES:
        for file, text in sources.items():
            path = src / package / file
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(f"package {package}; {text}")
            files.append(str(path))
    jdktool.run(["javac", "-d", str(out), *(["-cp", classpath] if classpath else []), *files],
                check=True, capture_output=True)
    return out


@pytest.fixture(scope="module")
def world(jdx_home, tmp_path_factory):
    folder = tmp_path_factory.mktemp("missing_supertype")
    new = _compile(folder, "new", NEW)
    old = _compile(folder, "old", OLD)
    jar = folder / "p.jar"
    entries = []
    for package, (from_new, from_old) in PACKAGES.items():
        entries += [arg for c in from_new for arg in ("-C", str(new), f"{package}/{c}.class")]
        entries += [arg for c in from_old for arg in ("-C", str(old), f"{package}/{c}.class")]
    jdktool.run(["jar", "cf", str(jar), *entries], check=True)
    javap = {p: jdktool.run(["javap", "-p", "-cp", str(new), f"{p}.Impl", f"{p}.Impl2"], capture_output=True,
                            text=True, check=True).stdout for p in PACKAGES}
    service = JdxService(Options(jars=[str(jar)], cache_dir=str(jdx_home / "cache")))
    yield {"service": service, "javap": javap}
    service.close()


def _answer(world, ref: str) -> tuple[dict, dict]:
    result = world["service"].overrides(ref, ArtifactFilter(), 50).result
    return result, result["methods"][0]


def test_javac_wrote_the_bridge_and_none_for_take(world):
    assert "public java.lang.Object visit(old.X, java.lang.Object);" in world["javap"]["old"]
    assert world["javap"]["old"].count("take(") == 1


def test_with_the_supertypes_it_lists_the_overridden_methods_and_no_note(world):
    for ref, up in (("full.Impl#visit", "full.I#visit(full.X, java.lang.Object)"),
                    ("full.Impl2#take", "full.J#take(full.Y)")):
        result, m = _answer(world, ref)
        assert [e["method"] for e in m["overrides"]] == [up]
        assert "notes" not in m and "unresolved_supertypes" not in result


def test_a_bridge_no_supertype_explains_says_the_method_overrides_one_the_workspace_lacks(world):
    result, m = _answer(world, "old.Impl#visit")
    assert m["overrides"] == [] and "unresolved_supertypes" not in result
    assert m["notes"] == ["a bridge, old.Impl#visit(old.X, java.lang.Object):java.lang.Object, shows it overrides a "
                          "method no supertype in the workspace declares: another version of a supertype (a newer JDK "
                          "or library) or a missing jar declares it"]
    text = "\n".join(render_overrides(result))
    assert "  overrides: (none)\n    note: a bridge, old.Impl#visit(" in text
    _, bridge = _answer(world, "old.Impl#visit(old.X, java.lang.Object)")
    assert bridge["notes"][0].startswith("it is a bridge: it overrides a method no supertype in the workspace")


def test_without_a_bridge_a_missing_parameter_type_says_it_may_override(world):
    _, m = _answer(world, "old.Impl2#take")
    assert m["overrides"] == []
    assert m["notes"] == ["its parameter type old.Y is not in the workspace: a version of a supertype that has it "
                          "(a newer JDK or library) may declare a method it overrides"]


def test_a_missing_supertype_is_named(world):
    result, m = _answer(world, "gone.Impl#visit")
    assert result["unresolved_supertypes"] == ["gone.I"]
    assert m["notes"] == ["a bridge, gone.Impl#visit(gone.X, java.lang.Object):java.lang.Object, shows it overrides a "
                          "method no supertype in the workspace declares: another version of a supertype (a newer JDK "
                          "or library) or a missing jar declares it; its parameter type gone.X is not in the workspace",
                          "gone.I is not in the workspace: the method may override its methods"]
