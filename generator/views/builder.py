"""The view builder: one ``ToolView`` per tool of the model. The only module that asks
whether a tool is a skill, subagent or command (a ``Definition``) or a callable tool (a
``Function``); everything after it reads the view's fields."""

from __future__ import annotations

import dataclasses
import json
import shlex
from collections.abc import Callable
from typing import Any

from ..ir import (
    CliExecutor,
    Definition,
    Function,
    HttpExecutor,
    Kind,
    Model,
    PythonExecutor,
    Tool,
)
from ..names import function_name
from ..views import (
    AgentSkill,
    CallableModule,
    PackageView,
    TaskModule,
    ToolView,
    callables,
    pytypes,
    seed_metadata,
    tasks,
)

ROOT_UNIONS = ("anyOf", "oneOf", "allOf")
IDEMPOTENT_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "TRACE", "PUT", "DELETE"})


def build(
    tool: Tool,
    package: str,
    count: Callable[[str], int],
    typing: callables.Typing = pytypes.type_loosely,
) -> ToolView:
    """The tool's view; ``count`` counts tokens, ``typing`` types an input schema."""
    d = tool.definition
    leaf = tool.qualname.rpartition(".")[2]
    body: TaskModule | CallableModule
    meta = seed_metadata.metadata(tool)
    if isinstance(d, Function):
        body, loosened = callables.module(tool, d, package, typing)
        loaded = body.help
        extra = _callable_fields(tool, d)
    else:
        body, loosened = tasks.module(tool, d, package, meta), ()
        loaded = "\n".join([body.help, d.body, *d.files])  # what a call loads
        extra = _task_fields(tool, d, meta)
    schema = extra.pop("input_schema")
    level1 = f"{tool.qualname}: {tool.summary}"
    module = ".".join((*tool.namespace, f"_{tool.py_name}"))
    forms = {tool.qualname, leaf, d.name}
    return ToolView(
        qualname=tool.qualname,
        namespace=tool.namespace,
        py_name=tool.py_name,
        function=function_name(tool.py_name),
        module=module,
        module_path=module.replace(".", "/") + ".py",
        name=d.name,
        kind=d.kind.value,
        summary=tool.summary,
        source=d.source,
        offered=tool.model_invocable,
        aliases=tool.aliases,
        previous=seed_metadata.previous_names(d),
        provider_name=tool.provider_name,
        dotted_name=tool.dotted_name,
        python_path=f"{package}.{tool.qualname}",
        parameters=tool.parameters,
        input_schema=schema,
        schema_problem=root_problem(schema),
        search_fields=search_fields(tool),
        name_forms=tuple(
            form
            for form in sorted({f.lower() for f in (*forms, *tool.aliases)})
            if any(mark in form for mark in "._-")
        ),
        tokens=(count(level1), count(loaded)),
        metadata=meta,
        body=body,
        loosened=loosened,
        **extra,
    )


def search_fields(tool: Tool) -> dict[str, str]:
    """The text of each field find_tool ranks by (field codes as in ``_terms.FIELDS``)."""
    d = tool.definition
    namespace, _, leaf = tool.qualname.rpartition(".")
    name = " ".join([leaf, d.name, *tool.aliases])
    if isinstance(d, Function):
        triggers = " ".join(d.triggers)
        tags = d.category or ""
        parameters = " ".join(f"{p.name} {p.description}" for p in tool.parameters)
        examples = " ".join(d.examples)
    else:
        triggers = str(d.extra.get("when_to_use") or "")
        tags = " ".join(d.tags)
        parameters = " ".join(a.name for a in tool.arguments)
        examples = d.argument_hint or ""
    return {
        "n": name,
        "t": triggers,
        "g": tags,
        "s": namespace,
        "d": d.description,
        "p": parameters,
        "e": examples,
    }


def _callable_fields(tool: Tool, d: Function) -> dict[str, Any]:
    schema = dict(d.input_schema)  # a new root; its children are never changed
    schema.setdefault("properties", {})
    report: dict[str, Any] = {
        "name": tool.qualname,
        "kind": d.kind.value,
        "source_name": d.name,
        "source": d.source.path,
        "origin": d.origin,
        "executor": d.executor.type,
    }
    if tool.aliases:
        report["aliases"] = list(tool.aliases)
    if d.author_schema and d.author_schema != d.input_schema:
        # What the author wrote, beside the normalised schema the code uses.
        report["author_schema"] = d.author_schema
    hints = {"readOnlyHint": bool(d.read_only)}
    if not d.read_only:
        hints["destructiveHint"] = d.dangerous
        idempotent = _idempotent(d)
        if idempotent is not None:
            hints["idempotentHint"] = idempotent
    hints["openWorldHint"] = d.executor.type == "http"
    return {
        "task_call": "",
        "tool_call": _runnable_call(tool, schema["properties"]),
        "category": d.category,
        "claude_native": False,
        "python_module": (
            d.executor.function.split(":")[0]
            if isinstance(d.executor, PythonExecutor)
            else None
        ),
        "description": d.description.strip(),
        "input_schema": schema,
        "output_schema": d.output_schema,
        "hints": hints,
        "input_examples": d.input_examples,
        "icons": tuple(dict(icon) for icon in d.icons),
        "report": report,
        "ai_tool": _ai_tool(tool, d),
        "ai_skill": None,
        "agent_skill": None,
    }


def _idempotent(d: Function) -> bool | None:
    """Whether a repeated call changes nothing more: as the manifest says, else as
    HTTP says of the request's method (RFC 9110 §9.2.2); None when not known."""
    if d.idempotent is not None:
        return d.idempotent
    if isinstance(d.executor, HttpExecutor):
        return d.executor.method.upper() in IDEMPOTENT_METHODS
    return None


def _ai_tool(tool: Tool, d: Function) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """An ai-tool.yaml command's tool and its entry in ``ai-tools.json``."""
    if d.cli_tool is None or not isinstance(d.executor, CliExecutor):
        return None
    command: dict[str, Any] = {
        "id": d.name,
        "description": d.description,
        "cli_command": shlex.join(d.executor.command),
    }
    if d.triggers:
        command["triggers"] = list(d.triggers)
    if d.author_schema.get("parameters"):  # as the manifest gives them
        command["parameters"] = d.author_schema["parameters"]
    if d.examples:
        command["examples"] = list(d.examples)
    command["dangerous"] = d.dangerous
    command["tool"] = tool.qualname  # skillc's addition: the generated tool
    return dict(d.cli_tool), command


def _task_fields(
    tool: Tool, d: Definition, meta: dict[str, str | list[str]]
) -> dict[str, Any]:
    report: dict[str, Any] = {
        "name": tool.qualname,
        "kind": d.kind.value,
        "source_name": d.name,
        "source": d.source.path,
    }
    # Recorded only when set: out of provider files and find_tool; hidden from /menus.
    if not d.model_invocable:
        report["disable_model_invocation"] = True
    if not d.user_invocable:
        report["user_invocable"] = False
    parts = d.source.path.split("/")
    return {
        "task_call": tool.qualname,
        "tool_call": "",
        "category": None,
        "claude_native": any(
            part == ".claude" and next_ in ("skills", "agents", "commands")
            for part, next_ in zip(parts, parts[1:])
        ),
        "python_module": None,
        "description": " ".join(d.description.split()),
        "input_schema": _task_schema(tool, d),
        "output_schema": None,
        # A skill or subagent only returns instructions.
        "hints": {"readOnlyHint": True, "openWorldHint": False},
        "input_examples": (),
        "icons": (),
        "report": report,
        "ai_tool": None,
        "ai_skill": _ai_skill(d, meta),
        "agent_skill": (
            AgentSkill(d.skill_dir, d.frontmatter)
            if d.kind is Kind.SKILL and d.skill_dir is not None
            else None
        ),
    }


def _runnable_call(tool: Tool, properties: dict[str, Any]) -> str:
    """The tool's call from the shell, each required option given a value its schema
    offers (an example, the default, the first enum value) or else a quoted
    placeholder (``'<name>'``): valid shell either way, never a redirection."""
    flags = [
        f"--{shlex.quote(p.name)} "
        + shlex.quote(_example_value(properties.get(p.name)) or f"<{p.name}>")
        for p in tool.parameters
        if p.required
    ]
    return " ".join((tool.qualname, *flags))


def _example_value(schema: Any) -> str | None:
    """A value the schema offers for a property, as the shell gives it to ``call``."""
    if not isinstance(schema, dict):
        return None
    for key in ("examples", "default", "enum", "const"):
        if key not in schema:
            continue
        value = schema[key]
        if key in ("examples", "enum"):
            if not isinstance(value, list) or not value:
                continue
            value = value[0]
        return value if isinstance(value, str) else json.dumps(value)
    return None


def _ai_skill(d: Definition, meta: dict[str, str | list[str]]) -> dict[str, Any] | None:
    """A task tool offered to models that sets seed 000's metadata (``meta``): its
    entry."""
    if not d.model_invocable or not meta:
        return None
    return {
        "name": d.name,
        "kind": d.kind.value,
        "description": d.description,
        **meta,
        "source": d.source.path,
    }


def _task_schema(tool: Tool, d: Definition) -> dict[str, Any]:
    """A skill takes ``arguments`` and its named arguments; a subagent ``prompt``."""
    if d.kind is Kind.AGENT:
        return {
            "type": "object",
            "properties": {
                "prompt": {
                    "type": "string",
                    "description": "The task for the subagent.",
                }
            },
            "required": ["prompt"],
        }
    hint = f" ({d.argument_hint})" if d.argument_hint else ""
    properties: dict[str, Any] = {
        "arguments": {
            "type": "string",
            "description": f"The text after the skill's name{hint}.",
        }
    }
    for index, argument in enumerate(tool.arguments):
        properties[argument.py_name] = {
            "type": "string",
            "description": f"Argument ${argument.name} (position {index}).",
        }
    return {"type": "object", "properties": properties}


def root_problem(schema: dict[str, Any]) -> str | None:
    """Every provider needs an object root, and Anthropic and OpenAI strict reject a
    union at the root (providers.md §2.3, §3.3)."""
    if schema.get("type") != "object":
        return "the input schema's root is not an object"
    unions = [key for key in ROOT_UNIONS if key in schema]
    if unions:
        return f"the input schema's root is a union ({', '.join(unions)})"
    return None


def package(model: Model, tools: tuple[ToolView, ...]) -> PackageView:
    """The model with each tool's view in place of the tool."""
    rest = {f.name: getattr(model, f.name) for f in dataclasses.fields(PackageView)}
    return PackageView(**(rest | {"tools": tools}))
