"""The http executor's connections: kept alive and reused, a few idle ones per origin.

A connection belongs to one origin (scheme, host, port; and the proxy it goes through),
so a request that carries credentials only ever travels on a connection to the origin
its manifest wrote; redirects are followed hop by hop by the executor, which checks each
hop's origin. A connection goes back to its pool only after its response was read to the
end; one cut at the output limit or by the deadline is closed. A pooled connection the
server has closed meanwhile is replaced once, before any answer was read. The proxies of
the environment (``http_proxy``, ``https_proxy``, ``no_proxy``) are read once, as
urllib's opener reads them.
"""

from __future__ import annotations

import base64
import http.client
import io
import socket
import sys
import threading
import urllib.parse
import urllib.request
from collections.abc import Mapping
from typing import Any, Protocol, cast

IDLE_PER_ORIGIN = 4
CHUNK = 65536
USER_AGENT = f"Python-urllib/{sys.version_info[0]}.{sys.version_info[1]}"  # as before
# What a reused connection raises when its server had closed it: sent again, once.
STALE = (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError)

Key = tuple[str, str, int, str]  # scheme, host, port, proxy ("" for none)
_idle: dict[Key, list[http.client.HTTPConnection]] = {}
_lock = threading.Lock()
_proxies: list[dict[str, str]] = []


class Deadline(Protocol):
    def left(self) -> float: ...


def fetch(
    url: str,
    method: str,
    headers: Mapping[str, str],
    body: bytes | None,
    deadline: Deadline,
    limit: int,
) -> tuple[int, str, bytes, str, bool]:
    """One request: (status, Location, body cut at ``limit``, type, cut?). Raises
    ``TimeoutError`` when the deadline cut it, ``OSError`` or ``HTTPException`` when
    the connection failed."""
    parts = urllib.parse.urlsplit(url)
    scheme, host = parts.scheme.lower(), parts.hostname or ""
    port = parts.port or (443 if scheme == "https" else 80)
    proxy = _proxy(scheme, host)
    key = (scheme, host.lower(), port, proxy)
    target = urllib.parse.urlunsplit(("", "", parts.path or "/", parts.query, ""))
    sent = {"User-Agent": USER_AGENT, **headers}
    if proxy and scheme == "http":  # the proxy is asked for the whole URL
        target = urllib.parse.urlunsplit((scheme, parts.netloc, target, "", ""))
        sent.update(_proxy_authorization(proxy))
    for attempt in (1, 2):
        connection, reused = _take(key, host, port, deadline)
        try:
            return _exchange(
                connection, key, method, target, sent, body, deadline, limit
            )
        except STALE:
            if not reused or attempt == 2:
                raise
    raise AssertionError("unreachable: the second attempt returns or raises")


def _exchange(
    connection: http.client.HTTPConnection,
    key: Key,
    method: str,
    target: str,
    headers: Mapping[str, str],
    body: bytes | None,
    deadline: Deadline,
    limit: int,
) -> tuple[int, str, bytes, str, bool]:
    try:
        if connection.sock is None:
            _open(connection, deadline)
        bounded = cast(Bounded, connection.sock)
        bounded.deadline = deadline
        bounded.sock.settimeout(_left(deadline))  # the whole request, sent
        connection.request(method, target, body, dict(headers))
        response = connection.getresponse()
        chunks: list[bytes] = []
        size = 0
        while size <= limit:
            chunk = response.read1(CHUNK)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except BaseException:
        connection.close()
        raise
    # Read to the end (a body of known length that is all read leaves the response
    # open): the next request may use the connection.
    if (response.isclosed() or response.length == 0) and not response.will_close:
        response.close()
        _give(key, connection)
    else:
        connection.close()
    raw = b"".join(chunks)
    return (
        response.status,
        response.getheader("Location") or "",
        raw[:limit],
        response.getheader("Content-Type") or "",
        len(raw) > limit,
    )


def _open(connection: http.client.HTTPConnection, deadline: Deadline) -> None:
    """Connect, go through the proxy's tunnel and shake hands, each step within what
    the call has left, on a socket that keeps to the deadline (``Bounded``).
    ``connection.connect()`` gave the TLS handshake the whole timeout the connection
    was made with, after the TCP connect and a proxy's CONNECT (read with a timeout
    per receive: a proxy dripping its answer had no bound) had spent their share."""
    sys.audit("http.client.connect", connection, connection.host, connection.port)
    raw = socket.create_connection(
        (connection.host, connection.port),
        _left(deadline),
        getattr(connection, "source_address", None),  # typeshed does not list it
    )
    try:  # as http.client: small requests are not delayed
        raw.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    except OSError:
        pass
    bounded = Bounded(raw)
    bounded.deadline = deadline
    connection.sock = cast(socket.socket, bounded)
    tunnel = getattr(connection, "_tunnel_host", None)
    if tunnel:  # the CONNECT's answer read through Bounded
        connection._tunnel()  # type: ignore[attr-defined]
    if isinstance(connection, http.client.HTTPSConnection):
        # The handshake as one wait (ssl keeps one deadline for it from the socket's
        # timeout): what the call has left.
        raw.settimeout(_left(deadline))
        context = connection._context  # type: ignore[attr-defined]
        tls = context.wrap_socket(raw, server_hostname=tunnel or connection.host)
        connection.sock = cast(socket.socket, Bounded(tls))


def _left(deadline: Deadline) -> float:
    """The seconds the call has left, or ``TimeoutError`` when none."""
    try:
        return deadline.left()
    except Exception:  # the executor's own failure: the hop says it as a timeout
        raise TimeoutError() from None


class Bounded:
    """A connection's socket whose every receive waits only as long as its call's
    deadline leaves: a server that drips its answer, headers or body, never outlasts
    the call. One monotonic deadline for the call, and no thread: a
    ``threading.Timer`` started and cancelled per call to cut the socket was about
    105 us of dispatch's cost (issue 45). ``http.client`` reads a response through
    ``makefile``, which is why that reads through ``recv_into`` here."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.deadline: Deadline | None = None

    def recv_into(self, buffer: Any, *rest: Any) -> int:
        if self.deadline is not None:
            self.sock.settimeout(_left(self.deadline))
        return self.sock.recv_into(buffer, *rest)

    def makefile(self, mode: str = "rb", *rest: Any, **options: Any) -> Any:
        # As socket.makefile: the socket stays open while its reader is (http.client
        # closes a connection that will close before its body is read).
        self.sock._io_refs += 1  # type: ignore[attr-defined]
        return io.BufferedReader(socket.SocketIO(self, "rb"))  # type: ignore[arg-type]

    def __getattr__(self, name: str) -> Any:  # sendall, close, fileno, ...
        return getattr(self.sock, name)


def _take(
    key: Key, host: str, port: int, deadline: Deadline
) -> tuple[http.client.HTTPConnection, bool]:
    """An idle connection to ``key``'s origin (True: reused), or a new one."""
    with _lock:
        idle = _idle.get(key)
        if idle:
            return idle.pop(), True
    scheme, _, _, proxy = key
    kind = (
        http.client.HTTPSConnection if scheme == "https" else http.client.HTTPConnection
    )
    if not proxy:
        return kind(host, port, timeout=deadline.left()), False
    at = urllib.parse.urlsplit(proxy)
    through = at.port or (443 if at.scheme == "https" else 80)
    if scheme == "http":
        proxied = http.client.HTTPConnection(at.hostname or "", through)
        proxied.timeout = deadline.left()
        return proxied, False
    connection = kind(at.hostname or "", through, timeout=deadline.left())
    connection.set_tunnel(host, port, headers=_proxy_authorization(proxy))
    return connection, False


def _give(key: Key, connection: http.client.HTTPConnection) -> None:
    with _lock:
        idle = _idle.setdefault(key, [])
        if len(idle) < IDLE_PER_ORIGIN:
            idle.append(connection)
            return
    connection.close()


def _proxy(scheme: str, host: str) -> str:
    """The proxy URL the environment names for ``scheme`` and ``host``, or ''."""
    if not _proxies:
        _proxies.append(urllib.request.getproxies())
    proxy = _proxies[0].get(scheme, "")
    if not proxy or urllib.request.proxy_bypass(host):
        return ""
    return proxy if "://" in proxy else f"http://{proxy}"


def _proxy_authorization(proxy: str) -> dict[str, str]:
    at = urllib.parse.urlsplit(proxy)
    if at.username is None:
        return {}
    user = urllib.parse.unquote(at.username)
    password = urllib.parse.unquote(at.password or "")
    token = base64.b64encode(f"{user}:{password}".encode()).decode()
    return {"Proxy-Authorization": f"Basic {token}"}
