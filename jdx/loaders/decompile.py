"""Decompiling one top-level class (nested classes inside) with Vineflower or Procyon, cached on disk.

Engines are found at run time (spec §11.2), preferred first:
  1. Vineflower: JDX_VINEFLOWER_JAR, `vineflower_jar` in <config-dir>/config.toml ([decompiler] table),
     the Gradle cache (~/.gradle/caches/modules-2/files-2.1/org.vineflower/vineflower/...), Maven (~/.m2);
  2. Procyon: procyon-core + procyon-compilertools from JDX_PROCYON_DIR, else /usr/share/java (Debian's
     procyon-decompiler), ~/.m2, the Gradle cache.
JDX_DECOMPILER (or `engine` in the config table) = auto | vineflower | procyon | none narrows the choice.

The engine runs in the embedded JVM in its own class loader, one class at a time with the workspace as
classpath, on a daemon thread under a wall-clock timeout. Results are cached under <cache>/decompiled/ keyed by
(hash of the class file and its nested class files, engine, engine version); a cache hit never starts a JVM.

Procyon also reports where each line of its text came from: `Decompiled.line_map` maps a decompiled line to the
class-file lines (LineNumberTable) of the code written on it, stored beside the text (`<key>.lines`, naming the
text's hash, so a map is never served with another text). Vineflower's text has no map (None).

Procyon's text is corrected from the class files (jdx.loaders.decompile_procyon): string concatenations keep the
one character Procyon drops after their last value, interface methods get their static / private modifiers back,
and what cannot be corrected is reported in `Decompiled.warnings` (named codes), stored beside the text too.
"""

from __future__ import annotations

import glob
import hashlib
import json
import os
import re
import shutil
import tempfile
import threading
import time
import tomllib
import zipfile
import zlib
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jdx.dirs import config_dir
from jdx.errors import JdxError, Warning_
from jdx.loaders.decompile_compact import compact_kotlin_bookkeeping

# Procyon logs unresolvable generics and type-loader misses to stderr through java.util.logging, mostly under
# its classes' simple names (found by scanning procyon-core/compilertools 0.6 for Logger.getLogger)
PROCYON_LOGGERS = ("com.strobel", "Reifier", "ArrayTypeLoader", "JarTypeLoader", "ClasspathTypeLoader",
                   "InputTypeLoader", "AstBuilder", "AstOptimizer", "TransformationPipeline")
# the JDK as type context: `include-runtime` since Vineflower 1.10, the short `jrt` key before it
VINEFLOWER_OPTIONS = (("include-runtime", "current"), ("jrt", "1"), ("log", "ERROR"))
# a failure that leaves the engine's classes unusable in their loader: the next run gets a fresh loader
BROKEN_ENGINE_MARKERS = ("NoClassDefFoundError", "ExceptionInInitializerError", "ThreadDeath")
# bump when the cached text's shape changes (3: Procyon's line map stored beside the text; 4: Procyon's text corrected
# from the class files, its warnings stored with the line map; 5: the line map read from Procyon's tree, a lambda's
# lines through its own method's line table; 6: a Kotlin class's @Metadata and SMAP payloads left out, see
# decompile_compact)
CACHE_FORMAT = "6"
# a type header's `permits` clause (Procyon prints one wherever the class file has PermittedSubclasses)
_PERMITS = re.compile(r"^(?P<head>[^\n;{}()=]*\b(?P<kind>enum|class|interface)\s+[\w$]+[^\n;{}()=]*?)"
                      r"\s+permits\s+(?P<names>[\w$.,\s]+?)(?P<tail>\s*\{?[ \t]*)$", re.M)


# the graph's id of a shadowed class copy is `name@<16 hex of its artifact key>` (graph_build._shadow_suffix)
_SHADOW_SUFFIX = re.compile(r"@[0-9a-f]{16}$")


def jvm_name(type_id: str) -> str:
    """The JVM internal name inside a graph type id: a shadowed copy's id carries its artifact as a suffix."""
    return _SHADOW_SUFFIX.sub("", type_id)


LineMap = dict[int, tuple[int, ...]]  # decompiled line -> the class-file lines of the code written on it


@dataclass
class Decompiled:
    text: str  # Java source text of the whole top-level class (nested classes inside)
    engine: str  # "vineflower" | "procyon"
    engine_version: str
    cached: bool
    line_map: LineMap | None = None  # None: the engine reported no mapping (Vineflower)
    # what jdx knows to be wrong in the text and could not correct (named codes; the artifact is left for the caller)
    warnings: list[Warning_] = field(default_factory=list)

    def decompiled_lines(self, class_line: int, first: int = 1, last: int | None = None) -> list[int] | None:
        """The decompiled lines in first..last written from code of class-file line `class_line`, in order;
        None without a map."""
        if self.line_map is None:
            return None
        last = len(self.text.splitlines()) if last is None else last
        return [n for n in range(first, last + 1) if class_line in self.line_map.get(n, ())]


class DecompileError(JdxError):
    """Base of the three ways decompilation can fail; each maps to a named warning, never a traceback."""

    code = "DECOMPILE_FAILED"

    def warning(self, artifact: str = "") -> Warning_:
        return Warning_(self.code, self.message, artifact)


class DecompileUnavailable(DecompileError):
    code = "DECOMPILER_UNAVAILABLE"


class DecompileTimeout(DecompileError):
    code = "DECOMPILE_TIMEOUT"


class DecompileFailed(DecompileError):
    code = "DECOMPILE_FAILED"


@dataclass(frozen=True)
class Engine:
    name: str
    version: str
    jars: tuple[str, ...]  # the first is the one reported as the engine's jar


# ---------------------------------------------------------------- finding engines

def _config() -> dict:
    """The [decompiler] table of <config-dir>/config.toml ({} when absent or unreadable)."""
    try:
        data = tomllib.loads((config_dir() / "config.toml").read_text())
    except (OSError, tomllib.TOMLDecodeError):
        return {}
    table = data.get("decompiler", {})
    return table if isinstance(table, dict) else {}


def _version_of(jar: str, stem: str) -> str:
    """The version in `<stem>-<version>.jar` (symlinks resolved), else the manifest's, else the jar's size."""
    real = os.path.realpath(jar)
    match = re.fullmatch(re.escape(stem) + r"-(\d[\w.\-]*)\.jar", os.path.basename(real))
    if match:
        return match.group(1)
    try:
        with zipfile.ZipFile(real) as zf:
            manifest = zf.read("META-INF/MANIFEST.MF").decode("utf-8", "replace")
        for line in manifest.splitlines():
            if line.startswith(("Implementation-Version:", "Bundle-Version:")):
                return line.split(":", 1)[1].strip()
    except (OSError, KeyError, zipfile.BadZipFile):
        pass
    return f"unknown-{os.path.getsize(real)}"


def _version_key(version: str) -> tuple:
    return tuple(int(p) if p.isdigit() else -1 for p in re.split(r"[.\-]", version))


def _newest(pattern: str, stem: str) -> list[str]:
    jars = [j for j in glob.glob(pattern) if not j.endswith(("-sources.jar", "-javadoc.jar", "-slim.jar"))]
    return sorted(jars, key=lambda j: _version_key(_version_of(j, stem)), reverse=True)


def _vineflower_jars(config: dict) -> list[str]:
    home = Path.home()
    found = []
    for explicit in (os.environ.get("JDX_VINEFLOWER_JAR"), config.get("vineflower_jar")):
        if explicit:
            found.append(os.path.expanduser(str(explicit)))
    found += _newest(str(home / ".gradle/caches/modules-2/files-2.1/org.vineflower/vineflower/*/*/vineflower-*.jar"),
                     "vineflower")
    found += _newest(str(home / ".m2/repository/org/vineflower/vineflower/*/vineflower-*.jar"), "vineflower")
    return [j for j in found if os.path.isfile(j)]


def _procyon_dirs(config: dict) -> list[tuple[str, str]]:
    """(directory or glob, how) pairs holding procyon-core-*.jar and procyon-compilertools-*.jar."""
    explicit = os.environ.get("JDX_PROCYON_DIR") or config.get("procyon_dir")
    if explicit:
        return [(os.path.expanduser(str(explicit)), "flat")]
    home = Path.home()
    return [("/usr/share/java", "flat"),
            (str(home / ".m2/repository/org/bitbucket/mstrobel"), "maven"),
            (str(home / ".gradle/caches/modules-2/files-2.1/org.bitbucket.mstrobel"), "gradle")]


def _procyon_pair(folder: str, layout: str) -> tuple[str, str] | None:
    """The core and compilertools jars of one Procyon version in a folder, newest version first."""
    def pattern(module: str) -> str:
        if layout == "maven":
            return f"{folder}/{module}/*/{module}-*.jar"
        if layout == "gradle":
            return f"{folder}/{module}/*/*/{module}-*.jar"
        return f"{folder}/{module}*.jar"

    cores = _newest(pattern("procyon-core"), "procyon-core")
    tools = {_version_of(j, "procyon-compilertools"): j
             for j in _newest(pattern("procyon-compilertools"), "procyon-compilertools")}
    for core in cores:
        version = _version_of(core, "procyon-core")
        if version in tools:
            return core, tools[version]
    return None


def find_engines(engine: str | None = None) -> list[Engine]:
    """Every usable engine, preferred first, narrowed by `engine`, else JDX_DECOMPILER / the config's `engine`."""
    config = _config()
    wanted = (engine or os.environ.get("JDX_DECOMPILER") or str(config.get("engine", "auto"))).strip().lower()
    engines: list[Engine] = []
    if wanted in ("auto", "vineflower"):
        for jar in _vineflower_jars(config)[:1]:
            engines.append(Engine("vineflower", _version_of(jar, "vineflower"), (jar,)))
    if wanted in ("auto", "procyon"):
        for folder, layout in _procyon_dirs(config):
            pair = _procyon_pair(folder, layout)
            if pair:
                engines.append(Engine("procyon", _version_of(pair[0], "procyon-core"), (pair[1], pair[0])))
                break
    return engines


def available_engines(engine: str | None = None) -> list[tuple[str, str, str]]:
    """(engine, version, jar path), preferred first; empty when no decompiler is installed or allowed."""
    return [(e.name, e.version, e.jars[0]) for e in find_engines(engine)]


# ---------------------------------------------------------------- class files and the cache key

def _is_member_file(entry: str, internal_name: str) -> bool:
    return entry == internal_name + ".class" or (entry.startswith(internal_name + "$") and entry.endswith(".class"))


def class_files(artifact_kind: str, artifact_path: str, internal_name: str) -> list[tuple[str, bytes]]:
    """(entry, bytes) of a top-level class and its nested classes from a jar or class directory, sorted."""
    if artifact_kind == "jar":
        try:
            with zipfile.ZipFile(artifact_path) as zf:
                return sorted((n, zf.read(n)) for n in zf.namelist() if _is_member_file(n, internal_name))
        except (OSError, zipfile.BadZipFile, zlib.error) as exc:
            raise DecompileFailed(f"cannot read {internal_name} from {artifact_path}: {exc}") from None
    if artifact_kind == "dir":
        package, _, simple = internal_name.rpartition("/")
        folder = Path(artifact_path, package)
        try:
            if not folder.is_dir():
                return []  # maybe elsewhere (decompile_class looks for it by its declared name)
            names = [p.name for p in folder.iterdir() if _is_member_file(p.name, simple)]
            return sorted((f"{package}/{n}" if package else n, (folder / n).read_bytes()) for n in names)
        except OSError as exc:
            raise DecompileFailed(f"cannot read {internal_name} from {artifact_path}: {exc.strerror}") from None
    raise DecompileFailed(f"unknown artifact kind {artifact_kind!r}")


def _jdk_identity() -> str:
    """The running JDK's image identity (path, lib/modules size and mtime, release file): jrt bytes are fixed by it."""
    from jdx.loaders.jvm import find_java_home

    home = find_java_home().home
    st = (home / "lib" / "modules").stat()
    release = (home / "release").read_bytes() if (home / "release").is_file() else b""
    return f"{os.path.realpath(home)}\0{st.st_size}\0{st.st_mtime_ns}\0" + hashlib.sha256(release).hexdigest()


def _class_key(files: list[tuple[str, bytes]]) -> str:
    digest = hashlib.sha256(b"classes\0")
    for name, data in files:
        digest.update(f"{name}\0{len(data)}\0".encode())
        digest.update(data)
    return digest.hexdigest()


def _cache_file(cache: Path, engine: Engine, class_key: str) -> Path:
    key = hashlib.sha256(f"{CACHE_FORMAT}\0{class_key}\0{engine.name}\0{engine.version}".encode()).hexdigest()[:40]
    return cache / "decompiled" / f"{engine.name}-{engine.version}" / key[:2] / f"{key}.java"


def _write_atomically(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def _text_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _store(target: Path, text: str, line_map: LineMap | None, notes: list[Warning_] = ()) -> None:
    """The line map (and the warnings) first, then the text: a reader that finds the text finds its map (or none,
    never another's)."""
    if line_map is not None:
        pairs = sorted([line, orig] for line, origs in line_map.items() for orig in origs)
        _write_atomically(target.with_suffix(".lines"), json.dumps(
            {"text_sha256": _text_hash(text), "map": pairs, "warnings": [[w.code, w.message] for w in notes]}))
    _write_atomically(target, text)


def _load(target: Path) -> tuple[str, LineMap | None, list[Warning_]]:
    """(text, its line map or None: absent, unreadable or made for another text, its warnings); OSError without
    the text."""
    text = target.read_text(encoding="utf-8")
    try:
        stored = json.loads(target.with_suffix(".lines").read_text(encoding="utf-8"))
        if stored.get("text_sha256") != _text_hash(text):
            return text, None, []
        notes = [Warning_(str(code), str(message), "") for code, message in stored.get("warnings", [])]
        return text, _line_map((orig, line) for line, orig in stored["map"]), notes
    except (OSError, ValueError, TypeError, KeyError, AttributeError):
        return text, None, []


def _line_map(positions) -> LineMap:
    """{decompiled line: sorted class-file lines} from (class-file line, decompiled line) pairs."""
    found: dict[int, set[int]] = {}
    for orig, line in positions:
        if int(orig) > 0 and int(line) > 0:
            found.setdefault(int(line), set()).add(int(orig))
    return {line: tuple(sorted(origs)) for line, origs in sorted(found.items())}


# ---------------------------------------------------------------- running an engine

class _EngineBroken(Exception):
    """The engine's jar does not hold the classes we drive (wrong or corrupt jar): try the next engine."""


def decompile_class(cache: Path, artifact_kind: str, artifact_path: str, internal_name: str,
                    classpath: list[tuple[str, str]], timeout: float = 10.0, engine: str | None = None) -> Decompiled:
    """Java source of one top-level class from the first working engine, from the disk cache when possible.

    `engine` ("vineflower" | "procyon") forces one engine for this call, like JDX_DECOMPILER does for a process.

    DecompileUnavailable when no engine is installed (or none loads), DecompileTimeout past `timeout` seconds
    (the worker is abandoned, never waited for), DecompileFailed when the class is missing, unreadable or the
    engine throws.
    """
    internal_name = jvm_name(internal_name)
    engines = find_engines(engine)
    if not engines:
        wanted = f"{engine} " if engine else ""
        setting = "" if engine or not os.environ.get("JDX_DECOMPILER") else \
            f" (JDX_DECOMPILER={os.environ['JDX_DECOMPILER']}; it takes auto, vineflower, procyon or none)"
        raise DecompileUnavailable(f"no {wanted}decompiler found{setting}: install procyon-decompiler "
                                   "(Debian/Ubuntu) or set JDX_VINEFLOWER_JAR")
    dotted = internal_name.replace("/", ".")
    files = None if artifact_kind == "jrt" else class_files(artifact_kind, artifact_path, internal_name)
    artifact = (artifact_kind, artifact_path)
    if files is not None and not any(name == internal_name + ".class" for name, _ in files):
        # indexed away from the path its name gives (MISPLACED_CLASS: BOOT-INF/classes/, WEB-INF/classes/, a
        # jmod's classes/): its files under the names they declare, and no Procyon type cache over the artifact,
        # whose type loader looks the class up where it is not
        from jdx.loaders.class_files import relocated_class_files

        files = relocated_class_files(artifact_kind, artifact_path, internal_name)
        if not any(name == internal_name + ".class" for name, _ in files):
            raise DecompileFailed(f"{dotted} is not in {artifact_path}")
        artifact = ("moved", artifact_path)
    class_key = _class_key(files if files is not None else
                           [(f"jrt\0{_jdk_identity()}\0{artifact_path}\0{internal_name}", b"")])
    broken = []
    for candidate in engines:
        target = _cache_file(cache, candidate, class_key)
        try:
            text, line_map, notes = _load(target)
        except OSError:
            pass
        else:
            return Decompiled(text, candidate.name, candidate.version, True, line_map, notes)
        if files is None:
            files = _jrt_files(cache, artifact_path, internal_name)
        try:
            text, line_map, notes = _run(cache, candidate, artifact, internal_name, files, classpath, timeout)
        except _EngineBroken as exc:
            broken.append(f"{candidate.name} {candidate.version} ({exc})")
            continue
        text = compact_kotlin_bookkeeping(text)
        _check_output(candidate, internal_name, text)
        try:
            _store(target, text, line_map, notes)
        except OSError:  # a read-only cache costs speed, not the answer
            pass
        return Decompiled(text, candidate.name, candidate.version, False, line_map, notes)
    raise DecompileUnavailable(f"no decompiler could be loaded: {'; '.join(broken)}")


def _jrt_files(cache: Path, artifact_path: str, internal_name: str) -> list[tuple[str, bytes]]:
    from jdx.loaders import java_tools

    java_tools.ensure_jvm(cache)
    files = java_tools.jrt_class_files(artifact_path.removeprefix("jrt:/"), internal_name)
    if not any(name == internal_name + ".class" for name, _ in files):
        raise DecompileFailed(f"{internal_name.replace('/', '.')} is not in {artifact_path}")
    return files


def _run(cache: Path, engine: Engine, artifact: tuple[str, str], internal_name: str, files: list[tuple[str, bytes]],
         classpath: list[tuple[str, str]], timeout: float) -> tuple[str, LineMap | None, list[Warning_]]:
    """One engine run: (text, line map, warnings); Java exceptions become DecompileTimeout / DecompileFailed /
    _EngineBroken."""
    from jdx.loaders import java_tools

    dotted = internal_name.replace("/", ".")
    java_tools.ensure_jvm(cache)
    try:
        if engine.name == "vineflower":
            return _run_vineflower(engine, internal_name, files, classpath, timeout), None, []
        return _run_procyon(engine, artifact, internal_name, files, classpath, timeout)
    except java_tools.WorkerTimeout as exc:
        _forget_engine(engine)
        raise DecompileTimeout(f"{engine.name} gave up on {dotted}: {exc}") from None
    except java_tools.WorkerFailed as exc:
        if any(marker in str(exc) for marker in BROKEN_ENGINE_MARKERS):
            _forget_engine(engine)
        raise DecompileFailed(f"{engine.name} failed on {dotted}: {exc}") from None
    except DecompileError:
        raise
    except Exception as exc:  # noqa: BLE001 - a Java exception while setting the engine up: its jar is unusable
        raise _EngineBroken(" ".join(str(exc).split())[:200] or type(exc).__name__) from None


def _forget_engine(engine: Engine) -> None:
    """After a stopped or broken run: a fresh class loader, and no type cache built with the old one."""
    from jdx.loaders import java_tools

    with _SHARED_LOCK:
        stale = [key for key in _SHARED if key[0] == engine.jars]
        entries = [_SHARED.pop(key) for key in stale]
    for entry in entries:
        entry.close()
    java_tools.forget_loader(list(engine.jars))


def _check_output(engine: Engine, internal_name: str, text: str) -> None:
    """An engine that reports an error in its output text instead of throwing still failed."""
    dotted = internal_name.replace("/", ".")
    if not text.strip():
        raise DecompileFailed(f"{engine.name} produced no output for {dotted}")
    if text.lstrip().startswith("!!! ERROR"):
        first = text.strip().splitlines()[0].lstrip("! ")
        raise DecompileFailed(f"{engine.name} failed on {dotted}: {first}")


def _procyon_loaders(loader, files: list[tuple[str, bytes]], classpath: list[tuple[str, str]],
                     opened: list) -> list:
    """The class's own bytes first, then the workspace's jars and class directories, then the JDK.

    Jar files opened here are appended to `opened` for the caller to close once the run is over.
    """
    from jdx.loaders import java_tools as jt

    array_loader = jt.jclass("com.strobel.assembler.metadata.ArrayTypeLoader", loader)
    jar_loader = jt.jclass("com.strobel.assembler.metadata.JarTypeLoader", loader)
    jar_file = jt.jclass("java.util.jar.JarFile")
    loaders = [array_loader(data) for _, data in files]
    for kind, path in classpath:
        if kind == "jar" and os.path.isfile(path):
            try:
                opened.append(jar_file(path))
            except Exception:  # noqa: BLE001 - an unreadable workspace jar only costs type resolution
                continue
            loaders.append(jar_loader(opened[-1]))
        elif kind == "dir" and os.path.isdir(path):
            loaders.append(_dir_type_loader(loader, path))
    loaders.append(jt.jclass("com.strobel.assembler.metadata.ClasspathTypeLoader", loader)())
    return loaders


def _dir_type_loader(loader, root: str):
    """A Procyon ITypeLoader over a class directory (Procyon has none that takes a directory)."""
    import jpype

    from jdx.loaders import java_tools as jt

    interface = jt.jclass("com.strobel.assembler.metadata.ITypeLoader", loader)

    @jpype.JImplements(interface)
    class DirTypeLoader:
        @jpype.JOverride
        def tryLoadType(self, internal_name, buffer):
            path = os.path.join(root, str(internal_name) + ".class")
            try:
                with open(path, "rb") as f:
                    data = f.read()
            except OSError:
                return False
            buffer.reset(len(data))
            buffer.putByteArray(jpype.JArray(jpype.JByte)(data), 0, len(data))
            buffer.position(0)
            return True

    return DirTypeLoader()


@dataclass
class _SharedSystem:
    """A Procyon MetadataSystem (its resolved-type cache) kept across runs over the same immutable inputs."""

    system: Any
    opened: list  # JarFiles its type loaders read
    loader: Any = None  # the engine class loader its classes come from
    lock: threading.Lock = field(default_factory=threading.Lock)
    uses: int = 0

    def close(self) -> None:
        for jar in self.opened:
            try:
                jar.close()
            except Exception:  # noqa: BLE001 - closing is a courtesy
                pass


_SHARED: OrderedDict[tuple, _SharedSystem] = OrderedDict()
_SHARED_LOCK = threading.Lock()
SHARED_SYSTEMS = 2  # type caches kept per process (one for the JDK, one for a workspace, typically)
SHARED_USES = 200  # runs before a type cache is rebuilt, so a long-lived daemon does not grow without end


def _shared_key(engine: Engine, artifact: tuple[str, str], classpath: list[tuple[str, str]]) -> tuple | None:
    """Only immutable inputs may share a type cache: for a JDK class the runtime image alone (JDK classes never
    refer to workspace classes); for a jar class its jar and the workspace's jars, identified by size, mtime
    and inode. A class directory changes under us, so runs involving one never share; nor does a class read away
    from the path its name gives (`moved`), which a type loader over its jar would not find."""
    kind, path = artifact
    if kind == "jrt":
        return (engine.jars, ("jrt",))
    if kind != "jar" or any(k == "dir" for k, _ in classpath):
        return None
    jars = [path] + sorted({p for k, p in classpath if k == "jar" and p != path and os.path.isfile(p)})
    stamps = []
    for jar in jars:
        try:
            st = os.stat(jar)
        except OSError:
            return None
        stamps.append((jar, st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino))
    return (engine.jars, *stamps)


def _shared_system(loader, key: tuple) -> _SharedSystem:
    from jdx.loaders import java_tools as jt

    with _SHARED_LOCK:
        entry = _SHARED.get(key)
        if entry is not None and entry.uses < SHARED_USES and entry.loader is loader:
            _SHARED.move_to_end(key)
            return entry
        evicted = [_SHARED.pop(key)] if entry is not None else []
        opened: list = []
        loaders = []
        for jar, *_ in key[1:]:
            if jar == "jrt":
                continue
            try:
                opened.append(jt.jclass("java.util.jar.JarFile")(jar))
            except Exception:  # noqa: BLE001 - an unreadable workspace jar only costs type resolution
                continue
            loaders.append(jt.jclass("com.strobel.assembler.metadata.JarTypeLoader", loader)(opened[-1]))
        loaders.append(jt.jclass("com.strobel.assembler.metadata.ClasspathTypeLoader", loader)())
        interface = jt.jclass("com.strobel.assembler.metadata.ITypeLoader", loader)
        composite = jt.jclass("com.strobel.assembler.metadata.CompositeTypeLoader", loader)(
            jt.java_array(interface, loaders))
        entry = _SHARED[key] = _SharedSystem(
            jt.jclass("com.strobel.assembler.metadata.MetadataSystem", loader)(composite), opened, loader)
        while len(_SHARED) > SHARED_SYSTEMS:
            evicted.append(_SHARED.popitem(last=False)[1])
    for old in evicted:
        with old.lock:  # not while a run still reads its jars
            old.close()
    return entry


def _run_procyon(engine: Engine, artifact: tuple[str, str], internal_name: str, files: list[tuple[str, bytes]],
                 classpath: list[tuple[str, str]], timeout: float) -> tuple[str, LineMap, list[Warning_]]:
    """Procyon over the class files with their concatenation recipes corrected (a class that needs it is read from
    those bytes, so not through a kept type cache), its text corrected and checked (`_procyon_corrected`)."""
    from jdx.loaders import java_tools as jt

    loader = jt.engine_loader(list(engine.jars))
    jt.silence_loggers(PROCYON_LOGGERS)
    fixed, notes, captures = _procyon_inputs(internal_name, files)
    key = _shared_key(engine, artifact, classpath) if fixed == files else None
    if key is not None:
        entry = _shared_system(loader, key)
        with entry.lock:
            entry.uses += 1
            text, positions = _procyon_decompile_type(loader, entry.system, internal_name, timeout)
        return _procyon_corrected(internal_name, files, text, positions, notes, captures)
    files = fixed
    type_loader = jt.jclass("com.strobel.assembler.metadata.ITypeLoader", loader)
    composite = jt.jclass("com.strobel.assembler.metadata.CompositeTypeLoader", loader)
    opened: list = []
    try:
        loaders = _procyon_loaders(loader, files, classpath, opened)
        system = jt.jclass("com.strobel.assembler.metadata.MetadataSystem", loader)(
            composite(jt.java_array(type_loader, loaders)))
        text, positions = _procyon_decompile_type(loader, system, internal_name, timeout)
    finally:
        for jar in opened:
            jar.close()
    return _procyon_corrected(internal_name, files, text, positions, notes, captures)


def _procyon_inputs(internal_name: str, files: list[tuple[str, bytes]]):
    """(the class files with every concatenation recipe Procyon would print short rewritten
    (decompile_procyon.fix_concat_recipes) and the parameters local and anonymous classes capture named
    (decompile_procyon.name_captured_parameters), a DECOMPILED_CONCAT_INCOMPLETE warning for recipes that could not
    be rewritten, what was found of captured variables)."""
    from jdx.loaders import decompile_procyon as dp

    fixed, missed = [], 0
    for name, data in files:
        try:
            data, _, left = dp.fix_concat_recipes(data)
        except dp.ClassFormatError:
            left = 0  # Procyon reports a corrupt class itself
        missed += left
        fixed.append((name, data))
    notes = []
    if missed:
        notes.append(Warning_("DECOMPILED_CONCAT_INCOMPLETE", f"Procyon drops the literal character after the last "
                              f"value of {missed} string concatenation recipe(s) in {internal_name.replace('/', '.')} "
                              "(its constant pool is full, so jdx cannot correct them); jdx body --engine javap "
                              "shows the recipes", ""))
    fixed, captures = dp.name_captured_parameters(fixed)
    return fixed, notes, captures


def _procyon_corrected(internal_name: str, files: list[tuple[str, bytes]], text: str,
                       positions: list[tuple[int, int]], notes: list[Warning_],
                       captures) -> tuple[str, LineMap, list[Warning_]]:
    """Procyon's text made valid (`permits`), its interface methods' modifiers taken from the class files, and the
    warnings for what stays uncertain. No correction adds or removes a line, so the line map holds."""
    from jdx.loaders import decompile_procyon as dp

    dotted = internal_name.replace("/", ".")
    text, line_map = drop_invalid_permits_mapped(text, positions)
    text, uncertain = dp.fix_interface_modifiers(text, internal_name, files)
    notes = list(notes)
    if uncertain:
        notes.append(Warning_("DECOMPILED_MODIFIERS_UNCERTAIN", f"Procyon prints static and private interface "
                              f"methods as default; jdx could not match {len(uncertain)} of them in {dotted} to the "
                              f"class file ({'; '.join(uncertain[:3])}); jdx body --engine javap shows the flags", ""))
    # a captured variable left under Procyon's name, or named but its name declared again in the text
    captured = set(dp.captured_classes(files)) if captures.unnamed or captures.named else set()
    clashing = set(captures.unnamed)
    for capturing, (method, names) in captures.named.items():
        declared = dp.names_declared_in(text, internal_name, files, method)
        if declared is None or any(declared.get(n, 0) > 1 for n in names):
            clashing.add(capturing)
    captured &= clashing
    captured = sorted(captured)
    if captured:
        names = ", ".join(dp.enclosing_label(files, n) for n in captured[:3]) + (", ..." if len(captured) > 3 else "")
        notes.append(Warning_("DECOMPILED_CAPTURED_NAMES", f"{names}: captured variables jdx could not name for "
                              "certain, and no local variable names in the class files (compiled without -g): "
                              "Procyon may print a captured variable and a variable of the class's own code under "
                              "one name; jdx body --engine javap shows which is which (getfield val$<name>)", ""))
    return text, line_map, notes


def _procyon_decompile_type(loader, system, internal_name: str, timeout: float) -> tuple[str, list[tuple[int, int]]]:
    """What Procyon's Decompiler.decompile does (Language.decompileType: the tree, then printing it), keeping the
    tree to read where each class-file line went: (class-file line, decompiled line) pairs
    (`decompile_lines.LinePositions`).
    A kept MetadataSystem resolves the types a class refers to once per process instead of once per class (the
    output is the same text)."""
    from jdx.loaders import java_tools as jt

    def cls(name: str):
        return jt.jclass(name, loader)

    dotted = internal_name.replace("/", ".")
    try:
        reference = system.lookupType(internal_name)
        definition = reference.resolve() if reference is not None else None
        if definition is not None:
            cls("com.strobel.assembler.metadata.DeobfuscationUtilities").processType(definition)
    except Exception as exc:  # noqa: BLE001 - a corrupt or truncated class file
        raise DecompileFailed(f"procyon failed on {dotted}: {jt.describe(exc)}") from None
    if definition is None:
        raise DecompileFailed(f"procyon failed on {dotted}: the class does not load")
    settings = cls("com.strobel.decompiler.DecompilerSettings").javaDefaults()
    settings.setJavaFormattingOptions(cls("com.strobel.decompiler.languages.java.JavaFormattingOptions")
                                      .createDefault())
    options = cls("com.strobel.decompiler.DecompilationOptions")()
    options.setSettings(settings)
    options.setFullDecompilation(True)
    ast = "com.strobel.decompiler.languages.java.ast."
    deadline = time.monotonic() + timeout
    unit = jt.jclass("java.util.concurrent.atomic.AtomicReference")()
    # Language.decompileType is decompileTypeToAst then printing; the tree is kept to read its line positions
    handle = jt.bound_virtual(settings.getLanguage(), "decompileTypeToAst", cls(ast + "CompilationUnit"),
                              [cls("com.strobel.assembler.metadata.TypeDefinition"),
                               cls("com.strobel.decompiler.DecompilationOptions")], [definition, options])
    jt.run_timed(_keeping_result(handle, unit), timeout, "jdx-procyon")
    # Procyon's printer reads every offset with the line table of the method being printed: a lambda's body (its
    # offsets are its lambda method's) lands on the enclosing method's unrelated lines, a local class leaves its own
    # table in force for the rest of the enclosing method, and an anonymous class is printed by a printer whose record
    # is dropped. Those offsets are taken from the printer and read through the right
    # table (`decompile_lines.LinePositions`).
    from jdx.loaders.decompile_lines import LinePositions

    lines = LinePositions(loader)
    lines.take_misread(unit.get())
    output = cls("com.strobel.decompiler.PlainTextOutput")()
    visitor = cls("com.strobel.decompiler.languages.java.JavaOutputVisitor")(output, settings)
    obj = jt.jclass("java.lang.Object")
    printing = jt.bound_virtual(unit.get(), "acceptVisitor", obj, [cls(ast + "IAstVisitor"), obj], [visitor, None])
    jt.run_timed(_keeping_result(printing, jt.jclass("java.util.concurrent.atomic.AtomicReference")()),
                 max(0.001, deadline - time.monotonic()), "jdx-procyon")
    positions = [(int(p.getOriginalLine()), int(p.getEmittedLine())) for p in visitor.getLineNumberPositions()]
    return str(output.toString()), positions + lines.placed()


def _keeping_result(handle, holder):
    """`handle` made void, its result stored in the AtomicReference `holder` (run_timed drops return values)."""
    from jdx.loaders import java_tools as jt

    handles = jt.jclass("java.lang.invoke.MethodHandles")
    method_type = jt.jclass("java.lang.invoke.MethodType")
    obj = jt.jclass("java.lang.Object").class_
    setter = handles.publicLookup().findVirtual(holder.getClass(), "set", method_type.methodType(jt.void_type(), obj))
    return handles.filterReturnValue(handle.asType(method_type.methodType(obj)), setter.bindTo(holder))


def drop_invalid_permits(text: str) -> str:
    """Removes what Java forbids from `permits` clauses: on an enum (javac 17 lists its constant bodies there)
    and anonymous classes (`Foo$1`) anywhere; Procyon 0.6 prints both, and the text must parse."""
    return drop_invalid_permits_mapped(text, [])[0]


def drop_invalid_permits_mapped(text: str, positions: list[tuple[int, int]]) -> tuple[str, LineMap]:
    """drop_invalid_permits, and the line map of the result from (class-file line, decompiled line) pairs of the
    text before: a clause that wrapped and loses lines moves the lines after it up."""
    removed: list[tuple[int, int]] = []  # (line of the clause's start, lines it lost)

    def fix(match: re.Match) -> str:
        names = [n.strip() for n in match["names"].split(",")]
        keep = [] if match["kind"] == "enum" else [n for n in names if not re.search(r"\$\d+$", n)]
        fixed = match["head"] + (" permits " + ", ".join(keep) if keep else "") + match["tail"]
        lost = match.group(0).count("\n") - fixed.count("\n")
        if lost:
            removed.append((text.count("\n", 0, match.start()) + 1, lost))
        return fixed

    fixed_text = _PERMITS.sub(fix, text)

    def moved(line: int) -> int:  # lines of a shortened clause fold onto its first line
        return line - sum(min(lost, line - start) for start, lost in removed if line > start)

    return fixed_text, _line_map((orig, moved(line)) for orig, line in positions)


def _run_vineflower(engine: Engine, internal_name: str, files: list[tuple[str, bytes]],
                    classpath: list[tuple[str, str]], timeout: float) -> str:
    """Vineflower over a temp dir holding just this class's files, the workspace as libraries, the JDK included."""
    from jdx.loaders import java_tools as jt

    loader = jt.engine_loader(list(engine.jars))
    work = Path(tempfile.mkdtemp(prefix="jdx-vineflower-"))
    try:
        source_dir, out_dir = work / "in", work / "out"
        for name, data in files:
            (source_dir / name).parent.mkdir(parents=True, exist_ok=True)
            (source_dir / name).write_bytes(data)
        out_dir.mkdir()
        file_ = jt.jclass("java.io.File")
        options = jt.jclass("java.util.HashMap")()
        for key, value in VINEFLOWER_OPTIONS:
            options.put(key, value)
        package = "org.jetbrains.java.decompiler.main.decompiler."
        saver = jt.jclass(package + "DirectoryResultSaver", loader)(file_(str(out_dir)))
        quiet = jt.jclass("java.io.PrintStream")(jt.jclass("java.io.OutputStream").nullOutputStream())
        logger = jt.jclass(package + "PrintStreamLogger", loader)(quiet)
        decompiler = jt.jclass(package + "BaseDecompiler", loader)(saver, options, logger)
        decompiler.addSource(file_(str(source_dir)))
        for kind, path in classpath:
            if kind in ("jar", "dir") and os.path.exists(path):
                decompiler.addLibrary(file_(path))
        handle = jt.bound_virtual(decompiler, "decompileContext", jt.void_type(), [], [])
        jt.run_timed(handle, timeout, "jdx-vineflower")
        simple = internal_name.rpartition("/")[2]
        produced = sorted(out_dir.rglob(simple + ".java"))
        return produced[0].read_text(encoding="utf-8") if produced else ""
    finally:
        shutil.rmtree(work, ignore_errors=True)
