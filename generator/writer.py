"""Writing the output folder, or checking it.

- everything was rendered in memory first, so a failing build writes nothing;
- each file is replaced atomically (temporary file, then rename), and only when its bytes
  changed, so unchanged files keep their modification times;
- skillc owns its output folder (it holds ``skillc.lock.json``): files a build no longer
  produces are deleted there, and nowhere else; a non-empty folder without a lock is refused.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from generator.cache import Stat
from generator.emitters.lock_report import LOCK

IGNORED_DIRS = frozenset({"__pycache__", ".mypy_cache"})
TEMPORARY = ".skillc-tmp"  # the suffix of a file being written


class OutputError(Exception):
    """The output folder cannot be written safely: exit status 2."""


@dataclass(frozen=True, slots=True)
class Plan:
    created: tuple[str, ...]
    changed: tuple[str, ...]
    unchanged: tuple[str, ...]
    extra: tuple[str, ...]

    @property
    def stale(self) -> bool:
        return bool(self.created or self.changed or self.extra)


def plan(
    out_dir: Path,
    files: dict[str, str],
    digests: dict[str, str] | None = None,
    known: dict[str, Stat] | None = None,
) -> Plan:
    """Compare ``files`` (whose sha256 are ``digests``) with the folder. ``known`` holds
    (size, mtime_ns, sha256) of files as skillc last wrote them: a file whose size and
    mtime still match, and whose recorded sha256 is the new one, is not read again.
    """
    for path in files:
        _check_relative(path)
    on_disk = _existing(out_dir)
    known = known or {}
    digests = digests or {}
    created, changed, unchanged = [], [], []
    for path, text in files.items():
        recorded = known.get(path)
        if recorded is not None and recorded[2] != digests.get(path):
            recorded = None  # the content changed: the stat shortcut does not apply
        if path not in on_disk:
            created.append(path)
        elif _same(os.path.join(out_dir, path), text, recorded):
            unchanged.append(path)
        else:
            changed.append(path)
    extra = sorted(on_disk - files.keys())
    return Plan(tuple(created), tuple(changed), tuple(unchanged), tuple(extra))


def _same(path: str, text: str, recorded: Stat | None) -> bool:
    """Whether the file holds ``text``; ``recorded`` is its stat when it was written with
    this very content, so matching size and mtime mean it still does."""
    if recorded is not None:
        stat = os.stat(path)
        if (stat.st_size, stat.st_mtime_ns) == recorded[:2]:
            return True
    with open(path, "rb") as handle:
        return handle.read() == text.encode("utf-8")


def check_owned(out_dir: Path) -> None:
    if out_dir.exists() and not out_dir.is_dir():
        raise OutputError(f"{out_dir.name}: the output path exists and is not a folder")
    if out_dir.is_dir() and _has_files(out_dir) and not (out_dir / LOCK).is_file():
        raise OutputError(
            f"{out_dir.name}/ has files but no {LOCK}: it was not made by skillc, "
            "so skillc will not write into it (choose another --out, or empty it)"
        )


def write(out_dir: Path, files: dict[str, str], changes: Plan) -> None:
    check_owned(out_dir)
    for path in (*changes.created, *changes.changed):
        target = out_dir / path
        target.parent.mkdir(parents=True, exist_ok=True)
        temporary = target.with_name(f".{target.name}{TEMPORARY}")
        temporary.write_bytes(files[path].encode("utf-8"))
        os.replace(temporary, target)
    for path in changes.extra:
        (out_dir / path).unlink()
    _remove_empty_dirs(out_dir)


def describe(out_dir: Path, files: dict[str, str], changes: Plan, label: str) -> str:
    """What a build would change: missing and extra files, and a diff of changed ones."""
    import difflib  # only --check shows diffs

    lines: list[str] = []
    for path in changes.created:
        lines.append(f"missing: {label}/{path}")
    for path in changes.extra:
        lines.append(f"extra: {label}/{path}")
    for path in changes.changed:
        lines.append(f"changed: {label}/{path}")
        old = (
            (out_dir / path)
            .read_text(encoding="utf-8", errors="replace")
            .splitlines(keepends=True)
        )
        new = files[path].splitlines(keepends=True)
        lines.extend(
            line.rstrip("\n")
            for line in difflib.unified_diff(
                old, new, f"a/{label}/{path}", f"b/{label}/{path}"
            )
        )
    return "\n".join(lines)


def _check_relative(path: str) -> None:
    pure = PurePosixPath(path)
    if pure.is_absolute() or ".." in pure.parts or not pure.parts or "\\" in path:
        raise OutputError(f"refusing to write {path!r}: outside the output folder")


def _has_files(out_dir: Path) -> bool:
    """Whether the folder holds any file (it stops at the first one)."""
    for _, dirs, names in os.walk(out_dir):
        dirs[:] = [d for d in dirs if d not in IGNORED_DIRS]
        if any(not name.endswith(TEMPORARY) for name in names):
            return True
    return False


def _existing(out_dir: Path) -> set[str]:
    if not out_dir.is_dir():
        return set()
    found: set[str] = set()
    top = os.fspath(out_dir)
    for current, dirs, names in os.walk(top):
        dirs[:] = [d for d in dirs if d not in IGNORED_DIRS]
        base = (
            "" if current == top else current[len(top) + 1 :].replace(os.sep, "/") + "/"
        )
        found.update(base + name for name in names if not name.endswith(TEMPORARY))
    return found


def _remove_empty_dirs(out_dir: Path) -> None:
    for current, dirs, names in os.walk(out_dir, topdown=False):
        folder = Path(current)
        if folder != out_dir and not any(folder.iterdir()):
            folder.rmdir()
