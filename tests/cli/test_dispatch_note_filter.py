"""`usages`/`callers` of an override say how many calls through the method it overrides may dispatch to it; with
`--in`/`--exclude` they count the sites of the kept artifacts only, and name the command with the same filter. The
oracle is javap: gson's `invokeinterface java/util/List.size` instructions."""

from __future__ import annotations

import re

from tests.conftest import GSON, require
from tests.loaders.test_differential_javap_calls import javap_sites, sampled_classes

NOTE = re.compile(r"through the method it overrides, java\.util\.List#size\(\): (\d+) sites? in (\d+) methods? may "
                  r"dispatch here: jdx (usages|callers) 'java\.util\.List#size\(\)'(.*)")


def _note(text: str) -> re.Match | None:
    return next((m for line in text.splitlines() if (m := NOTE.search(line))), None)


def test_the_dispatch_note_counts_the_sites_of_the_artifacts_kept(run_jdx):
    jar = str(require(GSON))
    sites = [s for s in javap_sites(jar, sampled_classes(GSON, 1))
             if s[1] == "invokeinterface" and s[2:] == ("java/util/List", "size", "()I")]
    assert sites, "gson calls List#size(): the oracle has sites"
    for command in ("usages", "callers"):
        kept = run_jdx("--jars", jar, command, "java.util.ArrayList#size()", "--in", "gson.jar")
        assert kept.code == 0, kept.out + kept.err
        note = _note(kept.out)
        assert note, kept.out
        assert (int(note.group(1)), int(note.group(2))) == (len(sites), len({s[0] for s in sites})), note.group(0)
        assert note.group(4) == " --in gson.jar", note.group(0)
        whole = _note(run_jdx("--jars", jar, command, "java.util.ArrayList#size()").out)
        assert whole and int(whole.group(1)) > len(sites) and whole.group(4) == "", whole
