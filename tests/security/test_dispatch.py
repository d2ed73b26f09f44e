"""``dispatch`` never raises: however malformed the call, the answer is an error result
in the provider's shape."""

from __future__ import annotations

import json
from typing import Any

import pytest

from security_kit import canary, guarded  # noqa: F401 - fixtures

DEEP: Any = "x"
for _ in range(10_000):
    DEEP = {"a": [DEEP]}
DEEP_JSON = '{"a": ' * 100_000 + "1" + "}" * 100_000

MALFORMED: list[tuple[str, Any]] = [
    ("anthropic", None),
    ("anthropic", "not a dict"),
    ("anthropic", 42),
    ("anthropic", ["hostile__clone"]),
    ("anthropic", {"name": ["hostile__clone"], "input": {}}),
    ("anthropic", {"id": {"x": 1}, "name": "hostile__clone", "input": []}),
    ("anthropic", {"id": "1", "name": "hostile__clone", "input": {"repo": DEEP}}),
    ("anthropic", {"id": "1", "name": "hostile__clone", "input": {1: "x"}}),
    ("anthropic", {"id": "1", "name": "no_such_tool", "input": {}}),
    (
        "anthropic",
        {"id": "1", "name": "hostile__clone", "input": {"repo": "x" * 5_000_000}},
    ),
    ("openai-chat", {"id": "1", "function": "hostile__clone"}),
    (
        "openai-chat",
        {"id": "1", "function": {"name": "hostile__clone", "arguments": "{bad"}},
    ),
    (
        "openai-chat",
        {"id": "1", "function": {"name": "hostile__clone", "arguments": DEEP_JSON}},
    ),
    (
        "openai-chat",
        {"id": "1", "function": {"name": "hostile__clone", "arguments": "[1]"}},
    ),
    (
        "openai-responses",
        {"call_id": "1", "name": "hostile__clone", "arguments": "nan"},
    ),
    ("gemini", {"functionCall": "x"}),
    ("gemini", {"functionCall": {"name": "hostile.clone", "args": {"repo": 1}}}),
    (
        "mcp",
        {"params": {"name": "hostile.checked", "arguments": {"word": "a" * 40 + "!"}}},
    ),
    ("bedrock", {"toolUse": {"toolUseId": "1", "name": None, "input": None}}),
    (
        "bedrock",
        {
            "toolUse": {
                "toolUseId": "1",
                "name": "file__read",
                "input": {"path": "../x"},
            }
        },
    ),
]


def is_error(provider: str, answer: Any) -> bool:
    """Whether ``answer`` is an error result in ``provider``'s shape."""
    assert isinstance(answer, dict)
    json.dumps(answer)  # every answer is JSON
    if provider == "anthropic":
        return answer["type"] == "tool_result" and answer["is_error"] is True
    if provider == "openai-chat":
        return answer["role"] == "tool" and answer["content"].startswith("error: ")
    if provider == "openai-responses":
        return answer["type"] == "function_call_output" and answer["output"].startswith(
            "error: "
        )
    if provider == "gemini":
        return "error" in answer["functionResponse"]["response"]
    if provider == "mcp":
        return answer["isError"] is True and answer["content"][0]["type"] == "text"
    return answer["toolResult"]["status"] == "error"


@pytest.mark.parametrize("index", range(len(MALFORMED)))
def test_dispatch_answers_a_malformed_call_with_an_error_result(
    guarded: Any, index: int
) -> None:
    provider, call = MALFORMED[index]
    answer = guarded.dispatch(provider, call)
    assert is_error(provider, answer)


def test_pattern_the_build_accepted_never_raises_at_run_time(guarded: Any) -> None:
    result = guarded.hostile.checked.call_raw({"word": "a" * 30 + "!"})
    assert result.error.code == "invalid-arguments"
    plain = guarded.hostile.checked(word="aaa")
    if guarded._patterns.ENGINE == "re":  # no bound on time: the pattern is refused
        assert "install google-re2 or regex" in plain.error.message
    else:
        assert plain.ok
