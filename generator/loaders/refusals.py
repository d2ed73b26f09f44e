"""What a client refuses: an error at the key, for that item alone (issue 42). Each
refusal names the client whose rule it is, by the id of its harness; which clients a
project targets is the harness model's (``generator.harness``): there, a refusal of a
client the project does not target is a warning. Until then every client counts,
and ``refuse`` is where that choice is made.

Positions in a JSON manifest are found from its text (``at``), as for its paths."""

from __future__ import annotations

import json

from ..diagnostics import Report, position

CLAUDE_CODE = "claude-code"
CODEX = "codex"
AGENT_PLUGINS = "agent-plugins"
CURSOR = "cursor"


def refuse(
    report: Report, client: str, path: str, where: tuple[int, int], code: str, text: str
) -> None:
    """``client`` refuses the item at ``path``, ``where``: ``text`` says why."""
    report.error(path, *where, code, text)


def at(text: str, *keys: str) -> tuple[int, int]:
    """The position of the last of ``keys`` (each a JSON key, searched for after the
    one before it) in a manifest's ``text``; the first found, or the start."""
    offset = found = 0
    for key in keys:
        offset = text.find(json.dumps(key), offset)
        if offset < 0:
            break
        found = offset
    return position(text, found)
