"""What `jdx cypher` may run (spec §7.4 "a read-only Cypher query on the workspace graph", §17 read-only, no code
executed): queries that read the graph, nothing that reaches outside it.

The graph is opened read-only, so Kùzu itself refuses CREATE, SET, DELETE and MERGE, as a failed query; they are
refused here first, so every clause jdx cypher does not run is CYPHER_REFUSED (exit 3). Kùzu still runs clauses that
read or write files and load code: `LOAD FROM '<file>'` returns any file's contents, `COPY … TO '<file>'` writes
one, `LOAD EXTENSION '<path>'` dlopens a shared library, `INSTALL` fetches one, `ATTACH` opens another database,
`EXPORT`/`IMPORT DATABASE` copy files, and `CALL <option> = <value>` changes the connection's settings. The
server adapters (MCP's `jdx_cypher`, HTTP's `/v1/cypher`) take these queries from whoever reaches them, so they
are refused before Kùzu sees the text: the query's keywords are read outside string literals, backquoted names
and comments, and a clause keyword of that list refuses the whole query (exit 3, CYPHER_REFUSED). A property
named like one of them (`t.copy`) is a name, not a clause. Only the schema's read-only table functions may be
CALLed.

Statements that hold or write the database's state are refused too: `CHECKPOINT` on a read-only graph fails but
leaves `.shadow`/`.wal` files beside it that no later reader can open, `BEGIN TRANSACTION` would stay open in a
daemon for every later query, and `COMMIT`/`ROLLBACK` have nothing to end; `FORCE INSTALL` and `UPDATE` (of an
extension) fetch code. One statement per query: Kùzu answers `RETURN 1; RETURN 2` with a list of results that
crashes its reader, so a `;` followed by anything but comments refuses the query (a single trailing `;` is fine).
"""

from __future__ import annotations

import re

from jdx.errors import CypherRefused, UsageError

# clause keywords that reach outside the graph; DETACH too (the database clause; DETACH DELETE is a write)
_REFUSED = {"LOAD", "COPY", "INSTALL", "UNINSTALL", "ATTACH", "EXPORT", "IMPORT", "USE", "FORCE", "UPDATE"}
# clauses that write the graph: Kùzu refuses them on the read-only graph too, but as a failed query (USAGE); refused
# here they are CYPHER_REFUSED like every other clause jdx cypher does not run (DETACH DELETE by its DELETE)
_WRITES = {"CREATE", "SET", "DELETE", "MERGE", "REMOVE", "DROP", "ALTER"}
# statements (Kùzu 0.11's statement starts, `expecting {ALTER, ATTACH, BEGIN, …}`) that end, open or write a
# transaction: refused where a statement starts (first, or after EXPLAIN/PROFILE); elsewhere they are names
_STATEFUL = {"CHECKPOINT", "BEGIN", "COMMIT", "ROLLBACK"}
_PREFIXES = {"EXPLAIN", "PROFILE"}
# Kùzu's table functions that only describe the database
CALLABLE = frozenset({"show_tables", "table_info", "show_connection", "db_version", "show_functions",
                      "show_indexes", "current_setting", "show_warnings", "show_sequences", "show_macros"})

_TOKEN = re.compile(r"""
    (?P<comment>//[^\n]* | /\*.*?(?:\*/|\Z))
  | (?P<skip>'(?:[^'\\]|\\.)*'? | "(?:[^"\\]|\\.)*"? | `[^`]*`?)
  | (?P<word>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<other>\S)
""", re.VERBOSE | re.DOTALL)


_NAME_BEFORE = {".", ":", "$", "(", ",", "[", "{", "=", "<", ">", "+", "-", "*", "/", "|"}
# keywords after which an expression, never a clause, comes: a word of _REFUSED there is a variable (`WITH copy
# RETURN copy.fqn`); LOAD/COPY as clauses follow a projection item or start the statement
_EXPRESSION_AFTER = {"WITH", "RETURN", "DISTINCT", "UNWIND", "BY", "WHERE", "AND", "OR", "XOR", "NOT"}


def _tokens(query: str) -> list[str]:
    """The query's words and punctuation, comments left out, string literals and backquoted names as one
    placeholder each (so a word after a literal is never read as following the literal's neighbour)."""
    return [tok for tok, _ in _spanned(query)]


def _spanned(query: str) -> list[tuple[str, re.Match]]:
    """`_tokens` with each token's match in the query."""
    return [("'" if m.group("skip") is not None else m.group(0), m) for m in _TOKEN.finditer(query)
            if m.group("comment") is None]


def code_spans(query: str) -> list[tuple[str, bool]]:
    """The query cut into (text, is_code) pieces: string literals, backquoted names and comments are not code, so
    a rewrite of the code (schema.expand_rel_labels) leaves their text as written."""
    out: list[tuple[str, bool]] = []
    at = 0
    for m in _TOKEN.finditer(query):
        if m.group("comment") is None and m.group("skip") is None:
            continue
        if m.start() > at:
            out.append((query[at:m.start()], True))
        out.append((m.group(0), False))
        at = m.end()
    if at < len(query):
        out.append((query[at:], True))
    return out


def rewrite_code(query: str, rewrite) -> str:
    """`query` with `rewrite(code, kept)` applied to its code only: each string literal and backquoted name stands
    in `code` as NUL n NUL, each comment as SOH n SOH (kept[n] its text), and comes back as written."""
    kept: list[str] = []

    def hide(text: str) -> str:
        kept.append(text)
        mark = "\x01" if text.startswith(("//", "/*")) else "\x00"
        return f"{mark}{len(kept) - 1}{mark}"

    code = "".join(text if is_code else hide(text) for text, is_code in code_spans(query))
    return re.sub("([\x00\x01])(\\d+)\\1", lambda m: kept[int(m.group(2))], rewrite(code, kept))


# a code token of rewrite_code's text: a comment's or a literal's stand-in, a word, any other character
_CODE_TOKEN = re.compile(r"\x01\d+\x01|\x00\d+\x00|[A-Za-z_]\w*|\S")


def guard_case_conditions(query: str) -> str:
    """`query` with each condition of a searched CASE (`CASE WHEN <cond> THEN …`) compared to true:
    `WHEN (<cond>) = true THEN`. Kùzu 0.11 takes a bare boolean there (a variable or property, `WHEN t.shadowed`,
    `WHEN (b)`) as true for the first row only: `UNWIND [true, true, false] AS b RETURN sum(CASE WHEN b THEN 1 ELSE
    0 END)` answers 1. A comparison, NOT, AND, OR or a function's answer is right, and `(<cond>) = true` is the same
    condition for every value (a null one still falls to ELSE), so every condition is wrapped. A simple CASE
    (`CASE x WHEN v`) compares already and keeps its text; strings, backquoted names and comments too."""
    return rewrite_code(query, lambda code, _kept: _wrapped_conditions(code))


def _wrapped_conditions(code: str) -> str:
    tokens = [m for m in _CODE_TOKEN.finditer(code) if not m.group(0).startswith("\x01")]
    edits: list[tuple[int, str]] = []
    for i in range(len(tokens) - 1):
        if _keyword(tokens, i, "CASE") and _keyword(tokens, i + 1, "WHEN"):
            edits += _condition_edits(tokens, i + 1)
    for at, text in sorted(edits, key=lambda e: e[0], reverse=True):
        code = code[:at] + text + code[at:]
    return code


def _keyword(tokens: list[re.Match], i: int, word: str) -> bool:
    """Whether tokens[i] is the keyword `word` (not a property or parameter spelled like it)."""
    return tokens[i].group(0).upper() == word and not (i and tokens[i - 1].group(0) in (".", "$"))


def _condition_edits(tokens: list[re.Match], first: int) -> list[tuple[int, str]]:
    """The insertions that wrap each condition of the searched CASE whose first WHEN is tokens[first]: its WHENs
    and THENs outside brackets and nested CASEs, up to its END."""
    edits, depth, start = [], 0, None
    for k in range(first, len(tokens)):
        tok = tokens[k].group(0)
        if tok in ("(", "[", "{") or _keyword(tokens, k, "CASE"):
            depth += 1
        elif tok in (")", "]", "}") or _keyword(tokens, k, "END"):
            depth -= 1
            if depth < 0:
                break
        elif depth == 0 and _keyword(tokens, k, "WHEN"):
            start = k + 1
        elif depth == 0 and _keyword(tokens, k, "THEN") and start is not None and start < k:
            edits += [(tokens[start].start(), "("), (tokens[k - 1].end(), ") = true")]
            start = None
    return edits


def names_word(query: str, word: str) -> bool:
    """Whether `query`'s code names `word` (any case, backquoted or not; not in a string literal or comment)."""
    for m in _TOKEN.finditer(query):
        name = m.group("word") or (m.group("skip") if (m.group("skip") or "").startswith("`") else None)
        if name and name.strip("`").lower() == word.lower():
            return True
    return False


def parameters(query: str) -> list[str]:
    """The `$name` parameters the query uses, in order of first use."""
    tokens = _tokens(query)
    return list(dict.fromkeys(tokens[i + 1] for i, tok in enumerate(tokens[:-1])
                              if tok == "$" and (tokens[i + 1][:1].isalpha() or tokens[i + 1][:1] == "_")))


def check_parameters(query: str, given) -> None:
    """Raises UsageError naming the first `$parameter` of `query` that `given` (names) does not bind: Kùzu reads an
    unbound parameter as null and answers with wrong rows instead of an error."""
    missing = [name for name in parameters(query) if name not in set(given or ())]
    if missing:
        names = ", ".join(f"${n}" for n in missing)
        raise UsageError(f"cypher: parameter {names} is not given",
                         hint=" ".join(f"--param {n}=VALUE" for n in missing)
                         + " (Python: ws.cypher(q, {" + ", ".join(f"'{n}': …" for n in missing) + "}))")


def check_single_statement(query: str) -> None:
    """Raises CypherRefused when `query` holds more than one statement (a `;` followed by more than comments)."""
    tokens = _tokens(query)
    if ";" in tokens and any(t != ";" for t in tokens[tokens.index(";"):]):
        raise CypherRefused("cypher: one statement per query: a `;` followed by another statement is refused",
                            hint="run each statement on its own (jdx batch reads one per line)")


def check_stateful(query: str) -> None:
    """Raises CypherRefused when `query` is a CHECKPOINT or opens or ends a transaction (module docstring)."""
    tokens = _tokens(query)
    for i, tok in enumerate(tokens):
        if tok.upper() in _STATEFUL and (i == 0 or tokens[i - 1].upper() in _PREFIXES):
            raise CypherRefused(f"cypher: {tok} is refused: jdx cypher reads the workspace graph only (no "
                                "transactions or checkpoints; every query runs on its own)",
                                hint="MATCH … RETURN …; jdx schema lists the tables")


_AGGREGATES = {"COUNT", "SUM", "AVG", "MIN", "MAX", "COLLECT", "STDDEV_SAMP", "STDDEV_POP"}
# what ends a WITH or RETURN projection's items
_PROJECTION_END = {"MATCH", "OPTIONAL", "WITH", "RETURN", "ORDER", "SKIP", "LIMIT", "UNWIND", "WHERE", "CALL",
                   "UNION"}


def written_columns(query: str, names: list[str]) -> list[str]:
    """The answer's column names with each RETURN item that has no alias named as the query writes it (`count(t)`,
    not Kùzu's `COUNT(t._ID)`; `t.kind` stays `t.kind`): kept as Kùzu names them where the items cannot be told
    (`RETURN *`, UNION)."""
    spanned = _spanned(query)
    tokens = [tok for tok, _ in spanned]
    if any(t.upper() == "UNION" for t in tokens):
        return names
    last = None
    for clause, items in _projections(tokens, spans=True):
        if clause == "RETURN":
            last = items
    if not last or len(last) != len(names) or any(not item or [t for t, _ in item] == ["*"] for item in last):
        return names
    out = []
    for name, item in zip(names, last):
        aliased = len(item) > 2 and item[-2][0].upper() == "AS"
        first, end = spanned[item[0][1]][1], spanned[item[-1][1]][1]
        out.append(name if aliased else " ".join(query[first.start():end.end()].split()))
    return out


def _projections(tokens: list[str], spans: bool = False):
    """Each WITH or RETURN projection's items (top-level comma-separated token lists), a leading DISTINCT left out;
    `spans`: each token as (token, its index in `tokens`)."""
    i = 0
    while i < len(tokens):
        if tokens[i].upper() not in ("WITH", "RETURN") or (i and tokens[i - 1] in _NAME_BEFORE):
            i += 1
            continue
        items: list[list[str]] = [[]]
        depth, j = 0, i + 1
        if j < len(tokens) and tokens[j].upper() == "DISTINCT":
            j += 1
        while j < len(tokens) and not (depth == 0 and tokens[j].upper() in _PROJECTION_END
                                       and tokens[j - 1] not in _NAME_BEFORE):
            tok = tokens[j]
            depth += tok in "([{" and len(tok) == 1
            depth -= tok in ")]}" and len(tok) == 1
            if tok == "," and depth == 0:
                items.append([])
            else:
                items[-1].append((tok, j) if spans else tok)
            j += 1
        yield tokens[i].upper(), items
        i = j


def check_aggregates(query: str) -> None:
    """Raises CypherRefused for a grouped projection with an aggregate over DISTINCT before one without: Kùzu 0.11
    answers the later aggregate wrong (`RETURN m.id, count(DISTINCT c), count(r)` gives 0 for every count(r)) or
    aborts the process (`..., count(DISTINCT c), collect(x)`: a malloc assertion). The other order is right, so the
    message says to put the plain aggregates first."""
    for clause, items in _projections(_tokens(query)):
        calls = []  # (item, name, distinct) per aggregate call, in order
        grouped = False
        for n, item in enumerate(items):
            found = [(n, item[k], k + 2 < len(item) and item[k + 2].upper() == "DISTINCT")
                     for k in range(len(item) - 1)
                     if item[k].upper() in _AGGREGATES and item[k + 1] == "(" and (k == 0 or item[k - 1] != ".")]
            calls += found
            grouped = grouped or (not found and bool(item))
        first = next((c for c in calls if c[2]), None)
        later = next((c for c in calls if first and not c[2] and calls.index(c) > calls.index(first)), None)
        if grouped and later:
            raise CypherRefused(f"cypher: {clause} has {first[1]}(DISTINCT …) before {later[1]}(…) beside a grouping "
                                "key: Kùzu answers the later aggregate wrong (0) or crashes on that order",
                                hint=f"put the aggregates without DISTINCT first: {clause} <keys>, {later[1]}(…), "
                                     f"{first[1]}(DISTINCT …)")


def check_read_only(query: str) -> None:
    """Raises CypherRefused when `query` holds a clause that reaches outside the graph (module docstring), or an
    aggregate order Kùzu answers wrong (check_aggregates)."""
    check_single_statement(query)
    check_stateful(query)
    check_aggregates(query)
    tokens = _tokens(query)
    for i, tok in enumerate(tokens):
        word = tok.upper()
        if i and (tokens[i - 1] in _NAME_BEFORE or tokens[i - 1].upper() == "AS"
                  or (word in _REFUSED | _WRITES and tokens[i - 1].upper() in _EXPRESSION_AFTER)):
            continue  # a property, a label, a parameter, a variable (`(load:Type)`, `AS copy`, `WITH copy`): a name
        following = tokens[i + 1].upper() if i + 1 < len(tokens) else ""
        if word in _REFUSED | _WRITES and not (following[:1].isalpha() or following[:1] in ("_", "'", "(")):
            continue  # `RETURN load.id`, `RETURN copy`: a variable, never a clause's start
        if word in _WRITES or (word == "DETACH" and following == "DELETE"):
            clause = f"{tok} {tokens[i + 1]}" if word == "DETACH" else tok
            raise CypherRefused(f"cypher: {clause} is refused: the workspace graph is read-only (jdx cypher never "
                                "writes it)", hint="MATCH … RETURN …; jdx schema lists the tables")
        if word in _REFUSED:
            clause = f"{tok} {tokens[i + 1]}" if following.isalpha() else tok
            raise CypherRefused(f"cypher: {clause}"
                                + " is refused: jdx cypher reads the workspace graph only (no files, extensions, "
                                  "other databases or settings)",
                                hint="MATCH … RETURN …; jdx schema lists the tables")
        if word == "DETACH":
            raise CypherRefused("cypher: DETACH is refused: jdx cypher reads the workspace graph only",
                                hint="MATCH … RETURN …; jdx schema lists the tables")
        if word == "CALL":
            name = tokens[i + 1] if i + 1 < len(tokens) else ""
            opening = tokens[i + 2] if i + 2 < len(tokens) else ""
            if name.lower() not in CALLABLE or opening != "(":
                raise CypherRefused(f"cypher: CALL {name} is refused: only the schema's read-only functions may be "
                                    f"called ({', '.join(sorted(CALLABLE))})",
                                    hint="CALL show_tables() RETURN *; jdx schema describes every table")


def _clause_words(query: str) -> list[str]:
    """The query's keywords in upper case, names (`t.limit`, `AS order`, `(skip:Type)`) left out."""
    tokens = _tokens(query)
    return [tok.upper() for i, tok in enumerate(tokens)
            if not (i and (tokens[i - 1] in _NAME_BEFORE or tokens[i - 1].upper() == "AS"))]


def is_ordered(query: str) -> bool:
    """Whether the query orders its rows (an ORDER BY anywhere in it)."""
    words = _clause_words(query)
    return any(w == "ORDER" and nxt == "BY" for w, nxt in zip(words, words[1:]))


def picks_unordered(query: str) -> bool:
    """Whether a WITH or RETURN projection keeps some of its rows (LIMIT, SKIP) without an ORDER BY of its own:
    `WITH i, count(t) AS n LIMIT 3 RETURN … ORDER BY n` keeps 3 arbitrary rows though the query orders at the end."""
    words = _clause_words(query)
    ordered = picked = False
    for w, nxt in zip(words, words[1:] + [""]):
        if w in ("WITH", "RETURN", "UNION"):  # a new projection
            if picked and not ordered:
                return True
            ordered = picked = False
        elif w == "ORDER" and nxt == "BY":
            ordered = True
        elif w in ("LIMIT", "SKIP"):
            picked = True
    return picked and not ordered
