"""Extraction holds a bounded amount however many artifacts it reads: the JVM's readers wait for the consumer
instead of parsing every artifact ahead of it, artifacts are read in classpath order (one open at a time per
reader), and shard writes that fall behind make extraction wait instead of piling up tables.

The JVM side runs in a child process (its own embedded JVM and cache), so the test process never starts one."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from jdx.loaders.executors import WRITES_AHEAD, bounded_submit

# the JDK modules with the most classes: each is one or more chunks of 1,500 classes
MODULES = ["java.base", "java.desktop", "jdk.localedata", "jdk.internal.vm.compiler", "java.xml", "jdk.compiler",
           "jdk.jshell", "java.management", "jdk.jfr", "java.sql"]

SCRIPT = r"""
import json, sys, time
from pathlib import Path
from jdx.loaders.extractor import MAX_ENTRIES, MAX_ENTRY_BYTES, MAX_TOTAL_BYTES
from jdx.loaders.jvm import start_jvm

threads, pause, modules = int(sys.argv[1]), float(sys.argv[2]), sys.argv[3:]
jpype = start_jvm(Path(sys.argv[0]).parent)
Extractor = jpype.JClass("jdx.extract.Extractor")
available = set(str(m) for m in Extractor.jrtModules(None))
specs = [f"jrt:{m}" for m in modules if m in available]
run = Extractor.start(jpype.JArray(jpype.JString)(specs), threads, MAX_ENTRY_BYTES, MAX_TOTAL_BYTES, MAX_ENTRIES)
order, most_waiting = [], 0
first = run.next()
order.append([int(first.artifact), int(first.index)])
time.sleep(pause)  # a consumer far slower than the readers
most_waiting = int(run.waiting())
while True:
    chunk = run.next()
    if chunk is None:
        break
    order.append([int(chunk.artifact), int(chunk.index)])
run.close()
print(json.dumps({"artifacts": len(specs), "order": order, "waiting": most_waiting}))
"""


def _run(tmp_path, threads: int, pause: float) -> dict:
    script = tmp_path / "extract_probe.py"
    script.write_text(SCRIPT)
    proc = subprocess.run([sys.executable, str(script), str(threads), str(pause), *MODULES], capture_output=True,
                          text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


@pytest.mark.soak  # a 3 s pause in a JVM child; test_shard_writes_falling_behind_make_extraction_wait stays
def test_readers_wait_for_a_slow_consumer_and_every_chunk_still_arrives(tmp_path):
    got = _run(tmp_path, threads=2, pause=3.0)
    # room for 2 * threads + 2 chunks in flight; one of them was taken before the pause
    assert got["waiting"] <= 2 * 2 + 2, got["waiting"]
    chunks = {tuple(c) for c in got["order"]}
    assert len(chunks) == len(got["order"])  # no chunk twice
    assert {a for a, _ in chunks} == set(range(got["artifacts"]))  # every artifact arrived: no reader stalled
    for artifact in range(got["artifacts"]):
        indexes = sorted(i for a, i in chunks if a == artifact)
        assert indexes == list(range(len(indexes)))
    assert len(chunks) > 2 * 2 + 2  # the bound was a real constraint: more chunks than room for them


@pytest.mark.soak  # a JVM child of its own (~7 s)
def test_one_reader_finishes_each_artifact_before_opening_the_next(tmp_path):
    got = _run(tmp_path, threads=1, pause=0.0)
    order = [tuple(c) for c in got["order"]]
    assert order == sorted(order)
    assert any(i > 0 for _, i in order)  # some artifact had several chunks, so the order was a real question


def test_shard_writes_falling_behind_make_extraction_wait():
    running = 0
    most = 0
    lock = threading.Lock()

    def slow_write(_):
        nonlocal running, most
        with lock:
            running += 1
        time.sleep(0.02)
        with lock:
            running -= 1

    submitted_ahead = []
    with ThreadPoolExecutor(max_workers=1) as pool:
        writes: list = []
        for i in range(12):
            bounded_submit(pool, writes, slow_write, i)
            submitted_ahead.append(sum(1 for w in writes if not w.done()))
        for w in writes:
            w.result()
    assert max(submitted_ahead) <= WRITES_AHEAD
    assert len(writes) == 12 and all(w.done() and w.exception() is None for w in writes)


def test_a_failed_write_is_left_for_the_caller_to_collect():
    def fail(_):
        raise OSError("disk full")

    with ThreadPoolExecutor(max_workers=1) as pool:
        writes: list = []
        for i in range(WRITES_AHEAD + 2):
            bounded_submit(pool, writes, fail, i)
        for w in writes:
            w.exception()
    assert all(isinstance(w.exception(), OSError) for w in writes)
