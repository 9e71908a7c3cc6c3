"""Search and navigation (spec §7.2): search, resolve, imports, ls, tree.

A mixin of JdxService: methods use self.store(), self._root_warnings and return Answer.
"""

from __future__ import annotations

from jdx.engine.answer import Answer


class SearchCommands:
    def search(self, pattern: str, opts=None) -> Answer:
        """Ranked symbol search: camel-hump, glob, --regex, --fuzzy (spec §7.2)."""
        from jdx.engine.search import SearchOptions, search

        result, truncated = search(self.store(), pattern, opts or SearchOptions())
        return Answer(result, list(self._root_warnings), truncated, _provenance(result["matches"]))

    def resolve_name(self, name: str, limit: int = 50) -> Answer:
        """Every candidate for an unqualified or partial name, a `Foo.bar` fragment or a stack-trace frame."""
        from jdx.engine.search_nav import resolve

        result, truncated = resolve(self.store(), name, limit)
        return Answer(result, list(self._root_warnings), truncated, _provenance(result["candidates"]))

    def imports(self, type_text: str) -> Answer:
        """The import statement(s) for a type (or a static member); warns when several artifacts provide it."""
        from jdx.engine.search_nav import imports

        result, warnings = imports(self.store(), type_text)
        return Answer(result, list(self._root_warnings) + warnings, None, _provenance(result["imports"]))

    def ls(self, package_glob: str | None = None, depth: int = 1, counts: bool = False, limit: int = 100) -> Answer:
        """Packages and their types (spec §7.2)."""
        from jdx.engine.search_nav import list_packages

        result, truncated = list_packages(self.store(), package_glob, depth, counts, limit)
        return Answer(result, list(self._root_warnings), truncated, _browse_provenance(package_glob))

    def tree(self, artifact_glob: str | None = None, depth: int | None = None, counts: bool = False,
             limit: int = 200) -> Answer:
        """Artifacts, their packages and types as a tree (spec §7.2)."""
        from jdx.engine.search_nav import artifact_tree

        result, truncated = artifact_tree(self.store(), artifact_glob, depth, counts, limit)
        return Answer(result, list(self._root_warnings), truncated, _browse_provenance(artifact_glob))


def _provenance(rows: list[dict]) -> list[dict]:
    """Where each answer comes from: the artifact's bytecode (one entry per artifact, in first-seen order)."""
    seen: dict[str, dict] = {}
    for r in rows:
        art = r.get("artifact")
        if art and art not in seen:
            seen[art] = {"artifact": art, "origin": "bytecode"}
    return list(seen.values())


def _browse_provenance(glob: str | None) -> list[dict]:
    """`ls` and `tree` list what the workspace graph holds: the bytecode of its artifacts."""
    return [{"symbol": glob or "*", "origin": "bytecode", "detail": "packages and types of the workspace graph"}]
