"""Each provider's client-executed tool search, answered by ``dispatch()``: the deferred
files declare it (Anthropic: a custom client-side search tool whose result is
``tool_reference`` blocks; OpenAI Responses: ``tool_search`` with ``execution:
"client"``, answered by a ``tool_search_output`` loading the definitions), every
answer fits the SDK's own type, and a whole conversation runs through the real SDK
client on a mocked transport (no network): the model searches, dispatch() answers,
the model calls the tool it found, dispatch() runs it."""

from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from conftest import FIXTURES
from skillc import cli
from test_providers import typed_dict

if not os.environ.get("CI"):  # CI installs them (noxfile.PROVIDER_SDKS): never skip
    pytest.importorskip("anthropic")
    pytest.importorskip("openai")
import httpx2 as httpx  # noqa: E402  (the SDKs' HTTP client)

PURPOSE = "read a text file"


@pytest.fixture(scope="module")
def kit(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    project = tmp_path_factory.mktemp("search") / "tools"
    shutil.copytree(FIXTURES / "tools", project)
    with contextlib.redirect_stderr(io.StringIO()) as err:
        assert cli.main(["-C", str(project), "build"]) == 0, err.getvalue()
    (project / "out").rename(project / "kit")
    sys.path.insert(0, str(project))
    import kit as package

    yield package
    sys.path.remove(str(project))
    for name in [m for m in sys.modules if m == "kit" or m.startswith("kit.")]:
        del sys.modules[name]


def provider_file(kit: Any, name: str) -> list[dict[str, Any]]:
    data: list[dict[str, Any]] = json.loads(
        (Path(kit.__file__).parent / "providers" / name).read_text()
    )
    return data


def test_the_deferred_files_declare_a_client_executed_search(kit: Any) -> None:
    from anthropic.types import ToolParam
    from openai.types.responses import ToolSearchToolParam

    from kit import _discover

    search = provider_file(kit, "anthropic.deferred.json")[0]
    typed_dict(ToolParam, search)
    assert search["name"] == _discover.SEARCH and "defer_loading" not in search
    assert search["input_schema"] == _discover.SCHEMA
    search = provider_file(kit, "openai-responses.deferred.json")[0]
    typed_dict(ToolSearchToolParam, search)
    assert search["execution"] == "client"
    assert search["parameters"] == _discover.SCHEMA


def test_anthropic_search_is_answered_with_tool_references(kit: Any) -> None:
    from anthropic.types import ToolResultBlockParam, ToolUseBlock

    use = ToolUseBlock(
        type="tool_use", id="toolu_1", name="find_tool", input={"purpose": PURPOSE}
    )
    result = kit.dispatch("anthropic", use)
    typed_dict(ToolResultBlockParam, result)
    names = [block["tool_name"] for block in result["content"]]
    assert names[0] == "file__read" and len(names) == 5  # the default k
    assert all(block["type"] == "tool_reference" for block in result["content"])
    listed = {entry["name"] for entry in provider_file(kit, "anthropic.deferred.json")}
    assert set(names) <= listed  # else the API answers 400 "Tool reference not found"
    bad = kit.dispatch("anthropic", use.model_copy(update={"input": {"k": 0}}))
    assert bad["is_error"] is True
    assert bad["content"].startswith("invalid-arguments: ")
    none = {**use.model_dump(), "input": {"purpose": PURPOSE, "tags": ["no-such-tag"]}}
    assert kit.dispatch("anthropic", none)["content"].startswith("no tool fits")


def test_openai_search_is_answered_with_the_definitions_found(kit: Any) -> None:
    from openai.types.responses import ResponseToolSearchCall
    from openai.types.responses.response_tool_search_output_item_param_param import (
        ResponseToolSearchOutputItemParamParam as ToolSearchOutput,
    )

    call = ResponseToolSearchCall(
        type="tool_search_call",
        id="ts_1",
        call_id="call_1",
        execution="client",
        status="completed",
        arguments={"purpose": PURPOSE, "k": 3},
    )
    output = kit.dispatch("openai-responses", call)
    typed_dict(ToolSearchOutput, output)
    assert output["call_id"] == "call_1" and output["execution"] == "client"
    deferred = provider_file(kit, "openai-responses.deferred.json")
    by_name = {item["name"]: item for item in deferred if "name" in item}
    loaded = []
    for item in output["tools"]:  # as the deferred file defines them
        if item["type"] == "namespace":
            listed = {f["name"]: f for f in by_name[item["name"]]["tools"]}
            loaded += [f"{item['name']}__{f['name']}" for f in item["tools"]]
            assert all(listed[f["name"]] == f for f in item["tools"])
        else:
            assert by_name[item["name"]] == item
            loaded.append(item["name"])
    assert loaded[0] == "file__read" and len(loaded) == 3
    # Two tools of one namespace come back in that one namespace.
    spaces = [item["name"] for item in output["tools"] if item["type"] == "namespace"]
    assert len(spaces) == len(set(spaces))
    bad = kit.dispatch("openai-responses", {**call.model_dump(), "arguments": "{"})
    assert bad["type"] == "tool_search_output" and bad["tools"] == []


def test_a_tool_named_find_tool_wins_over_the_search(kit: Any) -> None:
    from kit._providers import anthropic

    anthropic.FLAT["find_tool"] = "file.read"  # as a package with such a tool
    try:
        call = anthropic.read({"id": "t", "name": "find_tool", "input": {}})
    finally:
        del anthropic.FLAT["find_tool"]
    assert call.search is False


def _mock(answers: list[dict[str, Any]], seen: list[Any]) -> httpx.Client:
    """An httpx client whose transport answers each request with the next of
    ``answers`` and keeps each request's JSON body in ``seen``."""

    def handle(request: httpx.Request) -> httpx.Response:
        seen.append(json.loads(request.content))
        return httpx.Response(200, json=answers[len(seen) - 1])

    return httpx.Client(transport=httpx.MockTransport(handle))


def _message(content: list[dict[str, Any]], stop: str) -> dict[str, Any]:
    return {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude-x",
        "content": content,
        "stop_reason": stop,
        "stop_sequence": None,
        "usage": {"input_tokens": 1, "output_tokens": 1},
    }


def _loop(send: Callable[[list[Any]], list[Any]], answer: Callable[[Any], Any]) -> None:
    """The agent loop a host writes: every tool call of a turn answered by dispatch()."""
    replies: list[Any] = []
    while True:
        calls = send(replies)
        if not calls:
            return
        replies = [answer(call) for call in calls]


def test_anthropic_round_trip_search_then_call(kit: Any) -> None:
    import anthropic

    seen: list[Any] = []
    answers = [
        _message(
            [
                {
                    "type": "tool_use",
                    "id": "toolu_s",
                    "name": "find_tool",
                    "input": {"purpose": PURPOSE, "k": 2},
                }
            ],
            "tool_use",
        ),
        _message(
            [
                {
                    "type": "tool_use",
                    "id": "toolu_r",
                    "name": "file__read",
                    "input": {"path": "hello.txt"},
                }
            ],
            "tool_use",
        ),
        _message([{"type": "text", "text": "done"}], "end_turn"),
    ]
    client = anthropic.Anthropic(api_key="k", http_client=_mock(answers, seen))
    tools = provider_file(kit, "anthropic.deferred.json")
    messages: list[dict[str, Any]] = [{"role": "user", "content": "Read hello.txt"}]

    def send(replies: list[Any]) -> list[Any]:
        if replies:
            messages.append({"role": "user", "content": replies})
        reply = client.messages.create(
            model="claude-x", max_tokens=100, tools=tools, messages=messages
        )
        messages.append({"role": "assistant", "content": reply.content})
        return [block for block in reply.content if block.type == "tool_use"]

    _loop(send, lambda block: kit.dispatch("anthropic", block))
    assert len(seen) == 3
    found = seen[1]["messages"][-1]["content"][0]
    assert found["tool_use_id"] == "toolu_s"
    assert found["content"][0] == {"type": "tool_reference", "tool_name": "file__read"}
    ran = seen[2]["messages"][-1]["content"][0]
    assert ran["tool_use_id"] == "toolu_r" and ran["is_error"] is False
    assert "Hello" in ran["content"] or "hello" in ran["content"].lower()


def _response(output: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "id": "resp_1",
        "object": "response",
        "created_at": 0,
        "model": "gpt-x",
        "status": "completed",
        "output": output,
        "parallel_tool_calls": True,
        "tool_choice": "auto",
        "tools": [],
    }


def test_openai_round_trip_search_then_call(kit: Any) -> None:
    import openai

    seen: list[Any] = []
    search = {
        "type": "tool_search_call",
        "id": "ts_1",
        "call_id": "call_s",
        "execution": "client",
        "status": "completed",
        "arguments": {"purpose": PURPOSE, "k": 2},
    }
    read = {
        "type": "function_call",
        "id": "fc_1",
        "call_id": "call_r",
        "namespace": "file",
        "name": "read",
        "arguments": json.dumps({"path": "hello.txt"}),
        "status": "completed",
    }
    done = {
        "type": "message",
        "id": "m_1",
        "role": "assistant",
        "status": "completed",
        "content": [{"type": "output_text", "text": "done", "annotations": []}],
    }
    answers = [_response([search]), _response([read]), _response([done])]
    client = openai.OpenAI(api_key="k", http_client=_mock(answers, seen))
    tools = provider_file(kit, "openai-responses.deferred.json")
    items: list[Any] = [{"role": "user", "content": "Read hello.txt"}]

    def send(replies: list[Any]) -> list[Any]:
        items.extend(replies)
        reply = client.responses.create(model="gpt-x", tools=tools, input=items)
        calls = [o for o in reply.output if o.type.endswith("_call")]
        items.extend(o.model_dump(exclude_none=True) for o in calls)
        return calls

    _loop(send, lambda item: kit.dispatch("openai-responses", item))
    assert len(seen) == 3
    output = seen[1]["input"][-1]
    assert output["type"] == "tool_search_output" and output["call_id"] == "call_s"
    namespace = output["tools"][0]
    assert namespace["name"] == "file" and namespace["tools"][0]["name"] == "read"
    ran = seen[2]["input"][-1]
    assert ran["type"] == "function_call_output" and ran["call_id"] == "call_r"
    assert not ran["output"].startswith("error")
