"""The built-in ``file`` tools: every path stays inside the configured root folder.

Only regular files are read or written: a FIFO, device or socket is refused before it
can block the call, a read stops at ``max-read-bytes`` however large the file has grown
meanwhile, and a write or edit is refused past ``max-write-bytes``. ``grep`` runs its
pattern with a bound on time (``_patterns``). ``glob`` and ``grep``'s ``include`` walk
the folders themselves: at most ``MAX_WALK_ENTRIES`` entries, within the call's
deadline, each folder once (``**`` however often it is written), never into a folder
that is a symbolic link.
"""

from __future__ import annotations

import fnmatch
import itertools
import os
import re
import stat
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from . import _patterns, _settings
from ._executors import Deadline, current_deadline
from ._tools import shortened

# The entries one glob (or grep's include) looks at: a model can make a tree as deep
# and wide as it likes.
MAX_WALK_ENTRIES = 100_000


class PathError(ValueError):
    """A path that leaves the root folder, or names nothing."""


class SizeError(ValueError):
    """A file larger than the read limit."""


class EditError(ValueError):
    """Text to replace that is missing or ambiguous."""


class LimitError(ValueError):
    """A walk past ``MAX_WALK_ENTRIES``."""


def inside(path: str, must_exist: bool = True) -> Path:
    """``path`` resolved below the root folder (symbolic links included)."""
    root = _settings.root()
    try:
        target = (root / path).resolve()
    except (OSError, ValueError) as exc:  # a name too long, a NUL
        raise PathError(f"{shortened(path)!r} cannot be a path: {exc}") from None
    if target != root and root not in target.parents:
        raise PathError(f"{shortened(path)!r} is outside the root folder")
    if must_exist and not target.exists():
        raise PathError(f"{shortened(path)!r} does not exist")
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
    """Write ``text``, refused (``SizeError``) past ``max-write-bytes``."""
    limit = _settings.MAX_WRITE_BYTES
    data = text.encode("utf-8") if len(text) <= limit else b""
    if len(text) > limit or len(data) > limit:
        raise SizeError(f"the text is larger than the limit of {limit:,} bytes")
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC
    with os.fdopen(_open(target, flags), "wb") as handle:
        handle.write(data)


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
            f"the folder of {shortened(path)!r} does not exist "
            "(create_dirs=True makes it)"
        )
    _write_text(target, content)
    return len(content)


def edit(path: str, old: str, new: str, replace_all: bool = False) -> int:
    target = inside(path)
    text = _read_bytes(target).decode("utf-8")
    count = text.count(old)
    if count == 0:
        raise EditError(f"the text to replace does not occur in {shortened(path)!r}")
    if count > 1 and not replace_all:
        raise EditError(
            f"the text occurs {count} times in {shortened(path)!r}; pass "
            "replace_all=True or more context"
        )
    if len(text) + count * (len(new) - len(old)) > _settings.MAX_WRITE_BYTES:
        raise SizeError(
            f"the edited text would be larger than the limit of "
            f"{_settings.MAX_WRITE_BYTES:,} bytes"
        )
    _write_text(target, text.replace(old, new))
    return count


def dir(path: str = ".", hidden: bool = False) -> list[str]:
    target = inside(path)
    if not target.is_dir():
        raise PathError(f"{shortened(path)!r} is not a folder")
    return sorted(
        entry.name + ("/" if entry.is_dir() else "")
        for entry in target.iterdir()
        if hidden or not entry.name.startswith(".")
    )


def glob(pattern: str, path: str = ".", max_results: int = 1000) -> list[str]:
    base = inside(path)
    found: list[str] = []
    for match in walk(base, pattern, current_deadline()):
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
    deadline = current_deadline()
    files = [base] if base.is_file() else walk(base, include, deadline)
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


def walk(base: Path, pattern: str, deadline: Deadline) -> Iterator[Path]:
    """The entries below ``base`` whose path from it matches the glob ``pattern``
    (``**``: any folders, none included; ``*``, ``?`` and ``[...]`` within a name; a
    ``..`` part matches nothing: the walk only goes down), in sorted order. Each folder is listed once, whatever the pattern: ``TimeoutError``
    at the deadline, ``LimitError`` past ``MAX_WALK_ENTRIES`` entries."""
    parts = [part for part in pattern.split("/") if part not in ("", ".")]
    matchers: list[Callable[[str], object] | None] = [
        None if part == "**" else re.compile(fnmatch.translate(part), re.S).match
        for part in parts
    ]
    end = len(parts)

    def after(states: frozenset[int], name: str) -> frozenset[int]:
        """The pattern's positions once ``name`` is matched, with each ``**`` that
        may match no folder passed over."""
        moved = set()
        for state in states:
            if state < end:
                matcher = matchers[state]
                if matcher is None:
                    moved.add(state)
                elif matcher(name):
                    moved.add(state + 1)
        return _passed(moved, matchers)

    seen = 0
    stack = [(_listing(base), _passed({0}, matchers))]
    while stack:
        entries, states = stack[-1]
        entry = next(entries, None)
        if entry is None:
            stack.pop()
            continue
        seen += 1
        if seen > MAX_WALK_ENTRIES:
            raise LimitError(
                f"the walk passed {MAX_WALK_ENTRIES:,} entries; narrow the path or "
                "the pattern"
            )
        if time.monotonic() > deadline.at:
            raise TimeoutError(f"the walk ran past {deadline.seconds} s")
        reached = after(states, entry.name)
        if end in reached:
            yield Path(entry.path)
        if any(state < end for state in reached) and _is_folder(entry):
            stack.append((_listing(Path(entry.path)), reached))


def _passed(
    states: set[int], matchers: list[Callable[[str], object] | None]
) -> frozenset[int]:
    """``states`` and the positions after each ``**`` they stand at (it may match no
    folder at all)."""
    result = set(states)
    for state in sorted(states):
        while state < len(matchers) and matchers[state] is None:
            state += 1
            result.add(state)
    return frozenset(result)


def _listing(folder: Path) -> Iterator[os.DirEntry[str]]:
    """A folder's entries by name (none when it cannot be read); ``LimitError`` for a
    folder of more than ``MAX_WALK_ENTRIES``, which is never all read."""
    try:
        with os.scandir(folder) as scan:
            entries = list(itertools.islice(scan, MAX_WALK_ENTRIES + 1))
    except OSError:
        return iter(())
    if len(entries) > MAX_WALK_ENTRIES:
        raise LimitError(
            f"a folder holds more than {MAX_WALK_ENTRIES:,} entries; narrow the path"
        )
    return iter(sorted(entries, key=lambda entry: entry.name))


def _is_folder(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir(follow_symlinks=False)
    except OSError:
        return False
