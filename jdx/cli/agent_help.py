"""`jdx help --agent` (spec §3.8): a paste-ready cheat sheet for CLAUDE.md or a system prompt, generated from
the registry (every query command with its example), plus the exit codes and the JSON envelope."""

from __future__ import annotations

import json

from jdx.commands.registry import registry

EXIT_CODES = "0 ok · 1 not found · 2 ambiguous (candidates listed) · 3 usage · 4 no index/workspace or missing " \
             "JVM · 5 artifact read error · 6 internal"


def agent_help(json_mode: bool = False) -> str:
    commands = [{"command": c.name, "summary": c.summary, "example": c.example, "next": c.next_hint}
                for c in registry()]
    if json_mode:
        return json.dumps({"jdx": 1, "ok": True, "command": "help", "query": "--agent",
                           "result": {"commands": commands, "exit_codes": EXIT_CODES,
                                      "mcp": {"command": "jdx", "args": ["mcp", "--jars", "<jar>"],
                                              "install": "pip install 'jdx[mcp]'"},
                                      "http": "jdx serve: GET http://127.0.0.1:7070/v1/<command>?query=..."}}, ensure_ascii=False,
                          separators=(",", ":"))
    width = max(len(c["example"]) for c in commands)
    lines = [
        "jdx: ask about JVM code (Java/Kotlin jars, class dirs, the JDK) in one command, few tokens.",
        "Workspace: --jars <jar|glob|dir> (repeatable, or a classpath a.jar:b.jar), --src <dir>,",
        "  --coord g:a:v (Maven artifact + runtime deps, offline; --fetch [--repo URL] downloads it), -w <name>;",
        "  with none, the Maven/Gradle project",
        "  around the current directory is discovered (--tests adds test classes); the JDK is always included.",
        "References: pkg.Type, pkg.Type#method, pkg.Type#method(ParamType,...), pkg.Type#field, Outer.Inner,",
        "  g:a:v/pkg.Type (that artifact's class);",
        "  quote refs with # or ( in the shell. Ambiguous refs list candidates (exit 2): pick one and re-ask.",
        "",
        "Commands (one example each):",
    ]
    lines += [f"  {c['example'].ljust(width)}  # {c['summary']}" for c in commands]
    lines += [
        "",
        "Output: plain text; --json gives the envelope {jdx, ok, command, query, result, truncated, warnings,",
        "  provenance} (errors: ok=false, error.code, candidates). Cuts are stated with the flag that shows more",
        "  (--limit N, --max-lines N). Warnings (⚠ CODE: …) are never silent.",
        f"Exit codes: {EXIT_CODES}.",
        "Many questions: jdx batch < lines (one command per line), or let the daemon answer (automatic; "
        "--no-daemon to skip; jdx daemon stop --all stops every one).",
        "Compile or run against the workspace: jdx ws info (same workspace flags) lists each jar's path.",
        "MCP: jdx mcp --jars <jar> serves every command as a tool (jdx_members, jdx_show, ... jdx_workspace) "
        "over stdio; pip install 'jdx[mcp]'; config: {\"command\": \"jdx\", \"args\": [\"mcp\", \"--jars\", \"<jar>\"]}.",
        "HTTP: jdx serve --jars <jar> answers GET http://127.0.0.1:7070/v1/<command>?query=...&<flag>=... "
        "with the --json bytes.",
    ]
    return "\n".join(lines)
