"""Maven dependency resolution with Maven's own resolver inside the embedded JVM (spec §13): offline, or online
from named remote repositories when a command line asks for it (`--fetch`).

Maven Resolver, `maven-resolver-provider` and the model builder come from the `maven` package
(`/usr/share/maven/lib`, or `JDX_MAVEN_LIB`); our small helper (`maven_java/jdx/maven/Resolve.java`) is
compiled against them once into the cache and loaded through a class loader of its own, so the JVM started
for ASM serves it too. Parents, properties, dependencyManagement and BOM imports, scopes, exclusions,
optional dependencies, nearest-wins and classifiers are therefore Maven's rules, not a re-implementation.

Results are cached under `<cache-dir>/maven/` by the request and the content hash of every POM the resolver
read or looked for: an unchanged project resolves without starting a JVM. An online resolution is never cached:
what it downloaded is found offline next time.
"""

from __future__ import annotations

import functools
import glob
import hashlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path

from jdx.errors import EnvironmentMissing, Warning_

HELPER_SOURCE = Path(__file__).parent / "maven_java" / "jdx" / "maven" / "Resolve.java"
DEFAULT_LIB = Path("/usr/share/maven/lib")
CACHE_FORMAT = 3  # 2: one resolution per module (`for` lines), pom-only coordinates; 3: `top`, `omitted` lines
TIMEOUT_MS = 60_000
INSTALL_MAVEN = "install Maven's resolver (Debian/Ubuntu: apt-get install maven) or set JDX_MAVEN_LIB"


# what a problem while collecting the dependency graph costs the workspace (a parent POM missing: the artifact's own
# dependencies cannot be read)
RESOLVE_PROBLEM_CONSEQUENCE = ("; the dependencies declared below that point are unknown, so they are not in the "
                               "workspace (classes that need them may show UNRESOLVED_SUPERTYPE)")


@dataclass(frozen=True)
class ResolvedDependency:
    coord: str  # g:a:ext[:cls]:v as Maven prints it
    scope: str
    optional: bool
    path: str
    top: int = -1  # of the coordinates resolved together: the index of the one that brings it

    @property
    def display(self) -> str:
        """`g:a:v` (plus `:classifier`), the name an answer's provenance uses."""
        parts = self.coord.split(":")
        g, a, v = parts[0], parts[1], parts[-1]
        cls = parts[3] if len(parts) == 5 else ""
        return f"{g}:{a}:{v}" + (f":{cls}" if cls else "")

    @property
    def module(self) -> str:
        """`g:a[:cls]` without the version: what two versions of one library share."""
        parts = self.coord.split(":")
        return f"{parts[0]}:{parts[1]}" + (f":{parts[3]}" if len(parts) == 5 else "")

    @property
    def version(self) -> str:
        return self.coord.rsplit(":", 1)[-1]


@dataclass
class Resolution:
    dependencies: list[ResolvedDependency] = field(default_factory=list)  # every module's, each library once
    roots: list[str] = field(default_factory=list)  # the project modules' own g:a:v
    by_module: dict[str, list[ResolvedDependency]] = field(default_factory=dict)  # "" = the coordinates'
    pom_only: list[str] = field(default_factory=list)  # coordinates of pom-packaged artifacts (no jar)
    missing: list[str] = field(default_factory=list)
    warnings: list[Warning_] = field(default_factory=list)
    errors: list[Warning_] = field(default_factory=list)
    cached: bool = False
    resolver: str = ""
    reasons: dict[str, str] = field(default_factory=dict)  # missing coordinate -> the resolver's why
    fetched: list[tuple[str, str]] = field(default_factory=list)  # (coordinate, repository URL) downloaded
    # versions Maven's mediation left out of the coordinates' classpath: (g:a:ext[:cls]:v, winning version, the
    # dependency that wanted it, "" for a coordinate itself)
    omitted: list[tuple[str, str, str]] = field(default_factory=list)


@dataclass(frozen=True)
class ResolveRequest:
    """What to resolve: project modules (g:a:v -> POM, class dir), which POMs are projects, coordinates."""

    repo: Path
    scopes: tuple[str, ...] = ("compile", "runtime")
    modules: tuple[tuple[str, str, str], ...] = ()  # (g:a:v, pom, classes dir)
    projects: tuple[str, ...] = ()  # POM paths among the modules to resolve the dependencies of
    coords: tuple[str, ...] = ()  # resolver forms
    gradle: tuple[str, ...] = ()
    properties: tuple[tuple[str, str], ...] = ()  # user properties, as `mvn -Dname=value` sets them
    highest: bool = False  # Gradle's conflict rule (highest version wins) instead of Maven's nearest-wins
    reads: tuple[str, ...] = ()  # Maven-layout repositories read (never written) in front of `repo`
    remotes: tuple[str, ...] = ()  # remote repository URLs, in order: the resolution goes online
    sources: bool = False  # online: also download each coordinate's -sources.jar (best effort)

    def text(self) -> str:
        lines = [f"repo\t{self.repo}", f"scopes\t{','.join(self.scopes)}"]
        lines += [f"read\t{r}" for r in self.reads]
        lines += [f"remote\trepo{i + 1}\t{url}" for i, url in enumerate(self.remotes)]
        lines += ["sources"] if self.sources else []
        lines += ["conflict\thighest"] if self.highest else []
        lines += [f"prop\t{k}\t{v}" for k, v in self.properties]
        lines += [f"gradle\t{g}" for g in self.gradle]
        lines += [f"module\t{k}\t{pom}\t{classes}" for k, pom, classes in self.modules]
        lines += [f"project\t{p}" for p in self.projects]
        lines += [f"coord\t{c}" for c in self.coords]
        return "\n".join(lines) + "\n"


def maven_lib() -> Path | None:
    """The directory of Maven's resolver jars, or None when Maven is not installed."""
    explicit = os.environ.get("JDX_MAVEN_LIB")
    lib = Path(explicit) if explicit else DEFAULT_LIB
    return lib if glob.glob(str(lib / "maven-resolver-provider*.jar")) else None


def _lib_jars(lib: Path) -> list[str]:
    jars = [j for j in sorted(glob.glob(str(lib / "*.jar"))) if "slf4j-provider" not in os.path.basename(j)]
    nop = Path("/usr/share/java/slf4j-nop.jar")  # silences slf4j's "no binder" banner on stderr
    if nop.is_file():
        jars.append(str(nop))
    return jars


def _helper_classes(cache: Path, jars: list[str]) -> Path:
    """The helper compiled once per source and resolver version."""
    from jdx.loaders.jvm import compile_java, find_java_home

    digest = hashlib.sha256(HELPER_SOURCE.read_bytes())
    for j in jars:
        st = os.stat(j)
        digest.update(f"{os.path.basename(j)}:{st.st_size}\n".encode())
    target = cache / "maven-helper" / digest.hexdigest()[:24]
    if (target / "jdx" / "maven" / "Resolve.class").is_file():
        return target
    java = find_java_home()
    if java.javac is None:
        raise EnvironmentMissing(f"javac not found next to {java.home}: cannot compile the Maven resolver helper")
    return compile_java(java, jars, [str(HELPER_SOURCE)], target, "the Maven resolver helper")


_helper: dict = {}


def _resolver_class(cache: Path):
    lib = maven_lib()
    if lib is None:
        raise EnvironmentMissing(f"Maven's resolver is not installed: {INSTALL_MAVEN}")
    if _helper.get("lib") == lib:
        return _helper["cls"]
    jars = _lib_jars(lib)
    classes = _helper_classes(cache, jars)
    from jdx.loaders import java_tools

    java_tools.ensure_jvm(cache)
    loader = java_tools.engine_loader([*jars, str(classes) + os.sep])
    _helper["cls"] = java_tools.jclass("jdx.maven.Resolve", loader)
    _helper["lib"] = lib
    return _helper["cls"]


def _file_digest(path: str) -> str | None:
    try:
        with open(path, "rb") as f:
            return hashlib.sha256(f.read()).hexdigest()[:32]
    except OSError:
        return None


def _stamp(path: str) -> list | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return [st.st_size, st.st_mtime_ns]


@functools.cache
def _helper_digest() -> str:
    """The helper's source hash: a changed helper (what it reports, how) answers anew, not from the cache."""
    return hashlib.sha256(HELPER_SOURCE.read_bytes()).hexdigest()[:16]


class ResolutionCache:
    """`<cache>/maven/<request hash>.json`: the answer plus (stamp, hash) of every POM involved."""

    def __init__(self, cache: Path):
        self.folder = cache / "maven"

    def _file(self, request: ResolveRequest) -> Path:
        key = hashlib.sha256(f"{CACHE_FORMAT}\n{_helper_digest()}\n{request.text()}".encode()).hexdigest()[:32]
        return self.folder / f"{key}.json"

    def get(self, request: ResolveRequest) -> str | None:
        try:
            entry = json.loads(self._file(request).read_text())
        except (OSError, ValueError):
            return None
        for path, (stamp, digest) in entry.get("files", {}).items():
            now = _stamp(path)
            if now == stamp:
                continue
            if (now is None) != (stamp is None) or _file_digest(path) != digest:
                return None
        return entry.get("answer")

    def put(self, request: ResolveRequest, answer: str, files: list[str]) -> None:
        entry = {"answer": answer, "files": {p: [_stamp(p), _file_digest(p)] for p in sorted(set(files))}}
        self.folder.mkdir(parents=True, exist_ok=True)
        target = self._file(request)
        tmp = target.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps(entry, sort_keys=True))
        os.replace(tmp, target)


def resolve(cache: Path, request: ResolveRequest, *, use_cache: bool = True) -> Resolution:
    """Runs (or reads from the cache) one resolution; EnvironmentMissing when Maven's resolver is absent."""
    store = ResolutionCache(cache)
    online = bool(request.remotes)
    answer = store.get(request) if use_cache and not online else None
    if answer is not None:
        result = parse_answer(answer)
        result.cached = True
        return result
    try:
        timeout = max(1, int(float(os.environ.get("JDX_MAVEN_TIMEOUT", TIMEOUT_MS / 1000)) * 1000))
    except ValueError:
        from jdx.errors import UsageError

        raise UsageError(f"JDX_MAVEN_TIMEOUT={os.environ['JDX_MAVEN_TIMEOUT']!r}: give seconds, e.g. 60") from None
    answer = str(_resolver_class(cache).resolve(request.text(), timeout))
    result = parse_answer(answer, online)
    if not online and not any(e.code in ("RESOLVE_TIMEOUT", "RESOLVE_FAILED", "RESOLVER_UNAVAILABLE")
                              for e in result.errors):
        files = [line.split("\t", 1)[1] for line in answer.splitlines() if line.startswith("pom\t")]
        files += [pom for _k, pom, _c in request.modules]
        for coord in result.missing:
            files += [str(_missing_path(Path(r), coord)) for r in (request.repo, *request.reads)]
        store.put(request, answer, files)
    return result


def _missing_path(repo: Path, coord: str) -> Path:
    parts = coord.split(":")
    g, a, ext, v = parts[0], parts[1], parts[2], parts[-1]
    cls = parts[3] if len(parts) == 5 else ""
    name = f"{a}-{v}" + (f"-{cls}" if cls else "") + f".{ext}"
    return repo.joinpath(*g.split("."), a, v, name)


def _with_local_versions(coord: str) -> str:
    """`g:a:jar:4.8 (the local repository has 5.0)`: the versions of a missing artifact an agent could add instead
    (`--coord g:a:5.0`): the nearest below and above the wanted one and the newest; the coordinate alone when the
    local repository has none."""
    from jdx.loaders.maven_repo import compare_versions, local_versions

    parts = coord.split(":")
    try:
        versions = local_versions(parts[0], parts[1]) if len(parts) >= 4 else []
    except OSError:
        versions = []
    if not versions:
        return coord
    above = next((i for i, v in enumerate(versions) if compare_versions(v, parts[-1]) > 0), len(versions))
    picked = [*versions[max(above - 1, 0):above + 1], versions[-1]]
    shown = sorted(set(picked), key=versions.index)
    more = f", {len(versions) - len(shown)} more" if len(versions) > len(shown) else ""
    return f"{coord} (the local repository has {', '.join(shown)}{more})"


def parse_answer(answer: str, online: bool = False) -> Resolution:
    result = Resolution(resolver="Maven Resolver (online)" if online else "Maven Resolver (offline)")
    missing_notes = []
    current, top = "", -1
    for line in answer.splitlines():
        parts = line.split("\t")
        kind = parts[0]
        if kind == "for":
            current, top = (parts[1] if len(parts) > 1 else ""), -1
            result.by_module.setdefault(current, [])
        elif kind == "top" and len(parts) >= 2:
            top = int(parts[1])
        elif kind == "dep" and len(parts) >= 5:
            result.by_module.setdefault(current, []).append(
                ResolvedDependency(parts[1], parts[2], parts[3] == "optional", parts[4], top))
        elif kind == "omitted" and len(parts) >= 4:
            result.omitted.append((parts[1], parts[2], parts[3]))
        elif kind == "pomonly" and len(parts) >= 2:
            result.pom_only.append(parts[1])
        elif kind == "root" and len(parts) >= 2:
            result.roots.append(parts[1])
        elif kind == "missing" and len(parts) >= 2:
            result.missing.append(parts[1])
            result.reasons[parts[1]] = parts[2] if len(parts) > 2 else "not found"
            missing_notes.append(parts[1])
        elif kind == "fetched" and len(parts) >= 3:
            result.fetched.append((parts[1], parts[2]))
        elif kind == "warn" and len(parts) >= 3:
            message = parts[2] + (RESOLVE_PROBLEM_CONSEQUENCE if parts[1] == "RESOLVE_PROBLEM" else "")
            result.warnings.append(Warning_(parts[1], message, ""))
        elif kind == "error" and len(parts) >= 3:
            result.errors.append(Warning_(parts[1], parts[2], ""))
    # a version mediation left out is not on the classpath: its POM missing costs nothing (Maven read it, or looked
    # for it, before the nearest version won)
    losers = {c for c, _, _ in result.omitted} - {d.coord for deps in result.by_module.values() for d in deps}
    result.warnings = [w for w in result.warnings
                       if not (w.code == "POM_MISSING" and w.message.split(": ", 1)[0] in losers)]
    if missing_notes:
        # an artifact missing whole has no POM either: its POM_MISSING says no more than this warning
        gone = set(missing_notes)
        pomless = [w for w in result.warnings if w.code == "POM_MISSING" and w.message.split(": ", 1)[0] in gone]
        result.warnings = [w for w in result.warnings if not any(w is p for p in pomless)]
        shown = ", ".join(_with_local_versions(c) for c in missing_notes[:20]) + (
            f" and {len(missing_notes) - 20} more" if len(missing_notes) > 20 else "")
        result.warnings.insert(0, Warning_("DEPENDENCY_MISSING",
                                           f"{len(missing_notes)} artifact{'' if len(missing_notes) == 1 else 's'} "
                                           f"not in the local repository: {shown}"
                                           + ("; their own dependencies are unknown too (no POM)" if pomless else ""),
                                           ""))
    for coord in result.pom_only:
        added = len(result.by_module.get("", []))
        result.warnings.append(Warning_(
            "POM_ONLY_ARTIFACT", f"{coord} is a pom-packaged artifact (a BOM or an aggregator): no jar, no classes; "
                                 + (f"its {added} dependenc{'y' if added == 1 else 'ies'} were added" if added else
                                    "it declares no dependencies, so nothing was added (a BOM's dependencyManagement "
                                    "only pins versions for a project that imports it)"), coord))
    seen: set[str] = set()
    for deps in result.by_module.values():  # module order: the first module's version of a library comes first
        for d in deps:
            if d.module not in seen:
                seen.add(d.module)
                result.dependencies.append(d)
    return result


def version_conflicts(resolution: Resolution) -> dict[str, dict[str, list[str]]]:
    """`g:a` -> {version: [modules]} for each library the modules of one resolution resolve to different versions."""
    versions: dict[str, dict[str, list[str]]] = {}
    for module, deps in resolution.by_module.items():
        for d in deps:
            versions.setdefault(d.module, {}).setdefault(d.version, []).append(module or "--coord")
    return {k: v for k, v in versions.items() if len(v) > 1}
