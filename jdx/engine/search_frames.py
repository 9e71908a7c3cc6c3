"""The lines of a stack trace `resolve` reads (spec §7.2; search_nav.resolve answers them): a frame, an exception
line, a cause's `... N more`, a runtime-generated (hidden) lambda class's frame; and the warnings a frame's file, jar
and line give about the class that ran."""

from __future__ import annotations

import re
import shlex

from jdx.engine.refs import format_member
from jdx.errors import NotFoundError, UsageError, Warning_

# `at java.base/java.util.HashMap.get(HashMap.java:556)`, `app//a.B.c(B.java)`, `java.base@17/…`, `loader/mod@1/…`
# (StackTraceElement.toString: up to two prefixes, class loader then module), `a.B.<init>(Unknown Source)`; a
# hidden class's name holds a `/` (`a.B$$Lambda$1/0x0000000800c4a0a0.run`: never a prefix); a logging framework's
# jar suffix (logback `~[json-path-2.10.0.jar:?]`, log4j2 `[app.jar:1.0]`) follows the `)`
_FRAME = re.compile(r"^\s*(?:at\s+)?(?P<prefix>(?:[^\s/()]*/+(?!(?:0x[0-9a-fA-F]+|\d+)\.)){0,2})"
                    r"(?P<sym>(?:[^\s/()]+/(?:0x[0-9a-fA-F]+|\d+)\.)?[^\s/()]+?)\s*(?:\((?P<src>[^)]*)\))?"
                    r"(?:\s*~?\[(?P<jar>[^\]]*)\])?\s*$")
# what a frame's `(…)` holds (`Foo.java:12`, `Foo.kt`, `Unknown Source`, `Native Method`, ProGuard's `SourceFile:7`);
# other parenthesised text after a name is a parameter list (`Hex#decodeHex(String)`)
_LOCATION = re.compile(r"(?:Unknown Source|Native Method|[^\s,:()<>\[\]]*\.[a-z][a-z0-9]*)(?::\d+)?|[^\s,:()]*:\d+")
# a stack trace's exception line: `Caused by: a.B: msg`, `Suppressed: a.B`, `Exception in thread "main" a.B: msg`,
# `a.B: msg` (Throwable.toString: the class's name, then `: ` and the message; SAXParseException's `a.B; line…`)
_EXCEPTION = re.compile(r'\s*(?P<lead>(?:Exception in thread "[^"]*"|Caused by:|Suppressed:)\s*)?'
                        r"(?P<type>[\w$]+(?:\.[\w$]+)*)(?P<message>[:;](?:\s.*)?)?\s*")
_OMITTED = re.compile(r"\s*\.\.\. (?P<n>\d+) (?:more|common frames omitted)\s*")  # a cause's frames its effect's
# a hidden class (Lookup.defineHiddenClass: its name, `/`, a suffix; JDK 8's VM-anonymous `a.B$$Lambda$1/1283928880`);
# a lambda's (`a.B$$Lambda$12/0x…`, JDK 21+ `a.B$$Lambda/0x…`) implements its functional interface for the class
# that wrote it
_HIDDEN = re.compile(r"(?P<base>[^\s/]+)/(?:0x[0-9a-fA-F]+|\d+)")
_LAMBDA_PROXY = re.compile(r"(?P<outer>[^\s/]+?)\$\$Lambda(?:\$\d+)?")
# a jar file's name and version: `velocity-engine-core-2.3.jar` -> (velocity-engine-core, 2.3)
_JAR_VERSION = re.compile(r"(?P<base>.+?)(?:-(?P<version>\d[\w.\-]*?))?\.jar")
_UNKNOWN_VERSION = {"", "?", "na"}


def is_frame_location(src: str) -> bool:
    """Is the text between a frame's parentheses a source location (`Foo.java:12`), not a parameter list?"""
    return _LOCATION.fullmatch(src.strip()) is not None


def exception_type(line: str) -> str | None:
    """The exception type a stack trace's exception line names (`Caused by: a.B: msg` -> `a.B`); None for any
    other text (a bare `a.B` is a name, not an exception line)."""
    m = _EXCEPTION.fullmatch(line)
    # without a lead, Throwable.toString's fully qualified name (`Index: 5 Size: 1` is a message's line)
    return m.group("type") if m and (m.group("lead") or m.group("message") and "." in m.group("type")) else None


def exception_message(line: str) -> str:
    """The message of an exception line (`Caused by: a.B: msg` -> `msg`); "" when it has none."""
    m = _EXCEPTION.fullmatch(line)
    return (m.group("message") or "")[1:].strip() if m else ""


def has_lead(line: str) -> bool:
    """Whether an exception line starts as the JVM starts one (`Exception in thread "main"`, `Caused by:`,
    `Suppressed:`)."""
    m = _EXCEPTION.fullmatch(line)
    return bool(m and m.group("lead"))


_THREAD_LEAD = 'Exception in thread "'


def from_thread_lead(line: str) -> str:
    """An uncaught exception's line from its `Exception in thread "…"`, whatever a terminal or a log wrote before it
    on the same line (escape codes, a prompt)."""
    at = line.find(_THREAD_LEAD)
    return line[at:] if at > 0 else line


def omitted_frames(line: str) -> int | None:
    """N of a cause's `... N more` (logback: `... N common frames omitted`); None for any other line."""
    m = _OMITTED.fullmatch(line)
    return int(m.group("n")) if m else None


def trace_line(text: str) -> str:
    """The one frame or exception line of a pasted multi-line text (blank and `... 3 more` lines skipped): resolve
    answers one name, so a whole trace is a usage error pointing at `jdx batch`."""
    if "\n" not in text.strip():
        return text
    lines = [from_thread_lead(ln) for ln in text.strip().splitlines() if ln.strip() and omitted_frames(ln) is None]
    read = [ln for ln in lines if exception_type(ln) is not None or parse_frame(ln)[1] is not None]
    if len(read) == 1:
        return read[0]
    if not read:
        raise UsageError(f"resolve takes one name or one line of a stack trace; this text has {len(lines)} lines "
                         "and none is a frame or an exception line")
    raise UsageError(f"resolve takes one line of a stack trace; this text has {len(read)} frame and exception lines: "
                     "pass one of them, or one `resolve '<line>'` per line to jdx batch")


def parse_frame(text: str) -> tuple[str, dict | None]:
    """The symbol part of a stack-trace frame and {file, line} when the text was a frame (`a.B.c(String)`, a name
    with a parameter list, is none); a logging framework's jar suffix as `jar` (and `jar_version` when known)."""
    m = _FRAME.match(text)
    if not m:
        return text.strip(), None
    sym, src = m.group("sym"), m.group("src")
    if not text.lstrip().startswith("at ") and (src is None or not is_frame_location(src)):
        # a name after a module (`java.base/java.util.Map`); `java/util/Map` is no name with two prefixes
        return (sym if len([p for p in m.group("prefix").split("/") if p]) < 2 else text.strip()), None
    file, line = (src or ""), None
    if src and ":" in src:
        file, _, num = src.rpartition(":")
        line = int(num) if num.isdigit() else None
    frame = {"text": sym, "file": file, "line": line, **({"native": True} if src == "Native Method" else {})}
    jar, _, version = (m.group("jar") or "").partition(":")
    if jar.endswith(".jar"):
        frame["jar"] = jar
        if version.strip() not in _UNKNOWN_VERSION:
            frame["jar_version"] = version.strip()
    return sym, frame


def hidden_class(owner: str) -> tuple[str, str | None] | None:
    """A frame's hidden class (`a.B$$Lambda$1/0x…`): (its name before the `/`, the class that wrote the lambda when
    it is a lambda's); None for a class a class file declares."""
    m = _HIDDEN.fullmatch(owner)
    if not m:
        return None
    lam = _LAMBDA_PROXY.fullmatch(m.group("base"))
    return m.group("base"), lam.group("outer") if lam else None


# `members --grep` of a class's lambda bodies (`_SYNTHETIC_NAMES`' first kind)
LAMBDA_NAMES = r"^lambda\$|\$lambda[$-]|^\$anonfun\$"


def lambda_proxy_note(proxy: str, member: str, outer: str, bodies: int, listed: bool) -> str:
    """What a lambda proxy's frame is, on the row of the class that wrote the lambda (`bodies`: its lambda bodies,
    `listed` after the row or else named by the command that lists them)."""
    which = ("none" if not bodies else "listed" if listed else
             f"{bodies}: jdx members {shlex.quote(outer)} --declared --include-synthetic --access private --grep {shlex.quote(LAMBDA_NAMES)}")
    return (f"{proxy.rsplit('.', 1)[-1]} is a lambda class the runtime generated for this class (hidden: in no jar); "
            f"its {member} is the functional interface's method, and its code the trace's frame above it: a lambda "
            f"body of this class ({which}) or a method reference's target")


# a compiler-named method, numbered per class and build: javac's lambda body (`lambda$export$0`, `lambda$static$1`),
# scalac's (`$anonfun$export$1`, `$anonfun$export$1$adapted`), kotlinc's (`export$lambda$0`, `export$lambda-0`), an
# accessor (javac 10-'s `access$000`, kotlinc's `access$getX`)
_SYNTHETIC_NAMES = ((("lambda body", "lambda bodies"),
                     re.compile(r"(?:lambda|\$anonfun)\$[\w$]*\$\d+(?:\$adapted)?|[\w$]+?\$lambda[-$]\d+(?:\$[\w$]*)?")),
                    (("synthetic accessor", "synthetic accessors"), re.compile(r"access\$[\w$]+")))
SYNTHETIC_LISTED = 10  # a missing synthetic method's frame lists its class's methods of that kind up to this many


def frame_member_miss(message: str, type_ref: str, member: str, methods: list[dict]) -> NotFoundError | None:
    """The not-found (`message`: `… has no method lambda$export$0`) of a frame whose class (it exists) has no
    compiler-named method `member` (numbered per class: gone when the lambda became a method reference): the class
    that ran had it, so the trace probably comes from another build than the workspace's (as FRAME_LINE_OUTSIDE says
    of a line), with the class's current methods of that kind as the candidates, those written from the same method
    first (`methods`: rows with owner, name, descriptor). None for any other name (its near names answer)."""
    kind = next((k for k, rx in _SYNTHETIC_NAMES if rx.fullmatch(member)), None)
    if kind is None:
        return None
    rx, writer = dict(_SYNTHETIC_NAMES)[kind], lambda_writer_name(member)
    same = sorted((m for m in methods if rx.fullmatch(m["name"])),
                  key=lambda m: (lambda_writer_name(m["name"]) != writer, m["name"], m["descriptor"]))
    listed = [{"ref": format_member(m["owner"], m["name"], m["descriptor"]), "kind": "method"}
              for m in same[:SYNTHETIC_LISTED]]
    now = f"its {kind[1]} now are the candidates" if listed else f"{type_ref} has no {kind[1]} now"
    return NotFoundError(f"{message}, a {kind[0]} the compiler named: the class that ran had it, so the trace probably "
                         f"comes from another build than the workspace's (the compiler numbers them per class; {now})",
                         candidates=listed,
                         hint=("jdx body '<candidate>' shows one's code; " if listed else "")
                         + "resolve the trace against the build that ran it")


def lambda_writer_name(name: str) -> str:
    """The method whose code a compiler-named method was written from: `export` of `lambda$export$0` and of
    `export$lambda$0` (and of scalac's `$anonfun$export$1`); "" when the name does not say."""
    if name.startswith(("lambda$", "$anonfun$")):  # ECJ's `lambda$0` names none
        parts = name.lstrip("$").split("$")
        return parts[1] if len(parts) > 2 else ""
    return name.split("$lambda", 1)[0] if "$lambda" in name else ""


# --- warnings ------------------------------------------------------------------------------------------------
def frame_warnings(result: dict) -> list[Warning_]:
    """What a frame says about the class that ran: its line in none of the named methods (FRAME_LINE_OUTSIDE:
    another version; FRAME_SHADOWED_COPY: a copy of the class the classpath shadows holds it), its file not the
    class's source file (FRAME_SOURCE_FILE), its logging jar suffix another version of the artifact
    (FRAME_JAR_VERSION)."""
    frame = result.get("frame")
    if not frame:
        return []
    return _line_warnings(frame, result["candidates"]) + _file_warnings(frame, result["candidates"]) + \
        _jar_warnings(frame, result["candidates"])


def _spans(rows: list[dict]) -> str:
    return ", ".join(f"{c['lines'][0]}-{c['lines'][1]}" for c in rows[:3]) + (
        f" and {len(rows) - 3} more" if len(rows) > 3 else "")


def _line_warnings(frame: dict, candidates: list[dict]) -> list[Warning_]:
    line = frame.get("line")
    ranged = [c for c in candidates if c.get("lines") and not c.get("shadowed")]
    if line is None or not ranged or any(c["lines"][0] <= line <= c["lines"][1] or c.get("inlined") for c in ranged):
        return []
    outside = f"line {line} of the frame is outside {ranged[0]['ref'].split('(')[0]} (lines {_spans(ranged)})"
    copies = [c for c in candidates if c.get("shadowed")]  # listed only when their line tables hold the line
    if copies:
        return [Warning_("FRAME_SHADOWED_COPY", f"{outside} of {ranged[0]['artifact']}, the copy the classpath loads, "
                         f"and in {copies[0]['ref']} (lines {_spans(copies)}) of {copies[0]['artifact']}, a copy it "
                         "shadows: that copy probably ran (the classpath that ran had it first)",
                         copies[0]["artifact"])]
    return [Warning_("FRAME_LINE_OUTSIDE", f"{outside}: the class that ran is probably another version than the "
                     "workspace's", ranged[0].get("artifact", ""))]


def _file_warnings(frame: dict, candidates: list[dict]) -> list[Warning_]:
    if not frame.get("source_file"):
        return []
    return [Warning_("FRAME_SOURCE_FILE", f"the frame's file {frame['file']} is not {frame['text'].rsplit('.', 1)[0]}"
                     f"'s source file {frame['source_file']} (its SourceFile attribute): the frame names another "
                     "class than the one that ran, or was edited", candidates[0]["artifact"] if candidates else "")]


def _jar_warnings(frame: dict, candidates: list[dict]) -> list[Warning_]:
    ran = _jar_version(frame.get("jar", ""), frame.get("jar_version"))
    if ran is None:
        return []
    for artifact in dict.fromkeys(c["artifact"] for c in candidates if not c.get("shadowed")):
        ours = _artifact_version(artifact)
        if ours is not None and ours[0] == ran[0] and ours[1] != ran[1]:
            return [Warning_("FRAME_JAR_VERSION", f"the frame's jar suffix names {frame['jar']} version {ran[1]}; the "
                             f"workspace's {artifact} is version {ours[1]}: line numbers may not match",
                             artifact)]
    return []


def _jar_version(jar: str, version: str | None) -> tuple[str, str] | None:
    """(artifact name, version) of a frame's jar suffix: its version, else the one in the jar's file name."""
    m = _JAR_VERSION.fullmatch(jar)
    found = version or (m.group("version") if m else None)
    return (m.group("base"), found) if m and found else None


def _artifact_version(name: str) -> tuple[str, str] | None:
    """(artifact name, version) of a workspace artifact named by its coordinate (`g:a:v …`) or its jar file."""
    head = name.split(" ", 1)[0]
    parts = head.split(":")
    if len(parts) in (3, 4):
        return parts[1], parts[2]
    return _jar_version(head.replace("\\", "/").rsplit("/", 1)[-1], None)
