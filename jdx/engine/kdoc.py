"""KDoc comments to plain text (spec §7.1 `doc`): the Markdown of a `/** … */` comment read as text, block tags
kept as javadoc's tidy block, and every `[link]` resolved to a canonical reference.

Paragraphs become single lines and list items lines of their own; fenced and indented code keeps its lines;
inline code and emphasis lose their markers. `[Target]` becomes the reference the resolver gives
(`kt.Vec#distanceTo(kt.Vec)`), `[text][Target]` becomes `text (reference)`, `[text](url)` becomes
`text (url)`; a target the resolver cannot place (a parameter, a name outside the workspace) stays as
written. The result is a `javadoc.Javadoc`, so rendering, first sentences and inheritance are shared.
"""

from __future__ import annotations

import re
from typing import Callable

from jdx.engine.javadoc import Javadoc, strip_comment

Resolver = Callable[[str], "str | None"]
TAG_ALIASES = {"exception": "throws"}
NAMED_TAGS = ("param", "property", "throws")
_LINK = re.compile(r"\[([^\[\]\n]+)\](?:\[([^\[\]\n]+)\]|\(([^()\s]+)\))?")
_CODE = re.compile(r"(`+)(.{1,2000}?)\1", re.S)  # bounded: no quadratic scan
_EMPHASIS = re.compile(r"(\*\*|__)(?=\S)(.{1,300}?)(?<=\S)\1")  # bounded: no quadratic scan
_LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")
_FENCE = re.compile(r"^\s*(```|~~~)")


def parse(raw: str, resolve: Resolver | None = None) -> tuple[Javadoc, list[dict]]:
    """A KDoc comment's description and block tags as plain text, and its links in order of appearance:
    {"text", "target", "ref"} (`ref` None when unresolved)."""
    links: list[dict] = []
    body = strip_comment(raw)
    main, blocks = _split_tags(body)
    doc = Javadoc(_paragraphs(main, resolve, links))
    for tag, rest in blocks:
        name = None
        if tag in NAMED_TAGS or tag == "see" or tag == "sample":
            m = re.match(r"\[([^\]]+)\]\s*(.*)|(\S+)\s*(.*)", rest, re.S)
            if m:
                name = m.group(1) or m.group(3)
                rest = m.group(2) if m.group(1) else m.group(4)
        if tag in ("see", "sample") and name is not None:  # the subject is a link itself
            text = _link(name, name, resolve, links)
            rest = (text + (" " + rest.strip() if rest.strip() else "")).strip()
            name = None
        elif tag == "throws" and name is not None:
            name = _link(name, name, resolve, links)
        flat = " ".join(" ".join(p.split()) for p in _paragraphs(rest, resolve, links))
        doc.tags.append((tag, name, flat))
    return doc, links


def _split_tags(body: str) -> tuple[str, list[tuple[str, str]]]:
    """The main description and (tag, text) blocks; a tag starts a line outside code fences."""
    main: list[str] = []
    blocks: list[tuple[str, list[str]]] = []
    fenced = False
    for line in body.splitlines():
        if _FENCE.match(line):
            fenced = not fenced
        m = None if fenced else re.match(r"\s*@(\w+)\s?(.*)", line)
        if m:
            blocks.append((TAG_ALIASES.get(m.group(1), m.group(1)), [m.group(2)]))
        elif blocks:
            blocks[-1][1].append(line)
        else:
            main.append(line)
    return "\n".join(main), [(t, "\n".join(lines)) for t, lines in blocks]


def _paragraphs(text: str, resolve: Resolver | None, links: list[dict]) -> list[str]:
    """Markdown blocks to paragraphs: prose joined into one line, list items a line each, code verbatim
    (indented by four spaces, as javadoc's `<pre>` blocks are)."""
    out: list[str] = []
    prose: list[str] = []
    code: list[str] | None = None

    def flush() -> None:
        if prose:
            out.append("\n".join(_inline(p, resolve, links) for p in _join(prose)))
            prose.clear()

    for line in text.splitlines():
        if _FENCE.match(line):
            if code is None:
                flush()
                code = []
            else:
                indent = min((len(c) - len(c.lstrip()) for c in code if c.strip()), default=0)
                if code:
                    out.append("\n".join(("    " + c[indent:]).rstrip() for c in code))
                code = None
            continue
        if code is not None:
            code.append(line)
        elif not line.strip():
            flush()
        else:
            prose.append(line)
    if code:  # an unclosed fence: its lines still are code
        out.append("\n".join(("    " + c.strip()).rstrip() for c in code))
    flush()
    return [p for p in out if p.strip()]


def _join(lines: list[str]) -> list[str]:
    """Prose lines to logical lines: a list item or a heading starts a new one, continuation lines join it."""
    out: list[str] = []
    for line in lines:
        s = line.strip()
        if not out or _LIST_ITEM.match(line) or s.startswith("#"):
            out.append(s)
        else:
            out[-1] += " " + s
    return [re.sub(r"^#+\s*", "", s) if s.startswith("#") else re.sub(r"^([*+])\s+", "- ", s) for s in out]


def _inline(text: str, resolve: Resolver | None, links: list[dict]) -> str:
    """Inline Markdown of one logical line: code spans kept literally (markers dropped), links resolved,
    emphasis markers dropped."""
    parts, pos = [], 0
    for m in _CODE.finditer(text):
        parts.append(_prose(text[pos:m.start()], resolve, links))
        parts.append(m.group(2).strip() if m.group(1) == "``" else m.group(2))
        pos = m.end()
    parts.append(_prose(text[pos:], resolve, links))
    return " ".join("".join(parts).split())


_NAME = re.compile(r"`?[A-Za-z_$][\w$]*`?(?:\.`?[A-Za-z_$<][\w$<>]*`?)*(?:\(\))?")


def _prose(text: str, resolve: Resolver | None, links: list[dict]) -> str:
    def repl(m: re.Match) -> str:
        label, target, url = m.group(1), m.group(2), m.group(3)
        if url is not None:
            return f"{label} ({url})"
        if target is not None:
            return _link(target, label, resolve, links, labelled=True) if _NAME.fullmatch(target.strip()) \
                else m.group(0)
        return _link(label, label, resolve, links) if _NAME.fullmatch(label.strip()) else m.group(0)

    return _EMPHASIS.sub(r"\2", _LINK.sub(repl, text))


def _link(target: str, label: str, resolve: Resolver | None, links: list[dict], labelled: bool = False) -> str:
    target = target.strip().replace("`", "")
    if target.endswith("()"):
        target = target[:-2]
    ref = resolve(target) if resolve is not None else None
    links.append({"text": label.strip(), "target": target, "ref": ref})
    if ref is None:
        return label.strip().strip("`")
    return f"{label.strip()} ({ref})" if labelled else ref
