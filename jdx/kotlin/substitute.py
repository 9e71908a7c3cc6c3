"""Inherited Kotlin declarations as a subclass sees them (spec §12.1): the declaring class's type parameters replaced
by the type arguments the subclass's supertype chain gives them (`class Names : AbstractList<String>()` sees
`iterator(): Iterator<String>`), as an IDE shows them.

A chain `C : B<String>`, `B<T> : D<List<T>>` gives D's parameter `List<String>`. A declaration's own type parameters
shadow a class parameter of the same name. A star projection, an argument count that does not match the class's
parameters (a raw or unknown path), or a type mentioning a parameter the chain does not know leaves the parameter as
it is: nothing is guessed. Pure functions over `jdx.kotlin.model`; the caller loads the classes.

A Java class in the chain (`C : JavaMid<String>`, `JavaMid<T> extends KotlinTop<T>`) is loaded by the caller as a
`KmClass` read from its generic signature, its types as Kotlin sees them: platform types (`T!`, a type parameter with a
`flexible_upper`), so `KotlinTop.get(): T` reads `get(): String!` from C and `top(): T?` reads `top(): String?`, as
kotlin-reflect has them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from jdx.kotlin.jvm import CLASS_MAP, jvm_internal_name
from jdx.kotlin.model import KmClass, KmFunction, KmProperty, KmType, KmTypeParameter, KmValueParameter
from jdx.kotlin.render import render_type

Substitution = dict[str, KmType]  # a class's type parameter name -> its argument as the subclass sees it
MAX_CLASSES = 256  # a supertype closure past this is not walked further (a hostile or cyclic graph)


class _Unknown(Exception):
    """A type mentions a type parameter the chain gives no argument for."""


def class_id(classifier: str) -> str | None:
    """The JVM internal name of a Kotlin classifier that can carry metadata; None for the types Kotlin maps to
    JVM classes (`kotlin/collections/List` is `java/util/List`, which has none)."""
    return None if classifier in CLASS_MAP else jvm_internal_name(classifier)


def chain_substitutions(start: str, load: Callable[[str], KmClass | None]) -> dict[str, Substitution]:
    """Each Kotlin class reachable from `start` (a JVM internal name) through Kotlin supertypes -> the arguments
    its type parameters take as `start` sees them; a parameter without a known argument is absent. `start` maps its
    own parameters to themselves. Classes reached by two paths keep only the arguments both paths agree on."""
    first = load(start)
    if first is None:
        return {}
    out: dict[str, Substitution] = {start: {p.name: KmType(p.name, "typeparam") for p in first.type_parameters}}
    queue = [start]
    while queue:
        cid = queue.pop(0)
        klass = load(cid)
        if klass is None:
            continue
        sigma = out[cid]
        for sup in klass.supertypes:
            target = class_id(sup.classifier) if sup.kind == "class" else None
            parent = load(target) if target is not None else None
            if parent is None:
                continue
            got = _arguments(sup, parent, sigma)
            known = out.get(target)
            if known is None:
                if len(out) >= MAX_CLASSES:
                    continue
                out[target] = got
                queue.append(target)
            else:
                agreed = {k: v for k, v in known.items() if k in got and _same(got[k], v)}
                if len(agreed) != len(known):
                    out[target] = agreed
                    queue.append(target)
    return out


def _arguments(sup: KmType, parent: KmClass, sigma: Substitution) -> Substitution:
    if len(sup.arguments) != len(parent.type_parameters):
        return {}  # a raw or unreadable supertype
    got: Substitution = {}
    for (projection, arg), param in zip(sup.arguments, parent.type_parameters):
        if projection == "*" or arg is None:
            continue
        try:
            got[param.name] = substitute_type(arg, sigma, strict=True)
        except _Unknown:
            continue
    return got


def _same(a: KmType, b: KmType) -> bool:
    return a is b or render_type(a, qualified=True) == render_type(b, qualified=True)


def substitute_type(t: KmType | None, sigma: Substitution, strict: bool = False) -> KmType | None:
    """`t` with each type parameter named in `sigma` replaced; the same object when nothing changes (the renderer
    caches text on a type, so a changed type is always a new one). `strict`: a parameter not in `sigma` raises."""
    if t is None:
        return None
    if t.kind == "typeparam":
        got = sigma.get(t.classifier)
        if got is None:
            if strict:
                raise _Unknown(t.classifier)
            return t
        got = _platform(got) if t.flexible_upper is not None else _nullability(got, t)
        # a function type's parameter keeps its @ParameterName: `(element: T) -> Unit` of String is `(element: String)`
        return replace(got, parameter_name=t.parameter_name, shown={}) if t.parameter_name != got.parameter_name \
            else got
    args = [(p, substitute_type(a, sigma, strict)) for p, a in t.arguments]
    outer = substitute_type(t.outer, sigma, strict)
    abbreviation = substitute_type(t.abbreviation, sigma, strict)
    upper = substitute_type(t.flexible_upper, sigma, strict)
    if outer is t.outer and abbreviation is t.abbreviation and upper is t.flexible_upper and all(
            new is old for (_, new), (_, old) in zip(args, t.arguments)):
        return t
    return replace(t, arguments=args, outer=outer, abbreviation=abbreviation, flexible_upper=upper, shown={})


def _platform(got: KmType) -> KmType:
    """A Java use of a type parameter (`T!`) of `got`: `String` is `String!`; `String?` and `String!` stay."""
    if got.nullable or got.flexible_upper is not None:
        return got
    return replace(got, flexible_upper=replace(got, nullable=True, shown={}), shown={})


def _nullability(got: KmType, use: KmType) -> KmType:
    """The argument where the parameter is used: `E?` of `String` is `String?`; `E & Any` of `String?` is
    `String`; either of a platform type `String!` is no longer one."""
    if got.flexible_upper is not None and (use.nullable or use.definitely_non_null):
        got = replace(got, flexible_upper=None, shown={})
    if use.definitely_non_null:
        if got.kind == "typeparam":
            return got if got.definitely_non_null else replace(got, nullable=False, definitely_non_null=True, shown={})
        return replace(got, nullable=False, shown={}) if got.nullable else got
    if use.nullable and not got.nullable:
        return replace(got, nullable=True, shown={})
    return got


def type_parameter_names(t: KmType | None, into: set[str]) -> set[str]:
    """The type parameter names `t` mentions, added to `into`."""
    if t is None:
        return into
    if t.kind == "typeparam":
        into.add(t.classifier)
    for _, a in t.arguments:
        type_parameter_names(a, into)
    for other in (t.outer, t.abbreviation, t.flexible_upper):
        type_parameter_names(other, into)
    return into


def _types_of(decl: KmFunction | KmProperty) -> list[KmType | None]:
    types = [decl.receiver, decl.return_type, *decl.context_receivers]
    types += [b for p in decl.type_parameters for b in p.upper_bounds]
    if isinstance(decl, KmFunction):
        types += [p.type for p in decl.parameters] + [p.vararg_element for p in decl.parameters]
    return types


def applicable(decl: KmFunction | KmProperty, sigma: Substitution) -> Substitution:
    """The part of `sigma` that changes `decl`: the class parameters it mentions, less those its own type
    parameters shadow; empty when an argument would be captured by one of its own type parameters
    (`fun <T> f(x: E)` with E -> T of the subclass): left as declared rather than misread."""
    own = {p.name for p in decl.type_parameters}
    used: set[str] = set()
    for t in _types_of(decl):
        type_parameter_names(t, used)
    wanted = {k: v for k, v in sigma.items() if k in used and k not in own and not (
        v.kind == "typeparam" and v.classifier == k and not v.nullable and not v.definitely_non_null)}
    for v in wanted.values():
        if type_parameter_names(v, set()) & own:
            return {}
    return wanted


def _type_parameters(tps: list[KmTypeParameter], sigma: Substitution) -> list[KmTypeParameter]:
    return [replace(p, upper_bounds=[substitute_type(b, sigma) for b in p.upper_bounds]) for p in tps]


def substitute_function(f: KmFunction, sigma: Substitution) -> KmFunction:
    """`f` with `sigma` (from `applicable`) applied to its receiver, parameters, return type and bounds."""
    params = [KmValueParameter(p.name, substitute_type(p.type, sigma), substitute_type(p.vararg_element, sigma),
                               p.declares_default, p.crossinline, p.noinline) for p in f.parameters]
    return replace(f, type_parameters=_type_parameters(f.type_parameters, sigma),
                   receiver=substitute_type(f.receiver, sigma),
                   context_receivers=[substitute_type(t, sigma) for t in f.context_receivers], parameters=params,
                   return_type=substitute_type(f.return_type, sigma))


def substitute_property(p: KmProperty, sigma: Substitution) -> KmProperty:
    """`p` with `sigma` (from `applicable`) applied to its receiver, type and bounds."""
    return replace(p, type_parameters=_type_parameters(p.type_parameters, sigma),
                   receiver=substitute_type(p.receiver, sigma),
                   context_receivers=[substitute_type(t, sigma) for t in p.context_receivers],
                   return_type=substitute_type(p.return_type, sigma))


def detail_types(decl: KmFunction | KmProperty, detail: dict) -> dict:
    """A declaration row's `detail` JSON with its types rendered from `decl` (qualified, as the shard writes them);
    every other key kept."""
    out = dict(detail)

    def q(t: KmType | None) -> str | None:
        return render_type(t, qualified=True) if t is not None else None

    if isinstance(out.get("type_parameters"), list) and len(out["type_parameters"]) == len(decl.type_parameters):
        out["type_parameters"] = [{**d, "bounds": [q(b) for b in p.upper_bounds]} if "bounds" in d else d
                                  for d, p in zip(out["type_parameters"], decl.type_parameters)]
    if "receiver" in out:
        out["receiver"] = q(decl.receiver)
    if isinstance(decl, KmFunction):
        if isinstance(out.get("parameters"), list) and len(out["parameters"]) == len(decl.parameters):
            out["parameters"] = [{**d, "type": q(p.vararg_element or p.type)}
                                 for d, p in zip(out["parameters"], decl.parameters)]
        if "returns" in out:
            out["returns"] = q(decl.return_type)
    elif "type" in out:
        out["type"] = q(decl.return_type)
    return out


_BOXES = {"Z": "Boolean", "C": "Character", "B": "Byte", "S": "Short", "I": "Integer", "F": "Float", "J": "Long",
          "D": "Double"}


def erased_parameters(f: KmFunction, bounds: dict[str, KmType | None]) -> list[str] | None:
    """The JVM parameter descriptors kotlinc gives `f` (its receivers first), its type parameters erased to their
    first bound (`bounds`: the class's, by name; none is `Any?`): `contains(element: E)` with E -> String is
    `[Ljava/lang/String;]`, the descriptor of the bridge a subclass has for it. None for a type it cannot tell."""
    own = {p.name: p.upper_bounds[0] if p.upper_bounds else None for p in f.type_parameters}
    out = []
    for t in [*f.context_receivers, f.receiver, *(p.type for p in f.parameters)]:
        if t is not None:
            got = _erasure(t, {**bounds, **own}, False, 0)
            if got is None:
                return None
            out.append(got)
    return out


def _erasure(t: KmType | None, bounds: dict[str, KmType | None], boxed: bool, depth: int) -> str | None:
    if t is None or depth > 16:
        return "Ljava/lang/Object;" if t is None else None
    if t.kind == "typeparam":
        return _erasure(bounds.get(t.classifier), {**bounds, t.classifier: None}, True, depth + 1)
    if t.kind != "class":
        return None
    if t.classifier == "kotlin/Array":
        element = t.arguments[0][1] if len(t.arguments) == 1 else None
        inner = _erasure(element, bounds, True, depth + 1)
        return None if inner is None else "[" + inner
    desc = CLASS_MAP.get(t.classifier) or "L" + jvm_internal_name(t.classifier) + ";"
    if desc in _BOXES and (boxed or t.nullable):
        return f"Ljava/lang/{_BOXES[desc]};"
    return None if desc == "V" else desc
