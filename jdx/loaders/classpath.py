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
    # a coordinate as given -> the roots it brings first (its artifact, its dependencies not brought earlier), so a
    # workspace places them where the coordinate stands among its other roots
    by_coord: dict[str, list[str]] = field(default_factory=dict)

    def add(self, path: str, name: str) -> bool:
        """Appends a root not there yet; whether it was."""
        if path in self.names:
            return False
        self.roots.append(path)
        self.names[path] = name
        return True

    def extend(self, other: Classpath) -> None:
        for path in other.roots:
            self.add(path, other.names[path])
        for coord, paths in other.by_coord.items():
            self.by_coord.setdefault(coord, paths)
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
    downloaded into `<cache-dir>/m2` from its repositories, in order.

    The coordinates are resolved together, as the dependencies of one POM in their order: Maven's mediation picks one
    version of each library (a coordinate beats what another coordinate pulls in; of two dependencies at one depth,
    the first declared wins), and each version it left out is said in `how`. A library asked for explicitly in several
    versions keeps every one (the first shadows the others, like a classpath): each later version is resolved in a
    round of its own."""
    from jdx.loaders import maven_resolver
    from jdx.loaders.maven_repo import Coordinate, fetch_cache, gradle_cache, local_repository

    out = Classpath()
    if not coords:
        return out
    given = list(dict.fromkeys(coords))
    parsed = [Coordinate.parse(c) for c in given]
    repo, repo_how = local_repository()
    m2 = fetch_cache(cache)
    reads = (str(m2),) if m2.is_dir() else ()
    cached = fetched = 0
    rounds = _rounds(parsed)
    omitted: list[str] = []
    for members in rounds:
        asked = tuple(parsed[i].resolver_form() for i in members)
        request = maven_resolver.ResolveRequest(repo=repo, scopes=("compile", "runtime"), coords=asked, reads=reads)
        try:
            resolution = maven_resolver.resolve(cache, request)
            if fetch is not None and fetch.enabled and \
                    (resolution.missing or not all(_present(parsed[i], repo, m2) for i in members)):
                # online: downloads land in <cache-dir>/m2; the local repository and the Gradle cache are read
                # first and never written
                gradle = gradle_cache()[0]
                resolution = maven_resolver.resolve(cache, maven_resolver.ResolveRequest(
                    repo=m2, scopes=("compile", "runtime"), coords=asked, reads=(str(repo),),
                    gradle=(str(gradle),) if gradle.is_dir() else (), remotes=fetch.repositories, sources=True))
                fetched += 1
        except EnvironmentMissing as exc:
            return _without_resolver(Classpath(), dict(zip(given, parsed)), repo, repo_how, exc)
        _add_coordinates(out, resolution, [given[i] for i in members])
        omitted += [_omitted(*o) for o in resolution.omitted]
        for coord, url in resolution.fetched:
            out.warnings.append(Warning_("FETCHED", f"{_display(coord)} from {url}", _display(coord)))
        cached += resolution.cached
        for i in members:
            _check_asked(out, parsed[i], repo, m2, resolution, fetch, cache)
    out.how.append(f"--coord {' '.join(given)}: Maven Resolver (offline) over {repo} ({repo_how})"
                   + (f" and {m2} (fetched)" if reads or fetched else "")
                   + (", resolved together as one POM's dependencies (nearest wins)" if len(given) > 1 else "")
                   + (f"; {len(rounds) - 1} more round(s) for the versions asked for twice" if len(rounds) > 1 else "")
                   + (f", {cached} of {len(rounds)} cached" if cached else "")
                   + (f"; online for {fetched}: {', '.join(fetch.repositories)}" if fetched else ""))
    out.how.extend(dict.fromkeys(omitted))
    return out


def _rounds(parsed) -> list[list[int]]:
    """The coordinates' indexes in resolution rounds: the first version asked for of each library in the first
    round, a second version of one in the second, and so on (one round resolves one version of each library)."""
    rounds: list[list[int]] = []
    seen: dict[tuple, int] = {}
    for i, c in enumerate(parsed):
        key = (c.group, c.artifact, c.classifier, c.extension)
        n = seen[key] = seen.get(key, -1) + 1
        if n == len(rounds):
            rounds.append([])
        rounds[n].append(i)
    return rounds


def _add_coordinates(out: Classpath, resolution, coords: list[str]) -> None:
    """`add_resolution` for coordinates resolved together, each one's roots recorded under it (`by_coord`)."""
    for d in resolution.dependencies:
        if os.path.exists(d.path) and out.add(d.path, d.display) and 0 <= d.top < len(coords):
            out.by_coord.setdefault(coords[d.top], []).append(d.path)
    for coord in coords:
        out.by_coord.setdefault(coord, [])
    out.warnings.extend(resolution.warnings)
    out.warnings.extend(resolution.errors)


def _omitted(coord: str, winner: str, wanted_by: str) -> str:
    """What Maven's mediation left out, as `ws info` says it."""
    by = f"wanted by {_display(wanted_by)}" if wanted_by else "asked for"
    return f"--coord mediation: {_display(coord)} ({by}) omitted for {winner}"


def _display(coord: str) -> str:
    """`g:a:v[:classifier]` of the resolver's `g:a:ext[:cls]:v`."""
    parts = coord.split(":")
    if len(parts) < 4:
        return coord
    return f"{parts[0]}:{parts[1]}:{parts[-1]}" + (f":{parts[3]}" if len(parts) == 5 else "")


def _present(c, repo: Path, m2: Path) -> bool:
    return c.repository_path(repo).is_file() or c.repository_path(m2).is_file()


def _check_asked(out: Classpath, c, repo: Path, m2: Path | None = None, resolution=None, fetch=None,
                 cache: Path | None = None) -> None:
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
    from jdx.loaders.maven_repo import versions_note

    out.unreadable.append(Warning_("ARTIFACT_READ_ERROR", f"--coord {c}: not in the local repository {repo} "
                                                          f"(--fetch to download it; "
                                                          f"{versions_note(c.group, c.artifact, cache)})", str(c)))


def _without_resolver(out: Classpath, parsed: dict, repo: Path, repo_how: str, exc: Exception) -> Classpath:
    """Each coordinate's artifact alone (`parsed`: the coordinates as given -> parsed)."""
    out.how.append(f"--coord: {len(parsed)} artifact(s) from {repo} ({repo_how}); dependencies not resolved")
    out.warnings.append(Warning_("MAVEN_RESOLVER_UNAVAILABLE", f"{exc}; --coord adds the artifact alone, "
                                                                 "without its dependencies"))
    missing = []
    for given, c in parsed.items():
        out.by_coord[given] = []
        jar = c.repository_path(repo)
        if jar.is_file() and jar.suffix == ".pom":  # a pom-packaged artifact (a BOM): no classes, only dependencies
            out.warnings.append(Warning_("POM_ONLY_ARTIFACT", f"--coord {c} is pom-packaged: it has no classes, and "
                                                              "its dependencies need the resolver", str(c)))
        elif jar.is_file():
            if out.add(str(jar), str(c)):
                out.by_coord[given].append(str(jar))
        else:
            missing.append(str(c))
            _check_asked(out, c, repo)
    if missing:
        out.warnings.append(Warning_("DEPENDENCY_MISSING", f"{len(missing)} artifact(s) not in the local "
                                                           f"repository {repo}: {', '.join(missing)}"))
    return out
