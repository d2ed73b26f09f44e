"""The fix a YAML syntax error most likely needs, told from the text at its mark:
PyYAML names what it met (``mapping values are not allowed here``), which several
mistakes share. Each hint starts with ``; `` and is empty when none fits."""

from __future__ import annotations

import yaml

QUOTE = "; a value that contains ': ' must be quoted, e.g. description: \"...\""


def hint(exc: yaml.MarkedYAMLError, text: str, line_offset: int = 0) -> str:
    """``line_offset``: the file line the text starts after (a frontmatter's ``---``)."""
    problem = exc.problem or ""
    mark = exc.problem_mark
    lines = text.splitlines()
    line = lines[mark.line] if mark is not None and mark.line < len(lines) else ""
    if problem.startswith("mapping values are not allowed") and mark is not None:
        before = line[: mark.column]
        if ": " in before.strip() or before.rstrip().endswith(":"):
            return QUOTE
        if line[: len(line) - len(line.lstrip())]:
            return (
                f"; line {line_offset + mark.line + 1} is indented more than the key "
                "above it: "
                "start each key at the same column (a value that goes on a new line "
                "needs | or >)"
            )
        return QUOTE
    if "quoted scalar" in (exc.context or "") and exc.context_mark is not None:
        opened = exc.context_mark
        return (
            f"; the quote opened at line {line_offset + opened.line + 1}, column "
            f"{opened.column + 1} is never closed"
        )
    expected = ("expected <block end>", "did not find expected key")
    if problem.startswith(expected) and mark is not None:
        closed = line[: mark.column].rstrip()[-1:]
        if closed in ("'", '"'):
            return (
                "; text follows a closing quote: quote the whole value, writing a "
                "quote inside it twice ('it''s') or escaped (\"say \\\"hi\\\"\")"
            )
    if "'\\t'" in problem or "tab character" in problem:
        return "; indent with spaces: YAML does not allow tabs there"
    return ""
