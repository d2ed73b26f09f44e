"""Provider tool-schema files: one module per provider, sharing the tool schemas of
``schemas``, each listed in ``generator/provider_registry.py``. A provider's module
declares:

- ``FILES``: its files (``File``), each with the function that makes one tool's entry
  and the function that makes the file from its tools' entries;
- ``NAMES``: its column of ``providers/names.json``: "dotted" when it keeps the dotted
  name, "flat" when it takes the provider name without dots, None when it has none;
- ``PROFILE_FILES`` (optional): the files a profile of this provider gets, when not its
  own ``FILES`` (an OpenAI-compatible endpoint takes OpenAI's Chat file);
- ``DISPATCH`` (optional): the names the generated package's ``dispatch()`` takes for
  this provider, each with its runtime module (``Dispatch``): a real Python module,
  copied into the package's ``_providers/`` (the built-in ones are in
  ``templates/runtime/_providers/``), that reads the provider's tool call
  (``read(item) -> Call``) and answers it (``answer(call, outcome) -> dict``).
"""

from __future__ import annotations

import functools
import importlib.util
from dataclasses import dataclass
from types import ModuleType

from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

from ...emitters.providers.schemas import Notes
from ...resources import runtime_dir
from ...views import ToolView

RUNTIME = runtime_dir() / "_providers"  # the built-in providers' runtime modules


@functools.cache
def discover() -> ModuleType:
    """The package's own ``_discover`` module: the client-executed search tool the
    deferred files declare is the one ``dispatch()`` answers."""
    path = runtime_dir() / "_discover.py"
    spec = importlib.util.spec_from_file_location("skillc_discover", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


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
    """A name ``dispatch(name, tool_call)`` takes, and the module that serves it (copied
    into the package as ``_providers/<its file name>``)."""

    name: str  # "openai-chat"
    runtime: Path
