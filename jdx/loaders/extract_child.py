"""Big extractions in a child process: its embedded JVM (~0.6-0.9 GB resident after the JDK's 70 modules, heap,
mapped module image and allocator pages, none of which a JVM hands back) ends with it, before the graph build
needs the memory. The child writes each shard into the store and names it on stdout; the parent loads it from
there, exactly as from a shard another run wrote. Small extractions (a jar, a changed class directory) stay
in process, where a second Python start would cost more than the JVM's memory is worth.

`JDX_EXTRACT_IN_PROCESS=1` keeps every extraction in process."""

from __future__ import annotations

import json
import os
import pickle
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

from jdx.loaders.roots import Artifact

# what makes an extraction big: any JDK module (the JDK is indexed whole), this many artifacts, or bytes
CHILD_ARTIFACTS = 16
CHILD_BYTES = 32 << 20


def wants_child(artifacts: list[Artifact]) -> bool:
    if os.environ.get("JDX_EXTRACT_IN_PROCESS", "").strip() not in ("", "0"):
        return False
    return (any(a.kind == "jrt" for a in artifacts) or len(artifacts) >= CHILD_ARTIFACTS
            or sum(a.size for a in artifacts) >= CHILD_BYTES)


class ChildFailed(Exception):
    """The child ended before naming every artifact (killed, out of memory, a bug): the rest is extracted in
    process."""


def _callable_ref(fn) -> str | None:
    """module:qualname of a module-level function, which the child imports; None for anything else."""
    module, qualname = getattr(fn, "__module__", None), getattr(fn, "__qualname__", "")
    if not module or not qualname or "<" in qualname:
        return None
    return f"{module}:{qualname}"


def _resolve_ref(ref: str | None):
    if not ref:
        return None
    import importlib

    module, _, qualname = ref.partition(":")
    obj = importlib.import_module(module)
    for part in qualname.split("."):
        obj = getattr(obj, part)
    return obj


def extract_in_child(cache: Path, store, artifacts: list[Artifact], force: bool,
                     shard_extra=None) -> Iterator[tuple[int, float]]:
    """(index into `artifacts`, Kotlin decoding seconds) as each shard lands in `store`; ChildFailed when the
    child stops early (the indexes not yielded yet are not extracted)."""
    payload = pickle.dumps({"cache": str(cache), "store": store.uri, "artifacts": artifacts, "force": force,
                            "extra": _callable_ref(shard_extra) if shard_extra is not None else None})
    env = dict(os.environ, JDX_EXTRACT_IN_PROCESS="1")
    proc = subprocess.Popen([sys.executable, "-m", "jdx.loaders.extract_child"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    errors: list[bytes] = []
    drain = threading.Thread(target=lambda: errors.append(proc.stderr.read()), daemon=True)
    drain.start()
    seen = 0
    try:
        proc.stdin.write(payload)
        proc.stdin.close()
        for line in proc.stdout:
            try:
                got = json.loads(line)
            except ValueError:
                continue
            seen += 1
            yield int(got["i"]), float(got.get("k", 0.0))
    finally:
        if proc.poll() is None and seen < len(artifacts):
            proc.kill()
        code = proc.wait()
        drain.join(timeout=5)
        proc.stdout.close()
        proc.stderr.close()
    if seen < len(artifacts) or code != 0:
        tail = b"".join(errors).decode("utf-8", "replace").strip().splitlines()
        raise ChildFailed(tail[-1] if tail else f"exit code {code}")


def main() -> int:
    from concurrent.futures import ThreadPoolExecutor

    from jdx.loaders.dirshards import extract_missing
    from jdx.loaders.executors import bounded_submit, write_with_extra
    from jdx.loaders.extractor import JPypeExtractor
    from jdx.loaders.shard_store import open_store

    job = pickle.load(sys.stdin.buffer)
    cache = Path(job["cache"])
    artifacts: list[Artifact] = job["artifacts"]
    store = open_store(job["store"], cache)
    try:
        shard_extra = _resolve_ref(job["extra"])
    except (ImportError, AttributeError):
        shard_extra = None
    lock = threading.Lock()
    out = sys.stdout

    def write(index: int, extracted) -> None:
        write_with_extra(store, artifacts[index], extracted, shard_extra)
        with lock:
            out.write(json.dumps({"i": index, "k": getattr(extracted, "kotlin_seconds", 0.0)}) + "\n")
            out.flush()

    # the JVM parses the next artifacts while the previous one is written (as in process)
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="jdx-shard-write") as pool:
        writes: list = []
        for index, extracted in extract_missing(cache, artifacts, JPypeExtractor(cache), job["force"], store=store):
            bounded_submit(pool, writes, write, index, extracted)
        for w in writes:
            w.result()
    return 0


if __name__ == "__main__":
    sys.exit(main())
