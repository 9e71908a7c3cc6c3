"""A short type name that names one type code outside the JDK can use, and otherwise only JDK internals (`Errors`:
durian's and javac's `CompilerProperties$Errors`; `StringsCompleter`: JLine's and the JDK's `jdk.internal.org.jline`
copy), is read as that type, as `imports` reads it: never a guess among usable types (spec §3.3), and the answer
says what else the name could mean (NAME_PICKED)."""

from __future__ import annotations

import contextlib
from contextvars import ContextVar

_NOTES: ContextVar[list[str] | None] = ContextVar("picked_names", default=None)


@contextlib.contextmanager
def collecting():
    """The notes of the names picked while the block runs (one answer's), in order, each once."""
    notes: list[str] = []
    token = _NOTES.set(notes)
    try:
        yield notes
    finally:
        _NOTES.reset(token)


def picked(written: str, chosen: str, others: list[str]) -> None:
    """Records that `written` was read as `chosen`, the only usable one of its candidates (`others`: JDK internals)."""
    notes = _NOTES.get()
    if notes is None:
        return
    shown = ", ".join(others[:3]) + (f" and {len(others) - 3} more" if len(others) > 3 else "")
    text = (f"{written} read as {chosen}, the only type of that name code outside the JDK can use (also "
            f"{shown}: JDK internal{'s' if len(others) > 1 else ''}); write the whole name to ask for another")
    if text not in notes:
        notes.append(text)
