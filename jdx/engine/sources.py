"""Where the sources of an artifact are (spec §5.2): the ordered source roots a class's `.java` file is
looked up in, and reading that file.

Order: explicit `--sources` jars/dirs first (an override wins), then the artifact's own pairing — a sibling
`<name>-sources.jar` (which is also the Maven layout: `~/.m2/repository/<g>/<a>/<v>/`), the Gradle cache
layout (`files-2.1/<g>/<a>/<v>/<hash>/<a>-<v>-sources.jar`, a different hash directory than the binary's),
`.java` files embedded in the binary jar — then `--src` directories, and for a JDK module (`jrt:/java.base`)
the JDK's `lib/src.zip` under `<module>/`. The first root holding the file wins.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import struct
import threading
import zipfile
import zlib
from dataclasses import dataclass, replace
from pathlib import Path

_ZIPS: dict[str, zipfile.ZipFile | None] = {}
_ZIP_LOCK = threading.Lock()
MAX_SOURCE_BYTES = 16 << 20  # a larger "source file" is not one: read nothing


@dataclass(frozen=True)
class SourceRoot:
    """A sources jar/zip or directory; `prefix` is the in-archive folder (`java.base/` in src.zip)."""

    kind: str  # zip | dir
    path: str
    label: str  # what provenance lines name: `gson-2.10-sources.jar`, `src.zip`, a directory
    how: str  # --sources | sibling | maven | gradle | embedded | --src | src.zip
    prefix: str = ""
    index_dir: str = ""  # where a large archive's entry index is kept (the cache), "" for none

    def read(self, rel: str) -> bytes | None:
        """The bytes of `<prefix><rel>`, or None when this root does not hold it."""
        if self.kind == "dir":
            full = os.path.join(self.path, self.prefix, rel)
            try:
                if os.path.getsize(full) > MAX_SOURCE_BYTES:
                    return None
                with open(full, "rb") as f:
                    return f.read()
            except OSError:
                return None
        if self.index_dir:
            index = zip_index(self.path, self.index_dir)
            if index is not None:
                entry = index.get(self.prefix + rel)
                return None if entry is None or entry[2] > MAX_SOURCE_BYTES else _read_entry(self.path, entry)
        zf = _zip(self.path)
        if zf is None:
            return None
        try:
            info = zf.getinfo(self.prefix + rel)
        except KeyError:
            return None
        if info.file_size > MAX_SOURCE_BYTES:
            return None
        try:
            with _ZIP_LOCK:
                return zf.read(info)
        except (OSError, zipfile.BadZipFile, RuntimeError, ValueError):
            return None

    def display(self, rel: str) -> str:
        """The file as provenance names it: its path inside the root."""
        return self.prefix + rel

    def named(self, name: str) -> list[str]:
        """Every file of this root called `name` (`Collections.kt`), as paths relative to the root's prefix,
        sorted: Kotlin files need not sit in their package's directory."""
        names = _kotlin_names(self)
        return [n for n in names.get(name, ()) if n.startswith(self.prefix)] if names else []


_INDEXES: dict[str, dict | None] = {}
INDEX_MIN_BYTES = 1 << 20  # below this, opening the archive costs less than loading an index


def zip_index(path: str, index_dir: str) -> dict[str, list[int]] | None:
    """entry name → [local header offset, compressed size, size, method] of a large archive, kept on disk by
    (path, size, mtime, ctime, inode): opening src.zip reads 18k central-directory records (~0.4 s); the index
    loads in a few ms. None for small archives or when it cannot be built (callers then open the zip)."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    if st.st_size < INDEX_MIN_BYTES:
        return None
    stamp = hashlib.sha256(f"{os.path.realpath(path)}\0{st.st_size}\0{st.st_mtime_ns}\0{st.st_ctime_ns}\0{st.st_ino}"
                           .encode()).hexdigest()[:32]  # ctime and inode: a rewrite that keeps size and mtime
    if stamp in _INDEXES:
        return _INDEXES[stamp]
    file = Path(index_dir) / "srcindex" / f"{stamp}.json"
    index = None
    try:
        index = json.loads(file.read_text())
    except (OSError, ValueError):
        zf = _zip(path)
        if zf is not None:
            index = {i.filename: [i.header_offset, i.compress_size, i.file_size, i.compress_type]
                     for i in zf.infolist() if i.filename.endswith((".java", ".kt"))}
            try:
                file.parent.mkdir(parents=True, exist_ok=True)
                tmp = file.with_suffix(f".{os.getpid()}.tmp")
                tmp.write_text(json.dumps(index, separators=(",", ":")))
                os.replace(tmp, file)
            except OSError:
                pass
    _INDEXES[stamp] = index
    return index


def _read_entry(path: str, entry: list[int]) -> bytes | None:
    """One stored or deflated entry, read at its local header without opening the archive's directory."""
    offset, csize, size, method = entry
    try:
        with open(path, "rb") as f:
            f.seek(offset)
            header = f.read(30)
            if len(header) != 30 or header[:4] != b"PK\x03\x04":
                return None
            name_len, extra_len = struct.unpack("<HH", header[26:30])
            f.seek(offset + 30 + name_len + extra_len)
            raw = f.read(csize)
        if method == zipfile.ZIP_STORED:
            data = raw
        elif method == zipfile.ZIP_DEFLATED:
            inflater = zlib.decompressobj(-15)
            data = inflater.decompress(raw, size + 1)
        else:
            return None
        return data if len(data) == size else None
    except (OSError, zlib.error, struct.error):
        return None


def _zip(path: str) -> zipfile.ZipFile | None:
    with _ZIP_LOCK:
        if path not in _ZIPS:
            try:
                _ZIPS[path] = zipfile.ZipFile(path)
            except (OSError, zipfile.BadZipFile, ValueError):
                _ZIPS[path] = None
        return _ZIPS[path]


def _explicit(paths: list[str]) -> list[SourceRoot]:
    out = []
    for p in paths:
        full = os.path.realpath(os.path.expanduser(p))
        if os.path.isdir(full):
            out.append(SourceRoot("dir", full, dir_label(full), "--sources"))
        elif os.path.isfile(full):
            out.append(SourceRoot("zip", full, os.path.basename(full), "--sources"))
    return out


# a source directory's usual layout words: its label goes up past them to the directory that names the module
_LAYOUT_WORDS = frozenset({"java", "kotlin", "groovy", "scala", "main", "test", "src", "source", "sources"})


def dir_label(full: str) -> str:
    """What answers call a source directory: `proj/src/main/java`, not `java` (which read as the language); a
    directory named for itself keeps its own name (`gson-src`)."""
    parts = [p for p in full.split(os.sep) if p]
    if not parts:
        return full
    n = 1
    while n < len(parts) and parts[-n] in _LAYOUT_WORDS:
        n += 1
    return "/".join(parts[-n:])


def src_dir_roots(paths: list[str]) -> list[SourceRoot]:
    """`--src` directories; a project directory also answers for its `src/main/java` and `src/main/kotlin`."""
    out = []
    for p in paths:
        full = os.path.realpath(os.path.expanduser(p))
        if not os.path.isdir(full):
            continue
        out.append(SourceRoot("dir", full, dir_label(full), "--src"))
        for sub in ("src/main/java", "src/main/kotlin", "src"):
            if os.path.isdir(os.path.join(full, sub)):
                out.append(SourceRoot("dir", full, dir_label(full), "--src", sub + "/"))
    return out


def _stem(path: Path) -> str:
    return path.name[: -len(".jar")] if path.name.endswith(".jar") else path.stem


def paired_jars(binary: str) -> list[SourceRoot]:
    """Sibling / Maven and Gradle-cache sources jars of a binary jar, in that order."""
    path = Path(binary)
    stem = _stem(path)
    out = []
    sibling = path.with_name(f"{stem}-sources.jar")
    if sibling.is_file():
        how = "maven" if f"{os.sep}.m2{os.sep}repository{os.sep}" in str(path) else "sibling"
        out.append(SourceRoot("zip", str(sibling), sibling.name, how))
    parts = path.parts
    if "files-2.1" in parts and len(parts) - parts.index("files-2.1") == 6:
        version_dir = path.parent.parent  # files-2.1/<g>/<a>/<v>/<hash>/<a>-<v>.jar
        for candidate in sorted(version_dir.glob(f"*/{stem}-sources.jar")):
            if candidate.is_file() and candidate != sibling:
                out.append(SourceRoot("zip", str(candidate), candidate.name, "gradle"))
                break
    return out


def missing_sources_hint(kind: str, spec: str) -> str:
    """What to do about missing sources: for the JDK, the package that installs its lib/src.zip (Debian and
    Ubuntu name it openjdk-<feature>-source); for a library, the flags that pair sources."""
    if kind == "jrt" and spec.startswith("jrt:") and "!" in spec:
        home = spec[len("jrt:"):].rsplit("!", 1)[0]
        feature = _jdk_feature(home)
        package = f"openjdk-{feature}-source" if feature else "openjdk-<version>-source"
        return f"the JDK has no lib/src.zip: install {package} (Debian/Ubuntu) or a JDK that ships src.zip"
    return "pass --sources <jar> or --src <dir>"


def _jdk_feature(home: str) -> str | None:
    """The JDK's feature version (17) from its `release` file."""
    try:
        for line in (Path(home) / "release").read_text().splitlines():
            if line.startswith("JAVA_VERSION="):
                version = line.split("=", 1)[1].strip().strip('"')
                first = version.split(".")[0]
                return version.split(".")[1] if first == "1" else first
    except (OSError, IndexError):
        pass
    return None


def jdk_src_zip(java_home: str) -> SourceRoot | None:
    src = Path(java_home) / "lib" / "src.zip"
    return SourceRoot("zip", str(src), "src.zip", "src.zip") if src.is_file() else None


def workspace_roots(artifacts, explicit: list[str], src_dirs: list[str]) -> list[dict]:
    """The source roots a workspace reads (`ws info`), each once: {path, how, for: the artifacts it is paired with,
    or "all" for --sources/--src and a project's source directories, "jdk" for src.zip}; a jar's own entries (a jar
    may hold its .java files) are left out. `artifacts`: roots.Artifact-like (kind, path, spec, name)."""
    found: dict[tuple[str, str], dict] = {}
    shared = {(r.path, r.prefix) for r in _explicit(explicit) + src_dir_roots(src_dirs)}
    for art in artifacts:
        for r in _roots(art.kind, art.path, art.spec, explicit, src_dirs):
            if r.how == "embedded":
                continue
            path = os.path.join(r.path, r.prefix) if r.kind == "dir" and r.prefix else r.path
            entry = found.setdefault((path, r.how), {"path": path, "how": r.how, "for": []})
            if (r.path, r.prefix) in shared:
                entry["for"] = "all"
            elif r.how == "src.zip":
                entry["for"] = "jdk"
            elif art.name not in entry["for"]:
                entry["for"].append(art.name)
    return list(found.values())


def source_roots(kind: str, path: str, spec: str, explicit: list[str], src_dirs: list[str],
                 index_dir: str = "") -> list[SourceRoot]:
    """Every root that may hold the sources of the artifact (kind, path; spec as roots.Artifact has it);
    archives get `index_dir` (the cache) to keep their entry index in."""
    roots = _roots(kind, path, spec, explicit, src_dirs)
    return [replace(r, index_dir=index_dir) if r.kind == "zip" else r for r in roots]


def _roots(kind: str, path: str, spec: str, explicit: list[str], src_dirs: list[str]) -> list[SourceRoot]:
    roots = _explicit(explicit)
    if kind == "jar":
        roots += paired_jars(path)
        roots.append(SourceRoot("zip", path, os.path.basename(path), "embedded"))
    roots += src_dir_roots(src_dirs)
    if kind == "jrt" and spec.startswith("jrt:") and "!" in spec:
        home, module = spec[len("jrt:"):].rsplit("!", 1)
        root = jdk_src_zip(home)
        if root is not None:
            roots.append(SourceRoot(root.kind, root.path, root.label, root.how, f"{module}/"))
    return roots


_KT_NAMES: dict[tuple[str, str], dict[str, list[str]]] = {}
DIR_WALK_MAX = 200_000  # files looked at in one --src directory before giving up on finding more


def _kotlin_names(root: SourceRoot) -> dict[str, list[str]]:
    """basename → paths (relative to the root, prefix removed) of every `.kt` file of a root, once per root."""
    key = (root.kind, root.path)
    if key in _KT_NAMES:
        return _KT_NAMES[key]
    names: dict[str, list[str]] = {}
    if root.kind == "zip":
        index = zip_index(root.path, root.index_dir) if root.index_dir else None
        if index is not None:
            entries = list(index)
        else:
            zf = _zip(root.path)
            with _ZIP_LOCK:
                entries = zf.namelist() if zf is not None else []
        for e in entries:
            if e.endswith(".kt"):
                names.setdefault(e.rsplit("/", 1)[-1], []).append(e)
    else:
        seen = 0
        for base, dirs, files in os.walk(root.path):
            dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in ("build", "node_modules", "out"))
            for f in files:
                seen += 1
                if f.endswith(".kt"):
                    names.setdefault(f, []).append(os.path.relpath(os.path.join(base, f), root.path)
                                                   .replace(os.sep, "/"))
            if seen > DIR_WALK_MAX:
                break
    for v in names.values():
        v.sort()
    _KT_NAMES[key] = names
    return names


_PACKAGE = re.compile(rb"^[ \t]*package[ \t]+([A-Za-z_`][\w.`]*)", re.M)


def kotlin_package(data: bytes) -> str:
    """The `package` of a Kotlin file ("" for the default package), read from its text."""
    m = _PACKAGE.search(data[:65536])
    return m.group(1).decode("utf-8", "replace").replace("`", "") if m else ""


def find_kotlin_file(roots: list[SourceRoot], package: str, name: str) -> tuple[SourceRoot, str, bytes] | None:
    """The Kotlin file `name` of `package` (dotted): in each root, first at `<package dirs>/<name>`, then
    anywhere in the root with that package declared (multiplatform jars keep `commonMain/…`, `jvmMain/…`;
    projects put files where they like). (root, path inside the root without its prefix, bytes)."""
    conventional = (package.replace(".", "/") + "/" if package else "") + name
    for root in roots:
        data = root.read(conventional)
        if data is not None and kotlin_package(data) == package:
            return root, conventional, data
        others = [n for n in root.named(name) if n[len(root.prefix):] != conventional]
        others.sort(key=lambda n: (not n.endswith("/" + conventional), "jvm" not in n.lower(),
                                   "common" in n.lower(), n))
        for n in others:
            rel = n[len(root.prefix):]
            data = root.read(rel)
            if data is not None and kotlin_package(data) == package:
                return root, rel, data
    return None


def find_file(roots: list[SourceRoot], rel: str) -> tuple[SourceRoot, bytes] | None:
    """The first root holding `rel` (`com/x/A.java`) and its bytes."""
    for root in roots:
        data = root.read(rel)
        if data is not None:
            return root, data
    return None
