"""What a Java reader of a Kotlin class is told about the JVM names kotlinc's @JvmName moved (okhttp 4's `Response`,
`Request`, okio's `BufferedSource` in small: the t26 fixture's `jc.Req`, `@get:JvmName("url") val url` beside
`@JvmName("-deprecated_url") @Deprecated(level = ERROR) fun url()`):

- the function's `not callable` marker says what Java's `url()` is, the getter of `val url` (members, outline,
  signature), and says nothing when no accessor took the name (outline-deprecated's `val body`, getter `getBody()`);
- `members --view jvm` marks a JVM name Java source cannot write (`-deprecated_url`) `not callable from Java`;
- `callers` names by their JVM names the overloads whose parameter lists are the same (`url()`, `-deprecated_url()`);
- `usages` of a property says `property` and which of its targets are its own (`across its getter and field, and
  method -deprecated_url()`);
- `resolve 'jc.Req.url'` lists the getter, labelled `val url`'s, before the deprecated `-deprecated_url()`.

Oracles: javap (both `url()` and `-deprecated_url()` take no parameter; `url()` is not deprecated, the other is; the
outline fixture has `getBody()`, no `body()`) and javac (a Java caller's `r.url()` compiles and returns the
property's String; `r.-deprecated_url()` does not compile)."""

from __future__ import annotations

import pytest

from tests.fixtures.javac import javap
from tests.kotlin.test_kotlin_t26_java_callers import CALLER, _jar, _javac

NOT_CALLABLE = "deprecated at level ERROR: not callable"
NAMESAKE = "Java's url() is the getter of val url"


@pytest.fixture(scope="module")
def jar():
    return str(_jar())


def test_the_oracles(tmp_path, jar):
    out = javap(jar, "jc.Req")
    assert "public final java.lang.String url();" in out and "public final java.lang.String -deprecated_url();" in out
    assert _javac(tmp_path, CALLER).returncode == 0  # `r.url()`: the getter Java calls by the function's name
    assert _javac(tmp_path, CALLER.replace("r.url() +", "r.-deprecated_url() +")).returncode != 0


def _line(out: str, start: str) -> str:
    return next(line for line in out.splitlines() if line.strip().startswith(start))


@pytest.mark.parametrize("command", ["members", "outline"])
def test_the_not_callable_marker_says_what_javas_call_is(run_jdx, jar, command):
    r = run_jdx(command, "jc.Req", "--jars", jar, "--no-jdk")
    assert r.code == 0, r.out + r.err
    assert f"[@JvmName -deprecated_url, {NOT_CALLABLE}; {NAMESAKE}]" in _line(r.out, "public fun url()"), r.out
    assert _line(r.out, "public val url").endswith("[@get:JvmName url]"), r.out


def test_signature_says_it_too(run_jdx, jar):
    r = run_jdx("signature", "jc.Req#url", "--jars", jar, "--no-jdk", "--json")
    import json

    sigs = json.loads(r.out)["result"]["signatures"]
    marks = {s["ref"]: s["kotlin"]["markers"] for s in sigs}
    assert marks["jc.Req#-deprecated_url()"][-1] == f"{NOT_CALLABLE}; {NAMESAKE}", marks


def test_no_namesake_when_no_accessor_took_the_name(run_jdx):
    from tests.kotlin.corpus import kotlinc_jar
    from tests.kotlin.test_kotlin_outline_deprecated import SOURCE

    jar = str(kotlinc_jar("outline-deprecated", {"Req.kt": SOURCE}))
    out = javap(jar, "kd.Req")
    assert "getBody()" in out and " body()" not in out  # Java has no `body()`: nothing to point at
    r = run_jdx("outline", "kd.Req", "--jars", jar, "--no-jdk")
    assert _line(r.out, "public fun body()").split("  [", 1)[1].startswith(
        f"@JvmName -deprecated_body, {NOT_CALLABLE}]"), r.out


def test_the_jvm_view_marks_names_java_cannot_write(run_jdx, jar):
    r = run_jdx("members", "jc.Req", "--jars", jar, "--no-jdk", "--view", "jvm", "--declared")
    assert r.code == 0, r.out + r.err
    assert "-deprecated_url()  [not callable from Java: not a Java identifier]  @Deprecated" in r.out, r.out
    assert "not callable" not in _line(r.out, "method public final String url()"), r.out
    assert "not callable" not in _line(r.out, "constructor"), r.out
    import json

    rows = json.loads(run_jdx("members", "jc.Req", "--jars", jar, "--no-jdk", "--view", "jvm", "--json").out)
    flagged = {m["name"] for m in rows["result"]["members"] if m.get("not_java_identifier")}
    assert flagged == {"-deprecated_url"}, flagged


def test_callers_name_overloads_the_parameters_do_not_tell_apart(run_jdx, jar):
    r = run_jdx("callers", "jc.Req#url", "--jars", jar, "--no-jdk")
    assert r.code == 0, r.out + r.err
    assert "callers of jc.Req#url  (depth 1): none in workspace for 1 of 2 overloads: -deprecated_url()" in r.out, \
        r.out


def test_usages_of_a_property_say_property(run_jdx, jar):
    r = run_jdx("usages", "jc.Req#url", "--jars", jar, "--no-jdk")
    assert r.code == 0, r.out + r.err
    head = r.out.splitlines()[0]
    assert head.startswith("usages of property jc.Req#url: "), head
    assert head.endswith(" across its getter and field, and method -deprecated_url()"), head


def test_resolve_lists_the_getter_before_the_deprecated_function(run_jdx, jar):
    r = run_jdx("resolve", "jc.Req.url", "--jars", jar, "--no-jdk")
    assert r.code == 0, r.out + r.err
    lines = [line for line in r.out.splitlines() if line.startswith("method ")]
    assert lines[0].startswith("method jc.Req#url()") and "[getter of Kotlin val url: String]" in lines[0], r.out
    assert lines[1].startswith("method jc.Req#-deprecated_url() [deprecated]"), r.out
