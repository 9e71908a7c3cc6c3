"""`samples`' test-code convention by artifact name: the names the loaders give test class directories (Maven's
`name (tests)`, Gradle's `label (java test)`: jdx/loaders/project.py, project_gradle.py) and a test-jar are test code;
a test framework's jar or package is not (trial: org.junit.jupiter.api's own code marked "(test)")."""

from __future__ import annotations

import pytest

from jdx.engine.samples import is_test_code


@pytest.mark.parametrize("artifact", ["app (tests)", "app (java test)", "app (kotlin test)", "app-1.0-tests.jar",
                                      "com.x:app:1.0:tests", "test-classes", "test"])
def test_a_test_artifact_is_test_code(artifact):
    assert is_test_code("com/x/Foo", artifact)


@pytest.mark.parametrize("owner, artifact", [
    ("org/junit/jupiter/api/Assertions", "org.junit.jupiter:junit-jupiter-api:5.12.2"),
    ("org/junit/Assert", "junit-4.13.2.jar"),
    ("org/testng/Assert", "testng-7.10.2.jar"),
    ("org/springframework/test/web/Foo", "app (java main)"),  # a `test` package part still is
    ("com/x/it/Strings", "app.jar"),  # `it`: a locale as often as integration tests (`*IT` tells those)
    ("com/x/Foo", "spring-test-6.1.jar"),
    ("com/x/Foo", "app (main)"),
])
def test_a_framework_is_library_code(owner, artifact):
    expected = "/test/" in owner
    assert is_test_code(owner, artifact) is expected
