"""The Kotlin view of `members` folds the static field holding a Kotlin supertype's companion object, as it folds the
class's own (T30: `members kotlinx.coroutines.Deferred` listed `field public static final Job.Key Key` inherited
from `Job`, a JVM artefact Kotlin code never names). javap -p of the fixture is the oracle of the field."""

from __future__ import annotations

import subprocess

import pytest

pytestmark = pytest.mark.soak  # a trial's regression family with its own graph builds: the soak runs it whole (.ci/run)

SOURCE = '''package kj

interface Job {
    val active: Boolean
    companion object Key {
        const val NAME = "job"
    }
}

interface Deferred : Job {
    fun await(): Int
}

object Single : Deferred {
    override val active = true
    override fun await() = 1
}
'''


@pytest.fixture(scope="module")
def built(tmp_path_factory, jdx_home):
    from tests.kotlin.corpus import indexed_store, kotlinc_jar

    jar = kotlinc_jar("inherited-companion", {"J.kt": SOURCE})
    for store in indexed_store(tmp_path_factory, jdx_home, jar, "ktic", "inherited-companion.jar"):
        yield store, jar


def _members(store, fqn: str, view: str) -> dict:
    from jdx.engine.kotlin_members import members_view
    from jdx.engine.members import MemberOptions, list_members

    opts = MemberOptions()
    result = list_members(store, fqn, opts)
    if result.pop("kotlin_target", False) and view == "kotlin":
        members_view(store, result, opts.access, opts.sort)
    return result


@pytest.mark.parametrize("fqn", ["kj.Deferred", "kj.Single"])
def test_an_inherited_companion_field_folds(built, fqn):
    store, jar = built
    javap = subprocess.run(["javap", "-p", "-cp", str(jar), "kj.Job"], capture_output=True, text=True,
                           check=True).stdout
    assert "public static final kj.Job$Key Key;" in javap
    jvm = _members(store, fqn, "jvm")["members"]
    assert [m["declaring"] for m in jvm if m["name"] == "Key"] == ["kj.Job"]  # the JVM view keeps it
    kotlin = _members(store, fqn, "kotlin")
    assert not [m for m in kotlin["members"] if m["name"] == "Key"], kotlin["members"]
    assert any(m["name"] == "await" for m in kotlin["members"])
