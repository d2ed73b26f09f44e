"""A tool manifest's ``examples`` written as calls of the tool (``s3.file.read(bucket=
"logs", key="a.json")``), read as the input each one sends and checked against the
tool's input schema: Anthropic's ``input_examples``, which the API rejects unless each
one is valid.

The text is parsed (``ast``), never run: only keyword arguments with literal values
are read. An example that is not a call of the tool (prose, a shell line) is left as
text; one that calls it with arguments that cannot be read, or that the schema
rejects, is an ``invalid-example`` error at the example.
"""

from __future__ import annotations

import ast
import json
from collections.abc import Collection, Mapping
from typing import Any

from ..loaders import manifest, validation
from ..names import PARAMETER_RESERVED, identifier

MAX_CHARS = 10_000  # longer text is not read as a call


def inputs(
    doc: manifest.Manifest,
    at: manifest.JsonPath,
    examples: tuple[str, ...],
    names: Collection[str],
    schema: Mapping[str, Any],
) -> tuple[dict[str, Any], ...] | None:
    """The input of each example that calls the tool (by one of ``names``); None when
    one of them is invalid (each such one reported)."""
    properties = schema.get("properties")
    declared = list(properties) if isinstance(properties, Mapping) else []
    sent: dict[str, str] = {
        identifier(name, PARAMETER_RESERVED): name for name in declared
    }
    sent |= {name: name for name in declared}  # a property's own name wins
    result, ok = [], True
    for index, text in enumerate(examples):
        call = _call(text, names)
        if call is None:
            continue
        problem, arguments = _arguments(call, sent)
        if problem is None:
            try:
                problem = _invalid(schema, arguments)
            except Exception:  # noqa: BLE001 - a pattern jsonschema-rs cannot compile
                continue
        if problem is not None:
            doc.error((*at, index), "invalid-example", f"{text[:200]!r}: {problem}")
            ok = False
            continue
        result.append(arguments)
    return tuple(result) if ok else None


def _call(text: str, names: Collection[str]) -> ast.Call | None:
    """The call ``text`` writes, when it is one of a tool named in ``names``."""
    if len(text) > MAX_CHARS:
        return None
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    call = tree.body
    if not isinstance(call, ast.Call):
        return None
    parts = []
    func: ast.expr = call.func
    while isinstance(func, ast.Attribute):
        parts.append(func.attr)
        func = func.value
    if not isinstance(func, ast.Name):
        return None
    dotted = ".".join([func.id, *reversed(parts)])
    return call if dotted in names else None


def _arguments(
    call: ast.Call, sent: Mapping[str, str]
) -> tuple[str | None, dict[str, Any]]:
    """The arguments of ``call`` by the names a call sends, or what is wrong."""
    if call.args:
        return "name each argument (name=value): the tool takes keywords only", {}
    arguments: dict[str, Any] = {}
    for keyword in call.keywords:
        if keyword.arg is None:
            return "name each argument (name=value), without **", {}
        try:
            value = ast.literal_eval(keyword.value)
            value = json.loads(json.dumps(value, allow_nan=False))
        except (ValueError, TypeError, SyntaxError, RecursionError, MemoryError):
            return f"{keyword.arg}: not a JSON value written as a Python literal", {}
        if keyword.arg not in sent:
            known = ", ".join(sorted(set(sent.values()))) or "none"
            return f"{keyword.arg} is not a parameter (parameters: {known})", {}
        arguments[sent[keyword.arg]] = value
    return None, arguments


def _invalid(schema: Mapping[str, Any], arguments: dict[str, Any]) -> str | None:
    """Why the input schema rejects ``arguments`` (None: it takes them), as Draft
    2020-12 reads it (the normaliser's reading), with patterns that cannot hang the
    build (``validation``): an example and a pattern both come from the manifest's
    author, and ``^(a+)+$`` against forty ``a`` and a ``b`` backtracks for hours."""
    found = validation.first_problem(schema, arguments)
    if found is None:
        return None
    where = "/".join(str(part) for part in found[0]) or "the input"
    return f"{where}: {found[1][:300]}"
