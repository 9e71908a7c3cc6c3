"""Where a daemon lives (spec §14.3, §17.1): one socket per workspace and jdx version, pid and lock beside it.

The runtime dir is the first of `JDX_RUNTIME_DIR`, `$XDG_RUNTIME_DIR/jdx`, `$TMPDIR/jdx-$UID`,
`<cache-dir>/run` that is usable (a shared-tmp candidate must be ours and private). Files are named
`<key>-v<version>.{sock,pid,lock,log,cache}`, the key a hash of the workspace and of the jdx code on disk
(code_fingerprint): an upgraded, reinstalled or edited-in-place jdx never talks to a daemon running older
code. Standard library only: the thin client imports this module.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
import sys
from dataclasses import dataclass
from pathlib import Path

from jdx import __version__
from jdx.dirs import cache_dir
from jdx.errors import UsageError

_FINGERPRINT: list[str] = []  # this process's, computed once (code_fingerprint)

# sizeof(sockaddr_un.sun_path), the terminating NUL included
SUN_PATH_MAX = 104 if sys.platform == "darwin" else 108
WORKSPACE_KEYS = ("workspace", "jars", "src", "sources", "jdk", "cache_dir", "config_dir", "coords", "project",
                  "tests", "all_versions", "near_project")
# the environment a daemon inherits from the client that started it and that changes its answers: which JDK is the
# workspace's and runs the loaders, which ASM and decompilers read classes, where Maven and Gradle artifacts are,
# whether the network may be used. A client whose environment differs gets its own daemon (a daemon started under
# JAVA_HOME=<JDK 17> answered a JDK 25 client about JDK 17's classes).
ANSWER_ENV = ("JAVA_HOME", "JDX_ASM_JAR", "JDX_DECOMPILER", "JDX_VINEFLOWER_JAR", "JDX_PROCYON_DIR", "JDX_MAVEN_REPO",
              "JDX_MAVEN_LIB", "JDX_MAVEN_CENTRAL", "JDX_GRADLE_CACHE", "GRADLE_USER_HOME", "JDX_FETCH")


def workspace_flags(workspace: str | None = None, jars=(), src=(), sources=(), jdk: bool | None = None,
                    cache_dir: str | None = None, coords=(), project: str | None = None, tests: bool = False,
                    all_versions: bool = False) -> dict:
    """The global workspace flags as the plain dict a daemon is keyed by (paths absolute, order kept). With no
    workspace named, the project the current directory belongs to (spec §13 auto-discovery) is part of the key."""
    flags = {"workspace": workspace or None, "jars": _absolute(jars), "src": _absolute(src),
             "sources": _absolute(sources), "jdk": jdk, "cache_dir": _absolute([cache_dir])[0] if cache_dir else None}
    if coords:
        flags["coords"] = list(coords)
    if tests:
        flags["tests"] = True
    if all_versions:
        flags["all_versions"] = True
    if project:  # the project's root, as the answer finds it: `--project proj/src` shares proj's daemon
        path = _absolute([project])[0]
        found = project_root_of(path)
        flags["project"] = found if found is not None else path
    elif not (workspace or jars or src or coords):
        from jdx.loaders.project_root import find_project_root

        found = find_project_root(".")
        if found is not None:
            # under a default workspace (JDX_WORKSPACE, `jdx ws use`) the project only keys the daemon, which answers
            # from the default: handed to it as --project, it would win over the default (an explicit flag does)
            flags["near_project" if _default_workspace() else "project"] = found[0]
    return flags


def project_root_of(path: str) -> str | None:
    """The root of the project `--project path` names (path itself or a directory above it), None when the
    directory does not exist or has no project there or above (the answer is a usage error, exit 3)."""
    from jdx.loaders.project_root import find_project_root

    found = find_project_root(path) if os.path.isdir(path) else None
    return found[0] if found is not None else None


def _default_workspace() -> bool:
    from jdx.engine.workspace import current_workspace_name

    return bool(os.environ.get("JDX_WORKSPACE") or current_workspace_name())


def _absolute(paths) -> list[str]:
    return [os.path.abspath(os.path.expanduser(p)) for p in paths]


def workspace_hash(workspace: dict) -> str:
    """A short stable key of what the daemon answers about: the flags plus the env that selects a workspace or
    changes its answers (ANSWER_ENV)."""
    from jdx.dirs import config_dir

    key = {k: workspace.get(k) for k in WORKSPACE_KEYS}
    key["workspace"] = key["workspace"] or os.environ.get("JDX_WORKSPACE") or None
    key["cache_dir"] = str(cache_dir(key["cache_dir"]).absolute())
    key["config_dir"] = str(config_dir().absolute())
    env = {name: os.environ[name] for name in ANSWER_ENV if os.environ.get(name)}
    if env:  # (absent when none is set: the keys of daemons started without them stay as they were)
        key["env"] = env
    data = json.dumps(key, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(data.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def workspace_argv(workspace: dict) -> list[str]:
    """The same workspace as global flags, for spawning `jdx daemon run` (which inherits the environment:
    a name or cache dir that came from JDX_WORKSPACE / JDX_CACHE_DIR stays in the env, not on the line)."""
    args: list[str] = []
    if workspace.get("workspace") and workspace["workspace"] != os.environ.get("JDX_WORKSPACE"):
        args += ["-w", workspace["workspace"]]
    for flag, key in (("--jars", "jars"), ("--src", "src"), ("--sources", "sources")):
        for value in workspace.get(key) or ():
            args.append(f"{flag}={value}")
    for value in workspace.get("coords") or ():
        args.append(f"--coord={value}")
    if workspace.get("project"):
        args.append(f"--project={workspace['project']}")
    if workspace.get("tests"):
        args.append("--tests")
    if workspace.get("all_versions"):
        args.append("--all-versions")
    if workspace.get("jdk") is not None:
        args.append("--jdk" if workspace["jdk"] else "--no-jdk")
    if workspace.get("cache_dir") and workspace["cache_dir"] != os.environ.get("JDX_CACHE_DIR"):
        args.append(f"--cache-dir={workspace['cache_dir']}")
    return args


def _private_dir(path: Path, create: bool) -> bool:
    """Whether `path` is (or was just made) a directory owned by us and closed to others."""
    try:
        if create:
            path.mkdir(mode=0o700, parents=True, exist_ok=True)
        st = path.lstat()
    except OSError:
        return False
    return stat.S_ISDIR(st.st_mode) and st.st_uid == os.getuid() and not st.st_mode & 0o077


def runtime_dir(cache_override: str | None = None, create: bool = True) -> Path:
    """The daemon socket dir of spec §17.1, created 0700 on first use."""
    explicit = os.environ.get("JDX_RUNTIME_DIR")
    if explicit:
        path = Path(explicit).expanduser().absolute()
        if create:
            try:
                path.mkdir(mode=0o700, parents=True, exist_ok=True)
            except OSError as exc:
                raise UsageError(f"JDX_RUNTIME_DIR={explicit}: cannot create it: {exc.strerror or exc}") from exc
        return path
    candidates = []
    if os.environ.get("XDG_RUNTIME_DIR") and os.path.isdir(os.environ["XDG_RUNTIME_DIR"]):
        candidates.append(Path(os.environ["XDG_RUNTIME_DIR"]) / "jdx")
    if os.environ.get("TMPDIR") and os.path.isdir(os.environ["TMPDIR"]):
        candidates.append(Path(os.environ["TMPDIR"]) / f"jdx-{os.getuid()}")
    for path in candidates:
        if _private_dir(path, create) or (not create and not path.exists()):
            return path
    path = cache_dir(cache_override).absolute() / "run"
    if create:
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
    return path


@dataclass(frozen=True)
class DaemonPaths:
    """The files of one daemon: socket, pid, lock, log and progress, all `<key>-v<version>.*` in one dir."""

    dir: Path
    stem: str

    @property
    def socket(self) -> Path:
        return self.dir / f"{self.stem}.sock"

    @property
    def pid(self) -> Path:
        return self.dir / f"{self.stem}.pid"

    @property
    def lock(self) -> Path:
        return self.dir / f"{self.stem}.lock"

    @property
    def log(self) -> Path:
        return self.dir / f"{self.stem}.log"

    @property
    def progress(self) -> Path:
        """The daemon's progress lines (`jdx: building the workspace graph`): a waiting client prints the new ones."""
        return self.dir / f"{self.stem}.progress"

    @property
    def cache(self) -> Path:
        """The cache directory the daemon answers from, one line (`record_cache`): `cache clear` stops its daemons."""
        return self.dir / f"{self.stem}.cache"

    def read_cache(self) -> str | None:
        try:
            return self.cache.read_text().strip() or None
        except OSError:
            return None

    def record_cache(self, cache: str) -> None:
        """Names the daemon's cache once (the key hashes the cache in, so it never changes for a stem)."""
        if self.read_cache() == cache:
            return
        tmp = self.cache.with_name(f"{self.cache.name}.{os.getpid()}.tmp")
        try:
            tmp.write_text(f"{cache}\n")
            os.replace(tmp, self.cache)
        except OSError:
            tmp.unlink(missing_ok=True)

    def read_pid(self) -> int | None:
        try:
            text = self.pid.read_text().strip()
        except OSError:
            return None
        return int(text) if text.isdigit() else None


def code_fingerprint(*, fresh: bool = False, root: str | None = None) -> str:
    """8 hex naming the jdx code on disk: every file of the package (path, size, mtime), so an edit in place,
    a reinstall of the same version or another checkout gives another value. One scandir walk (~170 files,
    under a millisecond warm), once per process: `fresh` looks again without replacing the process's value;
    `root` is another package directory (tests)."""
    if _FINGERPRINT and not fresh and root is None:
        return _FINGERPRINT[0]
    own = root is None
    root = root or os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # the jdx package
    digest = hashlib.blake2b(root.encode("utf-8", "surrogateescape"), digest_size=4)
    stack = [root]
    while stack:
        folder = stack.pop()
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError:
            continue
        for entry in entries:
            try:
                if entry.is_dir(follow_symlinks=False):
                    if entry.name != "__pycache__":
                        stack.append(entry.path)
                    continue
                if entry.name.endswith((".pyc", ".pyo")):
                    continue
                st = entry.stat()
            except OSError:
                continue
            digest.update(f"{entry.path}\0{st.st_size}\0{st.st_mtime_ns}\n".encode("utf-8", "surrogateescape"))
    value = digest.hexdigest()
    if own and not _FINGERPRINT:
        _FINGERPRINT.append(value)
    return value


def daemon_paths(workspace: dict, *, version: str = __version__, code: str | None = None,
                 create: bool = True) -> DaemonPaths:
    """The daemon files for this workspace, version and code (code_fingerprint); exit 3 when the socket path
    cannot be bound. `create`: the runtime dir is made, and the daemon's cache recorded (DaemonPaths.cache)."""
    folder = runtime_dir(workspace.get("cache_dir"), create=create)
    key = hashlib.sha256(f"{workspace_hash(workspace)}:{code or code_fingerprint()}".encode()).hexdigest()[:16]
    paths = DaemonPaths(folder, f"{key}-v{version}")
    check_socket_path(paths.socket)
    if create:
        paths.record_cache(str(cache_dir(workspace.get("cache_dir")).absolute()))
    return paths


def check_socket_path(path: Path) -> None:
    """The `sun_path` guard: a clear exit 3 instead of a bind failure or a silent cold fallback."""
    size = len(os.fsencode(str(path)))
    if size >= SUN_PATH_MAX:
        raise UsageError(
            f"daemon socket path is {size} bytes, over the {SUN_PATH_MAX - 1}-byte unix socket limit: {path}",
            hint=f"set JDX_RUNTIME_DIR to a shorter directory than {path.parent} (e.g. /tmp/jdx-{os.getuid()}), "
                 f"or pass --no-daemon")
