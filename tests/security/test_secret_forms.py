"""Issue 41, finding 2: a secret never comes back in any form: with a line break, a
quote, a backslash or a non-ASCII letter in it, read from a file with its trailing
line break, dropped from a URL before sending and echoed by the origin, quoted in an
exception's text (``Invalid header value b'Bearer tok...\\n'``), escaped by a script.

Each case runs in fresh processes, through every channel: the ``ToolResult``,
``dispatch`` (each call for one provider, in turn), ``python -m sealed call``'s main and
the LangChain adapter (``channels.py``, in one process), and the real ``python -m sealed
call`` and ``python -m sealed mcp`` over stdio and over HTTP. ``channels.leaks`` finds a
form by undoing it."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from channels import leaks
from security_kit import LEAK, canary, project_of, sealed  # noqa: F401 - fixtures

HERE = Path(__file__).parent
TOKEN, KEY = LEAK["LEAK_TOKEN"], LEAK["LEAK_KEY"]
ODD = "tok'\"\\é-5e1f%41+/="  # quotes, a backslash, a non-ASCII letter, %, + / =
HOWS = ["json", "text", "error"]
FORMS = ["raw", "repr", "bytes", "latin", "ascii", "json", "json-in-json"]
FORMS += ["repr-in-json", "html", "quoted", "plus", "base64", "hex", "header"]
Call = tuple[dict[str, str], str, dict[str, Any]]
CASES: dict[str, list[Call]] = {
    "a token read from a file, in a header": [
        ({"LEAK_TOKEN": TOKEN + "\n"}, "leak.header", {"how": how}) for how in HOWS
    ],
    "a key in the URL, its line break dropped on the way and echoed": [
        ({"LEAK_KEY": KEY + "\n"}, "leak.header", {"how": how}) for how in HOWS
    ],
    "quotes, a backslash and a letter beyond ASCII, with a header injected": [
        ({"LEAK_TOKEN": ODD}, "leak.cookie", {"lang": lang})
        for lang in ("en\nX-Injected: 1", "en\r", "en")
    ],
    "an exception's text": [
        ({"LEAK_TOKEN": ODD + "\n"}, "leak.raises", {"form": form}) for form in FORMS
    ],
    "a script's output, error and envelope": [
        ({"LEAK_TOKEN": ODD}, "leak.script", {"form": form + end})
        for form in ("repr-in-json", "bytes", "base64")
        for end in ("", ":stderr", ":envelope")
    ],
    "a command's error": [({"LEAK_KEY": ODD}, "leak.command", {})],
}


def _secrets(calls: list[Call]) -> set[str]:
    return {value for env, _, _ in calls for value in {**LEAK, **env}.values()} - {
        LEAK["LEAK_REGION"],
        LEAK["LEAK_STAGE"],
    }


def _run(project: Path, env: dict[str, str], *args: str) -> str:
    done = subprocess.run(
        [sys.executable, *args],
        cwd=project,
        env={**os.environ, **env, "PYTHONPATH": f"{project}{os.pathsep}{HERE}"},
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )
    assert "Traceback" not in done.stderr, done.stderr
    return done.stdout + done.stderr


def _served(project: Path, calls: list[Call]) -> str:
    """``python -m sealed mcp`` over stdio, each call a tools/call; its whole output."""
    hello = {
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "clientInfo": {"name": "t", "version": "0"},
    }
    lines = [{"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": hello}]
    for ident, (_, dotted, arguments) in enumerate(calls, 1):
        params = {"name": dotted, "arguments": arguments}
        lines.append(
            {"jsonrpc": "2.0", "id": ident, "method": "tools/call", "params": params}
        )
    done = subprocess.run(
        [sys.executable, "-m", "sealed", "mcp"],
        cwd=project,
        env={**os.environ, **calls[0][0], "PYTHONPATH": str(project)},
        input="".join(json.dumps(line) + "\n" for line in lines),
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )
    answered = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(answered) == len(lines), done.stderr
    return done.stdout + done.stderr


@pytest.fixture(scope="module")
def channelled(sealed: Any) -> dict[str, list[list[str]]]:
    """Every case's calls through ``channels.py``, in one fresh process: by case, the
    texts of each call."""
    plain = [
        [{**LEAK, **env}, dotted, args]
        for calls in CASES.values()
        for env, dotted, args in calls
    ]
    script = [str(HERE / "channels.py"), "sealed", json.dumps(plain)]
    found = iter(json.loads(_run(project_of(sealed), {}, *script)))
    return {case: [next(found) for _ in calls] for case, calls in CASES.items()}


@pytest.mark.parametrize("case", list(CASES))
def test_no_form_of_a_secret_leaves_by_any_channel(
    sealed: Any, channelled: dict[str, list[list[str]]], case: str
) -> None:
    calls, found = CASES[case], channelled[case]
    project = project_of(sealed)
    texts = [text for each in found for text in each]
    env, dotted, arguments = calls[0]
    words = [w for key, value in arguments.items() for w in (f"--{key}", value)]
    texts.append(_run(project, env, "-m", "sealed", "call", dotted, *words))
    texts.append(_served(project, calls))
    for text in texts:
        for secret in _secrets(calls):
            assert not leaks(text, secret), (secret, text)
    if case.startswith("a key in the URL"):  # the origin did echo it, redacted
        assert all("[redacted]" in each[0] for each in found)
    if case.startswith("a token read from a file"):  # never sent
        assert all("invalid-header" in each[0] for each in found)


def test_no_form_of_a_secret_leaves_by_mcp_over_http(sealed: Any) -> None:
    """The same through ``python -m sealed mcp --http`` and the SDK's own client."""
    anyio = pytest.importorskip("anyio")
    mcp = pytest.importorskip("mcp")
    project = project_of(sealed)
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    env = {**os.environ, "LEAK_TOKEN": ODD + "\n", "PYTHONPATH": str(project)}
    calls = [("leak.raises", {"form": form}) for form in ("header", "repr-in-json")]
    calls += [("leak.cookie", {"lang": "en"}), ("leak.script", {"form": "bytes"})]
    texts: list[str] = []

    async def session() -> None:
        with anyio.fail_after(60):
            url = f"http://127.0.0.1:{port}/mcp"
            async with mcp.Client(url, mode="auto") as client:
                for dotted, arguments in calls:
                    result = await client.call_tool(dotted, arguments)
                    texts.append(result.model_dump_json())

    server = subprocess.Popen(
        [sys.executable, "-m", "sealed", "mcp", "--http", "--port", str(port)],
        cwd=project,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        for _ in range(300):  # bounded: until it listens
            with socket.socket() as sock:
                if sock.connect_ex(("127.0.0.1", port)) == 0:
                    break
            assert server.poll() is None, server.stderr
            time.sleep(0.1)
        anyio.run(session)
    finally:
        server.terminate()  # the test's own server, by its handle
        _, err = server.communicate(timeout=30)
    assert len(texts) == len(calls)
    for text in [*texts, err]:
        for secret in (ODD, *LEAK.values()):
            if secret not in (LEAK["LEAK_REGION"], LEAK["LEAK_STAGE"]):
                assert not leaks(text, secret), (secret, text)
