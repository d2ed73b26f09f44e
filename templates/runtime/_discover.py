"""``find_tool`` for a model: the search tool that MCP clients (``_mcp``) and the
providers' client-executed tool searches (``_providers``) call, with one input schema,
one reading of its arguments and one answer per tool found. skillc reads ``SEARCH``,
``DESCRIPTION`` and ``SCHEMA`` from this file when it writes the provider files, so the
declared tool and the one ``dispatch()`` answers cannot drift apart (this module
imports nothing of the package at its top for that reason).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

# The search tool's name, and the tool that calls any other by name (MCP's
# progressive mode, whose tools/list does not list them all).
SEARCH = "find_tool"
CALL = "call_tool"
DEFAULT_K = 5
MAX_K = 50
DESCRIPTION = (
    "Find the tools that fit a purpose in plain words, best first, each with a "
    "relevance in 0..1 and why it matched. Use it before any task no loaded tool "
    "does; when nothing fits, ask again in other words or with a larger k."
)
SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "purpose": {
            "type": "string",
            "minLength": 1,
            "description": "What the tool should do, in plain words.",
        },
        "k": {
            "type": "integer",
            "minimum": 1,
            "maximum": MAX_K,
            "description": f"How many tools to return (default {DEFAULT_K}).",
        },
        "tags": {
            "type": "array",
            "items": {"type": "string"},
            "description": "Only tools that have each of these tags.",
        },
        "capabilities": {
            "type": "array",
            "items": {"type": "string"},
            "description": "Only tools that have each of these capabilities.",
        },
    },
    "required": ["purpose"],
    "additionalProperties": False,
}
CALL_DESCRIPTION = (
    f"Call a tool that {SEARCH} found, by its name, with its arguments (checked "
    "against the tool's input schema)."
)
CALL_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "name": {
            "type": "string",
            "description": f"The tool's name, as {SEARCH} says.",
        },
        "arguments": {"type": "object", "description": "The tool's arguments."},
    },
    "required": ["name"],
    "additionalProperties": False,
}


def search(arguments: Mapping[str, Any], problem: str | None = None) -> tuple[Any, str]:
    """The tools ``find_tool`` ranks best for these arguments (``_search.Match``es),
    and an empty text; or no tools and what is wrong with the arguments (or
    ``problem``: why the call could not be read)."""
    if problem is not None:
        return [], problem
    from ._accept import check
    from ._tools import MESSAGE_LIMIT, problems_text, shortened

    problems = check(SCHEMA, arguments)
    if problems:
        text = shortened(problems_text(problems), MESSAGE_LIMIT)
        return [], f"invalid-arguments: {text}"
    from ._search import find

    found = find(
        arguments["purpose"],
        arguments.get("k", DEFAULT_K),
        tags=arguments.get("tags", ()),
        capabilities=arguments.get("capabilities", ()),
    )
    return found, ""


NONE_FIT = f"no tool fits that purpose; {SEARCH} again in other words"
