"""One loader per input format, each with one entry point: ``load(found, context) ->
Loaded``, which turns a discovered file into validated ``ir.Definition``s and
``ir.Function``s and reports what is wrong with it in ``context.report``."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass

from collections.abc import Callable, Iterator, Mapping
from contextvars import ContextVar
from pathlib import Path
from typing import TYPE_CHECKING

from ..diagnostics import Report

if TYPE_CHECKING:  # discovery imports the plugin and marketplace loaders, not the model
    from ..discover import Found
    from ..ir import Definition, Function

# The input files' bytes as the build hashed them (``digests.read_all``), by path, while
# the pipeline loads them (``hashed``): a loader reads the very bytes its memo key and the
# lock name, and no file is opened again nor hashed twice. Loading (pipeline._model) at
# 1,000 skills 1.12 -> 0.76 s, at the wshobson-agents marketplace 1.02 -> 0.84 s (medians
# of 5 interleaved cold builds; tests/bench.py --runs 3 cannot separate it from the
# noise of a loaded machine: 1,000 skills cold 15.0/12.7x main, 14.2/12.5x with it).
HASHED: ContextVar[Mapping[str, bytes]] = ContextVar("HASHED", default={})


@contextlib.contextmanager
def hashed(contents: Mapping[str, bytes]) -> Iterator[None]:
    """Loaders read ``contents`` (path -> bytes) rather than the files, meanwhile."""
    token = HASHED.set(contents)
    try:
        yield
    finally:
        HASHED.reset(token)


@dataclass(frozen=True, slots=True)
class Context:
    """What a loader is given beside the file it loads."""

    project: Path
    report: Report
    max_file_bytes: int
    plugin: str | None = None  # the enclosing plugin's name
    install_allowlist: tuple[str, ...] = (
        "pypi:*",
    )  # where ai-tool.yaml may install from


@dataclass(frozen=True, slots=True)
class Loaded:
    definition: Definition | None = None  # a skill, subagent or command
    functions: tuple[Function, ...] = ()  # callable tools
    summary: str = ""  # a manifest's summary of its namespace


Loader = Callable[["Found", Context], Loaded]
# A Markdown format's reader: one definition or None.
Reader = Callable[["Found", Context], "Definition | None"]


def markdown_loader(read: Reader) -> Loader:
    """The loader of a Markdown format (skills, subagents, commands), from its reader."""

    def load(found: Found, context: Context) -> Loaded:
        errors = context.report.error_count
        definition = read(found, context)
        # A file with an error gives no definition (all of it is read first, so that one
        # run reports every problem of the file).
        return Loaded(None if context.report.error_count > errors else definition)

    return load
