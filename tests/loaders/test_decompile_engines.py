"""Finding decompilers: Vineflower from env, config, Gradle and Maven caches; Procyon from a folder; the order;
JDX_DECOMPILER narrowing; output normalisation. No JVM is started here."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from jdx.loaders import decompile as d


def _jar(path: Path, manifest: str = "Manifest-Version: 1.0\n") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("META-INF/MANIFEST.MF", manifest)
    return path


@pytest.fixture
def home(tmp_path, monkeypatch) -> Path:
    """An empty home and config dir, no engine settings, Procyon pointed at an empty folder."""
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("JDX_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("JDX_PROCYON_DIR", str(tmp_path / "procyon"))
    for var in ("JDX_VINEFLOWER_JAR", "JDX_DECOMPILER"):
        monkeypatch.delenv(var, raising=False)
    (tmp_path / "home").mkdir()
    (tmp_path / "procyon").mkdir()
    return tmp_path


def test_nothing_installed_means_no_engine(home):
    assert d.available_engines() == []


def test_vineflower_from_the_gradle_cache_newest_version_first(home):
    root = home / "home/.gradle/caches/modules-2/files-2.1/org.vineflower/vineflower"
    _jar(root / "1.9.3/aaa/vineflower-1.9.3.jar")
    newest = _jar(root / "1.10.1/bbb/vineflower-1.10.1.jar")
    _jar(root / "1.11.0/ccc/vineflower-1.11.0-sources.jar")
    assert d.available_engines() == [("vineflower", "1.10.1", str(newest))]


def test_vineflower_from_the_maven_repository(home):
    jar = _jar(home / "home/.m2/repository/org/vineflower/vineflower/1.11.1/vineflower-1.11.1.jar")
    _jar(home / "home/.m2/repository/org/vineflower/vineflower/1.11.1/vineflower-1.11.1-javadoc.jar")
    assert d.available_engines() == [("vineflower", "1.11.1", str(jar))]


def test_an_explicit_jar_wins_over_the_caches_env_before_config(home, monkeypatch):
    _jar(home / "home/.m2/repository/org/vineflower/vineflower/1.11.1/vineflower-1.11.1.jar")
    configured = _jar(home / "tools/vf.jar", "Manifest-Version: 1.0\nImplementation-Version: 1.10.0\n")
    (home / "config").mkdir()
    (home / "config/config.toml").write_text(f'[decompiler]\nvineflower_jar = "{configured}"\n')
    assert d.available_engines()[0] == ("vineflower", "1.10.0", str(configured))
    from_env = _jar(home / "tools/vineflower-1.9.1.jar")
    monkeypatch.setenv("JDX_VINEFLOWER_JAR", str(from_env))
    assert d.available_engines()[0] == ("vineflower", "1.9.1", str(from_env))


def test_a_configured_jar_that_does_not_exist_is_skipped(home, monkeypatch):
    monkeypatch.setenv("JDX_VINEFLOWER_JAR", str(home / "missing.jar"))
    assert d.available_engines() == []


def test_procyon_needs_core_and_compilertools_of_one_version(home):
    _jar(home / "procyon/procyon-core-0.6.0.jar")
    assert d.available_engines() == []
    _jar(home / "procyon/procyon-compilertools-0.5.36.jar")
    assert d.available_engines() == []
    tools = _jar(home / "procyon/procyon-compilertools-0.6.0.jar")
    assert d.available_engines() == [("procyon", "0.6.0", str(tools))]


def test_vineflower_is_preferred_and_jdx_decompiler_narrows(home, monkeypatch):
    _jar(home / "procyon/procyon-core-0.6.0.jar")
    _jar(home / "procyon/procyon-compilertools-0.6.0.jar")
    _jar(home / "home/.m2/repository/org/vineflower/vineflower/1.11.1/vineflower-1.11.1.jar")
    assert [e[0] for e in d.available_engines()] == ["vineflower", "procyon"]
    monkeypatch.setenv("JDX_DECOMPILER", "procyon")
    assert [e[0] for e in d.available_engines()] == ["procyon"]
    monkeypatch.setenv("JDX_DECOMPILER", "none")
    assert d.available_engines() == []
    monkeypatch.delenv("JDX_DECOMPILER")
    (home / "config").mkdir()
    (home / "config/config.toml").write_text('[decompiler]\nengine = "procyon"\n')
    assert [e[0] for e in d.available_engines()] == ["procyon"]


def test_a_broken_config_file_is_ignored(home):
    (home / "config").mkdir()
    (home / "config/config.toml").write_text("[decompiler\nengine = ")
    assert d.available_engines() == []


def test_debian_procyon_is_found_when_installed(monkeypatch, tmp_path):
    if not list(Path("/usr/share/java").glob("procyon-compilertools*.jar")):
        pytest.skip("procyon-decompiler is not installed (see .ci/run)")
    monkeypatch.delenv("JDX_PROCYON_DIR", raising=False)
    monkeypatch.delenv("JDX_DECOMPILER", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("JDX_CONFIG_DIR", str(tmp_path))
    monkeypatch.delenv("JDX_VINEFLOWER_JAR", raising=False)
    (engine, version, jar), = d.available_engines()
    assert engine == "procyon" and jar.startswith("/usr/share/java/procyon-compilertools")
    assert version[0].isdigit()


@pytest.mark.parametrize("text,expected", [
    ("public enum Level permits Level$1\n{\n", "public enum Level\n{\n"),
    ("enum E implements Runnable permits E$1, E$2 {\n", "enum E implements Runnable {\n"),
    ("public sealed interface Shape permits Square, Circle {\n",
     "public sealed interface Shape permits Square, Circle {\n"),
    ("abstract sealed class A permits A$1, B\n{", "abstract sealed class A permits B\n{"),
    ("        // a comment that permits nothing\n", "        // a comment that permits nothing\n"),
])
def test_permits_clauses_java_forbids_are_dropped(text, expected):
    assert d.drop_invalid_permits(text) == expected


def test_procyon_in_maven_and_gradle_layouts(tmp_path):
    maven = tmp_path / "m2/org/bitbucket/mstrobel"
    _jar(maven / "procyon-core/0.6.0/procyon-core-0.6.0.jar")
    tools = _jar(maven / "procyon-compilertools/0.6.0/procyon-compilertools-0.6.0.jar")
    assert d._procyon_pair(str(maven), "maven") == (str(maven / "procyon-core/0.6.0/procyon-core-0.6.0.jar"),
                                                    str(tools))
    gradle = tmp_path / "gradle/org.bitbucket.mstrobel"
    _jar(gradle / "procyon-core/0.5.36/x1/procyon-core-0.5.36.jar")
    _jar(gradle / "procyon-compilertools/0.5.36/x2/procyon-compilertools-0.5.36.jar")
    assert d._procyon_pair(str(gradle), "gradle")[1].endswith("procyon-compilertools-0.5.36.jar")


def test_an_explicit_engine_argument_narrows_like_the_env(home, monkeypatch):
    _jar(home / "procyon/procyon-core-0.6.0.jar")
    _jar(home / "procyon/procyon-compilertools-0.6.0.jar")
    _jar(home / "home/.m2/repository/org/vineflower/vineflower/1.11.1/vineflower-1.11.1.jar")
    monkeypatch.setenv("JDX_DECOMPILER", "none")
    assert [e[0] for e in d.available_engines("procyon")] == ["procyon"]
    assert [e[0] for e in d.available_engines("vineflower")] == ["vineflower"]
    assert d.available_engines() == []


def test_a_shadowed_copys_graph_id_names_its_class():
    assert d.jvm_name("com/google/gson/Gson@0123456789abcdef") == "com/google/gson/Gson"
    assert d.jvm_name("com/google/gson/Gson") == "com/google/gson/Gson"
    assert d.jvm_name("a/B$C") == "a/B$C"
