"""The view parts of a callable tool (a manifest's, a skill script's or a built-in): its
module's data, typed by ``pytypes`` (datamodel-code-generator), and its Level 2.

Keyword parameters: required ones first without defaults, optional ones with their JSON
default or ``None``. The function returns the arguments under their original names,
typed with the type of the result's ``data`` (from the output schema); the runtime sends
them and returns a ``ToolResult``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from ..views import pylit, pytypes
from ..ir import Function, Parameter, Tool
from ..names import function_name
from ..views import CallableModule

Typing = Callable[[Mapping[str, Any]], tuple[pytypes.Typed, pytypes.Loosened]]


def module(
    tool: Tool, d: Function, package: str, typing: Typing = pytypes.type_loosely
) -> tuple[CallableModule, tuple[tuple[str, str], ...]]:
    """The module's data, and each property whose type was loosened (its JSON path and
    why): a tool is never lost for typing. ``typing``: ``pytypes.type_loosely``, or
    the build cache's memo of it."""
    typed, loosened = typing(d.input_schema)
    annotations = {p.name: _annotation(p, typed.annotations) for p in tool.parameters}
    signature = tuple(_parameter(p, annotations[p.name]) for p in tool.parameters)
    data = CallableModule(
        qualname=tool.qualname,
        name=d.name,
        summary=tool.summary,
        help=level2_help(tool, d, package, annotations),
        executor=executor(d),
        parameters={p.py_name: p.name for p in tool.parameters},
        input_schema=dict(d.input_schema),
        output_schema=(
            "None"
            if d.output_schema is None
            else pylit.pyvalue(dict(d.output_schema), "    ")
        ),
        skill_dir=d.skill_dir,
        skill=d.skill,
        py_name=tool.py_name,
        returns=output_type(d.output_schema),
        function=function_name(tool.py_name),
        signature=signature,
        docstring=_docstring(tool, d),
        sends=tuple((p.name, p.py_name) for p in tool.parameters),
        typing_names=tuple(sorted({"Any", *typed.typing_names})),
        models=typed.models,
    )
    return data, tuple(loosened)


JSON_TYPES = {
    "string": "str",
    "integer": "int",
    "number": "float",
    "boolean": "bool",
    "null": "None",
    "object": "dict[str, Any]",
}


def output_type(schema: Mapping[str, Any] | None) -> str:
    """The Python type of a result's ``data``: plain JSON types and typed arrays; ``Any``
    for everything a type annotation cannot say plainly."""
    if not schema:
        return "Any"
    kinds = schema.get("type")
    if isinstance(kinds, list) and kinds and all(isinstance(k, str) for k in kinds):
        names = [output_type({**schema, "type": kind}) for kind in kinds]
        return "Any" if "Any" in names else " | ".join(dict.fromkeys(names))
    if kinds == "array":
        items = schema.get("items")
        return f"list[{output_type(items if isinstance(items, Mapping) else None)}]"
    return JSON_TYPES.get(kinds, "Any") if isinstance(kinds, str) else "Any"


def executor(d: Function) -> dict[str, Any]:
    """The executor's settings, with the call policy the runtime applies."""
    result: dict[str, Any] = {"type": d.executor.type, **d.executor.settings}
    if d.timeout_sec is not None:
        result["timeout_sec"] = d.timeout_sec
    if d.retry:
        result["retry"] = dict(d.retry)
    if d.dangerous:
        result["dangerous"] = True
    return result


def _annotation(parameter: Parameter, typed: Mapping[str, str]) -> str:
    """The parameter's type; ``| None`` added when its default is ``None``."""
    annotation = typed.get(parameter.name, "Any")
    if _none_default(parameter) and not _allows_none(annotation):
        annotation += " | None"
    return annotation


def _none_default(parameter: Parameter) -> bool:
    # Mutable defaults stay with the tool: the signature says None, which sends nothing.
    return not parameter.required and (
        parameter.default is None or isinstance(parameter.default, (list, dict))
    )


def _parameter(parameter: Parameter, annotation: str) -> str:
    if parameter.required:
        return f"{parameter.py_name}: {annotation}"
    default = "None" if _none_default(parameter) else pylit.pyvalue(parameter.default)
    return f"{parameter.py_name}: {annotation} = {default}"


def _allows_none(annotation: str) -> bool:
    return annotation == "Any" or annotation.endswith("| None") or annotation == "None"


def _docstring(tool: Tool, d: Function) -> str:
    lines = [" ".join(d.description.split())]
    if tool.parameters:
        lines += ["", "Args:"]
        for p in tool.parameters:
            label = (
                p.py_name
                if p.py_name == p.name
                else f"{p.py_name} (sent as {p.name!r})"
            )
            lines.append(f"    {label}: {p.description or '(no description)'}")
    returns = output_type(d.output_schema)
    lines += ["", f"Returns: ToolResult[{returns}]; its data is the tool's output."]
    return "\n".join(lines)


def level2_help(
    tool: Tool, d: Function, package: str, annotations: Mapping[str, str]
) -> str:
    """Level 2: the full spec of one callable tool, as plain text."""
    lines = [
        f"{tool.qualname}: tool {d.name!r} ({d.executor.type} executor)",
        "",
        d.description.strip(),
        "",
        "Parameters:" if tool.parameters else "Parameters: none",
        *(_parameter_help(p, annotations.get(p.name, "Any")) for p in tool.parameters),
    ]
    returns = f"ToolResult[{output_type(d.output_schema)}]"
    lines += ["", f"Returns: a {returns} (ok, data, error, attempts, latency_ms)."]
    if d.output_schema is not None:
        lines.append(f"Output schema: {json.dumps(d.output_schema, sort_keys=True)}")
    example = ", ".join(f"{p.py_name}=..." for p in tool.parameters if p.required)
    flags = " ".join(f"--{p.name} ..." for p in tool.parameters if p.required)
    lines += [
        "",
        "Usage:",
        f"  {tool.qualname}({example})",
        f"  python -m {package} call {tool.qualname} {flags}".rstrip(),
    ]
    for label, items in (
        ("Examples", d.examples),
        ("Errors", d.errors),
        ("Notes", d.notes),
        ("Triggers", d.triggers),
    ):
        if items:
            lines += ["", f"{label}:", *(f"  {item}" for item in items)]
    lines.append("")
    lines += [f"{label}: {value}" for label, value in _facts(tool, d) if value]
    return "\n".join(lines)


def _parameter_help(p: Parameter, annotation: str) -> str:
    """A parameter's line of Level 2: its type, default and the name it is sent as."""
    if p.required:
        spec = f"{annotation} (required)"
    elif _none_default(p):
        spec = f"{annotation} = None" + (
            f" (the tool's default: {json.dumps(p.default)})"
            if p.default is not None
            else ""
        )
    else:
        spec = f"{annotation} = {json.dumps(p.default)}"
    sent = "" if p.py_name == p.name else f" [sent as {p.name!r}]"
    return f"  {p.py_name}: {spec}{sent}  {p.description}".rstrip()


def _facts(tool: Tool, d: Function) -> list[tuple[str, str]]:
    return [
        ("Aliases", ", ".join(tool.aliases)),
        ("Category", d.category or ""),
        ("Dangerous", "yes" if d.dangerous else ""),
        ("Read-only", "yes" if d.read_only else ""),
        ("Skill", d.skill or ""),
        ("Timeout", f"{d.timeout_sec} s" if d.timeout_sec else ""),
        ("Source", str(d.source)),
    ]
