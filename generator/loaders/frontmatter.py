"""Split a Markdown file into its YAML frontmatter and body, on delimiter lines.

Unlike ``text.split("---", 2)`` this only treats a line that is exactly ``---`` as a
delimiter, so a ``---`` inside a value does not end the frontmatter early.
"""

from __future__ import annotations

from dataclasses import dataclass

import json
import math
import os
import re
from pathlib import Path
from typing import Any

from ..diagnostics import Report, position
from ..loaders import HASHED

# Collections nested deeper than this are refused before they are composed: libyaml's
# composer recurses on the C stack and crashes the process at about 25,000 levels, and
# Python's recursion limit stops later stages far earlier. Real schemas stay under 20.
# Here, not in yamlpos: reading JSON (plugin manifests) imports no PyYAML.
MAX_DEPTH = 64


def head(path: Path, size: int) -> bytes:
    """A file's first ``size`` bytes, as hashed when they were (OSError as ``open``)."""
    raw = HASHED.get().get(os.fspath(path))
    if raw is not None:
        return raw[:size]
    with path.open("rb") as handle:
        return handle.read(size)


@dataclass(frozen=True, slots=True)
class Split:
    frontmatter: str
    line_offset: int  # lines before the frontmatter's first line
    body: str


def read(path: Path, rel: str, report: Report, max_bytes: int) -> str | None:
    """A source file's text, within ``max_bytes``; report and return None when unusable.
    Every input file is read here, whatever its kind."""
    check_link(path, rel, report)
    raw = HASHED.get().get(os.fspath(path))
    try:
        size = path.stat().st_size if raw is None else len(raw)
        if size > max_bytes:
            report.error(
                rel,
                1,
                1,
                "file-too-large",
                f"the file is {size:,} bytes; the limit is {max_bytes:,} (max-file-bytes)",
            )
            return None
        raw = path.read_bytes() if raw is None else raw
    except OSError as exc:
        report.error(
            rel, 1, 1, "file-unreadable", f"cannot read the file: {exc.strerror}"
        )
        return None
    return decode(raw, rel, report)


def check_link(path: Path, rel: str, report: Report) -> None:
    """A file that is (or sits below) a symbolic link to a place outside the project is
    compiled in, as Claude Code follows such links too, with a warning: the build then
    depends on a file the repository does not hold."""
    parts = [part for part in rel.split("/") if part not in ("", ".")]
    text = os.fspath(path)
    if rel.startswith("<") or not os.path.isabs(text) or ".." in parts:
        return  # skillc's own files, or a path not below the project
    project = text
    for _ in parts:
        project = os.path.dirname(project)
    # Only a link below the project can lead out of it: without one, no path need be
    # resolved (each realpath looks at every part of a path, from the root: for the
    # 1,000 skills of tests/bench.py, 0.033 s of CPU instead of 0.081 s).
    below = project
    for part in parts:
        below = os.path.join(below, part)
        if os.path.islink(below):
            break
    else:
        return
    real = os.path.realpath(text)
    inside = os.path.realpath(project)
    if not real.startswith(inside if inside.endswith(os.sep) else inside + os.sep):
        report.warning(
            rel,
            1,
            1,
            "symlink-outside-project",
            f"the file is a symbolic link to {os.path.basename(real)!r} outside the "
            "project; the build depends on a file the repository does not hold",
        )


class _NotJson(ValueError):
    def __init__(self, token: str) -> None:
        super().__init__(token)
        self.token = token


def _finite(token: str) -> float:
    value = float(token)
    if not math.isfinite(value):
        raise _NotJson(token)
    return value


def _constant(token: str) -> float:
    raise _NotJson(token)


class _TooLong(ValueError):
    def __init__(self, token: str) -> None:
        super().__init__(token)
        self.token = token


def _integer(token: str) -> int:
    """An integer; _TooLong past the digits Python converts (int() raises ValueError
    there, which json.loads would pass on as is: a traceback)."""
    try:
        return int(token)
    except ValueError:
        raise _TooLong(token) from None


def parse_json(text: str, rel: str, report: Report) -> Any:
    """JSON, with every problem located: syntax, nesting deeper than MAX_DEPTH, and
    numbers that are not finite (``NaN``, ``Infinity``, ``1e999``). None when unusable.
    """
    deep = json_too_deep(text)
    try:
        if deep is not None:
            raise json.JSONDecodeError(
                f"arrays and objects nested more than {MAX_DEPTH} levels deep",
                text,
                deep,
            )
        return json.loads(
            text, parse_float=_finite, parse_int=_integer, parse_constant=_constant
        )
    except json.JSONDecodeError as exc:
        code = "yaml-too-deep" if deep is not None else "json-syntax"
        report.error(rel, exc.lineno, exc.colno, code, f"invalid JSON: {exc.msg}")
    except _TooLong as exc:
        report.error(
            rel,
            *position(text, max(text.find(exc.token), 0)),
            "json-syntax",
            f"invalid JSON: an integer of {len(exc.token):,} digits, more than "
            "Python converts",
        )
    except _NotJson as exc:
        report.error(
            rel,
            *position(text, max(text.find(exc.token), 0)),
            "non-finite-number",
            f"the number {exc.token} is not finite; JSON and Python literals cannot hold it",
        )
    return None


def json_too_deep(text: str, limit: int = MAX_DEPTH) -> int | None:
    """The offset where arrays and objects first nest deeper than ``limit``."""
    if text.count("[") + text.count("{") <= limit:
        return None
    depth = 0
    for token in _JSON_NESTING.finditer(text):
        char = token.group()
        if char in "[{":
            depth += 1
            if depth > limit:
                return token.start()
        elif char in "]}":
            depth -= 1
    return None


# A string (to its end if unterminated), or a bracket: the wshobson marketplace's 187
# JSON files took 24 ms a character at a time, 15 ms so (least of 9), of a ~0.45 s no-op.
_JSON_NESTING = re.compile(r'"(?:[^"\\]|\\[\s\S])*(?:"|\\?\Z)|[\[\]{}]')


def decode(raw: bytes, path: str, report: Report) -> str | None:
    """Bytes to text: UTF-8 only; a BOM and CRLF are accepted with a warning."""
    if not raw.strip():
        report.error(path, 1, 1, "file-empty", "the file is empty")
        return None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        col = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        report.error(
            path,
            line,
            col,
            "file-not-utf8",
            f"the file is not valid UTF-8 (byte 0x{raw[exc.start]:02x} at offset {exc.start})",
        )
        return None
    if text.startswith("\ufeff"):
        report.warning(
            path, 1, 1, "bom", "the file starts with a byte-order mark; it is ignored"
        )
        text = text[1:]
    if "\r\n" in text:
        report.warning(
            path, 1, 1, "crlf", "the file uses CRLF line endings; read as LF"
        )
        text = text.replace("\r\n", "\n")
    return text


def split(text: str, path: str, report: Report) -> Split | None:
    lines = text.split("\n")
    if lines[0].rstrip() != "---":
        report.error(
            path,
            1,
            1,
            "no-frontmatter",
            "the file must start with a '---' line that opens the YAML frontmatter",
        )
        return None
    for index in range(1, len(lines)):
        if lines[index].rstrip() == "---":
            frontmatter = "\n".join(lines[1:index])
            body = "\n".join(lines[index + 1 :]).strip()
            return Split(frontmatter, 1, body)
    report.error(
        path, 1, 1, "frontmatter-unclosed", "the frontmatter has no closing '---' line"
    )
    return None
