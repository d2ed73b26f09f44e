"""Issue 41, finding 7: only declared secrets are redacted. A variable holds a secret
when its manifest says so (``env: [{name, secret: true}]``), when its name reads as a
credential, or when it stands where a credential goes (Authorization, Cookie,
X-Api-Key, ``?api_key=``, a body key or an option named like one); a short
configuration value (``REGION=us``, ``STAGE=prod``, ``DEBUG=1``) is never cut out of an
answer, so a file read and written back is unchanged. A declared secret too short to
redact safely is refused at call time, naming the variable, never its value."""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from security_kit import LEAK, canary, project_of, sealed  # noqa: F401 - fixtures
from skillc.loaders import credentials

NOTES = "version 1.2.3 in us-east-1, stage prod, debug 1\n"
# Run in the built project, in a fresh process: file.read of the notes, and
# file.write of what it read, through dispatch; a call whose secret is too short.
ROUND_TRIP = """
import json, sys
import sealed
read = {"id": "r", "name": "file__read", "input": {"path": "notes.txt"}}
answer = sealed.dispatch("anthropic", read)
text = answer["content"]
write = {"id": "w", "name": "file__write",
         "input": {"path": "notes.txt", "content": text}}
written = sealed.dispatch("anthropic", write)
short = sealed.leak.header(how="json")
through = sealed.dispatch("mcp", {"name": "leak.header", "arguments": {"how": "json"}})
print(json.dumps([text, written["is_error"], short._asdict(), through]))
"""


def _round_trip(project: Path, env: dict[str, str]) -> list[Any]:
    done = subprocess.run(
        [sys.executable, "-c", ROUND_TRIP],
        cwd=project,
        env={**os.environ, **env, "PYTHONPATH": str(project)},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    found: list[Any] = json.loads(done.stdout)
    return found


def test_the_build_declares_only_credentials_secrets(sealed: Any) -> None:
    settings = importlib.import_module("sealed._settings")
    assert settings.SECRET_NAMES == ("LEAK_KEY", "LEAK_SIGNING", "LEAK_TOKEN")


@pytest.mark.parametrize(
    "config",
    [
        {"LEAK_REGION": "us", "LEAK_STAGE": "prod"},
        {"LEAK_REGION": "1", "LEAK_STAGE": "debug"},
    ],
)
def test_a_configuration_value_is_never_cut_out_of_an_answer(
    sealed: Any, tmp_path: Path, config: dict[str, str]
) -> None:
    project = project_of(sealed)
    notes = project / "workspace" / "notes.txt"
    notes.write_text(NOTES, encoding="utf-8")
    text, write_failed, call, _ = _round_trip(project, {**LEAK, **config})
    assert text == NOTES and "[redacted]" not in text
    assert not write_failed and notes.read_text(encoding="utf-8") == NOTES
    assert call["ok"], call  # the configuration was sent as it is


@pytest.mark.parametrize("short", ["q7", "  q7x\n\n\n\n\n\n", "%41%42%43+"])
def test_a_declared_secret_too_short_to_redact_is_refused(
    sealed: Any, short: str
) -> None:
    project = project_of(sealed)
    (project / "workspace" / "notes.txt").write_text(NOTES, encoding="utf-8")
    text, _, call, through = _round_trip(project, {**LEAK, "LEAK_TOKEN": short})
    assert text == NOTES  # a short value is never redacted into the data
    assert not call["ok"] and call["error"][0] == "secret-too-short"
    message = call["error"][1]
    assert "${LEAK_TOKEN}" in message and "secret: false" in message
    assert through["isError"] and "secret-too-short" in json.dumps(through)
    core = short.strip()
    assert core not in message and core not in json.dumps(through)


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("Authorization", True),
        ("Proxy-Authorization", True),
        ("Cookie", True),
        ("X-Api-Key", True),
        ("api_key", True),
        ("apiKey", True),
        ("access_token", True),
        ("--password=", True),
        ("GITHUB_TOKEN", True),
        ("CLIENT_SECRET", True),
        ("SENTRY_DSN", True),
        ("X-Region", False),
        ("REGION", False),
        ("STAGE", False),
        ("DEBUG", False),
        ("BASE_URL", False),
        ("PATH", False),
        ("Accept", False),
    ],
)
def test_names_that_read_as_credentials(name: str, expected: bool) -> None:
    assert credentials.credential_like(name) is expected


@pytest.mark.parametrize(
    ("executor", "expected"),
    [
        (
            {"url": "https://${USER}:${PASS_WORD}@h/x?region=${R}"},
            ("PASS_WORD", "USER"),
        ),
        ({"url": "${BASE}/v1/{id}?sig=${SIGN}&stage=${STAGE}"}, ("SIGN",)),
        (
            {"url": "h", "headers_template": {"X-Trace": "${T}", "Cookie": "a=${C}"}},
            ("C",),
        ),
        (
            {"url": "h", "body_template": {"auth": {"value": "${V}"}, "n": "${N}"}},
            ("V",),
        ),
        ({"entry": "s.py", "args_template": ["--token", "${X}", "--n=${N}"]}, ("X",)),
        ({"entry": "s.py", "env": ["API_KEY", "DEBUG"]}, ("API_KEY",)),
        (
            {"entry": "s.py", "env": [{"name": "HOOK", "secret": True}, "REGION"]},
            ("HOOK",),
        ),
        (
            {
                "url": "h",
                "headers_template": {"X-Api-Key": "${TENANT}"},
                "env": [{"name": "TENANT", "secret": False}],
            },
            (),
        ),
    ],
)
def test_which_variables_hold_secrets(
    executor: dict[str, Any], expected: tuple[str, ...]
) -> None:
    assert credentials.secrets(executor) == expected
