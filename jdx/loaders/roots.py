"""Roots to artifacts: expanding jar globs and directories, the JDK's modules, content hashes."""

from __future__ import annotations

import fnmatch
import glob
import hashlib
import json
import os
import shlex
import struct
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

from jdx.errors import Warning_

HASH_HEX = 32  # SHA-256 truncated to 128 bits


@dataclass(frozen=True)
class Artifact:
    """One unit of bytecode: a jar, a class directory or one JDK module, keyed by content."""

    kind: str  # jar | dir | jrt
    path: str
    name: str
    key: str
    spec: str  # what the extractor is told to read
    size: int = 0
    sources: str = ""

    def to_json(self) -> dict:
        return {"name": self.name, "kind": self.kind, "path": self.path, "key": self.key}


@dataclass
class ResolvedRoots:
    artifacts: list[Artifact] = field(default_factory=list)
    warnings: list[Warning_] = field(default_factory=list)
    unreadable: list[Warning_] = field(default_factory=list)  # explicit paths that are missing or unreadable


class _JsonStore:
    """A JSON object kept in one cache file: read whole at start, written whole (atomically) when changed."""

    def __init__(self, file: Path):
        self.file = file
        self.dirty = False
        try:
            self.data = json.loads(self.file.read_text())
        except (OSError, ValueError):
            self.data = {}

    def save(self) -> None:
        if not self.dirty:
            return
        self.file.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.file.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps(self.data, sort_keys=True))
        os.replace(tmp, self.file)
        self.dirty = False


class HashCache(_JsonStore):
    """path -> (size, mtime_ns, inode, ctime_ns, hash), so an unchanged jar is never read twice (the ctime sees a
    jar that `cp -p` rewrote in place: same size, mtime and inode)."""

    def __init__(self, cache: Path):
        super().__init__(cache / "hashes.json")

    def jar_key(self, path: Path) -> tuple[str, int]:
        st = path.stat()
        stamp = [st.st_size, st.st_mtime_ns, st.st_ino, st.st_ctime_ns]
        entry = self.data.get(str(path))
        if entry and len(entry) == len(stamp) + 1 and entry[:-1] == stamp:
            return entry[-1], st.st_size
        digest = hashlib.sha256()
        with open(path, "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                digest.update(block)
        key = digest.hexdigest()[:HASH_HEX]
        self.data[str(path)] = stamp + [key]
        self.dirty = True
        return key, st.st_size


class ArchiveNotes(_JsonStore):
    """What an archive's entry names say about it, by content key (`<cache>/archives.json`: key -> [class files
    (-1: no zip), nested archives, the first of them, an `unzip` pattern of them]), so an archive's central
    directory is listed once per content: whether it holds class files at all, and the jars inside it (a Spring
    Boot `BOOT-INF/lib/`, a war's `WEB-INF/lib/`, an aar's `classes.jar`) that jdx does not read."""

    def __init__(self, cache: Path):
        super().__init__(cache / "archives.json")

    def of(self, key: str, path: str) -> tuple[int, int, list[str], str] | None:
        """(class files, nested archives, the first NESTED_NAMED of them, an `unzip` pattern of them all) of the
        archive `path` whose content key is `key`; None when it is no zip (the extractor says why it cannot read
        it)."""
        entry = self.data.get(key)
        if not (isinstance(entry, list) and len(entry) == 4):
            names = _entry_names(path)
            nested = sorted(n for n in names or () if n.lower().endswith(NESTED_SUFFIXES))
            common = os.path.commonpath([os.path.dirname(n) for n in nested]) if nested else ""
            pattern = (nested[0] if len(nested) == 1 else f"{common}/*" if common
                       else "*.jar" if all(n.lower().endswith(".jar") for n in nested) else "*")
            classes = -1 if names is None else sum(1 for n in names if n.endswith(".class"))
            entry = [classes, len(nested), nested[:NESTED_NAMED], pattern]
            self.data[key] = entry
            self.dirty = True
        if entry[0] < 0:
            return None
        return entry[0], entry[1], list(entry[2]), entry[3]


def _entry_names(path: str) -> list[str] | None:
    """The file entries of the zip at `path`, read from its central directory alone (a jar of 20,000 entries in
    ~20 ms, zipfile takes ten times that); None when it is no zip. Data before the zip (a jmod's header, a
    launcher script) is allowed, as java's ZipFile allows it."""
    try:
        with open(path, "rb") as f:
            size = f.seek(0, 2)
            tail_at = max(0, size - (22 + 0xFFFF))
            f.seek(tail_at)
            tail = f.read()
            end = tail.rfind(b"PK\x05\x06")
            if end < 0 or end + 22 > len(tail):
                return None
            count, cd_size, cd_offset = struct.unpack_from("<HII", tail, end + 10)
            if count == 0xFFFF or cd_size == 0xFFFFFFFF or cd_offset == 0xFFFFFFFF:  # zip64: zipfile reads it
                return _zipfile_names(path)
            start = tail_at + end - cd_size
            if start < 0:
                return None
            f.seek(start)
            blob = f.read(cd_size)
    except OSError:
        return None
    names: list[str] = []
    at = 0
    while at + 46 <= len(blob):
        if blob[at:at + 4] != b"PK\x01\x02":
            return _zipfile_names(path)
        flags = struct.unpack_from("<H", blob, at + 8)[0]
        name_len, extra_len, comment_len = struct.unpack_from("<HHH", blob, at + 28)
        raw = blob[at + 46:at + 46 + name_len]
        if not raw.endswith(b"/"):
            names.append(raw.decode("utf-8" if flags & 0x800 else "cp437", "replace"))
        at += 46 + name_len + extra_len + comment_len
    return names


def _zipfile_names(path: str) -> list[str] | None:
    try:
        with zipfile.ZipFile(path) as z:
            return [i.filename for i in z.infolist() if not i.is_dir()]
    except (OSError, zipfile.BadZipFile, ValueError, RuntimeError):
        return None


def archive_warnings(notes: ArchiveNotes, key: str, path: Path, name: str, named: bool) -> list[Warning_]:
    """NESTED_JARS for an archive holding jars (never read: jdx reads the class files of an archive, not the
    archives inside it), and EMPTY_ARTIFACT for one named by its own path (not matched by a glob, found in a
    directory or resolved as a dependency, where a resources-only jar is common) that holds no class files."""
    found = notes.of(key, os.path.realpath(path))
    if found is None:
        return []
    classes, count, first, pattern = found
    if count:
        shown = ", ".join(first) + (", …" if count > len(first) else "")
        unzip = f"unzip {shlex.quote(str(path))} {shlex.quote(pattern)}"
        return [Warning_("NESTED_JARS", f"{name} holds {count} jar{'s' if count != 1 else ''} inside it ({shown}): "
                                        "jdx does not read jars inside jars, so their classes are not in the "
                                        f"workspace; unpack them ({unzip}) and pass them with --jars", name)]
    if not classes and named:
        return [Warning_("EMPTY_ARTIFACT", f"{name} holds no class files: nothing of it is in the workspace", name)]
    return []


def file_stamp(st: os.stat_result) -> tuple[int, int, int, int]:
    """What says a class file may have changed without reading it: size, mtime, and the ctime and inode no copy
    that keeps timestamps (`cp -p`, `rsync -a`, a restored build cache) can carry over."""
    return st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino


def dir_key(path: Path) -> str:
    """A class directory changes constantly: its key is the hash of every class file's name and `file_stamp`."""
    digest = hashlib.sha256(b"dir\0")
    for root, dirs, files in os.walk(path):
        dirs.sort()
        for name in sorted(files):
            if name.endswith(".class"):
                full = os.path.join(root, name)
                stamp = "\0".join(map(str, file_stamp(os.stat(full))))
                digest.update(f"{os.path.relpath(full, path)}\0{stamp}\n".encode())
    return digest.hexdigest()[:HASH_HEX]


def jdk_modules(home: Path) -> list[str]:
    """Module names from the JDK's `release` file (no JVM needed)."""
    try:
        for line in (home / "release").read_text().splitlines():
            if line.startswith("MODULES="):
                return sorted(line.split("=", 1)[1].strip().strip('"').split())
    except OSError:
        pass
    return []


def jdk_artifacts(home: Path) -> list[Artifact]:
    """One artifact per module of the JDK at `home`, read through jrt:/."""
    modules_file = home / "lib" / "modules"
    try:
        st = modules_file.stat()
        release = (home / "release").read_bytes()
    except OSError:
        return []
    base = hashlib.sha256(f"{os.path.realpath(home)}\0{st.st_size}\0{st.st_mtime_ns}\0".encode() + release).hexdigest()
    out = []
    for module in jdk_modules(home):
        key = hashlib.sha256(f"{base}:{module}".encode()).hexdigest()[:HASH_HEX]
        out.append(Artifact("jrt", f"jrt:/{module}", module, key, f"jrt:{home}!{module}"))
    return out


# the archive kinds a --jars glob matches: every zip a class path or jdx reads when its path is named (a path
# named directly is read whatever its name); a directory scan takes `*.jar` only (a directory also holds
# distribution zips, sources zips and a JDK's `jmods/`, duplicates of what it already reads)
ARCHIVE_SUFFIXES = (".jar", ".war", ".ear", ".aar", ".jmod", ".zip")
# archives inside an archive that a class loader of an application server, Spring Boot or Android would read
NESTED_SUFFIXES = (".jar", ".war", ".ear", ".aar")
NESTED_NAMED = 3  # nested entries a NESTED_JARS warning names


def _is_binary_jar(name: str) -> bool:
    return name.endswith(".jar") and not name.endswith(("-sources.jar", "-javadoc.jar"))


def is_archive(name: str) -> bool:
    return name.endswith(ARCHIVE_SUFFIXES) and not name.endswith(("-sources.jar", "-javadoc.jar"))


def _has_class_files(path: Path) -> bool:
    for _root, _dirs, files in os.walk(path):
        if any(f.endswith(".class") for f in files):
            return True
    return False


def is_glob(arg: str) -> bool:
    """Whether a --jars value is a glob: it holds `*`, `?` or `[` and names no existing path as written (a
    directory `proj [copy]` or a file `a[1].jar` is a path)."""
    return any(ch in arg for ch in "*?[") and not os.path.lexists(os.path.expanduser(arg))


def _join(base: str, name: str) -> str:
    return os.path.join(base, name) if base else name


def _tree(top: str, files: bool) -> list[str]:
    """`top` and every directory below it, in path order, as bash's globstar `**` walks: a symlinked directory is
    not descended into (a link to a parent would loop forever), each real directory once, hidden names skipped;
    with `files`, the other entries too (a trailing `**` matches them)."""
    out: list[str] = []
    seen: set[tuple[int, int]] = set()
    stack = [top]
    while stack:
        here = stack.pop()
        out.append(here)
        try:
            st = os.stat(here or ".")
            if (st.st_dev, st.st_ino) in seen:
                continue
            seen.add((st.st_dev, st.st_ino))
            entries = sorted(os.scandir(here or "."), key=lambda e: e.name)
        except OSError:
            continue
        below = []
        for entry in entries:
            if entry.name.startswith("."):
                continue
            path = _join(here, entry.name)
            try:
                is_dir = entry.is_dir(follow_symlinks=False)
            except OSError:
                is_dir = False
            if is_dir:
                below.append(path)
            elif files:
                out.append(path)
        stack.extend(reversed(below))
    return out


def _glob_into(base: str, parts: list[str], out: set[str]) -> None:
    if not parts:
        out.add(base)
        return
    part, rest = parts[0], parts[1:]
    if part == "**":
        for path in _tree(base, files=not rest):
            if rest:
                _glob_into(path, rest, out)
            elif path:
                out.add(path + "/" if path == base and not path.endswith("/") else path)  # bash's `a/**`: `a/`
        return
    literal = _join(base, part)
    if not glob.has_magic(part) or os.path.lexists(literal):  # a name that exists as written is taken as written
        if rest and os.path.isdir(literal):
            _glob_into(literal, rest, out)
        elif not rest and os.path.lexists(literal):
            out.add(literal)
        return
    try:
        names = sorted(os.listdir(base or "."))
    except OSError:
        return
    for name in names:
        if name.startswith(".") and not part.startswith("."):
            continue
        if fnmatch.fnmatchcase(name, part):
            path = _join(base, name)
            if not rest:
                out.add(path)
            elif os.path.isdir(path):
                _glob_into(path, rest, out)


def glob_paths(pattern: str) -> list[str]:
    """The paths a --jars glob matches, sorted. `**` (a whole path component) is zero or more directories, as
    bash's globstar: symlinked directories are not descended into, so a link to a parent directory cannot make
    the walk loop (glob.glob(recursive=True) follows it forever); a component that names an existing path as
    written (`proj [copy]`) is taken literally; hidden names only match a component starting with `.`."""
    out: set[str] = set()
    base = "/" if pattern.startswith("/") else ""
    _glob_into(base, [p for p in pattern.split("/") if p], out)
    return sorted(out)


def expand_jar_arg(arg: str, all_versions: bool = False) -> tuple[list[Path], list[Warning_]]:
    """A --jars value (path, glob or directory) to the files and class directories it names. A directory laid out
    as a Maven repository gives the newest version of each artifact (every version with `all_versions`). A glob
    matches every archive kind (ARCHIVE_SUFFIXES); a directory is scanned for jars only."""
    text = os.path.expanduser(arg)
    if is_glob(text):
        matches = [m for m in glob_paths(text) if is_archive(m)]
        paths = [Path(m) for m in matches if os.path.isfile(m) and os.access(m, os.R_OK)]
        # a match that is no readable file (a dangling link, a directory named *.jar, a pipe) is said, not dropped
        skipped = [Warning_("ARTIFACT_READ_ERROR", f"{m} (from {arg}): {not_a_file(m)}; skipped", m)
                   for m in matches if Path(m) not in paths]
        if not paths:
            return [], skipped or [Warning_("ARTIFACT_READ_ERROR", f"no jar matches {arg}", arg)]
        return paths, skipped
    path = Path(text)
    if path.is_dir():
        if _has_class_files(path):
            return [path], _jars_beside_classes(arg, path)
        jars = sorted(p for p in path.rglob("*.jar") if _is_binary_jar(p.name) and p.is_file())
        if not jars:
            return [], [Warning_("ARTIFACT_READ_ERROR", _no_jars(arg, path), arg)]
        from jdx.loaders.maven_repo import repository_jars

        chosen = repository_jars(path, jars, all_versions)
        if chosen is not None:
            return chosen, []
        return jars, []
    if not path.exists():
        return [], [Warning_("ARTIFACT_READ_ERROR", f"{arg}: {not_a_file(text)}", arg)]
    if not path.is_file() or not os.access(path, os.R_OK):  # a pipe would block the hashing forever
        return [], [Warning_("ARTIFACT_READ_ERROR", f"{arg}: {not_a_file(text)}", arg)]
    return [path], []


PROJECT_JAR_DIRS = ("", "lib", "libs")  # where a plain project keeps its jars (loaders.project.discover_plain)


def _jars_beside_classes(arg: str, path: Path) -> list[Warning_]:
    """JARS_NOT_READ for a class directory that also keeps jars where a plain project does (`--jars proj` naming
    the project, not its `out/`): a class directory is read for its class files only."""
    jars = sorted(os.path.relpath(p, path) for sub in PROJECT_JAR_DIRS for p in (path / sub).glob("*.jar")
                  if _is_binary_jar(p.name) and p.is_file())
    if not jars:
        return []
    named = ", ".join(jars[:NESTED_NAMED]) + (", …" if len(jars) > NESTED_NAMED else "")
    folder = os.path.join(arg, os.path.dirname(jars[0]))
    return [Warning_("JARS_NOT_READ", f"{arg}: read as a class directory (it holds class files), so the {len(jars)} "
                     f"jar{'s' * (len(jars) != 1)} in it {'are' if len(jars) != 1 else 'is'} not read ({named}): pass "
                     f"{'them' if len(jars) != 1 else 'it'} with --jars {shlex.quote(os.path.join(folder, '*.jar'))}, "
                     f"or run jdx in {arg} (--project {shlex.quote(arg)}) to read it as a project", arg)]


def _no_jars(arg: str, path: Path) -> str:
    """Why a directory gave nothing: no jars and no class files; the other archives it holds (a directory is
    scanned for `*.jar` only) are named with the glob that reads them."""
    others = sorted(os.path.relpath(p, path) for p in _tree(str(path), files=True)  # never loops over links
                    if is_archive(p) and not p.endswith(".jar") and os.path.isfile(p))
    if not others:
        return f"{arg}: directory holds no jars and no class files"
    kinds = sorted({os.path.splitext(o)[1] for o in others})
    named = ", ".join(others[:NESTED_NAMED]) + (", …" if len(others) > NESTED_NAMED else "")
    globs = " ".join(f"--jars {shlex.quote(os.path.join(arg, '**', '*' + k))}" for k in kinds)
    return (f"{arg}: directory holds no jars and no class files (a directory is scanned for *.jar only; it holds "
            f"{len(others)} other archive{'s' if len(others) != 1 else ''}: {named}; pass {globs})")


def not_a_file(path: str) -> str:
    """Why `path` cannot be read as a jar."""
    if not os.path.exists(path):
        return "a dangling link" if os.path.islink(path) else "no such file"
    if os.path.isdir(path):
        return "a directory"
    if not os.path.isfile(path):
        return "not a regular file (a pipe or device)"
    return "not readable"


def classpath_entries(jars: list[str]) -> list[str]:
    """The --jars values with every classpath string (`a.jar:b.jar`, as `java -cp` takes it) split into its
    entries, in order; a value naming an existing path is kept whole."""
    out = []
    for arg in jars:
        if os.pathsep in arg and not os.path.exists(os.path.expanduser(arg)):
            out.extend(part for part in arg.split(os.pathsep) if part)
        else:
            out.append(arg)
    return out


def resolve_roots(jars: list[str], jdk_home: Path | None, cache: Path,
                  names: dict[str, str] | None = None, all_versions: bool = False) -> ResolvedRoots:
    """Ordered artifacts of a workspace: the given jars/dirs in order, then the JDK's modules. `names`: the
    display name of a root by its path as given (a Maven coordinate, spec §5.1), else its file name.
    `all_versions`: a Maven repository root gives every version of each artifact, not only the newest."""
    names = names or {}
    result = ResolvedRoots()
    hashes = HashCache(cache)
    notes = ArchiveNotes(cache)
    seen: set[str] = set()
    by_key: dict[str, str] = {}
    for arg in classpath_entries(jars):
        paths, warnings = expand_jar_arg(arg, all_versions)
        result.warnings.extend(warnings)
        # a jar named by its own path on the command line or in a workspace (not by a glob, a directory or a
        # dependency resolution: those may hold a resources-only jar)
        direct = arg not in names and not is_glob(arg) and not os.path.isdir(os.path.expanduser(arg))
        if warnings and not paths and not is_glob(arg) and not os.path.isdir(os.path.expanduser(arg)):
            result.unreadable.extend(warnings)
        for path in paths:
            real = os.path.realpath(path)
            if real in seen:
                continue
            seen.add(real)
            try:
                if path.is_dir():
                    key = dir_key(path)
                    result.artifacts.append(Artifact("dir", real, names.get(str(path)) or path.name or real, key,
                                                     f"dir:{real}"))
                else:
                    key, size = hashes.jar_key(Path(real))
                    if key in by_key:
                        result.warnings.append(Warning_(
                            "DUPLICATE_ARTIFACT", f"{real} has the same content as {by_key[key]}; read once, "
                            f"from {by_key[key]}", path.name))
                        continue
                    by_key[key] = real
                    name = names.get(str(path)) or path.name
                    result.artifacts.append(Artifact("jar", real, name, key, f"jar:{real}", size))
                    result.warnings.extend(archive_warnings(notes, key, path, name, named=direct))
            except OSError as exc:
                w = Warning_("ARTIFACT_READ_ERROR", f"{path}: {exc.strerror or exc}", str(path))
                result.warnings.append(w)
                result.unreadable.append(w)
    hashes.save()
    notes.save()
    if jdk_home is not None:
        result.artifacts.extend(jdk_artifacts(jdk_home))
    return result
