"""The annotations of common input schemas, written directly: most real tools take flat
arguments (scalars, enums, lists of them, free-form objects), or objects of those one
level down, and typing those through datamodel-code-generator costs its import (about
half a second) and milliseconds a schema.

``annotate`` answers only for schemas in the small grammar below, with exactly the
annotations and models datamodel-code-generator gives them (a differential test on a
sample, the real corpora's schemas among it, checks this); for anything else it
returns None and ``pytypes`` asks datamodel-code-generator, so there is still one
schema-to-type mapping. The grammar:
properties that are scalars, enums, type lists (``[X, Y, "null"]``), unions of those
with ``null`` or with objects (``anyOf``/``oneOf``), arrays and maps of them, and objects
of such properties, which become models (one level deep: a model's fields hold no model).

Kept after measuring again (issue 40, the build validating with jsonschema-rs):
``python tests/bench.py --only manifests``, 2,000 and 5,000 real function definitions
(the 874 of ../shared/corpus/functions, repeated: 736 distinct schemas, each typed
once), a cold build took 18.1 and 14.7 times the floor without it, 9.8 and 11.5 with it
(13.5 and 8.6 in another run; target: 15); in CPU time, 18.9 and 15.0 against 8.4
and 10.1. datamodel-code-generator takes about 8 ms a schema here: a catalogue of
5,000 distinct schemas would pay about 40 s more.
"""

from __future__ import annotations

import builtins
import keyword
import re
from collections.abc import Mapping
from typing import Any

from ..views import pylit

SCALARS = {"string": "str", "integer": "int", "number": "float", "boolean": "bool"}
# Keywords that do not change a property's annotation (names, docs, value constraints).
_INERT = frozenset(
    {
        "title",
        "description",
        "default",
        "examples",
        "format",
        "$comment",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "multipleOf",
        "minLength",
        "maxLength",
        "pattern",
        "minItems",
        "maxItems",
        "uniqueItems",
    }
)
_TYPING = frozenset({"Any", "Literal", "NotRequired", "Required", "TypedDict"})
_BUILTINS = frozenset(dir(builtins))
# Property names whose model's name is plain CamelCase: parts of letters and digits.
_CAMEL = re.compile(r"^[a-z][a-zA-Z0-9]*(_[a-z][a-zA-Z0-9]*)*$")
# ``optional`` is not JSON Schema; datamodel-code-generator ignores it (real tools have it).
_ROOT = frozenset(
    {"type", "properties", "required", "title", "description", "$schema", "$id"}
    | {"optional"}
)
# A closed object, as MCP servers write it: no change to a TypedDict.
_CLOSED: dict[str, object] = {"not": {}}
# The plurals of an array's property whose item model datamodel-code-generator names
# by dropping the final "s" (it asks ``inflect``): the letters before that "s" (or "es").
_PLURAL = re.compile(r"^(.*[a-z][dgklmnprt])s$|^(.*[a-z][dglmnprt]e)s$")
_IRREGULAR = {"data": "datum"}


class _Models:
    """The models one schema's annotations use, as datamodel-code-generator writes them."""

    def __init__(self) -> None:
        # (property's name, class name, statement): datamodel-code-generator's order
        self.code: list[tuple[str, str, str]] = []
        self.fields: dict[str, list[tuple[str, str]]] = {}  # each class's, typed
        self.used: set[str] = set()  # what they and the annotations import from typing

    def model(self, name: str, node: Mapping[str, Any], owner: str) -> str | None:
        """The model of an object of simple properties, its class named ``name``, for
        the property ``owner``."""
        shape = _object_shape(node)
        if shape is None or not _plain(name) or name == "Arguments":
            return (
                None  # not simple, or a name it would rename or that shadows the root
            )
        properties, required = shape
        fields = []
        for field in sorted(properties):
            inner = _annotation(properties[field], self.used)
            if inner is None or not _kept(field):
                return None
            if field not in required:
                self.used.add("NotRequired")
                inner = f"NotRequired[{inner}]"
            fields.append((_field(field), inner))
        names = [field for field, _ in fields]
        if len(set(names)) < len(names):
            return None
        if not all(_attribute(f) for f in names) and any(
            f.startswith("_") for f in properties
        ):
            return None  # renamed fields and a functional form: left to it
        self.fields[name] = fields
        self.used.add("TypedDict")
        self.code.append((owner, name, _model_code(name, fields)))
        return name

    def property(self, name: str, node: object) -> str | None:
        """A top-level property's annotation, the models it needs added."""
        simple = _annotation(node, self.used)
        if (
            simple is not None
            or not isinstance(node, Mapping)
            or not _CAMEL.match(name)
        ):
            return simple
        keys = set(node) - _INERT
        kind = node.get("type")
        if kind == "object" and "properties" in node and not keys & {"anyOf", "oneOf"}:
            if not node["properties"]:
                return None
            return self.model(_class_name(name), node, name)
        if kind == "array" and keys == {"type", "items"}:
            items = node["items"]
            if not isinstance(items, Mapping):
                return None
            if items.get("type") == "object" and "properties" in items:
                singular = _singular(name)
                model = None if singular is None else self.model(singular, items, name)
                if model is None or not items["properties"]:
                    return None
            else:
                model = self.union(name, items)
            return None if model is None else f"list[{model}]"
        return self.union(name, node)

    def union(self, name: str, node: Mapping[str, Any]) -> str | None:
        """``anyOf``/``oneOf`` of simple schemas and objects: the objects' models are
        named after the property, numbered from the second on."""
        branches = _union_branches(node)
        if branches is None:
            return None
        parts: list[str] = []
        models = 0
        for branch in branches:
            if branch.get("type") == "object" and branch.get("properties"):
                number = str(models) if models else ""
                part = self.model(_class_name(name) + number, branch, name)
                models += 1
            else:
                part = _annotation(branch, self.used)
            if part is None or part in parts or "|" in part or part == "Any":
                return None
            parts.append(part)
        bodies = [self.fields[part] for part in parts if part in self.fields]
        if any(body in bodies[:index] for index, body in enumerate(bodies)):
            return None  # datamodel-code-generator merges equal models
        return _union(parts)


def _object_shape(
    node: Mapping[str, Any],
) -> tuple[Mapping[str, Any], list[str]] | None:
    """An object of properties (closed, or open as TypedDicts are) whose required
    names are among its properties: its properties and required names."""
    keys = set(node) - _INERT
    if node.get("additionalProperties", _CLOSED) != _CLOSED:
        return None
    if not keys - {"additionalProperties"} <= {"type", "properties", "required"}:
        return None
    properties = node.get("properties")
    required = node.get("required", [])
    if not isinstance(properties, Mapping) or not isinstance(required, list):
        return None
    if not all(isinstance(r, str) for r in required):
        return None
    return (properties, required) if set(required) <= set(properties) else None


def _model_code(name: str, fields: list[tuple[str, str]]) -> str:
    """A model's statement: a class, or the functional form when a field's name is
    not an attribute's."""
    if all(_attribute(field) for field, _ in fields):
        lines = [f"    {field}: {inner}" for field, inner in fields]
        return f"class {name}(TypedDict):\n" + "\n".join(lines)
    items = [f"        {pylit.pystr(f)}: {inner}," for f, inner in fields]
    return (
        f"{name} = TypedDict(\n    {pylit.pystr(name)},\n    {{\n"
        + "\n".join(items)
        + "\n    },\n)"
    )


def _union_branches(node: Mapping[str, Any]) -> list[Mapping[str, Any]] | None:
    """The branches of a property that is one ``anyOf`` or ``oneOf`` of two or more
    schemas (of objects alone when it also says ``type: object``)."""
    keys = set(node) - _INERT - {"type"}
    if len(keys) != 1 or not keys <= {"anyOf", "oneOf"}:
        return None
    branches = node[keys.pop()]
    if not isinstance(branches, list) or len(branches) < 2:
        return None
    if not all(isinstance(b, Mapping) for b in branches):
        return None
    objects = all(b.get("type") == "object" for b in branches)
    if node.get("type", "object") != "object" or ("type" in node and not objects):
        return None
    return branches


def annotate(
    schema: Mapping[str, Any],
) -> tuple[dict[str, str], tuple[str, ...], str] | None:
    """Each top-level property's annotation, what they import from typing and the code
    of the models they use; None when a property is outside the grammar."""
    if not set(schema) <= _ROOT or schema.get("type") != "object":
        return None
    properties = schema.get("properties")
    if not isinstance(properties, Mapping):
        return None
    result = {}
    models = _Models()
    # The root's class statement renames a leading "_"; its functional form (a name
    # that is not an identifier) keeps every name.
    field = _field if all(_attribute(name) for name in properties) else str
    for name, prop in properties.items():
        annotation = models.property(name, prop) if _kept(name) else None
        if annotation is None or field(name) in result:
            return None
        result[field(name)] = annotation
    ordered = sorted(models.code, key=lambda model: model[0])  # stable: branches' order
    classes = [name for _, name, _ in ordered]
    fields = {field for typed in models.fields.values() for field, _ in typed}
    if len(set(classes)) < len(classes) or {*result, *fields} & set(classes):
        return None  # datamodel-code-generator renames or merges them
    if classes != sorted(classes):
        return None  # its order is the classes' or the properties': the same here
    code = "\n\n\n".join(code for _, _, code in ordered)
    return result, tuple(sorted(models.used)), code


def _field(name: str) -> str:
    """The field's name in the models: datamodel-code-generator renames a leading ``_``
    (``_from`` becomes ``field_from``)."""
    return "field" + name if name.startswith("_") else name


def _class_name(name: str) -> str:
    return "".join(part[:1].upper() + part[1:] for part in name.split("_"))


def _singular(name: str) -> str | None:
    """The class of an array's item model: its property's name in the singular, as
    datamodel-code-generator makes it (None for a plural it may read otherwise)."""
    head, _, last = name.rpartition("_")
    if last in _IRREGULAR:
        return _class_name(head + "_" * bool(head) + _IRREGULAR[last])
    match = _PLURAL.match(name)
    if match is None:
        return None
    return _class_name(match.group(1) or match.group(2))


def _plain(name: str) -> bool:
    """A class's name that stays as it is."""
    return (
        _kept(name)
        and name.isidentifier()
        and name.isascii()
        and not keyword.iskeyword(name)
        and name not in _BUILTINS
    )


def _attribute(name: str) -> bool:
    """A field a model's class statement holds as it is (else the functional form)."""
    return name.isidentifier() and name.isascii() and not keyword.iskeyword(name)


def _kept(name: str) -> bool:
    """Whether datamodel-code-generator keeps the name's annotation as it is: a field
    named like a typing name renames that name (``Any_aliased``); a name that starts
    with ``_`` becomes ``field_...`` (``_field``), which must stay an identifier."""
    if name.startswith("_"):
        return name.isidentifier() and name.isascii()
    return name[:1].isascii() and name[:1].isalpha() and name not in _TYPING


def _annotation(node: object, used: set[str]) -> str | None:
    """The annotation of one simple schema (no models); ``used`` collects the typing
    names."""
    if not isinstance(node, Mapping):
        return None
    keys = set(node) - _INERT
    kind = node.get("type")
    if "enum" in node:
        return _enum(node, keys, used)
    if keys == {"type"} and isinstance(kind, list):
        return _type_list(kind)
    if kind == "array" and keys <= {"type", "items"}:
        inner = _annotation(node["items"], used) if "items" in node else _any(used)
        return None if inner is None else f"list[{inner}]"
    if kind == "object":
        return _free_object(node, keys, used)
    if keys == {"type"} and isinstance(kind, str):
        return SCALARS.get(kind)
    if keys <= {"anyOf", "oneOf"} and len(keys) == 1:
        return _nullable(node[keys.pop()], used)
    return _any(used) if not keys else None


def _enum(node: Mapping[str, Any], keys: set[str], used: set[str]) -> str | None:
    kind = node.get("type")
    scalar = kind is None or kind in SCALARS
    literal = _literal(node["enum"]) if scalar and keys <= {"type", "enum"} else None
    if literal is not None:
        used.add("Literal")
    return literal


def _free_object(node: Mapping[str, Any], keys: set[str], used: set[str]) -> str | None:
    """A map (``additionalProperties``) or an object of no properties: a dict."""
    if keys <= {"type", "required", "additionalProperties"}:
        values = node.get("additionalProperties", True)
        if "required" in keys and "additionalProperties" in keys:
            return None
        value = _annotation(values, used) if isinstance(values, Mapping) else _any(used)
        return None if value is None else f"dict[str, {value}]"
    if keys == {"type", "properties"} and not node["properties"]:
        return f"dict[str, {_any(used)}]"
    return None


def _any(used: set[str]) -> str:
    used.add("Any")
    return "Any"


def _literal(values: object) -> str | None:
    """An enum of strings, or of integers, whatever the type it says."""
    if not isinstance(values, list) or not values:
        return None
    if all(isinstance(v, str) for v in values):
        return f"Literal[{', '.join(pylit.pystr(v) for v in values)}]"
    if all(type(v) is int for v in values):
        return f"Literal[{', '.join(str(v) for v in values)}]"
    return None


def _type_list(kinds: list[object]) -> str | None:
    """``["string", "number"]``: the scalars in order, ``None`` last."""
    if not all(isinstance(k, str) for k in kinds) or len(set(kinds)) < len(kinds):
        return None
    scalars = [SCALARS.get(str(k)) for k in kinds if k != "null"]
    if None in scalars:
        return None
    return _union([s for s in scalars if s] + (["None"] if "null" in kinds else []))


def _nullable(branches: object, used: set[str]) -> str | None:
    """``anyOf``/``oneOf`` of one simple schema and ``null`` (either order)."""
    if not isinstance(branches, list) or len(branches) != 2:
        return None
    null = [b == {"type": "null"} for b in branches]
    if null.count(True) != 1:
        return None
    inner = _annotation(branches[null.index(False)], used)
    if inner is None or "|" in inner or inner == "Any":
        return None
    return f"{inner} | None"


def _union(parts: list[str]) -> str | None:
    return " | ".join(parts) if len(parts) > 1 else None
