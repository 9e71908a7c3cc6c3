"""Answer: what every facade call returns (spec §8.2 envelope parts), shared by the facade and its mixins."""

from __future__ import annotations

from dataclasses import dataclass, field

from jdx.errors import Warning_


@dataclass
class Answer:
    """A command's result plus everything the envelope carries beside it."""

    result: dict
    warnings: list[Warning_] = field(default_factory=list)
    truncated: dict | None = None
    provenance: list[dict] = field(default_factory=list)
    exit_code: int = 0  # a success envelope can still mean "not usable" (doctor: exit 4)
    # the provenance lists every artifact because the answer may draw on any (cypher): how one artifact was read
    # (MULTI_RELEASE_JAR) is then no warning about it
    anywhere: bool = False
