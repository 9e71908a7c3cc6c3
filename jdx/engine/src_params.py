"""Parameter names from a type's sources, the first rung of spec §16's ladder (source → MethodParameters →
LocalVariableTable → arg0, arg1): for a Java method whose class file keeps no names (an abstract or interface method
never has a LocalVariableTable; a jar built without -g or -parameters), the names its source declaration writes.

A member takes its source's names only when the match is certain: its declaration is found in the type's own
declaration (src_locate / source_match: same name, erased parameter types equal to the descriptor's, a constructor's
synthetic leading parameters allowed), no other declaration of the type has the same name and erased types (two
`List`s of different packages erase alike) unless the LineNumberTable picks one, and the names line up one to one
with the rendered parameters. Sources of another version (SOURCES_VERSION_MISMATCH, as `body` reports it) name no
parameters: the class file's answer stays, with the mismatch said once per type. Kotlin classes are left to their
metadata.

The names of a file's declarations come from one tree-sitter parse per file content, memoised in process and on disk
(`<cache>/srcparams/`) by the same content hash java_parse keys its declarations by.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from jdx.engine import source_match as sm
from jdx.engine.java_parse import CALLABLE_KINDS, PARSE_VERSION, content_key
from jdx.engine.refs import format_member, format_type
from jdx.errors import Warning_

NAMES_VERSION = 1  # bump when the stored names change shape
_NODE_TYPES = ("method_declaration", "constructor_declaration", "compact_constructor_declaration",
               "annotation_type_element_declaration")
_MEMO: dict[str, dict[str, list[str]]] = {}
_MEMO_MAX = 64


def file_names(file) -> dict[str, list[str]]:
    """`"line:col"` of each method or constructor declaration of a Java source file → its written parameter names."""
    key = content_key(file.data)
    hit = _MEMO.get(key)
    if hit is not None:
        return hit
    name = f"{key}.v{PARSE_VERSION}.{NAMES_VERSION}.json"
    stored = Path(file.cache, "srcparams", name) if file.cache is not None else None
    names = _load(stored) if stored is not None else None
    if names is None:
        names = _parse_names(file)
        if stored is not None:
            _store(stored, names)
    if len(_MEMO) >= _MEMO_MAX:
        _MEMO.pop(next(iter(_MEMO)))
    _MEMO[key] = names
    return names


def _load(path: Path) -> dict[str, list[str]] | None:
    try:
        raw = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    return raw if isinstance(raw, dict) else None


def _store(path: Path, names: dict[str, list[str]]) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps(names, separators=(",", ":"), sort_keys=True))
        os.replace(tmp, path)
    except OSError:
        pass  # a read-only cache costs a re-parse, nothing else


def _parse_names(file) -> dict[str, list[str]]:
    """One tree-sitter parse of the file; each callable declaration java_parse found is looked up by its start."""
    from jdx.engine.java_parse import _params, parser

    root = parser().parse(file.data).root_node
    out: dict[str, list[str]] = {}
    for decl in file.parsed.decls:
        if decl.kind not in CALLABLE_KINDS:
            continue
        point = (decl.start - 1, decl.start_col)
        node = root.descendant_for_point_range(point, point)
        while node is not None and not (node.type in _NODE_TYPES and tuple(node.start_point) == point):
            node = node.parent
        if node is None:
            continue
        names = _params(node, [])[2]
        if names and all(names):
            out[f"{decl.start}:{decl.start_col}"] = names
    return out


class SourceParamNames:
    """The source names of the members one answer renders: a type's sources are located, checked against its class
    file and parsed once; `warnings` holds what the answer must say (sources of another version, once per type)."""

    def __init__(self, ctx) -> None:
        self.ctx = ctx
        self._types: dict[str, tuple | None] = {}
        self.warnings: list[Warning_] = []
        self.used: dict[str, dict] = {}  # type id -> {"file", "sources", "count"} of the types that named parameters

    def names(self, type_id: str, row: dict, count: int) -> list[str] | None:
        """The `count` rendered parameters of method `row` of `type_id` named as its source declaration names them;
        None when the sources do not say it with certainty."""
        if not count or not row.get("descriptor") or row.get("name") == "<clinit>":
            return None
        if (row.get("access") or 0) & (sm.ACC_SYNTHETIC | sm.ACC_BRIDGE):
            return None
        found = self._type(type_id)
        if found is None:
            return None
        type_row, file, keys = found
        names = self._declared(type_row, file, keys, row)
        if names is None:
            return None
        if len(names) != count:  # a constructor whose rendered list keeps synthetic parameters: line up at the end
            return None
        entry = self.used.setdefault(type_id, {"file": file.display, "sources": file.root.label, "count": 0,
                                               "artifact": self.ctx.artifact_name(type_row)})
        entry["count"] += 1
        return names

    def _type(self, type_id: str):
        if type_id in self._types:
            return self._types[type_id]
        self._types[type_id] = None
        from jdx.engine import kotlin_source
        from jdx.engine.src_locate import mismatch_warnings, source_file

        type_row = self.ctx.type_row(type_id)
        if type_row is None or type_row.get("kotlin") or kotlin_source.is_kotlin_source(type_row):
            return None
        try:
            found = source_file(self.ctx, type_row)
        except (OSError, ValueError):
            return None
        if found is None:
            return None
        file, keys = found
        if file.is_kotlin or file.parsed.errors:
            return None
        mismatches = mismatch_warnings(self.ctx, type_row, file, keys)
        if mismatches:  # another version of the sources: their names may not be the compiled ones
            self.warnings += mismatches
            self.warnings.append(Warning_(
                "SOURCES_VERSION_MISMATCH", f"{format_type(type_id)}: parameter names not taken from "
                f"{file.root.label} ({file.display}), which differs from the class file; shown as the class file "
                "has them", self.ctx.artifact_name(type_row)))
            return None
        self._types[type_id] = (type_row, file, keys)
        return self._types[type_id]

    def _declared(self, type_row: dict, file, keys: list[str], row: dict) -> list[str] | None:
        """The written names of the declaration `row` certainly matches, without any synthetic parameter."""
        from jdx.engine.src_locate import Located, line_drift

        parsed = file.parsed
        match = sm.match_method(parsed, row, type_row, keys, file.lines)  # (overloads of one simple name: none)
        decl = match.decl
        if decl is None or decl.kind not in CALLABLE_KINDS:
            return None
        first, last = row.get("first_line") or -1, row.get("last_line") or -1
        within = first > 0 and decl.start <= first and last <= decl.end
        if decl.path != keys and not within:
            return None
        twins = [d for d in parsed.decls if d.path == decl.path and d.kind == decl.kind and d.name == decl.name
                 and d.params == decl.params]
        if len(twins) > 1 and not within:  # same simple-name erasure twice: the class file cannot tell them apart
            return None
        drift = line_drift(self.ctx, type_row, row, Located(file, keys, decl))
        if drift is not None:
            self.warnings.append(drift)
            self.warnings.append(Warning_(
                "SOURCES_VERSION_MISMATCH", f"{format_member(type_row['id'], row['name'], row['descriptor'])}: "
                "parameter names not taken from the sources, which are another version; shown as the class file "
                "has them", self.ctx.artifact_name(type_row)))
            return None
        names = file_names(file).get(f"{decl.start}:{decl.start_col}")
        if names is None or len(names) != len(decl.params):
            return None
        return list(names)

    def provenance(self) -> list[dict]:
        """One `sources` provenance entry per type whose source named parameters of the answer."""
        return [{"symbol": format_type(type_id), "artifact": u["artifact"], "origin": "sources", "file": u["file"],
                 "sources": u["sources"], "detail": f"parameter names of {u['count']} member"
                 f"{'s' if u['count'] != 1 else ''} not in the class file"}
                for type_id, u in sorted(self.used.items())]


def namer(sources) -> SourceParamNames | None:
    """A SourceParamNames for an answer from a SourceContext, a callable returning one, or None (no sources)."""
    if sources is None:
        return None
    ctx = sources() if callable(sources) else sources
    return SourceParamNames(ctx) if ctx is not None else None
