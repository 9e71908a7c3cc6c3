"""A small pure-Python POM resolver, kept only as `jdx bench`'s yardstick for Maven's own (docs/PERFORMANCE.md).

It covers parents (repository lookup), `${}` properties, dependencyManagement with BOM imports, scopes
(compile + runtime), exclusions, optional dependencies, nearest-wins (breadth-first) and classifiers; no
profiles, no version ranges, no relocations. jdx resolves with Maven Resolver (jdx.loaders.maven_resolver);
this module answers "how fast could a Python resolver be, and does it agree".
"""

from __future__ import annotations

import re
from collections import deque
from pathlib import Path
from xml.etree import ElementTree

PROP = re.compile(r"\$\{([^}]+)\}")
TRANSITIVE = {"compile": "compile", "runtime": "runtime"}  # the consumer's view of a dependency's scopes


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _kids(el, name: str) -> list:
    return [c for c in el if _local(c.tag) == name] if el is not None else []


def _one(el, name: str):
    found = _kids(el, name)
    return found[0] if found else None


def _txt(el, name: str) -> str:
    c = _one(el, name)
    return (c.text or "").strip() if c is not None else ""


class PythonResolver:
    def __init__(self, repo: Path):
        self.repo = repo
        self.models: dict[str, dict | None] = {}

    def _pom_path(self, g: str, a: str, v: str) -> Path:
        return self.repo.joinpath(*g.split("."), a, v, f"{a}-{v}.pom")

    def model(self, g: str, a: str, v: str, depth: int = 0) -> dict | None:
        """The effective model: properties, managed versions and dependencies, parents merged."""
        key = f"{g}:{a}:{v}"
        if key in self.models:
            return self.models[key]
        self.models[key] = None  # cycle guard
        try:
            root = ElementTree.parse(self._pom_path(g, a, v)).getroot()
        except (OSError, ElementTree.ParseError):
            return None
        parent = _one(root, "parent")
        base = {"props": {}, "managed": {}, "deps": []}
        if parent is not None and depth < 20:
            pm = self.model(_txt(parent, "groupId"), _txt(parent, "artifactId"), _txt(parent, "version"), depth + 1)
            if pm:
                base = {"props": dict(pm["props"]), "managed": dict(pm["managed"]), "deps": list(pm["deps"])}
        props = base["props"]
        props.update({"project.groupId": g, "project.artifactId": a, "project.version": v, "pom.version": v})
        declared = _one(root, "properties")
        for p in list(declared) if declared is not None else []:
            props[_local(p.tag)] = (p.text or "").strip()

        def interp(text: str) -> str:
            for _ in range(10):
                new = PROP.sub(lambda m: props.get(m.group(1), m.group(0)), text)
                if new == text:
                    break
                text = new
            return text

        def dep(el) -> dict:
            return {"g": interp(_txt(el, "groupId")), "a": interp(_txt(el, "artifactId")),
                    "v": interp(_txt(el, "version")), "scope": _txt(el, "scope") or "",
                    "type": _txt(el, "type") or "jar", "cls": interp(_txt(el, "classifier")),
                    "optional": _txt(el, "optional") == "true",
                    "excl": {(_txt(x, "groupId"), _txt(x, "artifactId")) for x in _kids(_one(el, "exclusions"),
                                                                                    "exclusion")}}

        managed = base["managed"]
        for el in _kids(_one(_one(root, "dependencyManagement"), "dependencies"), "dependency"):
            d = dep(el)
            if d["scope"] == "import" and d["type"] == "pom":
                bom = self.model(d["g"], d["a"], d["v"], depth + 1)
                for k, val in (bom or {}).get("managed", {}).items():
                    managed.setdefault(k, val)
            else:
                managed[(d["g"], d["a"])] = d
        deps = base["deps"] + [dep(el) for el in _kids(_one(root, "dependencies"), "dependency")]
        model = {"props": props, "managed": managed, "deps": deps}
        self.models[key] = model
        return model

    def resolve(self, roots: list[tuple[str, str, str]]) -> list[str]:
        """`g:a:v` in breadth-first (nearest-wins) order, compile and runtime scopes."""
        chosen: dict[tuple[str, str], str] = {}
        order: list[str] = []
        queue = deque((g, a, v, "", frozenset(), {}, 0) for g, a, v in roots)
        while queue:
            g, a, v, cls, excl, managed, depth = queue.popleft()
            if (g, a) in chosen:
                continue
            if managed and depth > 0 and (g, a) in managed and managed[(g, a)]["v"]:
                v = managed[(g, a)]["v"]
            chosen[(g, a)] = v
            order.append(f"{g}:{a}:{v}" + (f":{cls}" if cls else ""))
            model = self.model(g, a, v)
            if model is None:
                continue
            for d in model["deps"]:
                scope = d["scope"] or (model["managed"].get((d["g"], d["a"])) or {}).get("scope") or "compile"
                if scope not in TRANSITIVE or d["optional"] or (d["g"], d["a"]) in excl or \
                        ("*", "*") in excl or (d["g"], "*") in excl:
                    continue
                version = d["v"] or (model["managed"].get((d["g"], d["a"])) or {}).get("v", "")
                if not version:
                    continue
                queue.append((d["g"], d["a"], version, d["cls"], excl | d["excl"], managed, depth + 1))
        return order
