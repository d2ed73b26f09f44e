"""The nesting check of generator/loaders/yamlpos.py: text that cannot nest past
COMPOSABLE levels is composed at once and its depth checked on the nodes, without the
parser's event pass (which cost a large manifest about as much as composing it); every
answer is the event pass's (the reference: the check as it was), and the bound that
decides it is never below the real depth."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from skillc.diagnostics import Report
from skillc.loaders import yamlpos


def _parsed(text: str) -> tuple[Any, list[tuple[int, int, str, str]]]:
    report = Report()
    located = yamlpos.parse(text, "x.yaml", 0, report)
    said = [(d.line, d.col, d.code, d.message) for d in report.items]
    return (None if located is None else located.data), said


def _by_events(text: str, monkeypatch: pytest.MonkeyPatch) -> Any:
    with monkeypatch.context() as patch:
        patch.setattr(yamlpos, "COMPOSABLE", yamlpos.MAX_DEPTH)  # the event pass
        return _parsed(text)


def _depth(text: str) -> int:
    depth = deepest = 0
    for event in yaml.parse(text, Loader=yaml.CSafeLoader):
        if isinstance(event, yaml.CollectionStartEvent):
            depth += 1
            deepest = max(deepest, depth)
        elif isinstance(event, yaml.CollectionEndEvent):
            depth -= 1
    return deepest


def _nested(levels: int, flow: bool) -> str:
    if flow:
        return "a: " + "[" * levels + "]" * levels + "\n"
    return "".join("  " * i + f"k{i}:\n" for i in range(levels)) + "  " * levels + "v\n"


TEXTS = [
    "a: 1\n",
    "",
    "- - - - - - x\n",
    _nested(64, False),
    _nested(65, False),
    _nested(63, True),
    _nested(64, True),
    _nested(200, True),
    "a: &x " + "[" * 60 + "]" * 60 + "\n" + _nested(10, False).replace("v\n", "*x\n"),
    "a: &x [1]\n" + _nested(70, False).replace("v\n", "*x\n"),
    "a: [1\n" + _nested(70, False),  # a syntax error before the depth
    _nested(70, False) + "b: [1\n",  # after it
    _nested(70, False) + "---\nb: 1\n",  # two documents
    "a: *missing\n" + _nested(70, False),
    "x:\n" + "".join(" " * i + "- \t- y\n" for i in range(0, 80, 4)),
    "k: " + "{a: " * 70 + "1" + "}" * 70 + "\n",
]


@pytest.mark.parametrize("text", TEXTS, ids=range(len(TEXTS)))
def test_the_same_answers_as_the_event_pass(
    text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert _parsed(text) == _by_events(text, monkeypatch)
    if yaml.__with_libyaml__:
        try:
            deepest = _depth(text)
        except yaml.YAMLError:
            return
        assert yamlpos._depth_bound(text) >= deepest


def test_a_large_manifest_is_parsed_without_the_event_pass(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tool = {
        "name": "t",
        "description": "Does it.",
        "parameters": {
            "type": "object",
            "properties": {
                "a": {"type": "object", "properties": {"b": {"type": "string"}}},
                "c": {"type": "array", "items": {"type": "integer"}},
            },
        },
    }
    text = yaml.safe_dump({"tools": [{**tool, "name": f"t{n}"} for n in range(300)]})
    assert yamlpos._depth_bound(text) <= yamlpos.COMPOSABLE
    events: list[str] = []
    parse = yaml.parse

    def counted(*args: Any, **kwargs: Any) -> Any:
        events.append("parse")
        return parse(*args, **kwargs)

    monkeypatch.setattr(yaml, "parse", counted)
    data, said = _parsed(text)
    assert said == [] and len(data["tools"]) == 300
    assert events == []


def _tree(leaf: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.recursive(
        leaf,
        lambda inner: st.lists(inner, max_size=3)
        | st.dictionaries(st.sampled_from(["a", "b", "- c", "? d"]), inner, max_size=3),
        max_leaves=40,
    )


@settings(max_examples=150, deadline=None, derandomize=True)
@given(
    data=_tree(st.sampled_from([1, "x", None, "[{"])),
    flow=st.sampled_from([True, False, None]),
    indent=st.integers(2, 5),
)
def test_the_bound_holds_and_answers_agree(data: Any, flow: Any, indent: int) -> None:
    text = yaml.safe_dump(data, default_flow_style=flow, indent=indent, width=40)
    assert yamlpos._depth_bound(text) >= _depth(text)
    with pytest.MonkeyPatch.context() as patch:
        assert _parsed(text) == _by_events(text, patch)
