"""``dispatch(provider, tool_call)``: run a tool call exactly as a provider returns it, and
answer in the shape that provider expects next.

Each provider's call and answer shapes are its own module in ``_providers/``, found by
the table there (both written by skillc from the providers registered with it). The
name is mapped back by the tables of ``_names.py``, never by reversing a string. The nulls that strict mode makes a model send for optional arguments become
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
from types import ModuleType
from typing import Any, NamedTuple

from . import _discover, _secrets
from ._accept import check
from ._names import DOTTED, FLAT
from ._providers import SERVED
from ._runtime import PACKAGE
from ._tasks import Invocation
from ._tools import MESSAGE_LIMIT, ConfirmPolicy, problems_text, shortened
from ._validate import _SCALARS

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
    search: bool = False  # the provider's client-executed tool search (``_discover``)

    @classmethod
    def of(cls, ident: Any, name: Any, arguments: Any) -> Call:
        """The call of these fields as a provider sent them, checked."""
        ident = ident if isinstance(ident, str) else ""
        if not isinstance(name, str):
            return cls(ident, "", {}, "the tool call names no tool")
        if isinstance(arguments, str):  # OpenAI sends a JSON string
            try:
                arguments = json.loads(arguments) if arguments.strip() else {}
            except (ValueError, RecursionError) as exc:
                reason = exc if isinstance(exc, ValueError) else "nested too deep"
                return cls(ident, name, {}, f"arguments are not JSON: {reason}")
        if arguments is None:
            arguments = {}
        if not isinstance(arguments, (dict, Mapping)):  # dict first: no ABC check
            return cls(ident, name, {}, "arguments must be a JSON object")
        if not all(isinstance(key, str) for key in arguments):
            return cls(ident, name, {}, "argument names must be strings")
        return cls(ident, name, plain(arguments))


class Outcome(NamedTuple):
    """What running a call gave, for its provider's answer: whether it succeeded, its
    text (the error's, when it failed), its data, and the output schema of the tool
    (a callable tool's, or None)."""

    ok: bool
    text: str
    data: Any = None
    output_schema: Mapping[str, Any] | None = None


def dispatch(
    provider: str, tool_call: Any, confirm: bool | ConfirmPolicy | None = None
) -> dict[str, Any]:
    """Run ``tool_call`` (a dict, or an SDK object with the same fields) and return the
    provider's result message or block for it. ``confirm``: a callable that approves
    (True) or denies a dangerous tool's call, seeing its tool, arguments and reason;
    None asks the policy of ``set_confirm_policy``, and without one the answer is a
    ``confirmation-required`` error. Only an unknown ``provider`` (the host's mistake,
    not the model's) raises."""
    served = _served(provider)
    try:
        call = served.read(plain(tool_call))
    except Exception:  # a call of the wrong shape: say so, never raise
        call = Call("", "", {}, "the tool call does not have the provider's shape")
    try:
        if call.search:  # answered with find_tool's tools, in the provider's shape
            answer = served.found(call, *_discover.search(call.arguments, call.problem))
        else:
            answer = served.answer(call, _run(provider, call, confirm))
    except Exception as exc:
        text = f"internal-error: the call failed ({type(exc).__name__})"
        if call.search:
            answer = served.found(call, [], text)
        else:
            answer = served.answer(call, Outcome(False, text))
    redacted: dict[str, Any] = _secrets.redact(answer)  # what leaves, in one place
    return redacted


_modules: dict[str, ModuleType] = {}


def _served(provider: str) -> ModuleType:
    """The module of this package that reads ``provider``'s calls and answers them
    (``_providers``: each provider's own), imported once."""
    module = _modules.get(provider)
    if module is None:
        if provider not in SERVED:
            raise ValueError(
                f"unknown provider {provider!r}; one of {', '.join(SERVED)}"
            )
        name = f"{PACKAGE}._providers.{SERVED[provider][0]}"
        module = _modules[provider] = importlib.import_module(name)
    return module


def _run(provider: str, call: Call, confirm: bool | ConfirmPolicy | None) -> Outcome:
    if call.problem is not None:
        return Outcome(False, call.problem)
    tool = find(provider, call.name)
    if tool is None:
        return Outcome(False, f"unknown tool {call.name[:200]!r}")
    # The arguments are walked once, by the validation of the call (which refuses
    # them nested too deep): ``without_nulls`` goes no deeper than the schema.
    spec = tool.spec
    if hasattr(spec, "input_schema"):  # a callable tool
        arguments = without_nulls(spec.input_schema, call.arguments)
        result = tool.call_raw(arguments, confirm=confirm)
        if not result.ok:
            assert result.error is not None
            return Outcome(False, f"{result.error.code}: {result.error.message}")
        data = result.data
        text = data if isinstance(data, str) else _JSON.encode(data)
        return Outcome(True, text, data, spec.output_schema)
    named = {k: v for k, v in call.arguments.items() if v is not None}
    problems = task_problems(tool, named)
    if problems:
        text = shortened(problems_text(problems), MESSAGE_LIMIT)
        return Outcome(False, f"invalid-arguments: {text}")
    outcome = tool(**named) if spec.kind == "skill" else tool(named["prompt"])
    if isinstance(outcome, Invocation):
        return Outcome(True, outcome.text)
    text = outcome if isinstance(outcome, str) else _JSON.encode(outcome)
    return Outcome(True, text, outcome)


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
    times the first's), the dotted or the flat one as the provider names tools."""
    table = DOTTED if SERVED[provider][1] == "dotted" else FLAT
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


def plain(value: Any) -> Any:
    """SDK objects (pydantic models) as plain dicts; dicts as they are; anything else
    as an empty dict, so a call of the wrong shape names no tool."""
    if isinstance(value, (dict, Mapping)):
        return dict(value)
    dump = getattr(value, "model_dump", None)
    if callable(dump):
        return dump(by_alias=False, exclude_none=True)
    return {}
