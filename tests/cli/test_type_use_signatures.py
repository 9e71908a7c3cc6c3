"""`signature` writes a member's type annotations on its own types where source writes them (JLS §9.7.4): the
return type's, each parameter's and a field's, `String @N []` when the array itself is annotated; one inside the
type (`List<@N String>`, the elements of `@N String[]`) is not the value's own and is not shown. T93: the Checker
Framework's `@Nullable` of the PostgreSQL driver (1,275 of them) was shown nowhere, and `getChoices()` returns null.

Oracle: javap -v, whose RuntimeVisibleTypeAnnotations name each annotation's target and location."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from tests.fixtures.javac import javac_jar

SOURCES = {
    "tu/N.java": "package tu; import java.lang.annotation.*; @Retention(RetentionPolicy.RUNTIME) "
                 "@Target(ElementType.TYPE_USE) public @interface N {}",
    "tu/T.java": """package tu;
import java.util.List;
public class T {
  public @N String f;
  public @N String a() { return null; }
  public String @N [] b() { return null; }
  public @N String[] c() { return null; }
  public List<@N String> d() { return null; }
  public void e(@N String x, int y) {}
  public void g(String @N ... xs) {}
  public static <X> @N X h(@N List<X> in) { return null; }
}
""",
}


@pytest.fixture(scope="module")
def jar(tmp_path_factory):
    if shutil.which("javac") is None:
        pytest.skip("javac is not installed")
    return javac_jar(tmp_path_factory.mktemp("tu"), SOURCES, "tu", "tu.jar", debug=True)[0]


def test_the_oracle(jar):
    out = subprocess.run(["javap", "-v", "-p", "-cp", str(jar), "tu.T"], capture_output=True, text=True).stdout
    block = {m: out.split(m, 1)[1].split("\n\n", 1)[0] for m in ("java.lang.String[] b()", "java.lang.String[] c()")}
    assert "METHOD_RETURN\n" in block["java.lang.String[] b()"]  # the array itself
    assert "METHOD_RETURN, location=[ARRAY]" in block["java.lang.String[] c()"]  # its elements


EXPECTED = {
    "tu.T#f": "field public @tu.N String f",
    "tu.T#a": "method public @tu.N String a()",
    "tu.T#b": "method public String @tu.N [] b()",
    "tu.T#c": "method public String[] c()",
    "tu.T#d": "method public List<String> d()",
    "tu.T#e": "method public void e(@tu.N String x, int y)",
    "tu.T#g": "method public void g(String @tu.N ... xs)",
    "tu.T#h": "method public static <X> @tu.N X h(@tu.N List<X> in)",
}


@pytest.mark.parametrize("ref", sorted(EXPECTED))
def test_signature_writes_type_annotations_on_the_types(jar, run_jdx, ref):
    r = run_jdx("signature", ref, "--jars", str(jar), "--no-jdk")
    assert r.code == 0, r.out + r.err
    assert r.out.splitlines()[1].strip() == EXPECTED[ref], r.out


def test_json_lists_them(jar, run_jdx):
    a = json.loads(run_jdx("signature", "tu.T#a", "--jars", str(jar), "--no-jdk", "--json").out)["result"]
    assert a["signatures"][0]["type_annotations"] == ["@tu.N"]
    e = json.loads(run_jdx("signature", "tu.T#e", "--jars", str(jar), "--no-jdk", "--json").out)["result"]
    assert [p.get("annotations") for p in e["signatures"][0]["params"]] == [["@tu.N"], None]
    c = json.loads(run_jdx("signature", "tu.T#c", "--jars", str(jar), "--no-jdk", "--json").out)["result"]
    assert "type_annotations" not in c["signatures"][0]
