"""What a workspace holds (spec §14.2 `jdx_workspace`): its artifacts and the graph's row counts.

Served by the MCP and HTTP adapters beside the registry commands; not a CLI command of its own
(`jdx ws info` and `jdx schema` answer the same questions on the command line).
"""

from __future__ import annotations

from jdx.engine.answer import Answer

NAME = "workspace"
SUMMARY = "What the workspace holds: its artifacts (jars, class dirs, JDK modules) and how many types, " \
          "members and edges its graph has."
EXAMPLE = "jdx_workspace {}"
NEXT = "ls or tree to browse packages, search to find a type by name"


def run_workspace(session) -> Answer:
    """`jdx ws info`'s answer (how the workspace was picked and its classpath found, its artifacts, the classpath
    `javac -cp` takes, its sources) plus the graph's row counts: an agent learns up front that a library has no
    sources (so `doc` will be empty) and how its `--coord` resolved."""
    from jdx.commands.foundation import workspace_provenance
    from jdx.commands.manage import ws_info
    from jdx.engine.schema_info import describe

    store = session.store()  # (built first: ws_info then says `indexed`)
    tables = describe(store)
    counts = {t["name"]: t["rows"] for t in tables["nodes"]}
    counts.update({t["name"]: t["rows"] for t in tables["relationships"]})
    info = ws_info(session)
    return Answer({**info.result, "count": len(info.result["artifacts"]), "rows": counts},
                  info.warnings, provenance=workspace_provenance(store))


def render(result: dict) -> list[str]:
    """`ws info`'s lines (the JDK's modules on one line), then the graph's rows on one."""
    from jdx.render.manage import ws_info

    rows = " · ".join(f"{name} {rows:,}" for name, rows in result["rows"].items())
    return [f"{result['count']} artifacts", *ws_info(result), f"graph rows: {rows}"]


def answer(session):
    """The workspace question as an Outcome, errors as failure envelopes (like execute.answer_request)."""
    from jdx.commands.execute import Outcome, failure, internal_error
    from jdx.errors import JdxError
    from jdx.render import envelope

    try:
        ans = run_workspace(session)
        return Outcome(envelope.success(NAME, "", ans), ans.exit_code)
    except JdxError as exc:
        return failure(NAME, "", exc)
    except Exception as exc:  # noqa: BLE001 - same contract as execute.run_request
        return failure(NAME, "", internal_error(exc))
