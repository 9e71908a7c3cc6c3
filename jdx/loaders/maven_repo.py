"""Where Maven and Gradle keep artifacts on this machine, and what coordinates a jar has (spec §5.1, §13).

The local Maven repository is the first of `JDX_MAVEN_REPO`, the `localRepository` of `~/.m2/settings.xml`
(then the global `/etc/maven/settings.xml`), `~/.m2/repository`. The Gradle cache is the first of
`JDX_GRADLE_CACHE` (a `files-2.1` directory), `$GRADLE_USER_HOME/caches/modules-2/files-2.1`,
`~/.gradle/caches/modules-2/files-2.1`. Nothing here reads the network.
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
            raise UsageError(f"bad coordinate {text!r}: write group:artifact:version (e.g. "
                             "com.google.code.gson:gson:2.10.1)")
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
        name = f"{self.artifact}-{self.version}" + (f"-{self.classifier}" if self.classifier else "")
        return repo.joinpath(*self.group.split("."), self.artifact, self.version, f"{name}.{self.extension}")


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


def gradle_cache() -> tuple[Path, str]:
    """(the Gradle `files-2.1` cache, how it was found); it may not exist."""
    explicit = os.environ.get("JDX_GRADLE_CACHE")
    if explicit:
        return Path(explicit).expanduser().absolute(), "JDX_GRADLE_CACHE"
    home = os.environ.get("GRADLE_USER_HOME")
    base = Path(home).expanduser() if home else Path.home() / ".gradle"
    return base / "caches" / "modules-2" / "files-2.1", ("GRADLE_USER_HOME" if home else "~/.gradle")


def coordinate_of_path(path: str) -> str | None:
    """`g:a:v[:cls]` of a jar in a Maven repository (`…/g/r/o/u/p/a/v/a-v[-cls].jar`) or in the Gradle cache
    (`…/files-2.1/g.r.o.u.p/a/v/<sha1>/a-v[-cls].jar`); None elsewhere."""
    parts = Path(path).parts
    if len(parts) < 4 or not parts[-1].endswith(".jar"):
        return None
    stem = parts[-1][:-4]
    if len(parts) >= 6 and parts[-6] == "files-2.1":
        group, artifact, version = parts[-5], parts[-4], parts[-3]
        return _with_classifier(group, artifact, version, stem)
    artifact, version = parts[-3], parts[-2]
    if not stem.startswith(f"{artifact}-{version}"):
        return None
    marker = next((i for i in range(len(parts) - 4, 0, -1) if parts[i] == "repository"), None)
    if marker is None:
        return None
    group = ".".join(parts[marker + 1:-3])
    return _with_classifier(group, artifact, version, stem) if group else None


def _with_classifier(group: str, artifact: str, version: str, stem: str) -> str | None:
    base = f"{artifact}-{version}"
    if stem == base:
        return f"{group}:{artifact}:{version}"
    if stem.startswith(base + "-"):
        return f"{group}:{artifact}:{version}:{stem[len(base) + 1:]}"
    return None


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
