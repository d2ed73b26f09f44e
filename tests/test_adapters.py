"""The generated package's adapters, each driven by its framework's own offline model
against the real framework from PyPI, without network: a valid call, an invalid one,
a skill, a subagent and a dangerous tool, each answered with the framework's own result
or error type; every call reaching the package's ``dispatch()``.

A framework that is not installed skips its test (never in CI, which installs them:
noxfile.ADAPTER_FRAMEWORKS)."""

from __future__ import annotations

import contextlib
import importlib
import io
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from conftest import REPO, imported_build, run_python
from skillc import cli

HELLO = "hello world\n"  # tests/fixtures/adapters/workspace/hello.txt
GREETING = "Say hello to Ada."  # the greet skill's instructions for "Ada"
REVIEWER = "You are a careful reviewer. List each problem with its file and line."
# batch.run is marked dangerous: refused unless confirm approves the call.
COMMAND = {"command": [sys.executable, "-c", "print('ran')"]}


def framework(module: str, install: str) -> ModuleType:
    """The framework's module, or a skip that says what to install."""
    if os.environ.get("CI"):
        return importlib.import_module(module)
    return pytest.importorskip(
        module, reason=f"{module} is not installed: pip install {install}"
    )


@pytest.fixture(scope="module")
def kit(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    folder = tmp_path_factory.mktemp("adapters")
    with imported_build("adapters", folder, "kit", {}) as package:
        yield package


@pytest.fixture
def dispatched(kit: ModuleType, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the calls that reached dispatch(), in order."""
    dispatch_module = importlib.import_module("kit._dispatch")
    real = dispatch_module.dispatch
    seen: list[str] = []

    def spy(provider: str, tool_call: Any, confirm: Any = None) -> dict[str, Any]:
        seen.append(tool_call["name"])
        answer: dict[str, Any] = real(provider, tool_call, confirm)
        return answer

    monkeypatch.setattr(dispatch_module, "dispatch", spy)
    return seen


def approve_batch_run(request: Any) -> bool:
    """A confirm policy: batch.run may run, with the arguments it is shown."""
    return bool(request.tool == "batch.run" and request.arguments == COMMAND)


def test_openai_agents(kit: ModuleType, dispatched: list[str]) -> None:
    agents = framework("agents", "openai-agents")
    testing = importlib.import_module("agents.testing")
    adapter = importlib.import_module("kit.adapters.openai_agents")
    agents.set_tracing_disabled(True)
    tools = {tool.name: tool for tool in adapter.tools()}
    assert tools["file__read"].strict_json_schema  # eligible: strict
    assert "task__reviewer" not in tools  # a subagent is a handoff
    (reviewer,) = adapter.handoffs()
    assert (reviewer.name, reviewer.instructions) == ("task__reviewer", REVIEWER)
    assert {tool.name for tool in reviewer.tools} == {
        name for name in tools if not name.startswith("task__")
    }
    transfer = agents.handoff(reviewer).tool_name
    nulls = {"offset": None, "limit": None}  # strict mode sends every property
    model = testing.ScriptedModel(
        [
            [
                testing.function_call(
                    "file__read", {"path": "hello.txt", **nulls}, call_id="valid"
                ),
                testing.function_call(
                    "file__read", {"path": 5, **nulls}, call_id="invalid"
                ),
                testing.function_call(
                    "task__greet", {"arguments": "Ada"}, call_id="skill"
                ),
                testing.function_call("batch__run", COMMAND, call_id="dangerous"),
            ],
            [testing.function_call(transfer, {}, call_id="handoff")],
            [testing.assistant_message("reviewed")],
        ]
    )
    agent = agents.Agent(
        name="main", tools=list(tools.values()), handoffs=[reviewer], model=model
    )
    config = agents.RunConfig(model=model)
    result = agents.Runner.run_sync(agent, "go", run_config=config)

    outputs = {
        item.raw_item["call_id"]: item.output
        for item in result.new_items
        if isinstance(item, agents.ToolCallOutputItem)
    }
    assert outputs["valid"] == HELLO
    assert outputs["invalid"].startswith("error: invalid-arguments: path")
    assert outputs["skill"] == GREETING
    assert outputs["dangerous"].startswith("error: confirmation-required")
    # The handoff: the reviewer answers, with its system prompt as instructions.
    assert result.last_agent.name == "task__reviewer"
    assert model.calls[-1].system_instructions == REVIEWER
    assert result.final_output == "reviewed"
    assert dispatched == ["file__read", "file__read", "task__greet", "batch__run"]

    approved = {t.name: t for t in adapter.tools(confirm=approve_batch_run)}
    model = testing.ScriptedModel(
        [
            [testing.function_call("batch__run", COMMAND, call_id="run")],
            [testing.assistant_message("done")],
        ]
    )
    agent = agents.Agent(name="main", tools=[approved["batch__run"]], model=model)
    result = agents.Runner.run_sync(agent, "go")
    (output,) = [
        i for i in result.new_items if isinstance(i, agents.ToolCallOutputItem)
    ]
    assert '"exit_code": 0' in output.output and "ran" in output.output


def test_pydantic_ai(kit: ModuleType, dispatched: list[str]) -> None:
    pydantic_ai = framework("pydantic_ai", "pydantic-ai-slim")
    messages = importlib.import_module("pydantic_ai.messages")
    function = importlib.import_module("pydantic_ai.models.function")
    adapter = importlib.import_module("kit.adapters.pydantic_ai")
    calls = {
        "valid": ("file__read", {"path": "hello.txt"}),
        "invalid": ("file__read", {"path": "hello.txt", "bogus": 1}),
        "skill": ("task__greet", {"arguments": "Ada"}),
        "subagent": ("task__reviewer", {"prompt": "check src/"}),
        "dangerous": ("batch__run", COMMAND),
    }

    offered: list[str] = []

    def model(history: list[Any], info: Any) -> Any:
        if len(history) > 1:
            return messages.ModelResponse(parts=[messages.TextPart("done")])
        offered.extend(tool.name for tool in info.function_tools)
        parts = [
            messages.ToolCallPart(name, arguments, tool_call_id=ident)
            for ident, (name, arguments) in calls.items()
        ]
        return messages.ModelResponse(parts=parts)

    agent = pydantic_ai.Agent(
        function.FunctionModel(model), toolsets=[adapter.toolset()]
    )
    result = agent.run_sync("go")
    assert {"file__read", "task__greet", "task__reviewer"} <= set(offered)

    returned = {
        part.tool_call_id: part
        for message in result.all_messages()
        for part in message.parts
        if isinstance(part, messages.ToolReturnPart)
    }
    assert (returned["valid"].outcome, returned["valid"].content) == ("success", HELLO)
    assert returned["invalid"].outcome == "failed"
    assert "bogus: unknown argument" in returned["invalid"].content
    assert returned["skill"].content == GREETING
    assert returned["subagent"].content.startswith(REVIEWER)  # the Invocation
    assert returned["dangerous"].outcome == "failed"
    assert returned["dangerous"].content.startswith("confirmation-required")
    assert result.output == "done"
    assert sorted(dispatched) == sorted(name for name, _ in calls.values())

    approved = adapter.toolset(namespace="batch", confirm=approve_batch_run)
    calls = {"run": ("batch__run", COMMAND)}
    result = pydantic_ai.Agent(
        function.FunctionModel(model), toolsets=[approved]
    ).run_sync("go")
    (part,) = [
        p
        for m in result.all_messages()
        for p in m.parts
        if isinstance(p, messages.ToolReturnPart)
    ]
    assert part.outcome == "success" and "ran" in part.content


def test_langchain(kit: ModuleType, dispatched: list[str]) -> None:
    framework("langchain_core", "langchain-core")
    agents = framework("langchain.agents", "langchain")
    fake = importlib.import_module("langchain_core.language_models.fake_chat_models")
    lc_messages = importlib.import_module("langchain_core.messages")
    adapter = importlib.import_module("kit.adapters.langchain")

    class ToolCallingFake(fake.GenericFakeChatModel):  # type: ignore[misc]
        """The fake chat model with tools bound (its answers are scripted)."""

        def bind_tools(self, tools: Any, **kwargs: Any) -> Any:
            return self

    calls = [
        {"name": "file__read", "args": {"path": "hello.txt"}, "id": "valid"},
        {"name": "file__read", "args": {"path": 5}, "id": "invalid"},
        {"name": "task__greet", "args": {"arguments": "Ada"}, "id": "skill"},
        {"name": "task__reviewer", "args": {"prompt": "check"}, "id": "subagent"},
        {"name": "batch__run", "args": COMMAND, "id": "dangerous"},
    ]
    answers = [
        lc_messages.AIMessage(content="", tool_calls=calls),
        lc_messages.AIMessage(content="done"),
    ]
    model = ToolCallingFake(messages=iter(answers))
    agent = agents.create_agent(model, tools=adapter.tools())
    state = agent.invoke({"messages": [{"role": "user", "content": "go"}]})

    results = {
        m.tool_call_id: m
        for m in state["messages"]
        if isinstance(m, lc_messages.ToolMessage)
    }
    assert (results["valid"].status, results["valid"].content) == ("success", HELLO)
    assert results["invalid"].status == "error"
    assert results["invalid"].content.startswith("invalid-arguments: path")
    assert results["skill"].content == GREETING
    assert results["subagent"].content.startswith(REVIEWER)
    assert results["dangerous"].status == "error"
    assert results["dangerous"].content.startswith("confirmation-required")
    assert state["messages"][-1].content == "done"
    assert sorted(dispatched) == sorted(call["name"] for call in calls)

    (run,) = adapter.tools(namespace="batch", tag=None, confirm=approve_batch_run)[:1]
    message = run.invoke({**calls[-1], "args": COMMAND, "type": "tool_call"})
    assert message.status == "success" and "ran" in message.content


def test_claude_agent_sdk(kit: ModuleType, dispatched: list[str]) -> None:
    sdk = framework("claude_agent_sdk", "claude-agent-sdk")
    anyio = importlib.import_module("anyio")  # the SDK's own dependency
    bridge_module = importlib.import_module("claude_agent_sdk._internal.sdk_mcp_bridge")
    adapter = importlib.import_module("kit.adapters.claude_agent_sdk")
    config = adapter.server()
    assert (config["type"], config["name"]) == ("sdk", "skills")
    definitions = adapter.agents()
    assert definitions == {
        "reviewer": sdk.AgentDefinition(
            description="Reviews a change and lists what to fix.",
            prompt=REVIEWER,
            tools=["Read", "Grep"],
            model="sonnet",
        )
    }
    # The SDK's own options take both (the CLI is not started here).
    sdk.ClaudeAgentOptions(mcp_servers={"skills": config}, agents=definitions)

    calls = [
        ("file__read", {"path": "hello.txt"}),
        ("file__read", {"path": 5}),  # refused by the SDK's own schema check
        ("file__read", {"path": "hello.txt", "bogus": 1}),  # by dispatch
        ("task__greet", {"arguments": "Ada"}),
        ("batch__run", COMMAND),
    ]
    approved = adapter.server(namespace="batch", confirm=approve_batch_run)
    listed, results, ran = anyio.run(
        _drive_claude, bridge_module, config, approved, calls
    )
    assert "task__greet" in listed and "task__reviewer" not in listed
    valid, invalid, undeclared, skill, dangerous = results
    assert valid == {"content": [{"type": "text", "text": HELLO}], "isError": False}
    assert invalid["isError"] and "Input validation error" in _text(invalid)
    assert undeclared["isError"] and "bogus: unknown argument" in _text(undeclared)
    assert not skill["isError"] and _text(skill) == GREETING
    assert dangerous["isError"] and _text(dangerous).startswith("confirmation-required")
    assert not ran["isError"] and "ran" in _text(ran)
    assert dispatched == ["file__read", "file__read", "task__greet", "batch__run"] + [
        "batch__run"
    ]


async def _drive_claude(
    bridges: ModuleType, config: Any, approved: Any, calls: list[tuple[str, Any]]
) -> tuple[list[str], list[dict[str, Any]], dict[str, Any]]:
    """The JSON-RPC messages the Claude Code CLI sends an SDK server, through the
    SDK's own bridge: initialize, tools/list, tools/call."""

    async def session(server: Any) -> Any:
        bridge = bridges.SdkMcpBridge(server["name"], server["instance"])
        numbers = iter(range(1, 100))

        async def request(method: str, params: dict[str, Any]) -> Any:
            message = {"jsonrpc": "2.0", "id": next(numbers), "method": method}
            answer = await bridge.handle({**message, "params": params})
            return answer["result"]

        hello = {"name": "test", "version": "0"}
        await request(
            "initialize",
            {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": hello},
        )
        await bridge.handle({"jsonrpc": "2.0", "method": "notifications/initialized"})
        return bridge, request

    with importlib.import_module("anyio").fail_after(60):
        bridge, request = await session(config)
        listed = [tool["name"] for tool in (await request("tools/list", {}))["tools"]]
        results = [
            await request("tools/call", {"name": name, "arguments": arguments})
            for name, arguments in calls
        ]
        await bridge.aclose()
        bridge, request = await session(approved)
        ran = await request("tools/call", {"name": "batch__run", "arguments": COMMAND})
        await bridge.aclose()
    return listed, results, ran


def _text(result: dict[str, Any]) -> str:
    return str(result["content"][0]["text"])


def test_adapters_import_no_framework_until_used(tmp_path: Path) -> None:
    """Importing the package and an adapter imports no framework; an adapter used
    without its framework says what to install."""
    with imported_build("adapters", tmp_path, "kit", {}):
        pass
    code = (
        "import sys\n"
        "sys.modules['langchain_core'] = None  # not installed\n"
        "import kit, kit.adapters.langchain as adapter\n"
        "import kit.adapters.openai_agents, kit.adapters.pydantic_ai\n"
        "import kit.adapters.claude_agent_sdk\n"
        "loaded = {'agents', 'pydantic_ai', 'langchain', 'claude_agent_sdk'}\n"
        "assert not loaded & set(sys.modules), loaded & set(sys.modules)\n"
        "try:\n"
        "    adapter.tools()\n"
        "except ImportError as exc:\n"
        "    print(exc)\n"
    )
    done = run_python(code, tmp_path / "project")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == (
        "kit.adapters needs langchain_core.tools: pip install langchain-core"
    )


def test_a_namespace_named_adapters_leaves_the_adapters_alone(tmp_path: Path) -> None:
    """The subpackage's name is the package's own: a top-level namespace of that name
    is reached as ``adapters_`` (a reserved-name warning), not written over it."""
    (tmp_path / "skills").mkdir()
    (tmp_path / "pyproject.toml").write_text('[tool.skillc]\nsources = ["skills"]\n')
    (tmp_path / "skills" / "adapters.tools.yaml").write_text(
        "namespace: adapters\ntools:\n  - name: echo\n    description: Echo a text.\n"
        "    input_schema: {type: object, properties: {text: {type: string}}}\n"
        '    executor: {type: cli, command: "echo", positional: [text]}\n'
    )
    with contextlib.redirect_stderr(io.StringIO()) as err:
        assert cli.main(["-C", str(tmp_path), "build"]) == 0, err.getvalue()
    assert "adapters.echo is reached as adapters_.echo" in err.getvalue()
    out = tmp_path / "generated"
    assert (out / "adapters_" / "_echo.py").is_file()
    template = REPO / "templates" / "runtime" / "adapters" / "__init__.py"
    assert (out / "adapters" / "__init__.py").read_text().endswith(template.read_text())


def test_adapters_pass_mypy_strict_without_the_frameworks(kit: ModuleType) -> None:
    """As in a project that installs none of them: mypy sees no installed package."""
    folder = Path(kit.__file__).parent
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-site-packages"]
        + ["--no-incremental", "kit/adapters"],
        cwd=folder.parent,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout
    assert "no issues found in 5 source files" in done.stdout
