"""What changed in a schema, as ``buf breaking`` classifies a protobuf change: each
difference between two schemas (a tool's input, or its output) as (kind, where,
detail). Narrowing an input breaks a caller (a type, union member or format taken
away, a bound tightened, other properties no longer accepted, a parameter removed or
made required, an enum value removed); widening it does not. An output is read, not
sent, so the other way round. The detail reads after the parameter it is about:
"removed", "now accepts only "a"", "must now be at least 1 character long"."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any

# Bounds: a larger value accepts less (min*) or more (max*).
LOWER = ("minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties")
UPPER = ("maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties")
# Keywords the comparison reads itself; any other one that changes narrows an input.
READ = frozenset(
    {"type", "enum", "const", "properties", "required", "additionalProperties"}
    | {"items", "anyOf", "oneOf", *LOWER, *UPPER}
)


def input_changes(
    old: Any, new: Any, path: str = "input"
) -> Iterator[tuple[str, str, str]]:
    """What changed in what a schema accepts: (kind, path, detail)."""
    if old == new:
        return
    if not isinstance(old, Mapping) or not isinstance(new, Mapping):
        kind = "type-widened" if new is True or new == {} else "type-narrowed"
        yield kind, path, "changed its schema"
        return
    yield from _types(old, new, path)
    yield from _enum(old, new, path)
    yield from _unions(old, new, path)
    yield from _bounds(old, new, path)
    yield from _object(old, new, path)
    if "items" in old or "items" in new:
        yield from input_changes(
            old.get("items", {}), new.get("items", {}), f"{path}/items"
        )
    for key in sorted((old.keys() | new.keys()) - READ):
        if old.get(key) != new.get(key):
            kind = "type-widened" if key not in new else "type-narrowed"
            yield kind, path, _keyword(key, old.get(key), new.get(key))


def _kinds(schema: Any) -> frozenset[str] | None:
    """The JSON types a schema allows (None: any), a union's those of its members; an
    integer is a number too."""
    if not isinstance(schema, Mapping):
        return None
    value = schema.get("type")
    if value is None:
        members = _members(schema)
        if members is None:
            return None
        each = [_kinds(m) for m in members]
        known = [k for k in each if k is not None]
        return None if len(known) < len(each) else frozenset().union(*known)
    kinds = {value} if isinstance(value, str) else set(value)
    return frozenset(kinds | ({"integer"} if "number" in kinds else set()))


def _types(
    old: Mapping[str, Any], new: Mapping[str, Any], path: str
) -> Iterator[tuple[str, str, str]]:
    was, now = _kinds(old), _kinds(new)
    if was == now:
        return
    detail = f"now takes {_type(new)}, not {_type(old)}"
    if now is None or (was is not None and was < now):
        yield "type-widened", path, detail
    else:
        yield "type-narrowed", path, detail


def _values(schema: Mapping[str, Any]) -> list[Any] | None:
    if "const" in schema:
        return [schema["const"]]
    value = schema.get("enum")
    return list(value) if isinstance(value, list) else None


def _enum(
    old: Mapping[str, Any], new: Mapping[str, Any], path: str
) -> Iterator[tuple[str, str, str]]:
    was, now = _values(old), _values(new)
    if was == now:
        return
    if now is None:
        yield "type-widened", path, "is no longer limited to listed values"
    elif was is None:
        yield "type-narrowed", path, f"now accepts only {_listed(now)}"
    else:
        removed = [v for v in was if v not in now]
        added = [v for v in now if v not in was]
        if removed:
            yield "enum-value-removed", path, f"no longer accepts {_listed(removed)}"
        if added:
            yield "enum-value-added", path, f"now accepts {_listed(added)}"


def _members(schema: Mapping[str, Any]) -> list[Any] | None:
    for key in ("anyOf", "oneOf"):
        if isinstance(schema.get(key), list):
            return list(schema[key])
    return None


def _unions(
    old: Mapping[str, Any], new: Mapping[str, Any], path: str
) -> Iterator[tuple[str, str, str]]:
    was, now = _members(old), _members(new)
    if was is None or now is None or was == now:
        return  # a union that comes or goes: its types say what changed
    if any(member not in now for member in was):
        yield "type-narrowed", path, "lost or changed one of the types it accepts"
    if any(member not in was for member in now):
        yield "type-widened", path, "accepts one type more"


def _bounds(
    old: Mapping[str, Any], new: Mapping[str, Any], path: str
) -> Iterator[tuple[str, str, str]]:
    for key in (*LOWER, *UPPER):
        a, b = old.get(key), new.get(key)
        if a == b or isinstance(a, bool) or isinstance(b, bool):
            continue
        lower = key in LOWER
        if a is None or b is None:
            tighter = a is None
        else:
            tighter = b > a if lower else b < a
        kind = "type-narrowed" if tighter else "type-widened"
        if b is None:
            detail = f"no longer needs to be {_bound(key, a)}"
        else:
            was = "" if a is None else f" (was {_bound(key, a)})"
            detail = f"must now be {_bound(key, b)}{was}"
        yield kind, path, detail


def _object(
    old: Mapping[str, Any], new: Mapping[str, Any], path: str
) -> Iterator[tuple[str, str, str]]:
    props_old = old.get("properties") or {}
    props_new = new.get("properties") or {}
    req_old = set(old.get("required") or ())
    req_new = set(new.get("required") or ())
    for name in sorted(props_old.keys() | props_new.keys() | req_old | req_new):
        where = f"{path}/properties/{name}"
        if name in props_old and name not in props_new:
            yield from _removed(props_old[name], new, where)
        elif name not in props_old and name in props_new:
            yield _added(name in req_new, where)
        else:
            yield from _required(name in req_old, name in req_new, where)
            if name in props_old:
                yield from input_changes(props_old[name], props_new[name], where)
    yield from _others(old, new, path)


def _removed(
    schema: Any, new: Mapping[str, Any], where: str
) -> Iterator[tuple[str, str, str]]:
    """A property gone: still taken, as any other, when the new schema takes others."""
    extra = new.get("additionalProperties")
    if extra is True or isinstance(extra, Mapping):
        yield from input_changes(schema, {} if extra is True else extra, where)
    else:
        yield "parameter-removed", where, "removed"


def _added(required: bool, where: str) -> tuple[str, str, str]:
    if required:
        return "parameter-required", where, "added, required"
    return "parameter-added", where, "added"


def _required(was: bool, now: bool, where: str) -> Iterator[tuple[str, str, str]]:
    if now and not was:
        yield "parameter-required", where, "made required"
    elif was and not now:
        yield "parameter-optional", where, "made optional"


def _others(
    old: Mapping[str, Any], new: Mapping[str, Any], path: str
) -> Iterator[tuple[str, str, str]]:
    """Properties the schema does not name (``additionalProperties``)."""
    extra_old = old.get("additionalProperties")
    extra_new = new.get("additionalProperties")
    if extra_new is False and extra_old is not False:
        yield "type-narrowed", path, "no longer accepts other properties"
    elif extra_old is False and extra_new is not False:
        yield "type-widened", path, "now accepts other properties"
    if isinstance(extra_old, Mapping) and isinstance(extra_new, Mapping):
        yield from input_changes(extra_old, extra_new, f"{path}/additionalProperties")


# An output is read, not sent: what an input loses, a caller of the tool can rely on;
# what an input gains, a caller must now handle.
OUTPUT = {
    "parameter-removed": "output-changed",
    "parameter-optional": "output-changed",
    "type-widened": "output-changed",
    "enum-value-added": "output-changed",
    "parameter-added": "output-extended",
    "parameter-required": "output-extended",
    "type-narrowed": "output-extended",
    "enum-value-removed": "output-extended",
}


def output_changes(
    old: Any, new: Any, path: str = "output"
) -> Iterator[tuple[str, str, str]]:
    """What changed in what a tool returns: what a caller reads may be gone or hold
    what it did not expect (output-changed), or it only gained (output-extended)."""
    if old == new:
        return
    if old is None:
        yield "output-extended", path, "declared"
    elif new is None:
        yield "output-changed", path, "no longer declared"
    else:
        for kind, where, detail in input_changes(old, new, path):
            detail = detail.replace("accepts", "returns").replace(", required", "")
            yield OUTPUT[kind], where, detail


# How a bound reads after "must now be": {} is its value.
BOUNDS = {
    "minimum": "at least {}",
    "maximum": "at most {}",
    "exclusiveMinimum": "greater than {}",
    "exclusiveMaximum": "less than {}",
    "minLength": "at least {} characters long",
    "maxLength": "at most {} characters long",
    "minItems": "at least {} items long",
    "maxItems": "at most {} items long",
    "minProperties": "at least {} properties large",
    "maxProperties": "at most {} properties large",
}


def _bound(key: str, value: Any) -> str:
    said = BOUNDS[key].format(_show(value))
    if value == 1:  # "1 character", "1 item", "1 property"
        said = said.replace("characters", "character").replace("items", "item")
        said = said.replace("properties", "property")
    return said


def _keyword(key: str, old: Any, new: Any) -> str:
    """Another keyword's change: added, removed or changed, with its value."""
    if old is None:
        return f"now has {key} {_show(new)}"
    if new is None:
        return f"no longer has {key} {_show(old)}"
    return f"has {key} {_show(new)}, not {_show(old)}"


def _type(schema: Mapping[str, Any]) -> str:
    kinds = schema.get("type")
    if kinds is None:
        return "any type" if _members(schema) is None else "a union"
    return kinds if isinstance(kinds, str) else " or ".join(map(str, kinds))


def _listed(values: list[Any]) -> str:
    return ", ".join(_show(v) for v in values)


def _show(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True)
