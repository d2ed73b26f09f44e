"""One diagnostic as data (``diagnostics.make`` makes them): a dataclass, as the build
cache keeps it. Apart from diagnostics.py, so that a build with nothing to do, which
reports nothing new, never imports dataclasses (nor inspect): see pipeline.Build."""

from __future__ import annotations

import operator
from dataclasses import dataclass, field, fields

from .diagnostics import Severity


@dataclass(frozen=True, slots=True, order=True)
class Diagnostic:
    """One problem, located in a repo-relative file (1-based line and column)."""

    path: str
    line: int
    col: int
    severity_rank: int  # errors sort before warnings at the same place
    code: str
    message: str
    severity: Severity = field(compare=False)

    def format(self) -> str:
        return f"{self.path}:{self.line}:{self.col}: {self.severity.value}[{self.code}]: {self.message}"

    def format_github(self) -> str:
        """A GitHub Actions workflow command, escaped as GitHub's toolkit escapes them
        (``%``, CR and LF everywhere; ``:`` and ``,`` too in properties), so no file name
        or message can end the command early or start another one."""
        return (
            f"::{self.severity.value} file={_property(self.path)},line={self.line},col={self.col},"
            f"title={_property(self.code)}::{_data(self.message)}"
        )


def _data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _property(text: str) -> str:
    return _data(text).replace(":", "%3A").replace(",", "%2C")


# Diagnostic's order as a key: sorting by it compares tuples in C, where sorting the
# records compares each pair in Python (a tenth of a second for thousands of warnings).
ORDER = operator.attrgetter(*(f.name for f in fields(Diagnostic) if f.compare))
