"""Typed, located access to frontmatter fields, shared by the skill and subagent loaders."""

from __future__ import annotations

import dataclasses
import datetime
from collections.abc import Callable
from dataclasses import dataclass, field
from types import MappingProxyType
from pathlib import Path
from typing import Any, NamedTuple

from ..loaders import frontmatter, recover, yamlpos
from ..diagnostics import Report, did_you_mean


class Fallback(NamedTuple):
    """What a client makes of a file whose frontmatter is not YAML: the frontmatter it
    gives it instead, and how the warning says so (``compiled <said>``)."""

    frontmatter: dict[str, str]
    said: str


@dataclass
class Document:
    """A Markdown file's frontmatter mapping and body, with each key's file position."""

    path: str
    data: dict[str, Any]
    body: str
    report: Report
    origins: dict[str, tuple[str, yamlpos.Located]] = field(default_factory=dict)
    # False: the frontmatter is not YAML, and ``data`` is what recovery or the
    # client's fallback made of it (a client that reads strict YAML refuses it).
    yaml: bool = True

    def where(
        self, key: str | None = None, *, value: bool = True
    ) -> tuple[str, int, int]:
        if key is not None and key in self.origins:
            path, located = self.origins[key]
            return (path, *located.where(key, value=value))
        return self.path, 1, 1

    def error(
        self, key: str | None, code: str, message: str, *, at_key: bool = False
    ) -> None:
        self.report.error(*self.where(key, value=not at_key), code, message)

    def warning(
        self, key: str | None, code: str, message: str, *, at_key: bool = False
    ) -> None:
        self.report.warning(*self.where(key, value=not at_key), code, message)

    def lenient(
        self, key: str | None, code: str, message: str, *, at_key: bool = False
    ) -> None:
        self.report.lenient(*self.where(key, value=not at_key), code, message)

    def unknown(self, key: str, known: frozenset[str], what: str) -> None:
        """A key no reader uses: kept, with a warning (naming the known key it may be)."""
        self.warning(
            key,
            "unknown-key",
            f"unknown {what} key {key!r}; it is kept but not used"
            + did_you_mean(key, known),
            at_key=True,
        )

    def text(
        self, key: str, *, required: str | None = None, limit: int | None = None
    ) -> str | None:
        """A string field; ``required`` names the code for a missing or empty value."""
        value = self.data.get(key)
        if value is None or (isinstance(value, str) and not value.strip()):
            if required:
                self.error(
                    key if key in self.data else None,
                    required,
                    f"{key} is missing or empty",
                )
            return None
        if isinstance(value, (datetime.date, int, float)) and not isinstance(
            value, bool
        ):
            value = str(value)
        if not isinstance(value, str):
            self.error(
                key, "invalid-field", f"{key} must be a string, not {_kind(value)}"
            )
            return None
        if limit is not None and len(value) > limit:
            self.error(
                key,
                "invalid-field",
                f"{key} is {len(value)} characters; the limit is {limit}",
            )
            return None
        return value

    def flag(self, key: str) -> bool | None:
        """A boolean as Claude Code reads it: true/false, yes/no, on/off, 1/0."""
        value = self.data.get(key)
        if value is None or isinstance(value, bool):
            return value
        words = {
            "true": True,
            "yes": True,
            "on": True,
            "1": True,
            "false": False,
            "no": False,
            "off": False,
            "0": False,
        }
        if str(value).strip().lower() in words:
            return words[str(value).strip().lower()]
        self.error(key, "invalid-field", f"{key} must be true or false, not {value!r}")
        return None

    def tool_list(self, key: str) -> tuple[str, ...]:
        value = self.data.get(key)
        if value is None:
            return ()
        if isinstance(value, list) and all(isinstance(item, str) for item in value):
            return tuple(item.strip() for item in value if item.strip())
        if isinstance(value, str):
            return split_tool_list(value)
        self.error(key, "invalid-field", f"{key} must be a string or a list of strings")
        return ()

    def words(self, key: str) -> tuple[str, ...]:
        """A space-separated string or a list of strings."""
        value = self.data.get(key)
        if value is None:
            return ()
        if isinstance(value, str):
            return tuple(value.split())
        if isinstance(value, list) and all(
            isinstance(item, (str, int)) for item in value
        ):
            return tuple(str(item) for item in value)
        self.error(key, "invalid-field", f"{key} must be a string or a list of strings")
        return ()

    def extra(self, taken: frozenset[str]) -> MappingProxyType[str, Any]:
        """Every key not in ``taken``, as plain JSON values, for the model's ``extra``."""
        return MappingProxyType(
            {
                key: plain(self.data[key])
                for key in sorted(self.data)
                if key not in taken
            }
        )

    def check_flow_style(self) -> None:
        """Flow-style collections in this file's own frontmatter (not in metadata.yaml,
        which the reference validator never reads), and an ``allowed-tools`` list in
        either style, which ``gh skill publish`` rejects (cli.github.com/manual/
        gh_skill_publish: "allowed-tools is a string, not an array")."""
        for key in sorted(self.data):
            path, located = self.origins[key]
            if path == self.path and key in located.flow_keys:
                self.lenient(
                    key,
                    "flow-style",
                    f"{key} uses a flow-style YAML collection ([...] or {{...}}), "
                    "which the Agent Skills reference validator rejects",
                )
        tools = self.data.get("allowed-tools")
        if isinstance(tools, list) and self.origins["allowed-tools"][0] == self.path:
            shown = " ".join(str(tool) for tool in tools)
            self.lenient(
                "allowed-tools",
                "allowed-tools-list",
                "allowed-tools is a YAML list, which gh skill publish rejects (a "
                f"string, not an array): write allowed-tools: {shown}",
            )


def plain(value: Any) -> Any:
    """YAML values as JSON data: dates become ISO strings, keys become strings."""
    if isinstance(value, dict):
        return {
            str(k): plain(v)
            for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))
        }
    if isinstance(value, list):
        return [plain(v) for v in value]
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return str(value)


def split_tool_list(text: str) -> tuple[str, ...]:
    """Split ``Read, Grep`` or ``Bash(git add:*) Read``; separators inside (...) do not split."""
    if "(" not in text:  # every separator splits: as below, without a look at each char
        parts = text.split(",") if "," in text else text.split()
        return tuple(part.strip() for part in parts if part.strip())
    items = _top_level(text, lambda char: char == ",")
    if len(items) == 1:  # no comma outside (...): spaces separate
        items = _top_level(text, str.isspace)
    return tuple(item.strip() for item in items if item.strip())


def _top_level(text: str, is_split: Callable[[str], bool]) -> list[str]:
    """``text`` split at the characters ``is_split`` picks outside parentheses."""
    items: list[str] = []
    depth = 0
    current: list[str] = []
    for char in text:
        depth += (char == "(") - (char == ")")
        if is_split(char) and depth <= 0:
            items.append("".join(current))
            current = []
        else:
            current.append(char)
    items.append("".join(current))
    return items


def _kind(value: Any) -> str:
    return {dict: "a mapping", list: "a list", bool: "a boolean"}.get(
        type(value), type(value).__name__
    )


def read_document(
    path: Path,
    rel: str,
    report: Report,
    max_bytes: int,
    keys: frozenset[str] = frozenset(),
    fallback: Fallback | None = None,
) -> Document | None:
    """Read a Markdown file with YAML frontmatter; report and return None when unusable.
    ``keys``: the keys of the file's kind, up to which an unquoted description is read
    (``recover``); ``fallback``: what its client makes of the file when the frontmatter
    is not YAML and that reading does not recover it (None: an error)."""
    text = frontmatter.read(path, rel, report, max_bytes)
    if text is None:
        return None
    parts = frontmatter.split(text, rel, report)
    if parts is None:
        return None
    failed = Report()
    located = yamlpos.parse(parts.frontmatter, rel, parts.line_offset, failed)
    strict = located is not None
    if located is None:
        reading = _recovered(parts, rel, keys, failed, report)
        if not isinstance(reading, recover.Recovered) and fallback is not None:
            _fell_back(rel, parts, reading, failed, report, fallback)
            return Document(
                rel, dict(fallback.frontmatter), parts.body, report, yaml=False
            )
        if not isinstance(reading, recover.Recovered):
            report.extend(failed.items)
            return None
        located = reading.located
    if located.data is None:  # an empty frontmatter block: no keys at all
        located = dataclasses.replace(located, data={})
    if not isinstance(located.data, dict):
        line, col = located.where()
        report.error(
            rel,
            line,
            col,
            "frontmatter-not-mapping",
            "the frontmatter must be a YAML mapping of keys to values",
        )
        return None
    data = {str(key): value for key, value in located.data.items()}
    origins = {key: (rel, located) for key in data}
    return Document(rel, data, parts.body, report, origins, yaml=strict)


def has_frontmatter(path: Path) -> bool:
    try:
        head = frontmatter.head(path, 8)
    except OSError:
        return True  # let the reader report why it cannot be read
    return head.removeprefix(b"\xef\xbb\xbf").startswith(b"---")


def _recovered(
    parts: frontmatter.Split,
    rel: str,
    keys: frozenset[str],
    failed: Report,
    report: Report,
) -> recover.Recovered | recover.Ambiguous | None:
    """The description the author meant, when the YAML error is an unquoted ``: `` in
    it: read, with a warning at the error saying how to write it."""
    error = failed.items[0]
    if not keys or error.code != "yaml-syntax":
        return None
    reading = recover.recover(parts.frontmatter, parts.line_offset, keys, error.line)
    if isinstance(reading, recover.Recovered):
        more = reading.end - reading.first - 1
        lines = f" and its {more} continuation line{'s' if more > 1 else ''}" * bool(
            more
        )
        form = (
            'description: "..."'
            if reading.lines[0].endswith('"')
            else "a block scalar (description: |-)"
        )
        report.lenient(
            rel,
            error.line,
            error.col,
            "unquoted-colon",
            "the description holds ': ' unquoted, which is not YAML; read as the rest "
            f"of its line{lines}, as Gemini CLI and OpenCode read a skill's (Claude "
            "Code gives a plugin's subagent a placeholder description and skips a "
            f"project's, Codex refuses the file): write it as {form} (skillc fix does)",
        )
    return reading


def _fell_back(
    rel: str,
    parts: frontmatter.Split,
    reading: recover.Ambiguous | None,
    failed: Report,
    report: Report,
    fallback: Fallback,
) -> None:
    error = failed.items[0]
    if reading is None:
        what, fix = f"the frontmatter is not YAML ({error.message})", "fix its YAML"
    else:
        line = parts.line_offset + reading.line + 1
        what = (
            "the description holds ': ' unquoted, which is not YAML, and line "
            f"{line} may be a key or its text"
        )
        fix = "quote the description"
    report.lenient(
        rel,
        error.line,
        error.col,
        "frontmatter-placeholder",
        f"{what}; compiled {fallback.said}; {fix}",
    )
