"""The lock a build is compared with for breaking changes: the one on disk (what the
last ``skillc build`` wrote), or the one a git ref holds (``origin/main``: what a pull
request changes). Read only, never run.

A pull request controls the lock on disk, so it is read as hostile input: a regular
file of bounded size, UTF-8 JSON nested at most MAX_DEPTH deep, whose ``interfaces``
have the shape skillc writes (each schema's keywords of the types JSON Schema gives
them) before the breaking check reads a key of it. Anything else is a located
``baseline-invalid`` error (exit 1), never an exception."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

from ..config import Config, ConfigError
from ..diagnostics import Report
from ..loaders.frontmatter import MAX_DEPTH as SOURCE_DEPTH, json_too_deep
from ..writer import LOCK, MAX_OUTPUT_BYTES, read_output

GIT_TIMEOUT_SEC = 30
# A lock nests its schemas three levels down; a source's schema nests at most
# SOURCE_DEPTH (its manifest's levels included), so no lock skillc writes comes near
# this, and the comparison's recursion (two frames a level) stays far from Python's.
MAX_DEPTH = 2 * SOURCE_DEPTH
# Schema keywords the breaking check reads, by the JSON types they may have.
BOUNDS = (
    *("minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties"),
    *("maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties"),
)


def lock(
    config: Config, against: str, report: Report
) -> tuple[dict[str, Any] | None, str]:
    """The baseline lock (None when there is none, or when it cannot be used: then an
    error says why) and where it came from."""
    where = f"{config.out}/{LOCK}"
    if against == "lock":
        name = "the lock on disk"
        if not os.path.lexists(config.out_dir / LOCK):
            return None, name
        data = read_output(config.out_dir, LOCK)
        if data is None:
            _invalid(report, where, name, f"not a regular file of at most {_MAX}")
            return None, name
    else:
        name = f"the lock at {against}"
        try:
            data = _git_file(config.root.resolve(), against, where)
        except _TooLarge:
            _invalid(report, where, name, f"larger than {_MAX}")
            return None, name
        if data is None:  # asked for, and not there: nothing would be compared
            why = f"{against} holds no {where} (was {config.out}/ committed there?)"
            _invalid(report, where, name, why)
            return None, name
    return parsed(data, where, name, report), name


def parsed(data: bytes, where: str, name: str, report: Report) -> dict[str, Any] | None:
    """The lock in ``data`` when it has the shape skillc writes; else None, and an
    error at ``where`` (line and column when the JSON itself is at fault)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        _invalid(report, where, name, f"not UTF-8 (byte {exc.start:,})")
        return None
    deep = json_too_deep(text, MAX_DEPTH)
    try:
        if deep is not None:
            message = f"arrays and objects nested more than {MAX_DEPTH} levels deep"
            raise json.JSONDecodeError(message, text, deep)
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        _invalid(report, where, name, f"invalid JSON: {exc.msg}", exc.lineno, exc.colno)
        return None
    except ValueError as exc:  # an integer of more digits than Python converts
        _invalid(report, where, name, f"invalid JSON: {exc}")
        return None
    problem = shape_problem(value)
    if problem is not None:
        _invalid(report, where, name, problem)
        return None
    assert isinstance(value, dict)
    return value


def shape_problem(lock: Any) -> str | None:
    """What keeps ``lock`` from being compared (None: nothing), at its JSON pointer."""
    if not isinstance(lock, dict):
        return "it is not a JSON object"
    interfaces = lock.get("interfaces", [])
    if not isinstance(interfaces, list):
        return "/interfaces is not a list"
    for index, entry in enumerate(interfaces):
        at = f"/interfaces/{index}"
        if not isinstance(entry, dict):
            return f"{at} is not an object"
        if not isinstance(entry.get("tool"), str):
            return f"{at}/tool is not a string"
        for key in ("kind", "source", "description"):
            if not isinstance(entry.get(key, ""), str):
                return f"{at}/{key} is not a string"
        for key in ("aliases", "previous"):
            if not _strings(entry.get(key, [])):
                return f"{at}/{key} is not a list of strings"
        for key in ("input", "output"):
            if entry.get(key) is not None:
                problem = _schema_problem(entry[key], f"{at}/{key}")
                if problem is not None:
                    return problem
    return None


def _schema_problem(schema: Any, at: str) -> str | None:
    """Where a schema (and every schema inside it) has a keyword of a type JSON Schema
    does not give it; walked with a stack, not recursion."""
    stack = [(schema, at)]
    while stack:
        node, at = stack.pop()
        if isinstance(node, bool):
            continue
        if not isinstance(node, dict):
            return f"{at} is not a schema (an object or a boolean)"
        problem = _keyword_problem(node, at)
        if problem is not None:
            return problem
        properties = node.get("properties", {})
        stack += [(v, f"{at}/properties/{k}") for k, v in properties.items()]
        if "additionalProperties" in node:
            stack.append((node["additionalProperties"], f"{at}/additionalProperties"))
        if "items" in node and not isinstance(node["items"], list):
            stack.append((node["items"], f"{at}/items"))
        for key in ("anyOf", "oneOf", "items"):
            members = node.get(key)
            if isinstance(members, list):  # items: a tuple's, in older drafts
                stack += [(m, f"{at}/{key}/{i}") for i, m in enumerate(members)]
    return None


def _keyword_problem(node: dict[str, Any], at: str) -> str | None:
    """A keyword of one schema object of the wrong type, or None."""
    kind = node.get("type", "")
    if not (isinstance(kind, str) or _strings(kind)):
        return f"{at}/type is neither a string nor a list of strings"
    if not _strings(node.get("required", [])):
        return f"{at}/required is not a list of strings"
    if not isinstance(node.get("properties", {}), dict):
        return f"{at}/properties is not an object"
    for key in ("enum", "anyOf", "oneOf"):
        if not isinstance(node.get(key, []), list):
            return f"{at}/{key} is not a list"
    for key in BOUNDS:
        if not isinstance(node.get(key, 0), (int, float)):
            return f"{at}/{key} is not a number"
    return None


def _strings(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(item, str) for item in value)


_MAX = f"{MAX_OUTPUT_BYTES:,} bytes"


def _invalid(
    report: Report, where: str, name: str, why: str, line: int = 1, col: int = 1
) -> None:
    report.error(
        where,
        line,
        col,
        "baseline-invalid",
        f"{name} cannot be the baseline: {why}; no breaking changes were checked",
    )


def _git_file(project: Path, ref: str, path: str) -> bytes | None:
    """``path`` (project-relative) at ``ref``; None when the ref does not hold it. A ref
    that git does not know is a usage error; a file larger than a lock can be is not
    read (``git show`` would hold it all in memory)."""
    if not ref or ref.startswith("-") or any(c.isspace() or ord(c) < 32 for c in ref):
        raise ConfigError(f"--against {ref!r}: not a git ref")
    commit = _git(
        project,
        "rev-parse",
        "--verify",
        "--quiet",
        "--end-of-options",
        f"{ref}^{{commit}}",
    )
    if commit is None:
        raise ConfigError(f"--against {ref}: git knows no such commit here")
    blob = f"{commit.decode().strip()}:./{path}"
    size = _git(project, "cat-file", "-s", blob)
    if size is None or not size.strip().isdigit():
        return None
    if int(size) > MAX_OUTPUT_BYTES:
        raise _TooLarge
    return _git(project, "cat-file", "blob", blob)


class _TooLarge(Exception):
    """The ref's lock is larger than any lock skillc writes."""


def _git(project: Path, *args: str) -> bytes | None:
    try:
        done = subprocess.run(
            ["git", "--no-pager", "-c", "core.fsmonitor=false", *args],
            cwd=project,
            capture_output=True,
            timeout=GIT_TIMEOUT_SEC,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise ConfigError(f"--against: git could not be run ({exc})") from None
    return done.stdout if done.returncode == 0 else None
