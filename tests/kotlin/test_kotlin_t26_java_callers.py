"""The Kotlin view (`members`, `signature`) read by a Java caller of a Kotlin library (okhttp 4's `Request`,
`OkHttpClient`, `ResponseBody`, `HttpUrl` in small): a property whose getter `@get:JvmName` renamed says so
(`val url` is Java's `url()`), a function whose `@JvmName` is no Java identifier (`-deprecated_url`) is Kotlin-only,
`signature` of a property lists every accessor (`Req#routeDatabase`: its getter, not only its private field),
`--grep` matches the Kotlin name shown, a `@Throws` function shows what Java must catch, and `members` says
`in companion object` of a companion's @JvmStatic/@JvmField copies as `outline` does.

Oracles: javap (the JVM names, `throws`, the deprecated flag) and javac compiling a Java caller (it calls
`url()`, `getRouteDatabase()`, `changeSecure(…)`, `Req.of(…)`, `Req.get(…)`, and must catch `IOException` of
`string()`)."""

from __future__ import annotations

import subprocess

import pytest

from jdx.commands.cards import members_answer
from jdx.engine.cards import OutlineOptions
from jdx.engine.members import MemberOptions
from tests.fixtures import jdktool
from tests.fixtures.javac import javap
from tests.kotlin.corpus import kotlinc_jar
from tests.service import JdxService, Options

pytestmark = pytest.mark.soak  # a trial's regression family with its own graph builds: the soak runs it whole (.ci/run)

LIB = '''package jc

import java.io.IOException

class Db

annotation class Tag(val value: String)

class Req(url: String, val routeDatabase: Db) {
    @get:JvmName("url")
    val url: String = url

    @JvmName("-deprecated_url")
    @Deprecated(message = "moved to val", replaceWith = ReplaceWith(expression = "url"), level = DeprecationLevel.ERROR)
    fun url(): String = url

    @set:JvmName("changeSecure")
    var secure: Boolean = false

    val isHttps: Boolean get() = url.startsWith("https")

    @Throws(IOException::class)
    fun string(): String = url

    companion object {
        @JvmStatic fun of(u: String): Req = Req(u, Db())

        @JvmField val DEFAULT_PORT: Int = 80

        @JvmStatic
        @JvmName("get")
        fun String.toReq(): Req = Req(this, Db())
    }
}
'''

CALLER = '''import jc.*;
import java.io.IOException;

class Caller {
    static String use(Req r) {
        r.changeSecure(r.getSecure() || r.isHttps());
        Db db = r.getRouteDatabase();
        int port = Req.DEFAULT_PORT;
        Req other = Req.of("http://x");
        Req third = Req.get("http://y");
        try {
            return r.url() + r.string() + other.url() + third.url() + port + db;
        } catch (IOException e) {
            return null;
        }
    }
}
'''


def _jar():
    return kotlinc_jar("t26-java-callers", {"Lib.kt": LIB})


@pytest.fixture(scope="module")
def service(jdx_home):
    s = JdxService(Options(jars=[str(_jar())], jdk=False, cache_dir=str(jdx_home / "cache")))
    yield s
    s.close()


def _javac(tmp_path, text: str) -> subprocess.CompletedProcess:
    (tmp_path / "Caller.java").write_text(text)
    return jdktool.run(["javac", "-d", str(tmp_path / "out"), "-cp", str(_jar()), str(tmp_path / "Caller.java")],
                       capture_output=True, text=True)


def _members(service, cls: str, **opts) -> dict:
    return members_answer(service, cls, MemberOptions(**opts), "kotlin").result


def _by_jvm_name(result: dict) -> dict[str, dict]:
    return {m["name"]: m for m in result["members"]}


def test_the_oracles(tmp_path):
    out = javap(_jar(), "jc.Req")
    assert "public final java.lang.String url();" in out, out
    assert "public final java.lang.String -deprecated_url();" in out
    assert "public final jc.Db getRouteDatabase();" in out and "private final jc.Db routeDatabase;" in out
    assert "public final void changeSecure(boolean);" in out
    assert "public final java.lang.String string() throws java.io.IOException;" in out
    assert "public static final jc.Req of(java.lang.String);" in out
    assert "public static final jc.Req get(java.lang.String);" in out
    assert "public static final int DEFAULT_PORT;" in out
    verbose = javap(_jar(), "jc.Req", "-v")  # the deprecated method is `-deprecated_url`, not the getter `url()`
    getter = verbose.split("public final java.lang.String url();", 1)[1].split("public final", 1)[0]
    assert "Deprecated" not in getter
    renamed = verbose.split("public final java.lang.String -deprecated_url();", 1)[1].split("public final", 1)[0]
    assert "Deprecated: true" in renamed, renamed
    # a Java caller compiles as the rows say: `url()` is the property, the IOException must be caught
    done = _javac(tmp_path, CALLER)
    assert done.returncode == 0, done.stderr
    done = _javac(tmp_path, CALLER.replace("} catch (IOException e) {\n            return null;\n        }", "}")
                  .replace("try {", "{"))
    assert done.returncode != 0 and "unreported exception IOException" in done.stderr, done.stderr
    done = _javac(tmp_path, CALLER.replace("r.url() +", "r.-deprecated_url() +"))
    assert done.returncode != 0  # no Java source names it


def test_a_getter_renamed_by_get_jvmname_says_so(service):
    rows = _by_jvm_name(_members(service, "jc.Req", inherited=False))
    url = rows["url"]["kotlin"]
    assert (url["text"], url["markers"]) == ("public val url: String", ["@get:JvmName url"]), url
    assert not rows["url"]["deprecated"]
    secure = rows["changeSecure"]["kotlin"]  # the getter keeps its name, the setter is renamed (its row the first)
    assert (secure["text"], secure["markers"]) == ("public var secure: Boolean", ["@set:JvmName changeSecure"])
    assert rows["isHttps"]["kotlin"]["markers"] == []  # `isHttps()` is the default getter of `isHttps`
    assert rows["getRouteDatabase"]["kotlin"]["markers"] == []
    # an annotation class's `val value` compiles to `value()` (javap) with no @JvmName: no marker
    assert "public abstract java.lang.String value();" in javap(_jar(), "jc.Tag")
    tag = _by_jvm_name(_members(service, "jc.Tag", inherited=False))["value"]["kotlin"]
    assert (tag["text"], tag["markers"]) == ("public val value: String", []), tag


def test_a_function_java_cannot_name_is_kotlin_only(service):
    row = _by_jvm_name(_members(service, "jc.Req", inherited=False))["-deprecated_url"]
    assert row["deprecated"]
    # deprecated at level ERROR: Kotlin cannot call it either, so its level is said, not `Kotlin-only`
    assert (row["kotlin"]["text"], row["kotlin"]["markers"]) == (
        "public fun url(): String", ["@JvmName -deprecated_url",
                                     "deprecated at level ERROR: not callable; Java's url() is the getter of val url"])
    # a @JvmName Java can write stays a plain marker
    row = _by_jvm_name(_members(service, "jc.Req", inherited=False))["get"]
    assert "@JvmName get" in row["kotlin"]["markers"], row


def test_signature_of_a_property_lists_every_accessor(service):
    got = service.signature("jc.Req#routeDatabase", "kotlin").result
    assert [(s["ref"], s["kotlin"]["role"]) for s in got["signatures"]] == [
        ("jc.Req#getRouteDatabase()", "getter"), ("jc.Req#routeDatabase", "field")], got["signatures"]
    assert got["total"] == 2
    assert all(s["kotlin"]["text"] == "public val routeDatabase: Db" for s in got["signatures"])
    got = service.signature("jc.Req#secure", "kotlin").result  # by the Kotlin name: the JVM has no member named so
    assert [(s["ref"], s["kotlin"]["role"]) for s in got["signatures"]] == [
        ("jc.Req#getSecure()", "getter"), ("jc.Req#changeSecure(boolean)", "setter"), ("jc.Req#secure", "field")], \
        got["signatures"]
    got = service.signature("jc.Req#url", "kotlin").result  # the getter and the field share the JVM name: as before
    assert [(s["ref"], s["kotlin"]["role"]) for s in got["signatures"]] == [
        ("jc.Req#url()", "getter"), ("jc.Req#url:java.lang.String", "field"),
        ("jc.Req#-deprecated_url()", "method")], got["signatures"]  # `fun url()` too, under its @JvmName (T68)
    assert got["signatures"][2]["kotlin"]["markers"][-1].startswith("deprecated at level ERROR: not callable"), \
        got["signatures"]
    # the JVM view is what the JVM names
    got = service.signature("jc.Req#routeDatabase", "jvm").result
    assert [s["ref"] for s in got["signatures"]] == ["jc.Req#routeDatabase"]


def test_grep_matches_the_kotlin_name(service):
    names = {m["kotlin"]["text"] for m in _members(service, "jc.Req", grep="^toReq$")["members"]}
    assert names == {"public fun String.toReq(): Req"}, names
    # either name: the JVM name still finds its declaration
    names = {m["kotlin"]["text"] for m in _members(service, "jc.Req", grep="^get$")["members"]}
    assert names == {"public fun String.toReq(): Req"}, names
    refs = [m["ref"] for m in _members(service, "jc.Req", grep="^url$")["members"]]
    assert sorted(refs) == ["jc.Req#-deprecated_url()", "jc.Req#url()"], refs
    # no JVM member is named `secure` (javap): the property's row, its accessors folded into the first one
    rows = _members(service, "jc.Req", grep="^secure$")["members"]
    assert [(m["ref"], m["kotlin"]["text"]) for m in rows] == [("jc.Req#changeSecure(boolean)",
                                                                "public var secure: Boolean")], rows
    assert _members(service, "jc.Req", grep="^nothing$")["members"] == []


def test_throws_is_shown_in_kotlin_rows(service):
    rows = _by_jvm_name(_members(service, "jc.Req", inherited=False))
    assert "@Throws(IOException::class)" in rows["string"]["kotlin"]["markers"], rows["string"]
    assert not any("Throws" in x for x in rows["getRouteDatabase"]["kotlin"]["markers"])
    sig = service.signature("jc.Req#string", "kotlin").result["signatures"][0]
    assert sig["kotlin"]["annotations"] == ["@Throws(IOException::class)"], sig["kotlin"]
    assert sig["throws"] == ["IOException"]


def test_members_says_in_companion_object(service):
    rows = _by_jvm_name(_members(service, "jc.Req", inherited=False))
    for name in ("of", "get", "DEFAULT_PORT"):
        assert "in companion object" in rows[name]["kotlin"]["markers"], rows[name]["kotlin"]
    assert "in companion object" not in rows["string"]["kotlin"]["markers"]
    outline = service.outline("jc.Req", OutlineOptions(view="kotlin")).result
    marked = {k["name"] for k in outline["kotlin_members"] if "in companion object" in k["markers"]}
    assert marked == {"of", "toReq", "DEFAULT_PORT"}, marked


def test_the_rendered_rows(service):
    from jdx.render.read import members

    lines = members(_members(service, "jc.Req", inherited=False), False, None, None)
    assert "  public val url: String  [@get:JvmName url]" in lines, lines
    assert ("  public fun url(): String  [@JvmName -deprecated_url, deprecated at level ERROR: not callable; "
            "Java's url() is the getter of val url]  @Deprecated") in lines, lines
