"""Search patterns: camel-hump, glob and regex, each compiled to one regex text that RE2 (Kùzu's `=~`) and
Python's `re` read alike, so the graph filters names and Python ranks packages with the same rules.

Camel humps follow IntelliJ: a capital (or the first character) starts a word, lower-case letters and
digits continue it, words may be skipped (`gJson` -> `getAsJsonObject`), and a capital may also continue an
acronym (`URLConn` -> `URLConnection`). Names are matched in their `name_words` form (` get As Json Object`),
where a space marks each word start, so "starts a word" is just "follows a space".
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property

from jdx.graph_schema.schema import name_words

__all__ = ["Pattern", "compile_pattern", "empty_member_pattern", "name_words", "levenshtein", "TIER_NAMES",
           "glob_to_regex", "owner_test"]

SEPARATORS = "_$- "
GLOB_CHARS = "*?"
MEMBER_SEPARATORS = ("#", "::")  # spec §6's memberSep besides `.`
# tiers: the first ranking key; lower is better
EXACT, PREFIX, HUMP, LOOSE_PREFIX, WORD = 0, 1, 2, 3, 4
TIER_NAMES = {EXACT: "exact", PREFIX: "prefix", HUMP: "camel-hump", LOOSE_PREFIX: "prefix-any-case", WORD: "word"}


def _literal(c: str) -> str:
    """One character as a regex atom both engines read the same way (no flags needed)."""
    if c.isalnum() and c.isascii():
        return c
    if c.isascii():
        return "\\" + c
    return c


def _either_case(c: str) -> str:
    lo, up = c.lower(), c.upper()
    if lo == up or len(lo) != 1 or len(up) != 1:
        return _literal(c)
    return f"[{lo}{up}]"


def hump_regex(pattern: str, anchored: bool, capitals: bool = False) -> str:
    """Regex over `name_words` text: anchored -> the first pattern word starts the name's first word. `capitals`:
    the pattern's capitals match capitals only (its lower-case letters still either case). A lower-case word of a
    pattern also names its singular or plural (`naming strategies` finds `NamingStrategy`, `listeners` finds
    `Listener`, `strategy` finds `PropertyNamingStrategies`): agents write words, names pick one number."""
    out: list[str] = []
    new_word = True
    i = 0
    while i < len(pattern):
        c = pattern[i]
        i += 1
        if c in SEPARATORS:
            new_word = True
            continue
        atom = _literal(c) if capitals and c.isupper() else _either_case(c)
        if new_word:
            lead = " " if anchored and not out else ".* "
            word = re.match(r"[a-z]*", pattern[i:]).group()
            other = other_number(c + word) if pattern[i + len(word):i + len(word) + 1] in ("", *SEPARATORS) else None
            if other is not None:  # the word as written (a prefix, as any word) or its other number (whole)
                atom = f"(?:{_words_atoms(c + word)}|{_words_atoms(other)}\\b)"
                i += len(word)
            out.append(lead + atom)
            new_word = False
        elif c.isupper():
            out.append(f"(?:{_literal(c)}|.* {atom})")
        else:
            out.append(atom)
    return "".join(out) + ".*" if out else NEVER


def _words_atoms(word: str) -> str:
    return "".join(_either_case(c) for c in word)


def other_number(word: str) -> str | None:
    """The singular of an English plural or the plural of a singular a prefix match would miss (`strategies` ->
    `strategy`, `listeners` -> `listener`, `strategy` -> `strategies`), for lower-case words of four letters or more;
    None where the word as a prefix already finds both (`listener` finds `Listeners`) or no rule applies (`class`,
    `status`, `analysis`)."""
    if len(word) < 4 or not word.isascii() or not word.isalpha() or not word.islower():
        return None
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    if word.endswith("y") and word[-2] not in "aeiou":
        return word[:-1] + "ies"
    return None


NEVER = r"\n"  # no name's words contain a newline: a pattern of separators only matches by prefix alone


def glob_to_regex(glob: str, case_sensitive: bool = True) -> str:
    """`*` any run (dots included), `?` one character; everything else literal."""
    body = "".join(".*" if c == "*" else "." if c == "?" else _literal(c) for c in glob)
    return body if case_sensitive else "(?i)" + body


@dataclass(frozen=True)
class Pattern:
    """A compiled search pattern. `mode` is hump, glob or regex; `qualifier` is the dotted part before the
    last `.` (`java.util` of `java.util.HashMap`), matched against the symbol's owner or package. `member`: the
    pattern named a member with `#` or `::` (`ObjectMapper#readValue`, spec §6), so only methods and fields match."""

    text: str
    mode: str
    name: str  # the simple-name part
    lower: str
    anywhere: str  # regex over name_words (hump) or over the name itself (glob, regex)
    anchored: str
    qualifier: str | None
    member: bool = False
    # a glob whose name has a `*` after a qualifier (`java.util.*Map`): the `*` may span dots, so the name is matched
    # as loosely as a run may end it and this regex decides over the whole dotted name (owner `.` name)
    spanning: str | None = None

    @cached_property
    def _spanning_rx(self) -> "re.Pattern":
        return re.compile(self.spanning or NEVER, re.DOTALL)

    def spans(self, full: str) -> bool:
        """Whether a symbol's whole dotted name (`java.util.concurrent.ConcurrentHashMap`) matches a spanning glob."""
        return self._spanning_rx.fullmatch(full) is not None

    def depth(self, full: str) -> int:
        """How many dotted segments a spanning glob's `*` runs over past its qualifier's own (0: the qualifier's
        package or type itself holds the name), so exact-package matches rank first."""
        m = self._spanning_rx.fullmatch(full)
        return m.group("rest").count(".") if m else 0

    @cached_property
    def _anywhere_rx(self) -> "re.Pattern":
        return re.compile(self.anywhere, re.DOTALL)

    @cached_property
    def _anchored_rx(self) -> "re.Pattern":
        return re.compile(self.anchored, re.DOTALL)

    def spans_dots(self, full: str) -> bool:
        """Whether a glob without a qualifier matches a whole dotted name (a package: `*caffeine*` matches
        `com.github.benmanes.caffeine.cache`), its `*` running over the dots."""
        return self.mode == "glob" and self.qualifier is None and self._anywhere_rx.fullmatch(full) is not None

    def tier(self, name: str, words: str | None = None) -> int | None:
        """Python-side match and tier of one name (packages, modules; tests use it as the oracle)."""
        if self.mode != "hump":
            return HUMP if self._anywhere_rx.fullmatch(name) else None
        low = name.lower()
        if low == self.lower:
            return EXACT
        prefix = low.startswith(self.lower)
        if prefix and self._capitals_agree(name):
            return PREFIX
        words = name_words(name) if words is None else words
        if self._anchored_rx.fullmatch(words):
            return HUMP
        if prefix:  # a prefix whose capitals the pattern does not share (`RBM`: `rbMonochrome`) after the humps
            return LOOSE_PREFIX
        if self._anywhere_rx.fullmatch(words):
            return WORD
        return None

    def _capitals_agree(self, name: str) -> bool:
        """Each capital of the pattern after its first character is a capital of the name too: `RBM` names a
        word at each capital (`RBMap`, not `rbMonochrome`); lower-case letters match either case."""
        return all(not c.isupper() or name[i].isupper() for i, c in enumerate(self.name[1:], 1))

    @property
    def core(self) -> str:
        """The hump regex without its leading and trailing `.*`: searching for it finds the same names."""
        core = self.anywhere
        if core.startswith(".*"):
            core = core[2:]
        if core.endswith(".*"):
            core = core[:-2]
        return core


def compile_pattern(text: str, regex: bool = False) -> Pattern:
    """A search pattern: `--regex` text, a glob (`*`/`?`), or camel-hump/prefix text; a dotted pattern's
    last segment is the name and the rest its qualifier (`Map.Entry`, `com.google.gson.*`), and what follows a
    `#` or `::` a member of the type before it (`ObjectMapper#readValue`, `ObjectMapper#read*`)."""
    text = text.strip()
    if regex:
        flags, body = _leading_flags(text)
        anywhere, anchored = f"{flags}.*(?:{body}).*", f"{flags}(?:{body})"
        _check_re2(text, anywhere)
        return Pattern(text, "regex", text, text.lower(), anywhere, anchored, None)
    qualifier = None
    sep = next((s for s in MEMBER_SEPARATORS if s in text), None)
    name = text
    if sep is not None:  # `Type#member`, `Type::member`: the canonical member form (spec §6); `Type#` is `Type#*`
        qualifier, _, name = text.partition(sep)
        qualifier, name = qualifier.strip() or None, name.strip() or "*"
    elif "." in text.strip("."):
        qualifier, _, name = text.rpartition(".")
        qualifier = qualifier or None
    member = sep is not None
    # a glob anywhere makes the pattern a glob (`org.yaml.*.Representer` names `Representer` exactly, case and all)
    if any(c in GLOB_CHARS for c in name) or any(c in GLOB_CHARS for c in qualifier or ""):
        smart = not any(c.isupper() for c in name)
        rx = glob_to_regex(name, case_sensitive=not smart)
        spanning = None
        if qualifier is not None and not member and "*" in name:
            # the simple name is what follows the last dot a `*` spans: the rest of the glob after one of its `*`s
            tails = [glob_to_regex(name, True)] + [".*" + glob_to_regex(name[i + 1:], True)
                                                   for i, c in enumerate(name) if c == "*"]
            loose = "(?:" + "|".join(dict.fromkeys(tails)) + ")"
            rx = loose if not smart else "(?i)" + loose
            body = glob_to_regex(name, True)
            spanning = (r"(?:.*?\.)?" + glob_to_regex(qualifier, True) + r"\.(?P<rest>"
                        + (f"(?i:{body})" if smart else body) + ")")
        return Pattern(text, "glob", name, name.lower(), rx, rx, qualifier, member, spanning)
    return Pattern(text, "hump", name, name.lower(), hump_regex(name, False), hump_regex(name, True), qualifier,
                   member)


def empty_member_pattern(text: str) -> bool:
    """`#`, `::`: a member separator with neither a type before it nor a member after it, which names no symbol
    (`Type#` is every member of Type, `#name` the members of that name in every type)."""
    text = text.strip()
    sep = next((s for s in MEMBER_SEPARATORS if s in text), None)
    if sep is None:
        return False
    qualifier, _, name = text.partition(sep)
    return not qualifier.strip() and not name.strip()


def nested_dots(text: str) -> str:
    """`ErrorCodeValidator$Error` (a binary name, as jdx prints nested types) as `ErrorCodeValidator.Error`, the form
    a qualifier matches: a `$` inside a segment naming a class (upper case first) before a letter, in the part before
    a member separator, javac's number of a local class too (`Outer$1Row`: `Outer.Row`, its name in its class).
    Kotlin's `area$default` and `lambda$run$0` keep theirs."""
    sep = next((s for s in MEMBER_SEPARATORS if s in text), None)
    if sep is not None:
        head, _, tail = text.partition(sep)
        return nested_dots(head) + sep + tail
    return ".".join(re.sub(r"\$\d*(?=[A-Za-z_])", ".", seg) if seg[:1].isupper() else seg for seg in text.split("."))


_NOT_RE2 = re.compile(r"\(\?<?[=!]|\(\?P=|\\[1-9]")
# a regex's leading inline flags (`(?i)`, `(?is)`), global in Python only at the expression's start
_LEADING_FLAGS = re.compile(r"(?:\(\?[A-Za-z]+\))+")


def _leading_flags(text: str) -> tuple[str, str]:
    """(the leading inline flags, the rest) of a --regex: wrapped in `.*(?:…).*`, the rest follows the flags, which
    stay first (`(?i)^jws` -> `(?i).*(?:^jws).*`), as Python requires of a global flag and RE2 reads alike."""
    m = _LEADING_FLAGS.match(text)
    return (m.group(), text[m.end():]) if m else ("", text)


def _check_re2(text: str, wrapped: str) -> None:
    """--regex is matched by RE2 (Arrow's, over the index's names) and by Python's `re` (the tiers): refuse, as a
    usage error, what either engine cannot read in the written `text` or its `wrapped` form, instead of matching
    nothing or failing inside the search."""
    import pyarrow as pa
    import pyarrow.compute as pc

    from jdx.errors import UsageError

    try:
        re.compile(text)
        re.compile(wrapped)
    except re.error as exc:
        raise UsageError(f"--regex {text}: {exc}") from exc
    if _NOT_RE2.search(text):
        raise UsageError(f"--regex {text}: lookarounds and backreferences are not supported (RE2 syntax)")
    try:
        pc.match_substring_regex(pa.array([""], pa.string()), "^(?:" + wrapped + ")$")
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError) as exc:
        raise UsageError(f"--regex {text}: not RE2 syntax ({str(exc).removeprefix('Invalid regular expression: ')})") \
            from exc


def qualifier_regex(qualifier: str, member: bool) -> str:
    """Regex over a graph owner id (`java/util/Map$Entry`): the qualifier names the owner's trailing
    segments (members) or the type's enclosing package/type (types), `.` matching `/` or `$`."""
    parts = []
    for c in qualifier:
        parts.append("[/$]" if c == "." else ".*" if c == "*" else "." if c == "?" else _literal(c))
    body = "(?:.*[/$])?" + "".join(parts)
    return body if member else body + "[/$][^/$]*"


def owner_test(owners: "str | frozenset[str]", nested: bool):
    """A test of owner ids: a qualifier's regex (`qualifier_regex`, fullmatch), or the type ids a camel-hump qualifier
    named (`HMap#get`: java/util/HashMap, ...), whose members (`nested` False) or nested types (`nested`) pass."""
    if isinstance(owners, frozenset):
        return (lambda owner: owner.rpartition("$")[0] in owners) if nested else owners.__contains__
    return re.compile(owners).fullmatch


def levenshtein(a: str, b: str) -> int:
    """Edit distance (insert, delete, substitute), as Kùzu's levenshtein() counts it."""
    if len(a) < len(b):
        a, b = b, a
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        prev = cur
    return prev[-1]


def fuzzy_budget(name: str) -> int:
    """How many edits a typo may cost: none up to 2 characters (one edit away from almost everything), 1 up to
    4, 2 up to 8, else 3; a name without letters or digits is no typo of anything."""
    n = len(name)
    if n <= 2 or not any(c.isalnum() for c in name):
        return 0
    return 1 if n <= 4 else 2 if n <= 8 else 3
