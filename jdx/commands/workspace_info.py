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
    from jdx.commands.foundation import workspace_provenance
    from jdx.engine.schema_info import describe

    arts = session.artifacts()
    tables = describe(session.store())
    counts = {t["name"]: t["rows"] for t in tables["nodes"]}
    counts.update({t["name"]: t["rows"] for t in tables["relationships"]})
    return Answer({"artifacts": [a.to_json() for a in arts], "count": len(arts), "rows": counts},
                  session.read_warnings(), provenance=workspace_provenance(session.store()))


def render(result: dict) -> list[str]:
    lines = [f"{result['count']} artifacts"]
    lines += [f"  {a['name']}  {a['kind']}  {a['path']}" for a in result["artifacts"]]
    lines += [f"{name}: {rows}" for name, rows in result["rows"].items()]
    return lines


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
