"""The decompiled text of a Kotlin class without kotlinc's bookkeeping payloads: `@Metadata`'s `d1`/`d2` (the
protobuf-encoded declarations, thousands of escaped characters on one line) and `@SourceDebugExtension`'s SMAP are
read by jdx from the class file itself (the Kotlin view, `resolve` of inlined frames), and cost an agent reading
`source` or a type's `body` a fifth of the text. Each array keeps its place as an empty initializer with a comment
saying what was left out and where to read it, so the text stays valid Java and every line keeps its number."""

from __future__ import annotations

import re

_STRING = r'"(?:[^"\\\n]|\\.)*"'
_ARRAY = rf"\{{\s*(?:{_STRING}\s*(?:,\s*)?)*\}}"
_METADATA_ARRAY = re.compile(rf"(\b(?:d1|d2)\s*=\s*)({_ARRAY})")
_SMAP = re.compile(rf"(@(?:kotlin\.jvm\.internal\.)?SourceDebugExtension\(\s*(?:value\s*=\s*)?)({_ARRAY})")
_MIN = 80  # a payload shorter than this stays as written


def compact_kotlin_bookkeeping(text: str) -> str:
    """`text` with each `@Metadata` `d1`/`d2` array and `@SourceDebugExtension` array longer than `_MIN` characters
    replaced by `{ /* N characters of ...: where jdx reads them */ }`; unchanged when it has none (a Java class)."""
    if "@Metadata" not in text and "SourceDebugExtension" not in text:
        return text
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if "@Metadata" in line:
            line = _METADATA_ARRAY.sub(lambda m: _left_out(m, "@kotlin.Metadata (jdx outline and --view kotlin "
                                                              "read them)"), line)
        if "SourceDebugExtension" in line:
            line = _SMAP.sub(lambda m: _left_out(m, "SMAP (jdx resolve maps inlined lines through it)"), line)
        lines[i] = line
    return "\n".join(lines)


def _left_out(m: re.Match, what: str) -> str:
    payload = m.group(2)
    if len(payload) < _MIN:
        return m.group(0)
    return f"{m.group(1)}{{ /* {len(payload):,} characters of {what} */ }}"
