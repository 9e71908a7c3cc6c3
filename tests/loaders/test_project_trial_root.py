"""Where the project starts (spec §13, §16): a mistyped --project is a usage error; a Maven module is its own."""

from __future__ import annotations

import pytest

from jdx.errors import UsageError
from jdx.loaders.project_root import find_project_root

POM = ("<project><modelVersion>4.0.0</modelVersion><groupId>g</groupId><artifactId>{a}</artifactId>"
       "<version>1</version>{body}</project>")


def test_a_project_path_that_does_not_exist_is_a_usage_error(tmp_path):
    with pytest.raises(UsageError) as err:
        find_project_root(tmp_path / "nope")
    assert err.value.exit_code == 3 and str(tmp_path / "nope") in err.value.message


def test_a_maven_module_is_found_as_itself_and_the_reactor_top_as_the_whole(tmp_path):
    (tmp_path / "core" / "src").mkdir(parents=True)
    (tmp_path / "pom.xml").write_text(POM.format(a="root", body="<packaging>pom</packaging><modules><module>core"
                                                                "</module></modules>"))
    (tmp_path / "core" / "pom.xml").write_text(POM.format(a="core", body=""))
    assert find_project_root(tmp_path / "core" / "src") == (str(tmp_path / "core"), "maven")
    assert find_project_root(tmp_path) == (str(tmp_path), "maven")
    assert find_project_root(tmp_path / "core" / "pom.xml") == (str(tmp_path / "core"), "maven")
