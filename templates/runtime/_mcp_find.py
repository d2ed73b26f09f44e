"""find_tool over MCP: the server lists a ``find_tool`` tool (``_discover``) beside the
package's tools, on every transport; with ``mcp --progressive`` its ``tools/list`` is
only ``find_tool``, the ``always-loaded`` tools and ``call_tool``, and every other tool
is found by search and called by name (through ``call_tool``, or directly: the server
knows every tool's schema either way), each call validated by ``dispatch`` in full.

A package tool that is itself named ``find_tool`` or ``call_tool`` keeps its name: the
server's own tool of that name is then not offered.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from ._secrets import redact
from ._tools import shortened
from ._discover import CALL, CALL_DESCRIPTION, CALL_SCHEMA, DESCRIPTION, SCHEMA, SEARCH

# The ``_meta`` key the build sets on an always-loaded tool (the mcp.json emitter's).
META_ALWAYS = "skillc/always-loaded"
_FOUND = {
    "type": "object",
    "properties": {
        "name": {"type": "string"},
        "description": {"type": "string"},
        "relevance": {"type": "number"},
        "reason": {"type": "string"},
    },
    "required": ["name", "description", "relevance", "reason"],
}
SEARCH_ENTRY: dict[str, Any] = {
    "name": SEARCH,
    "title": "Find tool",
    "description": DESCRIPTION,
    "inputSchema": SCHEMA,
    "outputSchema": {
        "type": "object",
        "properties": {"tools": {"type": "array", "items": _FOUND}},
        "required": ["tools"],
    },
    "annotations": {"title": "Find tool", "readOnlyHint": True},
}
CALL_ENTRY: dict[str, Any] = {
    "name": CALL,
    "title": "Call tool",
    "description": CALL_DESCRIPTION,
    "inputSchema": CALL_SCHEMA,
    "annotations": {"title": "Call tool"},
}
# A tool call's handler: the call's arguments in, its tools/call result out.
Answer = Callable[[Mapping[str, Any]], dict[str, Any]]


def failed(text: str) -> dict[str, Any]:
    """A ``tools/call`` result that says what went wrong (a tool error the model reads,
    not a protocol error)."""
    return {"content": [{"type": "text", "text": text}], "isError": True}


class Finder:
    """What the server lists (``listed``), the schemas of its own tools (``schemas``)
    and their handlers (``own``), for the package's ``tools`` entries; ``call_tool``
    is the server's handler of a ``tools/call`` request."""

    def __init__(
        self,
        tools: list[dict[str, Any]],
        progressive: bool,
        call_tool: Answer,
    ) -> None:
        names = {entry["name"] for entry in tools}
        self.descriptions = {e["name"]: e.get("description", "") for e in tools}
        self.call_tool = call_tool
        offered = [SEARCH_ENTRY, *([CALL_ENTRY] if progressive else [])]
        offered = [entry for entry in offered if entry["name"] not in names]
        self.schemas = {entry["name"]: entry["inputSchema"] for entry in offered}
        handlers = {SEARCH: self.find, CALL: self.call}
        self.own: dict[str, Answer] = {name: handlers[name] for name in self.schemas}
        if progressive:
            always = [e for e in tools if e.get("_meta", {}).get(META_ALWAYS)]
            self.listed = [*offered[:1], *always, *offered[1:]]
        else:
            self.listed = [*tools, *offered]

    def find(self, arguments: Mapping[str, Any]) -> dict[str, Any]:
        """find_tool's tools that this server offers, best first."""
        from ._discover import search

        matches, problem = search(arguments)
        if problem:
            return failed(problem)
        found = [
            {
                "name": match.providers["mcp"],
                "description": self.descriptions[match.providers["mcp"]],
                "relevance": match.relevance,
                "reason": match.reason,
            }
            for match in matches
            if match.providers.get("mcp") in self.descriptions
        ]
        text = json.dumps(found, ensure_ascii=False)
        return {
            "content": [{"type": "text", "text": text}],
            "structuredContent": {"tools": found},
            "isError": False,
        }

    def call(self, arguments: Mapping[str, Any]) -> dict[str, Any]:
        """``call_tool``: the named tool's call, as if it had been called directly."""
        from ._accept import check

        problems = check(CALL_SCHEMA, arguments)
        name = arguments.get("name")
        if problems:
            return failed(f"invalid-arguments: {'; '.join(problems)}")
        if name not in self.descriptions:
            text = f"unknown tool {shortened(str(name))!r}; {SEARCH} finds tools"
            return failed(redact(text))
        inner = {"name": name, "arguments": arguments.get("arguments") or {}}
        return self.call_tool(inner)
