"""An ambiguity's deprecated candidate says so in text (`[deprecated]`) as search's hits do, beside its JSON
`deprecated` (t75: `imports StringEscapeUtils` between commons-text's and commons-lang3's deprecated copy). Oracle:
javac -Xlint:deprecation warns of a use of the deprecated one only; fixtures compiled by javac at test time."""

from __future__ import annotations

import json
import shutil

import pytest

from tests.fixtures import jdktool
from tests.fixtures.javac import javac_jar

SOURCES = {"dx/a/Escaper.java": "package dx.a;\npublic class Escaper { }\n",
           "dx/b/Escaper.java": "package dx.b;\n@Deprecated public class Escaper { }\n"}


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    if shutil.which("javac") is None:
        pytest.skip("javac is not installed")
    return javac_jar(tmp_path_factory.mktemp("depr"), SOURCES, "dx", "dx.jar")


def _deprecated_by_javac(built, ref: str) -> bool:
    jar, classes = built
    src = classes.parent / "use" / ref.replace(".", "_")
    src.mkdir(parents=True, exist_ok=True)
    (src / "U.java").write_text(f"import {ref};\nclass U {{ Object u() {{ return (Escaper) null; }} }}\n")
    done = jdktool.run(["javac", "-Xlint:deprecation", "-cp", str(jar), "-d", str(src / "out"), str(src / "U.java")],
                       capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return "deprecated" in done.stderr


def test_a_deprecated_candidate_is_marked_in_text_and_json(run_jdx, built):
    jar = str(built[0])
    candidates = json.loads(run_jdx("--no-jdk", "--jars", jar, "imports", "Escaper", "--json").out)["candidates"]
    assert {c["ref"]: c.get("deprecated", False) for c in candidates} == {
        ref: _deprecated_by_javac(built, ref) for ref in ("dx.a.Escaper", "dx.b.Escaper")}
    text = run_jdx("--no-jdk", "--jars", jar, "imports", "Escaper").out.splitlines()
    assert [line.split()[0] for line in text if line.endswith("[deprecated]")] == ["dx.b.Escaper"], text
