"""`--in`/`--exclude` globs (relations.ArtifactFilter) match an artifact's name, its path and its file name: a
`--coord` artifact is named `g:a:v`, and `--in HikariCP-5.1.0.jar` (the jar a user sees) said no artifact matched,
suggesting `jdk.jfr`."""

from __future__ import annotations

import pytest

from jdx.engine.relations import ArtifactFilter, Artifacts
from jdx.errors import NotFoundError

ARTS = Artifacts({"h": "com.zaxxer:HikariCP:5.1.0", "s": "org.slf4j:slf4j-api:1.7.36", "j": "jdk.jfr"},
                 {"h": 0, "s": 1, "j": 2},
                 {"h": "/m2/com/zaxxer/HikariCP/5.1.0/HikariCP-5.1.0.jar",
                  "s": "/m2/org/slf4j/slf4j-api/1.7.36/slf4j-api-1.7.36.jar", "j": "jrt:/jdk.jfr"})


@pytest.mark.parametrize("glob", ["HikariCP-5.1.0.jar", "HikariCP*", "com.zaxxer:HikariCP:*", "*/zaxxer/*"])
def test_in_matches_a_coordinates_jar_by_its_file_name(glob):
    flt = ArtifactFilter([glob])
    flt.check(ARTS)
    assert [k for k in ARTS.names if flt.accepts(ARTS, k)] == ["h"]


def test_exclude_by_file_name_and_a_miss_still_names_the_nearest():
    assert [k for k in ARTS.names if ArtifactFilter([], ["slf4j-api-*.jar"]).accepts(ARTS, k)] == ["h", "j"]
    with pytest.raises(NotFoundError):
        ArtifactFilter(["guava*"]).check(ARTS)
