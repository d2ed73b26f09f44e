"""Provider tool-schema files: one module per provider, sharing the tool schemas of
``schemas``, each listed in ``generator/provider_registry.py``. A provider's module
declares:

- ``FILES``: its files (``File``), each with the function that makes one tool's entry
  and the function that makes the file from its tools' entries;
- ``NAMES``: its column of ``providers/names.json``: "dotted" when it keeps the dotted
  name, "flat" when it takes the provider name without dots, None when it has none;
- ``PROFILE_FILES`` (optional): the files a profile of this provider gets, when not its
  own ``FILES`` (an OpenAI-compatible endpoint takes OpenAI's Chat file);
- ``DISPATCH`` (optional): how the generated package's ``dispatch()`` reads a tool call
  of this provider and answers it (``Dispatch``), one per name ``dispatch()`` takes.
"""

from __future__ import annotations

from dataclasses import dataclass

from collections.abc import Callable
from typing import Any, NamedTuple

from ...emitters.providers.schemas import Notes
from ...views import ToolView

# One tool's entry in one file (None: left out of it): the tool, the notes to add to,
# the file's name and whether the tool is always loaded.
Entry = Callable[[ToolView, Notes, str, bool], dict[str, Any] | None]


class Shown(NamedTuple):
    """A tool's entry in one file, as the file around the entries sees it."""

    line: str  # the entry, as JSON on one line
    tool: ToolView
    namespace: str  # the Level 1 summary of the tool's namespace


def json_lines(lines: list[str]) -> str:
    """A JSON array with one item per line."""
    if not lines:
        return "[]\n"
    return "[\n  " + ",\n  ".join(lines) + "\n]\n"


def json_array(shown: list[Shown]) -> str:
    """A JSON array with one tool per line."""
    return json_lines([s.line for s in shown])


@dataclass(frozen=True, slots=True)
class File:
    name: str
    entry: Entry
    wrap: Callable[[list[Shown]], str] = json_array  # the file around its tools' lines
    deferrable: bool = False  # a tool's entry differs when the tool is always loaded


@dataclass(frozen=True, slots=True)
class Dispatch:
    """How ``dispatch(name, tool_call)`` (templates/runtime/_dispatch.py) serves one
    provider: Python statements written into the generated package, in the registry's
    order (the last provider's without a test of the name)."""

    name: str  # the name dispatch() takes: "openai-chat"
    dotted: bool  # its tool names keep the dots ("s3.file.read"), as names.json says
    # From ``item`` (the call as a dict; ``_plain`` makes an SDK object one), return
    # ``_call(id, name, arguments)``.
    read: str
    # From ``call`` (a ``Call``), ``ok``, ``text`` and ``data``, return the answer.
    answer: str
