"""Javadoc comments to plain text (spec §7.1 `doc`): HTML stripped, inline tags unwrapped, block tags kept as
a tidy block. Paragraphs become single lines (agents pay per token, not per column); `<pre>` blocks keep
their lines."""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field

BLOCK_ORDER = ("param", "return", "throws", "see", "since", "deprecated")
# block tags the javadoc tool prints as headed sections after the main description (JDK 8's -tag options, the JDK's
# own docs): text, code and all, never inherited
NOTE_HEADINGS = {"apiNote": "API Note:", "implSpec": "Implementation Requirements:", "implNote": "Implementation Note:"}
_INLINE_START = re.compile(r"\{@(\w+)(\s*)")
_TAG = re.compile(r"<(/?)(\w+)[^>]*>")
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[^a-z\s])|(?<=\.)\s*$")  # BreakIterator: no break before lowercase


@dataclass
class Javadoc:
    """A parsed comment: the main description (paragraphs) and block tags as (tag, name-or-None, text)."""

    paragraphs: list[str]
    tags: list[tuple[str, str | None, str]] = field(default_factory=list)
    inherit_doc: bool = False  # the text said {@inheritDoc}
    notes: list[tuple[str, list[str]]] = field(default_factory=list)  # (NOTE_HEADINGS tag, its paragraphs)

    def is_empty(self) -> bool:
        return not self.paragraphs and not self.tags


def strip_comment(raw: str) -> str:
    """`/** … */` with its leading `*` columns removed, lines kept."""
    body = raw.strip()
    if body.startswith("/**"):
        body = body[3:]
    if body.endswith("*/"):
        body = body[:-2]
    lines = []
    for line in body.splitlines():
        s = line.strip()
        if s.startswith("*"):
            s = line.split("*", 1)[1]
            s = s[1:] if s.startswith(" ") else s
        else:
            s = line.strip()
        lines.append(s.rstrip())
    while lines and not lines[0].strip():
        lines.pop(0)
    while lines and not lines[-1].strip():
        lines.pop()
    return "\n".join(lines)


def _split_link(arg: str) -> tuple[str, str | None]:
    """`java.util.List#add(Object) the add method` → (`java.util.List#add(Object)`, `the add method`); the label is
    None where there is none (a space inside the parameter list is no label)."""
    arg = arg.strip()
    depth = 0
    for i, ch in enumerate(arg):
        depth += ch == "("
        depth -= ch == ")"
        if ch.isspace() and depth == 0:
            return arg[:i], arg[i:].strip() or None
    return arg, None


def _link_text(arg: str) -> str:
    """`java.util.List#add(Object) the add method` → `the add method`; `List#add(Object)` → `List.add(Object)`."""
    target, label = _split_link(arg)
    if label:
        return label
    return target.lstrip("#") if target.startswith("#") else target.replace("#", ".")


def _see_text(arg: str) -> str:
    """`@see`'s reference as written (`java.util.List#add(Object)`, `#hashCode()`: the `#` that says it names a
    member kept, as the Kotlin view's `@see` does), or its label where it has one."""
    target, label = _split_link(arg)
    return label or target


def _each_inline(text: str, repl) -> str:
    """`text` with each inline tag `{@tag arg}` replaced by `repl(tag, space, arg)`; `arg` runs to the brace that
    balances the tag's own (`{@code if (x) { y(); }}`: javadoc's rule for code with braces, nested to any depth).
    A tag left open stays as written."""
    out: list[str] = []
    pos = 0
    while (m := _INLINE_START.search(text, pos)) is not None:
        depth, i = 1, m.end()
        while i < len(text) and depth:
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            i += 1
        if depth:
            break
        out += [text[pos:m.start()], repl(m.group(1), m.group(2), text[m.end():i - 1])]
        pos = i
    out.append(text[pos:])
    return "".join(out)


def _inline(text: str, value_of=None) -> tuple[str, bool]:
    inherit = False

    def repl(tag: str, space: str, arg: str) -> str:
        nonlocal inherit
        if tag == "inheritDoc":
            inherit = True
            return "\x00INHERIT\x00"
        if tag in ("link", "linkplain"):
            return _link_text(arg)
        if tag in ("code", "literal"):  # literal text: escaped so the HTML pass leaves `Map<K, V>` alone
            if tag == "code":  # as javadoc: one space after the tag name is dropped, a line break and the
                # next line's indent are kept (`<pre>{@code` then indented lines keep their alignment)
                arg = (space[1:] if space[:1] in (" ", "\t") else space) + arg
            return html.escape(arg.strip() if tag == "literal" else arg, quote=False)
        if tag == "value":  # javadoc prints the constant's value
            value = value_of(arg.strip()) if value_of is not None else None
            if value is not None:
                return html.escape(value, quote=False)
            name = _link_text(arg) if arg.strip() else ""
            return f"the value of {name}" if name else "the value of this constant"
        if tag in ("index", "systemProperty", "summary", "return"):
            return arg.split(None, 1)[0] if tag == "index" and arg.strip() else arg
        return arg

    prev = None
    while prev != text:
        prev, text = text, _each_inline(text, repl)
    return text, inherit


_SCRIPT = re.compile(r"<(sup|sub)>(.*?)</\1\s*>", re.I | re.S)


def _scripts(text: str) -> str:
    """`2<sup>31</sup>-1` → `2^31-1`, `x<sub>i</sub>` → `x_i` (a word; anything longer in parentheses): dropping
    the tags alone would change the meaning (`231-1`)."""
    def repl(m: re.Match) -> str:
        inner = _TAG.sub("", m.group(2)).strip()
        mark = "^" if m.group(1).lower() == "sup" else "_"
        return mark + (inner if re.fullmatch(r"[\w.]+", inner) else f"({inner})")
    return _SCRIPT.sub(repl, text)


def _html(text: str) -> str:
    """HTML to text: paragraph breaks (`<p>`, block tags, blank lines of the comment) become \\x03, list
    items `- `, `<pre>` blocks are kept verbatim between \\x01 and \\x02; `<sup>`/`<sub>` become `^`/`_`;
    other tags vanish."""
    out, pos, pre = [], 0, 0
    text = _scripts(text)

    def plain(chunk: str) -> str:
        return chunk if pre else re.sub(r"\n[ \t]*\n", "\x03", chunk)

    for m in _TAG.finditer(text):
        out.append(plain(text[pos:m.start()]))
        closing, tag = m.group(1) == "/", m.group(2).lower()
        if tag == "pre":
            pre = max(0, pre + (-1 if closing else 1))
            out.append("\x02" if closing else "\x01")
        elif tag in ("p", "ul", "ol", "dl", "table", "blockquote", "h1", "h2", "h3", "h4", "h5", "h6"):
            out.append("\x03")
        elif tag == "br":
            out.append("\n" if pre else "\x03")
        elif tag in ("li", "dt", "tr") and not closing:
            out.append("\x03- ")
        elif tag == "dd" and not closing:
            out.append(" ")
        pos = m.end()
    out.append(plain(text[pos:]))
    return "".join(out)


def _paragraphs(text: str) -> list[str]:
    """\\x03-separated paragraphs, whitespace collapsed, except `<pre>` blocks which keep their lines."""
    paragraphs: list[str] = []
    for part in re.split(r"(\x01.*?\x02)", text, flags=re.S):
        if part.startswith("\x01"):
            lines = html.unescape(part.strip("\x01\x02")).splitlines()
            while lines and not lines[0].strip():  # `<pre> {@code` then a line break: no blank first line
                lines.pop(0)
            while lines and not lines[-1].strip():
                lines.pop()
            indent = min((len(ln) - len(ln.lstrip()) for ln in lines if ln.strip()), default=0)
            if lines:
                paragraphs.append("\n".join(("    " + ln[indent:]).rstrip() for ln in lines))
            continue
        for para in part.split("\x03"):
            flat = " ".join(html.unescape(para).split())
            if flat:
                paragraphs.append(flat)
    return paragraphs


def parse(raw: str, value_of=None) -> Javadoc:
    """A `/** … */` comment's main description and block tags. `value_of(reference)` gives the value of the
    constant a `{@value reference}` names (`""` for `{@value}` alone), or None when unknown."""
    body = strip_comment(raw)
    blocks = re.split(r"\n(?=\s*@\w)", "\n" + body)
    main = blocks[0]
    if main.lstrip().startswith("@") and len(blocks) == 1:
        main, blocks = "", ["", main]
    text, inherit = _inline(main, value_of)
    doc = Javadoc(_paragraphs(_html(text)), inherit_doc=inherit)
    for block in blocks[1:]:
        block = block.strip()
        m = re.match(r"@(\w+)\s*(.*)", block, re.S)
        if not m:
            continue
        tag, rest = m.group(1), m.group(2)
        if tag == "exception":
            tag = "throws"
        name = None
        if tag in ("param", "throws"):
            pieces = rest.split(None, 1)
            name = pieces[0] if pieces else ""
            rest = pieces[1] if len(pieces) > 1 else ""
        if tag == "see":  # a reference stays one jdx can be asked about (`List#add(Object)`, `#hashCode()`)
            rest = _see_text(rest) if not rest.lstrip().startswith(("<", '"')) else rest
        flat, tag_inherit = _inline(rest, value_of)
        doc.inherit_doc |= tag_inherit
        if tag in NOTE_HEADINGS:  # paragraphs and `<pre>` code kept, as the main description's
            doc.notes.append((tag, _paragraphs(_html(flat))))
            continue
        doc.tags.append((tag, name, " ".join(html.unescape(_TAG.sub("", _scripts(flat))).split())))
    return doc


def _simple(name: str) -> str:
    return re.split(r"[./$]", name.strip())[-1]


def declared_only(tags: list[tuple[str, str | None, str]], throws) -> list[tuple[str, str | None, str]]:
    """`tags` without the @throws of exceptions the method's `throws` clause (internal or source names) leaves
    out: the javadoc tool inherits a @throws only for a declared exception (or one the comment `{@inheritDoc}`s)."""
    declared = {_simple(t) for t in throws or ()}
    return [t for t in tags if t[0] != "throws" or _simple(t[1] or "") in declared]


def rename_params(tags: list[tuple[str, str | None, str]], rename: dict[str, str] | None
                  ) -> list[tuple[str, str | None, str]]:
    """`@param` tags of an overridden method named as the overriding method names its parameters (`rename`: the
    parent's name → the member's, by position, as the javadoc tool maps them)."""
    if not rename:
        return list(tags)
    return [(t, rename.get(n, n) if t == "param" and n else n, x) for t, n, x in tags]


def fill_inherited(doc: Javadoc, parent: Javadoc, throws=None, rename: dict[str, str] | None = None) -> Javadoc:
    """`{@inheritDoc}` replaced by the parent's text; tags the member lacks (@param, @return, and @throws of the
    exceptions in its `throws` clause, `throws`) taken from the parent, as the javadoc tool does. `rename`: the
    parent's parameter names → the member's (by position)."""
    parent = Javadoc(parent.paragraphs, rename_params(parent.tags, rename), parent.inherit_doc)
    paragraphs: list[str] = []
    for p in doc.paragraphs:  # the parent's paragraphs stay paragraphs where the marker stands
        if "\x00INHERIT\x00" not in p:
            paragraphs.append(p)
            continue
        before, _, after = p.partition("\x00INHERIT\x00")
        paragraphs.extend(x.rstrip() if x.startswith("    ") else x.strip()  # `<pre>` keeps its indent
                          for x in [before, *parent.paragraphs, after] if x.strip() and "\x00INHERIT\x00" not in x)
    paragraphs = paragraphs or list(parent.paragraphs)
    tags = []
    for tag, name, text in doc.tags:
        if "\x00INHERIT\x00" in text:
            src = next((t for t in parent.tags if t[0] == tag and t[1] == name), None)
            text = text.replace("\x00INHERIT\x00", src[2] if src else "")
        tags.append((tag, name, text))
    have = {(t, n) for t, n, _ in tags}
    for tag, name, text in declared_only(parent.tags, throws):
        if tag in ("param", "return", "throws") and (tag, name) not in have:
            tags.append((tag, name, text))
    return Javadoc(paragraphs, tags, False, doc.notes)


def render(doc: Javadoc) -> list[str]:
    """Plain-text lines: `@deprecated` first (the javadoc tool puts the deprecation above the description: a reader
    cut short by --max-lines still sees it), paragraphs separated by blank lines, the note sections, then the other
    block tags in javadoc's order."""
    lines: list[str] = [f"@deprecated {text.replace(chr(0) + 'INHERIT' + chr(0), '')}".rstrip()
                        for tag, _, text in doc.tags if tag == "deprecated"]
    if lines and (doc.paragraphs or doc.notes):
        lines.append("")
    lines_before = len(lines)
    for p in doc.paragraphs:
        if len(lines) > lines_before:
            lines.append("")
        lines.extend(p.replace("\x00INHERIT\x00", "").splitlines())
    for tag, paragraphs in doc.notes:
        if len(lines) > lines_before:
            lines.append("")
        lines.append(NOTE_HEADINGS[tag])
        for i, p in enumerate(paragraphs):
            lines.extend(([""] if i else []) + p.replace("\x00INHERIT\x00", "").splitlines())
    tags = sorted(doc.tags, key=lambda t: BLOCK_ORDER.index(t[0]) if t[0] in BLOCK_ORDER else len(BLOCK_ORDER))
    shown = [t for t in tags if t[0] not in ("author", "serial", "serialData", "serialField", "hidden", "jls", "jvms",
                                             "revised", "spec", "deprecated")]
    if shown and len(lines) > lines_before:
        lines.append("")
    width = {tag: max((len(n) for t, n, _ in shown if n and t == tag), default=0)
             for tag in {t for t, n, _ in shown if n is not None}}
    for tag, name, text in shown:
        text = text.replace("\x00INHERIT\x00", "")
        lines.append(f"@{tag} {name.ljust(width[tag])}  {text}".rstrip() if name is not None
                     else f"@{tag} {text}".rstrip())
    return lines


def first_sentence(doc: Javadoc) -> str:
    """The summary sentence, as the javadoc tool takes it: up to the first period followed by whitespace and
    something other than a lowercase letter (so `e.g. this` does not end it)."""
    if not doc.paragraphs:
        return ""
    text = doc.paragraphs[0].replace("\x00INHERIT\x00", "").strip()
    m = _SENTENCE.search(text)
    return text[: m.start()].strip() if m else text
