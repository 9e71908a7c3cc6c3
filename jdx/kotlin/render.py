"""Kotlin declarations as Kotlin source text (spec §12.1): `public fun <T> listOf(vararg elements: T): List<T>`.

Class names print by their simple (nested) name, `kotlin/collections/Map.Entry` as `Map.Entry`; function
types print as `(A) -> R`, `A.() -> R`, `suspend (A) -> R`, with the names `@ParameterName` gives their parameters
(`(offset: Int) -> Unit`; not in the qualified form, since names are no part of a type's identity); a parameter with a
default prints `= ...` (the value itself is not in the metadata).
"""

from __future__ import annotations

import re

from jdx.kotlin.model import (KmClass, KmConstructor, KmFunction, KmProperty, KmType, KmTypeAlias,
                              KmTypeParameter, KmValueParameter)

_FUNCTION = re.compile(r"^kotlin/(?:Function|reflect/KFunction|coroutines/SuspendFunction)(\d+)$")


def simple_name(classifier: str) -> str:
    """`kotlin/collections/Map.Entry` -> `Map.Entry`; a local class `.a/B` -> `B`."""
    return classifier.lstrip(".").rsplit("/", 1)[-1]


def fq_name(classifier: str) -> str:
    """`kotlin/collections/Map.Entry` -> `kotlin.collections.Map.Entry`."""
    return classifier.lstrip(".").replace("/", ".")


def render_type(t: KmType | None, qualified: bool = False) -> str:
    if t is None:
        return "?"
    got = t.shown.get(qualified)
    if got is None:
        got = t.shown[qualified] = _render_type(t, qualified)
    return got


def _render_type(t: KmType, qualified: bool) -> str:
    if t.abbreviation is not None:
        shown = render_type(t.abbreviation, qualified)
        return shown + "?" if t.nullable and not t.abbreviation.nullable else shown
    text = _type_body(t, qualified)
    if t.definitely_non_null:
        text += " & Any"
    elif t.nullable:
        text = f"({text})?" if text.startswith(("(", "suspend ")) or "->" in text else text + "?"
    if t.flexible_upper is not None:
        text += "!"
    return text


def _arg(projection: str, t: KmType | None, qualified: bool) -> str:
    if projection == "*" or t is None:
        return "*"
    return (projection + " " if projection else "") + render_type(t, qualified)


def _type_body(t: KmType, qualified: bool) -> str:
    if t.kind == "typeparam":
        return t.classifier
    m = _FUNCTION.match(t.classifier)
    if m and t.arguments and t.classifier.startswith("kotlin/Function"):
        types = [a for _, a in t.arguments]
        if t.suspend and len(types) >= 2 and types[-2] is not None and \
                types[-2].classifier == "kotlin/coroutines/Continuation" and types[-2].arguments:
            types = types[:-2] + [types[-2].arguments[0][1]]  # (A, Continuation<R>) -> Any? is suspend (A) -> R
        args = [render_type(a, qualified) if a is not None else "*" for a in types]
        ret = args.pop()
        receiver = ""
        if t.extension_function and args:
            first = t.arguments[0][1]
            receiver = _receiver_text(args.pop(0))
            if first is not None and first.nullable and not receiver.startswith("("):
                receiver = f"({receiver[:-1]})."  # `(String?).() -> Unit`
        if not qualified:  # @ParameterName: `(offset: Int) -> Unit`; the qualified form is the type's identity
            params = types[len(types) - 1 - len(args): -1]
            args = [f"{_name(a.parameter_name)}: {text}" if a is not None and a.parameter_name else text
                    for a, text in zip(params, args)]
        return ("suspend " if t.suspend else "") + f"{receiver}({', '.join(args)}) -> {ret}"
    name = fq_name(t.classifier) if qualified else simple_name(t.classifier)
    if t.outer is not None and not qualified:
        name = render_type(t.outer, qualified) + "." + name.rsplit(".", 1)[-1]
    if t.arguments:
        own = t.arguments
        name += "<" + ", ".join(_arg(p, a, qualified) for p, a in own) + ">"
    return name


def render_type_parameters(params: list[KmTypeParameter]) -> str:
    if not params:
        return ""
    parts = []
    for p in params:
        text = ("reified " if p.reified else "") + (p.variance + " " if p.variance else "") + p.name
        bounds = [b for b in p.upper_bounds if not (b.classifier == "kotlin/Any" and b.nullable and b.kind == "class")]
        if len(bounds) == 1:
            text += ": " + render_type(bounds[0])
        elif bounds:
            text += ": " + " & ".join(render_type(b) for b in bounds)
        parts.append(text)
    return "<" + ", ".join(parts) + ">"


def render_parameter(p: KmValueParameter, with_default: bool = True) -> str:
    mods = ("vararg " if p.vararg_element is not None else "") + ("crossinline " if p.crossinline else "") + (
        "noinline " if p.noinline else "")
    shown = render_type(p.vararg_element if p.vararg_element is not None else p.type)
    return f"{mods}{p.name}: {shown}" + (" = ..." if with_default and p.declares_default else "")


def _receiver(t: KmType | None) -> str:
    return "" if t is None else _receiver_text(render_type(t))


def _receiver_text(text: str) -> str:
    """A receiver type and its `.`: a function type in parentheses, `(() -> Any?).` (`() -> Any?.f()` is no Kotlin:
    the `.` would bind to `Any?`); a nullable one is already, `(() -> Unit)?.`."""
    return (f"({text})" if _arrow_outside_parentheses(text) else text) + "."


def _arrow_outside_parentheses(text: str) -> bool:
    """Whether `text` is a function type that no parentheses or angle brackets enclose as a whole."""
    depth = 0
    for i, ch in enumerate(text):
        if ch in "(<":
            depth += 1
        elif ch in ")>" and not (ch == ">" and text[i - 1:i] == "-"):
            depth -= 1
        elif ch == "-" and depth == 0 and text[i + 1:i + 2] == ">":
            return True
    return False


def _context(receivers: list[KmType]) -> str:
    return f"context({', '.join(render_type(t) for t in receivers)}) " if receivers else ""


def _modality(modality: str) -> str:
    """`abstract `, `open `, `sealed `; nothing for `final`. An interface's members print theirs too (`abstract`
    without a body, `open` with one), as Kotlin's descriptor renderer and kotlin-reflect's `isAbstract` have them:
    an implementing class must override the one, not the other."""
    return "" if modality == "final" else modality + " "


def render_function(f: KmFunction, in_interface: bool = False) -> str:
    """`public inline fun <reified T> foo(): T`. `in_interface` changes nothing (an interface's members print their
    modality as any class's, `_modality`): kotlin_inherited still passes it."""
    mods = "".join(w + " " for w, on in (("external", f.external), ("tailrec", f.tailrec), ("suspend", f.suspend),
                                          ("inline", f.inline), ("infix", f.infix), ("operator", f.operator)) if on)
    tps = render_type_parameters(f.type_parameters)
    params = ", ".join(render_parameter(p) for p in f.parameters)
    return (f"{_context(f.context_receivers)}{f.visibility} {_modality(f.modality)}{mods}fun "
            f"{tps + ' ' if tps else ''}{_receiver(f.receiver)}{_name(f.name)}({params}): {render_type(f.return_type)}")


def render_property(p: KmProperty, in_interface: bool = False) -> str:
    """`public val size: Int`; `in_interface` as for render_function."""
    mods = "".join(w + " " for w, on in (("external", p.external), ("const", p.const), ("lateinit", p.lateinit))
                   if on)
    tps = render_type_parameters(p.type_parameters)
    text = (f"{_context(p.context_receivers)}{p.visibility} {_modality(p.modality)}{mods}"
            f"{'var' if p.var else 'val'} {tps + ' ' if tps else ''}{_receiver(p.receiver)}{_name(p.name)}: "
            f"{render_type(p.return_type)}")
    if p.delegated:
        text += " by ..."
    if p.setter is not None and p.setter.visibility != p.visibility:
        text += f" {p.setter.visibility} set"
    return text


def render_constructor(c: KmConstructor, klass: KmClass | None = None) -> str:
    return f"{c.visibility} constructor({', '.join(render_parameter(p) for p in c.parameters)})"


def render_type_alias(a: KmTypeAlias) -> str:
    """`public typealias ShapeList = List<Shape>`; an expansion whose class has the alias's simple name is qualified
    (`typealias AutoCloseable = java.lang.AutoCloseable`, never `= AutoCloseable`)."""
    target = a.underlying or a.expanded
    shown = render_type(target)
    if shown.split("<", 1)[0].rstrip("?!") == a.name:
        shown = render_type(target, qualified=True)
    return f"{a.visibility} typealias {_name(a.name)}{render_type_parameters(a.type_parameters)} = {shown}"


def class_keyword(c: KmClass) -> str:
    """`data class`, `sealed interface`, `fun interface`, `companion object`, `enum class`, ..."""
    words = []
    if c.modality != "final" and c.kind in ("class", "interface") and not (c.kind == "interface"
                                                                            and c.modality == "abstract"):
        words.append(c.modality)
    for word, on in (("external", c.external), ("inner", c.inner), ("data", c.data), ("value", c.value),
                     ("fun", c.fun)):
        if on:
            words.append(word)
    words.append(c.kind)
    return " ".join(words)


def render_class_header(c: KmClass) -> str:
    """`public data class Pair<out A, out B>(val first: A, val second: B) : Serializable`."""
    text = f"{c.visibility} {class_keyword(c)} {_name(simple_name(c.name).rsplit('.', 1)[-1])}"
    text += render_type_parameters(c.type_parameters)
    primary = next((k for k in c.constructors if not k.secondary), None)
    implicit_vis = {"enum class": ("private",), "class": ("private", "protected") if c.modality == "sealed"
                    else ()}.get(c.kind, ())
    if primary is not None and c.kind in ("class", "enum class", "annotation class"):
        props = {p.name: p for p in c.properties}
        params = []
        for p in primary.parameters:
            prop = props.get(p.name)
            keyword = ("var " if prop.var else "val ") if prop is not None else ""
            if prop is not None:  # `Regex(private val nativePattern)`, `Rule(open val ruleId)`: as its row says
                keyword = _modality(prop.modality) + keyword
                if prop.visibility not in ("public", None):
                    keyword = f"{prop.visibility} {keyword}"
            params.append(keyword + render_parameter(p))
        shown_vis = primary.visibility not in ("public",) + implicit_vis
        vis = f" {primary.visibility} constructor" if shown_vis else ""
        if params or shown_vis:
            text += f"{vis}({', '.join(params)})"
    implied = ("kotlin/Any", "kotlin/Enum") if c.kind == "enum class" else (
        ("kotlin/Any", "kotlin/Annotation") if c.kind == "annotation class" else ("kotlin/Any",))
    supers = [render_type(s) for s in c.supertypes if s.classifier not in implied]
    if supers:
        text += " : " + ", ".join(supers)
    return text


_PLAIN = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_KEYWORDS = frozenset("as break class continue do else false for fun if in interface is null object package "
                      "return super this throw true try typealias typeof val var when while".split())


def _name(name: str) -> str:
    """A Kotlin name that is not a plain identifier prints in backticks (`` `my test` ``)."""
    if _PLAIN.match(name) and name not in _KEYWORDS:
        return name
    if name.startswith("<") and name.endswith(">"):
        return name  # <anonymous>, <get-x>: compiler names, never written by hand
    return f"`{name}`"
