"""The bench's ``dispatch`` section: ``dispatch()`` of one call, in microseconds of the
caller's CPU, over what a hand-written host would spend on the same call with a
prebuilt ``jsonschema`` validator (<= 2, issue 45), for a ``python`` executor (the
validator and the function) and an ``http`` executor (the validator and the same POST,
with the same headers, on a kept-alive ``http.client`` connection to the same local
server). The http tool's manifest takes a bearer token from the environment (so the
secret's redaction and the origin checks run as they do for a real API), a path
parameter and a header from its arguments, the rest as a JSON body.

The server is another process (its CPU is not the caller's), on 127.0.0.1, answering
HTTP/1.1 with a small JSON body, a thread per connection (the host's and dispatch's are
both kept alive).
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path
from typing import Any

TOKEN = "bench-token-0123456789abcdef0123456789"
SCHEMA = {
    "type": "object",
    "properties": {
        "item": {"type": "string", "pattern": "^[a-z0-9-]+$"},
        "trace": {"type": "string", "maxLength": 64},
        "quantity": {"type": "integer", "minimum": 1},
        "note": {"type": "string"},
    },
    "required": ["item", "trace", "quantity"],
    "additionalProperties": False,
}
ARGUMENTS = {"item": "widget-7", "trace": "t-1", "quantity": 3, "note": "fast"}

SERVER = textwrap.dedent("""
    import json, sys
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        disable_nagle_algorithm = True  # else each answer waits for a delayed ACK

        def do_POST(self):
            body = self.rfile.read(int(self.headers["Content-Length"]))
            answer = json.dumps({"ok": True, "got": len(body)}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(answer)))
            self.end_headers()
            self.wfile.write(answer)

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Handler)
    print("ready", flush=True)
    server.serve_forever()
""")

# Run in the built project: microseconds of CPU per call, best of five rounds.
MEASURE = textwrap.dedent("""
    import http.client, json, sys, time
    import jsonschema
    from kit import dispatch
    from echo_impl import echo

    port, schema, arguments, token = json.loads(sys.argv[1])

    def per_call(function, n):
        function()
        best = float("inf")
        for _ in range(5):
            start = time.process_time()
            for _ in range(n):
                function()
            best = min(best, (time.process_time() - start) / n)
        return best * 1e6

    validator = jsonschema.validators.validator_for(schema)(schema)
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    rest = {k: v for k, v in arguments.items() if k not in ("item", "trace")}

    def post():
        validator.validate(arguments)
        headers = {"Authorization": f"Bearer {token}", "X-Trace": arguments["trace"],
                   "Content-Type": "application/json"}
        connection.request("POST", f"/items/{arguments['item']}",
                           json.dumps(rest).encode(), headers)
        return json.loads(connection.getresponse().read())

    def call():
        validator.validate(arguments)
        return echo(**arguments)

    calls = {name: {"id": "1", "name": name, "input": arguments}
             for name in ("bench__over_http", "bench__in_python")}
    for name, call_ in calls.items():
        answer = dispatch("anthropic", call_)
        assert not answer["is_error"], answer
    # Fewer http calls: each waits for the server, which on a loaded machine is slow.
    print(json.dumps([
        per_call(lambda: dispatch("anthropic", calls["bench__over_http"]), 300),
        per_call(post, 300),
        per_call(lambda: dispatch("anthropic", calls["bench__in_python"]), 2000),
        per_call(call, 2000),
    ]))
""")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def write_project(root: Path, port: int) -> None:
    tool = {"description": "Order an item.", "input_schema": SCHEMA}
    manifest = {
        "namespace": "bench",
        "description": "Dispatch's bench.",
        "tools": [
            {
                **tool,
                "name": "over_http",
                "executor": {
                    "type": "http",
                    "method": "POST",
                    "url": f"http://127.0.0.1:{port}/items/{{item}}",
                    "headers_template": {
                        "Authorization": "Bearer ${BENCH_TOKEN}",
                        "X-Trace": "{trace}",
                    },
                },
            },
            {
                **tool,
                "name": "in_python",
                "executor": {"type": "python", "function": "echo_impl:echo"},
            },
        ],
    }
    (root / "src").mkdir()
    (root / "src" / "bench.tools.yaml").write_text(json.dumps(manifest))
    (root / "echo_impl.py").write_text("def echo(**arguments):\n    return arguments\n")
    (root / "pyproject.toml").write_text(
        '[tool.skillc]\nsources = ["src"]\nout = "kit"\nbuiltins = []\n'
    )


def figures(runs: int, build_env: dict[str, str]) -> list[Any]:
    from bench import Figure

    port = _free_port()
    with tempfile.TemporaryDirectory() as tmp:
        project = Path(tmp)
        write_project(project, port)
        subprocess.run(
            [sys.executable, "-m", "skillc", "build"],
            cwd=project,
            env=build_env,
            check=True,
            capture_output=True,
        )
        server = subprocess.Popen(
            [sys.executable, "-c", SERVER, str(port)],
            stdout=subprocess.PIPE,
            text=True,
        )
        try:
            assert server.stdout is not None and server.stdout.readline() == "ready\n"
            env = {
                **os.environ,
                "PYTHONPATH": str(project),
                "BENCH_TOKEN": TOKEN,
                "PYTHONDONTWRITEBYTECODE": "1",
            }
            given = json.dumps([port, SCHEMA, ARGUMENTS, TOKEN])
            timings = [
                json.loads(
                    subprocess.run(
                        [sys.executable, "-c", MEASURE, given],
                        cwd=project,
                        env=env,
                        check=True,
                        capture_output=True,
                        text=True,
                    ).stdout
                )
                for _ in range(runs)
            ]
        finally:
            server.terminate()
            server.wait(timeout=30)
    http_, post, python, call = (list(column) for column in zip(*timings))
    return [
        Figure("dispatch http / jsonschema + POST", http_, post, 2.0, "us").row(),
        Figure("dispatch python / jsonschema + call", python, call, 2.0, "us").row(),
    ]
