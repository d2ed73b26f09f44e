"""The built-in ``file`` tools: every path stays inside the configured root folder."""

from __future__ import annotations

import re
from pathlib import Path

from . import _settings


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


def read(path: str, offset: int = 0, limit: int | None = None) -> str:
    target = inside(path)
    size = target.stat().st_size
    if size > _settings.MAX_READ_BYTES:
        raise SizeError(
            f"{path!r} is {size:,} bytes; the limit is {_settings.MAX_READ_BYTES:,}"
        )
    text = target.read_text(encoding="utf-8", errors="replace")
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
    target.write_text(content, encoding="utf-8")
    return len(content)


def edit(path: str, old: str, new: str, replace_all: bool = False) -> int:
    target = inside(path)
    text = target.read_text(encoding="utf-8")
    count = text.count(old)
    if count == 0:
        raise EditError(f"the text to replace does not occur in {path!r}")
    if count > 1 and not replace_all:
        raise EditError(
            f"the text occurs {count} times in {path!r}; pass replace_all=True or more context"
        )
    target.write_text(text.replace(old, new), encoding="utf-8")
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
    regex = re.compile(pattern, re.IGNORECASE if ignore_case else 0)
    base = inside(path)
    files = [base] if base.is_file() else sorted(base.glob(include))
    matches: list[str] = []
    for file in files:
        resolved = file.resolve()
        if not resolved.is_file() or _settings.root() not in resolved.parents:
            continue
        if resolved.stat().st_size > _settings.MAX_READ_BYTES:
            continue
        try:
            lines = resolved.read_text(encoding="utf-8").splitlines()
        except (UnicodeDecodeError, OSError):
            continue  # binary or unreadable files are not searched
        for number, line in enumerate(lines, 1):
            if regex.search(line):
                matches.append(f"{_relative(resolved)}:{number}:{line}")
                if len(matches) >= max_results:
                    return matches
    return matches
