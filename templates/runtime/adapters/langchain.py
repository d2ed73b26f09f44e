"""The package's tools in LangChain (``pip install langchain-core``; ``langchain`` for
``create_agent``).

``tools()``: a ``StructuredTool`` per tool, skill and subagent, under its provider
name, with its input schema as ``args_schema``. A skill's tool answers with its
instructions; LangChain has no sub-agent type of its own, so a subagent's tool answers
with its Invocation's instructions (or, once ``set_task_runner()`` is called, with what
your runner returns: run a sub-agent there).

Every call goes through ``dispatch()``; a failed one raises LangChain's
``ToolException``, which the tool turns into a ``ToolMessage`` with ``status="error"``
for the model: the run goes on.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import Confirm, offered, raising, require

if TYPE_CHECKING:
    from .._runtime import Filter

INSTALL = "langchain-core"


def tools(
    tag: Filter = None,
    capability: Filter = None,
    namespace: str | None = None,
    confirm: Confirm = None,
) -> list[Any]:
    """``StructuredTool``s of the tools, skills and subagents the filters select;
    ``confirm`` approves a tool marked dangerous."""
    langchain = require("langchain_core.tools", INSTALL)
    return [
        langchain.StructuredTool(
            name=tool.name,
            description=tool.description,
            args_schema=tool.schema,
            func=raising(tool.name, confirm, langchain.ToolException),
            handle_tool_error=True,
        )
        for tool in offered(tag, capability, namespace)
    ]
