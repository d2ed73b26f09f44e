"""Python types for a tool's input schema, by datamodel-code-generator.

Simple schemas (flat scalars, enums, lists) are typed directly by ``pytypes_simple``,
with the annotations datamodel-code-generator would give them. Any other input schema
goes through datamodel-code-generator once, with pinned options, as
``TypedDict`` models: nested objects become models of their own, enums ``Literal[...]``,
arrays ``list[...]``, nullable types ``X | None``, free-form objects ``dict[str, Any]``. The
root model's fields give the keyword parameters' annotations, so there is one schema-to-type
mapping, not two. Its code is re-emitted in black's style (see ``pylit``).
"""

from __future__ import annotations

import ast
import copy
import dataclasses
import json
import warnings
from collections.abc import Callable, Mapping
from typing import Any

from ..views import pylit, pytypes_simple

ROOT = "Arguments"
# Keywords that only shape names or formats in the generated models; arguments are JSON.
_DROPPED = ("title", "format", "$schema", "$id", "$comment")
_SCHEMA_LISTS = ("anyOf", "oneOf", "allOf", "prefixItems")
_SCHEMA_VALUES = ("items", "additionalProperties", "not", "contains")
_WRAPPERS = frozenset({"NotRequired", "Required"})


class TypingError(Exception):
    """datamodel-code-generator could not type a schema (a message for the author)."""


@dataclasses.dataclass(frozen=True, slots=True)
class Typed:
    models: str  # module-level code of the nested models ("" when there are none)
    typing_names: tuple[str, ...]  # what it and the annotations import from typing
    annotations: Mapping[str, str]  # top-level property name -> annotation source


def type_schema(schema: Mapping[str, Any]) -> Typed:
    """Annotations for each top-level property and the models they use."""
    simple = _simple(schema)
    return _type_by_codegen(schema) if simple is None else simple


def _simple(schema: Mapping[str, Any]) -> Typed | None:
    """``type_schema`` without datamodel-code-generator, when it can (else None)."""
    if not schema.get("properties"):
        return Typed("", (), {})
    simple = pytypes_simple.annotate(schema)
    return None if simple is None else Typed(simple[2], simple[1], simple[0])


def _type_by_codegen(schema: Mapping[str, Any]) -> Typed:
    """``type_schema`` by datamodel-code-generator (its output re-emitted)."""
    source = _generate(_for_codegen(schema))
    tree = ast.parse(source)
    imports: set[str] = set()
    models: list[str] = []
    annotations: dict[str, str] = {}
    for statement in tree.body:
        if isinstance(statement, ast.ImportFrom):
            if statement.module not in ("__future__", "typing"):
                raise TypingError(
                    f"the schema needs types from {statement.module}, which skillc does not support"
                )
            if statement.module == "typing":
                imports.update(alias.name for alias in statement.names)
            continue
        if _defines(statement) == ROOT:
            annotations = dict(_fields(statement))
            continue
        models.append(_statement(statement))
    used = {name for text in [*models, *annotations.values()] for name in _names(text)}
    return Typed(
        "\n\n\n".join(models),
        tuple(sorted(imports & used)),
        annotations,
    )


Loosened = list[tuple[str, str]]  # a loosened property's JSON path, and why
Typing = tuple[Typed, Loosened]


def type_loosely(
    schema: Mapping[str, Any], hard: Callable[[dict[str, Any]], Typing] | None = None
) -> Typing:
    """``type_schema``, but a tool is never lost for typing: when the whole schema cannot
    be typed, the properties that cannot be typed alone get a looser type
    (``dict[str, Any]``, ``list[Any]`` or ``Any``) and the others are typed together (or,
    if that still fails, each alone or loosely too). Returns the types and, for each
    loosened property, its JSON path and the reason. ``hard``: what does so for a
    schema ``pytypes_simple`` cannot type (``type_hard``; the pipeline keeps its
    answers, a simple schema's are too quick to be worth keeping)."""
    simple = _simple(schema)
    return (simple, []) if simple is not None else (hard or type_hard)(dict(schema))


def type_hard(schema: dict[str, Any]) -> Typing:
    """``type_loosely`` by datamodel-code-generator."""
    try:
        return type_schema(schema), []
    except Exception as exc:  # noqa: BLE001 - datamodel-code-generator's errors vary
        whole = _reason(exc)
    properties: dict[str, Any] = dict(schema.get("properties") or {})
    reasons: dict[str, str] = {}
    alone: dict[str, Typed] = {}
    for name, prop in properties.items():
        try:
            alone[name] = type_schema({"type": "object", "properties": {name: prop}})
        except Exception as exc:  # noqa: BLE001
            reasons[name] = _reason(exc)
    try:
        rest = {k: v for k, v in properties.items() if k not in reasons}
        typed = type_schema({**schema, "properties": rest})
    except Exception:  # noqa: BLE001 - then only what types alone, without models
        typed = Typed("", (), {})
        for name, one in alone.items():
            if one.models or name not in one.annotations:
                reasons[name] = "its types need models of their own; " + whole
            else:
                typed = Typed(
                    "",
                    tuple(sorted({*typed.typing_names, *one.typing_names})),
                    {**typed.annotations, name: one.annotations[name]},
                )
    annotations = dict(typed.annotations)
    loosened = []
    for name in properties:
        if name not in reasons:
            continue
        prop = properties[name]
        kind = prop.get("type") if isinstance(prop, Mapping) else None
        loose = {"object": "dict[str, Any]", "array": "list[Any]"}.get(str(kind), "Any")
        annotations[name] = loose
        loosened.append((f"properties.{name}", f"typed as {loose}: {reasons[name]}"))
    return dataclasses.replace(typed, annotations=annotations), loosened


def _reason(exc: Exception) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text if len(text) <= 200 else text[:199] + "…"


def _generate(schema: dict[str, Any]) -> str:
    from datamodel_code_generator import LiteralType, PythonVersion, generate
    from datamodel_code_generator.enums import DataModelType, InputFileType

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = generate(
            json.dumps(schema, sort_keys=True),
            input_file_type=InputFileType.JsonSchema,
            output_model_type=DataModelType.TypingTypedDict,
            target_python_version=PythonVersion.PY_311,
            disable_timestamp=True,
            enum_field_as_literal=LiteralType.All,
            use_union_operator=True,
            use_standard_collections=True,
            use_schema_description=False,
            use_field_description=False,
            formatters=[],
            class_name=ROOT,
        )
    if not isinstance(result, str):
        raise TypingError("the schema needs more than one module of types")
    return result


def _for_codegen(schema: Mapping[str, Any]) -> dict[str, Any]:
    """A copy without the keywords that only name or format things."""
    result = copy.deepcopy(dict(schema))
    stack = [result]
    while stack:
        node = stack.pop()
        for key in _DROPPED:
            node.pop(key, None)
        node.pop("default", None)  # defaults are the signature's business
        for key in ("properties", "patternProperties"):
            if isinstance(node.get(key), dict):
                stack.extend(v for v in node[key].values() if isinstance(v, dict))
        for key in _SCHEMA_VALUES:
            if isinstance(node.get(key), dict):
                stack.append(node[key])
        for key in _SCHEMA_LISTS:
            if isinstance(node.get(key), list):
                stack.extend(v for v in node[key] if isinstance(v, dict))
    result["title"] = ROOT
    return result


def _defines(statement: ast.stmt) -> str | None:
    if isinstance(statement, ast.ClassDef):
        return statement.name
    if isinstance(statement, (ast.Assign, ast.AnnAssign)):
        target = (
            statement.targets[0]
            if isinstance(statement, ast.Assign)
            else statement.target
        )
        if isinstance(target, ast.Name):
            return target.id
    return None


def _fields(statement: ast.stmt, strip: bool = True) -> list[tuple[str, str]]:
    """(name, annotation) of a TypedDict, class-based or functional; ``strip`` drops
    ``NotRequired``/``Required``."""
    annotation = _annotation if strip else _expr
    if isinstance(statement, ast.ClassDef):
        return [
            (item.target.id, annotation(item.annotation))
            for item in statement.body
            if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name)
        ]
    if isinstance(statement, ast.Assign) and isinstance(statement.value, ast.Call):
        table = statement.value.args[1]
        if isinstance(table, ast.Dict):
            return [
                (key.value, annotation(value))
                for key, value in zip(table.keys, table.values)
                if isinstance(key, ast.Constant) and isinstance(key.value, str)
            ]
    raise TypingError(f"unexpected generated code: {ast.unparse(statement)}")


def _annotation(node: ast.expr) -> str:
    """An annotation without NotRequired/Required, in black's style."""
    if (
        isinstance(node, ast.Subscript)
        and isinstance(node.value, ast.Name)
        and node.value.id in _WRAPPERS
    ):
        node = node.slice
    return _expr(node)


def _expr(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return f"{_expr(node.value)}.{node.attr}"
    if isinstance(node, ast.Constant):
        return (
            pylit.pystr(node.value) if isinstance(node.value, str) else repr(node.value)
        )
    if isinstance(node, ast.Subscript):
        return f"{_expr(node.value)}[{_expr(node.slice)}]"
    if isinstance(node, ast.Tuple):
        return ", ".join(_expr(item) for item in node.elts)
    if (
        isinstance(node, ast.UnaryOp)
        and isinstance(node.op, ast.USub)
        and isinstance(node.operand, ast.Constant)
    ):
        return f"-{_expr(node.operand)}"
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return f"{_expr(node.left)} | {_expr(node.right)}"
    raise TypingError(f"unexpected generated annotation: {ast.unparse(node)}")


def _statement(statement: ast.stmt) -> str:
    """A nested model or alias, in black's style (the formatter pass fixes long lines)."""
    name = _defines(statement)
    if isinstance(statement, ast.ClassDef):
        fields = [
            f"    {field}: {annotation}"
            for field, annotation in _fields(statement, False)
        ]
        return f"class {name}(TypedDict):\n" + ("\n".join(fields) or "    pass")
    if isinstance(statement, ast.Assign) and isinstance(statement.value, ast.Call):
        items = [
            f"        {pylit.pystr(field)}: {annotation},"
            for field, annotation in _fields(statement, False)
        ]
        return (
            f"{name} = TypedDict(\n    {pylit.pystr(str(name))},\n    {{\n"
            + "\n".join(items)
            + "\n    },\n)"
        )
    if isinstance(statement, ast.AnnAssign) and statement.value is not None:
        return f"{name}: {_expr(statement.annotation)} = {_expr(statement.value)}"
    if isinstance(statement, ast.Assign):
        return f"{name} = {_expr(statement.value)}"
    raise TypingError(f"unexpected generated code: {ast.unparse(statement)}")


def _names(text: str) -> set[str]:
    return {
        node.id
        for node in ast.walk(ast.parse(text or "pass"))
        if isinstance(node, ast.Name)
    }
