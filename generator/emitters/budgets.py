"""Context budgets in ``report.json``: the tokens of each tool's Level 1 entry and Level 2
spec, and of each provider file, with a warning past 100 (Level 1) or 5,000 (Level 2).
A skill's or subagent's Level 2 is what a call loads: its spec, its instructions (the
body) and the list of its bundled files. Each tool's counts are in its view.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from generator.diagnostics import Report
from generator.views import PackageView

LEVEL1_LIMIT = 100
LEVEL2_LIMIT = 5000


def measure(
    package: PackageView,
    files: dict[str, str],
    count: Callable[[str], int],
    counter: str,
    report: Report,
) -> dict[str, Any]:
    tools = []
    for tool in package.tools:
        sizes = {"level1": tool.tokens[0], "level2": tool.tokens[1]}
        for level, limit in (("level1", LEVEL1_LIMIT), ("level2", LEVEL2_LIMIT)):
            if sizes[level] > limit:
                report.warning(
                    tool.source.path,
                    tool.source.line,
                    tool.source.col,
                    "budget-exceeded",
                    f"{tool.qualname}: its {level.replace('level', 'Level ')} text is "
                    f"{sizes[level]:,} tokens ({counter}); the budget is {limit:,}",
                )
        tools.append({"name": tool.qualname, **sizes})
    providers = {
        path: count(text)
        for path, text in sorted(files.items())
        if path.startswith("providers/") and path.endswith(".json")
    }
    return {"counter": counter, "tools": tools, "providers": providers}
