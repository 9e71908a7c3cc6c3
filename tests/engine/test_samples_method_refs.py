"""`samples` leaves method references (`Lib::twice`) out of its sites (they show no use of the parameters) while
`usages` counts them as calls: the samples answer says how many it left out, so the two totals reconcile (a trial
read 1,229 samples against 1,231 usages with no word why). Oracle: javap -c of the client (invokestatic sites and
the invokedynamic bootstrap's method handle)."""

from __future__ import annotations

import shutil

import pytest

from tests.fixtures import jdktool
from tests.fixtures.javac import javac_jar
from tests.service import JdxService, Options

SOURCES = {
    "sm/Lib.java": "package sm;\npublic class Lib {\n    public static int twice(int x) { return 2 * x; }\n}\n",
    "sm/Use.java": """package sm;
import java.util.function.IntUnaryOperator;
public class Use {
    int direct() { return Lib.twice(3) + Lib.twice(4); }
    IntUnaryOperator ref() { return Lib::twice; }
}
""",
}


@pytest.fixture(scope="module")
def svc(tmp_path_factory, jdx_home):
    if shutil.which("javac") is None or shutil.which("javap") is None:
        pytest.skip("javac/javap are not installed")
    jar, classes = javac_jar(tmp_path_factory.mktemp("samples_refs"), SOURCES, "sm", "sm.jar", debug=True)
    text = jdktool.run(["javap", "-c", "-p", "-v", str(classes / "sm/Use.class")], capture_output=True, text=True,
                       check=True).stdout
    assert text.count("invokestatic  #") == 2 and "REF_invokeStatic sm/Lib.twice:(I)I" in text  # the oracle
    service = JdxService(Options(jars=[str(jar)], jdk=False, cache_dir=str(jdx_home / "cache")))
    yield service
    service.close()


def test_samples_say_the_method_references_they_leave_out(svc):
    usages = svc.usages("sm.Lib#twice").result
    samples = svc.samples("sm.Lib#twice").result
    assert usages["total"] == 3 and samples["total"] == 2
    assert "1 method reference (Foo::bar) left out of the total: `usages` counts it as calls" in samples["notes"]
