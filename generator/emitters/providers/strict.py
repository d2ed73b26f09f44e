"""Strict-mode schemas (Anthropic, OpenAI Chat and Responses), by the correct transform:
every object closed with ``additionalProperties: false`` and every property listed in
``required``; a property that was optional becomes nullable, so it stays optional (the
dispatcher turns the null back into an omitted argument). Keywords a provider's strict
subset lacks are removed and reported; a schema that cannot be made strict gets a reason
(providers.md §2.4, §3.3)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

# Keywords no strict subset takes: removed, and reported.
COMMON_UNSUPPORTED = frozenset(
    {
        "default",
        "title",
        "$schema",
        "$id",
        "$comment",
        "examples",
        "minLength",
        "maxLength",
        "patternProperties",
        "propertyNames",
        "unevaluatedProperties",
        "unevaluatedItems",
        "minProperties",
        "maxProperties",
        "contains",
        "minContains",
        "maxContains",
        "uniqueItems",
        "dependentRequired",
        "dependentSchemas",
        "if",
        "then",
        "else",
        "readOnly",
        "writeOnly",
        "deprecated",
    }
)
OPENAI_FORMATS = frozenset(
    {
        "date-time",
        "time",
        "date",
        "duration",
        "email",
        "hostname",
        "ipv4",
        "ipv6",
        "uuid",
    }
)
ANTHROPIC_FORMATS = OPENAI_FORMATS | {"uri"}
ANTHROPIC_UNSUPPORTED = COMMON_UNSUPPORTED | {
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "pattern",
    "maxItems",
}
# Anthropic: at most 16 parameters with unions in one request (every nullable is one).
ANTHROPIC_UNION_LIMIT = 16
OPENAI_DEPTH_LIMIT = 10
OPENAI_PROPERTY_LIMIT = 5000
OPENAI_ENUM_LIMIT = 1000

Removed = Callable[[str, str], None]  # (JSON path, keyword)


class NotStrict(Exception):
    """The schema has no strict form; the message says why."""


def make_strict(
    schema: dict[str, Any], flavor: str, removed: Removed
) -> dict[str, Any]:
    """The strict form for ``flavor`` ("anthropic" or "openai"), or ``NotStrict``;
    ``schema`` is left as it is."""
    walker = _Strict(flavor, removed)
    result = walker.node(schema, "", 0)
    if flavor == "anthropic" and walker.unions > ANTHROPIC_UNION_LIMIT:
        raise NotStrict(
            f"{walker.unions} nullable or union parameters; Anthropic allows "
            f"{ANTHROPIC_UNION_LIMIT} per request"
        )
    if flavor == "openai":
        if walker.properties > OPENAI_PROPERTY_LIMIT:
            raise NotStrict(
                f"{walker.properties} properties; OpenAI allows {OPENAI_PROPERTY_LIMIT}"
            )
        if walker.enums > OPENAI_ENUM_LIMIT:
            raise NotStrict(
                f"{walker.enums} enum values; OpenAI allows {OPENAI_ENUM_LIMIT}"
            )
    return result


class _Strict:
    def __init__(self, flavor: str, removed: Removed) -> None:
        self.flavor = flavor
        self.removed = removed
        self.unsupported = (
            ANTHROPIC_UNSUPPORTED if flavor == "anthropic" else COMMON_UNSUPPORTED
        )
        self.formats = ANTHROPIC_FORMATS if flavor == "anthropic" else OPENAI_FORMATS
        self.unions = 0
        self.properties = 0
        self.enums = 0

    def node(self, schema: Any, path: str, depth: int) -> dict[str, Any]:
        """The strict form of one schema node, a new mapping (the node's own is shared
        with the other providers): checked, pruned of what the subset lacks, its
        keywords checked, its children made strict, its type sure."""
        where = path or "/"
        checked = dict(self._shape(schema, where, depth))
        self._prune(checked, path)
        self._keywords(checked, where)
        self._children(checked, path, depth)
        if not {"type", "anyOf", "enum", "const"} & set(checked):
            raise NotStrict(f"{where} has no type")
        return checked

    def _shape(self, schema: Any, where: str, depth: int) -> dict[str, Any]:
        """A schema strict mode can say something of, not too deep."""
        if schema is True or schema == {}:
            raise NotStrict(
                f"{where} accepts any value, which strict mode cannot express"
            )
        if not isinstance(schema, dict):
            raise NotStrict(f"{where} is not a schema")
        if depth > OPENAI_DEPTH_LIMIT and self.flavor == "openai":
            raise NotStrict(f"nested deeper than {OPENAI_DEPTH_LIMIT} levels")
        return schema

    def _prune(self, schema: dict[str, Any], path: str) -> None:
        """Remove (and report) the keywords and formats the flavour's subset lacks."""
        for key in sorted(set(schema) & self.unsupported):
            del schema[key]
            self.removed(path, key)
        if "format" in schema and schema["format"] not in self.formats:
            del schema["format"]
            self.removed(path, "format")
        if self.flavor == "anthropic" and schema.get("minItems", 0) > 1:
            del schema["minItems"]
            self.removed(path, "minItems")

    def _keywords(self, schema: dict[str, Any], where: str) -> None:
        """oneOf read as anyOf; no allOf or not; enums counted (Anthropic: of scalars)."""
        if "oneOf" in schema:  # every strict subset reads it as anyOf
            schema["anyOf"] = schema.pop("oneOf")
        for key in ("allOf", "not"):
            if key in schema:
                raise NotStrict(
                    f"{where} uses {key}, which strict mode does not support"
                )
        if "enum" in schema:
            self.enums += len(schema["enum"])
            if self.flavor == "anthropic" and any(
                isinstance(v, (dict, list)) for v in schema["enum"]
            ):
                raise NotStrict(f"{where} has an enum of objects or arrays")

    def _children(self, schema: dict[str, Any], path: str, depth: int) -> None:
        """The union's members, the object's properties and the array's items."""
        if "anyOf" in schema:
            self.unions += 1
            schema["anyOf"] = [
                self.node(item, f"{path}/anyOf/{i}", depth + 1)
                for i, item in enumerate(schema["anyOf"])
            ]
        kinds = schema.get("type")
        listed = kinds if isinstance(kinds, list) else [kinds]
        if isinstance(kinds, list) and len(kinds) > 1:
            self.unions += 1
        if "object" in listed or "properties" in schema:
            self.object(schema, path, depth)
        if "array" in listed:
            if not isinstance(schema.get("items"), dict) or not schema["items"]:
                raise NotStrict(f"{path or '/'} is an array without typed items")
        if isinstance(schema.get("items"), dict):
            schema["items"] = self.node(schema["items"], f"{path}/items", depth + 1)
        if "prefixItems" in schema:
            raise NotStrict(f"{path or '/'} is a tuple (prefixItems)")

    def object(self, schema: dict[str, Any], path: str, depth: int) -> None:
        extra = schema.get("additionalProperties")
        properties = schema.get("properties") or {}
        if extra not in (None, False) and not (extra is True and properties):
            raise NotStrict(
                f"{path or '/'} is a free-form object (additionalProperties)"
            )
        if not properties and extra is None and path:
            raise NotStrict(f"{path} is a free-form object")
        required = set(schema.get("required") or [])
        closed: dict[str, Any] = {}
        for name, prop in properties.items():
            self.properties += 1
            strict = self.node(prop, f"{path}/properties/{name}", depth + 1)
            closed[name] = strict if name in required else self.nullable(strict)
        schema["properties"] = closed
        schema["required"] = list(closed)
        schema["additionalProperties"] = False

    def nullable(self, schema: dict[str, Any]) -> dict[str, Any]:
        """Optional stays optional: null is allowed, and means "not given"."""
        kinds = schema.get("type")
        if isinstance(kinds, str) and "enum" not in schema and "anyOf" not in schema:
            if kinds != "null":
                schema["type"] = [kinds, "null"]
                self.unions += 1
            return schema
        if isinstance(kinds, list):
            if "null" not in kinds:
                schema["type"] = [*kinds, "null"]
            if "enum" in schema and None not in schema["enum"]:
                schema["enum"] = [*schema["enum"], None]
            return schema
        self.unions += 1
        return {"anyOf": [schema, {"type": "null"}]}
