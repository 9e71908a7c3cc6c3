"""What `jdx cypher` may run (spec §7.4 "a read-only Cypher query on the workspace graph", §17 read-only, no code
executed): queries that read the graph, nothing that reaches outside it.

The graph is opened read-only, so Kùzu itself refuses CREATE, SET, DELETE and MERGE. It still runs clauses that
read or write files and load code: `LOAD FROM '<file>'` returns any file's contents, `COPY … TO '<file>'` writes
one, `LOAD EXTENSION '<path>'` dlopens a shared library, `INSTALL` fetches one, `ATTACH` opens another database,
`EXPORT`/`IMPORT DATABASE` copy files, and `CALL <option> = <value>` changes the connection's settings. The
server adapters (MCP's `jdx_cypher`, HTTP's `/v1/cypher`) take these queries from whoever reaches them, so they
are refused before Kùzu sees the text: the query's keywords are read outside string literals, backquoted names
and comments, and a clause keyword of that list refuses the whole query (exit 3, CYPHER_REFUSED). A property
named like one of them (`t.copy`) is a name, not a clause. Only the schema's read-only table functions may be
CALLed.
"""

from __future__ import annotations

import re

from jdx.errors import CypherRefused

# clause keywords that reach outside the graph; DETACH only as the database clause (DETACH DELETE is a write Kùzu
# refuses on a read-only graph with its own message)
_REFUSED = {"LOAD", "COPY", "INSTALL", "UNINSTALL", "ATTACH", "EXPORT", "IMPORT", "USE"}
# Kùzu's table functions that only describe the database
CALLABLE = frozenset({"show_tables", "table_info", "show_connection", "db_version", "show_functions",
                      "show_indexes", "current_setting", "show_warnings", "show_sequences", "show_macros"})

_TOKEN = re.compile(r"""
    (?P<skip>'(?:[^'\\]|\\.)*'? | "(?:[^"\\]|\\.)*"? | `[^`]*`? | //[^\n]* | /\*.*?(?:\*/|\Z))
  | (?P<word>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<other>\S)
""", re.VERBOSE | re.DOTALL)


_NAME_BEFORE = {".", ":", "$", "(", ",", "[", "{", "=", "<", ">", "+", "-", "*", "/", "|"}


def _tokens(query: str) -> list[str]:
    """The query's words and punctuation, string literals, backquoted names and comments left out (as one
    placeholder, so a word after a literal is never read as following the literal's neighbour)."""
    out = []
    for m in _TOKEN.finditer(query):
        out.append("'" if m.group("skip") is not None else m.group(0))
    return out


def check_read_only(query: str) -> None:
    """Raises CypherRefused when `query` holds a clause that reaches outside the graph (module docstring)."""
    tokens = _tokens(query)
    for i, tok in enumerate(tokens):
        word = tok.upper()
        if i and (tokens[i - 1] in _NAME_BEFORE or tokens[i - 1].upper() == "AS"):
            continue  # a property, a label, a parameter, a variable (`(load:Type)`, `AS copy`): a name
        if word in _REFUSED:
            following = tokens[i + 1].upper() if i + 1 < len(tokens) else ""
            if not (following[:1].isalpha() or following[:1] in ("_", "'", "(")):
                continue  # `RETURN load.id`, `RETURN copy`: a variable, never a clause's start
            clause = f"{tok} {tokens[i + 1]}" if following.isalpha() else tok
            raise CypherRefused(f"cypher: {clause}"
                                + " is refused: jdx cypher reads the workspace graph only (no files, extensions, "
                                  "other databases or settings)",
                                hint="MATCH … RETURN …; jdx schema lists the tables")
        if word == "DETACH" and (tokens[i + 1].upper() if i + 1 < len(tokens) else "") != "DELETE":
            raise CypherRefused("cypher: DETACH is refused: jdx cypher reads the workspace graph only",
                                hint="MATCH … RETURN …; jdx schema lists the tables")
        if word == "CALL":
            name = tokens[i + 1] if i + 1 < len(tokens) else ""
            opening = tokens[i + 2] if i + 2 < len(tokens) else ""
            if name.lower() not in CALLABLE or opening != "(":
                raise CypherRefused(f"cypher: CALL {name} is refused: only the schema's read-only functions may be "
                                    f"called ({', '.join(sorted(CALLABLE))})",
                                    hint="CALL show_tables() RETURN *; jdx schema describes every table")
