"""The bench's ``runtime`` section: the generated package at 500 and 5,000 real tools
(../shared/corpus/functions in manifests of 200, repeated in numbered namespaces, as
the ``manifests`` section writes them; each tool's executor the python function
``echo_impl:echo``, which returns its arguments, so a figure is the runtime's cost and
not a network's). Each figure is a ratio to a baseline measured in the same process
or the same run:

- dispatch of the last tool of the name table / of the first (<= 1.5);
- dispatch / a prebuilt ``jsonschema`` validator of the same schema + the call (<= 2);
- ``python -m <package> mcp`` over stdio, start to the first ``tools/list`` answer,
  CPU and peak RSS / a lean hand-written peer on the SDK's low-level ``Server`` that
  reads the same manifests at start-up (<= 0.8 each);
- the server's CPU per ``tools/call`` of the last tool / the peer's (<= 0.9), after a
  first call (whose one-time imports belong to start-up: a server that imports its
  call path lazily paid them over ``CALLS`` calls);
- at 500 tools, a bounded load on loopback of ``python -m <package> mcp --http
  --workers N`` for N = 1, 2 and 4 (tests/bench_load.py): no errors and no lost
  calls, and the server's CPU per call flat from 1 to N workers (<= 1.25).

The first and last tools are the first and last of ``providers/anthropic.json`` whose
schema a small generated argument object satisfies.
"""

from __future__ import annotations

import json
import math
import os
import re
import subprocess
import sys
import tempfile
import textwrap
import threading
from pathlib import Path
from typing import Any

Line = tuple[str, float, str, float | None, float | None, str, str]
SIZES = (500, 5000)
CALLS = 300  # tools/call requests per server, for the CPU per call
DEADLINE = 600  # seconds a server may take to answer them all, on a loaded machine
FAILED = "FAILED"  # the "met" of a figure whose server failed (tests/bench.py: exit 1)
ECHO = "def echo(**arguments):\n    return arguments\n"

# Run in the built project: the first and last callable tools and an argument object
# for each, chosen as the module docstring says.
CHOOSE = textwrap.dedent("""
    import json, sys
    import jsonschema

    def sample(schema):
        kind = schema.get("type")
        if "enum" in schema:
            return schema["enum"][0]
        if isinstance(kind, list):
            kind = kind[0]
        if kind == "object" or "properties" in schema:
            return {name: sample(schema["properties"].get(name, {}))
                    for name in schema.get("required", [])
                    if isinstance(schema.get("properties"), dict)}
        return {"string": "x", "integer": 1, "number": 1, "boolean": True,
                "array": [], "null": None}.get(kind, "x")

    tools = json.load(open("generated/providers/anthropic.json"))
    chosen = []
    for order in (tools, tools[::-1]):
        for tool in order:
            schema = tool["input_schema"]
            arguments = sample(schema)
            if jsonschema.validators.validator_for(schema)(schema).is_valid(arguments):
                chosen.append([tool["name"], schema, arguments])
                break
    # Its MCP name, and the peer's (namespace.name as the manifest writes it).
    names = json.load(open("generated/providers/names.json"))
    from generated._index import SOURCE_NAMES
    sources = dict(line.split("\t") for line in SOURCE_NAMES)
    for entry in chosen:
        qualname = names["from_provider"]["anthropic"][entry[0]]
        namespace = qualname.rpartition(".")[0]
        entry += [names["to_provider"][qualname]["mcp"],
                  namespace + "." + sources[qualname]]
    print(json.dumps(chosen))
""")

# Run in the built project: microseconds of CPU per call, best of five rounds.
DISPATCH = textwrap.dedent("""
    import json, sys, time
    import jsonschema
    from generated._dispatch import dispatch
    from echo_impl import echo

    chosen = json.loads(sys.argv[1])

    def per_call(function, n=2000):
        function()
        best = float("inf")
        for _ in range(5):
            start = time.process_time()
            for _ in range(n):
                function()
            best = min(best, (time.process_time() - start) / n)
        return best * 1e6

    (_, _, first_args, *_), (_, schema, last_args, *_) = chosen
    calls = [{"id": "1", "name": name, "input": arguments}
             for name, _, arguments, *_ in chosen]
    for call in calls:
        answer = dispatch("anthropic", call)
        assert not answer["is_error"], answer
    validator = jsonschema.validators.validator_for(schema)(schema)

    def base():
        validator.validate(last_args)
        return echo(**last_args)

    print(json.dumps([
        per_call(lambda: dispatch("anthropic", calls[0])),
        per_call(lambda: dispatch("anthropic", calls[1])),
        per_call(base),
    ]))
""")

# The peer: the SDK's low-level Server, reading the manifests at start-up.
PEER = textwrap.dedent("""
    import glob, json, anyio, yaml
    import jsonschema
    from mcp import types
    from mcp.server import lowlevel
    from mcp.server.stdio import stdio_server
    from echo_impl import echo

    def fixed(schema):  # BFCL writes "dict" for "object"
        if isinstance(schema, dict):
            schema = {k: fixed(v) for k, v in schema.items()}
            if schema.get("type") == "dict":
                schema["type"] = "object"
        elif isinstance(schema, list):
            schema = [fixed(item) for item in schema]
        return schema

    tools, schemas, validators = [], {}, {}
    for path in sorted(glob.glob("tools/*/tools.tools.yaml")):
        manifest = yaml.load(open(path, encoding="utf-8"), Loader=yaml.CSafeLoader)
        for tool in manifest["tools"]:
            name = manifest["namespace"] + "." + tool["name"]
            schema = {**fixed(tool["input_schema"]), "type": "object"}
            schemas[name] = schema
            entry = {"name": name, "inputSchema": schema}
            if tool.get("description"):
                entry["description"] = tool["description"]
            tools.append(entry)

    async def list_tools(ctx, params):
        return types.ListToolsResult.model_validate({"tools": tools})

    async def call_tool(ctx, params):
        validator = validators.get(params.name)
        if validator is None:
            schema = schemas[params.name]
            validator = validators[params.name] = (
                jsonschema.validators.validator_for(schema)(schema))
        arguments = params.arguments or {}
        errors = [e.message for e in validator.iter_errors(arguments)]
        if errors:
            text, data = "; ".join(errors), None
        else:
            data = echo(**arguments)
            text = json.dumps(data)
        result = {"content": [{"type": "text", "text": text}], "isError": bool(errors)}
        if data is not None:
            result["structuredContent"] = data
        return types.CallToolResult.model_validate(result)

    server = lowlevel.Server("peer", on_list_tools=list_tools, on_call_tool=call_tool)

    async def main():
        async with stdio_server() as (read, write):
            await server.run(read, write, server.create_initialization_options())

    anyio.run(main)
""")


def write_project(root: Path, count: int) -> None:
    """``count`` real tools, each run by ``echo_impl:echo``: the ``manifests``
    section's, as ``*.tools.yaml`` (the format that takes a python executor)."""
    from bench import _dump, write_manifests

    for path, data in write_manifests(root, count):
        tools = [
            {
                "name": re.sub(r"[^A-Za-z0-9_-]", "_", tool["name"]),  # as it takes
                "description": tool["description"],
                "input_schema": tool["parameters"] or {"type": "object"},
                "executor": {"type": "python", "function": "echo_impl:echo"},
            }
            for tool in data["tools"]
        ]
        path.unlink()
        _dump(path.parent / "tools.tools.yaml", {**data, "tools": tools})
    (root / "echo_impl.py").write_text(ECHO)


class ServerFailed(Exception):
    """A server that exited, or closed its output, before it answered."""


def _rpc(
    process: subprocess.Popen[bytes], ident: int, method: str, **params: Any
) -> Any:
    """Send a request (``ident`` 0: a notification) and return its result. A line that
    is not JSON (a library's print on a loaded machine) is passed over; the end of the
    output before the answer is ``ServerFailed``."""
    message = {"jsonrpc": "2.0", "method": method, "params": params}
    if ident:
        message["id"] = ident
    assert process.stdin is not None and process.stdout is not None
    try:
        process.stdin.write(json.dumps(message).encode() + b"\n")
        process.stdin.flush()
    except BrokenPipeError:
        raise ServerFailed(f"it stopped reading before {method}") from None
    if not ident:
        return None
    while line := process.stdout.readline():
        try:
            answer = json.loads(line)
        except ValueError:
            continue
        if isinstance(answer, dict) and answer.get("id") == ident:
            if "result" not in answer:
                raise ServerFailed(f"{method}: {str(answer)[:500]}")
            return answer["result"]
    raise ServerFailed(f"its output ended before it answered {method}")


def _cpu_and_rss(pid: int) -> tuple[float, float]:
    """The process's CPU seconds (user + system) and its peak RSS in MiB."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    ticks = os.sysconf("SC_CLK_TCK")
    cpu = (int(fields[11]) + int(fields[12])) / ticks
    status = Path(f"/proc/{pid}/status").read_text()
    peak = next(line for line in status.splitlines() if line.startswith("VmHWM"))
    return cpu, int(peak.split()[1]) / 1024


def serve(project: Path, command: list[str], call: tuple[str, Any]) -> list[float]:
    """Start the server, list its tools, call one ``CALLS`` times: [CPU to the first
    tools/list, peak RSS then (MiB), CPU per call]. A server that fails on the way (it
    exits, answers with an error, or does not answer within ``DEADLINE`` seconds) is
    ``ServerFailed``, with what it wrote to stderr."""
    env = {**os.environ, "PYTHONPATH": str(project), "PYTHONDONTWRITEBYTECODE": "1"}
    with tempfile.TemporaryFile() as stderr:
        process = subprocess.Popen(
            command,
            cwd=project,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=stderr,
        )
        # A server that hangs is killed, which ends its output: ServerFailed.
        timer = threading.Timer(DEADLINE, process.kill)
        timer.start()
        try:
            return _session(process, call)
        except ServerFailed as failure:
            process.kill()
            process.wait()
            stderr.seek(0)
            said = stderr.read().decode(errors="replace").strip()
            raise ServerFailed(
                f"{failure} (exit status {process.returncode}); its stderr:\n"
                + (said[-2000:] or "(nothing)")
            ) from None
        finally:
            timer.cancel()
            process.kill()
            process.wait()


def _session(process: subprocess.Popen[bytes], call: tuple[str, Any]) -> list[float]:
    info = {"name": "bench", "version": "1"}
    _rpc(
        process,
        1,
        "initialize",
        protocolVersion="2025-11-25",
        capabilities={},
        clientInfo=info,
    )
    _rpc(process, 0, "notifications/initialized")
    if not _rpc(process, 2, "tools/list").get("tools"):
        raise ServerFailed("tools/list listed no tool")
    started, rss = _cpu_and_rss(process.pid)
    name, arguments = call
    for number in range(CALLS + 1):
        if number == 1:  # after the first call's one-time imports: per call
            warm, _ = _cpu_and_rss(process.pid)
        result = _rpc(process, 3 + number, "tools/call", name=name, arguments=arguments)
        if result.get("isError"):
            raise ServerFailed(f"tools/call {name}: {str(result)[:500]}")
    ended, _ = _cpu_and_rss(process.pid)
    return [started, rss, (ended - warm) / CALLS]


def figures(runs: int, build_env: dict[str, str]) -> list[Line]:
    from bench import Figure

    rows: list[Line] = []
    for count in SIZES:
        with tempfile.TemporaryDirectory() as tmp:
            project = Path(tmp)
            write_project(project, count)
            env = {**build_env, "PYTHONDONTWRITEBYTECODE": "1"}
            subprocess.run(  # a real catalogue has a bad tool or two
                [sys.executable, "-m", "skillc", "build", "--keep-going"],
                cwd=project,
                env=env,
                check=True,
                capture_output=True,
            )
            rows += _figures(project, count, runs, Figure)
            if count == SIZES[0]:
                from bench_load import load

                rows += load(project, Figure, runs)
    return rows


def _figures(project: Path, count: int, runs: int, Figure: Any) -> list[Line]:
    env = {**os.environ, "PYTHONPATH": str(project), "PYTHONDONTWRITEBYTECODE": "1"}

    def script(text: str, *args: str) -> Any:
        done = subprocess.run(
            [sys.executable, "-c", text, *args],
            cwd=project,
            env=env,
            check=True,
            capture_output=True,
            text=True,
        )
        return json.loads(done.stdout)

    chosen = script(CHOOSE)
    timings = [script(DISPATCH, json.dumps(chosen)) for _ in range(runs)]
    first, last, base = (list(column) for column in zip(*timings))
    _, _, arguments, name, peer_name = chosen[1]
    at = f"({count:,} tools)"
    made = [
        Figure(f"dispatch last / first {at}", last, first, 1.5, "us"),
        Figure(f"dispatch / jsonschema + call {at}", last, base, 2.0, "us"),
    ]
    servers = {
        "ours": ([sys.executable, "-m", "generated", "mcp"], (name, arguments)),
        "peer": ([sys.executable, "-c", PEER], (peer_name, arguments)),
    }
    return [figure.row() for figure in made] + mcp_rows(
        project, servers, at, runs, Figure
    )


MCP_FIGURES = (  # name, target, unit, scale of the column
    ("MCP start to tools/list CPU / peer", 0.8, "s", 1.0),
    ("MCP start to tools/list RSS / peer", 0.8, "MiB", 1.0),
    ("MCP CPU per call / peer", 0.9, "us", 1e6),
)


def mcp_rows(
    project: Path,
    servers: dict[str, tuple[list[str], tuple[str, Any]]],
    at: str,
    runs: int,
    Figure: Any,
) -> list[Line]:
    """The MCP figures of ``servers["ours"]`` over ``servers["peer"]`` (each: its
    command and the call it is timed on), the two run in turn ``runs`` times. When
    either fails, each figure is a row that says so, and what the server wrote to
    stderr is printed: the bench goes on with its other sections."""
    measured: dict[str, list[list[float]]] = {"ours": [], "peer": []}
    try:
        for _ in range(runs):
            for which, (command, call) in servers.items():
                measured[which].append(serve(project, command, call))
    except ServerFailed as failure:
        print(f"\nMCP servers {at}: {which} failed: {failure}", flush=True)
        return [
            (f"{label} {at}", math.nan, unit, None, None, f"<= {target:g}", FAILED)
            for label, target, unit, _ in MCP_FIGURES
        ]
    return [
        Figure(
            f"{label} {at}",
            [row[index] * scale for row in measured["ours"]],
            [row[index] * scale for row in measured["peer"]],
            target,
            unit,
        ).row()
        for index, (label, target, unit, scale) in enumerate(MCP_FIGURES)
    ]
