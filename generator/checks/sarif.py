"""Diagnostics as one SARIF 2.1.0 log, for code scanning (GitHub's upload-sarif):
one rule per diagnostic code, one result per diagnostic, sorted as the report sorts
them, so the same build gives the same bytes."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from .. import __version__
from ..diagnostic import Diagnostic
from ..diagnostics import CODES, Severity

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
STALE = "stale-output"
# SARIF's levels (2.1.0 section 3.27.10): a note is "note".
LEVELS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}


def document(items: Sequence[Diagnostic], stale: Sequence[str] = ()) -> str:
    """The log of ``items`` and of the ``stale`` output files (each an error)."""
    results = [
        _result(d.code, LEVELS[d.severity], d.message, d.path, d.line, d.col)
        for d in items
    ]
    results += [
        _result(
            STALE, "error", "not what a build writes; run: skillc build", path, 1, 1
        )
        for path in stale
    ]
    codes = sorted({r["ruleId"] for r in results})
    log = {
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "skillc",
                        "version": __version__,
                        "rules": [
                            {"id": code, "shortDescription": {"text": CODES[code]}}
                            for code in codes
                        ],
                    }
                },
                "results": results,
            }
        ],
    }
    return json.dumps(log, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def _result(
    code: str, level: str, message: str, path: str, line: int, col: int
) -> dict[str, Any]:
    return {
        "ruleId": code,
        "level": level,
        "message": {"text": message},
        "locations": [
            {
                "physicalLocation": {
                    "artifactLocation": {"uri": path},
                    "region": {"startLine": line, "startColumn": col},
                }
            }
        ],
    }
