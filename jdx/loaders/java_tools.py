"""JVM-side helpers for decompilers and javap: isolated engine class loaders, a timed worker thread, jrt reads.

Everything here runs in the one embedded JVM (jvm.start_jvm), never in a child process. Engines live in their
own URLClassLoader whose parent is the platform loader, so neither the extractor's ASM nor the workspace leaks
into them, and the common path (no decompilation) never loads them.

Workers run as daemon Java threads whose Runnable is a MethodHandle proxy, not a Python callback: a worker
abandoned on timeout holds no Python frame, cannot block interpreter shutdown and is stopped where the JDK
still allows Thread.stop.
"""

from __future__ import annotations

import re

import threading
from pathlib import Path
from typing import Any

from jdx.loaders import jvm

_LOCK = threading.Lock()
_LOADERS: dict[tuple[str, ...], Any] = {}
_SILENCED: dict[str, bool] = {}
# decompilers recurse over expression trees: room for deep ones, while one recursing without end (Procyon 0.6 on
# java.util.stream.Collectors) still fails fast with StackOverflowError and touches at most this much
WORKER_STACK_BYTES = 32 << 20


class WorkerTimeout(Exception):
    """The worker did not finish in time; it was interrupted and abandoned."""


class WorkerFailed(Exception):
    """The worker threw; the message is the Java exception's class and message."""


def ensure_jvm(cache: Path):
    """The embedded JVM, started with what the extractor needs if nothing started it yet."""
    return jvm.start_jvm(cache)


def jclass(name: str, loader: Any = None):
    import jpype

    return jpype.JClass(name, loader=loader) if loader is not None else jpype.JClass(name)


def engine_loader(jars: list[str]):
    """One isolated URLClassLoader per engine jar set, created lazily and kept for the process."""
    key = tuple(jars)
    with _LOCK:
        if key not in _LOADERS:
            file_ = jclass("java.io.File")
            url = jclass("java.net.URL")
            urls = java_array(url, [file_(j).toURI().toURL() for j in jars])
            parent = jclass("java.lang.ClassLoader").getPlatformClassLoader()
            _LOADERS[key] = jclass("java.net.URLClassLoader")(urls, parent)
        return _LOADERS[key]


def forget_loader(jars: list[str]) -> None:
    """Drops an engine's class loader after a worker was stopped: a stop inside a static initialiser leaves that
    class unusable ("Could not initialize class") for the loader's lifetime, so the next run starts afresh."""
    with _LOCK:
        loader = _LOADERS.pop(tuple(jars), None)
    if loader is not None:
        try:
            loader.close()
        except Exception:  # noqa: BLE001 - closing is a courtesy; the loader is unreachable either way
            pass


def silence_loggers(names: tuple[str, ...]) -> None:
    """Turns java.util.logging loggers off through the LogManager's configuration, keeping the rest of it.

    Logger.getLogger called from JPype (no Java caller) would answer the JDK's system context, not the one the
    engine's classes log to; the configuration properties reach both.
    """
    import jpype

    with _LOCK:
        names = tuple(n for n in names if n not in _SILENCED)
        if not names:
            return

        @jpype.JImplements("java.util.function.BiFunction")
        class Prefer:
            @jpype.JOverride
            def apply(self, old, new):
                return new if new is not None else old

        @jpype.JImplements("java.util.function.Function")
        class Merge:
            @jpype.JOverride
            def apply(self, _key):
                return Prefer()

        text = "".join(f"{name}.level=OFF\n" for name in names).encode()
        stream = jclass("java.io.ByteArrayInputStream")(jpype.JArray(jpype.JByte)(text))
        jclass("java.util.logging.LogManager").getLogManager().updateConfiguration(stream, Merge())
        _SILENCED.update(dict.fromkeys(names, True))


def java_array(cls, items: list):
    """A Java array of a class from any loader (JPype's JArray only sees the system loader's classes)."""
    arr = jclass("java.lang.reflect.Array").newInstance(cls.class_, len(items))
    for i, item in enumerate(items):
        arr[i] = item
    return arr


def bound_static(cls, name: str, return_type, param_types: list, args: list):
    """A no-argument MethodHandle calling the static method cls.name(args) (public methods only)."""
    handles = jclass("java.lang.invoke.MethodHandles")
    mtype = jclass("java.lang.invoke.MethodType").methodType(
        return_type, java_array(jclass("java.lang.Class"), [p.class_ for p in param_types]))
    handle = handles.publicLookup().findStatic(cls.class_, name, mtype)
    return handles.insertArguments(handle, 0, java_array(jclass("java.lang.Object"), args))


def bound_virtual(target, name: str, return_type, param_types: list, args: list):
    """A no-argument MethodHandle calling target.name(args) (public methods only)."""
    handles = jclass("java.lang.invoke.MethodHandles")
    mtype = jclass("java.lang.invoke.MethodType").methodType(
        return_type, java_array(jclass("java.lang.Class"), [p.class_ for p in param_types]))
    handle = handles.publicLookup().findVirtual(target.getClass(), name, mtype).bindTo(target)
    return handles.insertArguments(handle, 0, java_array(jclass("java.lang.Object"), args))


def void_type():
    return jclass("java.lang.Void").TYPE


def run_timed(handle, timeout: float, thread_name: str = "jdx-worker") -> None:
    """Runs a no-argument MethodHandle on a daemon Java thread; WorkerTimeout / WorkerFailed otherwise."""
    runnable_cls = jclass("java.lang.Runnable")
    runnable = jclass("java.lang.invoke.MethodHandleProxies").asInterfaceInstance(runnable_cls.class_, handle)
    task = jclass("java.util.concurrent.FutureTask")(runnable, None)
    thread = jclass("java.lang.Thread")(None, task, thread_name, WORKER_STACK_BYTES)
    thread.setDaemon(True)
    thread.start()
    unit = jclass("java.util.concurrent.TimeUnit").MILLISECONDS
    try:
        task.get(max(1, int(timeout * 1000)), unit)
    except jclass("java.util.concurrent.TimeoutException"):
        _abandon(task, thread)
        raise WorkerTimeout(f"no result after {timeout:g} s") from None
    except jclass("java.util.concurrent.ExecutionException") as exc:
        cause = exc.getCause() or exc
        raise WorkerFailed(describe(cause)) from None


def _abandon(task, thread) -> None:
    """Cancels the task and stops its thread (Thread.stop still works up to JDK 19; later JDKs only interrupt)."""
    task.cancel(True)
    try:
        thread.stop()
    except Exception:  # noqa: BLE001 - UnsupportedOperationException on JDK 20+: the daemon runs out on its own
        pass


_MODULE_NOTE = re.compile(r"\s*\([^()]*\b(?:unnamed )?module\b[^()]*\)")  # a ClassCastException's `(a and b are in …)`
DESCRIBED_MAX = 300


def describe(throwable) -> str:
    """`SimpleName: message` of a Java throwable (or a Python exception), one line; the JVM's notes of which module
    and loader a class is in left out, and a cut past DESCRIBED_MAX characters marked `…`."""
    if not hasattr(throwable, "getClass"):
        text = f"{type(throwable).__name__}: {throwable}"
    else:
        name = str(throwable.getClass().getSimpleName())
        message = throwable.getMessage()
        text = f"{name}: {message}" if message is not None else name
    text = " ".join(_MODULE_NOTE.sub("", text).split())
    return text if len(text) <= DESCRIBED_MAX else text[:DESCRIBED_MAX - 1] + "…"


def jrt_class_files(module: str, internal_name: str) -> list[tuple[str, bytes]]:
    """(entry name, bytes) of a JDK class and its nested classes from the running JDK's jrt:/ image."""
    fs = jclass("java.nio.file.FileSystems").getFileSystem(jclass("java.net.URI").create("jrt:/"))
    files = jclass("java.nio.file.Files")
    package, _, simple = internal_name.rpartition("/")
    folder = fs.getPath("/modules", module, *([package] if package else []))
    if not files.isDirectory(folder):
        return []
    out = []
    stream = files.list(folder)
    try:
        for path in stream.toArray():
            name = str(path.getFileName().toString())
            if name == simple + ".class" or (name.startswith(simple + "$") and name.endswith(".class")):
                entry = f"{package}/{name}" if package else name
                out.append((entry, bytes(files.readAllBytes(path))))
    finally:
        stream.close()
    return sorted(out)


def javap(args: list[str]) -> tuple[int, str, str]:
    """The JDK's javap through java.util.spi.ToolProvider, in process: (exit code, stdout, stderr)."""
    provider = jclass("java.util.spi.ToolProvider").findFirst("javap")
    if not provider.isPresent():
        raise WorkerFailed("the running JDK has no javap tool (a JRE?)")
    string_writer = jclass("java.io.StringWriter")
    print_writer = jclass("java.io.PrintWriter")
    out, err = string_writer(), string_writer()
    pout, perr = print_writer(out), print_writer(err)
    try:
        code = provider.get().run(pout, perr, java_array(jclass("java.lang.String"), list(args)))
    except Exception as exc:  # noqa: BLE001 - a Java exception escaping the tool (it reports most as exit codes)
        raise WorkerFailed(describe(exc) if hasattr(exc, "getClass") else " ".join(str(exc).split())) from None
    pout.flush()
    perr.flush()
    return int(code), str(out.toString()), str(err.toString())
