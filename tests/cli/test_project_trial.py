"""A Maven project built only in part (an agent trial's findings): tests not compiled under `--tests`, a class file
that is there but unreadable, a member added in the source and not recompiled, and a `--timeout` that cut the
indexing short (jdx/loaders/project.py, jdx/engine/unbuilt_sources.py, jdx/commands/execute.py, jdx/cli/main.py).

One project serves the graph tests, so the default tier builds its graph once."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from jdx.loaders.project import discover

from tests.fixtures import jdktool

pytestmark = pytest.mark.soak  # a trial's regression family with its own graph builds: the soak runs it whole (.ci/run)

POM = ('<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion>'
       "<groupId>com.acme</groupId><artifactId>shop</artifactId><version>1.0</version></project>\n")
MODEL = "src/main/java/com/acme/shop/model"
SOURCES = {
    f"{MODEL}/Order.java": "package com.acme.shop.model;\n"
                           "public class Order {\n    public int total() { return new OrderLine().price(); }\n}\n",
    f"{MODEL}/OrderLine.java": "package com.acme.shop.model;\n"
                               "public class OrderLine {\n    public int price() { return 1; }\n}\n",
    f"{MODEL}/Client.java": "package com.acme.shop.model;\n"
                            "public class Client {\n    public String name() { return \"n\"; }\n}\n",
    "src/test/java/com/acme/shop/AppTest.java": "package com.acme.shop;\nimport com.acme.shop.model.Order;\n"
                                                "public class AppTest {\n"
                                                "    public void testTotal() { new Order().total(); }\n}\n",
}
CLIENT_NOW = ("package com.acme.shop.model;\npublic class Client {\n    public String name() { return \"n\"; }\n"
              "    /** The phone. */\n    public String phone() { return \"p\"; }\n}\n")


@pytest.fixture(scope="module")
def shop(tmp_path_factory) -> Path:
    """target/classes compiled, then: no target/test-classes, OrderLine.class truncated, a garbage Junk.class with no
    source, and Client.java given a method `phone` that was not recompiled."""
    if shutil.which("javac") is None:
        pytest.skip("javac is not installed")
    root = tmp_path_factory.mktemp("trial") / "shop"
    for rel, text in SOURCES.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    (root / "pom.xml").write_text(POM)
    classes = root / "target" / "classes"
    jdktool.run(["javac", "-d", str(classes), *[str(root / r) for r in SOURCES if r.startswith("src/main")]],
                   check=True, capture_output=True, timeout=120)
    line = classes / "com/acme/shop/model/OrderLine.class"
    line.write_bytes(line.read_bytes()[:40])
    (classes / "app").mkdir()
    (classes / "app/Junk.class").write_bytes(b"garbage")
    (root / MODEL / "Client.java").write_text(CLIENT_NOW)
    return root


def _json(run_jdx, root: Path, *args: str) -> tuple[int, dict]:
    r = run_jdx("--project", str(root), "--no-jdk", *args, "--json")  # no JDK: a small graph
    return r.code, json.loads(r.out)


def test_tests_without_test_classes_warn(run_jdx, shop):
    code, env = _json(run_jdx, shop, "callers", "com.acme.shop.model.Order#total", "--tests")
    assert code == 0, env
    (w,) = [w for w in env["warnings"] if w["code"] == "PROJECT_NOT_BUILT"]
    assert "no target/test-classes" in w["message"] and "mvn test-compile" in w["message"], w
    code, env = _json(run_jdx, shop, "callers", "com.acme.shop.model.Order#total")
    assert "PROJECT_NOT_BUILT" not in [w["code"] for w in env["warnings"]], env  # without --tests: nothing missing


def test_a_test_source_names_the_test_compile(run_jdx, shop):
    r = run_jdx("--project", str(shop), "--no-jdk", "show", "com.acme.shop.AppTest", "--tests")
    assert r.code == 1, r
    first = r.out.splitlines()[0]
    assert "declared in src/test/java/com/acme/shop/AppTest.java" in first, first
    assert "target/test-classes" in first and "mvn test-compile" in first, first
    assert "mvn compile" not in first and "target/classes" not in first, first


def test_an_unreadable_class_in_a_class_directory_says_only_that(run_jdx, shop):
    r = run_jdx("--project", str(shop), "--no-jdk", "show", "com.acme.shop.model.OrderLine")
    assert r.code == 5, r
    assert r.err.startswith("error: com.acme.shop.model.OrderLine: the class file is there but could not be read "
                            "(CORRUPT_CLASS: com.acme:shop:1.0: com/acme/shop/model/OrderLine.class: "), r.err
    assert "lacks it" not in r.err and "mvn compile" not in r.err and "jar" not in r.err, r.err
    hint = next(line for line in r.err.splitlines() if line.startswith("hint: "))
    assert hint.endswith("target/classes/com/acme/shop/model/OrderLine.class is damaged: recompile it "
                         "(javap -v says more)"), hint
    code, env = _json(run_jdx, shop, "show", "com.acme.shop.model.OrderLine")
    assert code == 5 and env["error"]["code"] == "ARTIFACT_READ_ERROR" and "result" not in env, env


def test_an_unreadable_class_without_a_source_is_not_plain_not_found(run_jdx, shop):
    """Two corrupt classes: the summary warning names only the first; each is still matched."""
    for fqn, entry in (("app.Junk", "app/Junk.class"), ("com.acme.shop.model.OrderLine",
                                                        "com/acme/shop/model/OrderLine.class")):
        code, env = _json(run_jdx, shop, "members", fqn)
        assert code == 5 and env["error"]["code"] == "ARTIFACT_READ_ERROR", env
        assert f"com.acme:shop:1.0: {entry}: " in env["error"]["message"], env
        assert "recompile it" in env["error"]["hint"], env


def test_a_member_added_in_the_source_and_not_recompiled(run_jdx, shop):
    r = run_jdx("--project", str(shop), "--no-jdk", "doc", "com.acme.shop.model.Client#phone")
    assert r.code == 1, r
    assert r.out.splitlines()[0] == ("not found in the graph: com.acme.shop.model.Client#phone is declared in "
                                     "src/main/java/com/acme/shop/model/Client.java but not in the compiled class "
                                     "(rebuild: mvn compile)"), r.out
    r = run_jdx("--project", str(shop), "--no-jdk", "doc", "com.acme.shop.model.Client#nope")  # in no file either
    assert r.code == 1 and r.out.startswith("not found: com.acme.shop.model.Client#nope"), r.out


def test_gradle_tests_without_test_classes_warn(tmp_path):
    (tmp_path / "src/main/java").mkdir(parents=True)
    (tmp_path / "src/test/java").mkdir(parents=True)
    (tmp_path / "build/classes/java/main").mkdir(parents=True)
    (tmp_path / "build.gradle").write_text("")
    assert not [w for w in discover(str(tmp_path), "gradle").warnings if w.code == "PROJECT_NOT_BUILT"]
    (w,) = [w for w in discover(str(tmp_path), "gradle", tests=True).warnings if w.code == "PROJECT_NOT_BUILT"]
    assert "build/classes/<language>/test" in w.message and "gradle testClasses" in w.message, w
    (tmp_path / "build/classes/java/test").mkdir()
    assert not [w for w in discover(str(tmp_path), "gradle", tests=True).warnings if w.code == "PROJECT_NOT_BUILT"]


def test_a_timeout_while_building_the_graph_says_so(run_jdx, monkeypatch, tmp_path):
    """The alarm lands while the graph is built: the answer names that phase and the cache, not --limit."""
    import time

    from jdx.loaders import indexer

    def slow_build(cache, artifacts, progress=None, **kwargs):
        progress("graph", 0, 1)
        time.sleep(5)
        raise AssertionError("the timeout did not fire")

    monkeypatch.setattr(indexer, "ensure_graph", slow_build)
    r = run_jdx("--cache-dir", str(tmp_path), "members", "java.util.Map", "--timeout", "200ms", "--json")
    env = json.loads(r.out)
    assert (r.code, env["error"]["code"]) == (6, "TIMEOUT"), r
    assert env["error"]["message"] == "timed out after --timeout 200ms while building the workspace graph", env
    assert "the graph is then cached" in env["error"]["hint"] and "--limit" not in env["error"]["hint"], env


def test_a_timeout_names_its_phase():
    from jdx.cli.main import deadline

    class Session:
        progress = None
        is_open = False

    session, limit = Session(), deadline("5s")
    with limit.watching(session) as phase:
        assert session.progress is phase
        where, hint = phase.describe()
        assert where.startswith("opening the workspace") and "--limit" not in hint
        phase("extract", 3, 70)
        assert phase.describe()[0] == "reading the workspace's classes (3/70 artifacts read)"
        phase("extract", 70, 70)
        phase("graph", 0, 1)
        assert limit.error().message == "timed out after --timeout 5s while building the workspace graph"
        phase("graph", 1, 1)
        session.is_open = True
        assert limit.error().message == "timed out after --timeout 5s while answering the query"
        assert limit.error().hint == "raise --timeout, or narrow the question (--limit, --depth)"
    assert session.progress is None


def test_a_project_flag_naming_no_project_is_a_usage_error(run_jdx, tmp_path):
    """`--project DIR` where DIR (nor any directory above it) holds no build file, jars or classes: exit 3 naming it,
    never an answer from the JDK alone (a mistyped project path)."""
    empty = tmp_path / "empty"
    empty.mkdir()
    r = run_jdx("--json", "--project", str(empty), "show", "java.util.HashMap")
    env = json.loads(r.out)
    assert (r.code, env["error"]["code"]) == (3, "USAGE"), r.out + r.err
    assert env["error"]["message"].startswith(f"--project {empty}: no project there or above"), env


def test_a_test_class_or_library_not_found_without_tests_points_at_tests(run_jdx, shop, tmp_path):
    """T64: from a project, `jdx show org.junit.Assert` and a compiled test class were a bare not-found: the workspace
    leaves test code out unless --tests; the compiled test class is named where a test class directory holds it."""
    built = tmp_path / "built"
    shutil.copytree(shop, built)
    jdktool.run(["javac", "-d", str(built / "target" / "test-classes"), "-cp", str(built / "target" / "classes"),
                 str(built / "src/test/java/com/acme/shop/AppTest.java")], check=True, capture_output=True, timeout=120)
    r = run_jdx("--project", str(built), "--no-jdk", "show", "com.acme.shop.AppTest")
    hint = next(line for line in (r.out + r.err).splitlines() if line.startswith("hint: "))
    assert r.code == 1 and hint.endswith(
        "target/test-classes/com/acme/shop/AppTest.class is a compiled test class: --tests adds the test classes and "
        "test-scoped dependencies"), hint
    r = run_jdx("--project", str(built), "--no-jdk", "show", "org.junit.Assert")
    assert r.code == 1 and "the workspace leaves test code out: --tests adds" in r.out + r.err, r
    r = run_jdx("--project", str(built), "--no-jdk", "show", "com.acme.shop.AppTest", "--tests")
    assert r.code == 0, r.err
