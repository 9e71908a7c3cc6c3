"""`body` of a function of a Kotlin multi-file class facade without sources: the facade's copy only calls its part's
method of the same name and descriptor, so the answer is the part's code, saying whose code it is (the facade's
decompiled text would be that one call). Procyon prints the part as `final synthetic class …`, which is no Java: the
decompiled text still parses (it was a `javap` fallback before). The oracle is the source text's own literal."""

from __future__ import annotations

import json
import shutil

import pytest

pytestmark = pytest.mark.soak  # a trial's regression family with its own graph builds: the soak runs it whole (.ci/run)

A = '''@file:JvmName("Util")
@file:JvmMultifileClass
package mf

fun shout(s: String): String = s.toUpperCase() + "!marker-shout!"
'''
B = '''@file:JvmName("Util")
@file:JvmMultifileClass
package mf

fun whisper(s: String): String = s.toLowerCase() + "~marker-whisper~"
'''


@pytest.fixture(scope="module")
def jar(tmp_path_factory):
    from tests.kotlin.corpus import kotlinc_jar

    if shutil.which("procyon") is None:
        pytest.skip("procyon is not installed (Debian package procyon-decompiler, see .ci/run)")
    path = tmp_path_factory.mktemp("facade") / "facade.jar"
    shutil.copy(kotlinc_jar("facade-body", {"A.kt": A, "B.kt": B}), path)
    return str(path)


@pytest.mark.parametrize("name, marker", [("shout", "!marker-shout!"), ("whisper", "~marker-whisper~")])
def test_the_facade_copy_shows_its_parts_code(run_jdx, jar, name, marker):
    r = run_jdx("body", f"mf.Util#{name}", "--jars", jar, "--json")
    assert r.code == 0, r.out + r.err
    result = json.loads(r.out)["result"]
    assert result["delegated_from"] == f"mf.Util#{name}(java.lang.String)"
    assert result["ref"].startswith("mf.Util__") and result["ref"].endswith(f"#{name}(java.lang.String)")
    assert result["origin"] == "decompiled"  # the part's `synthetic` class parsed
    assert any(marker in line for line in result["text"])
    r = run_jdx("body", f"mf.Util#{name}", "--jars", jar)
    assert r.code == 0 and f"(the code of mf.Util#{name}(java.lang.String): that file facade's copy only delegates " \
                          "here)" in r.out, r.out + r.err
