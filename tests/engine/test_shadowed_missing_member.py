"""Two versions of one library on the classpath, the older first, and an app compiled against the newer: the JVM loads
the older `lib.Bean`, which lacks `extra()`, so the app's call of it fails (NoSuchMethodError) although the shadowed
newer copy declares it. Asked by its plain reference, `usages`, `callers`, `samples` and `calls` say exactly that
(naming the copy that declares it and the copy the JVM loads), never "a supertype the workspace lacks may declare it";
sites in shadowed class copies (code the JVM never loads) are marked and listed after the live ones; `samples` prefers
live sites and never shows one line twice. Oracles: `java -cp` (the NoSuchMethodError, which copy loads) and
reflection (what the loaded copy declares)."""

from __future__ import annotations

import json
import shutil

import pytest

from tests.fixtures import jdktool

V1 = {"lib/Bean.java": "package lib;\npublic class Bean {\n  public boolean has(int i) { return i > 0; }\n"
                       "  public static int plain() { return 1; }\n}",
      "lib/User.java": "package lib;\npublic class User {\n  public static int use() {\n    return Bean.plain();\n"
                       "  }\n}"}
V2 = {"lib/Bean.java": "package lib;\npublic class Bean {\n  public boolean has(int i) { return i > 0; }\n"
                       "  public static int plain() { return 2; }\n  public void extra() { }\n}",
      "lib/User.java": "package lib;\npublic class User {\n  public static int use() {\n    return Bean.plain() + 1;\n"
                       "  }\n}"}
APP = {"app/Main.java": """package app;
import lib.Bean;
public class Main {
  public static void introspect() {
    Bean b = new Bean();
    b.extra();
  }
  public static boolean check(Bean b) {
    return b.has(1) || b.has(2);
  }
  public static int count() {
    return Bean.plain();
  }
  public static void main(String[] a) throws Exception {
    Class<?> c = Class.forName("lib.Bean");
    String jar = c.getProtectionDomain().getCodeSource().getLocation().getPath().replaceAll(".*/", "");
    boolean declared = java.util.Arrays.stream(c.getDeclaredMethods()).anyMatch(m -> m.getName().equals("extra"));
    System.out.println("loaded " + jar + " declares extra: " + declared);
    try { introspect(); System.out.println("ok"); } catch (Throwable t) { System.out.println(t.getClass().getName()); }
  }
}
"""}
EXTRA = "lib.Bean#extra()"
NOTE = ("lib.Bean#extra() is missing from the copy of lib.Bean the JVM loads (lib-1.0.jar); the shadowed copy in "
        "lib-2.0.jar (lib-2.0.jar/lib.Bean#extra()) declares it: the calls listed name it and would fail on this "
        "classpath (NoSuchMethodError)")
DUPLICATE = "lib.Bean is provided by 2 artifacts: lib-1.0.jar (loaded), lib-2.0.jar (shadowed)"


@pytest.fixture(scope="module")
def classpath(tmp_path_factory):
    if shutil.which("javac") is None or shutil.which("java") is None:
        pytest.skip("javac/java are not installed")
    from tests.fixtures.javac import javac_jar

    root = tmp_path_factory.mktemp("missing")
    old, _ = javac_jar(root / "v1", V1, "lib", "lib-1.0.jar", debug=True)
    new, new_classes = javac_jar(root / "v2", V2, "lib", "lib-2.0.jar", debug=True)
    app = root / "app"
    src = root / "app-src" / "app" / "Main.java"
    src.parent.mkdir(parents=True)
    src.write_text(APP["app/Main.java"])
    jdktool.run(["javac", "-g", "-cp", str(new_classes), "-d", str(app), str(src)], check=True)
    cp = f"{app}:{old}:{new}"
    ran = jdktool.run(["java", "-cp", cp, "app.Main"], capture_output=True, text=True, check=True).stdout
    # the oracle: the JVM loads lib-1.0.jar's Bean, which declares no extra, and the call fails
    assert ran.splitlines() == ["loaded lib-1.0.jar declares extra: false", "java.lang.NoSuchMethodError"], ran
    return cp


def _json(run_jdx, cp: str, *args: str) -> dict:
    run = run_jdx("--no-jdk", "--jars", cp, *args, "--json")
    assert run.code == 0, run.err
    return json.loads(run.out)


def test_usages_callers_samples_of_a_member_only_the_shadowed_copy_declares(classpath, run_jdx):
    for command in ("usages", "callers", "samples"):
        env = _json(run_jdx, classpath, command, EXTRA)
        notes = env["result"]["notes"]
        assert NOTE in notes, (command, notes)
        assert not any("a supertype the workspace lacks may" in n for n in notes), (command, notes)
        assert [w["message"] for w in env["warnings"] if w["code"] == "DUPLICATE_CLASS"] == [DUPLICATE], command


def test_calls_mark_a_callee_the_loaded_copy_lacks(classpath, run_jdx, jdx_home):
    env = _json(run_jdx, classpath, "calls", "app.Main#introspect()")
    tree = env["result"]["roots"][0]["tree"]
    extra = next(e for e in tree if e["method"] == EXTRA)
    assert extra["missing"] == {"error": "NoSuchMethodError", "artifact": "lib-2.0.jar",
                                "declared_by": "lib-2.0.jar/lib.Bean#extra()", "loaded": "lib-1.0.jar"}
    assert NOTE in env["result"]["notes"]
    assert not any("missing" in e for e in tree if e["method"] != EXTRA)  # the constructor both copies declare
    text = run_jdx("--no-jdk", "--jars", classpath, "calls", "app.Main#introspect()")
    assert ("lib.Bean#extra()  (external)  line 6  (missing from the loaded copy: NoSuchMethodError; declared by "
            "lib-2.0.jar's shadowed copy)") in text.out
    # the command's wiring of `call_tree_warnings` is commands/graph.py's (call_tree_answer)
    from jdx.engine.rel_calls import call_tree_warnings
    from tests.service import JdxService, Options

    svc = JdxService(Options(jars=[classpath], jdk=False, cache_dir=str(jdx_home / "cache")))
    try:
        assert [w.message for w in call_tree_warnings(svc.store(), env["result"])] == [DUPLICATE]
    finally:
        svc.close()


def test_sites_in_shadowed_copies_are_marked_and_listed_last(classpath, run_jdx):
    env = _json(run_jdx, classpath, "usages", "lib.Bean#plain()")
    result = env["result"]
    sites = [(s["caller"], s["line"], s.get("shadowed", False)) for g in result["groups"] for c in g["callers"]
             for s in c["sites"]]
    # javap's lines: Main#count() line 12, lib-1.0's User#use() line 4 (loaded), lib-2.0's User (shadowed) line 4
    assert sites == [("app.Main#count()", 12, False), ("lib.User#use()", 4, False),
                     ("lib-2.0.jar/lib.User#use()", 4, True)]
    assert [(g["artifact"], g.get("shadowed", False), g["total"]) for g in result["groups"]] == [
        ("app", False, 1), ("lib-1.0.jar", False, 1), ("lib-2.0.jar", True, 1)]
    assert result["total"] == 3 and result["shadowed"] == 1
    assert ("1 of the 3 sites is in shadowed class copies (an earlier artifact provides the class, so the JVM never "
            "loads that copy): dead code on this classpath, listed after the live ones and marked shadowed"
            ) in result["notes"]
    text = run_jdx("--no-jdk", "--jars", classpath, "usages", "lib.Bean#plain()").out
    assert "lib-2.0.jar (shadowed copies: never loaded) (1)" in text
    callers = _json(run_jdx, classpath, "callers", "lib.Bean#plain()")["result"]
    assert [(e["method"], e.get("shadowed", False)) for e in callers["roots"][0]["tree"]] == [
        ("app.Main#count()", False), ("lib.User#use()", False), ("lib-2.0.jar/lib.User#use()", True)]
    assert "(shadowed copy: never loaded)" in run_jdx("--no-jdk", "--jars", classpath, "callers",
                                                        "lib.Bean#plain()").out


def test_samples_prefer_live_sites_and_fold_one_line(classpath, run_jdx):
    plain = _json(run_jdx, classpath, "samples", "lib.Bean#plain()", "--limit", "3")["result"]
    assert [(s["caller"], s.get("shadowed", False)) for s in plain["samples"]][-1] == (
        "lib-2.0.jar/lib.User#use()", True)  # the shadowed copy's site last
    has = _json(run_jdx, classpath, "samples", "lib.Bean#has(int)", "--limit", "3")["result"]
    assert has["total"] == 2  # b.has(1) || b.has(2): two sites on line 9, one sample
    assert [(s["caller"], s["line"]) for s in has["samples"]] == [("app.Main#check(lib.Bean)", 9)]


def test_signature_of_it_offers_the_shadowed_copy(classpath, run_jdx):
    run = run_jdx("--no-jdk", "--jars", classpath, "signature", "lib.Bean#extra", "--json")
    assert run.code == 1
    env = json.loads(run.out)
    assert env["error"]["message"] == (
        "not found: lib.Bean#extra (the copy of lib.Bean the JVM loads, in lib-1.0.jar, does not declare it; the "
        "shadowed copy in lib-2.0.jar does, so calls naming it fail on this classpath: NoSuchMethodError)")
    assert env["candidates"] == [{"ref": "lib-2.0.jar/lib.Bean#extra()", "kind": "method", "artifact": "lib-2.0.jar",
                                  "shadowed": True}]
    assert [w["message"] for w in env["warnings"] if w["code"] == "DUPLICATE_CLASS"] == [DUPLICATE]
    shown = run_jdx("--no-jdk", "--jars", classpath, "signature", "lib-2.0.jar/lib.Bean#extra()")
    assert shown.code == 0 and "void extra()" in shown.out, shown.out + shown.err


@pytest.mark.parametrize("written", ["lib.Bean#extra", "lib.Bean.extra"])
def test_resolve_of_it_offers_the_shadowed_copy(classpath, run_jdx, written):
    run = run_jdx("--no-jdk", "--jars", classpath, "resolve", written, "--json")
    assert run.code == 1, run.out
    env = json.loads(run.out)
    assert "the shadowed copy in lib-2.0.jar does" in env["error"]["message"], env
    assert [c["ref"] for c in env["candidates"]] == ["lib-2.0.jar/lib.Bean#extra()"]
    assert [w["message"] for w in env["warnings"] if w["code"] == "DUPLICATE_CLASS"] == [DUPLICATE]


def test_a_member_no_code_names_still_offers_the_shadowed_copy(classpath, run_jdx):
    """T71: without the app, no code of the workspace names `extra()` (no external node): its miss was a plain
    not-found, while a member some code called said which copy declares it."""
    libs = classpath.split(":", 1)[1]  # lib-1.0.jar, then lib-2.0.jar: no app
    run = run_jdx("--no-jdk", "--jars", libs, "signature", "lib.Bean#extra", "--json")
    assert run.code == 1, run.out
    env = json.loads(run.out)
    assert "the shadowed copy in lib-2.0.jar does" in env["error"]["message"], env
    assert env["candidates"] == [{"ref": "lib-2.0.jar/lib.Bean#extra()", "kind": "method", "artifact": "lib-2.0.jar",
                                  "shadowed": True}]
    assert [w["message"] for w in env["warnings"] if w["code"] == "DUPLICATE_CLASS"] == [DUPLICATE]
    missing = run_jdx("--no-jdk", "--jars", libs, "signature", "lib.Bean#nowhere", "--json")
    assert missing.code == 1 and "shadowed" not in missing.out
