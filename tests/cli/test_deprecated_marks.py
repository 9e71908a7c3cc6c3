"""A member deprecated by its javadoc tag alone (the class file's Deprecated attribute, no @Deprecated annotation:
what javac writes for `@deprecated` in a comment, and what older libraries ship) is marked deprecated by `signature`
and `doc` as `members` marks it; before, `signature` printed nothing (it shows annotations only) and `doc` of a
class without sources said only "(no javadoc)". An annotated one keeps its annotation, never a second mark.

Oracle: javap -v (the `Deprecated: true` attribute, and the RuntimeVisibleAnnotations of the annotated one).
"""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from tests.fixtures.javac import javac_jar

SOURCE = """package dm;
public class Old {
  /** @deprecated use {@link #b()} */
  public void a() {}
  @Deprecated public void c() {}
  public void b() {}
}
"""


@pytest.fixture(scope="module")
def jar(tmp_path_factory):
    if shutil.which("javac") is None:
        pytest.skip("javac is not installed")
    return javac_jar(tmp_path_factory.mktemp("dm"), {"dm/Old.java": SOURCE}, "dm", "dm.jar")[0]


def test_a_javadoc_only_deprecation_is_marked(jar, run_jdx):
    javap = subprocess.run(["javap", "-v", "-cp", str(jar), "dm.Old"], capture_output=True, text=True).stdout
    a_block = javap.split("public void a();", 1)[1].split("public void", 1)[0]
    assert "Deprecated: true" in a_block and "RuntimeVisibleAnnotations" not in a_block  # the oracle's premise
    flags = ["--jars", str(jar), "--no-jdk"]
    sig = run_jdx("signature", "dm.Old#a", *flags)
    assert sig.code == 0 and "  method public void a()  @Deprecated" in sig.out, sig.out
    annotated = run_jdx("signature", "dm.Old#c", *flags).out
    assert "method @java.lang.Deprecated public void c()" in annotated and "@Deprecated\n" not in annotated
    assert "@Deprecated" not in run_jdx("signature", "dm.Old#b", *flags).out
    doc = run_jdx("doc", "dm.Old#a", *flags)
    assert doc.out.splitlines()[0] == "method dm.Old#a()  @Deprecated", doc.out
    docs = json.loads(run_jdx("doc", "dm.Old#a", *flags, "--json").out)["result"]["docs"]
    assert docs[0]["deprecated"] is True
    assert json.loads(run_jdx("doc", "dm.Old#b", *flags, "--json").out)["result"]["docs"][0]["deprecated"] is False
