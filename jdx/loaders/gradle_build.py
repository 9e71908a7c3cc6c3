"""One Gradle build file read without Gradle (spec §13 step 4): its dependency declarations on the compile classpath
(`configurations(tests)`), `$v` resolved from plain-string variables, `libs.*` from the version catalog, local
`files(...)`/`fileTree(...)` jars; what jdx cannot read is named, never dropped silently."""

from __future__ import annotations

import bisect
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from jdx.errors import Warning_
from jdx.loaders.project import BUILD_FILE_MAX

# Gradle's compile classpaths (the workspace answers about code that compiles): compileClasspath is compileOnly +
# implementation + api; testCompileClasspath is testCompileOnly + testImplementation + implementation + api, and a
# workspace with --tests holds the main classes beside the tests, so both (compileOnly too); runtimeOnly and the
# annotation processors (annotationProcessor, kapt, ksp) are other classpaths
MAIN_COMPILE = ("implementation", "api", "compile", "providedCompile", "compileOnly", "compileOnlyApi")
TEST_COMPILE = MAIN_COMPILE + ("testImplementation", "testCompile", "testCompileOnly")
NOT_COMPILE = ("runtimeOnly", "runtime", "providedRuntime", "testRuntimeOnly", "testRuntime", "annotationProcessor",
               "testAnnotationProcessor", "kapt", "kaptTest", "ksp", "kspTest")
CONFIGURATION = re.compile(r"(?<![.\w$])(%s)\b(\s*\()?\s*" % "|".join(dict.fromkeys(MAIN_COMPILE + TEST_COMPILE
                                                                                     + NOT_COMPILE)))
STRING = r"(?:\"((?:[^\"\\\n]|\\.)*)\"|'([^'\n]*)')"
STRING_ARG = re.compile(STRING)
POSITIONAL = re.compile(rf"{STRING}\s*,\s*{STRING}(?:\s*,\s*(?:{STRING}|([A-Za-z_][\w.]*)))?\s*\)")  # Kotlin g, a, v
MAP_ARGS = re.compile(r"(?:[A-Za-z_]\w*\s*[:=]\s*(?:\"[^\"\n]*\"|'[^'\n]*'|[A-Za-z_][\w.]*)\s*,?\s*)+")
MAP_PAIR = re.compile(rf"([A-Za-z_]\w*)\s*[:=]\s*(?:{STRING}|([A-Za-z_][\w.]*))")
CALL = re.compile(r"(files|fileTree|platform|enforcedPlatform|project|testFixtures|kotlin|gradleApi|localGroovy|"
                  r"gradleTestKit)\s*\(")
SKIPPED_CALLS = ("project", "testFixtures", "gradleApi", "localGroovy", "gradleTestKit")  # the build's own projects
STRICT_BLOCK = re.compile(r"\s*\)?\s*\{\s*version\s*\{\s*(?:strictly|require|prefer)\s*\(?\s*" + STRING)
ASSIGNMENTS = (  # a name given a plain string: ext.x = '1', def x = '1', val x = "1", ext { x = '1' }, extra["x"] = …
    re.compile(r"\b([A-Za-z_][A-Za-z0-9_]*)\s*=\s*[\"']([^\"'$\n]*)[\"']"),
    re.compile(r"\bextra\[\s*[\"']([A-Za-z_][A-Za-z0-9_.]*)[\"']\s*\]\s*=\s*[\"']([^\"'$\n]*)[\"']"),
    re.compile(r"\bset\(\s*[\"']([A-Za-z_][A-Za-z0-9_.]*)[\"']\s*,\s*[\"']([^\"'$\n]*)[\"']\s*\)"),
    re.compile(r"\bval\s+([A-Za-z_][A-Za-z0-9_]*)\s+by\s+extra\(\s*[\"']([^\"'$\n]*)[\"']\s*\)"),
)
MAP_ASSIGNMENT = re.compile(  # versions = [gson: '1', io: '2']
    r"\b([A-Za-z_]\w*)\s*=\s*\[((?:\s*\w+\s*:\s*[\"'][^\"'$\n]*[\"']\s*,?)+)\s*\]")
INTERPOLATION = re.compile(r"\$\{\s*([^}]+?)\s*\}|\$([A-Za-z_][A-Za-z0-9_]*)")
RULES = re.compile(r"\bexclude\s*(\()?\s*(?:group|module)\s*[:=][^\n)}]*|\b(?:is)?[tT]ransitive\s*=\s*false")
STRING_NAMED = re.compile(r"\s*\(\s*")  # Kotlin's `"implementation"("g:a:v")`: a configuration named by a string
ADD_CALL = re.compile(r"\badd\s*\(\s*$")  # `add("implementation", "g:a:v")` (the form inside `subprojects {}`)
ADD_ARGUMENT = re.compile(r"\s*,\s*")
SNIPPET = 60
RULE_SNIPPET = 200  # a rule is shown whole unless it is longer


def configurations(tests: bool) -> tuple[str, ...]:
    """The configurations whose dependencies are on the classpath jdx models: compileClasspath, or
    testCompileClasspath with --tests."""
    return TEST_COMPILE if tests else MAIN_COMPILE


def read_text(path: Path, warnings: list[Warning_]) -> str | None:
    try:
        if path.stat().st_size > BUILD_FILE_MAX:
            warnings.append(Warning_("BUILD_FILE_TOO_LARGE", f"{path}: over {BUILD_FILE_MAX:,} bytes; not read"))
            return None
        return path.read_text(errors="replace")
    except OSError:
        return None


def _catalog_version(version, versions: dict) -> str:
    """A catalog version: a string, `{ ref = … }`, or `{ strictly/require/prefer = … }` (a strict range with a
    preferred version gives the preferred one)."""
    if isinstance(version, dict):
        if "ref" in version:
            return _catalog_version(versions.get(version["ref"], ""), {})
        wanted = [str(version[k]) for k in ("strictly", "require", "prefer") if version.get(k)]
        return next((v for v in wanted if not dynamic(v)), wanted[0] if wanted else "")
    return version if isinstance(version, str) else ""


def catalog(root: Path, warnings: list[Warning_]) -> dict[str, str | list[str]]:
    """`libs.<alias>` -> `g:a:v` from gradle/libs.versions.toml (aliases with `-`, `_`, `.` are one name), and
    `libs.bundles.<name>` -> its libraries' `g:a:v` (`libs.<alias>` for one without a version); `g:a` for a library
    without a version (a platform may give it one)."""
    path = root / "gradle" / "libs.versions.toml"
    text = read_text(path, warnings)
    if text is None:
        return {}
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        warnings.append(Warning_("BUILD_FILE_INVALID", f"{path}: {exc}"))
        return {}
    versions = data.get("versions", {}) or {}
    out = {}
    for alias, lib in (data.get("libraries", {}) or {}).items():
        coord = ""
        if isinstance(lib, str):
            coord = lib
        elif isinstance(lib, dict):
            module = lib.get("module") or (f"{lib.get('group')}:{lib.get('name')}" if lib.get("group") else "")
            version = _catalog_version(lib.get("version"), versions)
            coord = f"{module}:{version}" if module and version else module
        if coord.count(":") in (1, 2):  # `g:a` without a version: a platform may give it one
            out[re.sub(r"[-_]", ".", alias)] = coord
    for name, members in (data.get("bundles", {}) or {}).items():  # libs.bundles.<name>: several libraries
        if isinstance(members, list):
            full = (out.get(re.sub(r"[-_]", ".", str(m)), "") for m in members)
            out["bundles." + re.sub(r"[-_]", ".", name)] = [
                c if c.count(":") == 2 else f"libs.{m}" for c, m in zip(full, members)]
    return out


def build_variables(text: str) -> dict[str, str]:
    """Names a build file gives a plain string (`ext.v = '1'`, `def v = '1'`, `val v = "1"`, `extra["v"] = "1"`,
    `ext.versions = [gson: '1']` as `versions.gson`); a name assigned twice has its last value, as Gradle runs it."""
    found = []
    for i, pattern in enumerate(ASSIGNMENTS):
        for m in pattern.finditer(text):
            if i == 0 and text[:m.start()].rstrip()[-1:] in ("(", ","):
                continue  # a named argument (`implementation(group = "g", …)`), not a variable
            found.append((m.start(), m.group(1), m.group(2)))
    for m in MAP_ASSIGNMENT.finditer(text):
        found.extend((m.start(), f"{m.group(1)}.{k}", v) for k, v in
                     re.findall(r"(\w+)\s*:\s*[\"']([^\"'$\n]*)[\"']", m.group(2)))
    return {name: value for _pos, name, value in sorted(found, key=lambda f: f[0])}


def gradle_properties(folder: Path) -> dict[str, str]:
    text = read_text(folder / "gradle.properties", [])
    out = {}
    for line in (text or "").splitlines():
        m = re.match(r"([^=:\s#!]+)\s*[=:]\s*(.*)$", line.strip())
        if m:
            out[m.group(1)] = m.group(2).strip()
    return out


def interpolate(text: str, names: dict[str, str]) -> str | None:
    """`$v` and `${v}` (also `${project.v}`, `${rootProject.ext.v}`) replaced from `names`; None when one is not
    a plain string jdx can see (Gradle is not run)."""
    missing = False

    def value(m):
        nonlocal missing
        found = _lookup(m.group(1) or m.group(2), names)
        missing = missing or found is None
        return m.group(0) if found is None else found

    out = INTERPOLATION.sub(value, text)
    return None if missing else out


def _lookup(name: str, names: dict[str, str]) -> str | None:
    parts = name.split(".")
    for i in range(len(parts)):  # versions.gson, then rootProject.ext.v -> v
        if ".".join(parts[i:]) in names:
            return names[".".join(parts[i:])]
    return None


def dynamic(version: str) -> bool:
    """A version Gradle picks at resolution time: `2.+`, a range, `latest.release`/`latest.integration`."""
    return any(ch in version for ch in "[]()+$") or version.startswith("latest.")


@dataclass
class Declarations:
    """What one build file declares on the classpath jdx models, in the order written."""

    coords: list[str] = field(default_factory=list)
    unresolved: list[str] = field(default_factory=list)  # named in GRADLE_DEPENDENCY_UNRESOLVED
    ignored: list[str] = field(default_factory=list)  # rules jdx does not apply (GRADLE_RULE_IGNORED)
    files: list[tuple[str, str]] = field(default_factory=list)  # (files|fileTree, its arguments)
    other: int = 0  # declarations of configurations off the compile classpath (runtimeOnly, processors)
    versionless: dict[str, str] = field(default_factory=dict)  # `g:a` declared without a version (a platform may
    # give one) -> as written
    platforms: list[str] = field(default_factory=list)  # `g:a:v` of the platform(...)/enforcedPlatform(...) BOMs


def _string(m: re.Match, first: int = 1) -> str | None:
    """The text of a STRING group pair starting at group `first` (None when neither matched)."""
    double, single = m.group(first), m.group(first + 1)
    return double if double is not None else single


def _coordinate(written: str, names: dict[str, str], out: Declarations, text: str, end: int, conf: str) -> None:
    """`g:a:v[:classifier][@ext]` as written (a version ending `!!` is strict; a versionless one may take its
    version from a `{ version { strictly '…' } }` block)."""
    coord = interpolate(written, names)
    if coord is None:
        out.unresolved.append(f"{conf} \"{written}\" (a variable jdx cannot read)")
        return
    parts = coord.split("@", 1)[0].split(":")
    if len(parts) == 2:
        strict = STRICT_BLOCK.match(text, end)
        if strict is None:
            out.versionless.setdefault(":".join(parts), ":".join(parts))
            return
        parts.append(_string(strict))
    _add(":".join(parts[:2]), parts[2], parts[3:4], out)


def _add(module: str, version: str, classifier: list[str], out: Declarations) -> None:
    strict, _bang, prefer = version.partition("!!")  # `1.7!!`: strictly 1.7; `[1,2)!!1.5`: strict range, 1.5
    version = prefer if dynamic(strict) and prefer else strict
    coord = ":".join([module, version, *classifier])
    if not version and not classifier:
        out.versionless.setdefault(module, module)
    elif not version or dynamic(version):
        out.unresolved.append(f"{coord} (a dynamic version)" if version else f"{coord} (no version)")
    else:
        out.coords.append(coord)


def _map(args: str, names: dict[str, str], out: Declarations, conf: str) -> bool:
    """`group: 'g', name: 'a', version: v` (Groovy) or `group = "g", name = "a", version = "v"` (Kotlin)."""
    values = {}
    for m in MAP_PAIR.finditer(args):
        written = _string(m, 2)
        values[m.group(1)] = interpolate(written, names) if written is not None else _lookup(m.group(4), names)
        if values[m.group(1)] is None:
            values[m.group(1)] = "$" + (written or m.group(4))
    if "group" not in values or "name" not in values:
        return False
    if any("$" in v for v in values.values()):
        out.unresolved.append(f"{conf} {args.strip().rstrip(',')} (a variable jdx cannot read)")
        return True
    _add(f"{values['group']}:{values['name']}", values.get("version", ""),
         [values["classifier"]] if values.get("classifier") else [], out)
    return True


def _positional(m: re.Match, names: dict[str, str], out: Declarations, conf: str) -> None:
    """Kotlin's `implementation("g", "a", "v")`."""
    group, name = _string(m, 1), _string(m, 3)
    written = _string(m, 5)
    version = interpolate(written, names) if written is not None else (_lookup(m.group(7), names) if m.group(7)
                                                                       else "")
    if version is None:
        out.unresolved.append(f"{conf}(\"{group}\", \"{name}\", {written or m.group(7)}) (a variable jdx cannot read)")
    else:
        _add(f"{group}:{name}", version, [], out)


def _catalog_use(alias_written: str, catalog_: dict, out: Declarations) -> None:
    alias = re.sub(r"[-_]", ".", alias_written)
    entry = catalog_.get(alias)
    for member in entry if isinstance(entry, list) else [entry] if entry else []:
        if member.startswith("libs.") and catalog_.get(re.sub(r"[-_]", ".", member[5:])):
            _catalog_use(member[5:], catalog_, out)  # a bundle's library without a version
        elif member.startswith("libs."):
            out.unresolved.append(f"{member} (in libs.{alias_written})")
        elif member.count(":") == 1:
            out.versionless.setdefault(member, f"libs.{alias_written}")
        else:
            module, _c, version = member.rpartition(":")
            _add(module, version, [], out)
    if not entry and not alias.startswith(("plugins.", "versions.")):
        out.unresolved.append(f"libs.{alias_written}")


def _balanced(text: str, open_at: int) -> int:
    """The index just past the `)` closing the `(` at `open_at` (strings skipped), or the text's end."""
    depth, i = 0, open_at
    while i < len(text):
        ch = text[i]
        if ch in "\"'":
            close = text.find(ch, i + 1)
            i = close if close > 0 else len(text)
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return len(text)


def _snippet(text: str, limit: int = SNIPPET) -> str:
    line = " ".join(text.split())
    return line if len(line) <= limit else line[:limit - 1] + "…"


def _rule(text: str, m: re.Match) -> str:
    """A rule as written: `exclude(…)` whole (its parentheses balanced), `exclude group: …` to its line's end."""
    end = _balanced(text, m.start(1)) if m.group(1) else m.end()
    return _snippet(text[m.start():end], RULE_SNIPPET)


def _string_named(text: str, span: tuple[int, int], conf: str) -> int | None:
    """Where the notation of a configuration named by a string starts: Kotlin's `"implementation"("g:a:v")` and
    `add("implementation", "g:a:v")` (the forms inside `subprojects {}`); None for any other string that holds the
    word (`description = "the api module"`)."""
    start, end = span
    if text[start + 1:end - 1] != conf:
        return None
    call = STRING_NAMED.match(text, end)
    if call:
        return call.end()
    argument = ADD_ARGUMENT.match(text, end)
    return argument.end() if argument and ADD_CALL.search(text[max(0, start - 40):start]) else None


def declarations(text: str, tests: bool, names: dict[str, str], catalog_: dict) -> Declarations:
    """The dependency declarations of one build file (comments already stripped), in the order they are written,
    on the compile classpath (`configurations(tests)`)."""
    wanted = configurations(tests)
    out = Declarations()
    strings = [(s.start(), s.end()) for s in STRING_ARG.finditer(text)]
    starts = [s[0] for s in strings]
    for m in CONFIGURATION.finditer(text):
        conf, pos = m.group(1), m.end()
        inside = bisect.bisect_right(starts, m.start()) - 1
        if inside >= 0 and strings[inside][1] > m.start():
            pos = _string_named(text, strings[inside], conf)
            if pos is None:
                continue  # a word of a string (`description = "the api module"`)
        elif not m.group(2) and (pos >= len(text) or not (text[pos].isalpha() or text[pos] in "\"'")):
            continue  # `implementation {`, `compileOnly.extendsFrom`: the configuration itself, no declaration
        if conf not in wanted:
            out.other += conf in NOT_COMPILE
            continue
        _declaration(text, pos, conf, names, catalog_, out)
    out.ignored.extend(_rule(text, r) for r in RULES.finditer(text))
    return out


def _declaration(text: str, pos: int, conf: str, names: dict[str, str], catalog_: dict, out: Declarations) -> None:
    """One declaration of configuration `conf`, its notation starting at `pos`."""
    call = CALL.match(text, pos)
    if call and call.group(1) in SKIPPED_CALLS:
        return
    if call and call.group(1) in ("files", "fileTree"):
        out.files.append((call.group(1), text[call.end():_balanced(text, call.end() - 1) - 1]))
        return
    if call and call.group(1) in ("platform", "enforcedPlatform"):
        inner = text[call.end():_balanced(text, call.end() - 1) - 1]
        bom = Declarations()
        _declaration(text, call.end() + len(inner) - len(inner.lstrip()), conf, names, catalog_, bom)
        out.platforms.extend(bom.coords)
        out.ignored.append(f"{conf}({call.group(1)}({_snippet(inner)})): its version constraints" + (
            " (read only for the declarations without a version)" if bom.coords else ""))
        return
    if call and call.group(1) == "kotlin":
        inner = STRING_ARG.match(text, call.end())
        out.unresolved.append(f"kotlin(\"{_string(inner)}\") (its version is the Kotlin plugin's)" if inner
                              else _snippet(text[pos:_balanced(text, call.end() - 1)]))
        return
    if text.startswith("projects.", pos):  # a type-safe project accessor: one of the build's own projects
        return
    if text.startswith("libs.", pos):
        alias = re.match(r"libs\.([A-Za-z0-9_.\-]+)", text[pos:])
        _catalog_use(alias.group(1).rstrip("."), catalog_, out)
        return
    positional = POSITIONAL.match(text, pos)
    if positional:
        _positional(positional, names, out, conf)
        return
    literal = STRING_ARG.match(text, pos)
    if literal and ":" in _string(literal):
        _coordinate(_string(literal), names, out, text, literal.end(), conf)
        return
    args = MAP_ARGS.match(text, pos)
    if args and _map(args.group(0), names, out, conf):
        return
    line = text[pos:pos + SNIPPET].split("\n", 1)[0]
    out.unresolved.append(f"{conf} {_snippet(line)} (a notation jdx does not read)")
