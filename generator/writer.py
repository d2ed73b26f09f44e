"""Writing the output folder, or checking it: all or nothing, and only what skillc owns.

- Everything was rendered in memory first, so a failing build writes nothing.
- The new tree is built beside the output folder (same parent, so same file system):
  unchanged files are hard links to the old ones (no copy, same modification time), new
  and changed files are written there. Then one ``renameat2(RENAME_EXCHANGE)`` swaps the
  two folders. A killed build leaves the folder exactly old or exactly new; its
  leftovers (``.<out>.skillc-new`` / ``-old``) are removed, or the swap completed, by the
  next build (``recover``). Where the exchange is unavailable, two renames are used and
  ``recover`` puts the old tree back when it finds the folder gone.
- A build that would change nothing does not touch the folder at all.
- Ownership: a file may be replaced or removed only when the previous lock lists it with
  the sha256 it still has (or when it already holds the new bytes). Anything else inside
  the folder (a user's file, an edited output, a symbolic link, a lock skillc did not
  write) stops the build, naming it, unless ``force``. The new tree never contains a
  symbolic link, so nothing is ever written through one.
- ``exclusive`` serialises builds with an ``fcntl`` lock, waiting a bounded time.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import hashlib
import json
import os
import shutil
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from stat import S_ISDIR
from typing import NamedTuple

from . import filestat

LOCK = "skillc.lock.json"  # the output folder's lock, which marks it as skillc's
IGNORED_DIRS = frozenset({"__pycache__", ".mypy_cache"})  # kept across a swap
TEMPORARY = ".skillc-tmp"  # files earlier versions left behind when killed: dropped
# No file skillc writes is larger (a skill's archive is at most 16 MiB): a larger one in
# the output folder is not read to be compared, it is simply not skillc's.
MAX_OUTPUT_BYTES = 1 << 28


class OutputError(Exception):
    """The output folder cannot be written safely: exit status 2."""


class WriteFailed(Exception):
    """An operating-system error while writing (a full disk, permissions): exit 1, with
    the old tree intact."""


class Plan(NamedTuple):
    created: tuple[str, ...]
    changed: tuple[str, ...]
    unchanged: tuple[str, ...]
    extra: tuple[str, ...]
    # (path, why) of the changed and extra files skillc may not touch without --force
    unowned: tuple[tuple[str, str], ...] = ()

    @property
    def stale(self) -> bool:
        return bool(self.created or self.changed or self.extra)


def plan(out_dir: Path, files: dict[str, bytes]) -> Plan:
    """Compare ``files`` with the folder and the lock it holds."""
    for path in files:
        _check_relative(path)
    digests = {path: hashlib.sha256(data).hexdigest() for path, data in files.items()}
    on_disk = existing(out_dir)
    owned = previous_lock(out_dir)
    created: list[str] = []
    changed: list[str] = []
    unchanged: list[str] = []
    extra: list[str] = []
    unowned: list[tuple[str, str]] = []
    for path in sorted(on_disk.keys() | files.keys()):
        kind = on_disk.get(path)
        if kind is None:
            created.append(path)
            continue
        current = _digest(out_dir, path) if kind == "file" else None
        if current is None:  # a file replaced since it was listed, or too large
            unowned.append(
                (path, "not a file skillc wrote" if kind == "file" else kind)
            )
        elif current == digests.get(path):
            unchanged.append(path)
            continue
        elif owned.get(path) != current and not (path == LOCK and owned):
            why = (
                "edited since skillc wrote it"
                if path in owned
                else "not made by skillc"
            )
            unowned.append((path, why))
        (changed if path in files else extra).append(path)
    return Plan(
        tuple(created), tuple(changed), tuple(unchanged), tuple(extra), tuple(unowned)
    )


def previous_lock(out_dir: Path) -> dict[str, str]:
    """The files the folder's lock lists, with their sha256 (relative to the folder);
    empty unless the lock has the shape skillc writes and lists only paths inside the
    folder. A lock it did not write owns nothing."""
    try:
        data = json.loads(read_output(out_dir, LOCK) or b"")
        outputs = data["outputs"]
        prefix = os.path.normpath(data["config"]["out"]).replace(os.sep, "/") + "/"
        if not str(data["generator"]).startswith("skillc "):
            return {}
        owned = {}
        for entry in outputs:
            path, digest = entry["path"], entry["sha256"]
            if not (isinstance(path, str) and path.startswith(prefix)):
                return {}
            if not (isinstance(digest, str) and len(digest) == 64):
                return {}
            relative = path[len(prefix) :]
            _check_relative(relative)
            owned[relative] = digest
        return owned
    # RecursionError: json's, on arrays nested thousands deep
    except (
        ValueError,
        KeyError,
        TypeError,
        AttributeError,
        RecursionError,
        OutputError,
    ):
        return {}


def read_output(out_dir: Path, path: str) -> bytes | None:
    """A file of the output folder as a check reads it: its bytes when it is a regular
    file of at most MAX_OUTPUT_BYTES (a link, a FIFO or a folder put there is None: a
    FIFO would hang the check, a link to /dev/zero fill its memory)."""
    return filestat.read_regular(os.path.join(out_dir, path), MAX_OUTPUT_BYTES)


def text(data: bytes) -> str | None:
    """An output file's text; None for bytes that are not UTF-8 (an archive), which are
    compared as bytes, never diffed line by line."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _digest(out_dir: Path, path: str) -> str | None:
    data = read_output(out_dir, path)
    return None if data is None else hashlib.sha256(data).hexdigest()


def check_owned(out_dir: Path) -> None:
    if out_dir.is_symlink() or (out_dir.exists() and not out_dir.is_dir()):
        raise OutputError(f"{out_dir.name}: the output path exists and is not a folder")


def refuse_unowned(changes: Plan, label: str) -> None:
    """Stop before touching a file skillc does not own."""
    if changes.unowned:
        listed = "; ".join(f"{label}/{path} ({why})" for path, why in changes.unowned)
        raise OutputError(
            f"{label}/ holds files skillc does not own, and a build would replace or "
            f"remove them: {listed}. Move them away, or rebuild with --force to discard them"
        )


def write(out_dir: Path, files: dict[str, bytes], changes: Plan) -> tuple[str, ...]:
    """Swap in the new tree (see the module's docstring); OSError becomes WriteFailed.
    Returns the files whose bytes were written, sorted: every other file of the new tree
    is the old file itself (a hard link), so its mtime and mypy's cache entry stay."""
    check_owned(out_dir)
    if not changes.stale:
        return ()
    staging, old = _beside(out_dir, "new"), _beside(out_dir, "old")
    folders = _folders(files)
    try:
        _remove(staging)
        out_dir.parent.mkdir(parents=True, exist_ok=True)
        written = _stage(out_dir, staging, files, changes, folders)
        if out_dir.is_dir():
            shutil.copymode(out_dir, staging)
            _swap(staging, out_dir, old)
            _keep_caches(staging, out_dir, folders)
            _remove(staging)
        else:
            os.rename(staging, out_dir)
    except OSError as exc:
        with contextlib.suppress(OSError):
            _remove(staging)
        raise WriteFailed(_describe_os_error(exc, out_dir)) from None
    return tuple(sorted(written))


def recover(out_dir: Path) -> None:
    """Finish what a killed build left: put the old tree back when the folder is missing
    between the two renames, and remove every temporary."""
    staging, old = _beside(out_dir, "new"), _beside(out_dir, "old")
    try:
        if not os.path.lexists(out_dir) and old.is_dir():
            os.rename(old, out_dir)
        _remove(staging)
        _remove(old)
    except OSError as exc:
        raise WriteFailed(_describe_os_error(exc, out_dir)) from None


@contextlib.contextmanager
def exclusive(project: Path, wait_sec: float) -> Iterator[None]:
    """Hold an ``fcntl`` lock on the project folder itself for the whole build (no lock
    file to leave behind); another build holding it is waited for up to ``wait_sec``
    seconds, then this one fails."""
    try:
        import fcntl
    except ImportError:  # not POSIX: builds are not serialised
        yield
        return
    handle = os.open(project, os.O_RDONLY)
    try:
        deadline = time.monotonic() + wait_sec
        while True:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    raise OutputError(
                        f"another skillc build of this project is running; waited "
                        f"{wait_sec:g} s for it to finish (lock-wait-sec)"
                    ) from None
                time.sleep(0.05)
        yield
    finally:
        os.close(handle)  # which releases the lock


def _beside(out_dir: Path, role: str) -> Path:
    return out_dir.with_name(f".{out_dir.name}.skillc-{role}")


def _folders(files: dict[str, bytes]) -> set[str]:
    """Every folder of the tree ``files`` make, relative to it ("" for the top)."""
    folders = {""}
    for path in files:
        folder = path.rpartition("/")[0]
        while folder not in folders:
            folders.add(folder)
            folder = folder.rpartition("/")[0]
    return folders


def _stage(
    out_dir: Path,
    staging: Path,
    files: dict[str, bytes],
    changes: Plan,
    folders: set[str],
) -> list[str]:
    """Build the new tree; returns the files written (the others are linked)."""
    old, new = os.fspath(out_dir) + "/", os.fspath(staging) + "/"
    unchanged = frozenset(changes.unchanged)
    os.mkdir(staging)
    for folder in sorted(folders - {""}):  # parents sort before their children
        os.mkdir(new + folder)
    written = []
    for path, data in files.items():
        if path in unchanged:
            _link(old + path, new + path)
        else:
            with open(new + path, "xb") as handle:  # x: never through a link
                handle.write(data)
            written.append(path)
    return written


def _link(source: str, target: str) -> None:
    """A hard link to an unchanged file: no copy, and its mtime stays; a copy where the
    file system has no hard links."""
    try:
        os.link(source, target, follow_symlinks=False)
    except OSError as exc:
        if exc.errno not in (errno.EPERM, errno.EMLINK, errno.EXDEV, errno.ENOTSUP):
            raise
        shutil.copy2(source, target, follow_symlinks=False)


def _swap(staging: Path, out_dir: Path, old: Path) -> None:
    """Exchange the two folders in one step; or two renames that ``recover`` undoes."""
    if _exchange(staging, out_dir):
        return
    os.rename(out_dir, old)
    os.rename(staging, out_dir)
    os.rename(old, staging)  # the old tree is now the temporary the caller removes


def _exchange(first: Path, second: Path) -> bool:
    """``renameat2(RENAME_EXCHANGE)`` (Linux 3.15+, glibc 2.28+); False when unavailable."""
    function = _renameat2()
    if function is None:
        return False
    at_fdcwd, rename_exchange = -100, 2
    if (
        function(
            at_fdcwd, os.fsencode(first), at_fdcwd, os.fsencode(second), rename_exchange
        )
        == 0
    ):
        return True
    import ctypes

    code = ctypes.get_errno()
    if code in (errno.EINVAL, errno.ENOSYS, errno.ENOTSUP):
        return False  # this file system cannot exchange
    raise OSError(code, os.strerror(code), os.fspath(second))


@functools.cache
def _renameat2() -> Callable[..., int] | None:
    import ctypes

    try:
        function = ctypes.CDLL(None, use_errno=True).renameat2
    except (OSError, AttributeError):  # not glibc 2.28+, or not Linux
        return None
    function.argtypes = [
        ctypes.c_int,
        ctypes.c_char_p,
        ctypes.c_int,
        ctypes.c_char_p,
        ctypes.c_uint,
    ]
    function.restype = ctypes.c_int
    return function


def _keep_caches(old_tree: Path, out_dir: Path, folders: set[str]) -> None:
    """Move the old tree's ``__pycache__`` and ``.mypy_cache`` folders into the new one:
    those in the new tree's folders, the only places they can go (so the old tree's
    files are not listed)."""
    old, new = os.fspath(old_tree) + "/", os.fspath(out_dir) + "/"
    for folder in folders:
        for name in IGNORED_DIRS:
            source = f"{old}{folder}/{name}" if folder else old + name
            with contextlib.suppress(OSError):
                if S_ISDIR(os.lstat(source).st_mode):
                    target = new + source[len(old) :]
                    if not os.path.lexists(target):
                        os.rename(source, target)


def _remove(folder: Path) -> None:
    if os.path.lexists(folder):
        if folder.is_dir() and not folder.is_symlink():
            shutil.rmtree(folder)
        else:
            folder.unlink()


def _describe_os_error(exc: OSError, out_dir: Path) -> str:
    where = f" ({Path(exc.filename).name})" if exc.filename else ""
    return f"cannot write {out_dir.name}/: {exc.strerror or exc}{where}; it was left as it was"


def describe(out_dir: Path, files: dict[str, bytes], changes: Plan, label: str) -> str:
    """What a build would change: missing and extra files, and a diff of changed ones."""
    import difflib  # only --check shows diffs

    lines: list[str] = []
    why = {path: f" ({reason})" for path, reason in changes.unowned}
    for path in changes.created:
        lines.append(f"missing: {label}/{path}")
    for path in changes.extra:
        lines.append(f"extra: {label}/{path}{why.get(path, '')}")
    for path in changes.changed:
        lines.append(f"changed: {label}/{path}{why.get(path, '')}")
        was = read_output(out_dir, path)
        if was is None:
            continue
        old, new = text(was), text(files[path])
        if old is None or new is None:
            lines.append(f"Binary files a/{label}/{path} and b/{label}/{path} differ")
            continue
        lines.extend(
            line.rstrip("\n")
            for line in difflib.unified_diff(
                old.splitlines(keepends=True),
                new.splitlines(keepends=True),
                f"a/{label}/{path}",
                f"b/{label}/{path}",
            )
        )
    return "\n".join(lines)


def _check_relative(path: str) -> None:
    # Split by hand (PurePosixPath is slower): this runs for every file, twice.
    parts = [part for part in path.split("/") if part not in ("", ".")]
    if path.startswith("/") or ".." in parts or not parts or "\\" in path:
        raise OutputError(f"refusing to write {path!r}: outside the output folder")


def existing(out_dir: Path) -> dict[str, str]:
    """Every entry of the folder by relative path: ``"file"`` for a regular file, else
    what it is (a symbolic link, ...). Caches and old temporaries are left out."""
    found: dict[str, str] = {}
    if not out_dir.is_dir():
        return found
    stack = [(os.fspath(out_dir), "")]
    while stack:
        folder, base = stack.pop()
        with os.scandir(folder) as entries:
            for entry in entries:
                if entry.name.endswith(TEMPORARY):
                    continue
                if entry.is_symlink():
                    found[base + entry.name] = "a symbolic link"
                elif entry.is_dir():
                    if entry.name not in IGNORED_DIRS:
                        stack.append((entry.path, base + entry.name + "/"))
                elif entry.is_file():
                    found[base + entry.name] = "file"
                else:
                    found[base + entry.name] = "not a regular file"
    return found
