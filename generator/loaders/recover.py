"""What the author of an unquoted ``: `` in a one-line ``description`` meant.

``description: Use when: asked`` is not YAML (``: `` inside a plain scalar opens a
mapping), yet clients load such files: Gemini CLI reads the rest of the line and the
indented lines after it (skillLoader.ts, its line parser), OpenCode rewrites the value
as a block scalar (config/markdown.ts, ``fallbackSanitization``), Claude Code registers
a plugin's subagent anyway (anthropics/claude-code#91871). So the text meant is read,
never refused: the rest of the line, and its continuation lines (indented or blank)
up to the next key of the file's kind. When a line in between is neither (``Context:
...`` or ``<example>`` at the margin: a key or the text?), the reading is ambiguous.

The reading is written back as ``description: "..."``, or as a ``|-`` block scalar
when the text holds ``"`` or ``\\``, and the frontmatter so fixed must parse, to that
text: the document a loader reads and the fix ``skillc fix`` writes are one.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from ..diagnostic import Diagnostic
from ..diagnostics import Report
from ..loaders import frontmatter, yamlpos

KEY = "description"
_LINE = re.compile(r"description:[ \t]+(\S.*)")
# A line that reads as a key at the margin: ``model: x``, ``Context: the user``.
_KEY_LIKE = re.compile(r"([A-Za-z_][\w.-]*):(?:[ \t]|$)")
# How a value that is not a plain scalar starts (quotes, block scalars, collections,
# anchors, aliases, tags, reserved indicators).
_NOT_PLAIN = tuple("'\"|>[{&*!%@`")


@dataclass(frozen=True, slots=True)
class Recovered:
    """The frontmatter with its description written as the author meant it."""

    first: int  # index of the description's line among the frontmatter's lines
    end: int  # index past the last line the fix replaces
    lines: tuple[str, ...]  # what replaces them
    value: str  # the description meant
    located: yamlpos.Located  # the fixed frontmatter, parsed


@dataclass(frozen=True, slots=True)
class Ambiguous:
    line: int  # index of the line that could be a key or the text


def recover(
    frontmatter: str, line_offset: int, keys: frozenset[str], error_line: int
) -> Recovered | Ambiguous | None:
    """The reading of ``frontmatter`` (whose first line is file line ``line_offset +
    1``) whose YAML error is at file line ``error_line``: None when the error is not
    in a plain one-line ``description`` (or the fix does not parse to its text)."""
    lines = frontmatter.split("\n")
    first = next((i for i, line in enumerate(lines) if _LINE.fullmatch(line)), None)
    if first is None:
        return None
    rest = _LINE.fullmatch(lines[first])
    assert rest is not None
    if rest[1].startswith(_NOT_PLAIN):
        return None
    end = first + 1
    while end < len(lines) and (not lines[end].strip() or lines[end][0] in " \t"):
        end += 1
    if not line_offset + first < error_line <= line_offset + max(end, first + 1):
        return None  # the error is elsewhere: quoting the description cannot fix it
    key = _KEY_LIKE.match(lines[end]) if end < len(lines) else None
    if end < len(lines) and (key is None or key[1] not in keys):
        return Ambiguous(end)
    while end > first + 1 and not lines[end - 1].strip():
        end -= 1  # blank lines before the next key stay as they are
    value = _folded(rest[1].rstrip(), lines[first + 1 : end])
    # Read as the same text on one line, and as many blank lines as it replaces: every
    # other key keeps its line. Written as the fix will write it, it must read alike.
    same_lines = (f"{KEY}: {json.dumps(value, ensure_ascii=False)}",) + ("",) * (
        end - first - 1
    )
    replacement = _written(value)
    located = _parsed(lines, first, end, same_lines, line_offset, value)
    if located is None or _parsed(lines, first, end, replacement, 0, value) is None:
        return None
    return Recovered(first, end, replacement, value, located)


def _parsed(
    lines: list[str],
    first: int,
    end: int,
    replacement: tuple[str, ...],
    line_offset: int,
    value: str,
) -> yamlpos.Located | None:
    """The frontmatter with ``replacement`` for its lines ``first`` to ``end``, parsed,
    when it parses to a mapping whose description is ``value``."""
    fixed = "\n".join([*lines[:first], *replacement, *lines[end:]])
    located = yamlpos.parse(fixed, "", line_offset, Report())
    if located is None or not isinstance(located.data, dict):
        return None
    return located if located.data.get(KEY) == value else None


def _folded(head: str, continuation: list[str]) -> str:
    """The value as YAML folds a multi-line scalar: lines joined by a space, each run
    of blank lines one line break less than it has lines."""
    value, blanks = head, 0
    for line in continuation:
        text = line.strip()
        if not text:
            blanks += 1
            continue
        value += "\n" * blanks if blanks else " "
        value += text
        blanks = 0
    return value


def _written(value: str) -> tuple[str, ...]:
    """``description: "..."`` when the text needs no escape, else a literal block."""
    if "\n" not in value and '"' not in value and "\\" not in value:
        quoted = json.dumps(value, ensure_ascii=False)
        if quoted[1:-1] == value:  # no control character to escape
            return (f"{KEY}: {quoted}",)
    return (f"{KEY}: |-", *(f"  {line}" if line else "" for line in value.split("\n")))


def fixed(raw: str, keys: frozenset[str]) -> str | None:
    """``raw``, a Markdown file's text as stored (a byte-order mark and CRLF kept),
    with its description written as the author meant it; None when it needs no fix,
    or when the fixed text would not read back, as a loader reads it, to the recovered
    document and body, or would differ outside the lines fixed."""
    parts, located, errors = _parse(raw)
    if parts is None or located is not None:
        return None
    reading = recover(parts.frontmatter, parts.line_offset, keys, errors[0].line)
    if not isinstance(reading, Recovered):
        return None
    lines = raw.split("\n")
    start, stop = parts.line_offset + reading.first, parts.line_offset + reading.end
    end = "\r" if lines[start].endswith("\r") else ""
    fix = [line + end for line in reading.lines]
    new = [*lines[:start], *fix, *lines[stop:]]
    text = "\n".join(new)
    parts_again, again, _ = _parse(text)
    if (
        parts_again is None
        or again is None
        or again.data != reading.located.data
        or parts_again.body != parts.body
        or new[:start] != lines[:start]
        or new[start + len(fix) :] != lines[stop:]
    ):
        return None
    return text


def _parse(
    raw: str,
) -> tuple[frontmatter.Split | None, yamlpos.Located | None, list[Diagnostic]]:
    """A file's frontmatter and body as a loader reads them, its frontmatter parsed
    (None when it does not parse), and the errors met."""
    text = raw.removeprefix("\ufeff").replace("\r\n", "\n")
    quiet = Report()
    parts = frontmatter.split(text, "", quiet)
    located = None
    if parts is not None:
        located = yamlpos.parse(parts.frontmatter, "", parts.line_offset, quiet)
    return parts, located, quiet.items
