"""Breaking changes, as ``buf breaking`` finds them in protobuf files: each tool's
interface in the build (its line in the new lock's ``interfaces``) against a baseline
lock (the one on disk, or a git ref's), each change classified.

Breaking: a tool removed or renamed, a parameter removed, made required or added as
required, a type narrowed (a type, union member or format taken away, a bound
tightened, other properties no longer accepted), an enum value removed, an output
schema that may now hold what a caller did not expect. Additive: a tool or optional
parameter added, a type widened, an enum value added, an output that only gained.

A breaking change of a tool with a version (seed 000's ``version``) needs a major bump
(a minor one below 1.0.0), else it is an error; without a version it is a warning, as
nothing was promised. An additive change without a minor bump (a patch one below
1.0.0) is a warning.
"""

from __future__ import annotations

import dataclasses
import json

import re
from collections.abc import Iterator, Mapping
from typing import Any

from ..checks import Subject
from ..diagnostics import Report
from ..writer import LOCK

BREAKING = frozenset(
    {
        "tool-removed",
        "tool-renamed",
        "parameter-removed",
        "parameter-required",
        "type-narrowed",
        "enum-value-removed",
        "output-changed",
    }
)
ADDITIVE = frozenset(
    {
        "tool-added",
        "tool-aliased",
        "parameter-added",
        "parameter-optional",
        "type-widened",
        "enum-value-added",
        "output-extended",
    }
)
# Bounds: a larger value accepts less (min*) or more (max*).
LOWER = ("minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties")
UPPER = ("maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties")
# Keywords the comparison reads itself; any other one that changes narrows an input.
READ = frozenset(
    {"type", "enum", "const", "properties", "required", "additionalProperties"}
    | {"items", "anyOf", "oneOf", *LOWER, *UPPER}
)


@dataclasses.dataclass(frozen=True)
class Change:
    tool: str  # as the baseline names it
    kind: str  # a name of BREAKING or ADDITIVE
    path: str  # where in the schema: "input/properties/mode"; "" for the tool
    detail: str
    now: str = ""  # its name in the build, when that is another

    @property
    def breaking(self) -> bool:
        return self.kind in BREAKING


# -- the schemas ---------------------------------------------------------------------


def input_changes(
    old: Any, new: Any, path: str = "input"
) -> Iterator[tuple[str, str, str]]:
    """What changed in what a schema accepts: (kind, path, detail)."""
    if old == new:
        return
    if not isinstance(old, Mapping) or not isinstance(new, Mapping):
        kind = "type-widened" if new is True or new == {} else "type-narrowed"
        yield kind, path, "the schema changed"
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
            yield kind, path, f"{key} {_show(old.get(key))} -> {_show(new.get(key))}"


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
    detail = f"type {_show(old.get('type', 'any'))} -> {_show(new.get('type', 'any'))}"
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
        yield "type-widened", path, "no longer limited to listed values"
    elif was is None:
        yield "type-narrowed", path, f"now limited to {_show(now)}"
    else:
        removed = [v for v in was if v not in now]
        added = [v for v in now if v not in was]
        if removed:
            yield "enum-value-removed", path, f"{_show(removed)} no longer accepted"
        if added:
            yield "enum-value-added", path, f"{_show(added)} now accepted"


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
        yield "type-narrowed", path, "a member of its union removed or changed"
    if any(member not in was for member in now):
        yield "type-widened", path, "a member added to its union"


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
        yield kind, path, f"{key} {_show(a)} -> {_show(b)}"


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
            yield from _removed(name, props_old[name], new, where)
        elif name not in props_old and name in props_new:
            yield _added(name, name in req_new, where)
        else:
            yield from _required(name, name in req_old, name in req_new, where)
            if name in props_old:
                yield from input_changes(props_old[name], props_new[name], where)
    yield from _others(old, new, path)


def _removed(
    name: str, schema: Any, new: Mapping[str, Any], where: str
) -> Iterator[tuple[str, str, str]]:
    """A property gone: still taken, as any other, when the new schema takes others."""
    extra = new.get("additionalProperties")
    if extra is True or isinstance(extra, Mapping):
        yield from input_changes(schema, {} if extra is True else extra, where)
    else:
        yield "parameter-removed", where, f"{name} removed"


def _added(name: str, required: bool, where: str) -> tuple[str, str, str]:
    if required:
        return "parameter-required", where, f"{name} added, required"
    return "parameter-added", where, f"{name} added"


def _required(
    name: str, was: bool, now: bool, where: str
) -> Iterator[tuple[str, str, str]]:
    if now and not was:
        yield "parameter-required", where, f"{name} made required"
    elif was and not now:
        yield "parameter-optional", where, f"{name} made optional"


def _others(
    old: Mapping[str, Any], new: Mapping[str, Any], path: str
) -> Iterator[tuple[str, str, str]]:
    """Properties the schema does not name (``additionalProperties``)."""
    extra_old = old.get("additionalProperties")
    extra_new = new.get("additionalProperties")
    if extra_new is False and extra_old is not False:
        yield "type-narrowed", path, "other properties no longer accepted"
    elif extra_old is False and extra_new is not False:
        yield "type-widened", path, "other properties now accepted"
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
        yield "output-extended", path, "an output schema declared"
    elif new is None:
        yield "output-changed", path, "its output schema removed"
    else:
        for kind, where, detail in input_changes(old, new, path):
            yield OUTPUT[kind], where, detail.replace("accepted", "returned")


# -- the tools -----------------------------------------------------------------------


def compare(old: list[Mapping[str, Any]], new: list[Mapping[str, Any]]) -> list[Change]:
    """Every change between two locks' interfaces."""
    before = {str(i["tool"]): i for i in old}
    after = {str(i["tool"]): i for i in new}
    aliases = {a: name for name, i in after.items() for a in i.get("aliases", ())}
    changes: list[Change] = []
    gone = sorted(before.keys() - after.keys())
    added = sorted(after.keys() - before.keys())
    for name in gone:
        if name in aliases:  # renamed, and the old name still calls it
            target = aliases[name]
            if target in added:
                added.remove(target)
            detail = f"renamed {target}, the old name an alias"
            changes.append(Change(name, "tool-aliased", "", detail, target))
            changes += _interface(name, before[name], after[target], target)
            continue
        twin = next((n for n in added if _same(before[name], after[n])), None)
        if twin is not None:
            added.remove(twin)
            changes.append(Change(name, "tool-renamed", "", f"renamed {twin}", twin))
        else:
            changes.append(Change(name, "tool-removed", "", "removed"))
    changes += [Change(name, "tool-added", "", "added", name) for name in added]
    for name in sorted(before.keys() & after.keys()):
        changes += _interface(name, before[name], after[name], name)
    return changes


def _interface(
    name: str, was: Mapping[str, Any], now: Mapping[str, Any], target: str
) -> list[Change]:
    found = [
        *input_changes(was.get("input"), now.get("input")),
        *output_changes(was.get("output"), now.get("output")),
    ]
    return [Change(name, kind, where, detail, target) for kind, where, detail in found]


def _same(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    return all(a.get(k) == b.get(k) for k in ("kind", "input", "output"))


VERSION = re.compile(r"v?(\d+)(?:\.(\d+))?(?:\.(\d+))?")


def _version(text: object) -> tuple[int, int, int] | None:
    match = VERSION.match(str(text)) if text is not None else None
    if match is None:
        return None
    return (int(match[1]), int(match[2] or 0), int(match[3] or 0))


def bump(old: object, new: object) -> str | None:
    """ "major" (breaking allowed), "minor" (additions), "patch" or "none"; None when
    either side has no version. Below 1.0.0 each level is one lower, as in Cargo."""
    a, b = _version(old), _version(new)
    if a is None or b is None:
        return None
    levels = ("major", "minor", "patch")
    start = 1 if a[0] == 0 and b[0] == 0 else 0
    for i in range(3):
        if b[i] != a[i]:
            if b[i] < a[i]:
                return "none"
            return levels[i - start] if i >= start else "major"
    return "none"


def run(subject: Subject, report: Report) -> dict[str, Any]:
    """The changes since the baseline, each with its verdict; a diagnostic for each
    that the versions do not own up to."""
    new_lock = _json(subject.files.get(LOCK))
    base = subject.baseline
    if base is None or "interfaces" not in base or new_lock is None:
        why = "none found" if base is None else "it records no interfaces"
        return {
            "baseline": subject.baseline_name,
            "compared": False,
            "why": why,
            "changes": [],
        }
    old = list(base["interfaces"])
    new = list(new_lock.get("interfaces", []))
    before = {str(i["tool"]): i for i in old}
    after = {str(i["tool"]): i for i in new}
    result = []
    for change in compare(old, new):
        was, now = before.get(change.tool, {}), after.get(change.now, {})
        source = str(now.get("source") or was.get("source") or LOCK)
        level = bump(was.get("version"), now.get("version"))
        verdict = _verdict(change, level, was.get("version"))
        where = f" ({change.path})" if change.path else ""
        versions = f"{was.get('version', 'none')} -> {now.get('version', 'none')}"
        message = f"{change.tool}: {change.detail}{where}, {change.kind}"
        if verdict != "ok":
            say = report.error if verdict == "error" else report.warning
            code = "version-not-bumped" if verdict == "warning" else "breaking-change"
            why = f"{_WHY[verdict].format(versions)}, against {subject.baseline_name}"
            say(source, 1, 1, code, f"{message}; {why}")
        result.append(
            {
                "tool": change.tool,
                "change": change.kind,
                "path": change.path,
                "detail": change.detail,
                "breaking": change.breaking,
                "old_version": was.get("version"),
                "new_version": now.get("version"),
                "verdict": verdict,
            }
        )
    return {"baseline": subject.baseline_name, "compared": True, "changes": result}


# What a verdict other than "ok" says ({}: the versions).
_WHY = {
    "error": "a breaking change needs a major version bump ({})",
    "unversioned": "the tool has no version to bump (seed 000's version)",
    "warning": "an addition needs a minor version bump ({})",
}


def _verdict(change: Change, level: str | None, old_version: object) -> str:
    """ok, error, unversioned (a warning) or warning."""
    if change.kind in ("tool-added", "tool-aliased"):
        return "ok"
    if change.breaking:
        if change.kind in ("tool-removed", "tool-renamed"):
            return "error" if old_version else "unversioned"
        if level is None:
            return "unversioned"
        return "ok" if level == "major" else "error"
    return "warning" if level in ("patch", "none") else "ok"


def _json(data: bytes | None) -> dict[str, Any] | None:
    if data is None:
        return None
    value = json.loads(data)
    return value if isinstance(value, dict) else None


def _show(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True)
