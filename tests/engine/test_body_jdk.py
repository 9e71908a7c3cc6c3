"""Differential over the JDK's own sources (`lib/src.zip`, Debian `openjdk-17-source`): for every non-abstract,
non-native, non-synthetic method of a deterministic sample of java.base classes, `body` returns text that
begins with that method's declaration (name and parameter count match the binary member), contains the
LineNumberTable lines and has balanced braces, with no SOURCES_VERSION_MISMATCH (methods and fields of the
JDK's sources and binary agree, so any mismatch is a false positive). The oracle is javac's output (the class files) against the
JDK's source files; nobody here wrote either.

Default tier: 60 classes. `-m soak`: the 300 of the acceptance criteria. Measured rate: 100% of the methods
that have a declaration (the rest are compiler-written: default constructors, enum values/valueOf, record
members, static initialisers made of field initialisers — labelled implicit — or live in classes jlink
generates at build time, which have no source file at all).
"""

from __future__ import annotations

import zipfile
from collections import Counter
from pathlib import Path

import pytest

from jdx.engine import src_body
from jdx.engine.java_parse import parse_source
from tests.service import JdxService, Options
from jdx.engine.source_match import descriptor_params
from jdx.graph_schema import queries

SKIP_FLAGS = 0x0400 | 0x0100 | 0x1000 | 0x0040  # abstract, native, synthetic, bridge


@pytest.fixture(scope="module")
def service(jdx_home):
    s = JdxService(Options(cache_dir=str(jdx_home / "cache")))
    art = next((a for a in s.artifacts() if a.name == "java.base"), None)
    if art is None or not (Path(art.spec[len("jrt:"):].rsplit("!", 1)[0]) / "lib" / "src.zip").is_file():
        pytest.skip("no JDK lib/src.zip (Debian/Ubuntu: apt-get install openjdk-17-source)")
    yield s
    s.close()


def balanced(text: str) -> bool:
    """Braces balance outside comments, string/char literals and text blocks."""
    depth, i, n = 0, 0, len(text)
    while i < n:
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            i = n if j < 0 else j + 2
        elif text.startswith('"""', i):
            j = text.find('"""', i + 3)
            i = n if j < 0 else j + 3
        elif text[i] in "\"'":
            quote, j = text[i], i + 1
            while j < n and text[j] != quote:
                j += 2 if text[j] == "\\" else 1
            i = j + 1
        else:
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            if depth < 0:
                return False
            i += 1
    return depth == 0


def sample(service: JdxService, count: int) -> list[str]:
    """`count` java.base classes spread evenly over the sorted list (nested and anonymous ones included)."""
    rows = service.store().query(
        "MATCH (a:Artifact {name: 'java.base'})-[:CONTAINS]->(t:Type) WHERE NOT t.external "
        "RETURN t.id AS id ORDER BY id").to_pylist()
    ids = [r["id"] for r in rows]
    return ids[:: max(1, len(ids) // count)][:count]


def check(service: JdxService, type_ids: list[str]) -> tuple[Counter, list[str]]:
    ctx = service.source_context()
    stats: Counter = Counter()
    failures: list[str] = []
    for tid in type_ids:
        type_row = ctx.type_row(tid)
        generated = not (type_row.get("source_file") or "").endswith(".java")
        for r in service.store().rows(queries.MEMBERS_OF, {"id": tid}):
            m = {k[2:]: v for k, v in r.items()}
            if m["access"] & SKIP_FLAGS:
                continue
            if generated:
                stats["no source file (generated at JDK build)"] += 1
                continue
            ref = f"{tid}#{m['name']}{m['descriptor']}"
            res, warnings, _p = src_body.body(ctx, src_body.Target(type_row, ref, m["kind"], m),
                                              src_body.BodyOptions())
            mismatches = [w.message for w in warnings if w.code == "SOURCES_VERSION_MISMATCH"]
            if mismatches:  # the JDK's own sources match its binary: any mismatch is a false positive
                failures.append(f"{ref}: {mismatches[0]}")
            if res["origin"] != "sources":
                failures.append(f"{ref}: {res['header']}")
                continue
            if res["implicit"]:
                stats["implicit"] += 1
                continue
            stats["declared"] += 1
            problem = _problem(m, res)
            if problem:
                failures.append(f"{ref}: {problem}")
    return stats, failures


def _problem(m: dict, res: dict) -> str | None:
    text = "\n".join(res["text"])
    decls = [d for d in parse_source(("class W {\n" + text + "\n}").encode()).decls
             if d.kind in ("method", "constructor", "compact_constructor", "static_initializer")]
    if not decls:
        return "no declaration in the text"
    d, binary = decls[0], descriptor_params(m["descriptor"])
    if m["name"] == "<clinit>":
        ok = d.kind == "static_initializer"
    elif m["name"] == "<init>":
        ok = d.kind in ("constructor", "compact_constructor") and len(d.params) <= len(binary)
    else:
        ok = d.name == m["name"] and len(d.params) == len(binary)
    if not ok:
        return f"begins with {d.kind} {d.name}({len(d.params)} params)"
    a, b = res["source"]["lines"]
    first, last = m.get("first_line") or -1, m.get("last_line") or -1
    if first > 0 and m["name"] not in ("<init>", "<clinit>") and not (a <= first and last <= b):
        return f"lines {a}-{b} miss the LineNumberTable's {first}-{last}"
    return None if balanced(text) else "unbalanced braces"


def _run(service: JdxService, count: int) -> None:
    stats, failures = check(service, sample(service, count))
    rate = stats["declared"] / max(1, stats["declared"] + len(failures))
    print(f"\nbody differential over {count} java.base classes: {stats['declared']} declared methods, "
          f"rate {rate:.2%}; {dict(stats)}")
    assert stats["declared"] > count, stats
    assert not failures, f"rate {rate:.2%}; failures:\n" + "\n".join(failures[:50])


def test_body_differential_default_sample(service):
    _run(service, 25)


@pytest.mark.soak
def test_body_differential_300_classes(service):
    _run(service, 300)


def test_hashmap_get_prints_the_real_source_lines(service):
    answer = service.body("java.util.HashMap#get(Object)")
    r = answer.result
    a, b = r["source"]["lines"]
    assert r["header"] == f"source: src.zip (java.base/java/util/HashMap.java:{a}-{b})"
    art = next(x for x in service.artifacts() if x.name == "java.base")
    home = Path(art.spec[len("jrt:"):].rsplit("!", 1)[0])
    with zipfile.ZipFile(home / "lib" / "src.zip") as z:
        real = z.read("java.base/java/util/HashMap.java").decode().splitlines()
    assert r["text"] == real[a - 1:b]
    assert r["text"][0].strip() == "public V get(Object key) {" and r["text"][-1].strip() == "}"
    assert answer.provenance[0]["origin"] == "sources" and not answer.warnings


def test_arraylist_add_doc_and_inherited_doc(service):
    own = service.doc("java.util.ArrayList#add(Object)").result["docs"][0]
    assert own["text"][0] == "Appends the specified element to the end of this list."
    assert own["inherited_from"] is None
    inherited = service.doc("java.util.ArrayList#removeIf(java.util.function.Predicate)").result["docs"][0]
    assert inherited["inherited_from"] == "java.util.Collection#removeIf(java.util.function.Predicate)"
    assert inherited["text"][0].startswith("Removes all of the elements of this collection that satisfy")


def test_members_first_sentences_on_the_jdk(service):
    from jdx.engine.members import MemberOptions

    items = service.members("java.util.HashMap", MemberOptions()).result["members"]
    out = service.first_sentence_docs(items)
    assert out["java.util.HashMap#get(java.lang.Object)"] == \
        "Returns the value to which the specified key is mapped, or null if this map contains no mapping for the key."
    assert out["java.util.HashMap#size()"] == "Returns the number of key-value mappings in this map."
    assert out["java.util.AbstractMap#toString()"].startswith("Returns a string representation of this map.")
    assert len(out) >= len(items) - 5, sorted({i["ref"] for i in items} - set(out))
