"""`search` of a private function of a multi-file facade's part names it in its part, where it is: the facade
inherits or copies only the non-private members (T30: `search launchSharing` gave
`FlowKt#launchSharing$FlowKt__ShareKt(…)`, a ref `body` could not find). javap -p of the facade and the part is the
oracle."""

from __future__ import annotations

import subprocess

import pytest

pytestmark = pytest.mark.soak  # a trial's regression family with its own graph builds: the soak runs it whole (.ci/run)

A = '@file:JvmName("Chain")\n@file:JvmMultifileClass\npackage kf\n\nfun launchIt(): Int = sharing() + 1\n\n' \
    'private fun sharing(): Int = 3\n'
B = '@file:JvmName("Chain")\n@file:JvmMultifileClass\npackage kf\n\nfun other(): Int = 2\n'


@pytest.fixture(scope="module")
def built(tmp_path_factory, jdx_home):
    from tests.kotlin.corpus import indexed_store, kotlinc_jar

    jar = kotlinc_jar("facade-private", {"A.kt": A, "B.kt": B})
    for store in indexed_store(tmp_path_factory, jdx_home, jar, "ktfp", "facade-private.jar"):
        yield store, jar


def _javap(jar, cls: str) -> str:
    return subprocess.run(["javap", "-p", "-cp", str(jar), cls], capture_output=True, text=True, check=True).stdout


def _hit(store, pattern: str) -> dict:
    from jdx.engine.search import SearchOptions, search

    result, _ = search(store, pattern, SearchOptions(view="kotlin", limit=10))
    (match,) = [m for m in result["matches"] if m.get("kotlin", {}).get("name") == pattern]
    return match


def test_a_private_part_function_is_named_in_its_part(built):
    store, jar = built
    assert "sharing" not in _javap(jar, "kf.Chain")  # the facade has no such method
    assert "private static final int sharing$Chain__AKt()" in _javap(jar, "kf.Chain__AKt")
    hit = _hit(store, "sharing")
    assert hit["ref"] == "kf.Chain__AKt#sharing$Chain__AKt()", hit
    from jdx.engine.member_resolve import lookup

    assert lookup(store, hit["ref"], require_one=True).members  # the ref resolves


def test_a_public_part_function_is_still_named_in_its_facade(built):
    store, jar = built
    assert "public static final int launchIt()" in _javap(jar, "kf.Chain")
    assert _hit(store, "launchIt")["ref"] == "kf.Chain#launchIt()"
