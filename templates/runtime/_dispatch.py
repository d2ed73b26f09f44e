"""``dispatch(provider, tool_call)``: run a tool call exactly as a provider returns it, and
answer in the shape that provider expects next.

The name is mapped back by the tables of ``_names.py`` (written by skillc), never by
reversing a string. The nulls that strict mode makes a model send for optional arguments become
omitted arguments. Whatever the model sends (not an object, bad JSON, an unknown tool,
arguments nested 10,000 deep or megabytes long), the answer is a result the model can
read (with ``is_error`` / ``isError`` / ``status: error`` where the provider has one),
never an exception in the agent loop. A tool marked dangerous runs only when ``confirm``
(or the policy set with ``set_confirm_policy``) approves that call.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Mapping
from typing import Any, NamedTuple

from . import _secrets
from ._accept import check
from ._mcp import structured_content
from ._names import DOTTED, FLAT
from ._runtime import PACKAGE
from ._tasks import Invocation
from ._tools import MESSAGE_LIMIT, ConfirmPolicy, problems_text, shortened
from ._validate import _SCALARS

PROVIDERS = (
    # <providers: names>
)


# json.dumps(data, default=str) as one encoder: dumps makes a new one per call when
# given ``default``, a tenth of a dispatch's cost.
_JSON = json.JSONEncoder(default=str)


class Call(NamedTuple):
    """A provider's tool call, read: its id, the provider's tool name, the arguments
    (or why they could not be read)."""

    id: str
    name: str
    arguments: dict[str, Any]
    problem: str | None = None


def dispatch(
    provider: str, tool_call: Any, confirm: bool | ConfirmPolicy | None = None
) -> dict[str, Any]:
    """Run ``tool_call`` (a dict, or an SDK object with the same fields) and return the
    provider's result message or block for it. ``confirm``: a callable that approves
    (True) or denies a dangerous tool's call, seeing its tool, arguments and reason;
    None asks the policy of ``set_confirm_policy``, and without one the answer is a
    ``confirmation-required`` error. Only an unknown ``provider`` (the host's mistake,
    not the model's) raises."""
    if provider not in PROVIDERS:
        raise ValueError(
            f"unknown provider {provider!r}; one of {', '.join(PROVIDERS)}"
        )
    try:
        call = read_call(provider, tool_call)
    except Exception:  # a call of the wrong shape: say so, never raise
        call = Call("", "", {}, "the tool call does not have the provider's shape")
    try:
        ok, text, data = _run(provider, call, confirm)
        answer = _answer(provider, call, ok, text, data)
    except Exception as exc:
        text = f"internal-error: the call failed ({type(exc).__name__})"
        answer = _answer(provider, call, False, text, None)
    redacted: dict[str, Any] = _secrets.redact(answer)  # what leaves, in one place
    return redacted


def read_call(provider: str, tool_call: Any) -> Call:
    item = _plain(tool_call)
    raise NotImplementedError(item)  # <providers: read>


def _call(ident: Any, name: Any, arguments: Any) -> Call:
    ident = ident if isinstance(ident, str) else ""
    if not isinstance(name, str):
        return Call(ident, "", {}, "the tool call names no tool")
    if isinstance(arguments, str):  # OpenAI sends a JSON string
        try:
            arguments = json.loads(arguments) if arguments.strip() else {}
        except (ValueError, RecursionError) as exc:
            reason = exc if isinstance(exc, ValueError) else "nested too deep"
            return Call(ident, name, {}, f"arguments are not JSON: {reason}")
    if arguments is None:
        arguments = {}
    if not isinstance(arguments, (dict, Mapping)):  # dict first: no ABC check
        return Call(ident, name, {}, "arguments must be a JSON object")
    if not all(isinstance(key, str) for key in arguments):
        return Call(ident, name, {}, "argument names must be strings")
    return Call(ident, name, _plain(arguments))


def _run(
    provider: str, call: Call, confirm: bool | ConfirmPolicy | None
) -> tuple[bool, str, Any]:
    if call.problem is not None:
        return False, call.problem, None
    tool = find(provider, call.name)
    if tool is None:
        return False, f"unknown tool {call.name[:200]!r}", None
    # The arguments are walked once, by the validation of the call (which refuses
    # them nested too deep): ``without_nulls`` goes no deeper than the schema.
    spec = tool.spec
    if hasattr(spec, "input_schema"):  # a callable tool
        arguments = without_nulls(spec.input_schema, call.arguments)
        result = tool.call_raw(arguments, confirm=confirm)
        if not result.ok:
            assert result.error is not None
            return False, f"{result.error.code}: {result.error.message}", None
        data = result.data
        text = data if isinstance(data, str) else _JSON.encode(data)
        if provider == "mcp":  # as the outputSchema in providers/mcp.json says
            data = structured_content(spec.output_schema, data)
        return True, text, data
    named = {k: v for k, v in call.arguments.items() if v is not None}
    problems = task_problems(tool, named)
    if problems:
        text = shortened(problems_text(problems), MESSAGE_LIMIT)
        return False, f"invalid-arguments: {text}", None
    outcome = tool(**named) if spec.kind == "skill" else tool(named["prompt"])
    if isinstance(outcome, Invocation):
        return True, outcome.text, None
    return (
        True,
        outcome if isinstance(outcome, str) else _JSON.encode(outcome),
        outcome,
    )


def task_problems(tool: Any, arguments: Mapping[str, Any]) -> list[str]:
    """What is wrong with a task tool's arguments, as a callable tool's are checked:
    its schema (as the provider files give it) takes its function's parameters, each a
    string, those without a default required."""
    schema = _task_schemas.get(tool.spec.qualname)
    if schema is None:
        schema = _task_schemas[tool.spec.qualname] = _task_schema(tool)
    return check(schema, arguments)


_task_schemas: dict[str, dict[str, Any]] = {}


def _task_schema(tool: Any) -> dict[str, Any]:
    import inspect

    parameters = inspect.signature(tool.__wrapped__).parameters.values()
    return {
        "type": "object",
        "properties": {p.name: {"type": "string"} for p in parameters},
        "required": [p.name for p in parameters if p.default is p.empty],
    }


def find(provider: str, name: str) -> Any:
    """The tool a provider's name stands for, or None: one lookup in the table the
    build wrote (at 5,000 tools, scanning a table made the last tool's dispatch 13
    times the first's)."""
    table = FLAT  # <providers: table>
    qualname = table.get(name)
    return None if qualname is None else tool(qualname)


_tools: dict[str, Any] = {}


def tool(qualname: str) -> Any:
    """The tool at a Python path from the build's tables, imported once."""
    found = _tools.get(qualname)
    if found is None:
        namespace, _, attribute = qualname.rpartition(".")
        module = importlib.import_module(f"{PACKAGE}.{namespace}")
        found = _tools[qualname] = getattr(module, attribute)
    return found


def without_nulls(schema: Mapping[str, Any], value: Any) -> Any:
    """Drop the nulls strict mode forces for optional properties, wherever the original
    schema does not allow null itself (strict mode declares every property, so below a
    schema without ``properties`` or ``items`` the value is kept as it is)."""
    if type(value) in _SCALARS:  # no Mapping ABC check for most values
        return value
    if isinstance(value, (dict, Mapping)) and schema.get("properties"):
        properties = schema["properties"]
        result = {}
        for key, item in value.items():
            sub = properties.get(key) or {}
            if item is None and not _allows_null(sub):
                continue
            result[key] = without_nulls(sub, item)
        return result
    if isinstance(value, list) and isinstance(schema.get("items"), Mapping):
        return [without_nulls(schema["items"], item) for item in value]
    return value


def _allows_null(schema: Mapping[str, Any]) -> bool:
    kinds = schema.get("type")
    if kinds == "null" or (isinstance(kinds, list) and "null" in kinds):
        return True
    if None in (schema.get("enum") or ()):
        return True
    return any(_allows_null(sub) for sub in schema.get("anyOf") or ())


def _answer(
    provider: str, call: Call, ok: bool, text: str, data: Any
) -> dict[str, Any]:
    raise NotImplementedError(provider)  # <providers: answer>


def _json_value(data: Any, text: str) -> Any:
    try:
        json.dumps(data)
    except (TypeError, ValueError):
        return text
    return text if data is None else data


def _plain(value: Any) -> Any:
    """SDK objects (pydantic models) as plain dicts; dicts as they are; anything else
    as an empty dict, so a call of the wrong shape names no tool."""
    if isinstance(value, (dict, Mapping)):
        return dict(value)
    dump = getattr(value, "model_dump", None)
    if callable(dump):
        return dump(by_alias=False, exclude_none=True)
    return {}
