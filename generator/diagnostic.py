"""One diagnostic as data (``diagnostics.make`` makes them): a named tuple, not a
dataclass, so that a build with nothing to do that says again what the last one said
(the build cache keeps it) imports no dataclasses, nor inspect. This repository's
skills with one input in error: that no-op took 15 ms of CPU more than a plain one with
a dataclass (91 against 76 ms), 2 ms more with a named tuple (112 against 109 ms, at a
busier moment); medians of 20 interleaved runs each."""

from __future__ import annotations

import enum
import operator
from typing import NamedTuple


class Severity(enum.Enum):
    ERROR = "error"
    WARNING = "warning"
    # A note: what was found and left out on purpose, or what skillc itself did (a
    # provider name it shortened), with nothing to fix in the source: shown with -v,
    # else counted in one line.
    INFO = "info"


class Diagnostic(NamedTuple):
    """One problem, located in a repo-relative file (1-based line and column); they
    sort by place, errors before warnings at the same place (the severity is the
    rank's)."""

    path: str
    line: int
    col: int
    severity_rank: int  # errors sort before warnings, warnings before info
    code: str
    message: str
    severity: Severity

    def format(self) -> str:
        return f"{self.path}:{self.line}:{self.col}: {self.severity.value}[{self.code}]: {self.message}"

    def format_github(self) -> str:
        """A GitHub Actions workflow command, escaped as GitHub's toolkit escapes them
        (``%``, CR and LF everywhere; ``:`` and ``,`` too in properties), so no file name
        or message can end the command early or start another one. A note is GitHub's
        ``notice``."""
        command = "notice" if self.severity is Severity.INFO else self.severity.value
        return (
            f"::{command} file={_property(self.path)},line={self.line},col={self.col},"
            f"title={_property(self.code)}::{_data(self.message)}"
        )


def _data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _property(text: str) -> str:
    return _data(text).replace(":", "%3A").replace(",", "%2C")


# Diagnostic's order as a key: the fields before the severity (enum members do not
# order), compared in C.
ORDER = operator.itemgetter(*range(len(Diagnostic._fields) - 1))
