"""Credentials stay with their origin, redirects are bounded, and no resolved secret
appears in any message, result or event."""

from __future__ import annotations

import base64
import json
import logging
import urllib.parse
from collections.abc import Iterator
from typing import Any

import pytest

from security_kit import SECRETS, Quiet, canary, guarded, serve  # noqa: F401

SEEN: list[tuple[str, str, dict[str, str]]] = []  # (server, path, headers)


def _recorder(label: str, answer: Any) -> type[Quiet]:
    class Recorder(Quiet):
        def do_GET(self) -> None:  # noqa: N802 - http.server's naming
            SEEN.append((label, self.path, dict(self.headers)))
            answer(self)

    return Recorder


@pytest.fixture
def servers(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[str, str]]:
    """Two origins: ``home`` (where the tool's URL points) and ``elsewhere``."""
    SEEN.clear()
    elsewhere_answer = _recorder(
        "elsewhere",
        lambda h: h.send(200, b'{"ok": 1}', {"Content-Type": "application/json"}),
    )
    with serve(elsewhere_answer) as elsewhere:

        def home_answer(handler: Quiet) -> None:
            if handler.path.startswith("/away"):
                handler.send(302, b"", {"Location": f"{elsewhere}/landed"})
            elif handler.path.startswith("/loop"):
                handler.send(302, b"", {"Location": "/loop"})
            elif handler.path.startswith("/echo"):
                echo = {"auth": handler.headers["Authorization"], "path": handler.path}
                handler.send(
                    200, json.dumps(echo).encode(), {"Content-Type": "application/json"}
                )
            elif handler.path.startswith("/encoded"):
                key = handler.headers["X-Api-Key"].encode()
                auth = handler.headers["Authorization"].encode()
                echo = {
                    "key": base64.b64encode(key).decode(),
                    "auth": base64.b64encode(auth).decode(),
                    "urlsafe": base64.urlsafe_b64encode(b"k=" + key).decode(),
                    "hex": key.hex(),
                    "quoted": urllib.parse.quote("<" + key.decode() + ">"),
                }
                handler.send(
                    200, json.dumps(echo).encode(), {"Content-Type": "application/json"}
                )
            elif handler.path.startswith("/fail"):
                handler.send(500, handler.headers["X-Api-Key"].encode())
            else:
                handler.send(200, b"{}", {"Content-Type": "application/json"})

        with serve(_recorder("home", home_answer)) as home:
            monkeypatch.setenv("SECURITY_TEST_BASE", home)
            yield home, elsewhere


def test_auth_header_not_sent_after_cross_origin_redirect(
    guarded: Any, servers: Any
) -> None:
    result = guarded.hostile.fetch(path="away")
    assert result.ok and result.data == {"ok": 1}
    (_, _, first), (where, path, second) = SEEN
    assert first["Authorization"] == f"Bearer {SECRETS['SECURITY_TEST_TOKEN']}"
    assert where == "elsewhere" and path == "/landed"
    assert "Authorization" not in second and "X-Api-Key" not in second
    assert second["Accept"] == "application/json"  # a plain header is kept


def test_cross_origin_redirect_can_be_refused(guarded: Any, servers: Any) -> None:
    guarded._settings.configure(cross_origin_redirects="refuse")
    try:
        result = guarded.hostile.fetch(path="away")
    finally:
        guarded._settings.configure(cross_origin_redirects="drop-credentials")
    assert result.error.code == "redirect-refused"
    assert [label for label, _, _ in SEEN] == ["home"]


def test_redirects_are_bounded(guarded: Any, servers: Any) -> None:
    result = guarded.hostile.fetch(path="loop")
    assert result.error.code == "too-many-redirects"
    assert len(SEEN) == guarded._settings.MAX_REDIRECTS + 1


def test_secret_never_appears_in_results_messages_or_events(
    guarded: Any, servers: Any, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.DEBUG, logger="guarded.tools"):
        echoed = guarded.hostile.fetch(path="echo")
        failed = guarded.hostile.fetch(path="fail")
        answer = guarded.dispatch(
            "openai-chat",
            {
                "id": "c",
                "function": {"name": "hostile__fetch", "arguments": '{"path": "fail"}'},
            },
        )
    assert echoed.ok and failed.error.code == "http-500"
    texts = [repr(echoed), repr(failed), json.dumps(answer)]
    texts += [repr(vars(record)) for record in caplog.records]
    for secret in SECRETS.values():
        assert all(secret not in text for text in texts)
    assert "[redacted]" in echoed.data["auth"] and "[redacted]" in failed.error.message


def test_an_origin_that_echoes_a_token_encoded_is_redacted(
    guarded: Any, servers: Any
) -> None:
    result = guarded.hostile.fetch(path="encoded")
    assert result.ok
    text = json.dumps(result.data)
    for secret in SECRETS.values():
        raw = secret.encode()
        for prefix in (b"", b"Bearer ", b"k="):
            for encode in (base64.b64encode, base64.urlsafe_b64encode):
                assert encode(prefix + raw).decode().rstrip("=") not in text
        assert raw.hex() not in text and secret not in text
    assert set(result.data.values()) != {""} and "[redacted]" in result.data["key"]


def test_secret_in_url_not_in_timeout_message(
    guarded: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    import socket

    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()  # accepts connections, never answers
    try:
        base = f"http://127.0.0.1:{listener.getsockname()[1]}"
        monkeypatch.setenv("SECURITY_TEST_BASE", base)
        result = guarded.hostile.fetch.using(timeout_sec=0.5)(path="x")
    finally:
        listener.close()
    assert result.error.code == "timeout"
    for secret in SECRETS.values():
        assert secret not in result.error.message
    assert "[redacted]" in result.error.message


def _unchecked(guarded: Any, url: str, headers: dict[str, str] | None = None) -> Any:
    """A tool whose URL template the build would refuse, made at run time: the
    runtime's own check, as defence in depth."""
    executor: dict[str, Any] = {"type": "http", "url": url, "timeout_sec": 5}
    if headers:
        executor["headers_template"] = headers
    schema = {"type": "object", "properties": {"host": {"type": "string"}}}
    return guarded._tools.ToolSpec(
        "hostile.unchecked",
        "unchecked",
        "s",
        "h",
        executor,
        {"host": "host"},
        schema,
        None,
        None,
    )


@pytest.mark.parametrize(
    ("url", "headers"),
    [
        ("http://{host}/v1", {"Authorization": "Bearer ${SECURITY_TEST_TOKEN}"}),
        ("http://{host}/search?key=${SECURITY_TEST_KEY}", None),
        ("http://{host}/v1/${SECURITY_TEST_KEY}/x", None),
    ],
    ids=["header", "query", "path"],
)
def test_credentials_not_sent_to_a_host_an_argument_names(
    guarded: Any, servers: Any, url: str, headers: dict[str, str] | None
) -> None:
    _, elsewhere = servers
    host = elsewhere.removeprefix("http://")
    result = _unchecked(guarded, url, headers).call({"host": host})
    assert result.error.code == "credentials-refused"
    assert SEEN == []


def test_an_exception_of_any_type_is_redacted(guarded: Any, servers: Any) -> None:
    # http.client's own ValueError would quote the header, secret and all: the header
    # is refused before it is sent, naming the header alone
    answer = guarded.dispatch(
        "anthropic",
        {"id": "1", "name": "hostile__cookie", "input": {"lang": "en\nX: 1"}},
    )
    direct = guarded.hostile.cookie(lang="en\r\nX-Injected: 1")
    assert answer["is_error"] and not direct.ok
    assert direct.error.code == "invalid-header" and "Cookie" in direct.error.message
    texts = json.dumps(answer) + repr(direct)
    for secret in SECRETS.values():
        assert secret not in texts
    assert SEEN == []
