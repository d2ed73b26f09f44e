"""http executors keep their connections alive: two calls to one origin travel on one
connection, and credentials still stay with their origin when a redirect leads to
another one (a kept-alive connection is never lent to a request for another origin).
Real HTTP/1.1 servers on 127.0.0.1."""

from __future__ import annotations

import json
from collections.abc import Iterator
from importlib import import_module
from typing import Any

import pytest

from security_kit import SECRETS, Quiet, canary, guarded, serve  # noqa: F401

# (server, client port, path, headers) of every request the servers answered.
SEEN: list[tuple[str, int, str, dict[str, str]]] = []


def _kept_alive(label: str, answer: Any) -> type[Quiet]:
    class KeptAlive(Quiet):
        protocol_version = "HTTP/1.1"  # connections stay open between requests

        def do_GET(self) -> None:  # noqa: N802 - http.server's naming
            port = self.client_address[1]
            SEEN.append((label, port, self.path, dict(self.headers)))
            answer(self)

    return KeptAlive


def _json(handler: Quiet, value: Any) -> None:
    handler.send(200, json.dumps(value).encode(), {"Content-Type": "application/json"})


@pytest.fixture
def origins(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[str, str]]:
    SEEN.clear()
    with serve(_kept_alive("elsewhere", lambda h: _json(h, {"ok": 1}))) as elsewhere:

        def home(handler: Quiet) -> None:
            if handler.path.startswith("/bye"):
                handler.close_connection = True  # after the answer, unannounced
            if handler.path.startswith("/away"):
                handler.send(302, b"", {"Location": f"{elsewhere}/landed"})
            else:
                _json(handler, {"path": handler.path.partition("?")[0]})

        with serve(_kept_alive("home", home)) as base:
            monkeypatch.setenv("SECURITY_TEST_BASE", base)
            yield base, elsewhere


def test_two_calls_to_one_origin_reuse_one_connection(
    guarded: Any, origins: Any
) -> None:
    first = guarded.hostile.fetch(path="one")
    second = guarded.hostile.fetch(path="two")
    assert first.data == {"path": "/one"} and second.data == {"path": "/two"}
    (_, port_one, _, headers), (_, port_two, _, _) = SEEN
    assert port_one == port_two  # the same client socket: one connection
    assert headers["Authorization"] == f"Bearer {SECRETS['SECURITY_TEST_TOKEN']}"


def test_a_redirect_to_another_origin_carries_no_credentials(
    guarded: Any, origins: Any
) -> None:
    for _ in range(2):  # the second time over the kept-alive connections
        result = guarded.hostile.fetch(path="away")
        assert result.ok and result.data == {"ok": 1}
    assert [label for label, *_ in SEEN] == ["home", "elsewhere"] * 2
    home_ports = {port for label, port, _, _ in SEEN if label == "home"}
    elsewhere_ports = {port for label, port, _, _ in SEEN if label == "elsewhere"}
    assert len(home_ports) == 1 and len(elsewhere_ports) == 1
    for label, _, path, headers in SEEN:
        if label == "elsewhere":
            assert path == "/landed"
            assert "Authorization" not in headers and "X-Api-Key" not in headers
            assert all(secret not in json.dumps(headers) for secret in SECRETS.values())
        else:
            assert headers["X-Api-Key"] == SECRETS["SECURITY_TEST_KEY"]


def test_a_server_that_closed_a_kept_connection_is_asked_again(
    guarded: Any, origins: Any
) -> None:
    """The server closes the connection after its answer without saying so (as an
    idle timeout does): the next request goes out again on a new connection."""
    assert guarded.hostile.fetch(path="bye").ok
    result = guarded.hostile.fetch(path="two")
    assert result.ok and result.data == {"path": "/two"}
    assert len({port for _, port, _, _ in SEEN}) == 2


def test_the_environments_proxy_is_asked_for_the_whole_url(
    guarded: Any, origins: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With ``http_proxy`` set, the request goes to the proxy, which is asked for the
    origin's whole URL (and never the other way round: the pool keys by both)."""
    pool = import_module(f"{guarded.__name__}._connections")
    home, _ = origins
    asked: list[str] = []

    def proxy_answer(handler: Quiet) -> None:
        asked.append(handler.path)
        _json(handler, {"proxied": True})

    with serve(_kept_alive("proxy", proxy_answer)) as proxy:
        for name in ("no_proxy", "NO_PROXY"):
            monkeypatch.delenv(name, raising=False)
        monkeypatch.setenv("http_proxy", proxy)
        pool._proxies.clear()  # read again, as a new process would
        try:
            result = guarded.hostile.fetch(path="via")
        finally:
            pool._proxies.clear()
    assert result.ok and result.data == {"proxied": True}
    assert asked == [f"{home}/via?key={SECRETS['SECURITY_TEST_KEY']}"]
