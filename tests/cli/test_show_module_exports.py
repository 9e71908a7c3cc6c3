"""`show` of a type in a package its jar's module does not export says so, as it says of a JDK internal: javac
compiles class path code against it, but a module requiring the jar's module cannot see it (T94: xz's
`org.tukaani.xz.common` read as plain API). The descriptor counts at the jar's root or under META-INF/versions/N/.

Oracle: javac itself: a module requiring the jar's module fails to compile against the unexported package and
compiles against the exported one."""

from __future__ import annotations

import json
import shutil

import pytest

from tests.fixtures import jdktool

SOURCES = {
    "module-info.java": "module m.x { exports m.x.api; }",
    "m/x/api/Api.java": "package m.x.api; public class Api { public static int one() { return 1; } }",
    "m/x/impl/Impl.java": "package m.x.impl; public class Impl { public static int two() { return 2; } }",
}


@pytest.fixture(scope="module")
def jars(tmp_path_factory):
    if shutil.which("javac") is None or shutil.which("jar") is None:
        pytest.skip("javac/jar are not installed")
    root = tmp_path_factory.mktemp("modx")
    for name, text in SOURCES.items():
        (root / "src" / name).parent.mkdir(parents=True, exist_ok=True)
        (root / "src" / name).write_text(text)
    jdktool.run(["javac", "-d", str(root / "out"), *(str(root / "src" / n) for n in SOURCES)], check=True)
    plain = root / "modx.jar"
    jdktool.run(["jar", "cf", str(plain), "-C", str(root / "out"), "."], check=True)
    # the base release without a descriptor, the module's under META-INF/versions/9 (xz, snakeyaml 2.x)
    (root / "base").mkdir()
    shutil.copytree(root / "out" / "m", root / "base" / "m")
    (root / "v9").mkdir()
    shutil.copy(root / "out" / "module-info.class", root / "v9" / "module-info.class")
    (root / "manifest.txt").write_text("Multi-Release: true\n")
    versioned = root / "modx-mr.jar"
    jdktool.run(["jar", "cfm", str(versioned), str(root / "manifest.txt"), "-C", str(root / "base"), ".",
                 "--release", "9", "-C", str(root / "v9"), "."], check=True)
    return root, plain, versioned


def test_the_oracle(jars):
    root, plain, _ = jars
    for name, pkg, ok in (("Use1", "m.x.api.Api.one()", True), ("Use2", "m.x.impl.Impl.two()", False)):
        src = root / name / "src"
        (src / "u").mkdir(parents=True)
        (src / "module-info.java").write_text("module u { requires m.x; }")
        (src / "u" / "U.java").write_text(f"package u; class U {{ int f() {{ return {pkg}; }} }}")
        r = jdktool.run(["javac", "-d", str(root / name / "out"), "--module-path", str(plain),
                         str(src / "module-info.java"), str(src / "u" / "U.java")], capture_output=True, text=True)
        assert (r.returncode == 0) == ok, r.stderr
        if not ok:
            assert "package m.x.impl is declared in module m.x, which does not export it" in r.stderr, r.stderr


@pytest.mark.parametrize("which", [1, 2])
def test_show_says_the_module_does_not_export_the_package(jars, run_jdx, which):
    jar = jars[which]
    impl = run_jdx("show", "m.x.impl.Impl", "--jars", str(jar), "--no-jdk")
    assert impl.code == 0, impl.err
    assert ("not exported: module m.x does not export m.x.impl (class path code can use it, a module cannot)"
            in impl.out.splitlines()[1]), impl.out
    data = json.loads(run_jdx("show", "m.x.impl.Impl", "--jars", str(jar), "--no-jdk", "--json").out)["result"]
    assert data["module_unexported"] == "m.x"
    api = json.loads(run_jdx("show", "m.x.api.Api", "--jars", str(jar), "--no-jdk", "--json").out)["result"]
    assert "module_unexported" not in api
