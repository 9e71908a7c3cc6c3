"""The embedded JVM's implementation of the engine's query-time port (`jdx.engine.ports.JvmTools`)."""

from __future__ import annotations

from pathlib import Path

from jdx.errors import ToolFailed


class LoaderJvmTools:
    """Decompilers and javap inside the JVM jdx already runs (started on first use)."""

    def decompile_class(self, cache: Path, artifact_kind: str, artifact_path: str, internal_name: str,
                        classpath: list[tuple[str, str]], *, timeout: float, engine: str | None):
        from jdx.loaders.decompile import decompile_class

        return decompile_class(cache, artifact_kind, artifact_path, internal_name, classpath, timeout=timeout,
                               engine=engine)

    def javap(self, cache: Path, args: list[str]) -> tuple[int, str, str]:
        from jdx.loaders import java_tools

        java_tools.ensure_jvm(cache)
        try:
            return java_tools.javap(args)
        except java_tools.WorkerFailed as exc:
            raise ToolFailed(str(exc)) from None

    def class_entry(self, artifact_kind: str, artifact_path: str, internal_name: str) -> str | None:
        from jdx.loaders.class_files import class_entry

        return class_entry(artifact_kind, artifact_path, internal_name)

    def __hash__(self) -> int:  # one implementation: every instance is interchangeable (javap's class cache)
        return hash(LoaderJvmTools)

    def __eq__(self, other) -> bool:
        return isinstance(other, LoaderJvmTools)
