"""`doc` and `body` of record components and of tags inherited under a comment of one's own (trial t38):

- a record component's private final field (javap -p shows it; the sources declare it only in the record header) is
  located at its component in the header, never reported absent (SOURCES_VERSION_MISMATCH), and documented by the
  record comment's `@param` of that component;
- a record's accessor without a main description of its own (implicit, or declared without a comment) is documented
  by that `@param` too; one with its own comment keeps it;
- a method with its own main description that inherits only `@param`/`@return` is not labelled as inheriting its
  whole comment: the tags are named with the declaration that supplied them, found through a `{@inheritDoc}`-only
  comment in between (HashMap#get: AbstractMap's comment is `{@inheritDoc}` and tags, Map's supplies them).

Fixture: package `rc` compiled by javac at test time, indexed from its class directory with its source directory;
oracles: javap -p (the record's fields), the javadoc tool's HTML (the inherited tag texts), the source files. The
same three cases on the JDK's lib/src.zip when it is installed."""

from __future__ import annotations

import html
import json
import re
import shutil
import zipfile
from pathlib import Path

import pytest

from tests.fixtures import jdktool
from tests.fixtures.javac import javac_jar

pytestmark = pytest.mark.soak  # a trial's regression family with its own graph builds: the soak runs it whole (.ci/run)

SOURCES = {
    "rc/R.java": (
        "package rc;\n"                                                   # 1
        "/**\n"                                                           # 2
        " * A user, groups and a count.\n"                                # 3
        " *\n"                                                            # 4
        " * @param user the user identity\n"                              # 5
        " * @param group the group identities\n"                          # 6
        " * @param count how many there are\n"                            # 7
        " */\n"                                                           # 8
        "public record R(@Deprecated String user, // the name\n"          # 9
        "                java.util.List<java.util.Map<String, Integer>> group,\n"  # 10
        "                int count) {\n"                                  # 11
        "    /**\n"                                                       # 12
        "     * The count, never negative.\n"                             # 13
        "     * @return the count\n"                                      # 14
        "     */\n"                                                       # 15
        "    public int count() { return count; }\n"                      # 16
        "    public java.util.List<java.util.Map<String, Integer>> group() { return group; }\n"  # 17
        "}\n"),
    "rc/M.java": (
        "package rc;\n"
        "public interface M<K, V> {\n"
        "    /**\n"
        "     * Returns the value of the key.\n"
        "     *\n"
        "     * @param key the key whose value is returned\n"
        "     * @return the value, or null\n"
        "     */\n"
        "    V get(Object key);\n"
        "}\n"),
    "rc/AM.java": (
        "package rc;\n"
        "public abstract class AM<K, V> implements M<K, V> {\n"
        "    /**\n"
        "     * {@inheritDoc}\n"
        "     *\n"
        "     * @throws ClassCastException when the key is of another type\n"
        "     */\n"
        "    public V get(Object key) { return null; }\n"
        "}\n"),
    "rc/HM.java": (
        "package rc;\n"
        "public class HM<K, V> extends AM<K, V> implements M<K, V> {\n"
        "    /**\n"
        "     * Looks the key up in the table.\n"
        "     */\n"
        "    public V get(Object key) { return null; }\n"
        "}\n"),
}


@pytest.fixture(scope="module")
def fx(tmp_path_factory, run_jdx):
    if shutil.which("javac") is None or shutil.which("javadoc") is None:
        pytest.skip("javac / javadoc are not installed")
    root = tmp_path_factory.mktemp("docrecords")
    _, classes = javac_jar(root, SOURCES, "rc", "rc.jar", debug=True)
    args = ["--jars", str(classes), "--src", str(root / "src"), "--no-jdk"]
    r = run_jdx("index", *args)
    assert r.code == 0, r.err
    return {"root": root, "classes": classes, "args": args}


def _run(run_jdx, fx, *argv) -> dict:
    r = run_jdx(*argv, *fx["args"], "--json")
    assert r.code == 0, r.out + r.err
    return json.loads(r.out)


def _codes(env) -> list[str]:
    return [w["code"] for w in env["warnings"]]


def test_component_fields_are_in_the_class_file(fx):
    """The oracle of the two record tests below: javac wrote a private final field for each component."""
    out = jdktool.run(["javap", "-p", "-cp", str(fx["classes"]), "rc.R"], check=True, capture_output=True,
                      text=True).stdout
    assert "private final java.lang.String user;" in out
    assert "private final java.util.List<java.util.Map<java.lang.String, java.lang.Integer>> group;" in out


@pytest.mark.parametrize("ref, line", [("rc.R#user:java.lang.String", 9), ("rc.R#group:java.util.List", 10),
                                       ("rc.R#count:int", 11)])
def test_component_field_is_its_header_component(fx, run_jdx, ref, line):
    doc = _run(run_jdx, fx, "doc", ref)
    item = doc["result"]["docs"][0]
    name = ref.split("#")[1].split(":")[0]
    tag = next(ln for ln in SOURCES["rc/R.java"].splitlines() if f"@param {name} " in ln)
    assert item["text"] == [tag.split(f"@param {name} ", 1)[1]], item
    assert "SOURCES_VERSION_MISMATCH" not in _codes(doc) and "NO_DOC" not in _codes(doc), doc["warnings"]
    assert f"@param {name}" in item["documented_by"] and item["source"]["lines"] == [2, 8]
    body = _run(run_jdx, fx, "body", ref)
    r = body["result"]
    assert r["origin"] == "sources" and r["source"]["lines"] == [line, line], r
    assert r["text"] == [SOURCES["rc/R.java"].splitlines()[line - 1]]
    assert f"record component {name}" in r["header"] and r.get("declared_by") == "record component"
    assert not {"SOURCES_VERSION_MISMATCH", "DECOMPILE_FAILED"} & set(_codes(body)), body["warnings"]


def test_accessor_without_its_own_description_has_the_components_param(fx, run_jdx):
    implicit = _run(run_jdx, fx, "doc", "rc.R#user()")
    item = implicit["result"]["docs"][0]
    assert item["text"] == ["the user identity"] and "NO_DOC" not in _codes(implicit)
    assert "record comment of rc.R" in item["documented_by"] and item["source"]["lines"] == [2, 8]
    declared = _run(run_jdx, fx, "doc", "rc.R#group()")["result"]["docs"][0]  # declared, no comment
    assert declared["text"] == ["the group identities"]
    own = _run(run_jdx, fx, "doc", "rc.R#count()")["result"]["docs"][0]  # its own comment stays
    assert own["text"] == ["The count, never negative.", "", "@return the count"]
    assert not own.get("documented_by") and own["source"]["lines"] == [12, 15]


def _javadoc_params(fx) -> dict:
    out = fx["root"] / "jd"
    if not out.exists():
        jdktool.javadoc(out, [fx["root"] / "src" / "rc" / f"{c}.java" for c in ("M", "AM", "HM")])
    page = (out / "rc" / "HM.html").read_text()
    section = page[page.index('<section class="detail" id="get(java.lang.Object)">'):]
    section = section[:section.index("</section>")]
    notes, current = {}, None
    for m in re.finditer(r"<dt>(.*?)</dt>|<dd>(.*?)</dd>", section, re.S):
        if m.group(1) is not None:
            current = notes.setdefault(m.group(1).strip(), [])
        elif current is not None:
            current.append(" ".join(html.unescape(re.sub(r"<[^>]+>", "", m.group(2))).split()))
    return notes


def test_own_description_inherits_only_tags_from_their_supplier(fx, run_jdx):
    item = _run(run_jdx, fx, "doc", "rc.HM#get(Object)")["result"]["docs"][0]
    oracle = _javadoc_params(fx)
    assert item["text"][0] == "Looks the key up in the table."
    assert [" - ".join(ln.split(None, 2)[1:]) for ln in item["text"] if ln.startswith("@param")] == \
        oracle["Parameters:"]
    assert [ln[len("@return "):] for ln in item["text"] if ln.startswith("@return")] == oracle["Returns:"]
    assert item["inherited_from"] is None  # the description is its own
    assert [(g["tags"], g["from"]) for g in item["inherited_tags"]] == [
        (["@param key", "@return"], "rc.M#get(java.lang.Object)")]
    assert item["source"]["file"].endswith("rc/HM.java")
    assert item["inherited_source"]["file"].endswith("rc/M.java")  # not AM.java: its comment has neither tag
    a, b = item["inherited_source"]["lines"]  # the lines of the tags taken
    assert [ln.strip() for ln in SOURCES["rc/M.java"].splitlines()[a - 1:b]] == [
        "* @param key the key whose value is returned", "* @return the value, or null"]
    assert "@param key and @return inherited from rc.M#get(java.lang.Object)" in item["documented_by"]
    text = run_jdx("doc", "rc.HM#get(Object)", *fx["args"])
    assert "inherited from rc.AM" not in text.out and "(inherited from" not in text.out.splitlines()[0], text.out
    # AM's description is `{@inheritDoc}`: its whole comment is inherited, as before
    am = _run(run_jdx, fx, "doc", "rc.AM#get(Object)")["result"]["docs"][0]
    assert am["inherited_from"] == "rc.M#get(java.lang.Object)" and am["text"][0] == "Returns the value of the key."


# ---- the JDK's own sources (lib/src.zip), when installed ------------------------------------------------------------

@pytest.fixture(scope="module")
def jdk(jdx_home):
    from tests.service import JdxService, Options

    s = JdxService(Options(cache_dir=str(jdx_home / "cache")))
    art = next((a for a in s.artifacts() if a.name == "java.base"), None)
    home = Path(art.spec[len("jrt:"):].rsplit("!", 1)[0]) if art is not None else None
    if home is None or not (home / "lib" / "src.zip").is_file():
        s.close()
        pytest.skip("no JDK lib/src.zip (Debian/Ubuntu: apt-get install openjdk-17-source)")
    with zipfile.ZipFile(home / "lib" / "src.zip") as z:
        names = set(z.namelist())
        texts = {n: z.read(n).decode() for n in ("jdk.net/jdk/net/UnixDomainPrincipal.java",
                                                 "java.base/java/util/Map.java") if n in names}
    if len(texts) < 2:
        s.close()
        pytest.skip("this src.zip lacks jdk.net/UnixDomainPrincipal.java")
    yield s, texts
    s.close()


def test_jdk_record_component_field_and_accessor(jdk):
    service, texts = jdk
    lines = texts["jdk.net/jdk/net/UnixDomainPrincipal.java"].splitlines()
    header = next(i for i, ln in enumerate(lines, 1) if ln.startswith("public record UnixDomainPrincipal("))
    tag = next(ln.split("@param user ", 1)[1] for ln in lines if "@param user " in ln)
    field = service.doc("jdk.net.UnixDomainPrincipal#user:java.nio.file.attribute.UserPrincipal")
    assert field.result["docs"][0]["text"] == [tag]
    assert not [w for w in field.warnings if w.code in ("SOURCES_VERSION_MISMATCH", "NO_DOC")], field.warnings
    body = service.body("jdk.net.UnixDomainPrincipal#user:java.nio.file.attribute.UserPrincipal")
    assert body.result["origin"] == "sources" and body.result["source"]["lines"] == [header, header]
    assert not [w for w in body.warnings if w.code in ("SOURCES_VERSION_MISMATCH", "DECOMPILE_FAILED")]
    accessor = service.doc("jdk.net.UnixDomainPrincipal#user()")
    assert accessor.result["docs"][0]["text"] == [tag]
    assert not [w for w in accessor.warnings if w.code == "NO_DOC"]


def test_jdk_hashmap_get_inherits_tags_from_map(jdk):
    service, texts = jdk
    item = service.doc("java.util.HashMap#get(Object)").result["docs"][0]
    assert item["inherited_from"] is None and item["source"]["file"].endswith("java/util/HashMap.java")
    assert [(g["tags"], g["from"]) for g in item["inherited_tags"]] == [
        (["@param key", "@return"], "java.util.Map#get(java.lang.Object)")]
    assert item["inherited_source"]["file"].endswith("java/util/Map.java")
    a, b = item["inherited_source"]["lines"]  # the lines of the two tags, not the whole comment
    written = [ln.strip() for ln in texts["java.base/java/util/Map.java"].splitlines()[a - 1:b]]
    assert written[0] == "* @param key the key whose associated value is to be returned"
    assert written[1].startswith("* @return ") and not any("@throws" in ln for ln in written), written
