"""The built-in ``file`` tools: every path stays inside the configured root folder.

Only regular files are read or written: a FIFO, device or socket is refused before it
can block the call, and a read stops at ``max-read-bytes`` however large the file has
grown meanwhile. ``grep`` runs its pattern with a bound on time (``_patterns``).
"""

from __future__ import annotations

import os
import stat
import time
from pathlib import Path

from . import _patterns, _settings
from ._executors import current_deadline


class PathError(ValueError):
    """A path that leaves the root folder, or names nothing."""


class SizeError(ValueError):
    """A file larger than the read limit."""


class EditError(ValueError):
    """Text to replace that is missing or ambiguous."""


def inside(path: str, must_exist: bool = True) -> Path:
    """``path`` resolved below the root folder (symbolic links included)."""
    root = _settings.root()
    target = (root / path).resolve()
    if target != root and root not in target.parents:
        raise PathError(f"{path!r} is outside the root folder")
    if must_exist and not target.exists():
        raise PathError(f"{path!r} does not exist")
    return target


def _relative(path: Path) -> str:
    return path.relative_to(_settings.root()).as_posix()


def _open(target: Path, flags: int) -> int:
    """A descriptor of ``target``, opened without blocking and only if it is a regular
    file (a FIFO, device or socket is refused)."""
    if target.exists() and not target.is_file():
        raise PathError(f"{target.name!r} is not a regular file")
    fd = os.open(target, flags | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0), 0o666)
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise PathError(f"{target.name!r} is not a regular file")
    os.set_blocking(fd, True)
    return fd


def _read_bytes(target: Path) -> bytes:
    """The file's bytes; ``SizeError`` as soon as they pass ``max-read-bytes``."""
    limit = _settings.MAX_READ_BYTES
    with os.fdopen(_open(target, os.O_RDONLY), "rb") as handle:
        data = handle.read(limit + 1)
    if len(data) > limit:
        raise SizeError(f"{target.name!r} is larger than the limit of {limit:,} bytes")
    return data


def _write_text(target: Path, text: str) -> None:
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC
    with os.fdopen(_open(target, flags), "w", encoding="utf-8") as handle:
        handle.write(text)


def read(path: str, offset: int = 0, limit: int | None = None) -> str:
    target = inside(path)
    text = _read_bytes(target).decode("utf-8", errors="replace")
    if offset == 0 and limit is None:
        return text
    lines = text.splitlines(keepends=True)
    end = len(lines) if limit is None else offset + limit
    return "".join(lines[offset:end])


def write(path: str, content: str, create_dirs: bool = False) -> int:
    target = inside(path, must_exist=False)
    if create_dirs:
        target.parent.mkdir(parents=True, exist_ok=True)
    elif not target.parent.is_dir():
        raise PathError(
            f"the folder of {path!r} does not exist (create_dirs=True makes it)"
        )
    _write_text(target, content)
    return len(content)


def edit(path: str, old: str, new: str, replace_all: bool = False) -> int:
    target = inside(path)
    text = _read_bytes(target).decode("utf-8")
    count = text.count(old)
    if count == 0:
        raise EditError(f"the text to replace does not occur in {path!r}")
    if count > 1 and not replace_all:
        raise EditError(
            f"the text occurs {count} times in {path!r}; pass replace_all=True or more context"
        )
    _write_text(target, text.replace(old, new))
    return count


def dir(path: str = ".", hidden: bool = False) -> list[str]:
    target = inside(path)
    if not target.is_dir():
        raise PathError(f"{path!r} is not a folder")
    return sorted(
        entry.name + ("/" if entry.is_dir() else "")
        for entry in target.iterdir()
        if hidden or not entry.name.startswith(".")
    )


def glob(pattern: str, path: str = ".", max_results: int = 1000) -> list[str]:
    base = inside(path)
    found: list[str] = []
    for match in sorted(base.glob(pattern)):
        resolved = match.resolve()
        if resolved.is_file() and _settings.root() in resolved.parents:
            found.append(_relative(resolved))
            if len(found) >= max_results:
                break
    return found


def grep(
    pattern: str,
    path: str = ".",
    include: str = "**/*",
    ignore_case: bool = False,
    max_results: int = 200,
) -> list[str]:
    search = _patterns.searcher(pattern, ignore_case)
    base = inside(path)
    files = [base] if base.is_file() else sorted(base.glob(include))
    deadline = current_deadline()
    matches: list[str] = []
    for file in files:
        resolved = file.resolve()
        if not resolved.is_file() or _settings.root() not in resolved.parents:
            continue
        try:
            lines = _read_bytes(resolved).decode("utf-8").splitlines()
        except (UnicodeDecodeError, OSError, ValueError):
            continue  # binary, unreadable, special or too large: not searched
        for number, line in enumerate(lines, 1):
            if time.monotonic() > deadline.at:
                raise TimeoutError(f"grep ran past {deadline.seconds} s")
            try:
                found = search(line)
            except _patterns.TextTooLong:
                continue  # a line the standard library cannot search in bounded time
            if found:
                matches.append(f"{_relative(resolved)}:{number}:{line}")
                if len(matches) >= max_results:
                    return matches
    return matches
