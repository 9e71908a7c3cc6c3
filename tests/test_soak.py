"""Corpus soak (marker `soak`, run by .ci/run after the default tier): every Debian jar on this machine plus
the JDK in one workspace, and every read command over every public type, asserting invariants rather than
values: no crash (only jdx's own exit codes), JSON that round-trips, the same bytes twice."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from jdx.render import envelope
from jdx.engine.members import MemberOptions
from tests.service import JdxService, Options
from jdx.errors import JdxError

pytestmark = pytest.mark.soak

# Every Debian jar except Kotlin's compiler distribution (~90 jars, 290 MB of compiler internals that the
# `kotlin` package brings along; its stdlib and reflect jars stay in).
JARS = sorted({str(p) for p in (q.resolve() for q in Path("/usr/share/java").glob("*.jar"))
               if not p.name.startswith("kotlin") or p.name.startswith(("kotlin-stdlib", "kotlin-reflect"))})


PER_ARTIFACT = 60  # public types per artifact each command answers (twice): ~15k types over the corpus


@pytest.fixture(scope="module")
def corpus(jdx_home):
    if not JARS:
        pytest.skip("no jars under /usr/share/java")
    service = JdxService(Options(jars=JARS, cache_dir=str(jdx_home / "cache")))
    report = service.index().result
    assert report["classes"] > 26_000
    return service


def public_types(service: JdxService, limit_per_artifact: int) -> list[str]:
    rows = service.store().rows(
        "MATCH (a:Artifact)-[:CONTAINS]->(t:Type) WHERE NOT t.shadowed AND t.access % 2 = 1 "
        "RETURN a.name AS artifact, t.fqn AS fqn ORDER BY artifact, fqn")
    picked: dict[str, list[str]] = {}
    for r in rows:
        bucket = picked.setdefault(r["artifact"], [])
        if len(bucket) < limit_per_artifact:
            bucket.append(r["fqn"])
    return [fqn for fqns in picked.values() for fqn in fqns]


def answer(service: JdxService, command: str, fqn: str) -> str:
    try:
        if command == "members":
            ans = service.members(fqn, MemberOptions())
        else:
            ans = getattr(service, command)(fqn, None)
        env = envelope.success(command, fqn, ans)
    except JdxError as exc:
        assert exc.exit_code in (1, 2), f"{command} {fqn}: {exc.code} {exc.message}"
        env = envelope.failure(command, fqn, exc)
    text = envelope.dumps(env)
    assert json.loads(text)["jdx"] == 1
    return text


@pytest.mark.parametrize("command", ["members", "show", "outline"])
def test_every_read_command_over_the_corpus(corpus, command):
    failures = []
    for fqn in public_types(corpus, limit_per_artifact=PER_ARTIFACT):
        try:
            first = answer(corpus, command, fqn)
            assert answer(corpus, command, fqn) == first, "not deterministic"
        except AssertionError as exc:
            failures.append(f"{fqn}: {exc}")
        except Exception as exc:  # noqa: BLE001 - a crash is exactly what the soak looks for
            failures.append(f"{fqn}: crashed with {type(exc).__name__}: {exc}")
    assert not failures, f"{len(failures)} failures, first: " + "\n".join(failures[:10])


def test_reindex_is_a_no_op(corpus):
    again = JdxService(Options(jars=JARS, cache_dir=corpus.options.cache_dir)).index().result
    assert again["built"] is False and again["extracted"] == 0
