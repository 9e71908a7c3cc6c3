"""Shared fixtures: an isolated cache/config per session, the jdx CLI as a subprocess, Debian corpus jars."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

JAVA_DIR = Path("/usr/share/java")
GSON = JAVA_DIR / "gson.jar"
GUAVA = JAVA_DIR / "guava.jar"
LANG3 = JAVA_DIR / "commons-lang3.jar"


def pytest_xdist_auto_num_workers(config) -> int:
    """`-n auto`: one worker per core, at most 4 (each worker indexes the JDK once and holds its graphs)."""
    return max(1, min(4, len(os.sched_getaffinity(0))))


# Variants of tests whose other cases stay in the default tier: they run in the soak (`.ci/run` runs it), which
# keeps the default tier under five minutes. A node id that stops matching only moves its test back here.
SOAK_VARIANTS = frozenset({
    "tests/cli/test_unbuilt_sources.py::test_same_bytes_on_repeat",
    "tests/cli/test_resolve_trace.py::test_each_line_is_answered_as_it_is_alone",
    "tests/cli/test_resolve_trace.py::test_a_multi_line_message_is_no_exception_line",
    "tests/engine/test_refs.py::test_parse_ref_on_prefixed_junk",
    "tests/loaders/test_decompile.py::test_decompiled_text_parses_and_declares_the_binary_methods[com/goo"
    "gle/gson/internal/bind/TypeAdapters]",
    "tests/engine/test_search.py::test_a_broad_search_looks_names_up_by_dict_as_a_narrow_one_by_bisection[get-kw0]",
    "tests/cli/test_search_empty_sides.py::test_one_side_given_still_searches[java.lang.StringBuilder::]",
    "tests/engine/test_sources.py::test_body_names_where_the_sources_came_from[paired-sx-1.0-sources.jar-sibling]",
    "tests/engine/test_sources.py::test_decompiled_classes_parse_as_java[sx/Color]",
    "tests/loaders/test_resolution_columnar.py::test_resolved_edges_of_a_batch_in_chunks_are_each_sites_resolution",
    "tests/daemon/test_query_stop.py::test_a_stopped_call_interrupts_the_graph_query",
    "tests/engine/test_hierarchy_substitution.py::test_supertypes_are_shown_as_the_queried_type_sees_them[hx.Leaf]",
    "tests/kotlin/test_kotlin_java_namesake.py::test_the_not_callable_marker_says_what_javas_call_is[members]",
    "tests/engine/test_search_inherited.py::test_an_inherited_member_is_named_by_the_miss[greet-p.I]",
    "tests/engine/test_bridge_callers.py::test_bridge_callers_are_marked_as_reflection_sees_them[java.lan"
    "g.String#compareTo(String)]",
    "tests/cli/test_exit_code_pipe.py::test_exit_code_survives_a_closed_pipe[args0-1]",
    "tests/engine/test_members_defaults_hidden.py::test_members_carry_each_element_default_as_javap_reads_it[md.Conf]",
    "tests/cli/test_members_limit.py::test_max_lines_bounds_the_whole_answer_and_its_hint_prints_everything[False]",
    "tests/cli/test_tests_left_out.py::test_an_empty_answer_says_test_classes_were_left_out[usages]",
    "tests/engine/test_source_param_names.py::test_outline_names_parameters_as_the_source_declares_them[src-dir]",
    "tests/kotlin/test_kotlin_sources.py::test_body_from_the_sources_jar[kt.Vec#distanceTo(kt.Vec)-kt/Geo"
    "metry.kt-fun distanceTo-    }]",
    "tests/engine/test_inherited_member_types.py::test_the_written_name_names_the_type_javac_binds[a]",
    "tests/cli/test_outline_order.py::test_outline_keeps_the_class_files_order[ord.Level]",
    "tests/loaders/test_indy_sigpoly.py::test_callers_of_the_declaration_list_every_site[java/lang/invoke"
    "/MethodHandle-invokeExact-java.lang.invoke.MethodHandle#invokeExact]",
    "tests/kotlin/test_kotlin_synthetic_cards.py::test_java_anonymous_and_local_constructors[p.Foo-constructor Foo()]",
    "tests/engine/test_hierarchy_synthetic.py::test_java_anonymous_and_local_classes_come_after_named_ones[hierarchy]",
    # 2026-12-07: the tier back under 5 minutes after the T93-T97 tests (each family keeps a variant in the tier)
    "tests/engine/test_descriptors.py::test_signature_parsers_only_raise_value_error",
    "tests/cli/test_resolve_linkage.py::test_a_method_the_new_version_dropped_is_said_to_be_missing_from_it",
    "tests/engine/test_search_inherited.py::test_an_inherited_member_is_named_by_the_miss[baseWork-p.Base]",
    "tests/engine/test_hierarchy_substitution.py::test_supertypes_are_shown_as_the_queried_type_sees_them[hx.RawLeaf]",
    "tests/loaders/test_decompile.py::test_decompiled_text_parses_and_declares_the_binary_methods[java/util/HashMap]",
    "tests/cli/test_with_doc.py::test_with_doc_of_a_class_without_sources_shows_what_it_overrides",
    "tests/engine/test_samples_lines.py::test_undecompiled_samples_say_why",
    "tests/cli/test_max_lines_entities.py::test_usages_context_is_cut_between_whole_usages",
    "tests/cli/test_cli.py::test_workspace_paths_that_do_not_exist_warn",
    "tests/engine/test_overrides_missing_supertype.py::test_with_the_supertypes_it_lists_the_overridden_methods_and_no_note",
    "tests/loaders/test_dir_duplicates.py::test_two_misplaced_copies_read_the_first_in_path_order",
    "tests/engine/test_usages_signature.py::test_signature_sites_equal_reflection[sg.T]",
    "tests/engine/test_members_type_bounds.py::test_members_refuses_what_javac_rejects[java.util.EnumSet<String>]",
    "tests/engine/test_decompiled_scala_shapes.py::test_decompiled_overloads_sharing_simple_names_show_their_own_body"
    "[parse(java.util.List, java.io.Reader)]",
})


@pytest.hookimpl(tryfirst=True)  # before `-m` selects by marker
def pytest_collection_modifyitems(config, items) -> None:
    for item in items:
        if item.nodeid in SOAK_VARIANTS:
            item.add_marker(pytest.mark.soak)


@dataclass
class Run:
    code: int
    out: str
    err: str


@pytest.fixture(scope="session", autouse=True)
def _own_config(tmp_path_factory):
    """The tests that answer in this process read no user's workspaces: `jdx ws use` of whoever runs the tests would
    otherwise become every in-process session's workspace (its jars answering the fixtures' questions)."""
    saved = {k: os.environ.get(k) for k in ("JDX_CONFIG_DIR", "JDX_WORKSPACE")}
    os.environ["JDX_CONFIG_DIR"] = str(tmp_path_factory.mktemp("jdx-config"))
    os.environ.pop("JDX_WORKSPACE", None)
    yield
    for key, value in saved.items():
        if value is None:
            os.environ.pop(key, None)
        else:
            os.environ[key] = value


SHARED_JDK_CACHE = "jdk-cache"  # under the run's base temp dir: the JDK's index every xdist worker starts from


@pytest.hookimpl(trylast=True)  # after the tmp_path plugin's own
def pytest_configure(config) -> None:
    """Under xdist, the controller starts indexing the JDK before the workers have even collected the tests (~12 s
    each), so they find it (nearly) built. The indexing child holds the shared cache's lock until it is done."""
    if hasattr(config, "workerinput") or not getattr(config.option, "numprocesses", None):
        return
    if config.getoption("collectonly", False):
        return
    import fcntl

    shared = config._tmp_path_factory.getbasetemp() / SHARED_JDK_CACHE
    shared.mkdir(parents=True, exist_ok=True)
    lock = open(shared.parent / f"{shared.name}.lock", "w")  # noqa: SIM115 - handed to the child, closed below
    fcntl.flock(lock, fcntl.LOCK_EX)
    code = ("import subprocess, sys, pathlib; shared = pathlib.Path(sys.argv[1]); "
            "proc = subprocess.run([sys.executable, '-m', 'jdx', 'index', '-q'], capture_output=True, cwd=shared); "
            "proc.returncode == 0 and (shared / '.complete').write_text('ok')")
    config._jdx_indexing = subprocess.Popen(
        [sys.executable, "-c", code, str(shared)], env=_index_env(shared), pass_fds=(lock.fileno(),),
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    lock.close()  # the child's copy of the descriptor keeps the lock until it exits


def pytest_unconfigure(config) -> None:
    """A run that never needed the JDK leaves no indexing behind it."""
    proc = getattr(config, "_jdx_indexing", None)
    if proc is not None and proc.poll() is None:
        import signal

        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


def _index_env(shared: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith("JDX_")}
    env.update(JDX_CACHE_DIR=str(shared), JDX_CONFIG_DIR=str(shared / "config"), JDX_NO_DAEMON="1")
    return env


@pytest.fixture(scope="session")
def jdx_home(tmp_path_factory) -> Path:
    """One cache and config dir for the whole session, so the JDK is indexed once. Under xdist the workers
    share that one index: the controller starts it (`pytest_configure`) or else the first worker builds it in a
    directory of the run, the others wait for it, and each starts from a copy (its cache stays its own)."""
    home = tmp_path_factory.mktemp("jdx-home")
    (home / "config").mkdir()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        _copy_shared_jdk_cache(tmp_path_factory.getbasetemp().parent / SHARED_JDK_CACHE, home / "cache")
    else:
        (home / "cache").mkdir()
    return home


def _copy_shared_jdk_cache(shared: Path, cache: Path) -> None:
    import fcntl
    import shutil

    shared.mkdir(parents=True, exist_ok=True)
    with open(shared.parent / f"{shared.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        done = shared / ".complete"
        if not done.exists():  # no controller started it, or its index failed: this worker tries once more
            proc = subprocess.run([sys.executable, "-m", "jdx", "index", "-q"], capture_output=True, text=True,
                                  env=_index_env(shared), timeout=900, cwd=shared)
            if proc.returncode == 0:
                done.write_text("ok")
    if done.exists():
        shutil.copytree(shared, cache, ignore=shutil.ignore_patterns(".complete", "config"))
    else:  # the shared index failed: this worker indexes on its own, and its tests say why
        cache.mkdir()


@pytest.fixture(scope="session")
def jdx_env(jdx_home) -> dict:
    """The session's environment; daemons the CLI spawns live in its own runtime dir and stop with the session."""
    env = dict(os.environ)
    env["JDX_CACHE_DIR"] = str(jdx_home / "cache")
    env["JDX_CONFIG_DIR"] = str(jdx_home / "config")
    env["JDX_RUNTIME_DIR"] = str(jdx_home / "run")
    env.pop("JDX_WORKSPACE", None)
    env.pop("JDX_GRAPH_BACKEND", None)
    env["JDX_NO_DAEMON"] = "1"  # one-shot answers; the daemon tests start their own with JDX_RUNTIME_DIR set
    yield env
    import signal

    for pid_file in (jdx_home / "run").glob("*.pid"):
        try:
            pid = int(pid_file.read_text())
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                if b"daemon\0run" in f.read():
                    os.kill(pid, signal.SIGTERM)
        except (ValueError, OSError):
            pass


def _query_command(args: tuple[str, ...]) -> bool:
    """A registry query command line (no --help), what `jdx.cli.main.main` answers without typer, or a local
    `index` (the build a query line does on a new workspace, as its own command)."""
    from jdx.cli.main import split_globals
    from jdx.commands.registry import command

    try:
        _, rest = split_globals(list(args))
    except Exception:  # noqa: BLE001 - a bad global flag line goes to the real process
        return False
    if not rest or any(w in ("-h", "--help") for w in rest):
        return False
    if rest[0] == "index":
        return not any(w.startswith(("--executor", "--ray-address", "--shards")) for w in rest)
    return command(rest[0]) is not None


@pytest.fixture(scope="session")
def run_jdx(jdx_env):
    """Runs `jdx ARGS` and returns exit code, stdout and stderr.

    A plain query command line (no stdin, no extra environment) is answered by `jdx.cli.main.main` inside
    the test process, with the session's environment, as `python -m jdx` would answer it (the same code
    after the interpreter starts; a fresh process per line made the default tier pay an interpreter, a JVM
    and a graph open per line). Everything else, and every line when JDX_TEST_SUBPROCESS=1, runs
    `python -m jdx` as a subprocess. tests/cli/test_cli.py keeps subprocess checks of the real entry point."""

    def run(*args: str, env: dict | None = None, stdin: str | None = None, timeout: int = 600) -> Run:
        if env is None and stdin is None and not os.environ.get("JDX_TEST_SUBPROCESS") and _query_command(args):
            return _in_process(args, jdx_env)
        proc = subprocess.run(
            [sys.executable, "-m", "jdx", *args],
            capture_output=True, text=True, env={**jdx_env, **(env or {})}, input=stdin, timeout=timeout,
        )
        return Run(proc.returncode, proc.stdout, proc.stderr)

    return run


def _in_process(args: tuple[str, ...], env: dict) -> Run:
    import contextlib
    import io

    from jdx.cli.main import main

    out, err = io.StringIO(), io.StringIO()
    saved = dict(os.environ)
    os.environ.clear()
    os.environ.update(env)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(list(args))
    finally:
        os.environ.clear()
        os.environ.update(saved)
    return Run(code, out.getvalue(), err.getvalue())


def require(path: Path) -> Path:
    if not path.exists():
        pytest.skip(f"{path} is not installed (see .ci/run)")
    return path
