"""The package's tools as the tools of agent frameworks: one module per framework,
imported only when used, and none of the frameworks a dependency of the package.

- ``adapters.openai_agents``: ``tools()``, the OpenAI Agents SDK's ``FunctionTool``s
  (strict schemas where eligible), and ``handoffs()``, the subagents as ``Agent``s;
- ``adapters.pydantic_ai``: ``toolset()``, a PydanticAI ``FunctionToolset``;
- ``adapters.langchain``: ``tools()``, LangChain ``StructuredTool``s;
- ``adapters.claude_agent_sdk``: ``server()``, an in-process SDK MCP server, and
  ``agents()``, the subagents as ``AgentDefinition``s.

Each takes the filters of the package's ``tools()`` (``tag``, ``capability``,
``namespace``) and ``confirm``, what approves a tool marked dangerous (as
``dispatch``'s). The tools are the ones the provider files offer a model, under their
provider names (``file__read``); every call goes through ``dispatch()``, so only
declared arguments reach a tool, validated, with its deadline, and a failed call is an
answer the model reads, never an exception in the agent loop. Every declared argument
reaches its tool: one a framework keeps for itself (LangChain's ``config``,
``callbacks``, ``run_manager``, ``self``) is offered the model under another name
(``renamed``) and passed back under its own; the other three frameworks hand a tool
every argument as the model sent it.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable, Mapping
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, NamedTuple, TypeAlias

if TYPE_CHECKING:
    from .._runtime import Filter
    from .._tasks import Invocation
    from .._tools import ConfirmPolicy

# What approves a call of a tool marked dangerous: True approves every call, a policy
# sees each call's ConfirmRequest, None asks set_confirm_policy's (else refuses).
Confirm: TypeAlias = "bool | ConfirmPolicy | None"


class Offered(NamedTuple):
    """A tool as a model is offered it: its provider name, dotted path, kind ("tool",
    "skill", "agent" or "command"), description and input schema (from a provider
    file)."""

    name: str
    qualname: str
    kind: str
    description: str
    schema: dict[str, Any]


class Answer(NamedTuple):
    """A call's outcome as dispatch gives it: whether it succeeded, and its text (the
    result, or the error)."""

    ok: bool
    text: str


def require(module: str, install: str) -> ModuleType:
    """A framework's module, or an ImportError that says what to install."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise ImportError(f"{__name__} needs {module}: pip install {install}") from exc


def offered(
    tag: Filter = None,
    capability: Filter = None,
    namespace: str | None = None,
    schemas: str = "anthropic.json",
) -> list[Offered]:
    """The tools the filters select, in the order of ``providers/<schemas>``, with the
    schemas that file gives them."""
    from .._listing import entries
    from .._names import FLAT, KINDS

    wanted = {entry.name for entry in entries(namespace, tag, capability)}
    result = []
    for item in _functions(provider_file(schemas)):
        name = item["name"]
        if FLAT.get(name) not in wanted:
            continue
        qualname = FLAT[name]
        kind = KINDS.get(qualname, "tool")
        schema = item.get("input_schema") or item.get("parameters") or {}
        description = item.get("description", "")
        result.append(Offered(name, qualname, kind, description, schema))
    return result


def _functions(listed: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A file's tools, each under its provider name: a Responses ``namespace`` tool's
    functions each under the namespace's name joined to its own, as ``dispatch()``
    reads their calls."""
    result = []
    for item in listed:
        if item.get("type") != "namespace":
            result.append(item)
            continue
        for function in item["tools"]:
            result.append({**function, "name": f"{item['name']}__{function['name']}"})
    return result


def provider_file(name: str) -> list[dict[str, Any]]:
    """One of the package's provider files, read."""
    path = Path(__file__).parent.parent / "providers" / name
    listed: list[dict[str, Any]] = json.loads(path.read_text(encoding="utf-8"))
    return listed


def call(name: str, arguments: Any, confirm: Confirm) -> Answer:
    """The one way an adapter runs a tool: ``dispatch`` with the tool's provider name
    (arguments a mapping, or the JSON text of one)."""
    from .._dispatch import dispatch

    answer = dispatch(
        "anthropic", {"id": "", "name": name, "input": arguments}, confirm=confirm
    )
    return Answer(not answer["is_error"], answer["content"])


def raising(
    name: str,
    confirm: Confirm,
    failed: type[Exception],
    back: Mapping[str, str] | None = None,
) -> Callable[..., str]:
    """A tool's function for a framework that passes the model's arguments as keywords
    and takes an exception of its own (``failed``) as the call's error for the model;
    ``back``: the arguments ``renamed`` gave other names, under their own again."""

    def run(**arguments: Any) -> str:
        if back:
            arguments = {back.get(key, key): value for key, value in arguments.items()}
        answer = call(name, arguments, confirm)
        if not answer.ok:
            raise failed(answer.text)
        return answer.text

    return run


def renamed(
    schema: dict[str, Any], reserved: frozenset[str]
) -> tuple[dict[str, Any], dict[str, str]]:
    """``schema`` with each argument a framework keeps for itself (``reserved``)
    renamed as the model is offered it (``config`` becomes ``config_``, with one more
    ``_`` while that name is taken), and the way back: the model's names to the
    tool's."""
    properties = schema.get("properties") or {}
    back: dict[str, str] = {}
    for name in properties:
        if name in reserved:
            new = name + "_"
            while new in properties or new in back:
                new += "_"
            back[new] = name
    if not back:
        return schema, back
    forward = {old: new for new, old in back.items()}
    offered = {
        **schema,
        "properties": {forward.get(k, k): v for k, v in properties.items()},
    }
    if isinstance(schema.get("required"), list):
        offered["required"] = [forward.get(name, name) for name in schema["required"]]
    return offered, back


def prepared(tool: Offered) -> Invocation:
    """A task tool's Invocation without arguments (a subagent's: its system prompt,
    model and allowed tools), never sent to the task runner."""
    invocation: Invocation = _tool(tool.qualname).prepare("")
    return invocation


def _tool(qualname: str) -> Any:
    """A tool by its dotted path (as dispatch finds it, without searching the names)."""
    from .._runtime import PACKAGE

    namespace, _, attribute = qualname.rpartition(".")
    return getattr(importlib.import_module(f"{PACKAGE}.{namespace}"), attribute)
