"""Every check ``skillc check`` runs, in order, by the name ``skip`` and ``--report``
use: adding a check is adding its module (with ``run``, a ``Check``) and one line here.
Apart from the package's ``Subject``, which a build imports (bom, strict), so that only
``skillc check`` imports the checks."""

from __future__ import annotations

from types import ModuleType
from typing import Any

from ..checks import Check, Subject, breaking, listing_check, overlap, scan
from ..checks import packages, skills_lock
from ..diagnostics import Report

CHECKS: dict[str, ModuleType] = {
    "listing": listing_check,
    "breaking": breaking,
    "overlap": overlap,
    "scan": scan,
    "skills-lock": skills_lock,
    "packages": packages,
}


def run(subject: Subject, report: Report) -> dict[str, Any]:
    """Every check not skipped, in order: what each found, by name."""
    found: dict[str, Any] = {}
    for name, module in CHECKS.items():
        if name not in subject.options.skip:
            check: Check = module.run
            found[name] = check(subject, report)
    return found
