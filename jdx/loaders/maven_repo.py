"""Where Maven and Gradle keep artifacts on this machine, and what coordinates a jar has (spec §5.1, §13).

The local Maven repository is the first of `JDX_MAVEN_REPO`, the `localRepository` of `~/.m2/settings.xml`
(then the global `/etc/maven/settings.xml`), `~/.m2/repository`. The Gradle cache is the first of
`JDX_GRADLE_CACHE` (a `files-2.1` directory), `$GRADLE_USER_HOME/caches/modules-2/files-2.1`,
`~/.gradle/caches/modules-2/files-2.1`. Nothing here reads the network.

Fetching (spec §13) is opt-in: `--fetch`, `fetch = true` in `<config-dir>/config.toml` or `JDX_FETCH=1`; the
remote repositories are the `--repo` URLs in flag order, then the config's `repos = [...]`, then Maven Central
(`JDX_MAVEN_CENTRAL` replaces its URL). Downloads go to `<cache-dir>/m2/`, never to the local repository.
"""

from __future__ import annotations

import os
import re
import zipfile
from dataclasses import dataclass
from pathlib import Path
from xml.etree import ElementTree


COORD = re.compile(r"^[A-Za-z0-9_.\-+]+:[A-Za-z0-9_.\-+]+:[A-Za-z0-9_.\-+]+(:[A-Za-z0-9_.\-+]+){0,2}$")
SETTINGS_MAX = 1 << 20


@dataclass(frozen=True)
class Coordinate:
    """`group:artifact:version`, optionally `:extension` or `:extension:classifier` (Maven's order is
    `g:a[:ext[:cls]]:v`; jdx also accepts `g:a:v:cls` as people write it)."""

    group: str
    artifact: str
    version: str
    classifier: str = ""
    extension: str = "jar"

    @classmethod
    def parse(cls, text: str) -> Coordinate:
        from jdx.errors import UsageError

        if not COORD.match(text or ""):
            raise UsageError(_bad_coordinate(text or ""))
        parts = text.split(":")
        if len(parts) == 3:
            return cls(*parts)
        if len(parts) == 4:
            return cls(parts[0], parts[1], parts[2], classifier=parts[3])
        return cls(parts[0], parts[1], parts[4], classifier=parts[3], extension=parts[2])

    @property
    def gav(self) -> str:
        return f"{self.group}:{self.artifact}:{self.version}"

    def __str__(self) -> str:
        return self.gav + (f":{self.classifier}" if self.classifier else "")

    def resolver_form(self) -> str:
        """`g:a:v:ext:cls` as the resolver helper reads it."""
        return f"{self.gav}:{self.extension}:{self.classifier}" if self.classifier or self.extension != "jar" \
            else self.gav

    def repository_path(self, repo: Path) -> Path:
        """Where the artifact lies in a Maven repository; a pom-packaged artifact (a BOM) asked for as a jar is its
        POM, since it has no jar."""
        name = f"{self.artifact}-{self.version}" + (f"-{self.classifier}" if self.classifier else "")
        folder = repo.joinpath(*self.group.split("."), self.artifact, self.version)
        path = folder / f"{name}.{self.extension}"
        if self.extension == "jar" and not self.classifier and not path.is_file():
            pom = folder / f"{name}.pom"
            if pom_packaging(pom) == "pom":
                return pom
        return path


RANGE = re.compile(r"[\[\](),]")  # Maven's version range syntax: [1.0,2.0), (,1.0], [1.5]


def _bad_coordinate(text: str) -> str:
    """Why a --coord value is no coordinate, with the versions the local repository has when it names an
    artifact: one without a version (`g:a`) or with a version range (`g:a:[1.0,2.0)`)."""
    parts = text.split(":")
    name = re.compile(r"^[A-Za-z0-9_.\-+]+$")
    if len(parts) >= 2 and name.match(parts[0]) and name.match(parts[1]):
        if len(parts) == 2:
            return f"coordinate {text!r} has no version: write group:artifact:version; " + versions_note(*parts)
        if RANGE.search(":".join(parts[2:])):
            return (f"--coord {text}: version ranges are not supported: give one version; "
                    + versions_note(parts[0], parts[1]))
    return f"bad coordinate {text!r}: write group:artifact:version (e.g. com.google.code.gson:gson:2.10.1)"


def local_versions(group: str, artifact: str, cache: Path | None = None) -> list[str]:
    """The versions of `group:artifact` in the local repository (and, given the cache dir, among those fetched into
    `<cache-dir>/m2`) that `--coord` can read (a jar; a pom-packaged artifact's POM), oldest first as Maven orders
    them."""
    from functools import cmp_to_key

    found = {d.name for d in _version_dirs(group, artifact, cache) if _readable_version(d, artifact)}
    return sorted(found, key=cmp_to_key(compare_versions))


def _version_dirs(group: str, artifact: str, cache: Path | None) -> list[Path]:
    repos = [local_repository()[0]] + ([fetch_cache(cache)] if cache is not None else [])
    out: list[Path] = []
    for repo in repos:
        try:
            out += [d for d in repo.joinpath(*group.split("."), artifact).iterdir() if d.is_dir()]
        except OSError:
            continue
    return out


def pom_only_versions(group: str, artifact: str, cache: Path | None = None) -> list[str]:
    """The versions whose POM the local repository holds without their jar (Maven downloaded it to resolve a
    dependency tree, never the artifact itself): `--coord` cannot read them, and a message says so."""
    from functools import cmp_to_key

    found = {d.name for d in _version_dirs(group, artifact, cache)
             if (d / f"{artifact}-{d.name}.pom").is_file() and not _readable_version(d, artifact)}
    return sorted(found, key=cmp_to_key(compare_versions))


def _readable_version(folder: Path, artifact: str) -> bool:
    """A version directory holding a jar (with or without a classifier) or a pom-packaged artifact's POM."""
    base = f"{artifact}-{folder.name}"
    jars = [f for f in folder.glob(f"{base}*.jar") if not f.name.endswith(("-sources.jar", "-javadoc.jar"))]
    return bool(jars) or pom_packaging(folder / f"{base}.pom") == "pom"


def versions_note(group: str, artifact: str, cache: Path | None = None) -> str:
    """`versions in the local repository: 1.0, 2.0` (or that it has none), for a message about a coordinate."""
    versions = local_versions(group, artifact, cache)
    poms = pom_only_versions(group, artifact, cache)
    only = (f"{', '.join(poms[-VERSIONS_SHOWN:])} {'has' if len(poms) == 1 else 'have'} only a POM there, no jar "
            "(Maven read it for a dependency tree)") if poms else ""
    if not versions:
        return f"the local repository has no jar of {group}:{artifact}" + (f": {only}" if only else "")
    shown = ", ".join(versions[-VERSIONS_SHOWN:])
    older = len(versions) - VERSIONS_SHOWN
    return f"versions of {group}:{artifact} in the local repository: {shown}" + (f" ({older} older)" if older > 0
                                                                                 else "") + (f"; {only}" if only
                                                                                             else "")


VERSIONS_SHOWN = 12  # the newest


def in_local_repository(text: str, cache: Path | None = None) -> bool:
    """Whether a coordinate's own artifact lies in the local Maven repository (or, given the cache dir, among the
    artifacts fetched into `<cache-dir>/m2`), where `--coord` reads it offline."""
    from jdx.errors import UsageError

    try:
        c = Coordinate.parse(text)
        return c.repository_path(local_repository()[0]).is_file() or \
            (cache is not None and c.repository_path(fetch_cache(cache)).is_file())
    except (UsageError, OSError):
        return False


def pom_packaging(pom: Path) -> str | None:
    """The `<packaging>` of a POM file (`jar` when absent), None when it cannot be read."""
    try:
        if pom.stat().st_size > SETTINGS_MAX * 4:
            return None
        root = ElementTree.fromstring(pom.read_bytes())
    except (OSError, ElementTree.ParseError):
        return None
    for el in root:
        if el.tag.rsplit("}", 1)[-1] == "packaging":
            return (el.text or "").strip() or "jar"
    return "jar"


def _settings_local_repository(path: Path) -> str | None:
    try:
        if path.stat().st_size > SETTINGS_MAX:
            return None
        root = ElementTree.fromstring(path.read_bytes())
    except (OSError, ElementTree.ParseError):
        return None
    for el in root.iter():
        if el.tag.rsplit("}", 1)[-1] == "localRepository" and el.text and el.text.strip():
            text = el.text.strip().replace("${user.home}", str(Path.home()))
            text = re.sub(r"\$\{env\.([A-Za-z_][A-Za-z0-9_]*)\}", lambda m: os.environ.get(m.group(1), ""), text)
            return text
    return None


def local_repository() -> tuple[Path, str]:
    """(the local Maven repository, how it was found)."""
    explicit = os.environ.get("JDX_MAVEN_REPO")
    if explicit:
        return Path(explicit).expanduser().absolute(), "JDX_MAVEN_REPO"
    for settings in (Path.home() / ".m2" / "settings.xml", Path("/etc/maven/settings.xml")):
        found = _settings_local_repository(settings)
        if found:
            return Path(found).expanduser().absolute(), f"localRepository in {settings}"
    return Path.home() / ".m2" / "repository", "~/.m2/repository"


CENTRAL = "https://repo.maven.apache.org/maven2"


@dataclass(frozen=True)
class FetchSettings:
    """Whether `--coord` may download, and from where (in order, Central last)."""

    enabled: bool = False
    repositories: tuple[str, ...] = ()


def fetch_cache(cache: Path) -> Path:
    """`<cache-dir>/m2`: where downloaded artifacts go, a Maven-layout repository read offline afterwards."""
    return cache / "m2"


def _fetch_config() -> dict:
    """`fetch` and `repos` of `<config-dir>/config.toml` ({} when absent or unreadable)."""
    import tomllib

    from jdx.dirs import config_dir

    try:
        data = tomllib.loads((config_dir() / "config.toml").read_text())
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return {}
    return data if isinstance(data, dict) else {}


def _check_url(url: str, where: str) -> str:
    from urllib.parse import urlparse

    from jdx.errors import UsageError

    parsed = urlparse(url)
    if parsed.scheme not in ("http", "https", "file") or (parsed.scheme != "file" and not parsed.netloc) \
            or any(ch in url for ch in "\t\n\r"):
        raise UsageError(f"{where} {url!r}: give a Maven repository base URL (http://, https:// or file:)")
    return url.rstrip("/")


def fetch_settings(flag: bool = False, repos=()) -> FetchSettings:
    """The `--fetch`/`--repo` flags merged with `JDX_FETCH` and the config file's `fetch`/`repos`."""
    from jdx.errors import UsageError

    config = _fetch_config()
    enabled = bool(flag) or os.environ.get("JDX_FETCH", "") in ("1", "true", "yes") or config.get("fetch") is True
    extra = config.get("repos", [])
    if not isinstance(extra, list) or not all(isinstance(r, str) for r in extra):
        raise UsageError("config.toml: 'repos' must be a list of repository URLs")
    urls = [_check_url(r, "--repo") for r in repos] + [_check_url(r, "config.toml repos:") for r in extra]
    central = os.environ.get("JDX_MAVEN_CENTRAL", CENTRAL)
    if central:
        urls.append(_check_url(central, "JDX_MAVEN_CENTRAL"))
    return FetchSettings(enabled, tuple(dict.fromkeys(urls)))


def gradle_cache() -> tuple[Path, str]:
    """(the Gradle `files-2.1` cache, how it was found); it may not exist."""
    explicit = os.environ.get("JDX_GRADLE_CACHE")
    if explicit:
        return Path(explicit).expanduser().absolute(), "JDX_GRADLE_CACHE"
    home = os.environ.get("GRADLE_USER_HOME")
    base = Path(home).expanduser() if home else Path.home() / ".gradle"
    return base / "caches" / "modules-2" / "files-2.1", ("GRADLE_USER_HOME" if home else "~/.gradle")


def coordinate_in_jar(path: str) -> str | None:
    """`g:a:v` from the one `META-INF/maven/*/*/pom.properties` of a jar; None when absent or several."""
    try:
        with zipfile.ZipFile(path) as z:
            props = [n for n in z.namelist() if n.startswith("META-INF/maven/") and n.endswith("/pom.properties")]
            if len(props) != 1 or z.getinfo(props[0]).file_size > 64 * 1024:
                return None
            text = z.read(props[0]).decode("utf-8", "replace")
    except (OSError, zipfile.BadZipFile, KeyError, ValueError):
        return None
    values = {}
    for line in text.splitlines():
        key, eq, value = line.partition("=")
        if eq:
            values[key.strip()] = value.strip()
    if all(values.get(k) for k in ("groupId", "artifactId", "version")):
        return f"{values['groupId']}:{values['artifactId']}:{values['version']}"
    return None


# --- repository mode: `--jars <a local Maven repository root>` --------------------------------------------------

_QUALIFIER_RANK = {"alpha": 0, "a": 0, "beta": 1, "b": 1, "milestone": 2, "m": 2, "rc": 3, "cr": 3,
                   "snapshot": 4, "": 5, "ga": 5, "final": 5, "release": 5, "sp": 6}
_RELEASE = (1, 5, "")


def _version_items(version: str) -> list[tuple]:
    """Maven's ComparableVersion, reduced: numbers compare as numbers and rank above qualifiers; qualifiers rank
    alpha < beta < milestone < rc < snapshot < release < sp < any other (alphabetically)."""
    items: list[tuple] = []
    for token in re.findall(r"\d+|[a-z]+", version.lower()):
        if token.isdigit():
            items.append((2, int(token), ""))
        else:
            rank = _QUALIFIER_RANK.get(token)
            items.append((1, rank, "") if rank is not None else (1, 7, token))
    return items


def compare_versions(left: str, right: str) -> int:
    """-1, 0 or 1 as Maven orders versions (1.9 < 1.10, 2.0-rc1 < 2.0 < 2.0.1, 1.0 == 1.0.0)."""
    a, b = _version_items(left), _version_items(right)
    for i in range(max(len(a), len(b))):
        x = a[i] if i < len(a) else None
        y = b[i] if i < len(b) else None
        if x is None:  # a missing item is 0 next to a number, a release next to a qualifier
            x = (2, 0, "") if y[0] == 2 else _RELEASE
        if y is None:
            y = (2, 0, "") if x[0] == 2 else _RELEASE
        if x != y:
            return -1 if x < y else 1
    return (left > right) - (left < right)  # equal as versions: a stable order all the same


def _main_jar(rel: tuple[str, ...]) -> bool:
    """`<group dirs>/<artifact>/<version>/<artifact>-<version>.jar` (a snapshot's timestamped jar included)."""
    if len(rel) < 4:
        return False
    artifact, version, name = rel[-3], rel[-2], rel[-1]
    stem = name[:-4]
    if stem == f"{artifact}-{version}":
        return True
    if version.endswith("-SNAPSHOT"):
        base = f"{artifact}-{version[:-len('-SNAPSHOT')]}-"
        return bool(re.fullmatch(re.escape(base) + r"\d{8}\.\d{6}-\d+", stem))
    return False


def _in_layout(rel: tuple[str, ...]) -> bool:
    """A jar where a Maven repository keeps it, with or without a classifier."""
    if len(rel) < 4:
        return False
    artifact, version, name = rel[-3], rel[-2], rel[-1]
    if name.startswith(f"{artifact}-{version}"):
        return True
    return version.endswith("-SNAPSHOT") and name.startswith(f"{artifact}-{version[:-len('-SNAPSHOT')]}-")


def repository_jars(root: Path, jars: list[Path], all_versions: bool = False) -> list[Path] | None:
    """When `root` is laid out as a Maven repository (every jar under it at `<group>/<artifact>/<version>/`):
    the main jar of the newest version of each artifact (every version, newest first, with `all_versions`),
    ordered by group and artifact. Jars with a classifier are left out. None when `root` is no repository. `root`
    may be any subtree of a repository (a group, an artifact, a version directory): the layout is read from each
    jar's whole path, so `--jars ~/.m2/repository/org/junit/jupiter/junit-jupiter-api` gives its newest version."""
    rels = [Path(os.path.abspath(p)).parts for p in jars]
    if not rels or not all(_in_layout(r) for r in rels):
        return None
    from functools import cmp_to_key

    versions: dict[tuple[str, ...], dict[str, list[Path]]] = {}
    for path, rel in zip(jars, rels):
        if _main_jar(rel):
            versions.setdefault(rel[:-2], {}).setdefault(rel[-2], []).append(path)
    out: list[Path] = []
    for coordinate in sorted(versions):
        by_version = versions[coordinate]
        newest_first = sorted(by_version, key=cmp_to_key(compare_versions), reverse=True)
        for version in newest_first if all_versions else newest_first[:1]:
            out.append(sorted(by_version[version])[-1])  # a snapshot's newest timestamped build
    return out
