"""`callers --depth N`: an entry with no caller of its own that overrides a method with callers is no dead end: the
JVM may dispatch those calls to it (commons-pool2's `GenericObjectPool#borrowObject()` under `borrowObject(Duration)`,
whose callers call `ObjectPool#borrowObject()`). The tree says so under it, as depth 1 says it of the root.

Oracle: javap -c of the caller: its invokeinterface names the interface's method."""

from __future__ import annotations

import pytest

from jdx.engine.rel_calls import CallOptions, call_tree
from tests.fixtures.javac import compiled_jar, jar_service, javap

SOURCES = {
    "dl/Pool.java": "package dl;\npublic interface Pool { Object borrow(); }\n",
    "dl/Impl.java": "package dl;\npublic class Impl implements Pool {\n"
                    "  public Object borrow() { return Work.make(); }\n"
                    "  public Object quiet() { return Work.make(); }\n}\n",
    "dl/Work.java": "package dl;\npublic class Work { public static Object make() { return null; } }\n",
    "dl/User.java": "package dl;\npublic class User { Object use(Pool p) { return p.borrow(); } }\n",
}


@pytest.fixture(scope="module")
def store(tmp_path_factory, jdx_home):
    _root, jar, classes = compiled_jar(tmp_path_factory, "dispatched_leaves", SOURCES, "dl", "dl.jar")
    assert "invokeinterface" in javap(classes, "dl.User", "-c") and "Method dl/Pool.borrow:" in \
        javap(classes, "dl.User", "-c")  # the call names the interface's method, never Impl's
    with jar_service(jar, jdx_home) as svc:
        yield svc.store()


def test_a_leaf_that_overrides_a_called_method_says_who_may_dispatch_to_it(store):
    result, _cut = call_tree(store, "dl.Work#make", CallOptions(depth=3), "in")
    leaves = [e["method"] for e in result["roots"][0]["tree"]]
    assert leaves == ["dl.Impl#borrow()", "dl.Impl#quiet()"] and not any(e.get("children") for e in
                                                                         result["roots"][0]["tree"])
    said = [n for n in result["notes"] if n.startswith("a leaf above")]
    assert said == ["a leaf above, dl.Impl#borrow(): callers through the method it overrides, dl.Pool#borrow(): "
                    "1 site in 1 method may dispatch here: jdx callers 'dl.Pool#borrow()'"], result["notes"]


def test_depth_one_says_nothing_of_leaves(store):
    result, _cut = call_tree(store, "dl.Work#make", CallOptions(depth=1), "in")
    assert not [n for n in result["notes"] if n.startswith("a leaf above")]
