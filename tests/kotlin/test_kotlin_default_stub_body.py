"""`body` of a Kotlin `$default` stub the decompiler leaves out (a trial on kotlin-scripting-jvm 2.0.21): Procyon's
text of `JvmScriptCompilationKt` has no `dependenciesFromCurrentContext$default`, and `body` showed the facade's
header and its raw @Metadata (6 KB) as the stub's "implicit" text. The stub's code is where a binary-only jar keeps
the default values (`wholeClasspath = false`): the next rung, javap, has it, labelled, with a warning saying why.
Oracle: `javap -c` of the same method."""

from __future__ import annotations

import json
import shutil

import pytest

from tests.fixtures import jdktool
from tests.kotlin.corpus import M2

pytestmark = pytest.mark.soak  # indexes a ~1 MB Kotlin jar and decompiles a facade: the soak runs it (.ci/run)

JAR = M2 / "kotlin-scripting-jvm/2.0.21/kotlin-scripting-jvm-2.0.21.jar"
FACADE = "kotlin.script.experimental.jvm.JvmScriptCompilationKt"
STUB = f"{FACADE}#dependenciesFromCurrentContext$default"


@pytest.fixture(scope="module")
def jar():
    if not JAR.exists():
        pytest.skip(f"{JAR} is absent (the local Maven repository has no kotlin-scripting-jvm 2.0.21)")
    if shutil.which("procyon") is None:
        pytest.skip("procyon is not installed (Debian package procyon-decompiler, see .ci/run)")
    return JAR


def _javap_code(jar) -> list[str]:
    out = jdktool.run(["javap", "-c", "-p", "-cp", str(jar), FACADE], capture_output=True, text=True,
                      check=True).stdout
    start = out.index("dependenciesFromCurrentContext$default(")
    block = out[start:out.index("\n\n", start)]
    return [line.split(":", 1)[1].split("//")[0].strip() for line in block.splitlines() if ": " in line
            and line.strip()[:1].isdigit()]


def test_a_default_stub_the_decompiler_leaves_out_is_javap_labelled(run_jdx, jar):
    code = _javap_code(jar)
    assert code[:6] == ["iload         4", "iconst_2", "iand", "ifeq          9", "iconst_0", "istore_2"], code
    r = run_jdx("body", STUB, "--jars", str(jar), "--no-jdk", "--json")
    assert r.code == 0, r.err
    answer = json.loads(r.out)
    result = answer["result"]
    assert result["origin"] == "javap", result["header"]
    text = "\n".join(result["text"])
    assert "@Metadata" not in text and "iconst_2" in text and "invokestatic" in text, text
    shown = [line.split(":", 1)[1].split("//")[0].strip() for line in result["text"] if ": " in line
             and line.strip()[:1].isdigit()]
    assert shown[:len(code)] == code, shown
    failed = [w for w in answer["warnings"] if w["code"] == "DECOMPILE_FAILED"]
    assert failed and "stub filling in the default arguments" in failed[0]["message"], answer["warnings"]
