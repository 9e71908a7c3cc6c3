"""A registry command's words (after the global flags) as (query, wire params), from its request type alone.

The one parser of command lines for query commands: the CLI (in process or as a daemon client) and `batch`
use it, so a flag means the same thing everywhere. Only the standard library is imported.
"""

from __future__ import annotations

from typing import Any

from jdx.commands.registry import Command, params_of
from jdx.errors import UsageError


def parse_words(cmd: Command, words: list[str], global_flags: tuple[str, ...] = ()) -> tuple[str, dict[str, Any]]:
    """(query, params) with canonical text values; repeatable flags collect lists. Raises UsageError, whose
    did-you-mean for an unknown flag also considers `global_flags` (the CLI's `--no-daemon`, `--jars`, ...)."""
    params = params_of(cmd.request)
    by_flag = {}
    for p in params:
        if p.flag:
            by_flag[p.flag] = (p, True)
            if p.negative:
                by_flag[p.negative] = (p, False)
    positionals = [p for p in params if not p.flag]  # the query first, then any further (diff's NEW)
    positional_param = positionals[0] if positionals else None
    query: str | None = None
    out: dict[str, Any] = {}
    i = 0
    only_positional = False
    while i < len(words):
        word = words[i]
        i += 1
        if not only_positional and word == "--":
            only_positional = True
            continue
        if not only_positional and word.startswith("--") and len(word) > 2:
            name, eq, inline = word.partition("=")
            found = by_flag.get(name)
            if found is None:
                raise UsageError(f"{cmd.name}: no such option {name}{_suggest(name, by_flag, global_flags)}")
            p, positive = found
            if p.kind == "bool":
                if eq:
                    raise UsageError(f"{name} takes no value")
                out[p.name] = "true" if positive else "false"
                continue
            if eq:
                value = inline
            elif i < len(words):
                value = words[i]
                i += 1
            else:
                raise UsageError(f"{name} needs a value")
            if p.kind == "list":
                out.setdefault(p.name, []).append(value)
            else:
                out[p.name] = value
            continue
        if word.startswith("-") and len(word) > 1 and not only_positional and not _is_number(word):
            raise UsageError(f"{cmd.name}: no such option {word}")
        if positional_param is None:
            raise UsageError(f"{cmd.name} takes no argument (got {word!r})")
        if query is None:
            query = word
            continue
        extra = next((p for p in positionals[1:] if p.name not in out or p.kind == "list"), None)
        if extra is None:
            if len(positionals) > 1:
                names = " ".join(p.metavar for p in positionals)
                raise UsageError(f"{cmd.name} takes {names} (got one more: {word!r})")
            raise UsageError(f"{cmd.name} takes one {positional_param.metavar} (got {query!r} and {word!r}); "
                             "quote a reference that contains spaces")
        if extra.kind == "list":  # a positional list (imports' further names) takes every word left
            out.setdefault(extra.name, []).append(word)
        else:
            out[extra.name] = word
    if len(positionals) > 1:
        given = [bool(query)] + [p.name in out for p in positionals[1:]]
        absent = [p.metavar for p, ok in zip(positionals, given) if not ok and p.required]
        if absent:
            names = " ".join(p.metavar for p in positionals)
            raise UsageError(f"{cmd.name} takes {names} (missing {' '.join(absent)})")
    return query or "", dict(sorted(out.items()))


def _is_number(word: str) -> bool:
    return word[1:].isdigit()


def _suggest(name: str, by_flag: dict, global_flags: tuple[str, ...] = ()) -> str:
    import difflib

    own = difflib.get_close_matches(name, sorted(by_flag), n=1)
    # a global flag only when it is clearly meant: `--limit` on a command without one is no `--timeout`
    other = difflib.get_close_matches(name, sorted(set(global_flags) - set(by_flag)), n=1, cutoff=0.75)
    ratio = {c: difflib.SequenceMatcher(None, name, c).ratio() for c in own + other}
    if not ratio:
        return ""
    best = max(ratio, key=lambda c: (ratio[c], c in own))
    return f" (did you mean {best}{' (a global flag)' if best in other else ''}?)"
