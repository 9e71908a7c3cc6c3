"""Project auto-discovery (spec §13 step 4): a Maven, Gradle or plain project's classes, sources and dependencies.

- Maven: `pom.xml` and its `<modules>` (recursively, from the reactor's top); the classpath of the module asked
  about (every module's at the top, each resolved on its own and combined, conflicts named): its `target/classes`
  (and `target/test-classes` with `--tests`), its `src/main/java|kotlin`; dependencies resolved by Maven's
  resolver over the local repository, reactor modules served from their class directories.
- Gradle (layout only; Gradle is never run): project_gradle.py.
- IntelliJ (`.idea/` and no build file): project and module libraries, source folders, `out/production/*`.
- Plain: jars at the top, in `lib/` or `libs/`, class directories `classes/`, `bin/`, `out/`; sources `src/`.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from xml.etree import ElementTree

from jdx.errors import EnvironmentMissing, Warning_
from jdx.loaders.classpath import Classpath, add_resolution

POM_MAX = 4 << 20
BUILD_FILE_MAX = 4 << 20
MAX_MODULES = 2000
MAIN_SCOPES = ("compile", "provided", "runtime", "system")


@dataclass
class MavenModule:
    gav: str
    pom: Path
    folder: Path


@dataclass
class Project:
    """What was found at a project root, before any dependency is resolved."""

    root: Path
    kind: str
    build_files: list[str] = field(default_factory=list)
    classes: list[tuple[str, str]] = field(default_factory=list)  # (class dir or jar, display name)
    src: list[str] = field(default_factory=list)
    modules: list[MavenModule] = field(default_factory=list)
    coords: list[str] = field(default_factory=list)  # Gradle: the locked coordinates, then the declared ones
    warnings: list[Warning_] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    properties: dict[str, str] = field(default_factory=dict)  # passed to Maven as -D would be (CI versions)
    focus: Path | None = None  # Maven: the directory asked about (a module, or the reactor's top)
    focused: list[str] = field(default_factory=list)  # Maven: the POMs whose classpath this is
    reactor: dict[str, tuple[list[str], list[Warning_]]] = field(default_factory=dict)  # other modules' class dir ->
    # (sources, why absent), used when a focused module depends on them
    locked: list[str] = field(default_factory=list)  # Gradle: coords from lockfiles (a project's full resolved set,
    # used as they are; the other projects' declarations are resolved)
    declared: list[str] = field(default_factory=list)  # Gradle: the declarations of the projects without a lockfile,
    # each resolved with its transitive dependencies (another project's lock of the same coordinate is that one's)
    managed: list[tuple[str, list[str], list[str]]] = field(default_factory=list)  # Gradle: (project, its platform
    # BOMs, its declarations without a version) for each project whose declarations take their versions from BOMs


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _child(el, name: str):
    for c in el:
        if _local(c.tag) == name:
            return c
    return None


def _text(el, name: str) -> str:
    c = _child(el, name) if el is not None else None
    return (c.text or "").strip() if c is not None else ""


def _read_pom(pom: Path, warnings: list[Warning_]):
    try:
        size = pom.stat().st_size
        if size > POM_MAX:
            warnings.append(Warning_("POM_TOO_LARGE", f"{pom}: {size:,} bytes, over the {POM_MAX:,}-byte limit; "
                                                      "not read", str(pom)))
            return None
        return ElementTree.fromstring(pom.read_bytes())
    except OSError as exc:
        warnings.append(Warning_("POM_INVALID", f"{pom}: {exc.strerror or exc}", str(pom)))
    except ElementTree.ParseError as exc:
        warnings.append(Warning_("POM_INVALID", f"{pom}: not well-formed XML ({exc})", str(pom)))
    return None


CI_FRIENDLY = ("revision", "sha1", "changelist")  # Maven's version placeholders, set like -Drevision=...


def _properties(root, inherited: dict[str, str]) -> dict[str, str]:
    props = dict(inherited)
    declared = _child(root, "properties")
    for p in declared if declared is not None else ():
        props[_local(p.tag)] = (p.text or "").strip()
    return props


def _gav(root, props: dict[str, str] | None = None) -> str | None:
    parent = _child(root, "parent")
    group = _text(root, "groupId") or _text(parent, "groupId")
    version = _text(root, "version") or _text(parent, "version")
    artifact = _text(root, "artifactId")
    props = props if props is not None else _properties(root, {})
    for _ in range(8):
        m = re.search(r"\$\{([^}]+)\}", version)
        if not m or not props.get(m.group(1)):
            break
        version = version.replace(m.group(0), props[m.group(1)])
    if not (group and artifact and version) or "${" in group + artifact + version:
        return None
    return f"{group}:{artifact}:{version}"


def _sources(folder: Path, tests: bool) -> list[str]:
    sets = ("main", "test") if tests else ("main",)
    return [str(folder / "src" / s / lang) for s in sets for lang in ("java", "kotlin")
            if (folder / "src" / s / lang).is_dir()]


def _reactor_root(folder: Path) -> Path:
    """The top of the reactor `folder` is a module of: parents whose pom.xml lists the folder in <modules>."""
    from jdx.loaders.project_root import MAX_DEPTH, _lists_module

    root = folder
    for _ in range(MAX_DEPTH):
        parent = root.parent
        if parent == root or not (parent / "pom.xml").is_file() or not _lists_module(parent / "pom.xml", root):
            break
        root = parent
    return root


@dataclass
class _ModuleLayout:
    """What one reactor module contributes: its class dirs, sources, and why some are absent."""

    classes: list[tuple[str, str]] = field(default_factory=list)
    src: list[str] = field(default_factory=list)
    warnings: list[Warning_] = field(default_factory=list)
    children: list[Path] = field(default_factory=list)
    gav: str | None = None


def discover_maven(root: Path, tests: bool) -> Project:
    """The Maven project whose classpath `root` asks for: a module inside a reactor is that module (its classes and
    sources, its own dependencies, reactor modules it depends on from their class directories); the reactor's top
    directory is every module, each resolved on its own."""
    focus_dir = Path(os.path.abspath(root))
    top = _reactor_root(focus_dir)
    project = Project(top, "maven")
    project.focus = focus_dir
    seen: set[Path] = set()
    layouts: dict[Path, _ModuleLayout] = {}
    queue: list[tuple[Path, dict[str, str]]] = [(top / "pom.xml", {})]
    while queue and len(seen) < MAX_MODULES:
        listed, inherited = queue.pop(0)
        pom = listed.resolve()
        if pom in seen:
            continue
        seen.add(pom)
        project.build_files.append(str(pom))
        layout = layouts[pom] = _ModuleLayout()
        xml = _read_pom(pom, project.warnings)
        folder = pom.parent
        if xml is None:  # the conventional layout still answers
            if (folder / "target" / "classes").is_dir():
                layout.classes.append((str(folder / "target" / "classes"), folder.name))
            layout.src.extend(_sources(folder, tests))
            continue
        props = _properties(xml, inherited)  # an aggregator is almost always its modules' parent too
        if pom == (top / "pom.xml").resolve():
            project.properties = {k: v for k, v in props.items() if k in CI_FRIENDLY and "${" not in v}
        gav = layout.gav = _gav(xml, props)
        if gav is None:
            project.warnings.append(Warning_("POM_INVALID", f"{pom}: no groupId/artifactId/version (own or "
                                                            "inherited)", str(pom)))
        else:
            project.modules.append(MavenModule(gav, pom, folder))
        name = gav or folder.name
        main = folder / "target" / "classes"
        packaging = _text(xml, "packaging") or "jar"
        own: list[tuple[str, str]] = []
        if main.is_dir():
            own.append((str(main), name))
        elif packaging != "pom" and (folder / "src" / "main").is_dir():
            layout.warnings.append(Warning_(
                "PROJECT_NOT_BUILT", f"{name}: no {main.relative_to(top)}: its own classes are not in the workspace "
                                     "(show, members and usages see its dependencies only) until it is built, e.g. "
                                     "mvn compile", name))
        test_classes = folder / "target" / "test-classes"
        if tests and test_classes.is_dir():  # first, as on Maven's test classpath (a test-scope class shadows)
            own.insert(0, (str(test_classes), f"{name} (tests)"))
        elif tests and packaging != "pom" and (folder / "src" / "test").is_dir():
            layout.warnings.append(Warning_(
                "PROJECT_NOT_BUILT", f"{name}: no {test_classes.relative_to(top)}: its test classes are not in the "
                                     "workspace (--tests answers, such as callers, miss them) until they are "
                                     "compiled, e.g. mvn test-compile", name))
        layout.classes.extend(own)
        layout.src.extend(_sources(folder, tests))
        modules = _child(xml, "modules")
        for m in modules if modules is not None else ():
            if _local(m.tag) == "module" and m.text and m.text.strip():
                target = folder / m.text.strip()
                child = target / "pom.xml" if target.is_dir() or not target.name.endswith(".xml") else target
                layout.children.append(child.resolve())
                queue.append((child, props))
    focus_pom = (focus_dir / "pom.xml").resolve()
    focused, todo = [], [focus_pom if focus_pom in layouts else (top / "pom.xml").resolve()]
    while todo:  # the focus module and the modules it aggregates
        pom = todo.pop(0)
        if pom in layouts and pom not in focused:
            focused.append(pom)
            todo.extend(layouts[pom].children)
    for pom in focused:
        project.classes.extend(layouts[pom].classes)
        project.src.extend(layouts[pom].src)
        project.warnings.extend(layouts[pom].warnings)
    project.focused = [str(p) for p in focused]
    for pom, layout in layouts.items():  # reactor modules a focused one may depend on
        if pom not in focused:
            main = pom.parent / "target" / "classes"
            project.reactor[str(main)] = (layout.src, [w for w in layout.warnings if "test-classes" not in w.message])
    return project


def discover_plain(root: Path, tests: bool) -> Project:
    from jdx.loaders.maven_repo import coordinate_in_jar

    project = Project(root, "plain")
    # the project's own class directories first, then its jars: `java -cp out:lib/*` loads the project's class
    # of a name a library jar also has, as Maven, Gradle and IDEs put a module's output before its dependencies
    # (`target/classes`: a Maven layout compiled without its POM, `javac -d target/classes`)
    for sub in ("classes", "bin", "out", "target/classes", *(("target/test-classes",) if tests else ())):
        if (root / sub).is_dir():
            project.classes.append((str(root / sub), sub))
    for sub in ("", "lib", "libs"):
        folder = root / sub
        if folder.is_dir():
            for jar in sorted(folder.glob("*.jar")):
                if jar.is_file() and not jar.name.endswith(("-sources.jar", "-javadoc.jar")):
                    project.classes.append((str(jar), coordinate_in_jar(str(jar)) or jar.name))
    project.src.extend(_sources(root, tests) or ([str(root / "src")] if (root / "src").is_dir() else []))
    return project


IDEA_URL = re.compile(r"^(?:jar|file)://(.*?)(?:!/.*)?$")


IDEA_MACRO = re.compile(r"\$([A-Za-z_][A-Za-z0-9_.]*)\$")


def _idea_path(url: str, project_dir: Path, module_dir: Path, warnings: list[Warning_] | None = None) -> Path | None:
    """The file an IDE url names: `$PROJECT_DIR$`, `$MODULE_DIR$`, `$USER_HOME$` and `$MAVEN_REPOSITORY$` (the local
    repository, as Maven's settings give it) expanded; another path variable of the IDE's own configuration is a
    named warning, since jdx cannot know its value."""
    from jdx.loaders.maven_repo import local_repository

    m = IDEA_URL.match(url or "")
    if not m:
        return None
    known = {"PROJECT_DIR": str(project_dir), "MODULE_DIR": str(module_dir), "USER_HOME": str(Path.home())}
    unknown = []

    def expand(macro):
        name = macro.group(1)
        if name == "MAVEN_REPOSITORY" and name not in known:
            known[name] = str(local_repository()[0])
        if name in known:
            return known[name]
        unknown.append(macro.group(0))
        return macro.group(0)

    text = IDEA_MACRO.sub(expand, m.group(1))
    if unknown:
        if warnings is not None:
            warnings.append(Warning_("IDEA_PATH_VARIABLE", f"{url}: {', '.join(unknown)} is a path variable of the "
                                     "IDE's configuration jdx cannot read; this root is skipped (add it with --jars)",
                                     url))
        return None
    return Path(text)


def _idea_roots(el, project_dir: Path, module_dir: Path, kind: str, warnings: list[Warning_]) -> list[Path]:
    """CLASSES or SOURCES roots under a <library> element."""
    out = []
    for part in el.iter():
        if _local(part.tag) == kind:
            for r in part:
                path = _idea_path(r.get("url", ""), project_dir, module_dir, warnings)
                if path is not None:
                    out.append(path)
    return out


def discover_idea(root: Path, tests: bool) -> Project:
    """An IntelliJ project (`.idea/`): project libraries (`.idea/libraries/*.xml`), each module's (`*.iml`)
    module libraries and source folders, and the IDE's output folders `out/production|test/<module>`."""
    from jdx.coords import coordinate_of_path
    from jdx.loaders.maven_repo import coordinate_in_jar

    project = discover_plain(root, tests)
    project.kind = "idea"
    project.classes = [c for c in project.classes if c[0] != str(root / "out")]  # out/ is split per module below
    idea = root / ".idea"
    files = sorted((idea / "libraries").glob("*.xml")) if (idea / "libraries").is_dir() else []
    modules = sorted(root.rglob("*.iml"))[:MAX_MODULES]
    seen = {c[0] for c in project.classes}
    sources: list[str] = []
    for path in [*files, *modules]:
        project.build_files.append(str(path))
        xml = _read_pom(path, project.warnings)
        if xml is None:
            continue
        module_dir = path.parent
        for lib in xml.iter():
            if _local(lib.tag) != "library":
                continue
            for jar in _idea_roots(lib, root, module_dir, "CLASSES", project.warnings):
                if not jar.exists():
                    project.warnings.append(Warning_("ARTIFACT_MISSING", f"{jar}: a library root of {path.name} that "
                                                     "does not exist; skipped", str(jar)))
                elif str(jar) not in seen:
                    seen.add(str(jar))
                    name = (coordinate_of_path(str(jar)) or coordinate_in_jar(str(jar)) or jar.name) \
                        if jar.is_file() else jar.name
                    project.classes.append((str(jar), name))
        for folder in xml.iter():
            if _local(folder.tag) == "sourceFolder" and (tests or folder.get("isTestSource") != "true"):
                src = _idea_path(folder.get("url", ""), root, module_dir, project.warnings)
                if src is not None and src.is_dir():
                    sources.append(str(src))
    for kind in ("production", "test") if tests else ("production",):
        out = root / "out" / kind
        for module_out in sorted(out.iterdir()) if out.is_dir() else []:
            if module_out.is_dir() and str(module_out) not in seen:
                seen.add(str(module_out))
                project.classes.insert(0, (str(module_out), f"{module_out.name} ({kind})"))
    if sources:
        project.src = list(dict.fromkeys(sources))
    return project


def discover(root: str, kind: str, tests: bool = False) -> Project:
    """The project at `root` (from project_root.find_project_root), without resolving dependencies."""
    path = Path(root)
    if kind == "maven":
        return discover_maven(path, tests)
    if kind == "gradle":
        from jdx.loaders.project_gradle import discover_gradle

        return discover_gradle(path, tests)
    if kind == "idea":
        return discover_idea(path, tests)
    return discover_plain(path, tests)


def project_classpath(cache: Path, project: Project, tests: bool = False) -> Classpath:
    """The project's classes first, then its resolved dependencies in Maven's classpath order."""
    from jdx.loaders import maven_resolver
    from jdx.loaders.maven_repo import Coordinate, gradle_cache, local_repository

    out = Classpath()
    for path, name in project.classes:
        out.add(path, name)
    out.src.extend(project.src)
    out.warnings.extend(project.warnings)
    build = ", ".join(os.path.relpath(b, project.root) for b in project.build_files[:3]) + \
        (f" and {len(project.build_files) - 3} more" if len(project.build_files) > 3 else "")
    head = f"{project.kind} project at {project.root}" + (f" ({build})" if build else "")
    if project.kind in ("plain", "idea"):
        out.how.append(f"{head}: {len(project.classes)} jar(s)/class dir(s)")
        return out
    repo, repo_how = local_repository()
    scopes = MAIN_SCOPES + (("test",) if tests else ())
    if project.kind == "maven":
        focused = [m for m in project.modules if str(m.pom) in project.focused] if project.focused else \
            project.modules
        head += "; " + _focus_text(project, focused)
        request = maven_resolver.ResolveRequest(
            repo=repo, scopes=scopes,
            modules=tuple((m.gav, str(m.pom), str(m.folder / "target" / "classes")) for m in project.modules),
            projects=tuple(str(m.pom) for m in focused),
            properties=tuple(sorted(project.properties.items())))
    else:
        if project.locked:
            _add_locked(out, project, repo)
            head += (f"; {project.notes[0]}; used as locked, not expanded (the lockfile is the resolved set) from "
                     f"{repo} ({repo_how}) and the Gradle cache")
        cache_dir, _gradle_how = gradle_cache()
        gradle = (str(cache_dir),) if cache_dir.is_dir() else ()
        coords = []
        for c in dict.fromkeys(project.declared + _platform_versions(cache, project, repo, scopes, gradle, out)):
            try:
                coords.append(Coordinate.parse(c).resolver_form())
            except Exception:  # noqa: BLE001 - a declaration jdx cannot read is reported, not fatal
                out.warnings.append(Warning_("GRADLE_DEPENDENCY_UNRESOLVED", f"{c}: not a coordinate"))
        request = maven_resolver.ResolveRequest(repo=repo, scopes=scopes, coords=tuple(coords), highest=True,
                                                gradle=gradle)
        if not coords:
            out.how.append("; ".join([head, *project.notes[1:]]) if project.locked else
                           f"{head}: no dependency declarations found")
            return out
    try:
        resolution = maven_resolver.resolve(cache, request)
    except EnvironmentMissing as exc:
        out.warnings.append(Warning_("MAVEN_RESOLVER_UNAVAILABLE", f"{exc}; the project's own classes and sources "
                                                                     "only, no dependencies"))
        out.how.append(f"{head}; dependencies not resolved (no Maven resolver)")
        return out
    add_resolution(out, resolution)
    if project.kind == "maven":
        _reactor_dependencies(out, project, resolution)
        _module_conflicts(out, resolution)
    rule = "; conflicts settled by Gradle's rule (the highest requested version)" if request.highest else ""
    where = f"{repo} ({repo_how})" + (f" and the Gradle cache {request.gradle[0]}" if request.gradle else "")
    notes = project.notes[1:] if project.locked else project.notes
    out.how.append(f"{head}; {'; '.join(notes) + '; ' if notes else ''}"
                   f"{len(resolution.dependencies)} dependencies by {resolution.resolver} over {where}"
                   + (", cached" if resolution.cached else "") + rule)
    return out


def _platform_versions(cache: Path, project: Project, repo: Path, scopes: tuple[str, ...], gradle: tuple[str, ...],
                       out: Classpath) -> list[str]:
    """Gradle: the declarations without a version, given theirs by their projects' platform BOMs; those none gives
    one are named."""
    if not project.managed:
        return []
    from jdx.loaders.project_gradle import platform_versions

    found, skipped = platform_versions(cache, project, repo, scopes, gradle)
    if skipped:
        out.warnings.append(Warning_("GRADLE_DEPENDENCY_UNRESOLVED", f"{len(skipped)} declaration(s) without a "
                                     f"version were skipped: {', '.join(skipped[:20])}"
                                     + (f" and {len(skipped) - 20} more" if len(skipped) > 20 else "")))
    return found


def _focus_text(project: Project, focused: list[MavenModule]) -> str:
    """Which module(s) the classpath is for, as `ws info` says it."""
    if len(project.modules) <= 1:
        return f"module {focused[0].gav}" if focused else "no module"
    if project.focus is not None and project.focus != project.root and len(focused) == 1:
        return f"the classpath of module {focused[0].gav} ({os.path.relpath(project.focus, project.root)})"
    names = ", ".join(m.gav.split(":")[1] for m in focused[:8]) + (f" and {len(focused) - 8} more"
                                                                   if len(focused) > 8 else "")
    return (f"the combined classpath of {len(focused)} modules ({names}), each resolved on its own; run from a "
            "module's directory for that module's classpath")


def _reactor_dependencies(out: Classpath, project: Project, resolution) -> None:
    """Reactor modules a focused module depends on: their sources too, and a named warning when not built."""
    for d in resolution.dependencies:
        if d.path in project.reactor:
            src, warnings = project.reactor[d.path]
            out.src.extend(x for x in src if x not in out.src)
            if not os.path.exists(d.path):
                out.warnings.extend(warnings)


def _module_conflicts(out: Classpath, resolution) -> None:
    """A combined view of several modules that resolve one library to different versions: the first wins, named."""
    from jdx.loaders.maven_resolver import version_conflicts

    kept = {d.module: d.version for d in resolution.dependencies}
    for module, versions in sorted(version_conflicts(resolution).items()):
        text = "; ".join(f"{v} in {', '.join(mods)}" for v, mods in versions.items())
        out.warnings.append(Warning_(
            "MODULE_VERSION_CONFLICT", f"{module}: the modules resolve different versions ({text}); this combined "
                                       f"classpath has {kept.get(module)}; run from a module's directory (or "
                                       "--project MODULE_DIR) for its own classpath", module))


def _add_locked(out: Classpath, project: Project, repo: Path) -> None:
    """A gradle.lockfile's coordinates, each its own jar from the Gradle cache or the Maven repository, nothing more:
    the lockfile is Gradle's full resolved set (exclusions and conflicts already applied)."""
    from jdx.loaders.maven_repo import Coordinate, gradle_cache, pom_packaging

    cache_dir, _how = gradle_cache()
    missing = []
    for text in project.locked:
        try:
            c = Coordinate.parse(text)
        except Exception:  # noqa: BLE001 - a line jdx cannot read is reported, not fatal
            out.warnings.append(Warning_("GRADLE_DEPENDENCY_UNRESOLVED", f"{text}: not a coordinate"))
            continue
        name = f"{c.artifact}-{c.version}" + (f"-{c.classifier}" if c.classifier else "")
        cached = sorted((cache_dir / c.group / c.artifact / c.version).glob(f"*/{name}.{c.extension}"))
        jar = cached[0] if cached else c.repository_path(repo)
        if jar.is_file() and jar.suffix == ".jar":
            out.add(str(jar), str(c))
        elif jar.suffix == ".pom" or pom_packaging(jar.with_suffix(".pom")) == "pom" or any(
                pom_packaging(p) == "pom" for p in (cache_dir / c.group / c.artifact / c.version).glob(
                    f"*/{name}.pom")):
            continue  # a platform (BOM) locked with the rest: no classes
        else:
            missing.append(f"{c.group}:{c.artifact}:jar:{c.version}")
    if missing:
        out.warnings.append(Warning_("DEPENDENCY_MISSING", f"{len(missing)} locked artifact"
                                     f"{'' if len(missing) == 1 else 's'} not in the Gradle cache or the local "
                                     f"repository: {', '.join(missing[:20])}"))
