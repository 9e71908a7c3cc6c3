"""Symbol references (spec §6): a generous parser, the canonical printer, and param matching.

Input is generous (`Gson`, `java.util.Map.Entry`, `g:a:v/com.x.Foo`, `lib-1.0.jar/com.x.Foo` (a jar by
file name), `Foo#bar`, `Foo::bar`, `Foo.bar(int)`, `Foo#bar(List<String>, int...):void`, `Foo#bar(I)V`,
`com.x.*`); output is canonical (`com.x.Foo#bar(java.util.List, int...)`). Member names the grammar cannot spell
(Kotlin's `` `my test` ``) are quoted in backticks, a literal backtick doubled.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass, field, replace

from jdx.engine.descriptors import (
    PRIMITIVE_CODES,
    PRIMITIVES,
    ArrayTypeSig,
    TypeVar,
    descriptor_to_java,
    internal_to_fqn,
    name_segments,
    nested_simple_name,
    parse_method_descriptor,
    parse_method_signature,
    provided_once,
    split_field_descriptor,
)
from jdx.errors import RefSyntaxError

MAX_REF_LENGTH = 10_000
SHOWN_TEXT = 120  # what a message quotes of a long input


def shown_text(text: str) -> str:
    """`text` quoted for a one-line message: a long input by its head and its length, never whole."""
    if len(text) <= SHOWN_TEXT:
        return repr(text)
    return repr(text[:SHOWN_TEXT]) + f"… ({len(text):,} characters)"
MAX_TYPE_SEGMENTS = 256  # bounds type_candidates(), which is quadratic in the segment count
SPECIAL_MEMBERS = ("<init>", "<clinit>")
_STOP = frozenset("#:()<>[],;/.`")
_HINT = "expected Type, Type#member, Type#member(ParamType, ...)[:ReturnType] or com.pkg.* (spec §6)"


def _is_name_char(c: str) -> bool:
    return c not in _STOP and c.isprintable() and not c.isspace()


def _show(c: str) -> str:
    """A character of a message as a reader sees it (an invisible one by its code point), or a run of text quoted
    (`repr` escapes what it cannot print: `')0\\x1b'` after a parameter list)."""
    if len(c) == 1 and not (c.isprintable() and not c.isspace() or c == " "):
        return f"U+{ord(c):04X}"
    return repr(c)


@dataclass(frozen=True)
class SymbolRef:
    """One parsed reference. `params` is None when no parentheses were written (all overloads);
    arrays and varargs are normalised to `X[]` (varargs also sets `varargs`)."""

    type_name: str
    member: str | None = None
    params: tuple[str, ...] | None = None
    varargs: bool = False
    return_type: str | None = None
    descriptor: str | None = None
    coord: str | None = None
    is_glob: bool = False
    is_package_glob: bool = False
    raw: str = field(default="", compare=False)
    # `a.b.C.foo` with no `#`/`(`: the last segment may be a member (see alternatives()).
    ambiguous_dot: bool = False

    def alternatives(self) -> tuple["SymbolRef", ...]:
        """Readings in order of preference: as written (type-only), then last dotted segment as member."""
        if not self.ambiguous_dot:
            return (self,)
        owner, _, member = self.type_name.rpartition(".")
        return (self, replace(self, type_name=owner, member=member, ambiguous_dot=False))

    def type_candidates(self) -> list[str]:
        """Binary names (fqn form, `$` for nesting) the type part may denote, fewest `$` first:
        `java.util.Map.Entry` -> `java.util.Map.Entry`, `java.util.Map$Entry`, `java.util$Map$Entry`, ..."""
        if self.is_glob:
            return [self.type_name]
        segs = self.type_name.split(".")
        return [".".join(segs[: len(segs) - k]) + "".join("$" + s for s in segs[len(segs) - k:])
                for k in range(len(segs))]

    @property
    def simple_name(self) -> str:
        """Innermost simple name of the type part: `java.util.Map$Entry` -> `Entry`."""
        return name_segments(self.type_name)[-1]

    @property
    def package(self) -> str | None:
        """For a package glob, the package (`com.google` for `com.google.**`); else None."""
        if not self.is_package_glob:
            return None
        return self.type_name.rpartition(".")[0]

    @property
    def is_recursive_glob(self) -> bool:
        """True for `com.google.**` (subpackages included)."""
        return self.is_package_glob and self.type_name.endswith("**")

    def __str__(self) -> str:
        text = (self.coord + "/" if self.coord else "") + self.type_name
        if self.member is None:
            return text
        text += "#" + _quote_member(self.member, self.is_glob)
        if self.descriptor is not None:
            return text + self.descriptor
        if self.params is not None:
            shown = list(self.params)
            if self.varargs and shown:
                shown[-1] = shown[-1][:-2] + "..."
            text += "(" + ", ".join(shown) + ")"
        return text + (":" + self.return_type if self.return_type else "")



def parse_ref(text: str) -> SymbolRef:
    """Parse any spec §6 reference form; raises only RefSyntaxError, naming what and where."""
    if not isinstance(text, str):
        raise RefSyntaxError(f"reference must be a string, not {type(text).__name__}", hint=_HINT)
    if len(text) > MAX_REF_LENGTH:
        raise RefSyntaxError(f"reference is {len(text)} characters long; the limit is {MAX_REF_LENGTH}")
    return _RefParser(annotation_type(text)).parse()


_ANNOTATION = re.compile(r"@\s*([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)")  # `@Name`, `@a.b.Name`: an annotation


def annotation_type(text: str) -> str:
    """`@TempDir`, `@org.junit.jupiter.api.io.TempDir` as an annotation is written: the annotation type's name (agents
    paste annotations as they read them in code); any other text as it is."""
    m = _ANNOTATION.fullmatch(text.strip())
    return m.group(1) if m else text


class _RefParser:
    def __init__(self, raw: str):
        self.raw = raw
        self.body = raw.strip()
        self.lead = len(raw) - len(raw.lstrip())

    def err(self, message: str, i: int) -> RefSyntaxError:
        shown = self.body if len(self.body) <= 120 else self.body[:117] + "..."
        return RefSyntaxError(f"{message} at column {self.lead + i + 1} in {shown!r}", hint=_HINT)

    def parse(self) -> SymbolRef:
        body = self.body
        if not body:
            raise RefSyntaxError("empty reference", hint=_HINT)
        start, coord = 0, None
        slash = body.find("/")
        if slash > 0:
            head = body[:slash]
            jar = head.endswith(".jar") and len(head) > 4 and all(_is_name_char(c) or c == "." for c in head)
            if jar or head.count(":") >= 2 and "::" not in head and not any(c in head for c in "#(`<"):
                coord = head if jar else self.coord(head)
                start = slash + 1
                if start == len(body):
                    raise self.err("missing type after " + ("jar name" if jar else "coordinate"), start)
        # Find where the type part ends: a separator, '(' , ':' or a quoted member name.
        sep_at = sep_end = stop = first_tick = last_dot = -1
        depth = 0
        for i in range(start, len(body)):
            c = body[i]
            if c == "`":
                first_tick = i
                break
            if c == "(":
                stop = i
                break
            if c == "<":
                depth += 1
            elif c == ">":
                depth -= 1
            elif depth == 0 and c == "#":
                sep_at, sep_end = i, i + 1
                break
            elif depth == 0 and c == ":":
                if body.startswith("::", i):
                    sep_at, sep_end = i, i + 2
                else:
                    stop = i
                break
            elif depth == 0 and c == ".":
                last_dot = i
        fields: dict = {"coord": coord, "raw": self.raw}
        if sep_at < 0 and last_dot >= 0 and body[last_dot + 1:] in SPECIAL_MEMBERS:
            sep_at, sep_end = last_dot, last_dot + 1
        if sep_at < 0 and (stop >= 0 or first_tick >= 0):
            if last_dot < 0:
                at = stop if stop >= 0 else first_tick
                raise self.err(f"{_show(body[at])} needs a type and member before it, e.g. Type#member(...)", at)
            sep_at, sep_end = last_dot, last_dot + 1
        if sep_at >= 0:
            self.type_part(start, sep_at, fields)
            if fields["is_package_glob"]:
                raise self.err("a package glob cannot have a member", sep_at)
            self.member_part(sep_end, fields)
        else:
            self.type_part(start, len(body), fields)
            fields["ambiguous_dot"] = "." in fields["type_name"] and not fields["is_glob"]
        return SymbolRef(**fields)

    def coord(self, head: str) -> str:
        parts = head.split(":")
        if not 3 <= len(parts) <= 5:
            raise self.err("coordinate must be group:artifact:version", 0)
        pos = 0
        for part in parts:
            bad = [k for k, c in enumerate(part) if not (c.isalnum() or c in "._-+")]
            if not part or bad:
                raise self.err("malformed coordinate segment (group:artifact:version)", pos + (bad[0] if bad else 0))
            pos += len(part) + 1
        return head

    def skip_generics(self, i: int, end: int) -> int:
        """body[i] is '<'; return the index after its matching '>'."""
        depth = 0
        for j in range(i, end):
            if self.body[j] == "<":
                depth += 1
            elif self.body[j] == ">":
                depth -= 1
                if depth == 0:
                    return j + 1
        raise self.err("unbalanced '<'", i)

    def type_part(self, a: int, b: int, fields: dict) -> None:
        body = self.body
        if a == b:
            raise self.err("missing type name", a)
        segs: list[str] = []
        cur: list[str] = []
        i = a
        while i < b:
            c = body[i]
            if c == "<":
                i = self.skip_generics(i, b)
                continue
            if c in "./":
                if not cur:
                    raise self.err("empty name segment", i)
                segs.append("".join(cur))
                cur = []
            elif _is_name_char(c):
                cur.append(c)
            elif c == ">":
                raise self.err("unbalanced '>'", i)
            elif c.isspace():
                raise self.err("unexpected whitespace", i)
            else:
                raise self.err(f"unexpected {_show(c)}", i)
            i += 1
        if not cur:
            raise self.err("empty name segment", b - 1 if segs else a)
        segs.append("".join(cur))
        if len(segs) > MAX_TYPE_SEGMENTS:
            raise self.err(f"type name has {len(segs)} segments; the limit is {MAX_TYPE_SEGMENTS}", a)
        globbed = [any(c in "*?" for c in s) for s in segs]
        fields["type_name"] = ".".join(segs)
        fields["is_glob"] = any(globbed)
        fields["is_package_glob"] = segs[-1] in ("*", "**") and not any(globbed[:-1])

    def member_part(self, a: int, fields: dict) -> None:
        body, n = self.body, len(self.body)
        if a >= n:
            raise self.err("missing member name", a)
        if body[a] == "`":
            name, pos = self.quoted(a)
        elif body.startswith(SPECIAL_MEMBERS, a):
            name = SPECIAL_MEMBERS[0] if body.startswith(SPECIAL_MEMBERS[0], a) else SPECIAL_MEMBERS[1]
            pos = a + len(name)
        else:
            pos = a
            while pos < n and _is_name_char(body[pos]):
                pos += 1
            if pos == a:
                if body[a] == "<":
                    raise self.err("only <init> and <clinit> may use '<' in a member name", a)
                raise self.err(f"missing member name (found {_show(body[a])})", a)
            name = body[a:pos]
            fields["is_glob"] = fields["is_glob"] or any(c in "*?" for c in name)
        fields["member"] = name
        if pos == n:
            return
        if body[pos] == ":":
            fields["return_type"], _ = self.type_expr(pos + 1, n, "return type", allow_void=True)
            return
        if body[pos] != "(":
            raise self.err(f"unexpected {_show(body[pos])} after member name", pos)
        close = pos + 1
        while close < n and body[close] != ")":
            if body[close] == "(":
                raise self.err("unexpected '(' inside parameter list", close)
            close += 1
        if close == n:
            raise self.err("unbalanced '('", pos)
        after = close + 1
        if body[after:].lstrip().startswith(":"):  # tolerate `(int) : String`
            after = n - len(body[after:].lstrip())
        if after < n and body[after] != ":":
            try:
                self.descriptor(pos, fields)
            except RefSyntaxError as bad_descriptor:
                try:  # a Java parameter list with something after it: say so, not "bad descriptor"
                    self.param_list(pos + 1, close)
                except RefSyntaxError:
                    raise bad_descriptor from None
                raise self.err(f"unexpected {_show(body[after:])} after the parameter list: expected ':ReturnType' "
                               "or the end", after) from None
            return
        inner = body[pos + 1:close]
        if ";" in inner:  # a descriptor parameter list without return type: (Ljava/lang/Object;I)
            try:
                params, _ = parse_method_descriptor("(" + inner + ")V")
            except ValueError as e:
                raise self.err(f"malformed descriptor parameter list ({e})", pos + 1) from None
            fields["params"] = tuple(descriptor_to_java(p) for p in params)
        else:
            fields["params"], fields["varargs"] = self.param_list(pos + 1, close)
        if after < n:
            fields["return_type"], _ = self.type_expr(after + 1, n, "return type", allow_void=True)

    def quoted(self, a: int) -> tuple[str, int]:
        body, out, j = self.body, [], a + 1
        while j < len(body):
            if body[j] == "`":
                if not body.startswith("``", j):
                    if not out:
                        raise self.err("empty quoted member name", a)
                    return "".join(out), j + 1
                j += 1
            out.append(body[j])
            j += 1
        raise self.err("unterminated '`'", a)

    def descriptor(self, pos: int, fields: dict) -> None:
        desc = self.body[pos:]
        try:
            params, ret = parse_method_descriptor(desc)
        except ValueError as e:
            raise self.err(f"after ')' expected ':ReturnType' or a JVM descriptor; {e}", pos) from None
        fields.update(descriptor=desc, params=tuple(descriptor_to_java(p) for p in params),
                      return_type=descriptor_to_java(ret))

    def param_list(self, a: int, b: int) -> tuple[tuple[str, ...], bool]:
        body = self.body
        if not body[a:b].strip():
            return (), False
        pieces, depth, piece_start = [], 0, a
        for i in range(a, b):
            if body[i] == "<":
                depth += 1
            elif body[i] == ">":
                depth -= 1
            elif body[i] == "," and depth == 0:
                pieces.append((piece_start, i))
                piece_start = i + 1
        pieces.append((piece_start, b))
        params, varargs = [], False
        for k, (pa, pb) in enumerate(pieces):
            t, varargs = self.type_expr(pa, pb, "parameter", allow_varargs=k == len(pieces) - 1, allow_name=True)
            params.append(t)
        return tuple(params), varargs

    def type_expr(self, a: int, b: int, what: str, *, allow_void: bool = False,
                  allow_varargs: bool = False, allow_name: bool = False) -> tuple[str, bool]:
        """One written type (`java.util.List<String>[]`, `int...`, `final String s`); returns (normalised, varargs)."""
        body = self.body

        def skip_ws(i: int) -> int:
            while i < b and body[i].isspace():
                i += 1
            return i

        i = skip_ws(a)
        if i == b:
            raise self.err(f"empty {what}", a)
        if allow_name and body.startswith("final", i) and i + 5 < b and body[i + 5].isspace():
            i = skip_ws(i + 5)
        name_start, name = i, []
        while i < b:
            c = body[i]
            if c == "<":
                i = self.skip_generics(i, b)
                continue
            if c in "./":
                if body.startswith("...", i):
                    break
                if not name or name[-1] == ".":
                    raise self.err("empty name segment", i)
                name.append(".")
            elif _is_name_char(c) and c not in "*?":
                name.append(c)
            else:
                break
            i += 1
        if not name:
            raise self.err(f"expected a type name in {what}, found {_show(body[i]) if i < b else 'nothing'}", i)
        if name[-1] == ".":
            raise self.err("empty name segment", i - 1)
        dims, varargs = 0, False
        while True:
            i = skip_ws(i)
            if i < b and body[i] == "[":
                j = skip_ws(i + 1)
                if j >= b or body[j] != "]":
                    raise self.err("unbalanced '['", i)
                dims, i = dims + 1, j + 1
            elif body.startswith("...", i) and i + 3 <= b:
                if not allow_varargs:
                    where = "on the last parameter" if what == "parameter" else f"in a parameter list, not a {what}"
                    raise self.err(f"'...' is only allowed {where}", i)
                varargs, i = True, skip_ws(i + 3)
                break
            else:
                break
        if allow_name and i < b and _is_name_char(body[i]):
            while i < b and _is_name_char(body[i]):
                i += 1
            i = skip_ws(i)
        if i < b:
            raise self.err(f"unexpected {_show(body[i])} in {what}", i)
        text = "".join(name)
        if text == "void" and (not allow_void or dims or varargs):
            raise self.err(f"'void' is not a valid {what} type", name_start)
        return text + "[]" * (dims + varargs), varargs



_PLAIN_MEMBER = re.compile(r"[A-Za-z0-9_$]+")  # the common case, no character needs a closer look


def _quote_member(name: str, glob: bool = False) -> str:
    if _PLAIN_MEMBER.fullmatch(name):
        return name
    if name in SPECIAL_MEMBERS or (name and all(_is_name_char(c) and (glob or c not in "*?") for c in name)):
        return name
    return "`" + name.replace("`", "``") + "`"


# A shadowed class copy's graph id is `name@<16 hex of its artifact key>`; it prints as the copy's
# artifact-scoped reference (spec §6 `g:a:v/com.x.Foo`) when the answer's workspace can name the artifact.
SHADOW_SUFFIX = re.compile(r"@([0-9a-f]{16})$")
_artifact_prefixes: ContextVar[Callable[[], dict[str, str]] | None] = ContextVar("jdx_artifact_prefixes", default=None)


def artifact_prefixes(provider: Callable[[], dict[str, str]]):
    """While answering: `provider()` maps an artifact key's first 16 hex to the reference prefix naming that
    artifact (a coordinate or a jar's file name); called at most once, on the first shadowed id printed."""
    return provided_once(_artifact_prefixes, provider)


def format_type(internal_name: str) -> str:
    """Canonical type ref: `java/util/Map$Entry` -> `java.util.Map$Entry`; a shadowed copy's id
    (`com/x/Foo@<artifact>`) -> `g:a:v/com.x.Foo` (spec §6), or `com.x.Foo@<artifact>` when its
    artifact has no name a reference can carry."""
    if "@" not in internal_name:
        return internal_to_fqn(internal_name)
    m = SHADOW_SUFFIX.search(internal_name)
    provider = _artifact_prefixes.get()
    prefix = provider().get(m.group(1)) if m and provider else None
    if prefix is None:
        return internal_to_fqn(internal_name)
    return prefix + "/" + internal_to_fqn(internal_name[:m.start()])


def type_id(printed: str) -> str:
    """The graph id of a type as format_type printed it: `java.util.Map$Entry` -> `java/util/Map$Entry`,
    `g:a:v/com.x.Foo` (a shadowed copy) -> `com/x/Foo@<artifact>`."""
    scope, slash, fqn = printed.rpartition("/")
    provider = _artifact_prefixes.get() if slash else None
    if provider is not None:
        key = next((k for k, prefix in provider().items() if prefix == scope), None)
        if key is not None:
            return fqn.replace(".", "/") + "@" + key
    return printed.replace(".", "/")


def format_member(owner_internal: str, name: str, descriptor: str, *, is_field: bool = False,
                  varargs: bool = False, with_return: bool = False) -> str:
    """Canonical member ref: `com.google.gson.Gson#toJson(java.lang.Object, java.lang.reflect.Type)`.

    Fields print as `Owner#name`; `with_return` appends `:ReturnType` (bridge/covariant
    disambiguation; the field type for fields); `varargs` prints the last array param as `X...`.
    Raises ValueError on a malformed descriptor.
    """
    text = format_type(owner_internal) + "#" + _quote_member(name)
    if is_field or not descriptor.startswith("("):
        if is_field and descriptor.startswith("("):
            raise ValueError(f"field {name!r} has a method descriptor {descriptor!r}")
        java = descriptor_to_java(descriptor)
        return text + (":" + java if with_return else "")
    param_descs, ret = parse_method_descriptor(descriptor)
    params = [descriptor_to_java(p) for p in param_descs]
    if varargs and params and params[-1].endswith("[]"):
        params[-1] = params[-1][:-2] + "..."
    text += "(" + ", ".join(params) + ")"
    return text + (":" + descriptor_to_java(ret) if with_return else "")



def _type_matches(written: str, desc: str, sig=None) -> bool:
    """Does a written (normalised) type match a field descriptor (or `V`)?"""
    element = written.rstrip("[]")
    w_dims = (len(written) - len(element)) // 2
    if sig is not None:
        s_dims = 0
        while isinstance(sig, ArrayTypeSig):
            sig, s_dims = sig.component, s_dims + 1
        if isinstance(sig, TypeVar) and sig.name == element and s_dims == w_dims:
            return True
    if desc == "V":
        return written == "void"
    d_dims, d_element = split_field_descriptor(desc)
    if w_dims != d_dims:
        return False
    if d_element[0] != "L":
        return element == PRIMITIVES[d_element]
    if element in PRIMITIVE_CODES:
        return False
    internal = d_element[1:-1]
    full = name_segments(internal)
    nested = name_segments(nested_simple_name(internal))
    w = name_segments(element)
    return w == full or (len(w) <= len(nested) and nested[len(nested) - len(w):] == w)


def matches_params(ref: SymbolRef, descriptor: str, varargs: bool = False, *, signature: str | None = None) -> bool:
    """Does ref's parameter list (and return/field type, if written) fit a member descriptor?

    Simple names match by simple/nested name (`Entry`, `Map.Entry`, `Map$Entry` all match
    `java.util.Map$Entry`); qualified names must match exactly; `X...` matches `X[]` (Java
    cannot overload the two, so `varargs` does not restrict); an exact descriptor compares
    exactly. With the member's generic `signature`, a written type variable (`put(K, V)`) also
    matches. A malformed descriptor matches nothing.
    """
    del varargs
    if ref.descriptor is not None:
        return ref.descriptor == descriptor
    try:
        if not descriptor.startswith("("):
            split_field_descriptor(descriptor)
            return ref.params is None and (ref.return_type is None or _type_matches(ref.return_type, descriptor))
        params, ret = parse_method_descriptor(descriptor)
    except ValueError:
        return False
    sig_params: tuple = (None,) * len(params)
    sig_ret = None
    if signature:
        try:
            msig = parse_method_signature(signature)
            if len(msig.params) == len(params):
                sig_params, sig_ret = msig.params, msig.return_type
        except ValueError:
            pass  # a broken Signature attribute just means no generic matching
    if ref.params is not None:
        if len(ref.params) != len(params):
            return False
        if not all(_type_matches(w, d, s) for w, d, s in zip(ref.params, params, sig_params)):
            return False
    return ref.return_type is None or _type_matches(ref.return_type, ret, sig_ret)
