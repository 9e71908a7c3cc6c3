"""`--engine javap`: the JDK's javap run in process (java.util.spi.ToolProvider), one member's block or a class.

The text is javap's own (`-c -p -l -constants -s`), passed through unchanged: an agent asking for bytecode wants
the exact opcodes, constants and line table, not our rendering of them. A member is found by name and the
descriptor javap prints under it (`-s`), so overloads and a field beside a same-named method never mix up.
"""

from __future__ import annotations

import functools
import re
import tempfile
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path

from jdx.engine.ports import ToolFailed, jvm_name
from jdx.errors import JdxError, NotFoundError

JAVAP_FLAGS = ("-c", "-p", "-l", "-constants", "-s")
MODIFIERS = frozenset({"public", "protected", "private", "static", "final", "abstract", "synchronized", "native",
                       "transient", "volatile", "strictfp", "default"})


class JavapFailed(JdxError):
    code = "JAVAP_FAILED"


@dataclass(frozen=True)
class Block:
    name: str  # JVM name: <init>, <clinit>, a method or a field name
    descriptor: str
    text: str


def javap_args(tools, artifact_kind: str, artifact_path: str, internal_name: str) -> list[str]:
    """javap's arguments for one class, read from exactly the artifact named.

    A JDK class comes from its module in the runtime image; a class directory's class by its file path; a jar's
    class is written to a temp file first (see _class_file_from_jar) — never `-classpath <jar>`, which would
    let the JDK's own copy of a class win over a jar that bundles one.
    """
    if artifact_kind == "jrt":
        return [*JAVAP_FLAGS, "--module", artifact_path.removeprefix("jrt:/"), internal_name.replace("/", ".")]
    if artifact_kind in ("dir", "file"):
        target = Path(artifact_path, _entry(tools, artifact_kind, artifact_path, internal_name)) \
            if artifact_kind == "dir" else Path(artifact_path)
        if not target.is_file():
            raise NotFoundError(f"{internal_name.replace('/', '.')} is not in {artifact_path}")
        return [*JAVAP_FLAGS, str(target)]
    raise JavapFailed(f"unknown artifact kind {artifact_kind!r}")


def _entry(tools, artifact_kind: str, artifact_path: str, internal_name: str) -> str:
    """The class file's entry in a jar or path under a class directory: the path its name gives, else where jdx
    indexed it (MISPLACED_CLASS: `BOOT-INF/classes/p/A.class`, a war's `WEB-INF/classes/`, a jmod's `classes/`, a
    class directory's `wrong/Foo.class`), as the loaders find it (JvmTools.class_entry)."""
    return tools.class_entry(artifact_kind, artifact_path, internal_name) or internal_name + ".class"


def _class_file_from_jar(tools, jar: str, internal_name: str, folder: str) -> tuple[str, str]:
    """(the class's bytes from the jar written to `folder`, its entry); NotFoundError when the jar lacks it or is
    unreadable."""
    entry = internal_name + ".class"
    try:
        with zipfile.ZipFile(jar) as zf:
            try:
                data = zf.read(entry)
            except KeyError:
                entry = _entry(tools, "jar", jar, internal_name)
                data = zf.read(entry)
    except (OSError, KeyError, zipfile.BadZipFile, zlib.error):
        raise NotFoundError(f"{internal_name.replace('/', '.')} is not in {jar}") from None
    target = Path(folder, internal_name.rpartition("/")[2] + ".class")
    target.write_bytes(data)
    return str(target), entry


def _stamp(tools, artifact_kind: str, artifact_path: str, internal_name: str) -> tuple:
    """What must not change for a remembered javap text to stay right (a JDK image is fixed for the process): size,
    mtime, and the ctime and inode no copy that keeps timestamps can carry over (as loaders.roots.file_stamp)."""
    target = Path(artifact_path) if artifact_kind == "jar" else \
        Path(artifact_path, _entry(tools, artifact_kind, artifact_path, internal_name))
    try:
        st = target.stat()
    except OSError:
        return ()
    return (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino)


def javap_class(tools, cache: Path, artifact_kind: str, artifact_path: str, internal_name: str) -> str:
    """The whole javap text of one class, in process; the last few are remembered (agents ask member by member)."""
    if artifact_kind == "jrt":
        stamp: tuple = ("jrt",)
    else:
        stamp = _stamp(tools, artifact_kind, artifact_path, internal_name)
    return _javap_class(tools, cache, artifact_kind, artifact_path, internal_name, stamp)


@functools.lru_cache(maxsize=16)
def _javap_class(tools, cache: Path, artifact_kind: str, artifact_path: str, internal_name: str, _stamp: tuple) -> str:
    with tempfile.TemporaryDirectory(prefix="jdx-javap-") as folder:
        if artifact_kind == "jar":
            extracted, entry = _class_file_from_jar(tools, artifact_path, internal_name, folder)
            args = javap_args(tools, "file", extracted, internal_name)
        else:
            extracted, entry = "", ""
            args = javap_args(tools, artifact_kind, artifact_path, internal_name)
        try:
            code, out, err = tools.javap(cache, args)
        except ToolFailed as exc:
            raise JavapFailed(exc.message) from None
    if code != 0 or not out.strip():
        message = " ".join((err or out).split()) or f"javap exited with {code}"
        if extracted:  # name the jar entry, not our temp copy of it
            message = message.replace(extracted, f"{artifact_path}!/{entry}")
        if "class not found" in message:
            raise NotFoundError(f"{internal_name.replace('/', '.')} is not in {artifact_path} ({message})")
        raise JavapFailed(message[:300])
    return out.rstrip("\n") + "\n"


def _class_binary_name(header: str) -> str:
    """The class's dotted binary name from javap's class header line (`public class a.b.C<T> extends ... {`)."""
    words = header.split("{")[0].split()
    for i, word in enumerate(words):
        if word in ("class", "interface", "enum", "record") and i + 1 < len(words):
            return words[i + 1].split("<")[0]
        if word == "@interface" and i + 1 < len(words):
            return words[i + 1].split("<")[0]
    return ""


def _member_name(declaration: str, class_name: str) -> str:
    """The JVM name declared by one javap member line (fields, methods, constructors, static initialisers)."""
    text = declaration.strip().rstrip(";")
    if text == "static {}":
        return "<clinit>"
    if "(" in text:
        head = text.split("(", 1)[0]
        words = _strip_type_params(head).split()
        name = words[-1] if words else ""
        if name == class_name and all(w in MODIFIERS for w in words[:-1]):
            return "<init>"
        return name
    head = text.split(" = ", 1)[0]
    return head.split()[-1] if head.split() else ""


def _strip_type_params(text: str) -> str:
    """Removes <...> groups so `public <T extends java.util.List<?>> T` splits into clean words."""
    out, depth = [], 0
    for ch in text:
        if ch == "<":
            depth += 1
        elif ch == ">":
            depth -= 1
        elif depth == 0:
            out.append(ch)
    return "".join(out)


def member_blocks(javap_text: str) -> list[Block]:
    """Every member block of javap output, in javap's order (the declaration line through its tables)."""
    lines = javap_text.splitlines()
    start = next((i for i, line in enumerate(lines) if line.rstrip().endswith("{") and not line.startswith(" ")),
                 None)
    if start is None:
        return []
    class_name = _class_binary_name(lines[start])
    blocks, current = [], []
    for line in lines[start + 1:]:
        if line == "}" or not line.strip():
            if current:
                blocks.append(current)
            current = []
            continue
        current.append(line)
    if current:
        blocks.append(current)
    out = []
    for block in blocks:
        descriptor = next((b.strip()[len("descriptor:"):].strip() for b in block[1:3]
                           if b.strip().startswith("descriptor:")), "")
        out.append(Block(_member_name(block[0], class_name), descriptor, "\n".join(block) + "\n"))
    return out


def javap_member(tools, cache: Path, artifact_kind: str, artifact_path: str, internal_name: str,
                 member_name: str | None, descriptor: str | None) -> str:
    """javap -c -p -l -constants output of one member (every overload when descriptor is None), or the class.

    NotFoundError (exit 1) when the class or the member is absent from the bytecode.
    """
    internal_name = jvm_name(internal_name)
    text = javap_class(tools, cache, artifact_kind, artifact_path, internal_name)
    if member_name is None:
        return text
    matches = [b for b in member_blocks(text)
               if b.name == member_name and (descriptor is None or b.descriptor == descriptor)]
    if not matches:
        wanted = member_name + (f" {descriptor}" if descriptor else "")
        raise NotFoundError(f"{internal_name.replace('/', '.')} has no member {wanted} in {artifact_path}")
    return "\n".join(b.text for b in matches)


_INSTRUCTION = re.compile(r"^\s*(\d+): ([a-z][a-z0-9_]*)")  # not a switch's `0: 28` / `default: 43` lines


def static_value_code(tools, cache: Path, artifact_kind: str, artifact_path: str, internal_name: str, field: str,
                      descriptor: str) -> list[str]:
    """The javap code lines of the class's `static {}` that compute and store its static field `field` (see
    static_assignment); [] when the class has no static initializer or it stores no value in the field."""
    try:
        clinit = javap_member(tools, cache, artifact_kind, artifact_path, internal_name, "<clinit>", "()V")
    except NotFoundError:
        return []
    return static_assignment(clinit, field, descriptor)


def static_assignment(clinit: str, field: str, descriptor: str) -> list[str]:
    """The code lines of a javap `static {}` block that compute and store the static field `field` of the class:
    from the instruction after the last putstatic before the field's first (or from the first instruction) through
    the field's last putstatic; [] when the block stores no value in it."""
    lines = clinit.splitlines()
    code = next((i + 1 for i, line in enumerate(lines) if line.strip() == "Code:"), len(lines))
    end = next((i for i in range(code, len(lines)) if len(lines[i]) - len(lines[i].lstrip()) <= 4), len(lines))
    stores = [i for i in range(code, end) if _stores(lines[i], None)]
    own = [i for i in stores if _stores(lines[i], f"{field}:{descriptor}")]
    if not own:
        return []
    start = max((i + 1 for i in stores if i < own[0]), default=code)
    return lines[start:own[-1] + 1]


def _stores(line: str, field: str | None) -> bool:
    """A putstatic of the class's own field `field` (`NAME:DESC`; javap names another class's as `Owner.NAME`), of
    any field when None."""
    found = _INSTRUCTION.match(line)
    if found is None or found.group(2) != "putstatic":
        return False
    return field is None or line.rstrip().endswith(f"// Field {field}")
