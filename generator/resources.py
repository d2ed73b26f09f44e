"""Where skillc's own files are: the templates ship inside the wheel."""

from __future__ import annotations

from pathlib import Path

PACKAGE = Path(__file__).resolve().parent  # generator/
BUILTINS = PACKAGE / "builtins"  # the built-in namespaces' manifests


def templates_dir() -> Path:
    """Inside an installed wheel, ``generator/templates``; in a checkout, ``templates/``.
    It holds ``jinja/``, the templates of the files each build writes, and
    ``runtime/``, the modules copied into every package as they are."""
    installed = PACKAGE / "templates"
    return installed if installed.is_dir() else PACKAGE.parent / "templates"


def runtime_dir() -> Path:
    return templates_dir() / "runtime"
