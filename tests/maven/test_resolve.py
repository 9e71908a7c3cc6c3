"""Offline Maven resolution with Maven's own resolver (spec §13), against a repository built by the test."""

from __future__ import annotations

from pathlib import Path

import pytest

from jdx.loaders import maven_resolver as mr
from tests.maven import fixture as fx


@pytest.fixture(scope="module")
def w(world):
    return world.root, world.repo, world.maven, world.cache


def _project_request(repo: Path, project: Path, scopes=("compile", "provided", "runtime", "system")):
    modules = (("com.example:root:1.0", str(project / "pom.xml"), ""),
               ("com.example:api:1.0", str(project / "api/pom.xml"), str(project / "api/target/classes")),
               ("com.example:app:1.0", str(project / "app/pom.xml"), str(project / "app/target/classes")))
    return mr.ResolveRequest(repo=repo, scopes=scopes, modules=modules,
                             projects=tuple(m[1] for m in modules))


def _names(result: mr.Resolution) -> list[str]:
    return [d.display for d in result.dependencies]


def test_coordinate_brings_its_runtime_dependencies(w):
    _root, repo, _project, cache = w
    result = mr.resolve(cache, mr.ResolveRequest(repo=repo, coords=("org.fix:util:1.0",)))
    assert _names(result) == ["org.fix:util:1.0", "org.fix:core:2.0", "org.fix:managed:1.0"]
    assert not result.missing and not result.errors
    assert all(Path(d.path).is_file() for d in result.dependencies)


def test_project_applies_maven_rules(w):
    _root, repo, project, cache = w
    result = mr.resolve(cache, _project_request(repo, project))
    names = _names(result)
    assert "org.fix:core:1.0" in names and "org.fix:core:2.0" not in names  # nearest wins
    assert "org.fix:managed:2.0" in names and "org.fix:managed:1.0" not in names  # parent's dependencyManagement
    assert "org.fix:bommed:1.1" in names  # version from the imported BOM
    assert "org.fix:kept:1.0" in names and "org.fix:excluded:1.0" not in names  # exclusion
    assert "org.fix:opt:1.0" not in names  # optional dependency of a dependency
    assert "org.fix:utiltest:1.0" not in names and "org.fix:testlib:1.0" not in names  # test scope
    assert "org.fix:rt:1.0" in names  # runtime scope
    assert "org.fix:classy:1.0:jdk11" in names  # classifier
    api = next(d for d in result.dependencies if d.display == "com.example:api:1.0")
    assert api.path == str(project / "api/target/classes")  # reactor module: its class directory
    assert result.missing == ["org.fix:ghost:jar:1.0"]
    assert any(w.code == "DEPENDENCY_MISSING" and "org.fix:ghost" in w.message for w in result.warnings)
    assert set(result.roots) == {"com.example:root:1.0", "com.example:api:1.0", "com.example:app:1.0"}


def test_test_scope_on_request_and_cache(w):
    _root, repo, project, cache = w
    request = _project_request(repo, project, ("compile", "provided", "runtime", "system", "test"))
    first = mr.resolve(cache, request)
    assert "org.fix:testlib:1.0" in _names(first) and "org.fix:utiltest:1.0" not in _names(first)
    again = mr.resolve(cache, request)
    assert again.cached and _names(again) == _names(first)


def test_cache_follows_pom_content(w, tmp_path):
    _root, repo, project, cache = w
    copy = tmp_path / "p"
    import shutil

    shutil.copytree(project, copy)
    request = _project_request(repo, copy)
    assert not mr.resolve(cache, request).cached
    assert mr.resolve(cache, request).cached
    pom = copy / "app/pom.xml"
    pom.write_text(pom.read_text().replace("<artifactId>rt</artifactId>", "<artifactId>kept</artifactId>"))
    changed = mr.resolve(cache, request)
    assert not changed.cached and "org.fix:rt:1.0" not in _names(changed)


@pytest.mark.parametrize("case", ["malformed", "parent_cycle", "missing_parent", "property_cycle"])
def test_bad_poms_are_named_errors(w, tmp_path, case):
    _root, repo, _project, cache = w
    pom = tmp_path / "pom.xml"
    if case == "malformed":
        pom.write_text("<project><modelVersion>4.0.0</modelVersion><groupId>x</groupId")
    elif case == "parent_cycle":
        (tmp_path / "a").mkdir()
        (tmp_path / "a" / "pom.xml").write_text(fx._pom("a", "1", group="x", packaging="pom", parent=("x", "b", "1"))
                                                .replace("<parent>", "<parent><relativePath>../pom.xml</relativePath>"
                                                         , 1))
        pom.write_text(fx._pom("b", "1", group="x", packaging="pom", parent=("x", "a", "1"))
                       .replace("<parent>", "<parent><relativePath>a/pom.xml</relativePath>", 1))
    elif case == "missing_parent":
        pom.write_text(fx._pom("b", "1", group="x", parent=("x", "nowhere", "9")))
    else:
        pom.write_text(fx._pom("b", "1", "<properties><p>${q}</p><q>${p}</q></properties>"
                               + fx.deps(fx.dep("core", "${p}")), group="x"))
    request = mr.ResolveRequest(repo=repo, modules=(("x:b:1", str(pom), ""),), projects=(str(pom),))
    result = mr.resolve(cache, request)
    assert result.errors and result.errors[0].code == "POM_INVALID", result
    assert str(pom) in result.errors[0].message


def test_a_resolution_over_its_time_is_a_named_error(w, monkeypatch):
    _root, repo, project, cache = w
    monkeypatch.setenv("JDX_MAVEN_TIMEOUT", "0.000001")
    result = mr.resolve(cache, _project_request(repo, project), use_cache=False)
    assert [e.code for e in result.errors] == ["RESOLVE_TIMEOUT"] and not result.dependencies

@pytest.mark.soak  # slow: the soak runs it (.ci/run)

def test_a_huge_pom_in_the_repository_does_not_hang(w, tmp_path):
    """A dependency whose POM is 8 MB of dependency declarations: resolved (each one missing), named, bounded."""
    _root, repo, _project, cache = w
    big = tmp_path / "repo"
    import shutil

    shutil.copytree(repo / "org" / "fix" / "core", big / "org" / "fix" / "core")
    folder = big / "org" / "fix" / "huge" / "1.0"
    folder.mkdir(parents=True)
    body = fx.deps(*(fx.dep(f"n{i}", "1.0") for i in range(2000))) + "<description>" + "x" * (8 << 20) + \
        "</description>"
    (folder / "huge-1.0.pom").write_text(fx._pom("huge", "1.0", body))
    (folder / "huge-1.0.jar").write_bytes((repo / "org/fix/core/1.0/core-1.0.jar").read_bytes())
    result = mr.resolve(cache, mr.ResolveRequest(repo=big, coords=("org.fix:huge:1.0",)))
    assert [d.display for d in result.dependencies] == ["org.fix:huge:1.0"]
    assert len(result.missing) == 2000
    missing = next(w for w in result.warnings if w.code == "DEPENDENCY_MISSING")
    assert "and 1980 more" in missing.message
