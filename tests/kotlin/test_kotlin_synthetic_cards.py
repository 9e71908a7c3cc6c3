"""The cards of kotlinc's synthetic classes (@kotlin.Metadata kind 3: lambdas compiled to classes, `$WhenMappings`):
their metadata reads and declares nothing in Kotlin, so `show` and `outline` print the JVM view without claiming the
metadata unreadable (KOTLIN_VIEW_UNAVAILABLE stays for metadata that does not decode). The constructor of an
anonymous, lambda or local class prints under a name a reader can use: `LibKt$viaLambda$f$1()` (the name after the
package, as the card's `anonymous class` line has it), `Local(...)` for a local class, never `1(...)`, and the same in
show, outline, members and signature.

Fixtures: kotlinc 1.3's lambda classes of tests/kotlin/test_kotlin_lambda_classes.py (no new kotlinc compile), a javac
anonymous and local class, and okhttp 4.12 from ~/.m2 when present (the trial's `RealConnection$connectTls$1`)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.kotlin.corpus import jar_fixtures
from tests.kotlin.test_kotlin_lambda_classes import _jar

store, jar_args = jar_fixtures(_jar, "ktsyn", "lambda-classes.jar")
LAMBDA = "kl.LibKt$viaLambda$f$1"
LAMBDAS = (LAMBDA, "kl.Holder$prop$1", "kl.LibKt$nested$outer$1$inner$1")


def _codes(warnings) -> list[str]:
    return [w.code for w in warnings]


@pytest.mark.parametrize("name", LAMBDAS)
def test_a_lambda_class_has_no_kotlin_view_and_says_nothing_of_its_metadata(store, name):
    from jdx.engine.cards import OutlineOptions, outline_type, show_type

    result, warnings, _ = show_type(store, name, "kotlin")
    assert result["kotlin"]["kind"] == "synthetic class", result["kotlin"]
    assert "KOTLIN_VIEW_UNAVAILABLE" not in _codes(warnings), warnings
    assert "view" not in result  # the JVM card
    result, warnings, _ = outline_type(store, name, OutlineOptions(view="kotlin"))
    assert "KOTLIN_VIEW_UNAVAILABLE" not in _codes(warnings), warnings
    assert "view" not in result and [m["kind"] for m in result["members"]] == ["field", "constructor", "method"]


def test_metadata_that_does_not_decode_still_warns():
    from jdx.engine.kotlin_view import unavailable

    broken = unavailable({"fqn": "fx.Broken", "kotlin": '{"k": 1, "mv": [1, 9, 0]}'})  # a class without d1
    assert _codes(broken) == ["KOTLIN_VIEW_UNAVAILABLE"]
    assert "could not be read" in broken[0].message
    assert unavailable({"fqn": "fx.Lambda", "kotlin": '{"k": 3, "mv": [1, 9, 0]}'}) == []


def test_constructor_names():
    from jdx.engine.member_render import constructor_name

    assert constructor_name("java/util/HashMap") == "HashMap"
    assert constructor_name("java/util/Map$Entry") == "Entry"
    assert constructor_name("p/Foo$1") == "Foo$1"
    assert constructor_name("p/Foo$1Local") == "Local"
    assert constructor_name("a/b/RealConnection$connectTls$1") == "RealConnection$connectTls$1"
    assert constructor_name("p/Foo$1@0123456789abcdef") == "Foo$1"  # a shadowed copy's graph id


def _ctor_lines(run_jdx, name: str, args) -> dict[str, list[str]]:
    """The constructor lines of show's, outline's, members' and signature's text for `name`."""
    out = {}
    for command, extra in (("outline", ()), ("members", ("--declared", "--access", "all")),
                           ("signature", ()), ("outline", ("--view", "jvm"))):
        r = run_jdx(command, name + ("#<init>" if command == "signature" else ""), *extra, *args)
        assert r.code == 0, r.err
        out[" ".join((command, *extra))] = [line.strip() for line in r.out.splitlines()
                                             if line.strip().startswith("constructor")]
    return out


@pytest.mark.parametrize("name", LAMBDAS)
def test_a_lambda_class_constructor_is_named_by_its_class(run_jdx, jar_args, name):
    simple = name.split(".", 1)[1]
    lines = _ctor_lines(run_jdx, name, jar_args)
    assert set(map(tuple, lines.values())) == {(f"constructor {simple}()",)}, lines
    r = run_jdx("show", name, *jar_args)
    assert r.code == 0 and "KOTLIN_VIEW_UNAVAILABLE" not in r.out + r.err, r.out + r.err
    assert f"anonymous class {simple}" in r.out


JAVA = {"p/Foo.java": """package p;
public class Foo {
    Foo() {}
    public Runnable make() {
        class Local implements Runnable { Local(int x) {} public void run() {} }
        new Local(1);
        return new Runnable() { public void run() {} };
    }
}
"""}


@pytest.fixture(scope="module")
def java_args(tmp_path_factory):
    if shutil.which("javac") is None or shutil.which("jar") is None:
        pytest.skip("javac and jar are not installed")
    from tests.fixtures.javac import javac_jar

    jar, _ = javac_jar(tmp_path_factory.mktemp("ksyn-java"), JAVA, "p", "anon.jar")
    return ("--jars", str(jar), "--no-jdk")


@pytest.mark.parametrize("name,expected", [
    ("p.Foo", "constructor Foo()"),  # package-private: no modifier, one space
    ("p.Foo$1", "constructor Foo$1(Foo)"),
    ("p.Foo$1Local", "constructor Local(Foo, int)"),
])
def test_java_anonymous_and_local_constructors(run_jdx, java_args, name, expected):
    lines = _ctor_lines(run_jdx, name, java_args)
    # outline and signature add parameter names (arg0, ... here: javac wrote none)
    assert {k: [line.split("(", 1)[0] for line in v] for k, v in lines.items()} == \
        {k: [expected.split("(", 1)[0]] for k in lines}, lines
    assert lines["members --declared --access all"] == [expected]


M2 = Path.home() / ".m2/repository"
OKHTTP = M2 / "com/squareup/okhttp3/okhttp/4.12.0/okhttp-4.12.0.jar"
OKIO = M2 / "com/squareup/okio/okio-jvm/3.6.0/okio-jvm-3.6.0.jar"
STDLIB = M2 / "org/jetbrains/kotlin/kotlin-stdlib/1.9.10/kotlin-stdlib-1.9.10.jar"


@pytest.mark.soak
def test_the_trial_s_okhttp_lambda(run_jdx):
    missing = [str(j) for j in (OKHTTP, OKIO, STDLIB) if not j.exists()]
    if missing:
        print(f"skipped: {', '.join(missing)} absent from the local Maven repository")
        pytest.skip(f"{', '.join(missing)} absent from the local Maven repository")
    args = ("--jars", str(OKHTTP), "--jars", str(OKIO), "--jars", str(STDLIB), "--no-jdk")
    name = "okhttp3.internal.connection.RealConnection$connectTls$1"
    r = run_jdx("show", name, *args)
    assert r.code == 0, r.err
    assert "kotlin synthetic class" in r.out and "KOTLIN_VIEW_UNAVAILABLE" not in r.out + r.err, r.out
    lines = _ctor_lines(run_jdx, name, args)
    assert {k: [line.split("(", 1)[0] for line in v] for k, v in lines.items()} == \
        {k: ["constructor RealConnection$connectTls$1"] for k in lines}, lines
    assert lines["outline"] == ["constructor RealConnection$connectTls$1(CertificatePinner $certificatePinner, "
                                "Handshake $unverifiedHandshake, Address $address)"]
