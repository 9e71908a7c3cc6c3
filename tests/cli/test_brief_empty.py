"""`--brief` of an empty relationship answer prints `(none)` (exit 0): empty stdout would read as lost output."""

from __future__ import annotations

import shutil

import pytest

from tests.fixtures.javac import javac_jar


@pytest.fixture(scope="module")
def jar(tmp_path_factory):
    if shutil.which("javac") is None:
        pytest.skip("javac is not installed")
    return javac_jar(tmp_path_factory.mktemp("brief_empty"),
                     {"be/Lonely.java": "package be;\n"
                                        "public class Lonely { private int secret; public void alone() { } }"},
                     "be", "be.jar")[0]


@pytest.mark.parametrize("args", [["usages", "be.Lonely#alone()"], ["callers", "be.Lonely#alone()"],
                                  ["implementors", "be.Lonely"], ["hierarchy", "be.Lonely", "--down"]])
def test_brief_empty_says_none(jar, run_jdx, args):
    full = run_jdx("--no-jdk", "--jars", str(jar), *args)
    assert full.code == 0 and ("(no" in full.out or "(none" in full.out)
    brief = run_jdx("--no-jdk", "--jars", str(jar), *args, "--brief")
    assert brief.code == 0, brief.err
    assert brief.out == "(none)\n"


def test_members_brief_says_none_and_keeps_the_footer_of_what_is_hidden(jar, run_jdx):
    """Spec §7.1: `members --brief` is bare rows, no group headers, no provenance; its footer (what is left out and
    the flag showing it) stays; nothing at all is `(none)`."""
    base = ("--no-jdk", "--jars", str(jar), "members", "be.Lonely")
    assert run_jdx(*base, "--grep", "zzz", "--brief").out == "(none)\n"
    full = run_jdx(*base).out.splitlines()
    brief = run_jdx(*base, "--brief").out.splitlines()
    assert brief[:-1] == [row.strip() for row in full if row.startswith("  ")]
    hidden = full[-1].split(" · ", 3)[3]  # after the count, the type and the provenance
    assert "hidden" in hidden and brief[-1] == hidden and "(bytecode)" not in brief[-1]
