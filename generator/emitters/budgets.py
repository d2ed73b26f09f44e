"""Context budgets in ``report.json``: the tokens of each tool's Level 1 entry and Level 2
spec, and of each provider file. A skill's or subagent's Level 2 is what a call loads:
its spec, its instructions (the body) and the list of its bundled files. Each tool's
counts are in its view.

The counts are data, not warnings: the limits a harness applies to them are
``skillc check``'s (generator/checks/harnesses.py), each with its source. (A fixed
Level 1 limit of 100 tokens never fired on 1,410 real tools, ``resolve.summarize``
already cuts the line to fit it; a fixed Level 2 limit of 5,000 fired on 31 of
wshobson/agents' 494 without saying why: Claude Code re-attaches an invoked skill at
up to 5,000 tokens after compaction, which check now says of skills and commands.)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..views import PackageView


def measure(
    package: PackageView,
    files: dict[str, str],
    count: Callable[[str], int],
    counter: str,
) -> dict[str, Any]:
    tools = [
        {"name": tool.qualname, "level1": tool.tokens[0], "level2": tool.tokens[1]}
        for tool in package.tools
    ]
    providers = {
        path: count(text)
        for path, text in sorted(files.items())
        if path.startswith("providers/") and path.endswith(".json")
    }
    return {"counter": counter, "tools": tools, "providers": providers}
