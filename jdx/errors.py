"""The one error hierarchy of jdx. Every adapter maps these to exit codes in one place.

    JdxError                      exit 6, INTERNAL
    ├── NotFoundError             exit 1, NOT_FOUND        (carries did-you-mean candidates)
    ├── AmbiguousError            exit 2, AMBIGUOUS        (carries every candidate)
    ├── UsageError                exit 3, USAGE
    │   └── RefSyntaxError        exit 3, BAD_REFERENCE
    ├── NoIndexError              exit 4, NO_INDEX         (no workspace / no graph)
    │   └── EnvironmentMissing    exit 4, ENVIRONMENT      (no JVM, no ASM, no javac)
    └── ArtifactReadError         exit 5, ARTIFACT_READ_ERROR
"""

from __future__ import annotations

from dataclasses import dataclass

EXIT_OK = 0
EXIT_NOT_FOUND = 1
EXIT_AMBIGUOUS = 2
EXIT_USAGE = 3
EXIT_NO_INDEX = 4
EXIT_ARTIFACT = 5
EXIT_INTERNAL = 6


class JdxError(Exception):
    """Root of every error jdx raises on purpose."""

    exit_code = EXIT_INTERNAL
    code = "INTERNAL"

    def __init__(self, message: str, *, candidates: list[dict] | None = None, hint: str | None = None,
                 warnings: list | None = None, result: dict | None = None, coordinate: str | None = None):
        super().__init__(message)
        self.message = message
        self.candidates = candidates or []
        self.hint = hint
        self.warnings = warnings or []
        self.result = result
        self.coordinate = coordinate  # a `g:a:v/` reference's artifact the workspace lacks (spec §6), as data

    def to_json(self) -> dict:
        data = {"code": self.code, "message": self.message}
        if self.hint:
            data["hint"] = self.hint
        if self.coordinate:
            data["coordinate"] = self.coordinate
        return data


class TimeoutExceeded(JdxError):
    """`--timeout` ran out (the CLI's own deadline, or a server's per request): code TIMEOUT, exit 6."""

    code = "TIMEOUT"


class NotFoundError(JdxError):
    exit_code = EXIT_NOT_FOUND
    code = "NOT_FOUND"


class AmbiguousError(JdxError):
    exit_code = EXIT_AMBIGUOUS
    code = "AMBIGUOUS"


class UsageError(JdxError):
    exit_code = EXIT_USAGE
    code = "USAGE"


class RefSyntaxError(UsageError):
    code = "BAD_REFERENCE"


class CypherRefused(UsageError):
    """A `jdx cypher` clause that reaches outside the graph (jdx.graph_schema.cypher_guard). Defined here so a thin
    client that never imports the guard still maps a daemon's CYPHER_REFUSED to exit 3 (`exit_code_of`)."""

    code = "CYPHER_REFUSED"


class QueryTooLarge(UsageError):
    """A valid graph query that needs more memory than the graph's buffer pool holds (Kùzu's "buffer pool is full"):
    not a syntax error, so its own code, with how to narrow it."""

    code = "QUERY_TOO_LARGE"


class NoIndexError(JdxError):
    exit_code = EXIT_NO_INDEX
    code = "NO_INDEX"


class EnvironmentMissing(NoIndexError):
    code = "ENVIRONMENT"


class ToolFailed(JdxError):
    """A JVM tool run at query time (javap) threw; the message is the Java exception's class and message."""

    code = "TOOL_FAILED"


class ArtifactReadError(JdxError):
    exit_code = EXIT_ARTIFACT
    code = "ARTIFACT_READ_ERROR"


@dataclass(frozen=True, order=True)
class Warning_:
    """A named warning: never silent, always in text and JSON."""

    code: str
    message: str
    artifact: str = ""

    def to_json(self) -> dict:
        data = {"code": self.code, "message": self.message}
        if self.artifact:
            data["artifact"] = self.artifact
        return data


def exit_code_of(envelope: dict) -> int:
    """The exit code an envelope stands for (a daemon's answer carries no process status)."""
    if envelope.get("ok"):
        result = envelope.get("result")
        if not isinstance(result, dict):
            return EXIT_OK
        if envelope.get("command") == "imports" and "names" in result:  # several names: the worst one's (spec §16)
            return max((_codes().get(n["error"].get("code"), EXIT_INTERNAL) for n in result["names"] if "error" in n),
                       default=EXIT_OK)
        return EXIT_NO_INDEX if envelope.get("command") == "doctor" and result.get("ok") is False else EXIT_OK
    code = (envelope.get("error") or {}).get("code")
    found = _codes().get(code)
    return found if found is not None else EXIT_INTERNAL


def _codes() -> dict[str, int]:
    out: dict[str, int] = {}
    pending = [JdxError]
    while pending:
        cls = pending.pop()
        out.setdefault(cls.code, cls.exit_code)
        pending.extend(cls.__subclasses__())
    return out
