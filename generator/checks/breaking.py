"""Breaking changes, as ``buf breaking`` finds them in protobuf files: each tool's
interface in the build (its line in the new lock's ``interfaces``) against a baseline
lock (the one on disk, or a git ref's), each change classified.

Breaking: a tool removed or renamed, a parameter removed, made required or added as
required, a type narrowed (a type, union member or format taken away, a bound
tightened, other properties no longer accepted), an enum value removed, an output
schema that may now hold what a caller did not expect. Additive: a tool or optional
parameter added, a type widened, an enum value added, an output that only gained.

Which removed tool an added one renames is ``renames.match``'s to say: tools that are
not related are a removal and an addition. What changed in a schema is ``schemas``'s.

A breaking change of a tool with a version (seed 000's ``version``) needs a major bump
(a minor one below 1.0.0), else it is an error; without a version it is a warning, as
nothing was promised. An additive change without a minor bump (a patch one below
1.0.0) is a warning.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Mapping
from typing import Any

from ..checks import Subject, renames, schemas
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


# -- the tools -----------------------------------------------------------------------


def compare(old: list[Mapping[str, Any]], new: list[Mapping[str, Any]]) -> list[Change]:
    """Every change between two locks' interfaces."""
    before = {str(i["tool"]): i for i in old}
    after = {str(i["tool"]): i for i in new}
    aliases = {a: name for name, i in after.items() for a in i.get("aliases", ())}
    gone = sorted(before.keys() - after.keys())
    added = sorted(after.keys() - before.keys())
    aliased = {name: aliases[name] for name in gone if name in aliases}
    renamed = renames.match(
        [name for name in gone if name not in aliased],
        [name for name in added if name not in aliased.values()],
        before,
        after,
    )
    changes: list[Change] = []
    for name in gone:
        if name in aliased:  # renamed, and the old name still calls it
            target = aliased[name]
            detail = f"renamed {target}; the old name still calls it"
            changes.append(Change(name, "tool-aliased", "", detail, target))
        elif name in renamed:
            target, why = renamed[name]
            detail = f"renamed {target} ({why})"
            changes.append(Change(name, "tool-renamed", "", detail, target))
        else:
            changes.append(Change(name, "tool-removed", "", "removed"))
            continue
        changes += _interface(name, before[name], after[target], target)
    taken = {*aliased.values(), *(target for target, _ in renamed.values())}
    changes += [
        Change(name, "tool-added", "", "added", name)
        for name in added
        if name not in taken
    ]
    for name in sorted(before.keys() & after.keys()):
        changes += _interface(name, before[name], after[name], name)
    return changes


def _interface(
    name: str, was: Mapping[str, Any], now: Mapping[str, Any], target: str
) -> list[Change]:
    found = [
        *schemas.input_changes(was.get("input"), now.get("input")),
        *schemas.output_changes(was.get("output"), now.get("output")),
    ]
    return [
        Change(name, kind, where, f"{subject(where)} {detail}", target)
        for kind, where, detail in found
    ]


def subject(path: str) -> str:
    """What a schema path is about, as a caller names it: ``input/properties/o/
    properties/y`` is parameter o.y, ``input/properties/l/items`` the items of l
    (l[]), ``output/properties/a`` output field a."""
    parts = path.split("/")
    name, named = "", False  # named: the part is a property's name
    for part in parts[1:]:
        if named:
            name += f".{part}" if name else part
        elif part == "items":
            name += "[]"
        elif part == "additionalProperties":
            name += ".*" if name else "*"
        named = not named and part == "properties"
    if parts[0] == "output":
        return f"output field {name}" if name else "its output"
    return f"parameter {name}" if name else "its input"


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
        verdict = _verdict(change, was.get("version"), now.get("version"))
        if verdict != "ok":
            _say(report, change, (was, now), verdict, subject.baseline_name)
        result.append(
            {
                "tool": change.tool,
                "now": change.now,
                "change": change.kind,
                "path": change.path,
                "detail": change.detail,
                "breaking": change.breaking,
                "old_version": was.get("version"),
                "new_version": now.get("version"),
                "verdict": verdict,
                "source": _source(was, now),
            }
        )
    return {"baseline": subject.baseline_name, "compared": True, "changes": result}


def _source(was: Mapping[str, Any], now: Mapping[str, Any]) -> str:
    """Where a change is: the tool's source now, else the one it had."""
    return str(now.get("source") or was.get("source") or LOCK)


def _say(
    report: Report,
    change: Change,
    entries: tuple[Mapping[str, Any], Mapping[str, Any]],
    verdict: str,
    baseline: str,
) -> None:
    """The diagnostic of a change the versions do not own up to, at the tool's source
    now (a removed tool's: the one it had)."""
    was, now = entries
    versions = f"{was.get('version', 'none')} -> {now.get('version', 'none')}"
    why = _WHY[verdict].format(versions=versions, version=was.get("version"))
    if verdict == "error" and change.kind == "tool-removed":
        why = f"removing it breaks the callers of its version {was.get('version')}"
    say = report.error if verdict == "error" else report.warning
    code = "version-not-bumped" if verdict == "warning" else "breaking-change"
    message = f"{change.tool}: {change.detail}; {why}, against {baseline}"
    say(_source(was, now), 1, 1, code, message)


# What a verdict other than "ok" says.
_WHY = {
    "error": "a breaking change needs a major version bump ({versions})",
    "unversioned": "this breaks its callers, and it has no version to say so "
    "(a version in its frontmatter or metadata.yaml)",
    "warning": "an addition needs a minor version bump ({versions})",
}


def _verdict(change: Change, old_version: object, new_version: object) -> str:
    """ok, error, unversioned (a warning) or warning."""
    if change.kind in ("tool-added", "tool-aliased"):
        return "ok"
    level = bump(old_version, new_version)
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
