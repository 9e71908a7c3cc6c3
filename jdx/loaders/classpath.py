"""Roots a workspace gets from Maven coordinates (`--coord g:a:v`, spec §5.1 `MavenCoord`, §13).

A coordinate adds its artifact and its runtime dependencies (compile + runtime scopes), resolved offline
from the local repository (and what `--fetch` downloaded before into `<cache-dir>/m2`) by Maven's resolver, or
online with `--fetch` when something is absent; each root is named by its coordinates, so provenance says
`com.google.code.gson:gson:2.10.1`, not a file name. Without Maven's resolver the artifact alone is added,
with a warning.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from jdx.errors import EnvironmentMissing, Warning_


@dataclass
class Classpath:
    """Roots (paths, in classpath order) with display names, source dirs, warnings and how they were found."""

    roots: list[str] = field(default_factory=list)
    names: dict[str, str] = field(default_factory=dict)
    src: list[str] = field(default_factory=list)
    warnings: list[Warning_] = field(default_factory=list)
    how: list[str] = field(default_factory=list)
    unreadable: list[Warning_] = field(default_factory=list)  # roots asked for by name that are not there

    def add(self, path: str, name: str) -> None:
        if path not in self.names:
            self.roots.append(path)
            self.names[path] = name

    def extend(self, other: Classpath) -> None:
        for path in other.roots:
            self.add(path, other.names[path])
        self.src.extend(s for s in other.src if s not in self.src)
        self.warnings.extend(other.warnings)
        self.how.extend(other.how)
        self.unreadable.extend(other.unreadable)


def whole_globs(jars: list[str], all_versions: bool = False) -> tuple[list[str], list[Warning_]]:
    """The --jars values with each glob that holds the classpath separator (`libs/co:lon/*.jar`) and matches files
    as a whole replaced by those files, with the warnings of its skipped matches: a value is split into classpath
    entries (`a.jar:b.jar`) only when it names nothing whole, as a plain path holding ':' is kept whole
    (`roots.classpath_entries`), and a glob names what it matches."""
    from jdx.loaders.roots import expand_jar_arg

    out: list[str] = []
    warnings: list[Warning_] = []
    for value in jars:
        text = os.path.expanduser(value)
        if os.pathsep in value and any(ch in value for ch in "*?[") and not os.path.exists(text):
            paths, skipped = expand_jar_arg(value, all_versions)
            if paths:
                out.extend(str(p) for p in paths)
                warnings.extend(skipped)
                continue
        out.append(value)
    return out, warnings


def add_resolution(out: Classpath, resolution) -> None:
    """The resolved dependencies of a Resolution into `out`, in Maven's classpath order."""
    for d in resolution.dependencies:
        if os.path.exists(d.path):  # a reactor module not built yet has no class directory
            out.add(d.path, d.display)
    out.warnings.extend(resolution.warnings)
    out.warnings.extend(resolution.errors)


def coordinate_roots(cache: Path, coords: list[str], fetch=None) -> Classpath:
    """The artifacts of `coords` and their runtime dependencies: offline from the local repository and what was
    fetched before (`<cache-dir>/m2`); with `fetch` enabled (a maven_repo.FetchSettings), what is absent there is
    downloaded into `<cache-dir>/m2` from its repositories, in order."""
    from jdx.loaders import maven_resolver
    from jdx.loaders.maven_repo import Coordinate, fetch_cache, gradle_cache, local_repository

    out = Classpath()
    if not coords:
        return out
    parsed = [Coordinate.parse(c) for c in coords]
    repo, repo_how = local_repository()
    m2 = fetch_cache(cache)
    reads = (str(m2),) if m2.is_dir() else ()
    # one resolution per coordinate: two versions of one library asked for explicitly both stay (no conflict
    # resolution between them); the first one on the classpath shadows the other
    cached = fetched = 0
    for c in parsed:
        request = maven_resolver.ResolveRequest(repo=repo, scopes=("compile", "runtime"), coords=(c.resolver_form(),),
                                                reads=reads)
        try:
            resolution = maven_resolver.resolve(cache, request)
            if fetch is not None and fetch.enabled and (resolution.missing or not _present(c, repo, m2)):
                # online: downloads land in <cache-dir>/m2; the local repository and the Gradle cache are read
                # first and never written
                gradle = gradle_cache()[0]
                resolution = maven_resolver.resolve(cache, maven_resolver.ResolveRequest(
                    repo=m2, scopes=("compile", "runtime"), coords=(c.resolver_form(),), reads=(str(repo),),
                    gradle=(str(gradle),) if gradle.is_dir() else (), remotes=fetch.repositories, sources=True))
                fetched += 1
        except EnvironmentMissing as exc:
            return _without_resolver(out, parsed, repo, repo_how, exc)
        add_resolution(out, resolution)
        for coord, url in resolution.fetched:
            out.warnings.append(Warning_("FETCHED", f"{_display(coord)} from {url}", _display(coord)))
        cached += resolution.cached
        _check_asked(out, c, repo, m2, resolution, fetch)
    out.how.append(f"--coord {' '.join(coords)}: Maven Resolver (offline) over {repo} ({repo_how})"
                   + (f" and {m2} (fetched)" if reads or fetched else "")
                   + (f", {cached} of {len(parsed)} cached" if cached else "")
                   + (f"; online for {fetched}: {', '.join(fetch.repositories)}" if fetched else ""))
    return out


def _display(coord: str) -> str:
    """`g:a:v[:classifier]` of the resolver's `g:a:ext[:cls]:v`."""
    parts = coord.split(":")
    if len(parts) < 4:
        return coord
    return f"{parts[0]}:{parts[1]}:{parts[-1]}" + (f":{parts[3]}" if len(parts) == 5 else "")


def _present(c, repo: Path, m2: Path) -> bool:
    return c.repository_path(repo).is_file() or c.repository_path(m2).is_file()


def _check_asked(out: Classpath, c, repo: Path, m2: Path | None = None, resolution=None, fetch=None) -> None:
    """A coordinate asked for whose own artifact is not in the local repository (nor fetched) is an explicit root
    missing: an error naming it before any answer (spec §16), as a missing --jars path is; a missing dependency
    only warns."""
    if c.repository_path(repo).is_file() or (m2 is not None and c.repository_path(m2).is_file()):
        return
    if resolution is not None and any(_display(d.coord) == str(c) for d in resolution.dependencies):
        return  # from the Gradle cache
    if fetch is not None and fetch.enabled:
        why = ""
        if resolution is not None:
            why = next((r for k, r in resolution.reasons.items() if _display(k) == str(c)), "")
            if not why and resolution.errors:
                why = resolution.errors[0].message
        why = " ".join(why.split())
        if len(why) > 400:
            why = why[:400] + "…"
        out.unreadable.append(Warning_(
            "ARTIFACT_READ_ERROR", f"--coord {c}: not in the local repository {repo} and not fetched from "
                                   f"{', '.join(fetch.repositories) or 'no repository'}" + (f" ({why})" if why else ""),
            str(c)))
        return
    out.unreadable.append(Warning_("ARTIFACT_READ_ERROR", f"--coord {c}: not in the local repository {repo} "
                                                          "(--fetch to download it)", str(c)))


def _without_resolver(out: Classpath, parsed, repo: Path, repo_how: str, exc: Exception) -> Classpath:
    out.how.append(f"--coord: {len(parsed)} artifact(s) from {repo} ({repo_how}); dependencies not resolved")
    out.warnings.append(Warning_("MAVEN_RESOLVER_UNAVAILABLE", f"{exc}; --coord adds the artifact alone, "
                                                                 "without its dependencies"))
    missing = []
    for c in parsed:
        jar = c.repository_path(repo)
        if jar.is_file() and jar.suffix == ".pom":  # a pom-packaged artifact (a BOM): no classes, only dependencies
            out.warnings.append(Warning_("POM_ONLY_ARTIFACT", f"--coord {c} is pom-packaged: it has no classes, and "
                                                              "its dependencies need the resolver", str(c)))
        elif jar.is_file():
            out.add(str(jar), str(c))
        else:
            missing.append(str(c))
            _check_asked(out, c, repo)
    if missing:
        out.warnings.append(Warning_("DEPENDENCY_MISSING", f"{len(missing)} artifact(s) not in the local "
                                                           f"repository {repo}: {', '.join(missing)}"))
    return out
