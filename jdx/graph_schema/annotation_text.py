"""The text of an annotation as the graph stores it (`Type.annotations`, `ANNOTATED_BY.text`:
`@x.Tag(a=1, b={"p, q", 'c'})`), read back into its elements by the cards that print it and by `diff`."""

from __future__ import annotations

import re


def split_elements(inner: str) -> list[str] | None:
    """An annotation's element list (the text between its parentheses) split at its top-level commas: quotes,
    `{…}`, `[…]` and `(…)` nest, a backslash escapes inside quotes. None when the text does not balance."""
    out, depth, start, quote, i = [], 0, 0, "", 0
    while i < len(inner):
        c = inner[i]
        if quote:
            if c == "\\":
                i += 1
            elif c == quote:
                quote = ""
        elif c in "\"'":
            quote = c
        elif c in "({[":
            depth += 1
        elif c in ")}]":
            depth -= 1
        elif c == "," and depth == 0:
            out.append(inner[start:i])
            start = i + 1
        i += 1
    return None if quote or depth else out + [inner[start:]]


# `$` between two characters that are neither `$` nor a separator separates nesting levels (the rule of
# jdx.engine.jvm_names._NEST_SEP, which this layer cannot import); `$Proxy1` and `Foo$$Bar` keep theirs
_NEST_SEP = re.compile(r"(?<=[^$/.])\$(?=[^$.])")
# a name outside quotes: `@`-led (an annotation's type), dotted, then `[]`s or `=` show what it names
_NAME = re.compile(r"(@?)((?:[^\W\d]|\$)[\w$]*(?:\.(?:[^\W\d]|\$)[\w$]*)*)((?:\[\])*)(\s*=)?")


def source_spelling(text: str) -> str:
    """An annotation's text (or an element's default) as stored, with the binary names the class file gives it
    written as Java source writes them: `@q.A$B(s=q.E$K.ON, c=q.T$U.class, d=q.T$U[].class)` ->
    `@q.A.B(s=q.E.K.ON, c=q.T.U.class, d=q.T.U[].class)`. Only nesting `$`s become `.`: quoted text, element names
    and an enum constant's own name (the last part of `Type.CONSTANT`) are kept as stored."""
    out, i = [], 0
    while i < len(text):
        c = text[i]
        if c in "\"'":
            end = _quote_end(text, i)
            out.append(text[i:end])
            i = end
            continue
        m = _NAME.match(text, i) if c.isalpha() or c in "_$@" else None
        if m is None:
            out.append(c)
            i += 1
            continue
        at, name, array, assign = m.groups()
        head, dot, last = name.rpartition(".")
        if not assign and (at or array or last == "class"):  # an annotation's type, a class literal: every part
            name = _NEST_SEP.sub(".", name)
        elif not assign and dot:  # an enum constant: its type's parts, not the constant's own name
            name = _NEST_SEP.sub(".", head) + dot + last
        out.append(at + name + array + (assign or ""))
        i = m.end()
    return "".join(out)


def _quote_end(text: str, start: int) -> int:
    """The index after the quoted text opening at `start` (a backslash escapes inside it)."""
    i = start + 1
    while i < len(text):
        if text[i] == "\\":
            i += 2
            continue
        if text[i] == text[start]:
            return i + 1
        i += 1
    return len(text)
