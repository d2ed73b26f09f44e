"""What ``skillc build | validate`` prints: diagnostics as text, GitHub annotations or
JSON (one object a line), and the short account of a stale output folder that ``--check``
gives (``--diff`` adds the full diff)."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, NamedTuple, TextIO

from . import lockdiff, root_files, writer
from .diagnostic import Diagnostic
from .diagnostics import CODES, Report, Severity, make

RootPlan = root_files.Plan
FORMATS = ("text", "github", "json")
# Warnings of one code past this many are shown as a count and the first few: a
# repository of 864 skills says the same thing hundreds of times.
FIRST_FEW = 3
PROGRESS_AFTER_SEC = 1.0  # builds that take longer show a progress line
_COLOURS = {
    "error": "\x1b[1;31m",
    "warning": "\x1b[33m",
    "info": "\x1b[36m",
    "bold": "\x1b[1m",
}
# Codes whose every warning is listed: each breaking change is one a caller meets.
LISTED_IN_FULL = frozenset({"breaking-change", "version-not-bumped"})
_RESET = "\x1b[0m"


class Output(NamedTuple):
    """How much to print, and in which format: ``-q`` errors only; ``-v`` every file
    written and every warning; ``--diff`` the full diff of a stale output folder.
    ``terminal``: stderr is one (colour, unless NO_COLOR is set; a progress line)."""

    error_format: str = "text"
    quiet: bool = False
    verbose: bool = False
    diff: bool = False
    terminal: bool = False

    @classmethod
    def of(cls, args: argparse.Namespace, stream: TextIO | None = None) -> Output:
        stream = sys.stderr if stream is None else stream
        return cls(
            getattr(args, "error_format", "text"),
            bool(getattr(args, "quiet", False)),
            bool(getattr(args, "verbose", False)),
            bool(getattr(args, "diff", False)),
            _is_terminal(stream),
        )

    @property
    def colour(self) -> bool:
        """Colour only on a terminal (never in a file or a CI log that is not one),
        and never when NO_COLOR is set (no-color.org) or the terminal is dumb."""
        return (
            self.terminal
            and self.error_format == "text"
            and not os.environ.get("NO_COLOR")
            and os.environ.get("TERM") != "dumb"
        )

    @property
    def progress(self) -> bool:
        return self.terminal and self.error_format == "text" and not self.quiet

    def paint(self, text: str, style: str) -> str:
        return f"{_COLOURS[style]}{text}{_RESET}" if self.colour else text

    def shows(self, item: Diagnostic) -> bool:
        """Errors always; warnings unless -q; notes (``Severity.INFO``: what was left
        out on purpose, what skillc did) with -v only."""
        if item.severity is Severity.INFO:
            return self.verbose
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
        "-v",
        "--verbose",
        action="store_true",
        help="list every warning, and every file written",
    )


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def listing(items: Sequence[Diagnostic], output: Output) -> list[str]:
    """The diagnostics to print. Errors are listed in full. In text format without
    ``-v``, the warnings of a code that has more than ``FIRST_FEW`` are its first few
    and a line that counts the rest (``-v`` or ``--error-format json`` list them all).
    """
    shown = [item for item in items if output.shows(item)]
    if output.error_format != "text":
        return [diagnostic(item, output.error_format) for item in shown]
    return [*_grouped(shown, output), *_notes(items, output)]


def _grouped(shown: Sequence[Diagnostic], output: Output) -> list[str]:
    """Errors, notes and LISTED_IN_FULL in full; a code's other warnings past
    FIRST_FEW as a count, unless -v."""
    by_code: dict[str, int] = {}
    for item in shown:
        if _collapsible(item):
            by_code[item.code] = by_code.get(item.code, 0) + 1
    grouped = not output.verbose and any(n > FIRST_FEW for n in by_code.values())
    lines: list[str] = []
    seen: dict[str, int] = {}
    for item in shown:
        if not _collapsible(item) or not grouped:
            lines.append(_painted(item, output))
            continue
        seen[item.code] = seen.get(item.code, 0) + 1
        if seen[item.code] <= FIRST_FEW:
            lines.append(_painted(item, output))
    if grouped:
        for code, count in sorted(by_code.items(), key=lambda c: (-c[1], c[0])):
            if count > FIRST_FEW:
                label = output.paint(f"warning[{code}]", "warning")
                lines.append(
                    f"{label}: {count:,} in all, {count - FIRST_FEW:,} not shown "
                    f"({CODES[code]})"
                )
        lines.append("(skillc build -v, or --error-format json, lists every warning)")
    return lines


def _collapsible(item: Diagnostic) -> bool:
    return item.severity is Severity.WARNING and item.code not in LISTED_IN_FULL


def _notes(items: Sequence[Diagnostic], output: Output) -> list[str]:
    """Without -v, one line per code of notes: how many, and what they say."""
    if output.verbose or output.quiet:
        return []
    notes = Counter(d.code for d in items if d.severity is Severity.INFO)
    return [
        f"info[{code}]: {counted(count, 'note')} not shown ({CODES[code]}; -v lists them)"
        for code, count in sorted(notes.items())
    ]


def _painted(item: Diagnostic, output: Output) -> str:
    text = item.format()
    if not output.colour:
        return text
    label = f"{item.severity.value}[{item.code}]"
    where, _, rest = text.partition(f" {label}")
    painted = output.paint(label, item.severity.value)  # _COLOURS: error, warning
    return f"{output.paint(where, 'bold')} {painted}{rest}"


def counted(number: int, thing: str, plural: str = "") -> str:
    """``1 file``, ``2 files``, ``1,024 warnings``."""
    return f"{number:,} {thing if number == 1 else plural or thing + 's'}"


def summary(
    items: Sequence[Diagnostic], output: Output, what: str, more: int = 0
) -> str:
    """The closing line: what was done, then the diagnostics counted (``more``: errors
    printed apart from them)."""
    errors = more + sum(1 for d in items if d.severity is Severity.ERROR)
    notes = sum(1 for d in items if d.severity is Severity.INFO)
    warnings = len(items) + more - errors - notes
    counts = f"{counted(errors, 'error')}, {counted(warnings, 'warning')}"
    if errors:
        counts = output.paint(counts, "error")
    elif warnings:
        counts = output.paint(counts, "warning")
    if notes:
        counts += f", {counted(notes, 'note')}"
    return f"skillc: {what + '; ' if what else ''}{counts}"


class Progress:
    """A line on the terminal that says the build is still going, once it has taken
    ``after`` seconds; ``stop()`` clears it (before anything else is printed): with an
    escape code when colour is on, else with spaces (NO_COLOR: no escape codes at all).
    A timer signal, so that the build stays one thread."""

    def __init__(self, output: Output, after: float = PROGRESS_AFTER_SEC) -> None:
        self.running = output.progress and _timer_usable()
        self.shown = False
        self.escapes = output.colour
        self.width = 0  # of the line last written
        self.started = time.monotonic()
        if self.running:
            import signal

            self.previous = signal.signal(signal.SIGALRM, self._tick)
            signal.setitimer(signal.ITIMER_REAL, after, 0.5)

    def _tick(self, signum: int, frame: Any) -> None:
        self.shown = True
        seconds = time.monotonic() - self.started
        line = f"skillc: building... {seconds:.0f} s "
        self.width = len(line)
        sys.stderr.write("\r" + line)
        sys.stderr.flush()

    def stop(self) -> None:
        if not self.running:
            return
        self.running = False
        import signal

        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, self.previous)
        if self.shown:
            blank = "\x1b[K" if self.escapes else " " * self.width + "\r"
            sys.stderr.write("\r" + blank)  # the line cleared for what follows
            sys.stderr.flush()


def _timer_usable() -> bool:
    """Whether a timer signal can show progress: not where setitimer is missing, nor
    off the main thread. Imported only for a terminal: signal and threading took
    3.5 ms (python -X importtime, least of 9 runs, loaded machine) of a no-op build
    of this repository's skills/ (~0.15 s), whose stderr is no terminal."""
    import signal
    import threading

    return (
        hasattr(signal, "setitimer")
        and threading.current_thread() is threading.main_thread()
    )


@contextlib.contextmanager
def progress(output: Output, after: float = PROGRESS_AFTER_SEC) -> Iterator[Progress]:
    shown = Progress(output, after)
    try:
        yield shown
    finally:
        shown.stop()


def finish(
    report: Report, output: Output, what: str, always: bool = False, errors: int = 0
) -> int:
    """Print the diagnostics and the closing line, ``what`` was done (``always``: even
    under -q, for a line that is itself the error; ``errors``: printed already, to
    count); the exit status of the diagnostics.
    """
    items = report.items
    for line in listing(items, output):
        print(line, file=sys.stderr)
    if output.summary and (items or errors or not always):
        print(summary(items, output, what, errors), file=sys.stderr)
    elif always and output.error_format != "json":  # the error, without "0 errors"
        print(f"skillc: {what}", file=sys.stderr)
    return 1 if any(d.severity is Severity.ERROR for d in items) else 0


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
    output: Output,
    report: Report,
) -> tuple[list[str], int]:
    """What makes the output folder stale, where the fix is: each input that changed
    since it was built (a source, the settings, skillc: ``lockdiff.causes``) is a
    ``stale-output`` error in ``report``, at that input. Then one line per output file
    a build would change, with how many lines differ; in GitHub or JSON format an
    annotation on each only when no input explains it (edited by hand); the full diff
    only when asked for. Returns the lines and how many of them are errors."""
    error_format = output.error_format
    causes = lockdiff.causes(out_dir, files, label)
    count = len(changes.created) + len(changes.changed) + len(changes.extra)
    differ = f"{counted(count, 'file')} of {label}/ would change"
    for cause in causes:
        message = f"{cause.what} since {label}/ was built ({differ}); run: skillc build"
        report.error(cause.path, 1, 1, "stale-output", message)
    lines = lockdiff.version_changes(out_dir, files) if error_format != "json" else []
    annotated = 0
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
            elif not causes:
                message = f"{state} ({detail}); run: skillc build"
                item = make(Severity.ERROR, where, 1, 1, "stale-output", message)
                lines.append(diagnostic(item, error_format))
                annotated += 1
    if output.diff:
        lines.append(writer.describe(out_dir, files, changes, label))
    elif changes.changed and error_format != "json":
        lines.append("(skillc build --check --diff shows the changes line by line)")
    return lines, annotated


def _line_counts(out_dir: Path, files: dict[str, bytes], path: str, state: str) -> str:
    """How many lines differ; bytes, for a file that is not text (an archive); what it
    is, for one that is not a regular file (never read: a FIFO would hang the check)."""
    old = b"" if state == "missing" else writer.read_output(out_dir, path)
    if old is None:
        return "not a regular file skillc can read"
    new = files.get(path, b"")
    compared = {"missing": [new], "extra": [old]}.get(state, [old, new])
    texts = [writer.text(data) for data in compared]
    if None in texts:
        return " -> ".join(f"{len(data):,} bytes" for data in compared)
    lines = [str(text).splitlines() for text in texts]
    if state != "changed":
        return f"{len(lines[0])} lines"
    import difflib

    added = removed = 0
    for line in difflib.unified_diff(lines[0], lines[1], lineterm="", n=0):
        if line.startswith("+") and not line.startswith("+++"):
            added += 1
        elif line.startswith("-") and not line.startswith("---"):
            removed += 1
    return f"+{added} -{removed} lines"


def roots(cfg: Any, files: dict[str, bytes]) -> tuple[dict[str, bytes], RootPlan]:
    """The files a build writes at the project's root (``harness-root-files``), from
    the output folder's ``files``, and how they compare with what is there."""
    from .emitters.packages import root  # a full build's: its emitters are imported

    made = root.emit(files, cfg)
    owned = root_files.recorded(cfg.out_dir)
    return made, root_files.plan(cfg.root, made, owned)


def root_lines(changes: RootPlan) -> list[str]:
    """What makes the root files stale, a line each, as the output folder's."""
    why = dict(changes.unowned)
    states = (("missing", changes.created), ("changed", changes.changed))
    lines = [f"{state}: {path}" for state, paths in states for path in paths]
    lines += [f"extra: {path}" for path in changes.extra]
    return lines + [f"changed: {path} ({why[path]})" for path in sorted(why)]


def unowned_roots(changes: RootPlan, report: Report) -> bool:
    """Each root file skillc would replace or remove and does not own: an error at
    it (never touched, whatever --force says)."""
    for path, why in changes.unowned:
        report.error(
            path,
            1,
            1,
            "root-file-not-owned",
            f"{why}: harness-root-files would replace or remove it, and skillc "
            "never touches a file it did not write (move it away, or leave its "
            "client out of harness-root-files)",
        )
    return bool(changes.unowned)
