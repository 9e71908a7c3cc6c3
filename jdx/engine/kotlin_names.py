"""Kotlin declarations with clashing simple names qualified (spec §9.3): the Kotlin view prints simple names, except
where one would name two classes: `public fun java.nio.file.FileSystem.asOkioFileSystem(): okio.FileSystem`. The
rule is the JVM view's (clashing_names), plus Kotlin's name resolution: a simple name a reader in the declaring
package takes for another class (one of that package, or of Kotlin's default imports) prints qualified, as
`private val impl: java.util.Random` in `kotlin.random`, where `Random` is `kotlin.random.Random` (`shadowed`). A
declaration's `detail` JSON (qualified types) tells cheaply whether any name could clash before its metadata is
read. `java_namesake`: what Java's call of a function's Kotlin name is when a @JvmName moved the function off it.
"""

from __future__ import annotations

import re
from dataclasses import replace

from jdx.engine.clashing_names import clashing_names
from jdx.kotlin.jvm import CLASS_MAP

_NAME = re.compile(r"[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*")
_FUNCTION_TYPE = re.compile(r"^kotlin/(?:Function|reflect/KFunction|coroutines/SuspendFunction)\d+$")


def _internal(classifier: str) -> str:
    """`kotlin/collections/Map.Entry` -> `kotlin/collections/Map$Entry` (the JVM spelling clashing_names reads)."""
    name = classifier.lstrip(".")
    slash = name.rfind("/")
    return name[: slash + 1] + name[slash + 1:].replace(".", "$")


# the packages every Kotlin file imports (Kotlin's default imports on the JVM), internal spelling
DEFAULT_PACKAGES = ("kotlin", "kotlin/annotation", "kotlin/collections", "kotlin/comparisons", "kotlin/io",
                    "kotlin/ranges", "kotlin/sequences", "kotlin/text", "kotlin/jvm", "java/lang")
# the built-in classes no class file declares (`kotlin/Int`, `kotlin/collections/List`): package -> simple names
_BUILT_INS: dict[str, frozenset[str]] = {}
for _name in CLASS_MAP:
    _pkg, _, _simple = _name.rpartition("/")
    _BUILT_INS[_pkg] = _BUILT_INS.get(_pkg, frozenset()) | {_simple.split(".", 1)[0]}


def built_in_names(package: str) -> frozenset[str]:
    """The simple names of the built-in classes of a package (internal spelling)."""
    return _BUILT_INS.get(package, frozenset())


def _top_level(internal: str) -> tuple[str, str]:
    """`kotlin/collections/Map$Entry` -> (`kotlin/collections`, `Map`): what a simple name resolves by."""
    package, _, rest = internal.lstrip(".").rpartition("/")
    return package, rest.split("$", 1)[0]


def shadowed(names, package: str, names_in) -> frozenset[str]:
    """Of the classes a line names (internal names), those a reader in `package` (the declaring class's, internal
    spelling) would take for another class by their simple name: one of `package` of that name, or, for a class of
    no default-imported package, one of a default-imported package (`java/util/Random` in `kotlin/random`, which
    declares `Random`). `names_in(package)` gives the simple names of a package's top-level classes."""
    out = set()
    for n in names:
        pkg, top = _top_level(n)
        if pkg == package:
            continue
        if top in names_in(package) or (pkg not in DEFAULT_PACKAGES
                                        and any(top in names_in(p) for p in DEFAULT_PACKAGES)):
            out.add(n)
    return frozenset(out)


def may_shadow(detail: dict, package: str, names_in) -> bool:
    """Could a class a declaration's `detail` names (qualified, dotted) be read as another by its simple name
    (`shadowed`)? Takes a name's first capitalised part for its top-level class: it may say yes where `shadowed`
    then finds nothing, never no where it would find something."""
    for text in _detail_texts(detail):
        for name in _NAME.findall(text):
            parts = name.split(".")
            i = next((k for k, part in enumerate(parts) if part[:1].isupper()), None)
            if i is None or i == 0:
                continue  # a type parameter, a built-in printed bare
            if shadowed(["/".join(parts[:i]) + "/" + parts[i]], package, names_in):
                return True
    return False


def _detail_texts(detail: dict) -> list[str]:
    texts = [detail.get(k) for k in ("receiver", "returns", "type")]
    texts += [p.get("type") for p in detail.get("parameters") or () if isinstance(p, dict)]
    texts += [b for p in detail.get("type_parameters") or () if isinstance(p, dict) for b in p.get("bounds") or ()]
    return [t for t in texts if isinstance(t, str)]


def may_clash(detail: dict, context: tuple[str, ...]) -> bool:
    """Could two classes a declaration's `detail` names (or one and a context class) print one simple name?
    Compares innermost names: it may say yes where the rendering then finds no clash, never no where it would."""
    by_last: dict[str, set[str]] = {}
    for text in _detail_texts(detail):
        for name in _NAME.findall(text):
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


def _to_qualify(types, context: tuple[str, ...], also=None) -> frozenset[str] | set[str]:
    """The class names of `types` to print qualified: those clashing in `context`, and those `also(names)` adds."""
    found: list[str] = []
    for t in types:
        _classifiers(t, found)
    names = clashing_names(found, context)
    return names | also(found) if also is not None else names


def qualify(decl, context: tuple[str, ...], also=None):
    """The declaration (KmFunction, KmProperty, KmConstructor) with clashing class names qualified; None when none
    clash. `also(names)` adds the names to qualify for another reason (`shadowed`)."""
    names = _to_qualify(_types(decl), context, also)
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


def qualify_class(klass, context: tuple[str, ...], also=None):
    """A class (KmClass) whose header's clashing or shadowed class names are qualified (its primary constructor's
    parameters, its supertypes, its type parameters' bounds); None when none are."""
    primary = next((k for k in klass.constructors if not k.secondary), None)
    names = _to_qualify([*(_types(primary) if primary is not None else ()), *klass.supertypes,
                         *(b for p in klass.type_parameters for b in p.upper_bounds)], context, also)
    if not names:
        return None
    constructors = [qualify(k, context, lambda _: names) or k if k is primary else k for k in klass.constructors]
    return replace(klass, constructors=constructors, supertypes=[_qualified(t, names) for t in klass.supertypes],
                   type_parameters=[replace(p, upper_bounds=[_qualified(b, names) for b in p.upper_bounds])
                                    for p in klass.type_parameters])


def java_namesake(store, d: dict) -> str | None:
    """`Java's body() is the getter of val body`: the accessor of a property of the function's class that Java calls
    by the function's Kotlin name and parameters, when a @JvmName moved the function off that name (okhttp's
    `@JvmName("-deprecated_body") fun body()` beside `@get:JvmName("body") val body`); None for any other."""
    method = next((t for r, _, t in (x.partition(":") for x in d["jvm"] or ()) if r == "method" and "(" in t), None)
    if d["kind"] != "function" or method is None:
        return None
    from jdx.engine.kotlin_view import decls_of, member_ref

    params = _params_of(method)
    for p in decls_of(store, d["owner"]):
        if p["kind"] != "property":
            continue
        for role, _, target in (x.partition(":") for x in p["jvm"] or ()):
            if role in ("getter", "setter") and "(" in target and target != method and _params_of(target) == params \
                    and target.split("#", 1)[1].split("(", 1)[0] == d["name"]:
                keyword = re.search(r"\b(va[lr]) ", p["signature"] or "")
                return (f"Java's {member_ref(target).split('#', 1)[1]} is the {role} of "
                        f"{keyword.group(1) if keyword else 'property'} {p['name']}")
    return None


def _params_of(member_id: str) -> str:
    """`(Ljava/lang/String;)` of `a/B#m(Ljava/lang/String;)V`."""
    return member_id[member_id.index("("): member_id.index(")") + 1]
