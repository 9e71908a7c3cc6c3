"""The Python API for notebooks and scripts: jdx.open(...).cypher(q) -> pyarrow.Table."""

from __future__ import annotations

import pyarrow as pa

from jdx.commands.session import Options, Session


class Workspace:
    """A workspace graph opened read-only (built first when missing)."""

    def __init__(self, service: Session):
        self.service = service

    def cypher(self, query: str, params: dict | None = None) -> pa.Table:
        """Runs a read-only Cypher query; rows come back as a pyarrow Table (`.to_pandas()` for a frame). A pattern
        over `INVOKES`, `READS`, `WRITES` or `REFERENCES` matches its `_ADDED` twin too (docs/graph-schema.md). One
        statement per call (several crash Kùzu's reader), no transaction or checkpoint statements, and every
        `$name` the query uses bound in `params` (an unbound one raises UsageError naming it)."""
        from jdx.graph_schema.cypher_guard import (check_aggregates, check_parameters, check_single_statement,
                                                   check_stateful)
        from jdx.commands.foundation import user_query

        check_single_statement(query)
        check_stateful(query)
        check_aggregates(query)
        check_parameters(query, params)
        return user_query(self.service.store(), query, params)

    def schema(self) -> dict:
        """The graph's tables, properties (type and meaning), row counts and example queries (`jdx schema`)."""
        from jdx.engine.schema_info import describe

        return describe(self.service.store())

    def ask(self, command: str, query: str = "", **flags) -> dict:
        """The JSON result of any query command (`ws.ask("members", "java.util.Map", inherited=False)`), as
        `jdx <command> --json` would give it; a failure raises the command's JdxError (exit-code taxonomy)."""
        from jdx.commands.registry import command as find

        cmd = find(command)
        if cmd is None:
            from jdx.errors import UsageError

            raise UsageError(f"unknown command {command!r}")
        return cmd.run(self.service, cmd.request(query=query, **flags)).result

    def index(self, force: bool = False, executor: str | None = None, ray_address: str | None = None,
              shards: str | None = None) -> dict:
        """Builds the graph (`executor="ray"` extracts on a Ray cluster; `shards` names the shard store)."""
        return self.service.index(force=force, executor=executor, ray_address=ray_address, shards=shards).result

    @property
    def artifacts(self) -> list[dict]:
        return [a.to_json() for a in self.service.artifacts()]

    def close(self) -> None:
        self.service.close()

    def __enter__(self) -> "Workspace":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def open_workspace(workspace: str | None = None, jars: list[str] | tuple = (), jdk: bool = True,
                   cache_dir: str | None = None, coords: list[str] | tuple = (), project: str | None = None,
                   tests: bool = False) -> Workspace:
    opts = Options(workspace=workspace, jars=list(jars), jdk=jdk, cache_dir=cache_dir, coords=list(coords),
                   project=project, tests=tests)
    return Workspace(Session(opts))
