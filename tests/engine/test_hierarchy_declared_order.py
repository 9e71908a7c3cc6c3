"""`hierarchy` lists a type's supertypes as it declares them: its superclass, then its interfaces in the order of its
`implements` clause, as javap and `show` print them (commons-pool2's GenericObjectPool implements ObjectPool,
GenericObjectPoolMXBean, UsageTracking; hierarchy listed them by name)."""

from __future__ import annotations

import re

import pytest

from jdx.engine.rel_hierarchy import HierarchyOptions, hierarchy
from tests.fixtures.javac import compiled_jar, jar_service, javap

SOURCES = {
    "ho/Zeta.java": "package ho;\npublic interface Zeta { }\n",
    "ho/Alpha.java": "package ho;\npublic interface Alpha extends Zeta { }\n",
    "ho/Mid.java": "package ho;\npublic interface Mid { }\n",
    "ho/Base.java": "package ho;\npublic class Base implements Mid { }\n",
    "ho/Pool.java": "package ho;\npublic class Pool extends Base implements Zeta, Mid, Alpha { }\n",
}


@pytest.fixture(scope="module")
def built(tmp_path_factory, jdx_home):
    _root, jar, classes = compiled_jar(tmp_path_factory, "hierarchy_order", SOURCES, "ho", "ho.jar")
    with jar_service(jar, jdx_home) as svc:
        yield svc.store(), classes


def test_supertypes_come_in_declaration_order(built):
    store, classes = built
    declared = re.search(r"implements ([\w.,]+) \{", javap(classes, "ho.Pool")).group(1).split(",")
    assert declared == ["ho.Zeta", "ho.Mid", "ho.Alpha"]  # the oracle: javap's class line
    result, _warnings, _cut = hierarchy(store, "ho.Pool", HierarchyOptions(down=False))
    level = [e["type"] for e in result["up"]]
    assert level == ["ho.Base", *declared], level
