"""`throws` clauses compared (spec §7.7): which exceptions are checked (JLS §11.1.1) and what an added or removed one
does to callers and overriders compiled or recompiled against the new version."""

from __future__ import annotations

from dataclasses import replace

from jdx.engine.diff.findings import Finding
from jdx.engine.diff.forms import type_ref
from jdx.engine.diff.rules import SUSPICIOUS
from jdx.engine.diff.surface import OBJECT, STATIC, Member, Surface, TypeInfo

# JDK throwables outside most artifacts whose checkedness is fixed by JLS §11.1.1 (subclasses of RuntimeException
# or Error); anything else a side does not hold stays "not proven unchecked"
UNCHECKED_ROOTS = frozenset({"java/lang/RuntimeException", "java/lang/Error"})
KNOWN_UNCHECKED = frozenset(f"java/{n}" for n in (
    "lang/IllegalArgumentException", "lang/IllegalStateException", "lang/NullPointerException",
    "lang/UnsupportedOperationException", "lang/IndexOutOfBoundsException", "lang/ArrayIndexOutOfBoundsException",
    "lang/StringIndexOutOfBoundsException", "lang/ClassCastException", "lang/ArithmeticException",
    "lang/NumberFormatException", "lang/SecurityException", "lang/NegativeArraySizeException",
    "lang/ArrayStoreException", "lang/IllegalMonitorStateException", "lang/AssertionError",
    "lang/OutOfMemoryError", "lang/StackOverflowError", "lang/LinkageError", "lang/IllegalCallerException",
    "lang/reflect/UndeclaredThrowableException", "lang/invoke/WrongMethodTypeException",
    "util/ConcurrentModificationException", "util/NoSuchElementException", "util/MissingResourceException",
    "util/IllformedLocaleException", "util/regex/PatternSyntaxException", "util/concurrent/CompletionException",
    "util/concurrent/RejectedExecutionException", "util/concurrent/CancellationException",
    "io/UncheckedIOException", "time/DateTimeException", "time/format/DateTimeParseException",
    "nio/BufferOverflowException", "nio/BufferUnderflowException", "nio/ReadOnlyBufferException",
))
KNOWN_CHECKED_ROOTS = frozenset({"java/lang/Exception", "java/lang/Throwable"} | {f"java/{n}" for n in (
    "io/IOException", "io/FileNotFoundException", "io/EOFException", "io/UnsupportedEncodingException",
    "lang/InterruptedException", "lang/ReflectiveOperationException", "lang/ClassNotFoundException",
    "lang/CloneNotSupportedException", "util/concurrent/TimeoutException", "util/concurrent/ExecutionException",
    "net/URISyntaxException", "net/MalformedURLException", "security/GeneralSecurityException",
    "sql/SQLException", "text/ParseException",
)})
# the superclass of each JDK throwable named above (JLS §11.1.1, the JDK's own classes): an added exception's walk up
# to one its method already declared needs no JDK surface for these
KNOWN_SUPERCLASS = {f"java/{k}": f"java/{v}" for k, v in (
    ("lang/Throwable", "lang/Object"), ("lang/Exception", "lang/Throwable"), ("lang/Error", "lang/Throwable"),
    ("lang/RuntimeException", "lang/Exception"), ("io/IOException", "lang/Exception"),
    ("io/FileNotFoundException", "io/IOException"), ("io/EOFException", "io/IOException"),
    ("io/UnsupportedEncodingException", "io/IOException"), ("lang/InterruptedException", "lang/Exception"),
    ("lang/ReflectiveOperationException", "lang/Exception"),
    ("lang/ClassNotFoundException", "lang/ReflectiveOperationException"),
    ("lang/CloneNotSupportedException", "lang/Exception"), ("util/concurrent/TimeoutException", "lang/Exception"),
    ("util/concurrent/ExecutionException", "lang/Exception"), ("net/URISyntaxException", "lang/Exception"),
    ("net/MalformedURLException", "io/IOException"), ("security/GeneralSecurityException", "lang/Exception"),
    ("sql/SQLException", "lang/Exception"), ("text/ParseException", "lang/Exception"),
)}


def unchecked(exception: str, sides: tuple[Surface, ...], platform=None) -> tuple[bool | None, str]:
    """(True unchecked / False checked / None unknown, the supertype the walk could not follow). `platform` looks up
    a class no side holds (the JDK's `java.*`), asked only past the known roots."""
    name, seen = exception, set()
    while name and name not in seen:
        seen.add(name)
        if name in UNCHECKED_ROOTS or name in KNOWN_UNCHECKED:
            return True, ""
        if name in KNOWN_CHECKED_ROOTS:
            return False, ""
        holder = next((s.types[name] for s in sides if name in s.types), None)
        if holder is None and platform is not None:
            holder = platform(name)
        if holder is None:
            return None, name
        name = holder.superclass
    return None, exception


def declared_superclass(exception: str, declared, sides: tuple[Surface, ...], platform=None) -> str | None:
    """The exception of `declared` that `exception` is a subclass of (itself excluded), or None: none is, or the
    walk up its superclasses leaves what the sides, the JDK's known throwables and `platform` hold."""
    name, seen = exception, set()
    while name and name not in seen:
        seen.add(name)
        if name != exception and name in declared:
            return name
        holder = next((s.types[name] for s in sides if name in s.types), None)
        if holder is not None:
            name = holder.superclass
        elif name in KNOWN_SUPERCLASS:
            name = KNOWN_SUPERCLASS[name]
        elif name == OBJECT:
            return None
        else:
            holder = platform(name) if platform is not None else None
            if holder is None:
                return None
            name = holder.superclass
    return None


def exceptions(o: Member, n: Member, old_type: TypeInfo, make, sides, platform=None) -> list[Finding]:
    """CHECKED_EXCEPTION_ADDED for an added exception not proven unchecked, unless it is a subclass of one the old
    `throws` declared (a caller that catches or declares that one handles it: javac compiles it against both);
    THROWS_REMOVED for each exception gone (`_throws_removed`), naming the subclasses that narrowed it."""
    out = []
    narrowed: dict[str, list[str]] = {}
    for exc in sorted(set(n.exceptions) - set(o.exceptions)):
        verdict, blocker = unchecked(exc, (sides[1], sides[0]), platform)
        if verdict is True:
            continue  # an unchecked exception in `throws` changes nothing a caller compiled against
        wider = declared_superclass(exc, set(o.exceptions), (sides[1], sides[0]), platform)
        if wider is not None:
            narrowed.setdefault(wider, []).append(type_ref(exc))
            continue
        detail = type_ref(exc)
        if verdict is None:
            detail += f" (not proven unchecked: {type_ref(blocker)} is not in the artifact)"
        out.append(make("CHECKED_EXCEPTION_ADDED", detail))
    for exc in sorted(set(o.exceptions) - set(n.exceptions)):
        out.append(_throws_removed(exc, o, n, old_type, make, sides, platform, narrowed.get(exc)))
    return out


# a `catch` of these compiles whatever its `try` throws (JLS §11.2.3)
CATCH_ALWAYS_COMPILES = frozenset({"java/lang/Exception", "java/lang/Throwable"})
RAISED_WHY = " (rated suspicious, not info)"


def _throws_removed(exc: str, o: Member, n: Member, old_type: TypeInfo, make, sides, platform,
                    subclasses: list[str] | None) -> Finding:
    """THROWS_REMOVED of `exc`, rated suspicious, the mirror of CHECKED_EXCEPTION_ADDED, when recompiling a client
    can fail: a checked exception (or one not proven unchecked) no exception left in `throws` stands for. A caller's
    `catch (E e)` around the call no longer compiles ("exception E is never thrown", JLS §11.2.3) unless a subclass
    or superclass of E is still declared (or E is Exception, Throwable); a subclass outside the artifact overriding
    the method with `throws E` no longer compiles (JLS §8.4.8.3) unless a superclass of E is still declared. Compiled
    clients link and run either way; an unchecked exception is info."""
    from jdx.engine.diff.members import overridable_with_access  # (members compares throws with this module)

    text = type_ref(exc)
    verdict, blocker = unchecked(exc, sides, platform)
    if verdict is True:
        return make("THROWS_REMOVED", f"{text} (unchecked)")
    checked = "checked" if verdict is False else f"not proven unchecked: {type_ref(blocker)} is not in the artifact"
    wider = declared_superclass(exc, set(n.exceptions), sides, platform)
    if wider is not None:
        return make("THROWS_REMOVED", f"{text} ({checked}; still declared as its superclass {type_ref(wider)})")
    narrower = [e for e in n.exceptions if declared_superclass(e, {exc}, sides, platform) == exc]
    broken = []
    if not narrower and exc not in CATCH_ALWAYS_COMPILES:
        broken.append(f"a caller's `catch ({text} e)` around it no longer compiles (never thrown)")
    if not o.access & STATIC and overridable_with_access(o, old_type, sides[0]):
        broken.append(f"a subclass outside the artifact overriding it with `throws {text}` no longer compiles")
    narrowing = f"narrowed to its subclass{'es' if len(subclasses) > 1 else ''} {', '.join(subclasses)}" \
        if subclasses else ""
    if not broken:  # no caller's catch, no override's throws loses what it names
        return make("THROWS_REMOVED", f"{text} ({narrowing or checked})")
    what = f"{text} ({checked}; {narrowing})" if narrowing else f"{text} ({checked})"
    found = make("THROWS_REMOVED", f"{what}: {'; '.join(broken)}; compiled clients still link and run")
    return replace(found, raised=SUSPICIOUS, detail=found.detail + RAISED_WHY)
