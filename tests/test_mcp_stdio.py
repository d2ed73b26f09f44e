"""``python -m <package> mcp`` over stdio, driven with raw JSON-RPC lines: the server
is JSON-RPC itself, without the ``mcp`` SDK (it serves with the SDK off the path). It
reads and writes its wire on one thread (no worker thread per line or per write, which
made a call cost 1.5 times the CPU of a lean server on the SDK), and to a regular file
too; it answers bad lines with the JSON-RPC errors the specification gives, never a
notification, and calls as they finish (a slow one holds up none of the others; one the
client cancelled is never answered). The official client's sessions are in
test_mcp_server, test_mcp_paging and test_mcp_skills."""

from __future__ import annotations

import contextlib
import io
import json
import os
import selectors
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from conftest import FIXTURES
from skillc import cli

HELLO = {"protocolVersion": "2025-11-25", "capabilities": {}}
HELLO["clientInfo"] = {"name": "test", "version": "1"}


@pytest.fixture(scope="module")
def kit(tmp_path_factory: pytest.TempPathFactory) -> Path:
    project = tmp_path_factory.mktemp("stdio") / "tools"
    shutil.copytree(FIXTURES / "tools", project)
    with contextlib.redirect_stderr(io.StringIO()) as err:
        assert cli.main(["-C", str(project), "build"]) == 0, err.getvalue()
    (project / "out").rename(project / "kit")
    return project


def _lines(*requests: tuple[int, str, dict[str, Any]]) -> bytes:
    messages = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": HELLO},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
    ]
    for ident, method, params in requests:
        messages.append(
            {"jsonrpc": "2.0", "id": ident, "method": method, "params": params}
        )
    return b"".join(json.dumps(m).encode() + b"\n" for m in messages)


def _server(kit: Path, stdin: Any, *command: str) -> subprocess.Popen[bytes]:
    """``python *command`` (``-m kit mcp`` unless told) in ``kit``."""
    env = {**os.environ, "PYTHONPATH": str(kit), "PYTHONDONTWRITEBYTECODE": "1"}
    return subprocess.Popen(
        [sys.executable, *(command or ("-m", "kit", "mcp"))],
        cwd=kit,
        env=env,
        stdin=stdin,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )


def _answer(process: subprocess.Popen[bytes], ident: int) -> dict[str, Any]:
    assert process.stdout is not None
    while True:
        line = process.stdout.readline()
        assert line, process.stderr.read() if process.stderr else b""
        message: dict[str, Any] = json.loads(line)
        if message.get("id") == ident:
            return message


def test_over_a_pipe_the_wire_takes_no_worker_thread(kit: Path) -> None:
    process = _server(kit, subprocess.PIPE)
    assert process.stdin is not None
    try:
        process.stdin.write(_lines((2, "tools/list", {}), (3, "ping", {})))
        process.stdin.flush()
        assert _answer(process, 2)["result"]["tools"]
        assert _answer(process, 3)["result"] == {}
        # The SDK's transport reads each line in a worker thread, kept alive for
        # the next: here the process has only its main thread.
        threads = os.listdir(f"/proc/{process.pid}/task")
        assert len(threads) == 1, threads
        call = {"name": "file.read", "arguments": {"path": "hello.txt"}}
        process.stdin.write(
            json.dumps(
                {"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": call}
            ).encode()
            + b"\n"
        )
        process.stdin.flush()
        result = _answer(process, 5)["result"]
        assert result["structuredContent"] == {"result": "hello\n"}
        process.stdin.close()
        assert process.wait(60) == 0
    finally:
        process.kill()
        process.wait()


def test_to_a_file_the_answers_are_written(kit: Path, tmp_path: Path) -> None:
    out = tmp_path / "answers.jsonl"
    env = {**os.environ, "PYTHONPATH": str(kit), "PYTHONDONTWRITEBYTECODE": "1"}
    call = {"name": "file.read", "arguments": {"path": "hello.txt"}}
    with out.open("wb") as stdout:
        process = subprocess.Popen(
            [sys.executable, "-m", "kit", "mcp"],
            cwd=kit,
            env=env,
            stdin=subprocess.PIPE,
            stdout=stdout,
            stderr=subprocess.DEVNULL,
        )
        assert process.stdin is not None
        try:
            process.stdin.write(_lines((2, "tools/call", call)))
            process.stdin.flush()
            for _ in range(1200):  # the answer, or two minutes
                if b'"id":2' in out.read_bytes():
                    break
                time.sleep(0.1)
            process.stdin.close()
            process.wait(60)
        finally:
            process.kill()
            process.wait()
    answers = [json.loads(line) for line in out.read_bytes().splitlines()]
    result = next(a["result"] for a in answers if a.get("id") == 2)
    assert result["structuredContent"] == {"result": "hello\n"}


PATIENCE = 60  # seconds: a hang guard, never a measure


class Talk:
    """A server started with ``command`` after ``python``, spoken to a line at a time;
    ``next`` is the next line it writes (within ``PATIENCE``)."""

    def __init__(self, kit: Path, *command: str) -> None:
        self.process = _server(kit, subprocess.PIPE, *command)
        self.buffer = b""

    def send(self, *messages: dict[str, Any] | str) -> None:
        assert self.process.stdin is not None
        for message in messages:
            line = message if isinstance(message, str) else json.dumps(message)
            self.process.stdin.write(line.encode() + b"\n")
        self.process.stdin.flush()

    def next(self) -> dict[str, Any]:
        assert self.process.stdout is not None
        until = time.monotonic() + PATIENCE
        while b"\n" not in self.buffer:
            left = until - time.monotonic()
            assert left > 0, "no answer"
            with selectors.DefaultSelector() as selector:
                selector.register(self.process.stdout, selectors.EVENT_READ)
                if selector.select(left):
                    chunk = os.read(self.process.stdout.fileno(), 1 << 16)
                    assert chunk, (
                        self.process.stderr.read() if self.process.stderr else ""
                    )
                    self.buffer += chunk
        line, _, self.buffer = self.buffer.partition(b"\n")
        answer: dict[str, Any] = json.loads(line)
        return answer

    def ask(self, ident: int, method: str, params: Any = None) -> dict[str, Any]:
        """A request whose answer is the next line (answered in order: no call)."""
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": ident, "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)
        answer = self.next()
        assert answer["id"] == ident, answer
        return answer

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        try:
            assert self.process.wait(PATIENCE) == 0
        finally:
            self.process.kill()  # the test's own server, by its handle
            self.process.wait()


@contextlib.contextmanager
def _talk(kit: Path, *command: str, hello: bool = True) -> Iterator[Talk]:
    talk = Talk(kit, *command)
    try:
        if hello:
            assert talk.ask(1, "initialize", HELLO)["result"]["protocolVersion"]
            talk.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        yield talk
    finally:
        talk.close()


# The SDK, pydantic and anyio made unimportable before the package is run.
WITHOUT_SDK = (
    "import runpy, sys\n"
    "for name in ('mcp', 'mcp_types', 'pydantic', 'anyio', 'uvicorn', 'starlette'):\n"
    "    sys.modules[name] = None\n"
    "sys.argv = ['kit', 'mcp']\n"
    "runpy.run_module('kit', run_name='__main__')\n"
)


def test_stdio_serves_without_the_sdk(kit: Path) -> None:
    with _talk(kit, "-c", WITHOUT_SDK) as talk:
        listed = talk.ask(2, "tools/list")["result"]["tools"]
        assert "file.read" in {tool["name"] for tool in listed}
        prompts = talk.ask(3, "prompts/list")["result"]["prompts"]
        assert "task.pdf-extractor" in {prompt["name"] for prompt in prompts}
        call = {"name": "file.read", "arguments": {"path": "hello.txt"}}
        result = talk.ask(4, "tools/call", call)["result"]
        assert result["structuredContent"] == {"result": "hello\n"}
        skills = talk.ask(5, "skills/list")["result"]["skills"]
        uri = skills[0]["uri"]
        read = talk.ask(6, "resources/read", {"uri": uri})["result"]
        assert (
            read["contents"][0]["uri"] == uri and "name:" in read["contents"][0]["text"]
        )


def test_bad_lines_get_the_json_rpc_errors(kit: Path) -> None:
    """As JSON-RPC 2.0 words them: a line that is not JSON is a parse error, a message
    that is not a request an invalid request (under id null when its id cannot be
    read), params of the wrong shape invalid params; the server answers on."""
    bad = [
        ("{not json", None, -32700),
        ('{"jsonrpc": "2.0", "id": 2, "method": "ping"', None, -32700),
        ("[1, 2]", None, -32600),  # a batch: not in MCP since 2025-06-18
        ("[]", None, -32600),
        ('"ping"', None, -32600),
        ('{"jsonrpc": "2.0", "id": 3}', 3, -32600),
        ('{"jsonrpc": "1.0", "id": 4, "method": "ping"}', 4, -32600),
        ('{"id": 5, "method": "ping"}', 5, -32600),
        ('{"jsonrpc": "2.0", "id": 6, "method": 7}', 6, -32600),
        ('{"jsonrpc": "2.0", "id": null, "method": "ping"}', None, -32600),
        ('{"jsonrpc": "2.0", "id": [8], "method": "ping"}', None, -32600),
        ('{"jsonrpc": "2.0", "id": 9, "method": "ping", "params": "x"}', 9, -32600),
        ('{"jsonrpc": "2.0", "method": 10}', None, -32600),
        (
            '{"jsonrpc": "2.0", "id": 11, "method": "tools/list", "params": [1]}',
            11,
            -32602,
        ),
        (
            '{"jsonrpc": "2.0", "id": 12, "method": "tools/call", "params": {}}',
            12,
            -32602,
        ),
        (
            '{"jsonrpc": "2.0", "id": 13, "method": "tools/call", '
            '"params": {"name": "file.read", "arguments": [1]}}',
            13,
            -32602,
        ),
        (
            '{"jsonrpc": "2.0", "id": 14, "method": "tools/list", '
            '"params": {"cursor": 3}}',
            14,
            -32602,
        ),
        (
            '{"jsonrpc": "2.0", "id": 15, "method": "resources/read", "params": {}}',
            15,
            -32602,
        ),
        (
            '{"jsonrpc": "2.0", "id": 16, "method": "prompts/get", '
            '"params": {"name": "task.pdf-extractor", "arguments": {"a": 1}}}',
            16,
            -32602,
        ),
    ]
    with _talk(kit, "-m", "kit", "mcp") as talk:
        for line, ident, code in bad:
            talk.send(line)
            answer = talk.next()
            assert answer["jsonrpc"] == "2.0" and answer["id"] == ident, (line, answer)
            assert answer["error"]["code"] == code, (line, answer)
            assert "result" not in answer
        assert talk.ask(17, "ping") == {"jsonrpc": "2.0", "id": 17, "result": {}}


def test_unknown_methods_are_not_found_in_both_eras(kit: Path) -> None:
    with _talk(kit, "-m", "kit", "mcp") as talk:
        answer = talk.ask(2, "tools/nope", {})
        assert answer["error"] == {
            "code": -32601,
            "message": "Method not found",
            "data": "tools/nope",
        }
        # server/discover belongs to 2026-07-28, not this connection's era.
        assert talk.ask(3, "server/discover")["error"]["code"] == -32601
        # So does the per-request envelope.
        answer = talk.ask(4, "tools/list", {"_meta": ENVELOPE})
        assert answer["error"]["code"] == -32600
    with _talk(kit, "-m", "kit", "mcp", hello=False) as talk:
        found = talk.ask(1, "server/discover", {"_meta": ENVELOPE})["result"]
        assert found["supportedVersions"] == ["2026-07-28"]
        assert found["resultType"] == "complete"
        assert found["capabilities"]["extensions"] == {
            "io.modelcontextprotocol/skills": {}
        }
        for ident, method in [(2, "tools/nope"), (3, "ping")]:  # ping: gone in 2026
            answer = talk.ask(ident, method, {"_meta": ENVELOPE})
            assert answer["error"]["code"] == -32601
        # Every request carries the envelope, at a version served.
        assert talk.ask(4, "tools/list", {})["error"]["code"] == -32602
        old = {**ENVELOPE, "io.modelcontextprotocol/protocolVersion": "2025-11-25"}
        answer = talk.ask(5, "tools/list", {"_meta": old})["error"]
        assert answer["code"] == -32022
        assert answer["data"] == {
            "supported": ["2026-07-28"],
            "requested": "2025-11-25",
        }
        answer = talk.ask(6, "initialize", HELLO)["error"]
        assert answer["code"] == -32022
        listed = talk.ask(7, "tools/list", {"_meta": ENVELOPE})["result"]
        assert listed["tools"] and listed["resultType"] == "complete"
        assert listed["ttlMs"] == 0 and listed["cacheScope"] == "private"


@pytest.mark.parametrize(
    ("asked", "agreed"),
    [
        ("2024-11-05", "2024-11-05"),
        ("2025-06-18", "2025-06-18"),
        ("2099-01-01", "2025-11-25"),
    ],
)
def test_initialize_agrees_on_a_handshake_version(
    kit: Path, asked: str, agreed: str
) -> None:
    with _talk(kit, "-m", "kit", "mcp", hello=False) as talk:
        answer = talk.ask(1, "tools/list")  # before the handshake: refused
        assert answer["error"]["code"] == -32602
        result = talk.ask(2, "initialize", {**HELLO, "protocolVersion": asked})[
            "result"
        ]
        assert result["protocolVersion"] == agreed
        assert result["serverInfo"]["name"] == "kit"
        assert set(result["capabilities"]) == {"prompts", "resources", "tools"}
        assert talk.ask(3, "tools/list")["result"]["tools"]


def test_a_notification_gets_no_answer(kit: Path) -> None:
    with _talk(kit, "-m", "kit", "mcp") as talk:
        talk.send(
            {"jsonrpc": "2.0", "method": "notifications/initialized"},
            {"jsonrpc": "2.0", "method": "notifications/nope", "params": {"a": 1}},
            {"jsonrpc": "2.0", "method": "tools/call", "params": {"name": "no.such"}},
            {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {}},
            {"jsonrpc": "2.0", "method": "notifications/cancelled"},
            {"jsonrpc": "2.0", "result": {}, "id": 99},  # a response: asked nothing
        )
        # The next line on the wire answers the ping: nothing answered the others.
        assert talk.ask(2, "ping") == {"jsonrpc": "2.0", "id": 2, "result": {}}


def _sleep(ident: int, seconds: float) -> dict[str, Any]:
    command = {"command": ["sleep", str(seconds)]}
    params = {"name": "batch.run", "arguments": command}
    return {"jsonrpc": "2.0", "id": ident, "method": "tools/call", "params": params}


def test_calls_are_answered_as_they_finish(kit: Path) -> None:
    read = {"name": "file.read", "arguments": {"path": "hello.txt"}}
    with _talk(kit, "-m", "kit", "mcp", "--allow-dangerous") as talk:
        talk.send(
            _sleep(2, 4),
            {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": read},
        )
        # Protocol methods are answered while the calls run, a quick call before
        # the slow one that came first.
        assert talk.ask(4, "ping")["result"] == {}
        quick = talk.next()
        assert quick["id"] == 3, quick
        assert quick["result"]["structuredContent"] == {"result": "hello\n"}
        slow = talk.next()
        assert slow["id"] == 2 and slow["result"]["isError"] is False, slow


def test_a_cancelled_call_is_never_answered(kit: Path) -> None:
    with _talk(kit, "-m", "kit", "mcp", "--allow-dangerous") as talk:
        talk.send(_sleep(2, 1))
        cancel = {"requestId": 2, "reason": "changed my mind"}
        talk.send(
            {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": cancel}
        )
        talk.send(_sleep(3, 3))  # starts after 2 and ends after it
        answer = talk.next()
        assert answer["id"] == 3 and answer["result"]["isError"] is False, answer


def test_stdin_ended_the_running_calls_are_still_answered(kit: Path) -> None:
    talk = Talk(kit, "-m", "kit", "mcp", "--allow-dangerous")
    try:
        talk.send(
            {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": HELLO},
            _sleep(2, 1),
        )
        assert talk.process.stdin is not None
        talk.process.stdin.close()
        assert talk.next()["id"] == 1
        assert talk.next()["id"] == 2
        assert talk.process.wait(PATIENCE) == 0
    finally:
        talk.process.kill()
        talk.process.wait()


ENVELOPE = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
}
