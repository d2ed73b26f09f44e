"""What changed between the lock on disk (what the last ``skillc build`` wrote) and the
lock a build would write now, for the account of a stale output folder: each tool's
version, and the inputs that make it stale (a source file, the settings, skillc
itself), so that a stale output points at the source that changed, not at the dozen
files the change rewrites (issue 44). The lock on disk is read as any output file is
(a regular file, bounded), and anything in it of another shape is passed over."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, NamedTuple

from . import writer

PYPROJECT = "pyproject.toml"


class Cause(NamedTuple):
    """An input that differs from what the output folder was built from."""

    path: str  # project-relative: a source, pyproject.toml, or the lock
    what: str  # "changed", "new", "removed", or what differs


def _lock(out_dir: Path, files: dict[str, bytes]) -> tuple[Any, Any]:
    """The lock on disk and the new one (None where there is none that parses)."""
    if writer.LOCK not in files:
        return None, None
    try:
        old = json.loads(writer.read_output(out_dir, writer.LOCK) or b"")
    except (ValueError, RecursionError):
        old = None  # no lock on disk, or not one skillc wrote
    return old, json.loads(files[writer.LOCK])


def version_changes(out_dir: Path, files: dict[str, bytes]) -> list[str]:
    """``task.x: version 1.0.0 -> 1.1.0`` for each tool whose version the lock on disk
    and the new lock record differently (``none`` where one has no version)."""
    old_lock, new_lock = _lock(out_dir, files)
    if new_lock is None:
        return []
    old, new = _versions(old_lock), _versions(new_lock)
    return [
        f"{tool}: version {old.get(tool, 'none')} -> {new.get(tool, 'none')}"
        for tool in sorted(old.keys() | new.keys())
        if old.get(tool) != new.get(tool)
    ]


def causes(out_dir: Path, files: dict[str, bytes], label: str) -> list[Cause]:
    """The inputs that changed since the lock on disk was written, sorted: each source
    file added, removed or edited, the settings, the skillc that builds. Empty when
    there is no lock on disk to tell, or when no input changed (the output files were
    edited by hand)."""
    old, new = _lock(out_dir, files)
    if not isinstance(old, dict) or not isinstance(new, dict):
        return []
    was, now = _digests(old.get("sources")), _digests(new.get("sources"))
    found = []
    for path in sorted(was.keys() | now.keys()):
        if was.get(path) != now.get(path):
            what = "new" if path not in was else "removed" if path not in now else ""
            found.append(Cause(path, what or "changed"))
    settings = _changed_keys(old.get("config"), new.get("config"))
    if settings:
        found.append(Cause(PYPROJECT, f"[tool.skillc] {', '.join(settings)} changed"))
    if old.get("generator") != new.get("generator"):
        what = f"built by {old.get('generator')}, now {new.get('generator')}"
        found.append(Cause(f"{label}/{writer.LOCK}", what))
    return found


def _digests(entries: Any) -> dict[str, str]:
    return {
        str(e.get("path")): str(e.get("sha256"))
        for e in (entries if isinstance(entries, list) else [])
        if isinstance(e, dict)
    }


def _changed_keys(old: Any, new: Any) -> list[str]:
    if not isinstance(old, dict) or not isinstance(new, dict):
        return [] if old == new else ["settings"]
    return sorted(k for k in old.keys() | new.keys() if old.get(k) != new.get(k))


def _versions(lock: object) -> dict[str, str]:
    entries = lock.get("versions") if isinstance(lock, dict) else None
    return {
        str(entry.get("tool")): str(entry.get("version"))
        for entry in (entries if isinstance(entries, list) else [])
        if isinstance(entry, dict)
    }
