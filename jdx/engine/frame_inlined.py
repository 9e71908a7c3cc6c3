"""Where a Kotlin frame's line came from: kotlinc numbers code it inlined past the file's own lines and maps those
numbers back through the class's SMAP (JSR-45 `SourceDebugExtension`, strata `Kotlin` and `KotlinDebug`), so a
frame line of inlined code is the inline function's file and line, called at a line of the frame's own file
(`resolve 'at kotlinx.coroutines.DispatchedTask.run(DispatchedTask.kt:230)'`: CoroutineContext.kt:113, called at
DispatchedTask.kt:90). The class files are read through the readers `resolve` is given (the engine reads no
artifact)."""

from __future__ import annotations

from jdx.graph_schema import queries
from jdx.graph_schema.store import GraphStore


class ClassReader:
    """A class's line tables and SMAP, read once per (artifact, class) through the readers resolve is given."""

    def __init__(self, store: GraphStore, line_tables, smap):
        from jdx.graph_schema.store import artifact_rows

        self.store, self.readers, self.read = store, {"tables": line_tables, "smap": smap}, {}
        self.arts = {r["a.id"]: {"kind": r.get("a.kind"), "path": r.get("a.path"), "module": r.get("a.module")}
                     for r in artifact_rows(store)}

    def _get(self, what: str, artifact: str, owner: str):
        key = (what, artifact, owner)
        if key not in self.read:
            art, reader = self.arts.get(artifact) or {}, self.readers[what]
            self.read[key] = reader(art.get("kind") or "", art["path"], art.get("module"), owner.replace(
                ".", "/")) if reader is not None and art.get("path") else None
        return self.read[key]

    def tables(self, artifact: str, owner: str) -> dict | None:
        return self._get("tables", artifact, owner)

    def smap(self, artifact: str, owner: str) -> dict | None:
        text = self._get("smap", artifact, owner)
        return parse_smap(text) if text else None

    def method_at(self, owner: str, line: int) -> str | None:
        """The method of a workspace class whose LineNumberTable holds `line` (an inline function, by its SMAP line)."""
        rows = self.store.rows_cached(queries.TYPE_BY_ID, {"id": owner})
        tables = self.tables(rows[0]["t.artifact"], owner) if rows and not rows[0]["t.external"] else None
        names = sorted({name for (name, _), lines in (tables or {}).items() if line in lines
                        and not name.endswith("$$forInline")})
        # an inline function with default arguments: its `$default` stub holds a copy of the body and its lines
        plain = [n for n in names if not n.endswith("$default")]
        return names[0] if len(names) == 1 else plain[0] if len(plain) == 1 else None


def frame_lines(classes: ClassReader, m: dict, lines, line: int) -> dict:
    """A Kotlin method's own lines (its SMAP numbers inlined code past the file's end: not the method's range) and,
    when the frame's line is such code, where it came from: the inline function's file, line and the call site."""
    smap = classes.smap(m["artifact"], m["owner"])
    if smap is None:
        return m
    own = sorted(n for n in lines if n <= smap["own"])
    m = dict(m, first_line=own[0], last_line=own[-1]) if own else m
    for out_start, out_end, in_start, file, owner in smap["inlined"]:
        if out_start <= line <= out_end:
            at = in_start + line - out_start
            call = next((c for s, e, c in smap["calls"] if s <= line <= e), None)
            inlined = {"file": file, "line": at, "owner": owner.replace("/", ".") if owner else None,
                       "function": classes.method_at(owner, at) if owner else None, "call_file": smap["file"],
                       "call_line": call}
            return dict(m, inlined={k: v for k, v in inlined.items() if v is not None})
    return m


def parse_smap(text: str) -> dict | None:
    """kotlinc's SMAP (JSR-45, SourceDebugExtension): {file, own: the file's last own line, inlined: [(out start,
    out end, line in the inline function's file, its file, its class)], calls: [(out start, out end, call line)]}
    from the `Kotlin` and `KotlinDebug` strata; None for another compiler's map or one not well formed."""
    rows = text.splitlines()
    if not rows or rows[0].strip() != "SMAP" or "*S Kotlin" not in text:
        return None
    out = {"file": rows[1].strip() if len(rows) > 1 else "", "own": 0, "inlined": [], "calls": []}
    stratum = section = None
    files: dict[int, tuple[str, str | None]] = {}
    last, i = 1, 0
    try:
        while i < len(rows):
            row = rows[i].strip()
            i += 1
            if row.startswith("*S "):
                stratum, section, files, last = row[3:].strip(), None, {}, 1
            elif row in ("*F", "*L"):
                section = row
            elif row.startswith("*"):
                section = None
            elif section == "*F" and row:
                with_path = row.startswith("+ ")
                num, _, name = row[2 if with_path else 0:].strip().partition(" ")
                path = rows[i].strip() if with_path and i < len(rows) else None
                i += 1 if with_path else 0
                files[int(num)] = (name, path)
            elif section == "*L" and row:
                src, _, dst = row.partition(":")
                src, _, repeat = src.partition(",")
                src, _, file = src.partition("#")
                last = int(file) if file else last
                dst, _, incr = dst.partition(",")
                start, at = int(dst), int(src)
                end = start + max(1, int(repeat or 1) * max(1, int(incr or 1))) - 1
                if stratum == "Kotlin" and last == 1 and at == start:
                    out["own"] = max(out["own"], end)
                elif stratum == "Kotlin":
                    name, path = files.get(last, ("", None))
                    out["inlined"].append((start, end, at, name, path))
                elif stratum == "KotlinDebug":
                    out["calls"].append((start, end, at))
    except ValueError:
        return None
    return out if out["own"] else None


def inlined_note(inl: dict) -> str:
    """`inlined code: CoroutineContext.kt:113 (kotlinx.coroutines.CoroutineContextKt#withContinuationContext),
    called at DispatchedTask.kt:90`: where the frame's line came from, by the class's SMAP."""
    of = f"{inl['owner']}#{inl['function']}" if inl.get("function") else inl.get("owner")
    return f"inlined code: {inl['file']}:{inl['line']}" + (f" ({of})" if of else "") + (
        f", called at {inl['call_file']}:{inl['call_line']}" if inl.get("call_line") else "")
