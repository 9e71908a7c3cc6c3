"""Trial T61 (a project's classes directory with its source directory): `samples` and `usages --context` on a source
edited after it was compiled say SOURCES_VERSION_MISMATCH as `body` does, and never call the line they mark
compiler-written; `samples --in/--exclude` sample one's own code, and a `--limit` past the sites samples reads is told
the cap; a method reference is a sample (marked), never "no call sites"; a frame naming a lambda body the class no
longer has says the trace comes from another build. Oracles: javap -c -l / -v of the compiled classes, the sources."""

from __future__ import annotations

import json
import os
import re
import shutil

import pytest

from jdx.engine.samples import MAX_SHORTLIST
from tests.fixtures import jdktool

pytestmark = pytest.mark.soak  # a trial's regression family with its own graph builds: the soak runs it whole (.ci/run)

CODE = "SOURCES_VERSION_MISMATCH"
CALLERS = MAX_SHORTLIST + 5  # sites of tb.Many#hit: more than samples reads
SOURCES = {
    "ta/Api.java": "package ta;\npublic class Api {\n    public static void greet(String who) { }\n}\n",
    "ta/Sink.java": """package ta;

import java.util.function.Consumer;

public class Sink implements Consumer<String> {
    @Override
    public void accept(String line) {
        Api.greet(line);
    }
}
""",
    "ta/Exporter.java": """package ta;

import java.util.List;

public class Exporter {
    void emit(String span) {
        Api.greet(span);
    }

    public void export(List<String> spans) {
        spans.forEach(this::emit);
    }

    public void exportAll(List<String> spans) {
        spans.forEach(s -> Api.greet(s));
    }
}
""",
    "tb/Many.java": "package tb;\npublic class Many {\n    public static void hit(int i) { }\n"
                    + "".join(f"    void m{i}(int k) {{ hit(k + {i}); }}\n" for i in range(CALLERS)) + "}\n",
}


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    if shutil.which("javac") is None or shutil.which("javap") is None:
        pytest.skip("javac/javap are not installed")
    root = tmp_path_factory.mktemp("t61")
    for name, text in SOURCES.items():
        (root / "src" / name).parent.mkdir(parents=True, exist_ok=True)
        (root / "src" / name).write_text(text)
    jdktool.run(["javac", "-g", "-d", str(root / "classes"), *map(str, sorted((root / "src").rglob("*.java")))],
                check=True)
    compiled = (root / "classes" / "ta" / "Sink.class").stat().st_mtime
    for java in (root / "src").rglob("*.java"):  # a built project: every source older than its class
        os.utime(java, (compiled - 60, compiled - 60))
    return root


def _javap(root, cls: str, *flags: str) -> str:
    return jdktool.run(["javap", "-p", *flags, "-cp", str(root / "classes"), cls], capture_output=True, text=True,
                       check=True).stdout


def _args(root) -> list[str]:
    return ["--jars", str(root / "classes"), "--src", str(root / "src"), "--no-jdk"]


def _json(run_jdx, root, *words) -> dict:
    r = run_jdx(*words, *_args(root), "--json")
    assert r.code == 0, r.out + r.err
    return json.loads(r.out)


def _greet_line(root) -> int:
    """The class file's line of Sink#accept's call of greet (javap -c -l: the line of its invokestatic)."""
    text = _javap(root, "ta.Sink", "-c", "-l")
    accept = text[text.index("void accept("):]
    pc = int(re.search(r"(\d+): invokestatic .*ta/Api\.greet", accept).group(1))
    table = [(int(a), int(b)) for a, b in re.findall(r"line (\d+): (\d+)", accept.split("LocalVariableTable")[0])]
    return max((start, line) for line, start in table if start <= pc)[1]


def test_a_source_edited_after_compiling_is_said_by_samples_and_usages_context(run_jdx, project):
    sink = project / "src" / "ta" / "Sink.java"
    line = _greet_line(project)
    assert "Api.greet(line)" in sink.read_text().splitlines()[line - 1]  # the oracle: the unedited source
    fresh = _json(run_jdx, project, "samples", "ta.Api#greet", "--in", "classes")
    site = next(s for s in fresh["result"]["samples"] if s["caller"].startswith("ta.Sink#accept"))
    assert site["written"] and fresh["warnings"] == []
    compiled = (project / "classes" / "ta" / "Sink.class").stat().st_mtime
    try:
        sink.write_text("// tracing sink\n// prints spans\n" + sink.read_text())  # not recompiled
        os.utime(sink, (compiled + 60, compiled + 60))
        assert "Api.greet" not in sink.read_text().splitlines()[line - 1]  # line N of the text is another line now
        data = _json(run_jdx, project, "samples", "ta.Api#greet", "--in", "classes")
        site = next(s for s in data["result"]["samples"] if s["caller"].startswith("ta.Sink#accept"))
        assert site["line"] == line and site["written"], site  # unknown, never "compiler-written"
        stale = "ta/Sink.java was modified after Sink.class was compiled"
        assert stale in site["source"]["stale"]
        assert [w["code"] for w in data["warnings"] if stale in w["message"]] == [CODE]
        text = run_jdx("samples", "ta.Api#greet", *_args(project))
        block = text.out.split("ta.Sink#accept")[1]
        assert "compiler-written" not in block.split("\n  2. ")[0] and f"⚠ {CODE}: {stale}" in text.out + text.err
        usages = run_jdx("usages", "ta.Api#greet", "--context", "0", *_args(project))
        assert usages.code == 0 and f"⚠ {CODE}: {stale}" in usages.out + usages.err, usages.out + usages.err
        envelope = _json(run_jdx, project, "usages", "ta.Api#greet", "--context", "0")
        assert any(stale in w["message"] and w["code"] == CODE for w in envelope["warnings"])
    finally:
        sink.write_text(SOURCES["ta/Sink.java"])
        os.utime(sink, (compiled - 60, compiled - 60))


def test_a_method_reference_is_a_sample_marked_as_one(run_jdx, project):
    verbose = _javap(project, "ta.Exporter", "-c", "-v")
    assert "REF_invokeVirtual ta/Exporter.emit:(Ljava/lang/String;)V" in verbose  # the oracle: `this::emit`
    export = verbose.split("public void export(")[1].split("public void exportAll(")[0]
    assert "invokedynamic" in export and "Exporter.emit" not in export  # export calls emit through the reference only
    data = _json(run_jdx, project, "samples", "ta.Exporter#emit")
    res = data["result"]
    assert res["total"] == 0 and res["method_refs"] == 1
    [sample] = res["samples"]
    assert sample["method_ref"] and sample["written"] and sample["caller"].startswith("ta.Exporter#export(")
    assert "this::emit" in sample["source"]["text"][sample["source"]["focus"] - sample["source"]["lines"][0]]
    text = run_jdx("samples", "ta.Exporter#emit", *_args(project)).out
    assert "no call sites" not in text and "(method reference: passes no arguments)" in text, text
    assert "(0 of 0 sites, 1 of 1 method reference)" in text, text


def test_samples_in_and_exclude_pick_the_artifacts_sampled(run_jdx, project):
    kept = _json(run_jdx, project, "samples", "ta.Api#greet", "--limit", "10", "--in", "classes")["result"]
    assert kept["total"] == 3 and kept["filter"] == "--in classes"
    none = _json(run_jdx, project, "samples", "ta.Api#greet", "--exclude", "classes")["result"]
    assert none["total"] == 0 and none["samples"] == []
    assert "no call sites in the artifacts the filter keeps" in run_jdx(
        "samples", "ta.Api#greet", "--exclude", "classes", *_args(project)).out
    missing = run_jdx("samples", "ta.Api#greet", "--in", "no-such-artifact", *_args(project))
    assert missing.code == 1 and "no artifact matches --in no-such-artifact" in missing.out + missing.err


def test_a_limit_past_the_sites_samples_reads_is_told_the_cap(run_jdx, project):
    assert _javap(project, "tb.Many", "-c").count("invokestatic") == CALLERS  # the oracle: one call per method
    data = _json(run_jdx, project, "samples", "tb.Many#hit", "--limit", str(MAX_SHORTLIST + 80))
    cut = data["truncated"]
    assert len(data["result"]["samples"]) == cut["shown"] == MAX_SHORTLIST and cut["total"] == CALLERS
    assert f"at most: a --limit past {MAX_SHORTLIST} shows no more" in cut["hint"]
    assert "--limit N for more" not in cut["hint"] and "--in/--exclude" in cut["hint"]
    small = _json(run_jdx, project, "samples", "tb.Many#hit")["truncated"]
    assert small["shown"] == 3 and f"--limit N for more samples, up to {MAX_SHORTLIST}" in small["hint"]


def test_a_frame_naming_a_lambda_body_the_class_lacks_says_another_build(project, jdx_home):
    from jdx.engine.search_frames import frame_member_miss
    from jdx.graph_schema import queries
    from tests.service import JdxService, Options

    bodies = re.findall(r"lambda\$\w+\$\d+", _javap(project, "ta.Exporter"))
    assert bodies == ["lambda$exportAll$0"]  # the oracle: export's lambda became `this::emit`
    svc = JdxService(Options(jars=[str(project / "classes")], jdk=False, cache_dir=str(jdx_home / "cache")))
    try:
        rows = svc.store().rows(queries.METHODS_OF_TYPES, {"ids": ["ta/Exporter"]})
        miss = frame_member_miss("not found: ta.Exporter has no method lambda$export$0", "ta.Exporter",
                                 "lambda$export$0", rows)
    finally:
        svc.close()
    assert "probably comes from another build" in miss.message
    assert [c["ref"] for c in miss.candidates] == ["ta.Exporter#lambda$exportAll$0(java.lang.String)"]
    assert frame_member_miss("m", "ta.Exporter", "export", rows) is None  # a plain name: its near names answer
    assert "has no lambda bodies now" in frame_member_miss("m", "ta.Api", "lambda$run$2", []).message


def test_resolve_of_that_frame_says_another_build(run_jdx, project):
    from jdx.engine import search_nav

    if not hasattr(search_nav, "frame_member_miss"):
        pytest.skip("search_nav does not call search_frames.frame_member_miss yet")
    r = run_jdx("resolve", "at ta.Exporter.lambda$export$0(Exporter.java:11)", *_args(project))
    assert r.code == 1 and "probably comes from another build" in r.out + r.err
    assert "ta.Exporter#lambda$exportAll$0(java.lang.String)" in r.out + r.err
