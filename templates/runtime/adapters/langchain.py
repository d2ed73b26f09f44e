"""The package's tools in LangChain (``pip install langchain-core``; ``langchain`` for
``create_agent``).

``tools()``: a ``StructuredTool`` per tool, skill and subagent, under its provider
name, with its input schema as ``args_schema``. A skill's tool answers with its
instructions; LangChain has no sub-agent type of its own, so a subagent's tool answers
with its Invocation's instructions (or, once ``set_task_runner()`` is called, with what
your runner returns: run a sub-agent there).

Every call goes through ``dispatch()``; a failed one raises LangChain's
``ToolException``, which the tool turns into a ``ToolMessage`` with ``status="error"``
for the model: the run goes on. An argument named as one of LangChain's own keywords
(``RESERVED``) is offered as ``<name>_`` and passed to the tool as ``<name>``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import Confirm, offered, raising, renamed, require

if TYPE_CHECKING:
    from .._runtime import Filter

INSTALL = "langchain-core"
# Keywords LangChain keeps for itself: StructuredTool._run's own parameters (an argument
# of the name never reached the tool, or raised TypeError) and its FILTERED_ARGS.
RESERVED = frozenset({"self", "config", "run_manager", "callbacks"})


def tools(
    tag: Filter = None,
    capability: Filter = None,
    namespace: str | None = None,
    confirm: Confirm = None,
) -> list[Any]:
    """``StructuredTool``s of the tools, skills and subagents the filters select;
    ``confirm`` approves a tool marked dangerous."""
    langchain = require("langchain_core.tools", INSTALL)
    made = []
    for tool in offered(tag, capability, namespace):
        schema, back = renamed(tool.schema, RESERVED)
        made.append(
            langchain.StructuredTool(
                name=tool.name,
                description=tool.description,
                args_schema=schema,
                func=raising(tool.name, confirm, langchain.ToolException, back),
                handle_tool_error=True,
            )
        )
    return made
