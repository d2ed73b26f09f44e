"""Split a Markdown file into its YAML frontmatter and body, on delimiter lines.

Unlike ``text.split("---", 2)`` this only treats a line that is exactly ``---`` as a
delimiter, so a ``---`` inside a value does not end the frontmatter early.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from generator.diagnostics import Report


@dataclass(frozen=True, slots=True)
class Split:
    frontmatter: str
    line_offset: int  # lines before the frontmatter's first line
    body: str


def read(path: Path, rel: str, report: Report, max_bytes: int) -> str | None:
    """A source file's text, within ``max_bytes``; report and return None when unusable."""
    try:
        size = path.stat().st_size
        if size > max_bytes:
            report.error(
                rel,
                1,
                1,
                "file-too-large",
                f"the file is {size:,} bytes; the limit is {max_bytes:,} (max-file-bytes)",
            )
            return None
        raw = path.read_bytes()
    except OSError as exc:
        report.error(
            rel, 1, 1, "file-unreadable", f"cannot read the file: {exc.strerror}"
        )
        return None
    return decode(raw, rel, report)


def decode(raw: bytes, path: str, report: Report) -> str | None:
    """Bytes to text: UTF-8 only; a BOM and CRLF are accepted with a warning."""
    if not raw.strip():
        report.error(path, 1, 1, "file-empty", "the file is empty")
        return None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        col = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        report.error(
            path,
            line,
            col,
            "file-not-utf8",
            f"the file is not valid UTF-8 (byte 0x{raw[exc.start]:02x} at offset {exc.start})",
        )
        return None
    if text.startswith("\ufeff"):
        report.warning(
            path, 1, 1, "bom", "the file starts with a byte-order mark; it is ignored"
        )
        text = text[1:]
    if "\r\n" in text:
        report.warning(
            path, 1, 1, "crlf", "the file uses CRLF line endings; read as LF"
        )
        text = text.replace("\r\n", "\n")
    return text


def split(text: str, path: str, report: Report) -> Split | None:
    lines = text.split("\n")
    if lines[0].rstrip() != "---":
        report.error(
            path,
            1,
            1,
            "no-frontmatter",
            "the file must start with a '---' line that opens the YAML frontmatter",
        )
        return None
    for index in range(1, len(lines)):
        if lines[index].rstrip() == "---":
            frontmatter = "\n".join(lines[1:index])
            body = "\n".join(lines[index + 1 :]).strip()
            return Split(frontmatter, 1, body)
    report.error(
        path, 1, 1, "frontmatter-unclosed", "the frontmatter has no closing '---' line"
    )
    return None
