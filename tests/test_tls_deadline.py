"""Issue 45: the http executor's TLS handshake ends at the call's deadline. A CONNECT
proxy on 127.0.0.1 drips its "200" over most of the deadline, then, as the origin,
never answers the handshake and hangs up a while after the deadline. Before, the
handshake had the whole timeout the connection was opened with, counted afresh after
the tunnel: the call outlived its deadline and ended when the peer hung up (an EOF in
the handshake, a connection error); now it ends at its deadline with the timeout that
the executor reports as ``timeout``. What is compared is how the call ended, not a
clock (the peer hangs up 0.6 s after the deadline, 0.6 s before the old timeout)."""

from __future__ import annotations

import importlib
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from skillc.embed.encoders import runtime

DEADLINE = 2.0
DRIP = 1.2  # the proxy's answer takes this long
HANG_UP = 2.6  # after the CONNECT arrives, the peer closes


class Deadline:
    """The executor's one deadline per call (``_executors.Deadline``'s ``left``)."""

    def __init__(self, seconds: float) -> None:
        self.at = time.monotonic() + seconds

    def left(self) -> float:
        left = self.at - time.monotonic()
        if left <= 0:
            raise RuntimeError("the executor's timeout failure")
        return left


def _serve(listener: socket.socket, proxy: bool) -> None:
    peer, _ = listener.accept()
    start = time.monotonic()
    with peer:
        if proxy:
            request = b""
            while b"\r\n\r\n" not in request:
                request += peer.recv(4096)
            answer = b"HTTP/1.1 200 Connection established\r\n\r\n"
            for at in range(0, len(answer), 8):
                time.sleep(DRIP * 8 / len(answer))
                peer.sendall(answer[at : at + 8])
        time.sleep(max(0.0, HANG_UP - (time.monotonic() - start)))


@pytest.fixture
def peer(request: pytest.FixtureRequest) -> Iterator[int]:
    """A port whose server takes TCP and never completes a TLS handshake (as a CONNECT
    proxy first, when the test asks)."""
    listener = socket.create_server(("127.0.0.1", 0))
    thread = threading.Thread(
        target=_serve, args=(listener, request.param), daemon=True
    )
    thread.start()
    yield listener.getsockname()[1]
    thread.join(timeout=10)
    listener.close()


def _fetch(monkeypatch: pytest.MonkeyPatch, url: str, proxy: str) -> Any:
    package = runtime().__name__.rpartition(".")[0]  # templates/runtime, as a package
    module = importlib.import_module(f"{package}._connections")
    monkeypatch.setattr(module, "_proxies", [{"https": proxy} if proxy else {}])
    monkeypatch.setattr(module, "_idle", {})
    for name in ("no_proxy", "NO_PROXY"):
        monkeypatch.delenv(name, raising=False)
    with pytest.raises(Exception) as raised:
        module.fetch(url, "GET", {}, None, Deadline(DEADLINE), 1000)
    return raised.value


@pytest.mark.parametrize("peer", [True], indirect=True)
def test_a_handshake_after_a_slow_tunnel_ends_at_the_deadline(
    peer: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    error = _fetch(monkeypatch, "https://origin.invalid/", f"http://127.0.0.1:{peer}")
    assert isinstance(error, TimeoutError), repr(error)


@pytest.mark.parametrize("peer", [False], indirect=True)
def test_a_silent_origin_ends_the_call_at_the_deadline(
    peer: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    error = _fetch(monkeypatch, f"https://127.0.0.1:{peer}/", "")
    assert isinstance(error, TimeoutError), repr(error)
