"""Differential: every call site and field access `javap -c -p -s` shows is a usage jdx reports.

For sampled classes of gson, guava and commons-lang3 (plus the graph fixtures), every invoke instruction
(invokevirtual/special/static/interface, with owner, name and descriptor) must be an INVOKES edge of its
method, resolved to a declaration with that name and descriptor on the owner or one of its supertypes
(`via` the owner then), and that declaration's `usages --kind call|new` must list the method as a site:
a lambda body's sites under the method that wrote the lambda, marked with the body's name. Likewise
getfield/getstatic are `read` usages and putfield/putstatic `write` usages of the field they resolve to.
"""

from __future__ import annotations

import re
import zipfile
from collections import defaultdict
from pathlib import Path

import pytest

from jdx.engine.rel_usages import usage_sites
from jdx.engine.relations import ArtifactFilter, Symbol, Target
from jdx.graph_schema.schema import rel_labels
from tests.service import JdxService, Options
from tests.conftest import GSON, GUAVA, LANG3, require
from tests.fixtures.build_graph import graph_jar
from tests.fixtures import jdktool

HEADER = re.compile(r"^(?:\S.*\s)?(?:class|interface|enum|record) ([\w.$]+)")
METHOD = re.compile(r"^  (\S.*);$")
DESCRIPTOR = re.compile(r"^    descriptor: (\S+)$")
INSTRUCTION = re.compile(r"^\s+\d+: (invokevirtual|invokespecial|invokestatic|invokeinterface|getfield|putfield|"
                         r"getstatic|putstatic)\s.*// (Method|InterfaceMethod|Field) (\S+)$")
READ = {"getfield", "getstatic"}
WRITE = {"putfield", "putstatic"}
SAMPLE_EVERY = {"gson": 23, "guava": 331, "lang3": 41}


def _member_name(header: str) -> str:
    """`public <T> T fromJson(java.lang.String, ...)` -> fromJson; constructors print the class name."""
    if header.startswith("static {}") or header == "static {}":
        return "<clinit>"
    token = header.split("(", 1)[0].split()[-1]
    return "<init>" if "." in token else token


def javap_sites(classpath: str, classes: list[str]) -> list[tuple[str, str, str, str, str]]:
    """(caller id, instruction, owner, name, descriptor) for every invoke and field instruction."""
    out = jdktool.run(["javap", "-c", "-p", "-s", "-cp", classpath, *classes], capture_output=True, text=True,
                         check=True).stdout
    found = []
    cls = member = None
    for line in out.splitlines():
        if (m := HEADER.match(line)) and line.rstrip().endswith("{"):
            cls, member = m.group(1).replace(".", "/"), None
        elif (m := METHOD.match(line)) and "(" in m.group(1):
            member = _member_name(m.group(1))
        elif (m := METHOD.match(line)) and m.group(1).startswith("static {}"):
            member = "<clinit>"
        elif (m := DESCRIPTOR.match(line)) and member is not None:
            caller = f"{cls}#{member}{m.group(1)}" if m.group(1).startswith("(") else None
            member = caller
        elif (m := INSTRUCTION.match(line)) and member:
            ref = m.group(3)
            left, _, desc = ref.partition(":")
            owner, _, name = left.rpartition(".") if "." in left else (cls, "", left)
            if owner.startswith('"['):
                continue  # an array's clone(): no declaration in any class file
            found.append((member, m.group(1), owner.strip('"'), name.strip('"'), desc))
    assert found, "javap printed no instructions: the parser no longer understands its output"
    return found


def sampled_classes(jar: Path, every: int) -> list[str]:
    with zipfile.ZipFile(jar) as z:
        names = sorted(n[:-6].replace("/", ".") for n in z.namelist()
                       if n.endswith(".class") and not n.startswith("META-INF/") and "module-info" not in n)
    return names[::every]


class Oracle:
    """Resolves javap's (owner, name, descriptor) to the graph's edge and checks the usage listing."""

    def __init__(self, service: JdxService, artifact: str):
        self.service = service
        self.store = service.store()
        self.filter = ArtifactFilter([artifact])  # the callers javap shows all live in this jar
        self.sites: dict[tuple[str, str], set[tuple[str, str]]] = {}

    def edges(self, caller: str, rel: str) -> list[dict]:
        label = "Method" if rel == "INVOKES" else "Field"
        return self.store.rows(f"MATCH (c:Method {{id: $id}})-[r:{rel_labels(rel)}]->(t:{label}) "
                               "RETURN t.id AS id, t.name AS name, t.descriptor AS descriptor, t.owner AS owner, "
                               "r.via AS via", {"id": caller})

    def usage_callers(self, target: str, kind: str) -> set[tuple[str, str]]:
        """(caller id, lambda name or '') of every site of `target`."""
        key = (target, kind)
        if key not in self.sites:
            is_field = kind == "field"
            t = Target(target, target, "field" if is_field else
                       ("constructor" if "#<init>(" in target else "method"))
            kinds = ("read", "write") if is_field else ("call", "new")
            self.sites[key] = {(s["caller_id"], s.get("lambda", ""), s["kind"])
                               for s in usage_sites(self.store, Symbol(target, {}, [t]), kinds, self.filter)}
        return self.sites[key]

    def check(self, site: tuple[str, str, str, str, str]) -> str | None:
        caller, op, owner, name, desc = site
        is_field = op in READ | WRITE
        rel = ("READS" if op in READ else "WRITES") if is_field else "INVOKES"
        matches = [e for e in self.edges(caller, rel) if e["name"] == name and e["descriptor"] == desc
                   and (e["owner"] == owner or e["via"] == owner)]
        if not matches:
            return f"{caller}: {op} {owner}.{name}:{desc} has no {rel} edge"
        target = matches[0]["id"]
        listed = self.usage_callers(target, "field" if is_field else "method")
        c_owner, _, rest = caller.partition("#")
        lambda_name = rest.split("(", 1)[0] if rest.startswith("lambda$") else ""
        wanted_kind = ("read" if op in READ else "write") if is_field else None
        for cid, lam, kind in listed:
            if wanted_kind and kind != wanted_kind:
                continue
            if cid == caller or (lambda_name and lam == lambda_name and cid.startswith(c_owner + "#")):
                return None
        return f"{caller}: {op} {owner}.{name}:{desc} resolved to {target} but usages do not list it"


def _run(service: JdxService, classpath: str, classes: list[str], sites: list | None = None) -> tuple[int, list[str]]:
    oracle = Oracle(service, Path(classpath).name)
    sites = javap_sites(classpath, classes) if sites is None else sites
    problems = [p for p in map(oracle.check, sites) if p]
    return len(sites), problems


@pytest.mark.parametrize("name,jar", [("gson", GSON), pytest.param("guava", GUAVA, marks=pytest.mark.soak),
                                      pytest.param("lang3", LANG3, marks=pytest.mark.soak)])
def test_javap_call_and_field_sites_are_usages(jdx_home, name, jar):
    jar = require(jar)
    service = JdxService(Options(jars=[str(jar)], cache_dir=str(jdx_home / "cache")))
    try:
        count, problems = _run(service, str(jar), sampled_classes(jar, SAMPLE_EVERY[name]))
    finally:
        service.close()
    assert count > 100, count
    assert not problems, f"{len(problems)} of {count} javap sites missing:\n" + "\n".join(problems[:10])


def test_javap_sites_of_the_fixtures_are_usages(jdx_home):
    """Every fixture class: lambdas, method references, calls through subtypes, field writes through subclasses."""
    jar = graph_jar(jdx_home)
    service = JdxService(Options(jars=[str(jar)], cache_dir=str(jdx_home / "cache")))
    try:
        sites = javap_sites(str(jar), sampled_classes(jar, 1))  # javap once, for the check and the kinds
        count, problems = _run(service, str(jar), [], sites)
        per_kind = defaultdict(int)
        for _caller, op, *_ in sites:
            per_kind[op] += 1
    finally:
        service.close()
    assert not problems, "\n".join(problems)
    assert {"invokevirtual", "invokespecial", "invokestatic", "invokeinterface", "getfield", "putfield",
            "getstatic", "putstatic"} <= set(per_kind)


def test_oracle_detects_a_missing_site(jdx_home):
    """The comparison can fail: a made-up call site is reported."""
    jar = graph_jar(jdx_home)
    service = JdxService(Options(jars=[str(jar)], cache_dir=str(jdx_home / "cache")))
    try:
        oracle = Oracle(service, jar.name)
        assert oracle.check(("gx/Client#start()V", "invokestatic", "gx/CycleA", "a", "(I)V")) is None
        assert oracle.check(("gx/Client#start()V", "invokestatic", "gx/CycleB", "b", "(I)V")) is not None
        assert oracle.check(("gx/Counter#get()I", "putfield", "gx/Counter", "count", "I")) is not None
    finally:
        service.close()
