"""Roots to artifacts: expanding jar globs and directories, the JDK's modules, content hashes."""

from __future__ import annotations

import glob
import hashlib
import json
import os
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


class HashCache:
    """path -> (size, mtime_ns, inode, ctime_ns, hash), so an unchanged jar is never read twice (the ctime sees a
    jar that `cp -p` rewrote in place: same size, mtime and inode)."""

    def __init__(self, cache: Path):
        self.file = cache / "hashes.json"
        self.dirty = False
        try:
            self.data = json.loads(self.file.read_text())
        except (OSError, ValueError):
            self.data = {}

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

    def save(self) -> None:
        if not self.dirty:
            return
        self.file.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.file.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps(self.data, sort_keys=True))
        os.replace(tmp, self.file)
        self.dirty = False


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


def _is_binary_jar(name: str) -> bool:
    return name.endswith(".jar") and not name.endswith(("-sources.jar", "-javadoc.jar"))


def _has_class_files(path: Path) -> bool:
    for _root, _dirs, files in os.walk(path):
        if any(f.endswith(".class") for f in files):
            return True
    return False


def _is_glob(arg: str) -> bool:
    return any(ch in arg for ch in "*?[")


def expand_jar_arg(arg: str, all_versions: bool = False) -> tuple[list[Path], list[Warning_]]:
    """A --jars value (path, glob or directory) to the files and class directories it names. A directory laid out
    as a Maven repository gives the newest version of each artifact (every version with `all_versions`)."""
    text = os.path.expanduser(arg)
    if _is_glob(text):
        matches = [m for m in sorted(glob.glob(text, recursive=True)) if _is_binary_jar(m)]
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
            return [path], []
        jars = sorted(p for p in path.rglob("*.jar") if _is_binary_jar(p.name) and p.is_file())
        if not jars:
            return [], [Warning_("ARTIFACT_READ_ERROR", f"{arg}: directory holds no jars and no class files", arg)]
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


def not_a_file(path: str) -> str:
    """Why `path` cannot be read as a jar."""
    if not os.path.exists(path):
        return "a dangling link" if os.path.islink(path) else "no such file"
    if os.path.isdir(path):
        return "a directory"
    if not os.path.isfile(path):
        return "not a regular file (a pipe or device)"
    return "not readable"


def _classpath_entries(jars: list[str]) -> list[str]:
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
    seen: set[str] = set()
    by_key: dict[str, str] = {}
    for arg in _classpath_entries(jars):
        paths, warnings = expand_jar_arg(arg, all_versions)
        result.warnings.extend(warnings)
        if warnings and not paths and not _is_glob(arg) and not os.path.isdir(os.path.expanduser(arg)):
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
                    result.artifacts.append(Artifact("jar", real, names.get(str(path)) or path.name, key,
                                                     f"jar:{real}", size))
            except OSError as exc:
                w = Warning_("ARTIFACT_READ_ERROR", f"{path}: {exc.strerror or exc}", str(path))
                result.warnings.append(w)
                result.unreadable.append(w)
    hashes.save()
    if jdk_home is not None:
        result.artifacts.extend(jdk_artifacts(jdk_home))
    return result
