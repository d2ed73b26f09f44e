"""Real-world input schemas, made standard JSON Schema.

Tool definitions in the wild (``../shared/corpus/README.md``) use types JSON Schema does
not have (``dict``, ``float``, ``str``, ``any``, ``tuple``, ``String``), ``optional:
true``, per-property ``required: true``, ``required`` lists naming missing properties,
OpenAPI's ``nullable``, defaults of the wrong type and ``$ref`` into
``#/properties/...``. Each that has one clear meaning is rewritten, with a warning naming
its JSON path; what has none is an error (``schema_coerce`` holds the readings of type
names and of defaults). The result has no ``$ref`` left (local references are inlined),
so every consumer sees one self-contained schema. The author's schema is never modified.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from typing import Any

from ..loaders import validation
from ..loaders.schema_coerce import ANY_TYPES, NOTHING, TYPE_ALIASES, coerce

Path = tuple[str | int, ...]
# (severity "warning" or "error", JSON path inside the schema, message)
Complaint = Callable[[str, Path, str], None]

# Where a schema keeps its own boolean required (Draft 3) for its parent to read.
OWN_FLAG = "\0required"
# Drafts older than 2020-12 whose forms are rewritten (boolean exclusiveMinimum, ...).
LEGACY_DRAFTS = ("draft-03", "draft-04", "draft-06", "draft-07", "2019-09")
# Inlining references is bounded: a schema that expands past this many nodes is refused.
MAX_NODES = 20_000


class _TooLarge(Exception):
    pass


def normalise(schema: Any, complain: Complaint) -> dict[str, Any] | None:
    """The standard form of an input schema, or None when it has an error."""
    if schema is None:
        return {"type": "object", "properties": {}}
    if not isinstance(schema, Mapping):
        complain("error", (), "an input schema must be a mapping (a JSON object)")
        return None
    errors: list[str] = []

    def note(severity: str, path: Path, message: str) -> None:
        if severity == "error":
            errors.append(message)
        complain(severity, path, message)

    walker = _Walker(schema, note)
    draft = schema.get("$schema")
    if isinstance(draft, str) and any(d in draft for d in LEGACY_DRAFTS):
        note("warning", ("$schema",), f"a {draft} schema is read as 2020-12")
    try:
        result = walker.node(copy.deepcopy(dict(schema)), (), ())
    except _TooLarge:
        complain("error", (), f"the schema expands past {MAX_NODES} nodes")
        return None
    if errors or not isinstance(result, dict):
        return None
    if isinstance(draft, str) and any(d in draft for d in LEGACY_DRAFTS):
        del result["$schema"]
    walker.loose_flag(result, ())
    if result.get("type") is None and "properties" in result:
        note("warning", ("type",), "the root has properties but no type: object")
        result["type"] = "object"
    if result.get("type") != "object":
        note(
            "error",
            ("type",),
            f"the root of an input schema must be of type object, not {result.get('type')!r}",
        )
        return None
    result.setdefault("properties", {})
    if not check(result, (), note):
        return None
    return result


def check(schema: Mapping[str, Any], path: Path, complain: Complaint) -> bool:
    """Validate a schema against its meta-schema (2020-12 unless it names another)."""
    found = validation.meta_problems(schema)
    if found is None:
        uri = schema.get("$schema")
        complain("error", (*path, "$schema"), f"unknown $schema {uri!r}")
        return False
    for where, problem in found:
        complain("error", (*path, *where), f"not a valid JSON Schema: {problem}")
    return not found


class _Walker:
    def __init__(self, root: Mapping[str, Any], complain: Complaint) -> None:
        self.root = root
        self.complain = self.loud = complain
        self.nodes = 0

        def quiet(severity: str, path: Path, message: str) -> None:
            if severity == "error":
                complain(severity, path, message)

        self.quiet: Complaint = quiet

    def warn(self, path: Path, message: str) -> None:
        self.complain("warning", path, message)

    def node(self, schema: Any, path: Path, refs: tuple[str, ...]) -> Any:
        if refs and self.complain is not self.quiet:
            # Inlined content: its warnings were given where it is defined.
            loud, self.complain = self.complain, self.quiet
            try:
                return self.node(schema, path, refs)
            finally:
                self.complain = loud
        self.nodes += 1
        if self.nodes > MAX_NODES:
            raise _TooLarge
        if isinstance(schema, bool):
            return {} if schema else {"not": {}}
        if not isinstance(schema, dict):
            self.complain("error", path, "a schema must be a mapping")
            return {}
        if "$ref" in schema:
            while "$ref" in schema:
                schema = self.inline(schema, path, refs)
                refs = (*refs, str(schema.pop("\0ref", "")))
            return self.node(schema, path, refs)
        self.legacy(schema, path)
        own_flag = self.own_flag(schema, path)
        self.rewrite(schema, path)
        self.children(schema, path, refs)
        if isinstance(schema.get("properties"), dict):
            self.required(schema, path)
        if "default" in schema:
            self.default(schema, path)
        schema.pop("$defs", None)  # every reference into them is inlined by now
        schema.pop("definitions", None)
        if own_flag is not None:
            schema[OWN_FLAG] = own_flag
        return schema

    def own_flag(self, schema: dict[str, Any], path: Path) -> bool | None:
        """A property's own required: true (Draft 3), taken out: its parent's to read."""
        flag = schema.pop("required", None)
        if isinstance(flag, str) and flag.lower() in ("true", "false"):
            self.warn(
                (*path, "required"), f"required: {flag!r} is read as {flag.lower()}"
            )
            flag = flag.lower() == "true"
        if flag is not None and not isinstance(flag, bool):
            schema["required"] = flag  # a list: this object's own
            return None
        return flag

    def rewrite(self, schema: dict[str, Any], path: Path) -> None:
        """Its type checked; OpenAPI's nullable and a list of items in 2020-12 terms."""
        if "type" in schema:
            self.type(schema, path)
        if schema.pop("nullable", None) is True:
            self.warn(
                (*path, "nullable"), "nullable: true (OpenAPI) becomes a null type"
            )
            self.add_null(schema)
        if isinstance(schema.get("items"), list):
            self.warn((*path, "items"), "a list of items becomes prefixItems (2020-12)")
            schema["prefixItems"] = schema.pop("items")

    def children(
        self, schema: dict[str, Any], path: Path, refs: tuple[str, ...]
    ) -> None:
        """Every subschema normalised: in tables, alone, and in lists."""
        for key in ("properties", "$defs", "definitions", "patternProperties"):
            if key in schema and schema[key] is None:
                self.warn((*path, key), f"{key}: null is read as none")
                del schema[key]
            if key in schema:
                schema[key] = self.table(schema[key], (*path, key), refs)
                if key != "properties":
                    for name, sub in schema[key].items():
                        self.loose_flag(sub, (*path, key, name))
        for key in (
            "items",
            "additionalProperties",
            "not",
            "contains",
            "propertyNames",
        ):
            if isinstance(schema.get(key), (dict, bool)):
                schema[key] = self.node(schema[key], (*path, key), refs)
                self.loose_flag(schema[key], (*path, key))
        for key in ("anyOf", "oneOf", "allOf", "prefixItems"):
            if isinstance(schema.get(key), list):
                schema[key] = [
                    self.node(item, (*path, key, i), refs)
                    for i, item in enumerate(schema[key])
                ]
                for i, item in enumerate(schema[key]):
                    self.loose_flag(item, (*path, key, i))

    def loose_flag(self, schema: Any, path: Path) -> None:
        """A boolean required outside a property (Draft 3) has no meaning: dropped."""
        if isinstance(schema, dict) and OWN_FLAG in schema:
            self.warn(
                (*path, "required"),
                "required: true/false outside a property's schema means nothing; dropped",
            )
            del schema[OWN_FLAG]

    def legacy(self, schema: dict[str, Any], path: Path) -> None:
        """Draft 4-7 forms with one 2020-12 reading."""
        for key, bound in (
            ("exclusiveMinimum", "minimum"),
            ("exclusiveMaximum", "maximum"),
        ):
            flag = schema.get(key)
            if not isinstance(flag, bool):
                continue
            del schema[key]
            if flag and isinstance(schema.get(bound), (int, float)):
                schema[key] = schema.pop(bound)
            self.warn(
                (*path, key),
                f"{key}: {str(flag).lower()} (Draft 4) becomes "
                + (f"{key}: {schema[key]}" if key in schema else "nothing"),
            )
        examples = schema.get("examples")
        if examples is not None and not isinstance(examples, list):
            self.warn(
                (*path, "examples"), "examples is not a list; read as a list of one"
            )
            schema["examples"] = [examples]
        if "id" in schema and isinstance(schema["id"], str) and "$id" not in schema:
            if schema["id"].startswith(("http:", "https:", "urn:", "#")):
                self.warn((*path, "id"), "id (Draft 4) becomes $id")
                schema["$id"] = schema.pop("id")

    def table(self, value: Any, path: Path, refs: tuple[str, ...]) -> dict[str, Any]:
        if not isinstance(value, dict):
            self.complain("error", path, f"{path[-1]} must be a mapping")
            return {}
        return {str(k): self.node(v, (*path, str(k)), refs) for k, v in value.items()}

    def inline(self, schema: dict[str, Any], path: Path, refs: tuple[str, ...]) -> Any:
        ref = schema.pop("$ref")
        if not isinstance(ref, str) or not ref.startswith("#"):
            self.complain(
                "error",
                (*path, "$ref"),
                f"only references inside the schema (#/...) are supported, not {ref!r}",
            )
            return schema
        if ref in refs:
            self.loud(
                "warning",
                (*path, "$ref"),
                f"{ref} refers to itself; it is typed as any value",
            )
            return {**schema, "\0ref": ref}
        target: Any = self.root
        for part in ref[1:].split("/")[1:] if ref != "#" else []:
            part = part.replace("~1", "/").replace("~0", "~")
            if isinstance(target, Mapping) and part in target:
                target = target[part]
            elif (
                isinstance(target, list) and part.isdigit() and int(part) < len(target)
            ):
                target = target[int(part)]
            else:
                self.complain("error", (*path, "$ref"), f"{ref} points at nothing")
                return schema
        if not isinstance(target, (Mapping, bool)):
            self.complain("error", (*path, "$ref"), f"{ref} does not point at a schema")
            return schema
        merged = copy.deepcopy(dict(target)) if isinstance(target, Mapping) else {}
        if target is False:
            merged = {"not": {}}
        for flag in ("required", "optional"):  # a property's own flags, not its type's
            if isinstance(merged.get(flag), bool):
                del merged[flag]
        merged.update(schema)  # sibling keywords (a description, say) are kept
        merged["\0ref"] = ref
        return merged

    def type(self, schema: dict[str, Any], path: Path) -> None:
        value = schema["type"]
        names = value if isinstance(value, list) else [value]
        if not names:
            self.warn((*path, "type"), "type [] is read as any value")
            del schema["type"]
            return
        result: list[str] = []
        for name in names:
            if not isinstance(name, str):
                self.complain(
                    "error", (*path, "type"), f"type {name!r} is not a type name"
                )
                return
            standard = TYPE_ALIASES.get(name.strip().lower())
            if standard is None:
                # "any", "", or a name with no JSON Schema reading: any value, loosely.
                reason = (
                    "means any value"
                    if name.strip().lower() in ANY_TYPES
                    else "is not a JSON Schema type; read as any value"
                )
                self.warn((*path, "type"), f"type {name!r} {reason}")
                del schema["type"]
                return
            if standard != name:
                self.warn((*path, "type"), f"type {name!r} is read as {standard!r}")
            if standard not in result:
                result.append(standard)
        schema["type"] = result[0] if len(result) == 1 else result

    def add_null(self, schema: dict[str, Any]) -> None:
        value = schema.get("type")
        if value is None:
            return
        names = value if isinstance(value, list) else [value]
        if "null" not in names:
            schema["type"] = [*names, "null"]
        if isinstance(schema.get("enum"), list) and None not in schema["enum"]:
            schema["enum"] = [*schema["enum"], None]

    def required(self, schema: dict[str, Any], path: Path) -> None:
        properties: dict[str, Any] = schema["properties"]
        required = schema.get("required", [])
        if isinstance(required, str):
            self.warn(
                (*path, "required"), "required is a string; read as a list of one"
            )
            required = [required]
        if not isinstance(required, list):
            self.complain(
                "error", (*path, "required"), "required must be a list of names"
            )
            return
        names = [str(n) for n in required]
        for name in list(names):
            if name not in properties:
                self.warn(
                    (*path, "required"),
                    f"required names {name!r}, which is not a property; dropped",
                )
                names.remove(name)
        for name, prop in properties.items():
            if not isinstance(prop, dict):
                continue
            flag = prop.pop(OWN_FLAG, None)
            if isinstance(flag, bool):
                self.warn(
                    (*path, "properties", name, "required"),
                    f"required: {str(flag).lower()} on a property moves to the object's required list",
                )
                if flag and name not in names:
                    names.append(name)
                if not flag and name in names:
                    names.remove(name)
            optional = prop.pop("optional", None)
            if isinstance(optional, bool):
                self.warn(
                    (*path, "properties", name, "optional"),
                    f"optional: {str(optional).lower()} is read as {'not ' if optional else ''}required",
                )
                if optional and name in names:
                    names.remove(name)
                if not optional and name not in names:
                    names.append(name)
        unique = list(dict.fromkeys(names))
        if unique:
            schema["required"] = unique
        else:
            schema.pop("required", None)

    def default(self, schema: dict[str, Any], path: Path) -> None:
        value = schema["default"]
        probe = {k: v for k, v in schema.items() if k != "default"}
        if validation.fits(value, probe):
            return
        coerced = coerce(value, schema.get("type"))
        if coerced is not NOTHING and validation.fits(coerced, probe):
            self.warn(
                (*path, "default"),
                f"default {value!r} does not fit the schema; read as {coerced!r}",
            )
            schema["default"] = coerced
            return
        self.warn(
            (*path, "default"), f"default {value!r} does not fit the schema; dropped"
        )
        del schema["default"]
