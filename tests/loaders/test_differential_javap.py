"""Differential tests of the loader against `javap` (the foundation's acceptance criterion).

For every class of gson and commons-lang3, every 7th class of guava and about 300 java.base
classes, the members each type DECLARES in the workspace graph must equal what `javap -p -v`
lists: same (name, descriptor) pairs, the same modifier keywords javap prints on the
declaration line (public/private/protected/static/final/abstract/synchronized/native for
methods, plus volatile/transient for fields, varargs as `...`), the same synthetic and bridge
bits (from javap's `flags:` line), and the same raw class-file access flags and Deprecated
attribute.

javap is the oracle: `-v` is used (not just `-s`) because only its `flags: (0x....)` line shows
ACC_SYNTHETIC and ACC_BRIDGE, and its header line `fields: F, methods: M` lets the parser prove it
read every member. Classes are addressed as `jar:file:...!/x.class` and `jrt:/module/x.class`
URLs, so javap can never resolve a jar's class name to a JDK class of the same name.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import zipfile
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import pytest

import jdx
from tests.conftest import GSON, GUAVA, LANG3, require
from tests.fixtures import jdktool

# --- the oracle: javap -p -v --------------------------------------------------------------------

BATCH = 400  # classes per javap invocation (fewer JVM warm-ups)
SHOWN_LIMIT = 5  # differing members quoted in a failure message

# keyword -> access bit, as javap prints them on a member's declaration line
METHOD_KEYWORDS = {
    "public": 0x0001, "private": 0x0002, "protected": 0x0004, "static": 0x0008, "final": 0x0010,
    "synchronized": 0x0020, "native": 0x0100, "abstract": 0x0400,
}
FIELD_KEYWORDS = {
    "public": 0x0001, "private": 0x0002, "protected": 0x0004, "static": 0x0008, "final": 0x0010,
    "volatile": 0x0040, "transient": 0x0080,
}
# printed by javap but not part of the comparison: `default` is not a flag, `strictfp` is ACC_STRICT
IGNORED_KEYWORDS = {"default", "strictfp"}
ACC_BRIDGE, ACC_VARARGS, ACC_SYNTHETIC, ACC_DEPRECATED = 0x0040, 0x0080, 0x1000, 0x20000

CLASS_START = "Classfile "
THIS_CLASS = re.compile(r"^  this_class: #\d+\s+// \"?([^\"]+)\"?$")
COUNTS = re.compile(r"^  interfaces: \d+, fields: (\d+), methods: (\d+), attributes: \d+$")
DECL = re.compile(r"^  (\S.*)$")
DESCRIPTOR = re.compile(r"^    descriptor: (\S+)$")
FLAGS = re.compile(r"^    flags: \(0x([0-9a-fA-F]{4})\)")


class OracleError(AssertionError):
    """javap printed something the parser does not understand: the oracle is not trustworthy."""


@dataclass(frozen=True)
class MemberKey:
    kind: str  # method | field
    name: str
    descriptor: str

    def render(self, owner: str) -> str:
        sep = "" if self.kind == "method" else ":"
        return f"{owner}#{self.name}{sep}{self.descriptor}"


@dataclass(frozen=True)
class Member:
    modifiers: frozenset[str]  # javap keywords plus synthetic/bridge/varargs
    flags: int  # the raw 16-bit class-file access flags
    deprecated: bool  # a Deprecated attribute is present


@dataclass
class Listing:
    """One class as javap sees it."""

    name: str  # internal name, from this_class
    members: dict[MemberKey, Member] = field(default_factory=dict)
    expected_fields: int = -1
    expected_methods: int = -1


def modifiers_from_access(access: int, kind: str) -> frozenset[str]:
    """The comparison's modifier words for a raw access int (graph side)."""
    table = METHOD_KEYWORDS if kind == "method" else FIELD_KEYWORDS
    words = {word for word, bit in table.items() if access & bit}
    if access & ACC_SYNTHETIC:
        words.add("synthetic")
    if kind == "method" and access & ACC_BRIDGE:
        words.add("bridge")
    if kind == "method" and access & ACC_VARARGS:
        words.add("varargs")
    return frozenset(words)


def _parse_member(owner: str, decl: str, descriptor: str, flags: int) -> tuple[MemberKey, frozenset[str]]:
    kind = "method" if descriptor.startswith("(") else "field"
    if not decl.endswith(";"):
        raise OracleError(f"{owner}: unexpected declaration line {decl!r}")
    body = decl[:-1]
    if decl == "static {};":  # the static initializer
        head, params, name = "static", "", "<clinit>"
    elif kind == "method":
        if "(" not in body:
            raise OracleError(f"{owner}: method declaration without parameters {decl!r}")
        head = body[: body.index("(")]
        params = body[body.index("(") + 1: body.rindex(")")]
        name = head.rsplit(" ", 1)[-1]
        if name == owner.replace("/", "."):
            name = "<init>"
    else:
        head, params = body, ""
        name = body.rsplit(" ", 1)[-1]
    table = METHOD_KEYWORDS if kind == "method" else FIELD_KEYWORDS
    words: set[str] = set()
    for token in head.split(" "):
        if token in table:
            words.add(token)
        elif token in IGNORED_KEYWORDS:
            continue
        else:
            break
    # javap shows ACC_VARARGS only as `...`; synthetic and bridge only on the flags line
    if kind == "method" and params.endswith("..."):
        words.add("varargs")
    hidden = modifiers_from_access(flags, kind) & {"synthetic", "bridge"}
    words |= hidden
    # the keywords javap printed must agree with its own flags line, or the parse is wrong
    if frozenset(words) != modifiers_from_access(flags, kind):
        raise OracleError(f"{owner}: keywords of {decl!r} disagree with flags 0x{flags:04x}")
    return MemberKey(kind, name, descriptor), frozenset(words)


def parse_javap_verbose(text: str) -> dict[str, Listing]:
    """Every class in the output of one `javap -p -v` run, by internal name."""
    out: dict[str, Listing] = {}
    current: Listing | None = None
    lines = text.splitlines()
    in_body = False
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith(CLASS_START):
            current, in_body = None, False
        elif current is None and (m := THIS_CLASS.match(line)):
            current = Listing(m.group(1))
            out[current.name] = current
        elif current is not None and not in_body and (m := COUNTS.match(line)):
            current.expected_fields, current.expected_methods = int(m.group(1)), int(m.group(2))
        elif current is not None and line == "{":
            in_body = True
        elif in_body and line == "}":
            in_body = False
        elif in_body and (m := DECL.match(line)) and i + 1 < len(lines) and (
                d := DESCRIPTOR.match(lines[i + 1])):
            f = FLAGS.match(lines[i + 2]) if i + 2 < len(lines) else None
            if f is None:
                raise OracleError(f"{current.name}: no flags line after {line!r}")
            flags = int(f.group(1), 16)
            key, words = _parse_member(current.name, m.group(1), d.group(1), flags)
            deprecated = False
            j = i + 3
            while j < len(lines) and lines[j].startswith("    "):
                if lines[j] == "    Deprecated: true":
                    deprecated = True
                j += 1
            if key in current.members:
                raise OracleError(f"{current.name}: {key} listed twice")
            current.members[key] = Member(words, flags, deprecated)
            i = j
            continue
        i += 1
    for listing in out.values():
        fields = sum(1 for k in listing.members if k.kind == "field")
        methods = len(listing.members) - fields
        if (fields, methods) != (listing.expected_fields, listing.expected_methods):
            raise OracleError(
                f"{listing.name}: parsed {fields} fields and {methods} methods, javap's header says "
                f"{listing.expected_fields} and {listing.expected_methods}")
    return out


def run_javap(javap: str, targets: list[str]) -> dict[str, Listing]:
    proc = jdktool.run([javap, "-p", "-v", *targets], capture_output=True, text=True, timeout=300)
    if proc.returncode != 0:
        raise OracleError(f"javap failed ({proc.returncode}): {proc.stderr[:2000]}")
    listings = parse_javap_verbose(proc.stdout)
    if len(listings) != len(targets):
        raise OracleError(f"javap listed {len(listings)} classes for {len(targets)} targets")
    return listings


# --- the corpora ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Corpus:
    key: str
    workspace: str  # jars | jdk
    artifact: str  # Artifact.name in the graph
    every: int  # sample step over the sorted class names (1 = every class)
    jar: Path | None = None


# The default tier compares a sample of each corpus; the soak (marker `soak`) compares them whole.
CORPORA = [
    Corpus("gson", "jars", "gson.jar", 3, GSON),
    Corpus("commons-lang3", "jars", "commons-lang3.jar", 5, LANG3),
    Corpus("java.base-sample", "jdk", "java.base", 61),
]
WHOLE = [
    Corpus("gson-whole", "jars", "gson.jar", 1, GSON),
    Corpus("commons-lang3-whole", "jars", "commons-lang3.jar", 1, LANG3),
    Corpus("guava-every-7th", "jars", "guava.jar", 7, GUAVA),
    Corpus("java.base-every-21st", "jdk", "java.base", 21),
]
ALL_CORPORA = CORPORA + WHOLE
PARAMS = [pytest.param(c, id=c.key) for c in CORPORA] + \
    [pytest.param(c, id=c.key, marks=pytest.mark.soak) for c in WHOLE]


def jar_classes(jar: Path) -> list[str]:
    """Internal names of the jar's classes, as the graph should hold them (no module-info)."""
    with zipfile.ZipFile(jar) as z:
        names = [n[: -len(".class")] for n in z.namelist()
                 if n.endswith(".class") and not n.startswith("META-INF/")]
    return sorted(n for n in names if n.rsplit("/", 1)[-1] != "module-info")


def jimage_classes(home: Path, module: str) -> list[str] | None:
    """Internal names of a JDK module's classes from `jimage list`, or None without jimage."""
    jimage, image = home / "bin" / "jimage", home / "lib" / "modules"
    if not jimage.exists() or not image.exists():
        return None
    proc = subprocess.run([str(jimage), "list", "--include", f"regex:/{re.escape(module)}/.*",
                           str(image)], capture_output=True, text=True, timeout=120)
    if proc.returncode != 0:
        proc = subprocess.run([str(jimage), "list", str(image)], capture_output=True, text=True, timeout=120)
        if proc.returncode != 0:
            return None
    names, current = [], None
    for line in proc.stdout.splitlines():
        if line.startswith("Module: "):
            current = line[len("Module: "):].strip()
        elif current == module and line.strip().endswith(".class"):
            names.append(line.strip()[: -len(".class")])
    return sorted(n for n in names if n.rsplit("/", 1)[-1] != "module-info")


class Oracle:
    """javap listings of every corpus, computed in background threads while the graphs are built."""

    def __init__(self, javap: str, jdk_home: Path, corpora: list[Corpus]):
        self.javap = javap
        self.jdk_home = jdk_home
        self.pool = ThreadPoolExecutor(max_workers=2)
        self.all_classes: dict[str, list[str] | None] = {}
        self.sample: dict[str, list[str]] = {}
        self.futures: dict[str, list[Future]] = {}
        for corpus in corpora:
            if corpus.jar is not None:
                names = jar_classes(corpus.jar)
                url = f"jar:file:{corpus.jar}!/{{}}.class"
            else:
                names = jimage_classes(jdk_home, corpus.artifact)
                url = f"jrt:/{corpus.artifact}/{{}}.class"
            self.all_classes[corpus.key] = names
            if names is None:
                continue
            self.submit(corpus, names[:: corpus.every], url)

    def submit(self, corpus: Corpus, sample: list[str], url: str) -> None:
        self.sample[corpus.key] = sample
        targets = [url.format(n) for n in sample]
        self.futures[corpus.key] = [self.pool.submit(run_javap, self.javap, targets[i: i + BATCH])
                                    for i in range(0, len(targets), BATCH)]

    def listings(self, corpus: Corpus, graph_classes) -> dict[str, Listing]:
        if corpus.key not in self.futures:  # no jimage: sample the graph's own class list
            self.submit(corpus, sorted(graph_classes())[:: corpus.every],
                        f"jrt:/{corpus.artifact}/{{}}.class")
        out: dict[str, Listing] = {}
        for fut in self.futures[corpus.key]:
            out.update(fut.result())
        return out

    def close(self) -> None:
        self.pool.shutdown(wait=True)


@pytest.fixture(scope="session")
def jdk_home() -> Path:
    from jdx.loaders.jvm import find_java_home

    return Path(find_java_home().home)


def selected_corpora(session) -> list[Corpus]:
    """The corpora the collected tests compare (the default tier's samples, or the soak's whole corpora)."""
    keys = {item.callspec.params["corpus"].key for item in session.items
            if hasattr(item, "callspec") and isinstance(item.callspec.params.get("corpus"), Corpus)}
    return [c for c in ALL_CORPORA if c.key in keys] or CORPORA[:1]


@pytest.fixture(scope="session")
def oracle(jdk_home, request):
    javap = jdk_home / "bin" / "javap"
    if not javap.exists():
        javap = Path(shutil.which("javap") or "/usr/bin/javap")
    if not javap.exists():
        pytest.skip("javap is not installed")
    for corpus in ALL_CORPORA:
        if corpus.jar is not None:
            require(corpus.jar)
    o = Oracle(str(javap), jdk_home, selected_corpora(request.session))
    yield o
    o.close()


@pytest.fixture(scope="session")
def graphs(oracle, tmp_path_factory, jdx_home, request):
    """The two workspace graphs: the three jars without the JDK, and the JDK alone (in the session's cache,
    shared with the other tests); built once."""
    cache = tmp_path_factory.mktemp("jdx-differential")
    jars = sorted({str(c.jar) for c in selected_corpora(request.session) if c.jar is not None})
    opened = {
        "jars": jdx.open(jars=jars, jdk=False, cache_dir=str(cache / "jars")),
        "jdk": jdx.open(jars=[], jdk=True, cache_dir=str(jdx_home / "cache")),
    }
    for ws in opened.values():  # build both now, while javap runs in the background
        ws.cypher("MATCH (a:Artifact) RETURN count(*)")
    yield opened
    for ws in opened.values():
        ws.close()


# --- the graph side ------------------------------------------------------------------------------


def artifact_id(ws, name: str) -> str:
    rows = ws.cypher("MATCH (a:Artifact) WHERE a.name = $n RETURN a.id", {"n": name}).to_pylist()
    assert len(rows) == 1, f"expected one Artifact named {name}, got {rows}"
    return rows[0]["a.id"]


def graph_types(ws, artifact: str) -> list[dict]:
    aid = artifact_id(ws, artifact)
    return ws.cypher(
        "MATCH (t:Type) WHERE t.artifact = $a RETURN t.id AS id, t.external AS external, t.shadowed AS shadowed",
        {"a": aid}).to_pylist()


def graph_members(ws, owners: list[str]) -> tuple[dict[str, dict[MemberKey, Member]], list[str]]:
    """owner -> declared members, plus complaints about inconsistent member rows."""
    out: dict[str, dict[MemberKey, Member]] = {o: {} for o in owners}
    problems: list[str] = []
    for kind, label, sep in (("method", "Method", ""), ("field", "Field", ":")):
        rows = ws.cypher(
            f"MATCH (t:Type)-[:DECLARES]->(m:{label}) WHERE t.id IN $ids "
            "RETURN t.id AS t, m.id AS id, m.owner AS owner, m.name AS name, m.descriptor AS descriptor, "
            "m.access AS access, m.external AS external, m.shadowed AS shadowed, m.deprecated AS deprecated",
            {"ids": owners}).to_pylist()
        for r in rows:
            key = MemberKey(kind, r["name"], r["descriptor"])
            expected_id = f"{r['t']}#{r['name']}{sep}{r['descriptor']}"
            if r["id"] != expected_id or r["owner"] != r["t"]:
                problems.append(f"{label} {r['id']!r} (owner {r['owner']!r}) is declared by {r['t']!r}")
            if r["external"] or r["shadowed"]:
                problems.append(f"{label} {r['id']!r} is declared yet external={r['external']} "
                                f"shadowed={r['shadowed']}")
            if key in out[r["t"]]:
                problems.append(f"{label} {r['id']!r} is declared twice")
            out[r["t"]][key] = Member(modifiers_from_access(r["access"], kind), r["access"] & 0xFFFF,
                                      bool(r["deprecated"]))
            if bool(r["deprecated"]) != bool(r["access"] & ACC_DEPRECATED):
                problems.append(f"{label} {r['id']!r}: deprecated={r['deprecated']} but access=0x{r['access']:x}")
    return out, problems


# --- the comparator ------------------------------------------------------------------------------


def describe(member: Member | None, what: str) -> str:
    if member is None:
        return "absent"
    if what == "modifiers":
        return "[" + " ".join(sorted(member.modifiers)) + "]"
    return f"0x{member.flags:04x}{' deprecated' if member.deprecated else ''}"


def diff_members(expected: dict[str, Listing], actual: dict[str, dict[MemberKey, Member]],
                 what: str = "modifiers") -> list[str]:
    """Human-readable differences between javap (expected) and the graph (actual), sorted."""

    def value(m: Member):
        return m.modifiers if what == "modifiers" else (m.flags, m.deprecated)

    out: list[str] = []
    for owner in sorted(expected):
        want = expected[owner].members
        got = actual.get(owner)
        if got is None:
            out.append(f"{owner}: type missing from the graph")
            continue
        for key in sorted(set(want) | set(got), key=lambda k: (k.kind, k.name, k.descriptor)):
            w, g = want.get(key), got.get(key)
            if w is None or g is None or value(w) != value(g):
                out.append(f"{key.render(owner)}: javap {describe(w, what)}, graph {describe(g, what)}")
    for owner in sorted(set(actual) - set(expected)):
        out.append(f"{owner}: in the graph sample but javap did not list it")
    return out


def failure(title: str, diffs: list[str]) -> str:
    shown = "\n  ".join(diffs[:SHOWN_LIMIT])
    more = f"\n  ... and {len(diffs) - SHOWN_LIMIT} more" if len(diffs) > SHOWN_LIMIT else ""
    return f"{title}: {len(diffs)} difference(s)\n  {shown}{more}"


# --- the tests -----------------------------------------------------------------------------------


@pytest.fixture(scope="session")
def compared(oracle, graphs):
    """corpus key -> (javap listings, graph members, graph problems), computed once per corpus."""
    cache: dict[str, tuple] = {}

    def get(corpus: Corpus):
        if corpus.key not in cache:
            ws = graphs[corpus.workspace]
            listings = oracle.listings(corpus, lambda: [t["id"] for t in graph_types(ws, corpus.artifact)
                                                        if not t["external"]])
            members, problems = graph_members(ws, sorted(listings))
            cache[corpus.key] = (listings, members, problems)
        return cache[corpus.key]

    return get


@pytest.mark.parametrize("corpus", PARAMS)
def test_declared_members_match_javap(corpus, oracle, compared):
    listings, members, _ = compared(corpus)
    assert len(listings) == len(oracle.sample[corpus.key]) > 25
    diffs = diff_members(listings, members, "modifiers")
    assert not diffs, failure(f"{corpus.key}: declared members (name, descriptor, modifiers) differ from javap",
                              diffs)


@pytest.mark.parametrize("corpus", PARAMS)
def test_raw_access_flags_and_deprecation_match_javap(corpus, compared):
    listings, members, _ = compared(corpus)
    diffs = diff_members(listings, members, "flags")
    assert not diffs, failure(f"{corpus.key}: raw access flags / Deprecated attribute differ from javap", diffs)


@pytest.mark.parametrize("corpus", PARAMS)
def test_member_rows_are_consistent(corpus, compared):
    _, _, problems = compared(corpus)
    assert not problems, failure(f"{corpus.key}: inconsistent member rows", problems)


@pytest.mark.parametrize("corpus", PARAMS)
def test_every_class_is_a_type_of_its_artifact(corpus, oracle, graphs):
    """The graph's non-external types of the artifact are exactly the class files (module-info aside)."""
    classes = oracle.all_classes[corpus.key]
    if classes is None:
        pytest.skip("no jimage to list the module's classes")
    rows = graph_types(graphs[corpus.workspace], corpus.artifact)
    flagged = sorted(r["id"] for r in rows if r["external"] or r["shadowed"])
    ids = {r["id"] for r in rows}
    missing, extra = sorted(set(classes) - ids), sorted(ids - set(classes))
    diffs = [f"{n}: class file without a Type" for n in missing] + \
            [f"{n}: Type without a class file" for n in extra] + \
            [f"{n}: external or shadowed though present" for n in flagged]
    assert not diffs, failure(f"{corpus.key}: classes differ from the artifact's class files", diffs)


def test_comparator_catches_differences(oracle, compared):
    """The comparator is not vacuous: alterations of a real javap listing are each reported."""
    corpus = CORPORA[0]
    listings, members, _ = compared(corpus)
    owner = next(o for o in sorted(listings) if len(listings[o].members) >= 3)
    real = listings[owner]
    assert not diff_members({owner: real}, {owner: members[owner]})

    keys = sorted(real.members, key=lambda k: (k.kind, k.name, k.descriptor))
    dropped, flipped, renamed = keys[0], keys[1], keys[2]
    altered = Listing(owner, dict(real.members))
    del altered.members[dropped]
    m = altered.members[flipped]
    altered.members[flipped] = Member(m.modifiers ^ {"synchronized"}, m.flags ^ 0x0020, m.deprecated)
    m = altered.members.pop(renamed)
    moved = MemberKey(renamed.kind, renamed.name + "X", renamed.descriptor)
    altered.members[moved] = m

    diffs = diff_members({owner: altered}, {owner: members[owner]})
    text = "\n".join(diffs)
    assert dropped.render(owner) + ": javap absent" in text
    assert any(d.startswith(flipped.render(owner) + ": javap [") and "synchronized" in d for d in diffs)
    assert any(d.startswith(moved.render(owner) + ": javap [") and d.endswith("graph absent") for d in diffs)
    assert renamed.render(owner) + ": javap absent" in text
    assert len(diffs) == 4, diffs
    assert len(diff_members({owner: altered}, {owner: members[owner]}, "flags")) == 4
    assert "4 difference(s)" in failure("x", diffs)


def test_oracle_parses_tricky_members():
    """The javap parser on a hand-checked listing: constructors, <clinit>, bridges, lambdas, varargs,
    interface defaults, enum constants and volatile/transient fields."""
    text = """\
Classfile /tmp/L.class
  this_class: #2                          // L
  interfaces: 1, fields: 3, methods: 7, attributes: 4
Constant pool:
  #10 = Utf8               L
{
  private volatile int v;
    descriptor: I
    flags: (0x0042) ACC_PRIVATE, ACC_VOLATILE

  transient long t;
    descriptor: J
    flags: (0x0080) ACC_TRANSIENT

  public static final L A;
    descriptor: LL;
    flags: (0x4019) ACC_PUBLIC, ACC_STATIC, ACC_FINAL, ACC_ENUM
    Deprecated: true

  public L();
    descriptor: ()V
    flags: (0x0001) ACC_PUBLIC
    Code:
      stack=1, locals=1, args_size=1

  public synchronized native void n();
    descriptor: ()V
    flags: (0x0121) ACC_PUBLIC, ACC_SYNCHRONIZED, ACC_NATIVE

  public <T extends java.lang.Comparable<? super T>> void va(java.util.List<T>, java.lang.String...);
    descriptor: (Ljava/util/List;[Ljava/lang/String;)V
    flags: (0x0081) ACC_PUBLIC, ACC_VARARGS

  public int compareTo(java.lang.Object);
    descriptor: (Ljava/lang/Object;)I
    flags: (0x1041) ACC_PUBLIC, ACC_BRIDGE, ACC_SYNTHETIC

  private static java.lang.Integer lambda$new$0();
    descriptor: ()Ljava/lang/Integer;
    flags: (0x100a) ACC_PRIVATE, ACC_STATIC, ACC_SYNTHETIC

  public default int b() throws java.io.IOException;
    descriptor: ()I
    flags: (0x0001) ACC_PUBLIC

  static {};
    descriptor: ()V
    flags: (0x0008) ACC_STATIC
}
SourceFile: "L.java"
"""
    listing = parse_javap_verbose(text)["L"]
    got = {(k.kind, k.name, k.descriptor): (" ".join(sorted(m.modifiers)), m.flags, m.deprecated)
           for k, m in listing.members.items()}
    assert got == {
        ("field", "v", "I"): ("private volatile", 0x42, False),
        ("field", "t", "J"): ("transient", 0x80, False),
        ("field", "A", "LL;"): ("final public static", 0x4019, True),
        ("method", "<init>", "()V"): ("public", 0x1, False),
        ("method", "n", "()V"): ("native public synchronized", 0x121, False),
        ("method", "va", "(Ljava/util/List;[Ljava/lang/String;)V"): ("public varargs", 0x81, False),
        ("method", "compareTo", "(Ljava/lang/Object;)I"): ("bridge public synthetic", 0x1041, False),
        ("method", "lambda$new$0", "()Ljava/lang/Integer;"): ("private static synthetic", 0x100a, False),
        ("method", "b", "()I"): ("public", 0x1, False),
        ("method", "<clinit>", "()V"): ("static", 0x8, False),
    }
    with pytest.raises(OracleError, match="disagree"):
        parse_javap_verbose(text.replace("(0x0121)", "(0x0101)"))
    with pytest.raises(OracleError, match="header says"):
        parse_javap_verbose(text.replace("methods: 7", "methods: 8"))
