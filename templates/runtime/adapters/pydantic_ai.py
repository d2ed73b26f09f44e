"""The package's tools in PydanticAI (``pip install pydantic-ai-slim``).

``toolset()``: a ``FunctionToolset`` with a tool per tool, skill and subagent, under
its provider name and with its input schema. A skill's tool answers with its
instructions; PydanticAI has no sub-agent of its own, so a subagent's tool answers
with its Invocation's instructions (or, once ``set_task_runner()`` is called, with what
your runner returns: run a delegate agent there).

Every call goes through ``dispatch()``; a failed one raises PydanticAI's ``ToolFailed``,
which the model reads as the call's failed result (``outcome="failed"``) and which
spends no retry: the run goes on.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import Confirm, offered, raising, require

if TYPE_CHECKING:
    from .._runtime import Filter

INSTALL = "pydantic-ai-slim"


def toolset(
    tag: Filter = None,
    capability: Filter = None,
    namespace: str | None = None,
    confirm: Confirm = None,
) -> Any:
    """A ``FunctionToolset`` of the tools, skills and subagents the filters select;
    ``confirm`` approves a tool marked dangerous."""
    tools = require("pydantic_ai", INSTALL)
    failed = require("pydantic_ai.exceptions", INSTALL).ToolFailed
    return tools.FunctionToolset(
        [
            tools.Tool.from_schema(
                raising(tool.name, confirm, failed),
                name=tool.name,
                description=tool.description,
                json_schema=tool.schema,
            )
            for tool in offered(tag, capability, namespace)
        ]
    )
