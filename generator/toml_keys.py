"""Where a key is in a TOML text (tomllib gives values, not places): the line and
column a setting's error is reported at."""

from __future__ import annotations

import re

_HEADER = re.compile(r"\s*\[\[?([^\]]*)\]\]?")
_KEY = re.compile(
    r"\s*((?:[A-Za-z0-9_-]+|\"[^\"]*\"|'[^']*')(?:\s*\.\s*(?:[A-Za-z0-9_-]+|\"[^\"]*\"|'[^']*'))*)\s*="
)


def position(text: str, where: tuple[str, ...]) -> tuple[int, int]:
    """The line and column of ``where`` (keys below [tool.skillc]) in a TOML ``text``:
    of its key, else of the header of the deepest table on its way, else 1:1."""
    wanted = ("tool", "skillc", *where)
    best, depth = (1, 1), 0
    table: tuple[str, ...] = ()
    for number, line in enumerate(text.splitlines(), 1):
        if header := _HEADER.match(line):
            table = _parts(header[1])
            found, column = table, line.index("[") + 1
        elif key := _KEY.match(line):
            found, column = (*table, *_parts(key[1])), key.start(1) + 1
        else:
            continue
        if len(found) > depth and wanted[: len(found)] == found:
            best, depth = (number, column), len(found)
    return best


def _parts(dotted: str) -> tuple[str, ...]:
    return tuple(part.strip().strip("\"'") for part in dotted.split("."))
