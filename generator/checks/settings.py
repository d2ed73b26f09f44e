"""``[tool.skillc.check]`` and the flags of ``skillc check`` on top: which harness
listings to simulate, the baseline of breaking changes, the checks left out.

```toml
[tool.skillc.check]
budget = ["claude-code:200k", "codex:272k"]  # harness[:context tokens | unknown]
installed = "each"                           # or "all": every skill and plugin at once
against = "lock"                             # or a git ref: "origin/main"
skip = []                                    # check names (checks.registry.CHECKS)
```
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..checks import Options
from ..checks.registry import CHECKS
from ..checks.harnesses import parse
from ..config import ConfigError

KEYS = frozenset({"budget", "installed", "against", "skip"})
INSTALLED = ("each", "all")


def options(
    table: Mapping[str, Any],
    budget: Sequence[str] | None = None,
    against: str | None = None,
    skip: Sequence[str] | None = None,
    installed: str | None = None,
) -> Options:
    """The table's settings, each replaced by its flag when one was given."""
    unknown = sorted(set(table) - KEYS)
    if unknown:
        raise ConfigError(
            f"[tool.skillc.check] unknown key(s): {', '.join(unknown)}; "
            f"the keys are {', '.join(sorted(KEYS))}"
        )
    budgets = budget if budget is not None else _strings(table, "budget")
    skipped = skip if skip is not None else _strings(table, "skip")
    unknown = sorted(set(skipped) - set(CHECKS))
    if unknown:
        raise ConfigError(
            f"skip: no check {', '.join(unknown)}; the checks are {', '.join(CHECKS)}"
        )
    baseline = against if against is not None else table.get("against", "lock")
    if not isinstance(baseline, str) or not baseline:
        raise ConfigError("[tool.skillc.check] against must be 'lock' or a git ref")
    how = installed if installed is not None else table.get("installed", "each")
    if how not in INSTALLED:
        raise ConfigError(
            f"[tool.skillc.check] installed must be one of {', '.join(INSTALLED)}"
        )
    return Options(
        budgets=tuple(parse(value) for value in budgets),
        installed=how,
        against=baseline,
        skip=frozenset(skipped),
    )


def _strings(table: Mapping[str, Any], key: str) -> list[str]:
    value = table.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"[tool.skillc.check] {key} must be a list of strings")
    return value
