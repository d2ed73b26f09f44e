"""The provider fields the providers take today, checked against their SDKs' own types:
OpenAI Responses' namespaces and tool search, Anthropic's ``input_examples``, MCP's
``icons``, ``idempotentHint`` and ``_meta``; and ``dispatch()`` for the calls that come
back for them. No network."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from test_providers import NO_DOTS, _with_config, built, load, typed_dict

from openai.types.responses import (  # noqa: E402
    FunctionToolParam,
    NamespaceToolParam,
    ResponseFunctionToolCall,
    ToolSearchToolParam,
)
from openai.types.responses.namespace_tool_param import ToolFunction  # noqa: E402
from openai.types.responses.response_input_item_param import (  # noqa: E402
    FunctionCallOutput,
)

__all__ = ["built"]  # the fixture, shared with tests/test_providers.py


def _names(project: Path) -> dict[str, Any]:
    names: dict[str, Any] = json.loads(
        (project / "kit" / "providers" / "names.json").read_text()
    )
    return names


def _functions(entries: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Each function of a Responses file by the name its call comes back with joined
    as dispatch() joins it, checking each item against the SDK's types."""
    result = {}
    for entry in entries:
        if entry["type"] == "namespace":
            typed_dict(NamespaceToolParam, entry)
            assert NO_DOTS.match(entry["name"]) and entry["description"]
            assert "defer_loading" not in entry  # only functions are deferred
            for function in entry["tools"]:
                typed_dict(ToolFunction, function)
                assert NO_DOTS.match(function["name"])
                assert function["name"] != entry["name"]
                result[f"{entry['name']}__{function['name']}"] = function
        elif entry["type"] == "function":
            typed_dict(FunctionToolParam, entry)
            result[entry["name"]] = entry
    return result


def test_openai_responses_groups_each_namespace(built: Path) -> None:
    entries = load(built, "openai-responses.json")
    groups = {e["name"]: e for e in entries if e["type"] == "namespace"}
    # skillc's dotted namespaces, one to one, each '.' as '__'.
    assert sorted(groups) == [
        "batch",
        "db",
        "file",
        "orchestrator",
        "pdf-extractor",
        "s3__file",
        "task",
        "weather",
    ]
    assert [f["name"] for f in groups["s3__file"]["tools"]] == ["list", "read"]
    assert groups["s3__file"]["description"] == "Objects in S3 buckets, as files."
    functions = _functions(entries)
    # Every tool once, under the name its call joins to: its provider name.
    assert sorted(functions) == sorted(_names(built)["from_provider"]["openai"])
    assert all(f["strict"] is False for f in functions.values())
    flat = {
        e["function"]["name"]: e["function"] for e in load(built, "openai-chat.json")
    }
    for name, function in functions.items():
        assert function["parameters"] == flat[name]["parameters"]


def test_openai_responses_deferred_has_tool_search(built: Path) -> None:
    entries = load(built, "openai-responses.deferred.json")
    typed_dict(ToolSearchToolParam, entries[0])
    assert entries[0]["type"] == "tool_search"
    assert entries[0]["execution"] == "client"  # answered by dispatch()
    functions = _functions(entries[1:])
    assert sorted(functions) == sorted(_functions(load(built, "openai-responses.json")))
    assert all(f["defer_loading"] is True for f in functions.values())


def test_openai_responses_deferred_keeps_always_loaded_tools(tmp_path: Path) -> None:
    project, status, err = _with_config(
        tmp_path,
        '\n[tool.skillc.profiles.support]\nprovider = "openai"\n'
        'always-loaded = ["file.read"]\n',
    )
    assert status == 0, err
    path = project / "out" / "providers" / "support" / "openai-responses.deferred.json"
    functions = _functions(json.loads(path.read_text())[1:])
    loaded = sorted(n for n, f in functions.items() if "defer_loading" not in f)
    assert loaded == ["file__read"]


@pytest.mark.parametrize(
    ("namespace", "name"),
    [
        ("s3__file", "read"),  # listed in its namespace
        (None, "s3__file__read"),  # from openai-responses.strict.json (flat)
        ("s3__file__read", "s3__file__read"),  # a deferred tool listed alone
    ],
)
def test_dispatch_routes_a_namespaced_responses_call(
    built: Path, namespace: str | None, name: str
) -> None:
    import kit  # type: ignore[import-not-found]

    fields: dict[str, Any] = {
        "type": "function_call",
        "call_id": "call_9",
        "name": name,
        "arguments": json.dumps({"bucket": "b", "key": "k"}),
    }
    if namespace is not None:
        fields["namespace"] = namespace
    item = ResponseFunctionToolCall.model_validate(fields)
    output = kit.dispatch("openai-responses", item)
    typed_dict(FunctionCallOutput, output)
    assert output["call_id"] == "call_9"
    assert json.loads(output["output"]) == {"bucket": "b", "key": "k"}


def test_dispatch_never_routes_a_namespace_to_another_tool(built: Path) -> None:
    """A namespace the files never gave joins to no tool's name: an unknown tool."""
    import kit

    for namespace, name in (("file", "s3__file__read"), ("s3", "read"), ("", "read")):
        output = kit.dispatch(
            "openai-responses",
            {"call_id": "c", "namespace": namespace, "name": name, "arguments": "{}"},
        )
        assert output["output"].startswith("error: unknown tool"), (namespace, name)


def test_mcp_tools_carry_icons_idempotent_hint_and_python_path(built: Path) -> None:
    from mcp_types._v2026_07_28 import Tool
    from test_mcp_server import _valid_at_every_version

    entries = load(built, "mcp.json")
    _valid_at_every_version(entries)
    tools = {e["name"]: Tool.model_validate(e) for e in entries}
    listing = tools["s3.file.list"]
    assert listing.icons is not None
    assert [(i.src, i.mime_type, i.sizes, i.theme) for i in listing.icons] == [
        ("https://example.com/s3-48.png", "image/png", ["48x48"], None),
        ("data:image/png;base64,iVBORw0KGgo=", None, None, "dark"),
    ]
    assert all(t.icons is None for n, t in tools.items() if n != "s3.file.list")
    hints = {
        n: t.annotations.idempotent_hint for n, t in tools.items() if t.annotations
    }
    # Said where known: the manifest's `idempotent`, an HTTP GET; never beside
    # readOnlyHint (where MCP gives it no meaning).
    assert hints["s3.file.list"] is True  # idempotent: true
    assert hints["weather.current"] is True  # GET
    assert hints["batch.run"] is None and hints["file.read"] is None
    for name, tool in tools.items():
        assert tool.meta is not None
        path = tool.meta.model_dump()["skillc/python"]
        module, _, attribute = path.rpartition(".")
        assert path == "kit." + _names(built)["from_provider"]["mcp"][name]
        assert callable(getattr(__import__(module, fromlist=["_"]), attribute))


def test_mcp_server_lists_the_new_fields(built: Path) -> None:
    from test_mcp_server import _drive, _stdio

    async def session(client: Any) -> None:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        listing = tools["s3.file.list"]
        assert listing.icons and listing.icons[0].src == "https://example.com/s3-48.png"
        assert listing.annotations.idempotent_hint is True
        assert dict(listing.meta or {})["skillc/python"] == "kit.s3.file.list"

    _drive(_stdio(built), "auto", session)


@pytest.mark.parametrize(
    "icon",
    [
        '{src: "javascript:alert(1)"}',
        '{src: "http://example.com/a.png"}',
        '{src: "data:image/svg+xml;base64,PHN2Zz4="}',
        '{src: "https://example.com/a.png", mimeType: image/svg+xml}',
        '{src: "https://example.com/a.png", onclick: x}',
    ],
)
def test_an_icon_that_is_not_a_safe_image_is_an_error(
    tmp_path: Path, icon: str
) -> None:
    project = tmp_path / "p"
    (project / "tools").mkdir(parents=True)
    (project / "pyproject.toml").write_text('[tool.skillc]\nsources = ["tools"]\n')
    (project / "tools" / "x.tools.yaml").write_text(
        "namespace: x\ntools:\n  - name: y\n    description: Y.\n"
        f"    icons: [{icon}]\n"
        '    executor: {type: python, function: "m:f"}\n'
    )
    import contextlib
    import io

    from skillc import cli

    with contextlib.redirect_stderr(io.StringIO()) as err:
        assert cli.main(["-C", str(project), "build"]) == 1
    assert "tools/x.tools.yaml:5:" in err.getvalue()
    assert "error[manifest-invalid]" in err.getvalue()


def test_anthropic_input_examples_come_from_the_manifests_examples(
    built: Path,
) -> None:
    import jsonschema
    from anthropic.types import ToolParam

    for name in ("anthropic.json", "anthropic.deferred.json"):
        entries = {e["name"]: e for e in load(built, name) if "input_schema" in e}
        for entry in entries.values():
            typed_dict(ToolParam, entry)
            for example in entry.get("input_examples", ()):
                jsonschema.Draft202012Validator(entry["input_schema"]).validate(example)
        assert entries["file__read"]["input_examples"] == [
            {"path": "README.md"},
            {"path": "src/app.py", "offset": 100, "limit": 50},
        ]
        assert entries["s3__file__read"]["input_examples"] == [
            {"bucket": "logs", "key": "2026/11/22.json"}
        ]
        # An ai-tool.yaml example is a shell line, not a call: left as text.
        assert "input_examples" not in entries["orchestrator__start"]
    # The strict schema makes optional properties required: no examples there.
    assert all("input_examples" not in e for e in load(built, "anthropic.strict.json"))


def _manifest_build(tmp_path: Path, examples: str) -> tuple[int, str, Path]:
    import contextlib
    import io

    from skillc import cli

    project = tmp_path / "p"
    (project / "tools").mkdir(parents=True)
    (project / "pyproject.toml").write_text('[tool.skillc]\nsources = ["tools"]\n')
    (project / "tools" / "x.tools.yaml").write_text(
        "namespace: x\n"
        "tools:\n"
        "  - name: y\n"
        "    description: Y.\n"
        "    aliases: [old_y]\n"
        "    input_schema:\n"
        "      type: object\n"
        "      properties:\n"
        "        n: {type: integer, minimum: 1}\n"
        "        class: {type: string}\n"
        "      required: [n]\n"
        f"    examples: {examples}\n"
        '    executor: {type: python, function: "m:f"}\n'
    )
    with contextlib.redirect_stderr(io.StringIO()) as err:
        status = cli.main(["-C", str(project), "build"])
    return status, err.getvalue(), project


@pytest.mark.parametrize(
    ("example", "problem"),
    [
        ('x.y(n="3")', 'n: "3" is not of type "integer"'),
        ("x.y(n=0)", "n: 0 is less than the minimum of 1"),
        ("old_y(class_='a')", 'the input: "n" is a required property'),
        ("x.y(n=1, m=2)", "m is not a parameter (parameters: class, n)"),
        ("x.y(1)", "name each argument (name=value)"),
        ('x.y(n=__import__("os").getpid())', "n: not a JSON value"),
        ("x.y(n={1, 2})", "n: not a JSON value"),
    ],
)
def test_an_example_the_schema_rejects_is_a_located_error(
    tmp_path: Path, example: str, problem: str
) -> None:
    status, err, project = _manifest_build(
        tmp_path, json.dumps(["x.y(n=2)", "run it twice", example])
    )
    assert status == 1
    # The third example, where the file writes it.
    line = (project / "tools" / "x.tools.yaml").read_text().splitlines()[11]
    located = f"tools/x.tools.yaml:12:{line.rindex(json.dumps(example)) + 1}"
    assert f"{located}: error[invalid-example]: {example!r}: {problem}" in err, err
    assert not (project / "generated").exists()  # nothing half-written


def test_valid_examples_by_python_and_property_names(tmp_path: Path) -> None:
    status, err, project = _manifest_build(
        tmp_path,
        json.dumps(["x.y(n=2, class_='a')", "old_y(n=3)", "prose", "f(n=0)"]),
    )
    assert status == 0, err
    (entry,) = json.loads(
        (project / "generated" / "providers" / "anthropic.json").read_text()
    )
    assert entry["input_examples"] == [{"n": 2, "class": "a"}, {"n": 3}]


def test_a_shortened_provider_name_is_listed_alone(tmp_path: Path) -> None:
    """A name cut to provider-name-limit is not its namespace's joined to its own: the
    tool stands alone under its provider name, and its call comes back by that name."""
    long = "a_rather_long_tool_name_that_is_cut"
    status, err, project = _manifest_build(tmp_path, "[]")
    manifest = project / "tools" / "x.tools.yaml"
    manifest.write_text(
        manifest.read_text()
        + f"  - name: {long}\n    description: Long.\n"
        + '    executor: {type: python, function: "m:f"}\n'
        + "  - name: z\n    description: Z.\n"
        + '    executor: {type: python, function: "m:f"}\n'
    )
    pyproject = project / "pyproject.toml"
    pyproject.write_text(pyproject.read_text() + "provider-name-limit = 24\n")
    import contextlib
    import io

    from skillc import cli

    with contextlib.redirect_stderr(io.StringIO()) as out:
        assert cli.main(["-C", str(project), "build"]) == 0, out.getvalue()
    folder = project / "generated" / "providers"
    names = json.loads((folder / "names.json").read_text())["to_provider"]
    cut = names[f"x.{long}"]["openai"]
    assert cut != f"x__{long}" and len(cut) <= 24
    entries = json.loads((folder / "openai-responses.json").read_text())
    assert [e["name"] for e in entries] == [cut, "x"]  # in the tools' order
    assert [f["name"] for f in entries[1]["tools"]] == ["y", "z"]
    assert sorted(_functions(entries)) == sorted(n["openai"] for n in names.values())
