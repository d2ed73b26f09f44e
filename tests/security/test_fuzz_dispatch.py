"""Random argument dicts thrown at ``dispatch`` for every tool of the security fixture:
no exception escapes, every answer has the provider's shape, and a process only ever
receives words from its template or from a declared argument's value."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

from security_kit import canary, guarded  # noqa: F401 - fixtures
from test_dispatch import is_error

# Tools left out: sleeper and detached take a file path to write, and leave a process
# that sleeps on purpose; drip waits for a server. Each has attack tests of its own.
SKIP = {"hostile.sleeper", "hostile.detached", "hostile.drip"}
PROVIDERS = ["anthropic", "openai-chat", "openai-responses", "gemini", "mcp", "bedrock"]
DASHED = st.sampled_from(["-", "--", "-rf", "--version", "--upload-pack=touch x", "-c"])
TEXT = st.text(max_size=12) | DASHED
LEAVES = st.none() | st.booleans() | st.integers() | st.floats() | TEXT
VALUES = st.recursive(
    LEAVES,
    lambda inner: st.lists(inner, max_size=3)
    | st.dictionaries(TEXT, inner, max_size=3),
    max_leaves=10,
)


def _tools() -> list[str]:
    from conftest import FIXTURES

    text = (FIXTURES / "security" / "tools" / "hostile.tools.yaml").read_text()
    hostile = [
        f"hostile.{line.split(':', 1)[1].strip()}"
        for line in text.splitlines()
        if line.startswith("  - name:")
    ]
    builtins = [
        "file.read",
        "file.write",
        "file.edit",
        "file.dir",
        "file.glob",
        "file.grep",
    ]
    builtins += ["batch.run", "batch.script", "db.query", "db.insert"]
    return sorted(set(hostile + builtins) - SKIP)


def _call(provider: str, dotted: str, arguments: Any) -> dict[str, Any]:
    name = dotted if provider in ("gemini", "mcp") else dotted.replace(".", "__")
    if provider == "anthropic":
        return {"id": "f", "name": name, "input": arguments}
    if provider == "openai-chat":
        return {
            "id": "f",
            "function": {"name": name, "arguments": json.dumps(arguments)},
        }
    if provider == "openai-responses":
        return {"call_id": "f", "name": name, "arguments": json.dumps(arguments)}
    if provider == "gemini":
        return {"functionCall": {"id": "f", "name": name, "args": arguments}}
    if provider == "mcp":
        return {"params": {"name": name, "arguments": arguments}}
    return {"toolUse": {"toolUseId": "f", "name": name, "input": arguments}}


def _text(answer: dict[str, Any], provider: str) -> str:
    if provider == "anthropic":
        return str(answer["content"])
    if provider == "openai-chat":
        return str(answer["content"])
    if provider == "openai-responses":
        return str(answer["output"])
    if provider == "gemini":
        result = answer["functionResponse"]["response"]["result"]
        return result if isinstance(result, str) else json.dumps(result)
    if provider == "mcp":
        return str(answer["content"][0]["text"])
    block = answer["toolResult"]["content"][0]
    return json.dumps(block["json"]) if "json" in block else str(block["text"])


def _word(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return value if isinstance(value, str) else repr(value)


def _allowed_words(tool: str, arguments: dict[str, Any]) -> set[str]:
    """Every word a process may receive: template words, and declared values."""
    values: dict[str, list[str]] = {
        name: [_word(v) for v in (value if isinstance(value, list) else [value])]
        for name, value in arguments.items()
    }
    words = {"--"} | {w for ws in values.values() for w in ws}
    if tool == "hostile.clone":
        words |= {f"--{n}={w}" for n in ("depth", "branch") for w in values.get(n, [])}
        words |= {"--quiet"}
    if tool == "hostile.argv":
        words |= {f"--{n}={w}" for n in ("page", "mode") for w in values.get(n, [])}
    return words


@pytest.mark.parametrize("tool", _tools())
@seed(20261122)
@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    provider=st.sampled_from(PROVIDERS),
    arguments=st.dictionaries(TEXT, VALUES, max_size=5)
    | st.fixed_dictionaries(
        {},
        optional={
            "repo": TEXT,
            "words": st.lists(TEXT),
            "files": st.lists(TEXT),
            "page": st.integers(),
            "branch": TEXT,
            "quiet": st.booleans(),
            "path": TEXT,
            "pattern": TEXT,
            "sql": TEXT,
        },
    ),
)
def test_random_arguments_never_escape_the_template(
    guarded: Any, tool: str, provider: str, arguments: dict[str, Any]
) -> None:
    answer = guarded.dispatch(provider, _call(provider, tool, arguments))
    failed = is_error(provider, answer)  # checks the provider's shape, either way
    if tool in ("hostile.clone", "hostile.argv") and not failed:
        received = json.loads(_text(answer, provider))
        assert set(received) <= _allowed_words(tool, arguments), received
