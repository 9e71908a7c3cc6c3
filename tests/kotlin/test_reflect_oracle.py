"""Differential oracle (spec §18): kotlin-reflect 1.6.10, run in a JVM, against jdx's pure-Python decoding of
`@Metadata` — names, kinds, visibilities, nullability, suspend, receivers, parameter lists, type parameters,
JVM member links. A sample of one stdlib in the default tier, whole jars of every stdlib in the soak."""

from __future__ import annotations

import random

import pytest

from tests.kotlin.corpus import (STDLIB_VERSIONS, fixtures_jar, metadata_rows, reflect_view, runtime_stdlib,
                                 stdlib_jar)
from tests.kotlin.oracle_compare import comparable, compare, decode_all, jdx_view


def _check(jar, rows, sample: int | None, extra=None) -> int:
    decoded = decode_all(rows)
    targets = {name: t for name, raw in rows if (t := comparable(name, raw)) is not None}
    names = sorted(targets)
    if sample is not None and len(names) > sample:
        names = sorted(random.Random(15).sample(names, sample))
    ours = [d for n in names for d in jdx_view(n, decoded[n], decoded)]
    compared, diffs, unanswered = compare(reflect_view(jar, [targets[n] for n in names], extra), ours)
    if unanswered:
        print(f"kotlin-reflect could not answer for {len(unanswered)} declaration(s), e.g. {unanswered[0]}")
    assert not diffs, f"{len(diffs)} difference(s) in {compared} declarations:\n" + "\n".join(diffs[:30])
    assert len(unanswered) * 50 < compared, unanswered[:10]
    return compared


def test_fixtures_agree_with_kotlin_reflect():
    jar = fixtures_jar()
    assert _check(runtime_stdlib(), metadata_rows(jar), None, extra=jar) >= 60


@pytest.mark.soak
def test_stdlib_sample_agrees_with_kotlin_reflect():
    jar = stdlib_jar("2.0.21")
    assert _check(jar, metadata_rows(jar), 40) > 200


@pytest.mark.soak
@pytest.mark.parametrize("version", STDLIB_VERSIONS)
def test_whole_stdlib_agrees_with_kotlin_reflect(version):
    jar = stdlib_jar(version)
    assert _check(jar, metadata_rows(jar), None) > 7000
