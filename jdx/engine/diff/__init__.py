"""Public-API diff of two sides (spec §7.7): rules, pairing passes, the inheritance walk, the report.

Input is the extracted tables (pyarrow) of each side's artifacts; getting them (extraction, shard reuse) is the
command's job, so this package never imports `jdx.loaders`.
"""

from __future__ import annotations

from jdx.engine.diff.compare import compare
from jdx.engine.diff.findings import Finding
from jdx.engine.diff.report import DEFAULT_LIMIT, FAIL_ON, SEVERITY_FILTERS, ReportOptions, findings_table, result_dict
from jdx.engine.diff.rules import RULES, severity_of
from jdx.engine.diff.surface import Surface, build_surface
from jdx.engine.diff.visibility import VISIBILITIES, DiffOptions

__all__ = ["compare", "build_surface", "Surface", "Finding", "DiffOptions", "ReportOptions", "result_dict",
           "findings_table", "RULES", "severity_of", "VISIBILITIES", "SEVERITY_FILTERS", "FAIL_ON", "DEFAULT_LIMIT"]
