"""Context budgets in ``report.json``: the tokens of each tool's Level 1 entry and Level 2
spec, and of each provider file, with a warning past 100 (Level 1) or 5,000 (Level 2).
A skill's or subagent's Level 2 is what a call loads: its spec, its instructions (the
body) and the list of its bundled files.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import Any

from generator.diagnostics import Report
from generator.ir import Definition, Model, Tool

LEVEL1_LIMIT = 100
LEVEL2_LIMIT = 5000


def level1(tool: Tool) -> str:
    """The line ``help()`` and ``list`` show for a tool."""
    return f"{tool.qualname}: {tool.summary}"


def level2(module: str) -> str:
    """The ``_HELP`` literal of a tool module: its full spec, as ``.help()`` returns it."""
    start = module.index("_HELP = ") + len("_HELP = ")
    end = module.index("\n\n", start)
    return str(ast.literal_eval(module[start:end].strip()))


def measure(
    model: Model,
    files: dict[str, str],
    count: Callable[[str], int],
    counter: str,
    report: Report,
    memo: tuple[dict[str, str], dict[str, str], dict[str, str]],
) -> dict[str, Any]:
    """``memo``: each tool's render key, and the last and this build's memo (an
    unchanged tool's counts are reused)."""
    keys, previous, renders = memo
    tools = []
    for tool in model.tools:
        key = f"{keys[tool.qualname]}|budget|{counter}"
        if key not in previous:
            path = "".join(f"{p}/" for p in tool.namespace) + f"_{tool.py_name}.py"
            level2_text = level2(files[path]) if path in files else ""
            task = tool.definition
            if isinstance(task, Definition):  # what a call loads: instructions, files
                level2_text = "\n".join([level2_text, task.body, *task.files])
            previous[key] = f"{count(level1(tool))} {count(level2_text)}"
        renders[key] = previous[key]
        one, two = renders[key].split()
        sizes = {"level1": int(one), "level2": int(two)}
        d = tool.definition
        for level, limit in (("level1", LEVEL1_LIMIT), ("level2", LEVEL2_LIMIT)):
            if sizes[level] > limit:
                report.warning(
                    d.source.path,
                    d.source.line,
                    d.source.col,
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
