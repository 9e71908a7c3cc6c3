"""The text of an annotation as the graph stores it (`Type.annotations`, `ANNOTATED_BY.text`:
`@x.Tag(a=1, b={"p, q", 'c'})`), read back into its elements by the cards that print it and by `diff`."""

from __future__ import annotations


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
