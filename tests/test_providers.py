"""Provider files checked against the real SDKs' own types (anthropic, openai,
google-genai, mcp, botocore), and a dispatch round trip per provider. No network."""

from __future__ import annotations

import contextlib
import importlib
import io
import json
import os
import re
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, get_type_hints

import pytest

from conftest import FIXTURES, REPO
from skillc import cli

SDKS = ("anthropic", "openai", "google.genai", "mcp", "botocore", "pydantic")


@pytest.fixture(scope="module", autouse=True)
def _sdk_types() -> None:
    """The SDKs' types, imported when this file's tests run rather than when the suite is
    collected: every pytest-xdist worker collects every file, and these imports (several
    seconds) were paid by both workers, though one runs the file."""
    global botocore_session, genai_types, mcp_types, ParamValidator
    global ToolParam, ToolResultBlockParam
    global ToolUseBlock, ChatCompletionFunctionToolParam
    global ChatCompletionMessageFunctionToolCall, ChatCompletionToolMessageParam
    global FunctionToolParam, ResponseFunctionToolCall, FunctionCallOutput
    if not os.environ.get("CI"):  # CI installs them (noxfile.PROVIDER_SDKS): never skip
        for sdk in SDKS:
            pytest.importorskip(sdk)
    import botocore.session as botocore_session
    import google.genai.types as genai_types
    import mcp.types as mcp_types
    from anthropic.types import (
        ToolParam,
        ToolResultBlockParam,
        ToolUseBlock,
    )
    from botocore.validate import ParamValidator
    from openai.types.chat import (
        ChatCompletionFunctionToolParam,
        ChatCompletionMessageFunctionToolCall,
        ChatCompletionToolMessageParam,
    )
    from openai.types.responses import FunctionToolParam, ResponseFunctionToolCall
    from openai.types.responses.response_input_item_param import FunctionCallOutput


NO_DOTS = re.compile(
    r"^[a-zA-Z0-9_-]{1,64}$"
)  # Anthropic, OpenAI, Bedrock (providers.md §1)
GEMINI = re.compile(r"^[A-Za-z_][A-Za-z0-9_.:-]{0,63}$")
MCP = re.compile(r"^[A-Za-z0-9._-]{1,128}$")


def typed_dict(kind: Any, value: dict[str, Any]) -> None:
    """Valid for the SDK's TypedDict, and no key the SDK does not define (imports its
    own pydantic: test_providers_fields uses it without this file's fixture)."""
    import pydantic

    pydantic.TypeAdapter(kind).validate_python(value)
    assert set(value) <= set(get_type_hints(kind)), set(value) - set(
        get_type_hints(kind)
    )


def bedrock_validate(tool_config: dict[str, Any]) -> None:
    model = botocore_session.get_session().get_service_model("bedrock-runtime")
    shape = model.operation_model("Converse").input_shape
    params = {"modelId": "m", "messages": [], "toolConfig": tool_config}
    report = ParamValidator().validate(params, shape)
    assert not report.has_errors(), report.generate_report()


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    project = tmp_path_factory.mktemp("providers") / "tools"
    shutil.copytree(FIXTURES / "tools", project)
    with contextlib.redirect_stderr(io.StringIO()) as err:
        assert cli.main(["-C", str(project), "build"]) == 0, err.getvalue()
    (project / "out").rename(project / "kit")
    sys.path.insert(0, str(project))
    yield project
    sys.path.remove(str(project))
    for name in [m for m in sys.modules if m == "kit" or m.startswith("kit.")]:
        del sys.modules[name]


def load(project: Path, name: str) -> list[dict[str, Any]]:
    data = json.loads((project / "kit" / "providers" / name).read_text())
    assert isinstance(data, list)
    return data


def test_anthropic_files_fit_the_sdk_types(built: Path) -> None:
    for name in ("anthropic.json", "anthropic.strict.json"):
        entries = load(built, name)
        assert entries
        for entry in entries:
            typed_dict(ToolParam, entry)
            assert NO_DOTS.match(entry["name"])
            assert (
                entry.get("strict", True) is (name == "anthropic.strict.json")
                or "strict" not in entry
            )
    deferred = load(built, "anthropic.deferred.json")
    typed_dict(ToolParam, deferred[0])  # the client-side search tool (find_tool)
    assert deferred[0]["name"] == "find_tool" and "defer_loading" not in deferred[0]
    for entry in deferred[1:]:
        typed_dict(ToolParam, entry)
        assert entry["defer_loading"] is True


def test_openai_files_fit_the_sdk_types(built: Path) -> None:
    for name, strict in (
        ("openai-chat.json", False),
        ("openai-chat.strict.json", True),
    ):
        for entry in load(built, name):
            typed_dict(ChatCompletionFunctionToolParam, entry)
            assert entry["function"]["strict"] is strict
            assert NO_DOTS.match(entry["function"]["name"])
            assert len(entry["function"].get("description", "")) <= 1024
    for entry in load(built, "openai-responses.strict.json"):
        typed_dict(FunctionToolParam, entry)
        assert entry["strict"] is True  # said explicitly: Responses defaults to strict
    # openai-responses.json and its deferred variant: tests/test_providers_fields.py


def test_gemini_mcp_and_bedrock_files_fit_the_sdk_types(built: Path) -> None:
    (gemini,) = load(built, "gemini.json")
    tool = genai_types.Tool.model_validate(gemini)  # extra keys forbidden by the SDK
    assert tool.function_declarations and all(
        GEMINI.match(f.name or "") for f in tool.function_declarations
    )
    assert "s3.file.read" in {f.name for f in tool.function_declarations}
    for entry in load(built, "mcp.json"):
        parsed = mcp_types.Tool.model_validate(entry)
        assert MCP.match(parsed.name) and parsed.input_schema["type"] == "object"
    listing = mcp_types.ListToolsResult.model_validate(
        {"tools": load(built, "mcp.json")}
    )
    hints = {t.name: t.annotations for t in listing.tools}
    assert hints["file.read"].read_only_hint is True
    assert hints["batch.run"].destructive_hint is True
    assert hints["weather.current"].open_world_hint is True
    entries = load(built, "bedrock.json")
    bedrock_validate({"tools": entries})
    assert all(NO_DOTS.match(e["toolSpec"]["name"]) for e in entries)


def test_names_map_both_ways(built: Path) -> None:
    names = json.loads((built / "kit" / "providers" / "names.json").read_text())
    assert names["keeps_dots"] == ["gemini", "mcp"]
    assert names["to_provider"]["s3.file.read"]["anthropic"] == "s3__file__read"
    assert names["to_provider"]["s3.file.read"]["mcp"] == "s3.file.read"
    assert (
        names["to_provider"]["pdf_extractor.extract_text"]["openai"]
        == "pdf-extractor__extract_text"
    )
    for provider, table in names["from_provider"].items():
        assert len(table) == len(names["to_provider"]), provider
        for name, qualname in table.items():
            assert names["to_provider"][qualname][provider] == name


def test_strict_files_leave_out_what_cannot_be_strict_with_a_reason(
    built: Path,
) -> None:
    report = json.loads((built / "kit" / "report.json").read_text())
    left = {(e["file"], e["tool"]) for e in report["provider_left_out"]}
    for name in ("anthropic.strict.json", "openai-chat.strict.json"):
        strict = {e.get("name") or e["function"]["name"] for e in load(built, name)}
        plain = {
            e.get("name") or e["function"]["name"]
            for e in load(built, name.replace(".strict", ""))
        }
        names = json.loads((built / "kit" / "providers" / "names.json").read_text())
        back = names["from_provider"]["anthropic"]
        for missing in plain - strict:
            assert (f"providers/{name}", back[missing]) in left
    assert ("providers/openai-chat.strict.json", "db.insert") in left


def test_round_trip_anthropic(built: Path) -> None:
    import kit  # type: ignore[import-not-found]

    block = ToolUseBlock.model_validate(
        {
            "type": "tool_use",
            "id": "toolu_01",
            "name": "s3__file__read",
            "input": {"bucket": "b", "key": "k", "class": None, "range": None},
        }
    )
    result = kit.dispatch("anthropic", block)
    typed_dict(ToolResultBlockParam, result)
    assert result["is_error"] is False and json.loads(result["content"]) == {
        "bucket": "b",
        "key": "k",
    }
    unknown = kit.dispatch(
        "anthropic", {"type": "tool_use", "id": "x", "name": "nope", "input": {}}
    )
    assert unknown["is_error"] is True and "unknown tool" in unknown["content"]


def test_round_trip_openai_chat_and_responses(built: Path) -> None:
    import kit

    call = ChatCompletionMessageFunctionToolCall.model_validate(
        {
            "id": "call_1",
            "type": "function",
            "function": {
                "name": "weather__current",
                "arguments": json.dumps({"city": 3}),
            },
        }
    )
    answer = kit.dispatch("openai-chat", call)
    typed_dict(ChatCompletionToolMessageParam, answer)
    assert (
        answer["content"]
        == "error: invalid-arguments: city: expected string, got number"
    )
    item = ResponseFunctionToolCall.model_validate(
        {
            "type": "function_call",
            "call_id": "call_2",
            "name": "task__pdf-extractor",
            "arguments": json.dumps({"arguments": "report.pdf"}),
        }
    )
    output = kit.dispatch("openai-responses", item)
    typed_dict(FunctionCallOutput, output)
    assert output["output"].endswith("ARGUMENTS: report.pdf")


def test_round_trip_gemini(built: Path) -> None:
    import kit

    part = genai_types.Part.model_validate(
        {
            "function_call": {
                "id": "fc_1",
                "name": "s3.file.read",
                "args": {"bucket": "b", "key": "k"},
            }
        }
    )
    answer = kit.dispatch("gemini", part)
    parsed = genai_types.Part.model_validate(answer)
    assert parsed.function_response is not None
    assert parsed.function_response.id == "fc_1"
    assert parsed.function_response.response == {"result": {"bucket": "b", "key": "k"}}


def test_round_trip_mcp(built: Path) -> None:
    import kit

    params = mcp_types.CallToolRequestParams.model_validate(
        {"name": "s3.file.read", "arguments": {"bucket": "b", "key": "k"}}
    )
    result = mcp_types.CallToolResult.model_validate(kit.dispatch("mcp", params))
    assert result.is_error is False and result.structured_content == {
        "bucket": "b",
        "key": "k",
    }
    failed = mcp_types.CallToolResult.model_validate(
        kit.dispatch("mcp", {"name": "s3.file.read", "arguments": {"bucket": 1}})
    )
    assert failed.is_error is True


def test_round_trip_bedrock(built: Path) -> None:
    import kit

    use = {
        "toolUse": {
            "toolUseId": "tooluse_1",
            "name": "s3__file__read",
            "input": {"bucket": "b", "key": "k"},
        }
    }
    answer = kit.dispatch("bedrock", use)
    model = botocore_session.get_session().get_service_model("bedrock-runtime")
    shape = model.operation_model("Converse").input_shape
    message = {"role": "user", "content": [answer]}
    report = ParamValidator().validate({"modelId": "m", "messages": [message]}, shape)
    assert not report.has_errors(), report.generate_report()
    assert answer["toolResult"]["status"] == "success"


def test_strict_nulls_become_omitted_arguments(built: Path) -> None:
    """A strict-mode call sends null for every optional property; the tool sees them left
    out, and a property whose own schema allows null keeps it."""
    import kit

    strict = next(
        e
        for e in load(built, "openai-chat.strict.json")
        if e["function"]["name"] == "weather__current"
    )
    properties = strict["function"]["parameters"]["properties"]
    arguments = {name: None for name in properties} | {"city": "Oslo"}
    sent = kit.weather.current.arguments(city="Oslo")
    from kit._dispatch import without_nulls

    kept = without_nulls(kit.weather.current.spec.input_schema, arguments)
    assert kept == {"city": "Oslo", "Content-Type": None}
    assert set(sent) - {"units", "days"} == {"city"}


def test_committed_provider_files_of_this_repo_are_current(tmp_path: Path) -> None:
    """The golden provider files of skills/: generated/providers as a build writes it."""
    project = tmp_path / "repo"
    project.mkdir()
    shutil.copytree(REPO / "skills", project / "skills")
    shutil.copy(REPO / "pyproject.toml", project / "pyproject.toml")
    with contextlib.redirect_stderr(io.StringIO()):
        assert cli.main(["-C", str(project), "build"]) == 0
    for path in sorted((REPO / "generated" / "providers").iterdir()):
        assert (
            project / "generated" / "providers" / path.name
        ).read_text() == path.read_text(), path.name


def _with_config(tmp_path: Path, extra: str) -> tuple[Path, int, str]:
    project = tmp_path / "tools"
    shutil.copytree(FIXTURES / "tools", project)
    pyproject = project / "pyproject.toml"
    pyproject.write_text(pyproject.read_text() + extra)
    with contextlib.redirect_stderr(io.StringIO()) as err:
        status = cli.main(["-C", str(project), "build"])
    return project, status, err.getvalue()


def test_each_configured_profile_gets_its_own_files(tmp_path: Path) -> None:
    project, status, err = _with_config(
        tmp_path,
        """
[tool.skillc.profiles.support]
provider = "openai"
exclude = ["batch.*", "db.*"]

[tool.skillc.profiles.agents]
provider = "anthropic"
include = ["file.*", "task.*"]
always-loaded = ["file.read"]

[tool.skillc.profiles.terminal]
provider = "codex"

[[tool.skillc.conflicts]]
tools = ["file.tail", "Read"]
kind = "equivalent"
hint = "read the file and keep its last lines"
""",
    )
    assert status == 0, err
    providers = project / "out" / "providers"
    assert sorted(p.name for p in (providers / "support").iterdir()) == [
        "openai-chat.json",
        "openai-chat.strict.json",
        "openai-responses.deferred.json",
        "openai-responses.json",
        "openai-responses.strict.json",
    ]
    support = {
        e["function"]["name"]
        for e in json.loads((providers / "support" / "openai-chat.json").read_text())
    }
    assert "file__read" in support and not any(
        n.startswith(("batch__", "db__")) for n in support
    )
    agents = json.loads((providers / "agents" / "anthropic.deferred.json").read_text())
    assert {e["name"] for e in agents[1:]} == {
        "file__dir",
        "file__edit",
        "file__glob",
        "file__grep",
        "file__read",
        "file__write",
        "task__pdf-extractor",
        "file__tail",
    }
    assert [e["name"] for e in agents[1:] if "defer_loading" not in e] == ["file__read"]
    # CLI agents have file tools and a shell of their own: the file_ops and shell
    # categories are left out (file.tail, which has no category, stays).
    terminal = (providers / "terminal" / "AGENTS.md").read_text()
    claude = (project / "out" / "CLAUDE.md").read_text()
    assert (
        "- `file.tail` does what your `Read` does: read the file and keep its last lines."
        in claude
    )
    assert "does what your" not in terminal  # Codex has no native Read
    for doc in (terminal, claude):
        assert "`batch`" not in doc and "19 tools" not in doc
        assert "11 tools in `db`, `file`, `orchestrator`" in doc


def test_a_profile_with_both_sides_of_an_incompatible_pair_is_an_error(
    tmp_path: Path,
) -> None:
    _, status, err = _with_config(
        tmp_path,
        """
[tool.skillc.profiles.api]
provider = "anthropic"

[[tool.skillc.conflicts]]
tools = ["file.write", "db.insert"]
kind = "incompatible"
hint = "one writer per run"
""",
    )
    assert status == 1
    assert (
        "pyproject.toml:1:1: error[profile-invalid]: profile 'api' enables both file.write "
        "and db.insert, which are incompatible (one writer per run); exclude one of them"
    ) in err


TOY_PROVIDER = '''
"""A provider a newcomer adds: one module, and one line in the registry."""

from typing import Any

from skillc.emitters.providers import File
from skillc.emitters.providers.schemas import Notes, description, input_schema
from skillc.views import ToolView


def entry(tool: ToolView, notes: Notes, file: str, always: bool) -> dict[str, Any]:
    return {"id": tool.provider_name, "about": description(tool), "args": input_schema(tool)}


FILES = (File("toy.json", entry),)
NAMES = "flat"
'''


def test_a_provider_is_one_module_and_one_registry_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from skillc import provider_registry

    (tmp_path / "toy_provider.py").write_text(TOY_PROVIDER)
    monkeypatch.syspath_prepend(str(tmp_path))
    toy = importlib.import_module("toy_provider")
    monkeypatch.setitem(provider_registry.PROVIDERS, "toy", toy)
    project, status, err = _with_config(
        tmp_path, '\n[tool.skillc.profiles.playground]\nprovider = "toy"\n'
    )
    assert status == 0, err
    providers = project / "out" / "providers"
    toy = json.loads((providers / "toy.json").read_text())
    anthropic = json.loads((providers / "anthropic.json").read_text())
    assert [t["id"] for t in toy] == [t["name"] for t in anthropic]
    assert [t["args"] for t in toy] == [t["input_schema"] for t in anthropic]
    assert json.loads((providers / "playground" / "toy.json").read_text()) == toy
    names = json.loads((providers / "names.json").read_text())
    assert names["from_provider"]["toy"] == names["from_provider"]["anthropic"]
