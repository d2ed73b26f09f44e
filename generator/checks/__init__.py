"""Catalogue health: what ``skillc check`` finds in a build besides stale output.

Each check is one module of pure functions over what a build already has (the model,
the output files, the lock it replaces), listed in ``registry.CHECKS``: adding a check
is adding its module and one line there. A check reports problems into the ``Report`` it is given
(so ``ignore`` and ``warnings-as-errors`` apply to them as to the build's own) and
returns its findings as JSON data for ``skillc check --report``. Nothing here writes a
file or runs what the project holds.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import field
from pathlib import Path
from typing import Any

from ..config import Config
from ..diagnostic import Diagnostic
from ..diagnostics import Report
from ..ir import Model

# A written package read back as one client loads it (skillc's discovery and loaders
# over its folder, following that client alone): the model, and what reading said.
Reader = Callable[[str, Path], tuple[Model | None, list[Diagnostic]]]


@dataclasses.dataclass(frozen=True)
class Options:
    """What ``skillc check`` was asked for (flags over ``[tool.skillc.check]``)."""

    # Harness listings to simulate, each with its context size in tokens (None: the
    # harness's documented default).
    budgets: tuple[tuple[str, int | None], ...] = ()
    # "each": as users install the project (its own client folders as a whole, each
    # plugin, each catalogue skill); "all": every skill and plugin at once.
    installed: str = "each"
    against: str = "lock"  # the baseline of breaking changes: "lock" or a git ref
    skip: frozenset[str] = frozenset()  # checks not run


@dataclasses.dataclass(frozen=True)
class Subject:
    """One build, as the checks read it."""

    config: Config
    model: Model
    # The output folder as the build would write it, as bytes: an archive is not text.
    files: Mapping[str, bytes]
    baseline: Mapping[str, Any] | None  # the lock compared with (None: none found)
    baseline_name: str  # where it came from, for messages: "the lock on disk", a ref
    options: Options = field(default_factory=Options)
    read: Reader | None = None  # none: the packages are not read back (packages)


Check = Callable[[Subject, Report], Any]
