"""Issue 41, finding 12: every declared argument reaches its tool through each agent
framework's adapter, whatever its name. LangChain keeps ``config``, ``callbacks``,
``run_manager`` and ``self`` for itself (an argument of the name never reached the tool,
or raised ``TypeError``): the adapter offers them the model as ``config_`` (one more
``_`` while the name is taken) and passes them back. The OpenAI Agents SDK, PydanticAI
and the Claude Agent SDK hand a tool every argument as sent, names that are theirs
elsewhere (``ctx``, ``context``, ``run_context``, ``deps``) included. Each framework's
model calls the tool with the names it is offered, in a fresh process."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from contextlib import redirect_stderr
from pathlib import Path

import pytest

from conftest import template_module
from security_kit import canary  # noqa: F401 - fixture
from skillc import cli

NAMES = ["config", "callbacks", "run_manager", "self", "callback_manager"]
NAMES += ["tool_call_id", "ctx", "context", "run_context", "deps", "args", "kwargs"]
NAMES += ["messages", "name", "input", "tags", "metadata", "verbose", "id", "type"]
# Run in the built project: each framework's model calls echo.all with the names its
# adapter offers, each argument's value its own name (as the tool declares it).
DRIVE = """
import asyncio, importlib, json, sys, warnings
warnings.simplefilter("ignore")
names = json.loads(sys.argv[1])
found = {}

def sent(offered):
    back = {v: k for k, v in zip(names, offered)}
    return {name: "v-" + back[name] for name in offered}

def langchain():
    from kit.adapters import langchain
    (tool,) = langchain.tools()
    offered = list(tool.args_schema["properties"])
    message = tool.invoke({"name": tool.name, "args": sent(offered), "id": "c",
                           "type": "tool_call"})
    return offered, message.content

def pydantic_ai():
    pa = importlib.import_module("pydantic_ai")
    parts = importlib.import_module("pydantic_ai.messages")
    function = importlib.import_module("pydantic_ai.models.function")
    from kit.adapters import pydantic_ai as adapter
    offered = []
    def model(history, info):
        if len(history) > 1:
            return parts.ModelResponse(parts=[parts.TextPart("done")])
        offered.extend(info.function_tools[0].parameters_json_schema["properties"])
        call = parts.ToolCallPart("echo__all", sent(offered), tool_call_id="c")
        return parts.ModelResponse(parts=[call])
    run = pa.Agent(function.FunctionModel(model), toolsets=[adapter.toolset()])
    result = run.run_sync("go")
    (part,) = [p for m in result.all_messages() for p in m.parts
               if isinstance(p, parts.ToolReturnPart)]
    return offered, part.content

def openai_agents():
    agents = importlib.import_module("agents")
    testing = importlib.import_module("agents.testing")
    from kit.adapters import openai_agents as adapter
    agents.set_tracing_disabled(True)
    (tool,) = adapter.tools()
    offered = list(tool.params_json_schema["properties"])
    model = testing.ScriptedModel([
        [testing.function_call("echo__all", sent(offered), call_id="c")],
        [testing.assistant_message("done")],
    ])
    result = agents.Runner.run_sync(agents.Agent(name="m", tools=[tool], model=model), "go")
    (out,) = [i.output for i in result.new_items if isinstance(i, agents.ToolCallOutputItem)]
    return offered, out

def claude_agent_sdk():
    anyio = importlib.import_module("anyio")
    bridges = importlib.import_module("claude_agent_sdk._internal.sdk_mcp_bridge")
    from kit.adapters import claude_agent_sdk as adapter
    config = adapter.server()
    async def go():
        bridge = bridges.SdkMcpBridge(config["name"], config["instance"])
        hello = {"protocolVersion": "2025-06-18", "capabilities": {},
                 "clientInfo": {"name": "t", "version": "0"}}
        await bridge.handle({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                             "params": hello})
        listed = await bridge.handle({"jsonrpc": "2.0", "id": 2, "method": "tools/list"})
        offered = list(listed["result"]["tools"][0]["inputSchema"]["properties"])
        params = {"name": "echo__all", "arguments": sent(offered)}
        answer = await bridge.handle({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
                                      "params": params})
        await bridge.aclose()
        return offered, answer["result"]["content"][0]["text"]
    return anyio.run(go)

for drive in (langchain, pydantic_ai, openai_agents, claude_agent_sdk):
    try:
        found[drive.__name__] = drive()
    except ImportError as missing:
        found[drive.__name__] = str(missing)
    except Exception as failed:  # the framework's own error: the test says it
        found[drive.__name__] = [[], repr(failed)]
print(json.dumps(found), flush=True)
"""


@pytest.fixture(scope="module")
def driven(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    """A tool that echoes arguments of every name in NAMES, through each adapter."""
    project = tmp_path_factory.mktemp("adapters") / "project"
    (project / "tools").mkdir(parents=True)
    (project / "pyproject.toml").write_text(
        '[tool.skillc]\nsources = ["tools"]\nout = "kit"\npackage = "kit"\n'
    )
    properties = "".join(f"        {name}: {{type: string}}\n" for name in NAMES)
    (project / "tools" / "echo.tools.yaml").write_text(
        "namespace: echo\ndescription: d\ntools:\n  - name: all\n"
        "    description: Echoes its arguments.\n    input_schema:\n"
        f"      type: object\n      required: [config, self]\n      properties:\n"
        f"{properties}"
        '    executor: {type: python, function: "builtins:dict"}\n'
    )
    with redirect_stderr(io.StringIO()) as err:
        assert cli.main(["-C", str(project), "build"]) == 0, err.getvalue()
    done = subprocess.run(
        [sys.executable, "-c", DRIVE, json.dumps(NAMES)],
        cwd=project,
        env={**os.environ, "PYTHONPATH": str(project)},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    found: dict[str, object] = json.loads(done.stdout)
    return found


@pytest.mark.parametrize(
    "framework", ["langchain", "pydantic_ai", "openai_agents", "claude_agent_sdk"]
)
def test_every_declared_argument_reaches_the_tool(
    driven: dict[str, object], framework: str
) -> None:
    outcome = driven[framework]
    if isinstance(outcome, str):
        if os.environ.get("CI"):  # CI installs every framework (noxfile)
            raise AssertionError(outcome)
        pytest.skip(outcome)
    assert isinstance(outcome, list)
    offered, answer = outcome
    assert json.loads(answer) == {name: f"v-{name}" for name in NAMES}
    if framework == "langchain":  # its own keywords, offered under other names
        assert {"config_", "callbacks_", "run_manager_", "self_"} <= set(offered)
        assert not {"config", "callbacks", "run_manager", "self"} & set(offered)
    else:
        assert offered == NAMES


def test_a_renamed_argument_takes_a_name_no_other_has() -> None:
    adapters = template_module("adapters")
    schema = {
        "type": "object",
        "properties": {"config": {"type": "string"}, "config_": {}, "x": {}},
        "required": ["config", "x"],
    }
    offered, back = adapters.renamed(schema, frozenset({"config"}))
    assert list(offered["properties"]) == ["config__", "config_", "x"]
    assert offered["required"] == ["config__", "x"] and back == {"config__": "config"}
    assert schema["required"] == ["config", "x"]  # the provider file's, unchanged
