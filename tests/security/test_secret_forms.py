"""Issue 41, finding 2: a secret never comes back in any form: with a line break, a
quote, a backslash or a non-ASCII letter in it, read from a file with its trailing
line break, dropped from a URL before sending and echoed by the origin, quoted in an
exception's text (``Invalid header value b'Bearer tok...\\n'``), escaped by a script.

Each case runs in fresh processes, through every channel: the ``ToolResult``,
``dispatch`` (each call for one provider, in turn), ``python -m sealed call``'s main and
the LangChain adapter (``channels.py``, in one process), and the real ``python -m sealed
call`` and ``python -m sealed mcp`` over stdio. ``channels.leaks`` finds a form by undoing it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
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
