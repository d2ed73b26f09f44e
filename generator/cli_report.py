"""What ``skillc build | validate`` prints: diagnostics as text, GitHub annotations or
JSON (one object a line), and the short account of a stale output folder that ``--check``
gives (``--diff`` adds the full diff)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import NamedTuple

from generator import writer
from generator.diagnostics import Diagnostic, Severity, make

FORMATS = ("text", "github", "json")


class Output(NamedTuple):
    """How much to print, and in which format: ``-q`` errors only; ``-v`` every file
    written too; ``--diff`` the full diff of a stale output folder."""

    error_format: str = "text"
    quiet: bool = False
    verbose: bool = False
    diff: bool = False

    @classmethod
    def of(cls, args: argparse.Namespace) -> Output:
        return cls(
            getattr(args, "error_format", "text"),
            bool(getattr(args, "quiet", False)),
            bool(getattr(args, "verbose", False)),
            bool(getattr(args, "diff", False)),
        )

    def shows(self, item: Diagnostic) -> bool:
        return not self.quiet or item.severity is Severity.ERROR

    @property
    def summary(self) -> bool:
        """The closing ``skillc: ...`` line: not with -q, nor among JSON lines."""
        return not self.quiet and self.error_format != "json"


def add_arguments(command: argparse.ArgumentParser) -> None:
    """The output options of ``build`` and ``validate``."""
    command.add_argument(
        "--error-format",
        choices=FORMATS,
        default="text",
        help="github: GitHub Actions annotations; json: one JSON object a line",
    )
    loudness = command.add_mutually_exclusive_group()
    loudness.add_argument(
        "-q", "--quiet", action="store_true", help="print errors only"
    )
    loudness.add_argument(
        "-v", "--verbose", action="store_true", help="also list every file written"
    )


def diagnostic(item: Diagnostic, error_format: str) -> str:
    if error_format == "github":
        return item.format_github()
    if error_format == "json":
        return json.dumps(
            {
                "path": item.path,
                "line": item.line,
                "col": item.col,
                "severity": item.severity.value,
                "code": item.code,
                "message": item.message,
            },
            ensure_ascii=False,
        )
    return item.format()


def stale(
    out_dir: Path,
    files: dict[str, bytes],
    changes: writer.Plan,
    label: str,
    error_format: str,
    diff: bool,
) -> list[str]:
    """One line per file a build would change, with how many lines differ; in GitHub
    format, an annotation on each; the full diff only when asked for."""
    lines = version_changes(out_dir, files) if error_format != "json" else []
    for state, paths in (
        ("missing", changes.created),
        ("changed", changes.changed),
        ("extra", changes.extra),
    ):
        for path in paths:
            detail = _line_counts(out_dir, files, path, state)
            where = f"{label}/{path}"
            if error_format == "text":
                lines.append(f"{state}: {where} ({detail})")
                continue
            message = f"{state} ({detail}); run: skillc build"
            item = make(Severity.ERROR, where, 1, 1, "stale-output", message)
            lines.append(diagnostic(item, error_format))
    if diff:
        lines.append(writer.describe(out_dir, files, changes, label))
    elif changes.changed and error_format != "json":
        lines.append("(skillc build --check --diff shows the changes line by line)")
    return lines


def _line_counts(out_dir: Path, files: dict[str, bytes], path: str, state: str) -> str:
    new = files[path].decode("utf-8").splitlines() if path in files else []
    if state == "missing":
        return f"{len(new)} lines"
    old = (out_dir / path).read_text(encoding="utf-8", errors="replace").splitlines()
    if state == "extra":
        return f"{len(old)} lines"
    import difflib

    added = removed = 0
    for line in difflib.unified_diff(old, new, lineterm="", n=0):
        if line.startswith("+") and not line.startswith("+++"):
            added += 1
        elif line.startswith("-") and not line.startswith("---"):
            removed += 1
    return f"+{added} -{removed} lines"


def version_changes(out_dir: Path, files: dict[str, bytes]) -> list[str]:
    """``task.x: version 1.0.0 -> 1.1.0`` for each tool whose version the lock on disk
    and the new lock record differently (``none`` where one has no version)."""
    if writer.LOCK not in files:
        return []
    try:
        old = _versions(json.loads((out_dir / writer.LOCK).read_text(encoding="utf-8")))
    except (OSError, ValueError):
        return []  # no lock on disk, or not one skillc wrote: the file lines say so
    new = _versions(json.loads(files[writer.LOCK]))
    return [
        f"{tool}: version {old.get(tool, 'none')} -> {new.get(tool, 'none')}"
        for tool in sorted(old.keys() | new.keys())
        if old.get(tool) != new.get(tool)
    ]


def _versions(lock: object) -> dict[str, str]:
    entries = lock.get("versions") if isinstance(lock, dict) else None
    return {
        str(entry.get("tool")): str(entry.get("version"))
        for entry in entries or []
        if isinstance(entry, dict)
    }
