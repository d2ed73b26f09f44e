"""Diagnostics as data: every stage reports problems here, never by raising at the user.

A diagnostic prints as ``path:line:col: error[code]: message``. Codes are stable kebab-case
names, listed with their meaning in ``CODES`` (and in the README).
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass, field


class Severity(enum.Enum):
    ERROR = "error"
    WARNING = "warning"


CODES: dict[str, str] = {
    # files and parsing
    "file-unreadable": "the file could not be read",
    "file-not-utf8": "the file is not valid UTF-8",
    "file-empty": "the file is empty",
    "file-too-large": "the file is larger than max-file-bytes",
    "symlink-loop": "a symbolic link leads back into a folder already being scanned",
    "no-frontmatter": "the Markdown file does not start with a '---' YAML frontmatter block",
    "frontmatter-unclosed": "the frontmatter has no closing '---' line",
    "frontmatter-not-mapping": "the frontmatter is not a YAML mapping",
    "yaml-syntax": "the YAML does not parse",
    "yaml-duplicate-key": "a key appears twice in one mapping",
    "yaml-alias-bomb": "YAML anchors and aliases expand past the node limit",
    "json-syntax": "the JSON does not parse",
    "bom": "the file starts with a byte-order mark",
    "crlf": "the file uses CRLF line endings",
    # skill and agent fields
    "missing-name": "name is missing or empty",
    "invalid-name": "name breaks the naming rules",
    "name-folder-mismatch": "a skill's name differs from its folder's name",
    "missing-description": "description is missing or empty",
    "description-too-long": "description is longer than 1,024 characters",
    "invalid-field": "a field has the wrong type or value",
    "non-spec-key": "a key Claude Code accepts but the Agent Skills spec does not define",
    "unknown-key": "a key that neither the spec nor Claude Code defines",
    "flow-style": "a flow-style YAML list or map, which the reference validator rejects",
    "metadata-conflict": "metadata.yaml and the frontmatter give different values for a key",
    "not-a-subagent": "a Markdown file in an agents folder without frontmatter",
    "invalid-plugin": "a .claude-plugin/plugin.json that cannot be used",
    "too-many-files": "a skill folder bundles more files than are listed",
    # tool manifests
    "manifest-invalid": "a tool manifest breaks the JSON Schema of its format",
    "schema-invalid": "an input or output schema has no clear meaning or is not valid JSON Schema",
    "schema-normalised": "a non-standard schema construct was rewritten to its one clear meaning",
    "schema-untyped": "an input schema could not be turned into Python types",
    "duplicate-tool": "two tools or commands of one manifest have the same name",
    "install-not-allowed": "an ai-tool.yaml install source is outside the install-allowlist",
    "invalid-tool-id": "a skill script's tool id breaks the seed 001 rule",
    "executor-invalid": "an executor's entry or URL cannot be used",
    "namespace-too-deep": "a dotted tool name is deeper than max-namespace-depth",
    # resolution
    "duplicate-name": "two tools have the same name in one source root and namespace",
    "identifier-collision": "two names become the same Python identifier",
    "override": "a later source root overrides a tool of an earlier one",
    "shadowed": "a tool lost its name to a built-in tool and is left out",
    "provider-name-shortened": "a tool's provider name was cut to provider-name-limit",
    "provider-name-collision": "two tools get the same provider name",
    "profile-invalid": "a profile enables both tools of an incompatible pair",
    "provider-schema": "a tool's input schema has a root no provider accepts",
    "budget-exceeded": "a Level 1 entry is over 100 tokens or a Level 2 spec over 5,000",
    "find-tool-lexical": "find-tool is hybrid but numpy or the token table is missing",
}


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
        kind = "error" if self.severity is Severity.ERROR else "warning"
        message = (
            self.message.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
        )
        return (
            f"::{kind} file={self.path},line={self.line},col={self.col},"
            f"title={self.code}::{message}"
        )


def make(
    severity: Severity, path: str, line: int, col: int, code: str, message: str
) -> Diagnostic:
    assert code in CODES, code
    rank = 0 if severity is Severity.ERROR else 1
    return Diagnostic(path, max(line, 1), max(col, 1), rank, code, message, severity)


class Report:
    """Collects diagnostics from every stage; a stage never stops the others."""

    def __init__(self, strict: bool = False) -> None:
        self.strict = strict
        self._items: set[Diagnostic] = set()

    def error(self, path: str, line: int, col: int, code: str, message: str) -> None:
        self._items.add(make(Severity.ERROR, path, line, col, code, message))

    def warning(self, path: str, line: int, col: int, code: str, message: str) -> None:
        self._items.add(make(Severity.WARNING, path, line, col, code, message))

    def lenient(self, path: str, line: int, col: int, code: str, message: str) -> None:
        """A deviation Claude Code accepts: a warning, or an error under --strict."""
        if self.strict:
            self.error(path, line, col, code, message + " (error under --strict)")
        else:
            self.warning(path, line, col, code, message)

    def extend(self, items: Iterable[Diagnostic]) -> None:
        self._items.update(items)

    @property
    def items(self) -> list[Diagnostic]:
        return sorted(self._items)

    @property
    def error_count(self) -> int:
        return sum(1 for d in self._items if d.severity is Severity.ERROR)

    @property
    def has_errors(self) -> bool:
        return any(d.severity is Severity.ERROR for d in self._items)
