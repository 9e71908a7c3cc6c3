"""Getting the API surfaces of a diff's two sides (spec §7.7): jars, class directories and globs, each artifact's
shard reused by content hash or extracted once and cached; an unreadable artifact is exit 5 naming it.

Each artifact's surface in compact form (`jdx.engine.diff.surface.compact_from_tables`) is kept in the artifact's
shard directory as `diff-surface.bin`, written with the shard when a diff extracts it, or on the first diff of an
artifact `jdx index` extracted. It lives and dies with the shard (same content-hash key, replaced with the
directory) and names the extractor it was derived from, so a diff of two indexed artifacts reads two small files
and never imports pyarrow."""

from __future__ import annotations

import marshal
import os
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from jdx.errors import ArtifactReadError, Warning_
from jdx.loaders.roots import Artifact, HashCache, dir_key, glob_paths, is_archive, is_glob, not_a_file

if TYPE_CHECKING:  # only an extraction writes shards on a side thread
    from collections.abc import Callable
    from concurrent.futures import ThreadPoolExecutor

COORDINATE = re.compile(r"[A-Za-z0-9_.\-]+:[A-Za-z0-9_.\-]+:[A-Za-z0-9_.\-]+")
NEEDED_COLUMNS = {
    "types": ("name", "kind", "access", "signature", "super", "outer", "inner_name", "inner_access", "outer_method",
              "kotlin", "permits", "version"),
    "supertypes": ("type", "super", "kind", "position"),
    "members": ("owner", "kind", "name", "descriptor", "signature", "access", "exceptions", "param_names", "constant",
                "annotation_default"),
    "annotations": ("owner_kind", "owner", "member_name", "member_desc", "param", "annotation", "text"),
}
NEEDED_TABLES = tuple(NEEDED_COLUMNS)


@dataclass
class Side:
    """One side of a diff: what the user named and the artifacts (in order) it stands for."""

    arg: str
    label: str
    artifacts: list[Artifact]
    surfaces: list[list] = field(default_factory=list)  # each artifact's compact surface (surface.Entry list)
    # a multi-release jar's classes under META-INF/versions/N: release N -> their compact entries (base names)
    releases: dict[int, list] = field(default_factory=dict)
    classes: int = 0
    warnings: list[Warning_] = field(default_factory=list)

    def jars_flag(self) -> str | None:
        """How `--jars` names this side for a follow-up query: as typed, a coordinate's jar, None for a JDK."""
        if self.arg.startswith("jrt:"):
            return None
        if COORDINATE.fullmatch(self.arg) and self.artifacts:
            return self.artifacts[0].path
        return self.arg

    def to_json(self) -> dict:
        """The side as the answer names it. Whether its shard was extracted now or read from the cache is not part
        of it: the same two inputs give the same bytes on every run (spec §3.9), as every query's answer does."""
        return {"name": self.label, "arg": self.arg, "jars": self.jars_flag(), "classes": self.classes,
                "artifacts": [a.to_json() for a in self.artifacts]}


def unreadable(message: str, hint: str | None = None) -> ArtifactReadError:
    """Exit 5 (spec §16) naming the artifact. The message says it once, its code named in it (the text form prints
    only the message, and `error.code` is the JSON form's): no ARTIFACT_READ_ERROR warning restating it."""
    return ArtifactReadError(f"{message} ({ArtifactReadError.code})", hint=hint)


def _is_binary_jar(name: str) -> bool:
    return name.endswith(".jar") and not name.endswith(("-sources.jar", "-javadoc.jar"))


def _has_class_files(path: Path) -> bool:
    return any(f.endswith(".class") for _r, _d, files in os.walk(path) for f in files)


def resolve_side(arg: str, hashes: HashCache, fetch=None) -> Side:
    """The artifacts `arg` names: a jar, a class directory (or a directory of jars), a glob of jars, a Maven
    coordinate `group:artifact:version` found in the local repository, or one module of a JDK as
    `jrt:JDK_HOME!MODULE` (read through that JDK's jrt file system). `fetch` (a maven_repo.FetchSettings, or the
    command line's `(--fetch, [--repo URL...])`): a coordinate absent locally is downloaded as `--coord` would (without
    it, when `fetch = true` in config or JDX_FETCH=1)."""
    if arg.startswith("jrt:"):
        return _jdk_module(arg)
    text = os.path.expanduser(arg)
    if COORDINATE.fullmatch(arg) and not os.path.exists(text):
        return _coordinate(arg, hashes, fetch)
    if is_glob(text):
        paths = [Path(m) for m in glob_paths(text) if is_archive(m) and os.path.isfile(m)]
        if not paths:
            raise unreadable(f"{arg}: no jar matches")
        # one jar: named as a path or a coordinate names it (its findings' symbol, the header), not by the pattern
        return Side(arg, paths[0].name if len(paths) == 1 else arg, [_jar(p, hashes) for p in paths])
    path = Path(text)
    if not path.is_dir() and (not path.is_file() or not os.access(path, os.R_OK)):
        raise unreadable(f"{arg}: {not_a_file(text)}")  # a pipe would block the hashing forever
    if not os.access(path, os.R_OK):
        raise unreadable(f"{arg}: not readable")
    if path.is_dir():
        real = os.path.realpath(path)
        if _has_class_files(path):
            name = path.name or real
            return Side(arg, name, [Artifact("dir", real, name, dir_key(path), f"dir:{real}")])
        jars = sorted(p for p in path.rglob("*.jar") if _is_binary_jar(p.name) and p.is_file())
        if jars:
            return Side(arg, arg, [_jar(p, hashes) for p in jars])
        side = Side(arg, path.name or real, [])
        side.warnings.append(Warning_("EMPTY_ARTIFACT", f"{arg} holds no class files and no jars: an empty API",
                                      arg))
        return side
    return Side(arg, path.name, [_jar(path, hashes)])


def _coordinate(arg: str, hashes: HashCache, fetch=None) -> Side:
    """`group:artifact:version` from the local Maven repository or what was fetched into `<cache-dir>/m2`; absent
    there, downloaded into `<cache-dir>/m2` when fetching is on (the jar only is compared, not its dependencies)."""
    from jdx.dirs import cache_dir
    from jdx.loaders.maven_repo import Coordinate, fetch_cache, fetch_settings, local_repository

    c = Coordinate.parse(arg)
    repo = local_repository()[0]
    cache = hashes.file.parent if hashes is not None else cache_dir()
    for root in (repo, fetch_cache(cache)):
        jar = c.repository_path(root)
        if jar.is_file() and jar.suffix == ".jar":
            return Side(arg, jar.name, [_jar(jar, hashes)])
    if fetch is None or isinstance(fetch, tuple):  # (the --fetch flag, the --repo URLs), merged with config and env
        fetch = fetch_settings(*(fetch or ()))
    if not fetch.enabled:
        raise unreadable(f"{arg}: not in the local Maven repository {repo}",
                         hint="--fetch downloads it, or pass the jar's path")
    from jdx.errors import EnvironmentMissing
    from jdx.loaders.classpath import coordinate_roots

    try:
        found = coordinate_roots(cache, [arg], fetch)
    except EnvironmentMissing as exc:
        raise unreadable(f"{arg}: cannot download it: {exc}") from exc
    if found.unreadable:
        raise unreadable(found.unreadable[0].message.removeprefix("--coord "))
    jar = next((Path(p) for p in found.roots if found.names[p] == str(c) and p.endswith(".jar")), None)
    if jar is None:
        raise unreadable(f"{arg}: no jar (a pom-packaged artifact has no classes)")
    side = Side(arg, jar.name, [_jar(jar, hashes)])
    side.warnings.extend(w for w in found.warnings if w.code == "FETCHED")
    return side


def _jdk_module(arg: str) -> Side:
    from jdx.loaders.roots import jdk_artifacts

    home, bang, module = arg[len("jrt:"):].partition("!")
    home_path = Path(os.path.expanduser(home))
    if not bang or not module:
        raise unreadable(f"{arg}: a JDK module is written jrt:JDK_HOME!MODULE (jrt:/usr/lib/jvm/x!java.base)")
    if not (home_path / "lib" / "modules").is_file():
        raise unreadable(f"{arg}: {home} is not a JDK home (no lib/modules)")
    found = [a for a in jdk_artifacts(home_path) if a.name == module]
    if not found:
        raise unreadable(f"{arg}: the JDK at {home} has no module {module}")
    return Side(arg, f"{module} ({home_path.name})", found)


def _jar(path: Path, hashes: HashCache) -> Artifact:
    real = os.path.realpath(path)
    try:
        key, size = hashes.jar_key(Path(real))
    except OSError as exc:
        raise unreadable(f"{path}: {exc.strerror or exc}") from exc
    return Artifact("jar", real, path.name, key, f"jar:{real}", size)


class ShardWrites:
    """Shards of freshly extracted artifacts being written on a side thread while the comparison runs."""

    def __init__(self, writer: ThreadPoolExecutor | None = None, futures: list | None = None):
        self.writer, self.futures = writer, futures or []

    def wait(self) -> None:
        try:
            for f in self.futures:
                f.result()
        finally:
            if self.writer is not None:
                self.writer.shutdown(wait=True)


SURFACE_FILE = "diff-surface.bin"
SURFACE_FORMAT = 3  # bump when the compact form changes; 2: the type row's `permits`; 3: its class-file `version`


def surface_header() -> bytes:
    """The first line of a surface file: its format, the extractor its shard came from, and the Python whose
    marshal wrote it (marshal is only read back by the same version)."""
    from jdx.loaders.indexer import SHARD_FORMAT
    from jdx.loaders.jvm import asm_identity, extractor_source_hash

    return (f"jdx-diff-surface {SURFACE_FORMAT} {SHARD_FORMAT}:{extractor_source_hash()}:{asm_identity()} "
            f"py{sys.version_info[0]}.{sys.version_info[1]}\n").encode()


def read_surface(shard: Path, header: bytes) -> tuple[int, list, list] | None:
    """(classes, warnings, compact entries) from a shard directory's surface file; None when absent, written for
    another extractor or Python, or unreadable (the shard is then read instead)."""
    try:
        with open(shard / SURFACE_FILE, "rb") as f:
            if f.readline() != header:
                return None
            classes, warnings, entries = marshal.loads(f.read())
    except (OSError, ValueError, EOFError, TypeError):
        return None
    if not (isinstance(classes, int) and isinstance(warnings, list) and isinstance(entries, list)):
        return None
    return classes, warnings, entries


def write_surface(shard: Path, header: bytes, classes: int, warnings: list, entries: list) -> None:
    """Writes the surface file into a shard directory, atomically; a failure only costs the next diff a shard
    read."""
    tmp = shard / f".{SURFACE_FILE}.{os.getpid()}.tmp"
    try:
        with open(tmp, "wb") as f:
            f.write(header)
            f.write(marshal.dumps((classes, [list(w) for w in warnings], entries)))
        os.replace(tmp, shard / SURFACE_FILE)
    except OSError:
        tmp.unlink(missing_ok=True)


def surface_for_shard(artifact: Artifact, extracted) -> "Callable[[str], None] | None":
    """`Executor.shard_extra` of workspace builds: a jar extracted by `jdx index` or a query gets its surface file
    with its shard, from the tables already in memory, so its first diff reads it like any later one."""
    if artifact.kind != "jar":
        return None

    def write(tmp: str) -> None:
        from jdx.engine.diff.surface import compact_from_tables

        entries = compact_from_tables({name: extracted.tables[name] for name in NEEDED_TABLES})
        write_surface(Path(tmp), surface_header(), extracted.classes, extracted.warnings, entries)

    return write


def load_sides(sides: list[Side], cache: Path) -> ShardWrites:
    """Fills each side's compact surfaces: a surface file or a shard already in the cache is read, the rest are
    extracted in one JVM run and cached for next time (call `.wait()` on the answer before exiting). Raises
    ArtifactReadError naming the first artifact that cannot be read."""
    from jdx.engine.diff.forms import type_ref
    from jdx.graph_schema.retention import mark_used

    header = surface_header()
    slots: dict[str, list | None] = {}
    meta: dict[str, tuple[int, list]] = {}
    unread: list[Artifact] = []
    for side in sides:
        for a in side.artifacts:
            if a.key in slots:
                continue
            found = read_surface(cache / "shards" / a.key, header)
            slots[a.key] = None if found is None else found[2]
            if found is not None:
                mark_used(cache / "shards" / a.key)  # `cache gc` keeps what was used recently
            if found is None:
                unread.append(a)
            else:
                meta[a.key] = (found[0], found[1])
    wanted = _from_shards(unread, cache, header, slots, meta) if unread else []
    writes = _extract(wanted, cache, header, slots, meta) if wanted else ShardWrites()
    skipped = _unread_classes(sides, slots, meta)
    for side in sides:
        for a in side.artifacts:
            entries = slots[a.key]
            side.surfaces.append([e for e in entries if e[0][0] not in skipped] if skipped else entries)
            classes, warnings = meta[a.key]
            side.classes += classes
            for code, entry, message in warnings:
                detail = f"{entry}: {message}" if entry and entry not in message else message
                if (name := _unread_class(code, entry)) in skipped:
                    detail += f"; {type_ref(name)} was not compared (left out of both sides)"
                side.warnings.append(Warning_(code, f"{a.name}: {detail}", a.name))
            if classes == 0:
                side.warnings.append(Warning_("EMPTY_ARTIFACT", f"{a.name} holds no class files: an empty API",
                                              a.name))
    return writes


# per-class warnings of a class file the extractor could not read (its entry named, no type row written)
UNREAD_CLASS_CODES = ("CORRUPT_CLASS", "UNSUPPORTED_CLASS_VERSION", "ZIP_BOMB")


def _unread_class(code: str, entry: str | None) -> str | None:
    """The internal name a per-class warning's entry stands for (`p/B.class`, a multi-release variant's
    `META-INF/versions/N/` dropped), or None for any other warning."""
    if code not in UNREAD_CLASS_CODES or not entry or not entry.endswith(".class"):
        return None
    return re.sub(r"^META-INF/versions/\d+/", "", entry).removesuffix(".class")


def _unread_classes(sides: list[Side], slots: dict, meta: dict) -> set[str]:
    """Classes some artifact holds but could not read (a warning names the entry and the artifact has no class of
    that name): left out of both sides, since a class one side could not read is neither removed nor added."""
    out: set[str] = set()
    for a in {a.key: a for side in sides for a in side.artifacts}.values():
        names = {n for code, entry, _ in meta[a.key][1] if (n := _unread_class(code, entry)) is not None}
        if names:
            out |= names - {e[0][0] for e in slots[a.key]}
    return out


def _from_shards(artifacts: list[Artifact], cache: Path, header: bytes, slots: dict, meta: dict) -> list[Artifact]:
    """Surfaces of artifacts with a shard but no surface file yet (indexed by `jdx index`, or by an older jdx),
    the file written for next time; the artifacts with no shard, to extract."""
    from jdx.engine.diff.surface import compact_from_tables
    from jdx.graph_schema.retention import mark_used
    from jdx.loaders.shards import load_shard, sweep_partial_shards

    sweep_partial_shards(cache)
    wanted = []
    for a in artifacts:
        shard = load_shard(cache, a)
        if shard is None:
            wanted.append(a)
            continue
        entries = compact_from_tables({name: _read(shard.path / f"{name}.parquet") for name in NEEDED_TABLES})
        slots[a.key] = entries
        mark_used(shard.path)
        meta[a.key] = (int(shard.meta.get("classes", 0)), shard.warnings)
        write_surface(shard.path, header, meta[a.key][0], meta[a.key][1], entries)
    return wanted


def _read(path: Path):
    """One shard table; `ParquetFile` keeps `pyarrow.dataset` (and pandas, ~1 s) out of the process."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        return pq.ParquetFile(path, memory_map=True).read(columns=list(NEEDED_COLUMNS[path.stem]))
    except (OSError, pa.ArrowException) as exc:
        raise unreadable(f"cached shard {path} is unreadable ({exc}); remove it or run jdx cache clear") from exc


def _extract(wanted: list[Artifact], cache: Path, header: bytes, slots: dict, meta: dict) -> ShardWrites:
    from concurrent.futures import ThreadPoolExecutor

    from jdx.engine.diff.surface import compact_from_tables
    from jdx.loaders.extractor import JPypeExtractor
    from jdx.loaders.shards import write_shard_at

    def write(artifact: Artifact, extracted, entries: list) -> None:
        def with_surface(tmp: Path) -> None:  # in the shard's directory before it is renamed into place
            write_surface(tmp, header, extracted.classes, extracted.warnings, entries)

        write_shard_at(cache / "shards", artifact, extracted, before_commit=with_surface)

    writes = ShardWrites(ThreadPoolExecutor(max_workers=1, thread_name_prefix="jdx-shard-write"))
    try:
        for extracted in JPypeExtractor(cache).extract(wanted):
            artifact = wanted[extracted.index]
            failure = next((w for w in extracted.warnings if w[0] == "ARTIFACT_READ_ERROR"), None)
            if failure is not None:
                raise unreadable(f"cannot read {artifact.path}: {failure[2]}")
            entries = compact_from_tables({name: extracted.tables[name] for name in NEEDED_TABLES})
            slots[artifact.key] = entries
            meta[artifact.key] = (extracted.classes, extracted.warnings)
            writes.futures.append(writes.writer.submit(write, artifact, extracted, entries))
    except BaseException:
        writes.wait()
        raise
    return writes


RELEASE_DIR = "diff-releases"  # under the cache: each multi-release jar's versioned classes, one jar per release
_VERSIONED = re.compile(r"META-INF/versions/(\d+)/(.+\.class)")


def load_releases(sides: list[Side], cache: Path) -> None:
    """Fills `Side.releases` of each side holding a multi-release jar (its MULTI_RELEASE_JAR warning): the classes
    under META-INF/versions/N, moved to their base names in a jar of their own (kept under the cache, named by the
    jar's content key), extracted and cached as any jar is. Their warning then says what was compared."""
    import zipfile

    from jdx.loaders.roots import HashCache

    hashes = HashCache(cache)
    wanted: list[tuple[Side, int, Side]] = []
    for side in sides:
        multi = {w.artifact for w in side.warnings if w.code == "MULTI_RELEASE_JAR"}
        for a in side.artifacts:
            if a.kind != "jar" or a.name not in multi:
                continue
            try:
                with zipfile.ZipFile(a.path) as z:
                    by_release: dict[int, dict[str, bytes]] = {}
                    for name in sorted(z.namelist()):
                        m = _VERSIONED.fullmatch(name)
                        if m and not m.group(2).endswith("module-info.class"):
                            by_release.setdefault(int(m.group(1)), {})[m.group(2)] = z.read(name)
            except (OSError, zipfile.BadZipFile):
                continue  # the base classes were read; the warning still says the versioned ones were not
            for release, entries in sorted(by_release.items()):
                jar = cache / RELEASE_DIR / f"{a.key}-{release}.jar"
                if not jar.is_file():
                    _write_release_jar(jar, entries)
                wanted.append((side, release, Side(str(jar), f"{a.name} (release {release})",
                                                   [_jar(jar, hashes)])))
    if not wanted:
        return
    hashes.save()
    load_sides([sub for _, _, sub in wanted], cache).wait()
    for side, release, sub in wanted:
        side.releases.setdefault(release, []).extend(e for entries in sub.surfaces for e in entries)
    for side in sides:
        if side.releases:
            side.warnings = [_compared(w, side) if w.code == "MULTI_RELEASE_JAR" else w for w in side.warnings]


def _compared(w: Warning_, side: Side) -> Warning_:
    named = ", ".join(f"{r} ({len(side.releases[r])} class{'' if len(side.releases[r]) == 1 else 'es'})"
                      for r in sorted(side.releases))
    label = f"`release {max(side.releases)}:`" + (" (or another release)" if len(side.releases) > 1 else "")
    return Warning_(w.code, f"{w.artifact}: multi-release jar: base classes compared, then the classes of release "
                    f"{named} under META-INF/versions as a JVM of that release loads them; their findings' "
                    f"details start {label}", w.artifact)


def side_warnings(sides: list[Side], found: bool) -> list[Warning_]:
    """The sides' warnings, in order. When their multi-release jars' versioned classes were compared and `found`
    nothing beyond the base comparison, those jars' MULTI_RELEASE_JAR warnings are one, where the first stood: no
    finding carries a `release N:` for the longer ones (`_compared`) to explain."""
    warnings = [w for side in sides for w in side.warnings]
    compared = [w for side in sides if side.releases for w in side.warnings if w.code == "MULTI_RELEASE_JAR"]
    if found or not compared:
        return warnings
    releases = sorted({r for side in sides for r in side.releases})
    names = list(dict.fromkeys(w.artifact for w in compared))
    many = len(releases) > 1
    one = Warning_("MULTI_RELEASE_JAR", f"{', '.join(names)}: multi-release jar{'s' if len(names) > 1 else ''}: "
                   f"the classes of release{'s' if many else ''} {', '.join(map(str, releases))} under "
                   f"META-INF/versions compared too, as a JVM of {'each' if many else 'that'} release loads them: "
                   "no further findings",
                   names[0] if len(names) == 1 else "")
    first, rest = compared[0], compared[1:]
    return [one if w is first else w for w in warnings if all(w is not c for c in rest)]


def _write_release_jar(jar: Path, entries: dict[str, bytes]) -> None:
    """A jar of `entries` (name -> bytes), written atomically with fixed timestamps (same content, same key)."""
    import zipfile

    jar.parent.mkdir(parents=True, exist_ok=True)
    tmp = jar.with_name(f".{jar.name}.{os.getpid()}.tmp")
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in sorted(entries.items()):
            z.writestr(zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0)), data)
    os.replace(tmp, jar)


def unexported_packages(side: Side) -> dict[str, str]:
    """Package (internal name) -> the module that holds it but does not export it to every module, for each artifact
    of the side that is a named module (a module-info.class: a jar's at its root, a class directory's, a JDK
    module's; one only under a multi-release jar's META-INF/versions/N makes no module of its base release, whose
    classpath clients link to every package); the first artifact holding a package decides, as the first class of a
    name wins."""
    import struct

    from jdx.loaders.jdk_modules import module_name, module_packages

    out: dict[str, str] = {}
    for artifact, entries in zip(side.artifacts, side.surfaces):
        data = _module_descriptor(artifact)
        if data is None:
            continue
        try:
            name = module_name(data)
            every, exported = module_packages(data)
        except (ValueError, KeyError, IndexError, struct.error):
            continue  # no descriptor jdx reads: the unnamed module, every package open
        if not name:
            continue
        held = set(every) | {e[0][0].rpartition("/")[0] for e in entries}
        for package in sorted(held - exported):
            out.setdefault(package, name)
    return out


_DESCRIPTOR_MAX = 1 << 20  # a module-info.class bigger than this is no descriptor (jdk_modules reads none either)


def _module_descriptor(artifact: Artifact) -> bytes | None:
    """The bytes of an artifact's module-info.class, or None."""
    import zipfile

    try:
        if artifact.kind == "jar":
            with zipfile.ZipFile(artifact.path) as z:
                # the base release's only: a descriptor under META-INF/versions/N (snakeyaml 2.x over Java 8 classes)
                # leaves the base release unnamed, its classpath clients linked to every package
                info = next((i for i in z.infolist() if i.filename == "module-info.class"), None)
                if info is not None and info.file_size <= _DESCRIPTOR_MAX:
                    return z.read(info)
            return None
        if artifact.kind == "dir":
            descriptor = Path(artifact.path) / "module-info.class"
            if descriptor.is_file() and descriptor.stat().st_size <= _DESCRIPTOR_MAX:
                return descriptor.read_bytes()
            return None
        if artifact.kind == "jrt":
            from jdx.loaders.jdk_modules import JImage

            home, _, module = artifact.spec[len("jrt:"):].rpartition("!")
            image = JImage(Path(home) / "lib" / "modules")
            try:
                return image.read(f"/{module}/module-info.class")
            finally:
                image.close()
    except (OSError, ValueError, zipfile.BadZipFile, KeyError, EOFError, RuntimeError, NotImplementedError):
        return None
    return None


__all__ = ["Side", "ShardWrites", "resolve_side", "load_sides", "load_releases", "side_warnings",
           "unexported_packages"]
