"""Where skillc's own files are: the templates ship inside the wheel."""

from __future__ import annotations

import importlib.util
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent  # generator/
BUILTINS = PACKAGE / "builtins"  # the built-in namespaces' manifests
TABLE = PACKAGE / "embed"  # find_tool's token table


def templates_dir() -> Path:
    """Inside an installed wheel, ``generator/templates``; in a checkout, ``templates/``.
    It holds ``jinja/``, the templates of the files each build writes, and
    ``runtime/``, the modules copied into every package as they are."""
    installed = PACKAGE / "templates"
    return installed if installed.is_dir() else PACKAGE.parent / "templates"


def runtime_dir() -> Path:
    return templates_dir() / "runtime"


def table_missing(wanted: str) -> str | None:
    """Why hybrid ranking cannot be built ("" when lexical was asked for), or None.
    Model mode falls back to hybrid, so it needs the table too."""
    if wanted not in ("hybrid", "model"):
        return ""
    if importlib.util.find_spec("numpy") is None:
        return "numpy is not installed (pip install numpy)"
    if not (TABLE / "table.npy").is_file():
        return f"the token table is missing from {TABLE.name}/"
    return None


def table_key(wanted: str) -> str:
    """What the build cache must know of the table: its model, or that there is none.
    (Here, not with the search index's emitter, so that a no-op build reads it
    without importing the emitters.)"""
    if table_missing(wanted) is None:
        return (TABLE / "MODEL").read_text(encoding="utf-8").strip()
    return "lexical"
