"""Kotlin declarations with clashing simple names qualified (spec §9.3): the Kotlin view prints simple names, except
where one would name two classes: `public fun java.nio.file.FileSystem.asOkioFileSystem(): okio.FileSystem`. The
rule is the JVM view's (clashing_names); a declaration's `detail` JSON (qualified types) tells cheaply whether any
name could clash before its metadata is read."""

from __future__ import annotations

import re
from dataclasses import replace

from jdx.engine.clashing_names import clashing_names

_NAME = re.compile(r"[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*")
_FUNCTION_TYPE = re.compile(r"^kotlin/(?:Function|reflect/KFunction|coroutines/SuspendFunction)\d+$")


def _internal(classifier: str) -> str:
    """`kotlin/collections/Map.Entry` -> `kotlin/collections/Map$Entry` (the JVM spelling clashing_names reads)."""
    name = classifier.lstrip(".")
    slash = name.rfind("/")
    return name[: slash + 1] + name[slash + 1:].replace(".", "$")


def may_clash(detail: dict, context: tuple[str, ...]) -> bool:
    """Could two classes a declaration's `detail` names (or one and a context class) print one simple name?
    Compares innermost names: it may say yes where the rendering then finds no clash, never no where it would."""
    texts = [detail.get(k) for k in ("receiver", "returns", "type")]
    texts += [p.get("type") for p in detail.get("parameters") or () if isinstance(p, dict)]
    texts += [b for p in detail.get("type_parameters") or () if isinstance(p, dict) for b in p.get("bounds") or ()]
    by_last: dict[str, set[str]] = {}
    for text in texts:
        for name in _NAME.findall(text) if isinstance(text, str) else ():
            by_last.setdefault(name.rsplit(".", 1)[-1], set()).add(name)
    if any(len(names) > 1 for names in by_last.values()):
        return True
    for c in context:
        fq = c.replace("/", ".").replace("$", ".")
        parts = fq.split(".")
        for i in range(1, len(parts) + 1):
            if by_last.get(parts[i - 1], set()) - {".".join(parts[:i])}:
                return True
    return False


def _types(decl) -> list:
    """The types a declaration's line prints."""
    out = [getattr(decl, "receiver", None), getattr(decl, "return_type", None), *getattr(decl, "context_receivers", ())]
    out += [p.vararg_element if p.vararg_element is not None else p.type for p in getattr(decl, "parameters", ())]
    out += [b for p in getattr(decl, "type_parameters", ()) for b in p.upper_bounds]
    return out


def _classifiers(t, out: list[str]) -> None:
    while t is not None:
        if t.abbreviation is not None:  # a type alias prints as written, not as its expansion
            t = t.abbreviation
            continue
        if t.kind != "typeparam" and not _FUNCTION_TYPE.match(t.classifier):
            out.append(_internal(t.classifier))
        for _, a in t.arguments:
            _classifiers(a, out)
        t = t.outer


def _qualified(t, names: frozenset[str]):
    """`t` with the classes in `names` spelled qualified (a classifier with no `/` prints whole: render.simple_name)."""
    if t is None:
        return None
    classifier = t.classifier
    if t.kind != "typeparam" and not _FUNCTION_TYPE.match(classifier) and _internal(classifier) in names:
        classifier = classifier.lstrip(".").replace("/", ".")
    return replace(t, classifier=classifier, arguments=[(p, _qualified(a, names)) for p, a in t.arguments],
                   outer=_qualified(t.outer, names), abbreviation=_qualified(t.abbreviation, names),
                   flexible_upper=_qualified(t.flexible_upper, names), shown={})


def qualify(decl, context: tuple[str, ...]):
    """The declaration (KmFunction, KmProperty, KmConstructor) with clashing class names qualified; None when none
    clash."""
    found: list[str] = []
    for t in _types(decl):
        _classifiers(t, found)
    names = clashing_names(found, context)
    if not names:
        return None
    changes = {}
    for attr in ("receiver", "return_type"):
        if hasattr(decl, attr):
            changes[attr] = _qualified(getattr(decl, attr), names)
    if hasattr(decl, "context_receivers"):
        changes["context_receivers"] = [_qualified(t, names) for t in decl.context_receivers]
    if hasattr(decl, "parameters"):
        changes["parameters"] = [replace(p, type=_qualified(p.type, names),
                                         vararg_element=_qualified(p.vararg_element, names))
                                 for p in decl.parameters]
    if hasattr(decl, "type_parameters"):
        changes["type_parameters"] = [replace(p, upper_bounds=[_qualified(b, names) for b in p.upper_bounds])
                                      for p in decl.type_parameters]
    return replace(decl, **changes)
