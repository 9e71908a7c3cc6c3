"""IntelliJ library roots (spec §13): `$MAVEN_REPOSITORY$` is the local repository; other IDE variables are named."""

from __future__ import annotations

import zipfile

from jdx.loaders.project import discover


def test_maven_repository_macro_and_unknown_macros(tmp_path, monkeypatch):
    repo = tmp_path / "repo"
    jar = repo / "org" / "x" / "lib" / "1.0" / "lib-1.0.jar"
    jar.parent.mkdir(parents=True)
    with zipfile.ZipFile(jar, "w") as z:
        z.writestr("org/x/Lib.class", b"")
    monkeypatch.setenv("JDX_MAVEN_REPO", str(repo))
    root = tmp_path / "ij"
    (root / ".idea" / "libraries").mkdir(parents=True)
    (root / ".idea" / "libraries" / "lib.xml").write_text(
        '<component name="libraryTable"><library name="Maven: org.x:lib:1.0"><CLASSES>'
        '<root url="jar://$MAVEN_REPOSITORY$/org/x/lib/1.0/lib-1.0.jar!/" /></CLASSES></library></component>')
    (root / "m.iml").write_text(
        '<module type="JAVA_MODULE"><component name="NewModuleRootManager"><orderEntry type="module-library">'
        '<library><CLASSES><root url="jar://$MY_LIBS$/other.jar!/" /></CLASSES></library></orderEntry>'
        '</component></module>')
    project = discover(str(root), "idea")
    assert [c[0] for c in project.classes] == [str(jar)]
    (w,) = [w for w in project.warnings if w.code == "IDEA_PATH_VARIABLE"]
    assert "$MY_LIBS$" in w.message and "other.jar" in w.message
