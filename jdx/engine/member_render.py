"""One member as a declaration prints it: modifiers, generic signature substituted, simple names (qualified where
two would clash), annotations as source writes them; record components and inner-class constructors as javac's
source had them. `members`, the cards (`show`, `signature`) and `search` print members through it.
"""

from __future__ import annotations

import re
from functools import lru_cache
from dataclasses import replace

from jdx.engine import descriptors as d

ACC = {"public": 0x1, "private": 0x2, "protected": 0x4, "static": 0x8, "final": 0x10, "synchronized": 0x20,
       "volatile": 0x40, "bridge": 0x40, "varargs": 0x80, "transient": 0x80, "native": 0x100,
       "interface": 0x200, "abstract": 0x400, "synthetic": 0x1000, "enum": 0x4000}
ACCESS_LEVELS = ("public", "protected", "package", "private")


def access_level(access: int) -> str:
    if access & ACC["public"]:
        return "public"
    if access & ACC["protected"]:
        return "protected"
    if access & ACC["private"]:
        return "private"
    return "package"


def member_signature(row: dict, parse, env: dict):
    """The member's generic signature when it has a readable one, else its descriptor; substituted. An instance
    member of a type seen raw has the erasure of its type, its descriptor (JLS §4.8); a static one keeps its own."""
    descriptor = d.parse_method_signature if parse is d.parse_method_signature else d.parse_type_signature
    if d.is_raw(env):
        if row["access"] & ACC["static"]:
            env = {}
        else:
            return descriptor(row["descriptor"])
    sig = None
    if row.get("signature"):
        try:
            sig = parse(row["signature"])
        except ValueError:
            sig = None
    if sig is None:
        sig = descriptor(row["descriptor"])
    return d.substitute(sig, env) if env else sig


def owner_of(m: dict) -> str | None:
    """The internal name of the class declaring a member row (`owner`, or the head of its `id`)."""
    return m.get("owner") or (m["id"].partition("#")[0] if m.get("id") else None)


def answer_clashes(members: list[tuple[dict, dict, bool]]) -> frozenset[str]:
    """Of the classes the lines of one answer name (each (member row, env, is_field)), those whose simple name names
    another class on another line: each prints qualified everywhere (`Set<org.junit.platform.commons.io.Resource>`
    beside `Set<org.junit.platform.commons.support.Resource>`), since a reader compares the lines. Read from the
    signatures' text (cached) and the type arguments the environments bind: no signature is parsed again."""
    names: set[str] = set()
    envs: dict[int, dict] = {}
    for m, env, _is_field in members:
        names.update(_classes_in(m.get("signature") or m["descriptor"]))
        if env:
            envs[id(env)] = env
    for env in envs.values():
        names.update(d.class_names(*(v for k, v in env.items() if k != d.RAW and v is not None)))
    by_simple: dict[str, set[str]] = {}
    for name in names:
        by_simple.setdefault(d.nested_simple_name(name), set()).add(name)
    return frozenset(n for group in by_simple.values() if len(group) > 1 for n in group)


_CLASS_IN_SIGNATURE = re.compile(r"L([\w/$]+)[;<]")


@lru_cache(maxsize=1 << 16)
def _classes_in(text: str) -> tuple[str, ...]:
    return tuple(_CLASS_IN_SIGNATURE.findall(text))


def qualified_names(m: dict, context: tuple[str, ...], *nodes, extra: tuple[str, ...] = ()) -> frozenset[str]:
    """The classes a member's line prints qualified (clashing_names): the declaring and queried classes are the
    context a reader takes a simple name for."""
    owner = owner_of(m)
    return d.clashing_names([*d.class_names(*nodes), *extra], (*context, *((owner,) if owner else ())))


_SHADOW_SUFFIX = re.compile(r"@[0-9a-f]{16}$")  # a shadowed copy's graph id `name@<artifact>` (refs.format_type)


def constructor_name(type_id: str) -> str:
    """The name a constructor prints under: its class's simple name; a local class's as its source declares it
    (`Foo$1Local` -> `Local`); an anonymous or lambda class's, which has none (`1`), its name after the package
    (`RealConnection$connectTls$1`), as its card's `anonymous class` line names it."""
    simple = d.simple_name_of(type_id)
    if not simple[:1].isdigit():
        return simple
    return simple.lstrip("0123456789") or _SHADOW_SUFFIX.sub("", type_id).rsplit("/", 1)[-1]


def outer_instance(type_row: dict) -> str | None:
    """The outer class (internal name) whose instance an inner member class's constructors take as a hidden first
    parameter (`descriptors.takes_outer_instance`), or None."""
    local = not type_row.get("inner_name") or bool(type_row.get("outer_method"))
    takes = d.takes_outer_instance(type_row.get("outer"), local, type_row.get("access", 0), type_row.get("kind"))
    return type_row["outer"] if takes else None


def with_outer_instance(row: dict, type_row: dict) -> dict:
    """A member row of `type_row` marked `_outer` when it is a constructor taking the hidden outer instance, so
    `render_method` prints the source's parameters (the row's descriptor keeps the JVM's)."""
    outer = outer_instance(type_row) if row.get("name") == "<init>" else None
    return {**row, "_outer": outer} if outer else row


def source_descriptor(m: dict) -> str | None:
    """The descriptor of a constructor marked `_outer` without the hidden outer instance: `(Ljava/lang/String;)V`
    for an inner class's `(Lp/Outer;Ljava/lang/String;)V`; None for every other method."""
    outer = m.get("_outer")
    descriptor = m.get("descriptor") or ""
    head = f"(L{outer};"
    return "(" + descriptor[len(head):] if outer and descriptor.startswith(head) else None


def annotation_shown(text: str) -> str:
    """An annotation as a declaration prints it: its type's binary name written as source names it
    (`@q.P$NN(x=1)` -> `@q.P.NN(x=1)`), its values as stored."""
    head, paren, rest = text.partition("(")
    return head.replace("$", ".") + paren + rest


def param_annotations(m: dict, count: int, which: str = "all") -> list[list[str]]:
    """Each of `count` rendered parameters' annotations as stored (`Method.param_annotations`, `index:text`, indexed
    by the descriptor, whose leading synthetic parameters the rendered list leaves out: an inner class's outer
    instance, an enum constructor's name and ordinal; a type annotation on the parameter's type as `tN:text`, N the
    declared parameter's index: type_uses). `which`: all, declared (the declaration's) or type (the type's)."""
    out: list[list[str]] = [[] for _ in range(count)]
    entries = m.get("param_annotations") or ()
    if not entries:
        return out
    shift = len(d.parse_method_descriptor(m["descriptor"])[0]) - count
    for entry in entries:
        index, _, text = entry.partition(":")
        type_use = index[:1] == "t" and index[1:].isdigit()
        if which != "all" and type_use != (which == "type"):
            continue
        k = int(index[1:]) if type_use else int(index) - shift if index.isdigit() else -1
        if 0 <= k < count:
            out[k].append(text)
    return out


def annotated_params(m: dict, params: list[str]) -> list[str]:
    """Rendered parameter types with their annotations where source writes them: the declaration's in front
    (`@q.P.NN String`), a type annotation on the type itself (`String @Nullable []` on an array)."""
    return [" ".join([*map(annotation_shown, a), on_type(p, t)]) for a, t, p in
            zip(param_annotations(m, len(params), "declared"), param_annotations(m, len(params), "type"), params)]


def on_type(rendered: str, annotations: list[str]) -> str:
    """A rendered type with type annotations on the type itself, as JLS §9.7.4 writes them: before it
    (`@Nullable String`), or before an array's outermost brackets (`String @Nullable []`, `int[] @Nullable ...`), since
    `@Nullable String[]` would annotate the elements."""
    if not annotations:
        return rendered
    shown = " ".join(map(annotation_shown, annotations))
    if rendered.endswith("..."):
        return f"{rendered[:-3]} {shown} ..."
    at = rendered.find("[]", rendered.rfind(">") + 1)
    return f"{rendered[:at]} {shown} {rendered[at:]}" if at >= 0 else f"{shown} {rendered}"


RECORD_ACCESSOR, RECORD_CANONICAL = "record component", "canonical constructor"


def record_components(type_row: dict) -> list[tuple[str, str, str | None, list[str]]]:
    """A record's components (Type.record_components): (name, descriptor, generic signature or None, annotations)."""
    out = []
    for entry in type_row.get("record_components") or ():
        head, *anns = entry.split("\t")  # (an annotation's text escapes its tabs)
        name, _, rest = head.partition(":")
        desc, _, sig = rest.partition(":")
        out.append((name, desc, sig or None, anns))
    return out


def record_role(type_row: dict | None, m: dict) -> str | None:
    """`record component` for a component's accessor, `canonical constructor` for the constructor taking every
    component in order (JLS §8.10.3, §8.10.4); None otherwise."""
    comps = record_components(type_row) if type_row and type_row.get("kind") == "record" else []
    if not comps or m.get("access", 0) & ACC["static"]:
        return None
    if m["name"] == "<init>":
        return RECORD_CANONICAL if m["descriptor"] == "(" + "".join(c[1] for c in comps) + ")V" else None
    return RECORD_ACCESSOR if any(m["name"] == c[0] and m["descriptor"] == "()" + c[1] for c in comps) else None


def render_method(m: dict, owner_simple: str, env: dict, context: tuple[str, ...] = (),
                  clashing: frozenset[str] = frozenset()) -> tuple[str, list[str], str]:
    """(declaration text, parameter types, return type) in simple names, generics substituted; a simple name that
    would name two classes (two in the line, or one beside the declaring class, or `clashing`: two in the answer)
    prints qualified. An inner class's constructor prints without the outer instance (javac's generic Signature
    already leaves it out)."""
    sig = member_signature(m, d.parse_method_signature, env)
    if source_descriptor(m) is not None and len(sig.params) == len(d.parse_method_descriptor(m["descriptor"])[0]):
        sig = replace(sig, params=sig.params[1:])
    exceptions = () if sig.throws else tuple(m.get("exceptions") or ())
    names = qualified_names(m, context, sig, extra=exceptions) | clashing
    params = [d.render_type(p, qualified=names) for p in sig.params]
    if m["access"] & ACC["varargs"] and params and params[-1].endswith("[]"):
        params[-1] = params[-1][:-2] + "..."
    ret = d.render_type(sig.return_type, qualified=names)
    tparams = d.render_type_params(sig.type_params, qualified=names) if sig.type_params else ""
    throws = [d.render_type(t, qualified=names) for t in sig.throws] or \
        [d.internal_to_fqn(t) if t in names else t.rsplit("/", 1)[-1].replace("$", ".") for t in exceptions]
    mods = modifiers(m["access"], method=True, interface_owner=m.get("_iface", False),
                     abstract_shown=m.get("_abstract_shown", False))
    name = owner_simple if m["name"] == "<init>" else m["name"]
    head = " ".join(x for x in (mods, tparams, "" if m["name"] == "<init>" else ret) if x)
    # (a package-private constructor: no head)
    text = (f"{head} " if head else "") + f"{name}({', '.join(annotated_params(m, params))})"
    if throws:
        text += " throws " + ", ".join(throws)
    return text, params, ret


def render_field(f: dict, env: dict, context: tuple[str, ...] = (), clashing: frozenset[str] = frozenset()) -> str:
    sig = member_signature(f, d.parse_field_signature, env)
    shown = d.render_type(sig, qualified=qualified_names(f, context, sig) | clashing)
    text = f"{modifiers(f['access'], method=False)} {shown} {f['name']}".strip()
    if f.get("constant") is not None:
        text += f" = {d.render_constant(f.get('descriptor') or '', f['constant'])}"
    return text


def modifiers(access: int, method: bool, interface_owner: bool = False, abstract_shown: bool = False) -> str:
    """Java's modifiers of a member; an interface's abstract method goes without `abstract`, as it is written, unless
    `abstract_shown` (listed among a class's members: what the class still has to implement)."""
    words = []
    level = access_level(access)
    if level != "package":
        words.append(level)
    if method and interface_owner and not access & (ACC["abstract"] | ACC["static"] | ACC["private"]):
        words.append("default")
    if access & ACC["abstract"] and (abstract_shown or not interface_owner):
        words.append("abstract")
    if access & ACC["static"]:
        words.append("static")
    if access & ACC["final"]:
        words.append("final")
    if method and access & ACC["synchronized"]:
        words.append("synchronized")
    if method and access & ACC["native"]:
        words.append("native")
    if not method and access & ACC["transient"]:
        words.append("transient")
    if not method and access & ACC["volatile"]:
        words.append("volatile")
    return " ".join(words)
