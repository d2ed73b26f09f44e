"""The framework examples of the README and of AGENTS.md (as the build writes it) are
the same, and each runs as written against this repository's generated/, in a fresh
process and without network: the real model's name is replaced by the framework's
offline model, which reads README.md with the package's file__read and answers with
its first line; the Claude Agent SDK's example starts a stand-in ``claude`` CLI that
calls the tool through the SDK's in-process server as Claude Code would."""

from __future__ import annotations

import os
import re
import sys
import textwrap
from pathlib import Path

import pytest

from conftest import REPO, run_python
from test_adapters import framework

FIRST_LINE = (REPO / "README.md").read_text(encoding="utf-8").splitlines()[0]
EXAMPLES = re.compile(r"```python\n(# (.+?)\n.*?)```", re.S)


def examples(text: str) -> dict[str, str]:
    """The framework examples in a Markdown text, by the comment they start with."""
    return {name: code for code, name in EXAMPLES.findall(text)}


def test_the_readme_shows_the_examples_agents_md_gives() -> None:
    readme = examples((REPO / "README.md").read_text(encoding="utf-8"))
    agents_md = examples((REPO / "generated" / "AGENTS.md").read_text("utf-8"))
    assert set(agents_md) == {
        "OpenAI Agents SDK",
        "PydanticAI",
        "LangChain",
        "Claude Agent SDK",
    }
    assert {name: readme.get(name) for name in agents_md} == agents_md


# Per framework: what it needs, the model literal of its example, and the offline model
# put in its place (it calls file__read on README.md, then answers the first line).
OFFLINE = {
    "OpenAI Agents SDK": (
        ("agents", "openai-agents"),
        '"gpt-5"',
        """
        from agents import set_tracing_disabled
        from agents.testing import ModelStep, ScriptedModel
        from agents.testing import assistant_message, function_call

        set_tracing_disabled(True)
        read = function_call("file__read", {"path": "README.md"}, call_id="read")
        def answer(call):
            return [assistant_message(call.input[-1]["output"].splitlines()[0])]
        OFFLINE = ScriptedModel([[read], ModelStep.respond(answer)])
        """,
    ),
    "PydanticAI": (
        ("pydantic_ai", "pydantic-ai-slim"),
        '"openai:gpt-5"',
        """
        from pydantic_ai.messages import ModelResponse, TextPart, ToolCallPart
        from pydantic_ai.models.function import FunctionModel

        def respond(messages, info):
            if len(messages) == 1:
                read = ToolCallPart("file__read", {"path": "README.md"})
                return ModelResponse(parts=[read])
            text = messages[-1].parts[0].content.splitlines()[0]
            return ModelResponse(parts=[TextPart(text)])
        OFFLINE = FunctionModel(respond)
        """,
    ),
    "LangChain": (
        ("langchain.agents", "langchain"),
        '"openai:gpt-5"',
        """
        from langchain_core.language_models.fake_chat_models import (
            GenericFakeChatModel,
        )
        from langchain_core.messages import AIMessage, ToolMessage
        from langchain_core.outputs import ChatGeneration, ChatResult

        class Offline(GenericFakeChatModel):
            def bind_tools(self, tools, **kwargs):
                return self

            def _generate(self, messages, stop=None, run_manager=None, **kwargs):
                if isinstance(messages[-1], ToolMessage):
                    reply = AIMessage(messages[-1].content.splitlines()[0])
                else:
                    read = {"name": "file__read", "args": {"path": "README.md"}}
                    reply = AIMessage("", tool_calls=[{**read, "id": "read"}])
                return ChatResult(generations=[ChatGeneration(message=reply)])
        OFFLINE = Offline(messages=iter(()))
        """,
    ),
}


@pytest.mark.parametrize("name", sorted(OFFLINE))
def test_the_framework_examples_run(name: str) -> None:
    (module, install), literal, offline = OFFLINE[name]
    framework(module, install)
    code = examples((REPO / "generated" / "AGENTS.md").read_text("utf-8"))[name]
    assert code.count(literal) == 1, f"{name}: the example's model is not {literal}"
    script = textwrap.dedent(offline) + code.replace(literal, "OFFLINE")
    done = run_python(script, REPO)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == FIRST_LINE


# A stand-in for the Claude Code CLI, as the SDK runs it: NDJSON on stdin and stdout.
# It answers the SDK's initialize, reads the prompt, calls file__read through the SDK's
# server "skills" (mcp_message control requests, as Claude Code does) and reports the
# README's first line as its answer and result.
FAKE_CLI = """
import json, sys

def send(message):
    sys.stdout.write(json.dumps(message) + "\\n")
    sys.stdout.flush()

def receive():
    return json.loads(sys.stdin.readline())

numbers = iter(range(1, 100))

def mcp(message):
    request_id = f"cli_{next(numbers)}"
    request = {"subtype": "mcp_message", "server_name": "skills", "message": message}
    send({"type": "control_request", "request_id": request_id, "request": request})
    while True:
        answer = receive()
        response = answer.get("response", {})
        if answer["type"] == "control_response" and response["request_id"] == request_id:
            return response["response"]["mcp_response"]

first = receive()
assert first["request"]["subtype"] == "initialize", first
assert first["request"]["agents"]["test-runner"]["prompt"], first  # agents()
ok = {"subtype": "success", "request_id": first["request_id"], "response": {}}
send({"type": "control_response", "response": ok})
while receive()["type"] != "user":
    pass
client = {"name": "claude-code", "version": "0"}
hello = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": client}
mcp({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": hello})
mcp({"jsonrpc": "2.0", "method": "notifications/initialized"})
call = {"name": "file__read", "arguments": {"path": "README.md"}}
answer = mcp({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": call})
assert not answer["result"]["isError"], answer
line = answer["result"]["content"][0]["text"].splitlines()[0]
text = [{"type": "text", "text": line}]
send({"type": "assistant", "message": {"model": "stand-in", "content": text}})
send({"type": "result", "subtype": "success", "duration_ms": 1, "duration_api_ms": 1,
      "is_error": False, "num_turns": 1, "session_id": "offline", "result": line})
"""


def test_the_claude_agent_sdk_example_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    framework("claude_agent_sdk", "claude-agent-sdk")
    code = examples((REPO / "generated" / "AGENTS.md").read_text("utf-8"))
    cli = tmp_path / "bin" / "claude"
    cli.parent.mkdir()
    cli.write_text(f"#!{sys.executable}\n{FAKE_CLI}")
    cli.chmod(0o755)
    monkeypatch.setenv("PATH", f"{cli.parent}{os.pathsep}{os.environ['PATH']}")
    done = run_python(code["Claude Agent SDK"], REPO)
    assert done.returncode == 0, done.stderr
    assert f"result='{FIRST_LINE}'" in done.stdout.splitlines()[-1]
