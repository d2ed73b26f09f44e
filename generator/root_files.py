"""The files a build writes at the project's root (``harness-root-files``): each
client's install-from-git marketplace (``emitters/packages/root.py`` makes them).
They are owned as the output folder's files are, through its lock, whose
``root-files`` lists each with its sha256:

- a file there may be replaced or removed only when the lock lists it with the digest
  it still has (or when it already holds the new bytes): a user's own file at that
  path, or one edited since, is never touched, and the build writes nothing (``plan``
  says which, ``cli`` reports them where they are);
- only the paths of ``PATHS`` are ever written or removed, whatever a lock lists, and
  never through a symbolic link;
- each is written beside itself and renamed over the old one, once the output folder
  is in place: a reader sees the old file or the new one, never a part;
- a build with nothing to do checks they still hold what the lock records
  (``holds``), and ``skillc build --check`` reports one missing, changed or extra.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import NamedTuple

from . import writer
from .filestat import read_regular

KEY = "root-files"  # the lock's list of them
# Each client's file, by the client's id (the sources are emitters/packages/root.py's).
PATHS = {
    "claude-code": ".claude-plugin/marketplace.json",
    "codex": ".agents/plugins/marketplace.json",
    "cursor": ".cursor-plugin/marketplace.json",
}
MAX_BYTES = 4 * 1024 * 1024  # skillc writes a few KiB: a larger file is not its own
NEW = ".skillc-new"  # the file being written beside its place


class Plan(NamedTuple):
    created: tuple[str, ...]
    changed: tuple[str, ...]
    unchanged: tuple[str, ...]
    extra: tuple[str, ...]  # recorded by the last build, no longer written
    unowned: tuple[tuple[str, str], ...]  # (path, why): never touched

    @property
    def stale(self) -> bool:
        return bool(self.created or self.changed or self.extra or self.unowned)


def recorded(out_dir: Path) -> dict[str, str]:
    """The root files the output folder's lock lists, with their sha256: only paths
    of ``PATHS`` (a lock from elsewhere owns nothing else), and only in a lock of
    skillc's (``writer.previous_lock`` owns its files)."""
    if not writer.previous_lock(out_dir):
        return {}
    try:
        listed = json.loads(writer.read_output(out_dir, writer.LOCK) or b"")[KEY]
        return {
            entry["path"]: entry["sha256"]
            for entry in listed
            if entry["path"] in PATHS.values() and isinstance(entry["sha256"], str)
        }
    except (ValueError, KeyError, TypeError, RecursionError):
        return {}


def holds(root: Path, owned: Mapping[str, str]) -> bool:
    """Whether every root file the lock lists is there with its digest."""
    return all(_digest(root, path) == digest for path, digest in owned.items())


def plan(root: Path, files: Mapping[str, bytes], owned: Mapping[str, str]) -> Plan:
    """``files`` (project-relative) against the root and what the lock lists."""
    created: list[str] = []
    changed: list[str] = []
    unchanged: list[str] = []
    extra: list[str] = []
    unowned: list[tuple[str, str]] = []
    for path in sorted(files.keys() | owned.keys()):
        new = files.get(path)
        kind = _kind(root, path)
        if kind is None:
            if new is not None:
                created.append(path)
            continue
        current = _digest(root, path) if kind == "file" else None
        if new is not None and current == hashlib.sha256(new).hexdigest():
            unchanged.append(path)
            continue
        if current is None or owned.get(path) != current:
            why = (
                "edited since skillc wrote it"
                if path in owned
                else "not written by skillc"
            )
            unowned.append((path, why if kind == "file" else kind))
            continue
        (changed if new is not None else extra).append(path)
    return Plan(
        tuple(created), tuple(changed), tuple(unchanged), tuple(extra), tuple(unowned)
    )


def write(root: Path, files: Mapping[str, bytes], changes: Plan) -> None:
    """The created and changed files, each renamed into place; the extra removed.
    OSError becomes ``writer.WriteFailed``."""
    try:
        for path in (*changes.created, *changes.changed):
            target = root / path
            target.parent.mkdir(parents=True, exist_ok=True)
            staged = target.with_name(target.name + NEW)
            with contextlib.suppress(FileNotFoundError):  # a killed build's
                staged.unlink()
            with open(staged, "xb") as handle:  # x: never through a link
                handle.write(files[path])
            os.replace(staged, target)
        for path in changes.extra:
            (root / path).unlink()
    except OSError as exc:
        where = os.path.relpath(exc.filename, root) if exc.filename else "the root"
        raise writer.WriteFailed(f"cannot write {where}: {exc.strerror}") from None


def _kind(root: Path, path: str) -> str | None:
    """What is at ``path``: None (nothing), "file" (a regular file), or what else it
    is, a symbolic link on the way to it included, or a file where one of its
    folders would be (which writing it would trip over)."""
    current = root
    *folders, name = path.split("/")
    for part in folders:
        current = current / part
        if current.is_symlink():
            return "a symbolic link"
        if not current.exists():
            return None
        if not current.is_dir():
            return f"its folder {current.relative_to(root).as_posix()} is a file"
    current = current / name
    if current.is_symlink():
        return "a symbolic link"
    if not current.exists():
        return None
    return "file" if current.is_file() else "not a regular file"


def _digest(root: Path, path: str) -> str | None:
    data = read_regular(os.fspath(root / path), MAX_BYTES)
    return None if data is None else hashlib.sha256(data).hexdigest()
