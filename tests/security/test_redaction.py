"""Property: no text that leaves the runtime carries a configured secret, in any of the
encodings an origin or a script may send it back in. An origin echoes the credential it
was sent (raw, base64 at any alignment, URL-quoted, hex) in its body, as JSON or text, or
in an error; a script prints the variable its manifest names; an exception quotes a
header. Every text that leaves is scanned: the result, ``dispatch``'s answer for each
provider (MCP's included), ``python -m <package> call``'s output, and the log events.

The scan decodes what it finds (every base64 and hex run, at every alignment, and the
text URL-unquoted) rather than asking the runtime which encodings it knows."""

from __future__ import annotations

import base64
import contextlib
import importlib
import io
import json
import logging
import os
import re
import subprocess
import sys
import urllib.parse
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from security_kit import SECRETS, Quiet, canary, guarded, serve, workspace  # noqa: F401

ENCODINGS = {
    "raw": lambda data: data,
    "base64": base64.b64encode,
    "base64url": base64.urlsafe_b64encode,
    "hex": lambda data: data.hex().encode(),
    "HEX": lambda data: data.hex().upper().encode(),
    "quoted": lambda data: urllib.parse.quote(data, safe="").encode(),
    "plus": lambda data: urllib.parse.quote_plus(data).encode(),
}
PROVIDERS = ["anthropic", "openai-chat", "openai-responses", "gemini", "mcp", "bedrock"]
# Texts a credential may be: printable, with the characters encodings change.
SECRET = st.text(alphabet="abcdefXYZ0189-_.~+/=:@!$&'()*,;%", min_size=8, max_size=40)


class Reflect(Quiet):
    """Answers ``/reflect-<encoding>-<prefix>-<how>`` with the X-Api-Key it was sent,
    so encoded after ``prefix``: as JSON, as text, or as the body of a 500."""

    def do_GET(self) -> None:  # noqa: N802 - http.server's naming
        parts = urllib.parse.unquote(self.path.partition("?")[0]).split("-")
        _, encoding, prefix, how = parts[0], parts[1], parts[2], parts[3]
        key = (self.headers["X-Api-Key"] or "").encode()
        echoed = ENCODINGS[encoding](prefix.encode() + key).decode()
        if how == "json":
            body = json.dumps({"echo": echoed, "n": 1}).encode()
            self.send(200, body, {"Content-Type": "application/json"})
        else:
            self.send(200 if how == "text" else 500, echoed.encode())


def leaks(text: str, secret: str) -> bool:
    """Whether ``text`` holds ``secret``, decoded from any common encoding."""
    if any(secret in form for form in (text, *_unquoted(text))):
        return True
    raw = secret.encode()
    for run in re.findall(r"[A-Za-z0-9+/_-]{8,}", text):
        standard = run.replace("-", "+").replace("_", "/")
        for start in range(4):
            chunk = standard[start:]
            chunk = chunk[: len(chunk) - len(chunk) % 4]
            with contextlib.suppress(ValueError):
                if raw in base64.b64decode(chunk):
                    return True
    for run in re.findall(r"[0-9a-fA-F]{16,}", text):
        for start in range(2):
            chunk = run[start:]
            if raw in bytes.fromhex(chunk[: len(chunk) - len(chunk) % 2]):
                return True
    return False


def _unquoted(text: str) -> list[str]:
    return [urllib.parse.unquote(text), urllib.parse.unquote_plus(text)]


@pytest.fixture(scope="module")
def origin() -> Iterator[str]:
    with serve(Reflect) as base:
        yield base


@contextlib.contextmanager
def environment(**values: str) -> Iterator[None]:
    """Set variables for one example (hypothesis runs many in one test)."""
    before = {name: os.environ.get(name) for name in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for name, value in before.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


class Events(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.texts: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.texts.append(record.getMessage() + repr(vars(record)))


def _dispatched(guarded: Any, dotted: str, arguments: dict[str, Any]) -> list[str]:
    texts = []
    for provider in PROVIDERS:
        name = dotted if provider in ("gemini", "mcp") else dotted.replace(".", "__")
        call = {
            "anthropic": {"id": "r", "name": name, "input": arguments},
            "openai-chat": {
                "id": "r",
                "function": {"name": name, "arguments": json.dumps(arguments)},
            },
            "openai-responses": {
                "call_id": "r",
                "name": name,
                "arguments": json.dumps(arguments),
            },
            "gemini": {"functionCall": {"name": name, "args": arguments}},
            "mcp": {"name": name, "arguments": arguments},
            "bedrock": {
                "toolUse": {"toolUseId": "r", "name": name, "input": arguments}
            },
        }[provider]
        texts.append(json.dumps(guarded.dispatch(provider, call), ensure_ascii=False))
    return texts


def _printed(guarded: Any, dotted: str, arguments: dict[str, str]) -> str:
    options = [
        word for name, value in arguments.items() for word in (f"--{name}", value)
    ]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        importlib.import_module("guarded._cli").main(["call", dotted, *options])
    return out.getvalue()


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    secret=SECRET,
    encoding=st.sampled_from(sorted(ENCODINGS)),
    prefix=st.text(alphabet="ab", max_size=3),
    how=st.sampled_from(["json", "text", "error"]),
    route=st.sampled_from(["origin", "script", "exception"]),
)
# Eight characters, one of whose forms (+ as a space, stripped) is seven: refused.
@example(secret="0000000+", encoding="HEX", prefix="", how="json", route="origin")
def test_no_text_that_leaves_carries_a_secret(
    guarded: Any,
    origin: str,
    secret: str,
    encoding: str,
    prefix: str,
    how: str,
    route: str,
) -> None:
    tool, arguments = {
        "origin": ("hostile.fetch", {"path": f"reflect-{encoding}-{prefix}-{how}"}),
        "script": ("hostile.environ_named", {}),
        "exception": ("hostile.cookie", {"lang": f"{prefix}\n{encoding}: 1"}),
    }[route]
    events = Events()
    log = logging.getLogger("guarded.tools")
    log.addHandler(events)
    log.setLevel(logging.DEBUG)
    try:
        with environment(SECURITY_TEST_BASE=origin, SECURITY_TEST_KEY=secret):
            namespace, _, name = tool.partition(".")
            result = getattr(getattr(guarded, namespace), name).call_raw(arguments)
            texts = [repr(result), json.dumps(result._asdict(), ensure_ascii=False)]
            texts += _dispatched(guarded, tool, arguments)
            texts.append(_printed(guarded, tool, arguments))
    finally:
        log.removeHandler(events)
    texts += events.texts
    for text in texts:
        for value in (secret, *SECRETS.values()):
            assert not leaks(text, value), (value, text)
    if route == "origin" and how != "error":  # the secret did come back, redacted
        secrets = importlib.import_module("guarded._secrets")
        if secrets._long_enough(secret):
            assert result.ok and "[redacted]" in repr(result.data)
        else:  # a form of it (0000000+ read as a form: 0000000) is under 8: unsent
            assert result.error is not None
            assert result.error.code == "secret-too-short"


def test_a_tool_never_loaded_still_has_its_secrets_redacted(
    guarded: Any, tmp_path: Path
) -> None:
    """A file the model reads holds the key another tool's manifest names: the answer is
    redacted although that tool's module was never loaded (a fresh process that imports
    only the built-in file tools)."""
    project = Path(guarded.__file__).parent.parent
    (workspace(guarded) / "leak.env").write_text(
        "KEY=" + SECRETS["SECURITY_TEST_KEY"] + "\n", encoding="utf-8"
    )
    script = (
        "import json, sys\n"
        "from guarded import dispatch\n"
        "call = {'type': 'tool_use', 'id': 'c', 'name': 'file__read',"
        " 'input': {'path': 'leak.env'}}\n"
        "print(json.dumps(dispatch('anthropic', call)))\n"
        "print(sorted(m for m in sys.modules if m.startswith('guarded.hostile')))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=project,
        env={**os.environ, **SECRETS, "PYTHONPATH": str(project)},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    answer, loaded = done.stdout.splitlines()
    assert loaded == "[]"  # the tool that names the key was never imported
    assert "KEY=" in answer and "[redacted]" in answer
    assert SECRETS["SECURITY_TEST_KEY"] not in answer


class Pair(NamedTuple):
    first: Any
    second: Any


class Text(str):
    pass


# Data a tool may return: texts that hold a configured secret or not, ASCII or not,
# with a lone surrogate (an undecodable file name), in dicts, lists, tuples and
# NamedTuples, keys included, nested past the depth ``redact`` checks by recursion.
TEXTS = st.sampled_from(
    ["", "plain", "café", "bad \udcff name", Text("sub")]
) | st.text(max_size=6)


def _data(secret: str) -> st.SearchStrategy[Any]:
    texts = TEXTS | st.just(f"x{secret}y") | st.just(secret.encode().hex())
    leaves = texts | st.integers() | st.booleans() | st.none() | st.floats()
    return st.recursive(
        leaves,
        lambda inner: st.lists(inner, max_size=3)
        | st.lists(inner, max_size=3).map(tuple)
        | st.builds(Pair, inner, inner)
        | st.dictionaries(texts, inner, max_size=3),
        max_leaves=12,
    ) | st.integers(0, 60).map(lambda depth: _nested([secret], depth))


def _nested(value: Any, depth: int) -> Any:
    for _ in range(depth):
        value = {"k": [value]}
    return value


@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_redact_keeps_only_what_the_full_walk_would_not_change(
    guarded: Any, data: Any
) -> None:
    """``redact`` returns its argument itself when nothing in it changes (a check
    before rebuilding, for speed): whatever it returns equals the full walk's rebuild
    (same types), for every configured secret, and is its argument only when that walk
    changed nothing."""
    secrets = importlib.import_module("guarded._secrets")
    with environment(**SECRETS):
        value = data.draw(_data(SECRETS["SECURITY_TEST_KEY"]))
        pattern = secrets._pattern(secrets.known())
        assert pattern is not None

        def fix(text: str) -> str:
            return secrets.encodable(pattern.sub(secrets.REDACTED, text))

        expected = secrets._map_texts(value, fix)
        result = secrets.redact(value)
    assert repr(result) == repr(expected)
    assert _types(result) == _types(expected)
    assert SECRETS["SECURITY_TEST_KEY"] not in repr(result)
    json.dumps(result, default=str).encode("utf-8")  # every text encodable


def _types(value: Any) -> Any:
    if isinstance(value, dict):
        return [(_types(k), _types(v)) for k, v in value.items()]
    if isinstance(value, (list, tuple)):
        return (type(value), [_types(item) for item in value])
    return type(value)


def test_redact_returns_plain_data_itself_when_no_secret_is_configured(
    guarded: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No secret configured and every text encodable: nothing is rebuilt (dispatch
    redacts each result and each answer); a text that is not encodable still is."""
    secrets = importlib.import_module("guarded._secrets")
    monkeypatch.setattr(secrets, "_values", set())
    monkeypatch.setattr(secrets._settings, "SECRET_NAMES", ())
    value = {"a": [1, "b", ("c", None)], "d": {"e": "é"}}
    assert secrets.redact(value) is value
    bad = {"a": ["name \udcff"]}
    assert secrets.redact(bad) == {"a": ["name \\xff"]}
    monkeypatch.setattr(secrets._settings, "SECRET_NAMES", ("SECURITY_TEST_KEY",))
    with environment(SECURITY_TEST_KEY=SECRETS["SECURITY_TEST_KEY"]):
        leaky = {"a": [f"k={SECRETS['SECURITY_TEST_KEY']}"]}
        assert secrets.redact(leaky) == {"a": ["k=[redacted]"]}
