"""The generated runtime finds a tool by one lookup in the tables the build wrote
(``_names.py``): dispatch never scans a table, and the MCP server learns which tools
are skills and subagents without importing any tool's module."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from conftest import imported_build


@pytest.fixture(scope="module")
def kit(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    folder = tmp_path_factory.mktemp("tables")
    with imported_build("tools", folder, "out", {}) as package:
        yield package


class Unscannable(dict[str, str]):
    """A table that answers lookups and refuses to be walked."""

    def _walked(self, *args: Any) -> Any:
        raise AssertionError("the table was scanned")

    __iter__ = keys = values = items = _walked  # type: ignore[assignment]


def test_the_tables_are_the_names_json_columns(kit: Any) -> None:
    from out import _names

    providers = Path(kit.__file__).parent / "providers"
    names = json.loads((providers / "names.json").read_text())
    assert _names.FLAT == names["from_provider"]["anthropic"]
    assert _names.DOTTED == names["from_provider"]["mcp"]
    assert _names.KINDS == {"task.pdf_extractor": "skill"}


@pytest.mark.parametrize(
    ("provider", "call"),
    [
        ("anthropic", {"id": "t1", "name": "file__read", "input": {"path": "x"}}),
        ("mcp", {"name": "file.read", "arguments": {"path": "x"}}),
    ],
)
def test_dispatch_looks_the_name_up_without_scanning(
    kit: Any, monkeypatch: pytest.MonkeyPatch, provider: str, call: dict[str, Any]
) -> None:
    from out import _dispatch, _names

    monkeypatch.setattr(_names, "FLAT", Unscannable(_names.FLAT))
    monkeypatch.setattr(_names, "DOTTED", Unscannable(_names.DOTTED))
    assert _dispatch.find(provider, call["name"]) is kit.file.read
    assert _dispatch.find(provider, "no__such") is None
    answer = _dispatch.dispatch(provider, call)
    text = json.dumps(answer)
    assert "PathError: 'x' does not exist" in text, text


def test_mcp_prompts_import_no_tool_module(kit: Any) -> None:
    from out import _mcp

    def tool_modules() -> set[str]:  # the runtime's tables (out._names...) aside
        return {
            n for n in sys.modules if n.startswith("out.") and not n.startswith("out._")
        }

    tools = _mcp.tool_entries()
    before = tool_modules()
    prompts = _mcp.prompt_entries(tools)
    loaded = tool_modules() - before
    assert [p["name"] for p in prompts] == ["task.pdf-extractor"]
    assert [a["name"] for a in prompts[0]["arguments"]] == ["arguments"]
    assert not loaded, loaded
