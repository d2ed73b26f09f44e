"""Seed 000's skill metadata (``version``, ``author``, ``tags``, ``capabilities``,
``constraints``, ``tools``; from frontmatter or ``metadata.yaml``) in one normal form,
for every output that shows it: Level 2 help, the index the runtime filters on,
``ai-tools.json`` and the lock."""

from __future__ import annotations

from ..ir import Definition, Function, Tool

# The list-valued keys, after ``tags`` (which the loader reads itself).
LISTS = ("capabilities", "constraints", "tools")


def text(value: object) -> str:
    """A metadata value as one line of text: a list joined, an author by name."""
    if isinstance(value, list):
        return ", ".join(filter(None, (text(item) for item in value)))
    if isinstance(value, dict):
        return text(value.get("name"))
    if isinstance(value, (str, int, float)) and not isinstance(value, bool):
        return " ".join(str(value).split())
    return ""


def items(value: object) -> list[str]:
    """A list-valued key as its items: a YAML list, or one comma-separated string."""
    raw = value if isinstance(value, list) else str(value or "").split(",")
    return [item for item in (text(v) for v in raw) if item]


def metadata(tool: Tool) -> dict[str, str | list[str]]:
    """The metadata a tool sets, keys without a value left out (a callable tool has
    only its ai-tool.yaml tool's version)."""
    d = tool.definition
    if isinstance(d, Function):
        version = text((d.cli_tool or {}).get("version"))
        return {"version": version} if version else {}
    assert isinstance(d, Definition)
    found: dict[str, str | list[str]] = {
        "version": d.version or text(d.extra.get("version")),
        "author": text(d.extra.get("author")),
        "tags": list(d.tags) or items(d.extra.get("tags")),
    }
    found |= {key: items(d.extra.get(key)) for key in LISTS}
    return {key: value for key, value in found.items() if value}


def previous_names(d: Definition | Function) -> tuple[str, ...]:
    """The names a skill or subagent says it had (``previous-name``, in its
    frontmatter's ``metadata``, its metadata.yaml or its frontmatter: one name or
    several, comma-separated), sorted."""
    if not isinstance(d, Definition):
        return ()
    value = d.metadata.get("previous-name") or d.extra.get("previous-name")
    return tuple(sorted(set(items(value))))
