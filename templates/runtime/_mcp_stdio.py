"""``python -m <package> mcp`` over stdio: JSON-RPC 2.0, one message a line, read and
written here without the ``mcp`` SDK (nor pydantic, nor anyio), answered by
``_mcp.Handlers``. The SDK's import alone was most of the server's memory (64.8 of a
lean SDK server's 76 MiB at 500 tools). Without it, start to the first ``tools/list``
takes 0.30 / 0.51 times that server's peak RSS at 500 / 5,000 tools (0.94 / 0.87 on the
SDK) and 0.07 / 0.09 times its CPU (0.82 / 0.36), a call 0.17 / 0.11 times its CPU
(``python tests/bench.py --only runtime --runs 3``).

The wire speaks the era the client's first request opens, as the SDK's server does:
the ``initialize`` handshake (any protocol version up to 2025-11-25; another one is
answered with 2025-11-25), or 2026-07-28's per-request envelope (``server/discover``,
and every request carrying its protocol version and capabilities in ``_meta``), each
result then stamped with ``resultType`` and the server's identity. A request of the
other era is refused.

Protocol methods (``initialize``, ``ping``, lists) are answered on the reading thread,
in order; calls, prompts and file reads in worker threads, each answered when done, so
a slow tool never holds up the others. File reads run in ``READERS`` daemon threads of
their own, each holding its ``Handlers.bounded`` semaphore until its answer is written
(40 reads of a 15 MiB file at once peak at 174 MB of RSS, against 1.4 GB unbounded,
and 299 MB with a thread per read, each keeping its freed memory in an allocator arena
of its own). When the input ends, the server waits for the calls still running, and up
to ``GRACE`` seconds for the reads: one stuck on a hung disk never keeps it from
exiting. A request the client cancels
(``notifications/cancelled``) is never answered; its tool runs to its end, as it did on
the SDK. A line that is not JSON gets a parse error; a message that is not a request
an invalid-request error, both under the id ``null``; a notification never gets an
answer. While serving, descriptor 0 reads the null device and descriptor 1 writes to
stderr, so nothing else (a tool, a child) takes a request off the wire or writes on it.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import re
import threading
import time
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any, BinaryIO

from ._mcp import (
    INSTRUCTIONS,
    INTERNAL_ERROR,
    INVALID_PARAMS,
    MAX_LINE_DEPTH,
    TOO_DEEP,
    Handlers,
    RpcError,
    bad_params,
    version,
)
from ._mcp_skills import EXTENSION
from ._runtime import PACKAGE

if TYPE_CHECKING:
    from concurrent.futures import ThreadPoolExecutor

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
UNSUPPORTED_VERSION = -32022  # the protocol's, with the versions served as data
HANDSHAKE_VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
MODERN_VERSIONS = ("2026-07-28",)
VERSION_KEY = "io.modelcontextprotocol/protocolVersion"
CAPABILITIES_KEY = "io.modelcontextprotocol/clientCapabilities"
SERVER_INFO_KEY = "io.modelcontextprotocol/serverInfo"
# The results a 2026-07-28 client may cache: ttlMs and cacheScope, unless the handler
# said otherwise. The handshake era's results of these have no such fields.
CACHEABLE = frozenset(
    (
        "server/discover",
        "tools/list",
        "prompts/list",
        "resources/list",
        "resources/read",
    )
)
NO_CACHE = {"ttlMs": 0, "cacheScope": "private"}
# Worker threads for calls at once (the SDK's, anyio's, default).
WORKERS = 40
# Threads for file reads, and the seconds the server waits for them once its input has
# ended.
READERS = 2
GRACE = 5.0
_JSON_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[\[{]|[\]}]', re.S)
_ENCODER = json.JSONEncoder(
    ensure_ascii=False, check_circular=False, separators=(",", ":")
)


def serve(handlers: Handlers) -> None:
    """Serve ``handlers`` until stdin ends, then answer the calls still running."""
    with (
        _claimed(0, os.devnull) as wire_in,
        _claimed(1, None) as wire_out,
        open(wire_in, "rb", closefd=False) as lines,
        open(wire_out, "wb", closefd=False) as out,
    ):
        Connection(handlers, out).run(lines)


@contextlib.contextmanager
def _claimed(fd: int, diversion: str | None) -> Iterator[int]:
    """A duplicate of the wire's descriptor ``fd``, for the server alone: meanwhile
    ``fd`` is the file ``diversion`` (None: stderr)."""
    wire = os.dup(fd)
    other = os.open(diversion, os.O_RDONLY) if diversion else os.dup(2)
    os.dup2(other, fd)
    os.close(other)
    try:
        yield wire
    finally:
        os.dup2(wire, fd)
        os.close(wire)


class Connection:
    """One client on the wire: its era, once its first request says, and the
    requests running in worker threads (by id: whether the client cancelled it)."""

    def __init__(self, handlers: Handlers, out: BinaryIO) -> None:
        self.handlers, self.out = handlers, out
        self.era: str | None = None  # "handshake" or "modern"
        self.initialized = False
        self.running: dict[str | int, bool] = {}
        self.lock = threading.Lock()  # over running
        self.writing = threading.Lock()  # one message on the wire at a time
        self.pool: ThreadPoolExecutor | None = None  # started at the first call
        self.reads: queue.SimpleQueue[Any] = queue.SimpleQueue()  # for the readers
        self.readers: list[threading.Thread] = []  # started at the first read
        info = {"name": PACKAGE, "version": version()}
        self.stamp = {SERVER_INFO_KEY: info}
        self.hello = {"serverInfo": info, "instructions": INSTRUCTIONS}

    def run(self, lines: BinaryIO) -> None:
        try:
            for line in lines:
                if line.strip():
                    self.receive(line.decode("utf-8", "replace"))
        finally:
            if self.pool is not None:
                self.pool.shutdown(wait=True)
            for _ in self.readers:
                self.reads.put(None)  # each reader's last
            until = time.monotonic() + GRACE
            for thread in self.readers:
                thread.join(max(0.0, until - time.monotonic()))

    def receive(self, line: str) -> None:
        """One line off the wire: answered, now or from a worker, unless it is a
        notification or a response."""
        try:
            message = json.loads(shallow(line))
        except (ValueError, RecursionError):
            self.send(None, error=_error(PARSE_ERROR, "Parse error"))
            return
        if not isinstance(message, dict):  # MCP has no batches since 2025-06-18
            self.send(None, error=_error(INVALID_REQUEST, "Invalid Request"))
            return
        ident = _ident(message.get("id"))
        method, params = message.get("method"), message.get("params")
        if "method" not in message and ("result" in message or "error" in message):
            return  # a response: this server asks the client nothing
        if (
            message.get("jsonrpc") != "2.0"
            or not isinstance(method, str)
            or (params is not None and not isinstance(params, (dict, list)))
            or ("id" in message and ident is None)
        ):
            self.send(ident, error=_error(INVALID_REQUEST, "Invalid Request"))
        elif "id" not in message:
            self.notified(method, params)
        elif params is not None and not isinstance(params, dict):
            self.send(ident, error=_refused(bad_params()))
        else:
            assert ident is not None
            self.request(ident, method, params or {})

    def notified(self, method: str, params: Any) -> None:
        if method == "notifications/cancelled" and isinstance(params, dict):
            ident = _ident(params.get("requestId"))
            with self.lock:
                if ident is not None and ident in self.running:
                    self.running[ident] = True

    def request(self, ident: str | int, method: str, params: dict[str, Any]) -> None:
        if self.era is None:
            opens_modern = method != "initialize" and VERSION_KEY in _meta(params)
            self.era = "modern" if opens_modern else "handshake"
        try:
            if self.era == "modern":
                result = self.modern(method, params)
            else:
                result = self.handshake(method, params)
        except RpcError as exc:
            self.send(ident, error=_refused(exc))
            return
        except Exception:  # one bad request never takes the server down
            self.send(ident, error=_error(INTERNAL_ERROR, "Internal error"))
            return
        if result is not None:
            self.send(ident, self.shaped(method, result))
        else:  # run in a worker thread
            self.start(ident, method, params)

    def handshake(self, method: str, params: dict[str, Any]) -> dict[str, Any] | None:
        """A request on a connection opened by ``initialize``; None: a worker's."""
        if method == "initialize":
            requested = params.get("protocolVersion")
            client = params.get("clientInfo")
            if (
                not isinstance(requested, str)
                or not isinstance(params.get("capabilities"), dict)
                or not isinstance(client, dict)
                or not all(isinstance(client.get(k), str) for k in ("name", "version"))
            ):
                raise bad_params()
            self.initialized = True
            agreed = requested if requested in HANDSHAKE_VERSIONS else "2025-11-25"
            capabilities = _capabilities(modern=False)
            return {
                "protocolVersion": agreed,
                "capabilities": capabilities,
                **self.hello,
            }
        if VERSION_KEY in _meta(params):
            raise RpcError(
                INVALID_REQUEST,
                "this connection serves the handshake protocol era; requests "
                "carrying the 2026-07-28 envelope are not accepted on it",
            )
        if method == "ping":
            return {}
        if method not in self.handlers.methods:
            raise RpcError(METHOD_NOT_FOUND, "Method not found", method)
        if not self.initialized:  # as the SDK answers before the handshake
            raise bad_params()
        return self.answered(method, params)

    def modern(self, method: str, params: dict[str, Any]) -> dict[str, Any] | None:
        """A request of a 2026-07-28 connection: each carries its own envelope."""
        meta = _meta(params)
        if method == "initialize":
            requested = params.get("protocolVersion")
            data: dict[str, Any] = {"supported": list(MODERN_VERSIONS)}
            if isinstance(requested, str):
                data["requested"] = requested
            raise RpcError(
                UNSUPPORTED_VERSION,
                "connection is serving the 2026-07-28 protocol; the initialize "
                "handshake is not accepted",
                data,
            )
        if VERSION_KEY not in meta or CAPABILITIES_KEY not in meta:
            raise RpcError(
                INVALID_PARAMS,
                f"params._meta must carry the envelope keys {VERSION_KEY!r} and "
                f"{CAPABILITIES_KEY!r}",
            )
        requested = meta[VERSION_KEY]
        if not isinstance(requested, str):
            raise bad_params()
        if requested not in MODERN_VERSIONS:
            data = {"supported": list(MODERN_VERSIONS), "requested": requested}
            raise RpcError(UNSUPPORTED_VERSION, "Unsupported protocol version", data)
        if method == "server/discover":
            capabilities = _capabilities(modern=True)
            return {
                "supportedVersions": list(MODERN_VERSIONS),
                "capabilities": capabilities,
                "instructions": INSTRUCTIONS,
            }
        if method not in self.handlers.methods:  # ping too: gone in 2026-07-28
            raise RpcError(METHOD_NOT_FOUND, "Method not found", method)
        return self.answered(method, params)

    def answered(self, method: str, params: dict[str, Any]) -> dict[str, Any] | None:
        """The handler's result, or None when it runs in a worker thread."""
        if method in self.handlers.blocking:
            return None
        return self.handlers.methods[method](params)

    def shaped(self, method: str, result: dict[str, Any]) -> dict[str, Any]:
        """``result`` as the connection's era wants it: 2026-07-28's carries its
        type, cache hints where the method has them, and the server's identity."""
        if self.era == "modern":
            hints = NO_CACHE if method in CACHEABLE else {}
            meta = result.get("_meta")
            stamp = {**meta, **self.stamp} if isinstance(meta, dict) else self.stamp
            return {**hints, **result, "resultType": "complete", "_meta": stamp}
        if method in CACHEABLE:
            return {k: v for k, v in result.items() if k not in NO_CACHE}
        return result

    def start(self, ident: str | int, method: str, params: dict[str, Any]) -> None:
        with self.lock:
            self.running[ident] = False
        if method in self.handlers.bounded:
            if not self.readers:
                self.readers = [
                    threading.Thread(target=self.read, daemon=True)
                    for _ in range(READERS)
                ]
                for thread in self.readers:
                    thread.start()
            self.reads.put((ident, method, params))
            return
        if self.pool is None:
            from concurrent.futures import ThreadPoolExecutor

            self.pool = ThreadPoolExecutor(WORKERS, thread_name_prefix="mcp-call")
        self.pool.submit(self.work, ident, method, params)

    def read(self) -> None:
        """A reader thread: the queued reads, until its last (None)."""
        while (item := self.reads.get()) is not None:
            self.work(*item)

    def work(self, ident: str | int, method: str, params: dict[str, Any]) -> None:
        """Run a blocking handler and answer it, unless the client cancelled it."""
        result: dict[str, Any] | None = None
        error: dict[str, Any] | None = None
        with self.handlers.bounded.get(method) or contextlib.nullcontext():
            try:
                result = self.shaped(method, self.handlers.methods[method](params))
            except RpcError as exc:
                error = _refused(exc)
            except Exception:  # never the handler's text: it may hold anything
                error = _error(INTERNAL_ERROR, "Internal error")
            with self.lock:
                cancelled = self.running.pop(ident, False)
            if not cancelled:
                self.send(ident, result, error)
            result = None  # let it go before the next read starts

    def send(
        self,
        ident: str | int | None,
        result: dict[str, Any] | None = None,
        error: dict[str, Any] | None = None,
    ) -> None:
        """One answer on the wire; a client gone away is not an error here."""
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": ident}
        if error is None:
            message["result"] = result
        else:
            message["error"] = error
        # A lone surrogate (a name that is not UTF-8) is sent as JSON's \\u escape.
        data = _ENCODER.encode(message).encode("utf-8", "backslashreplace")
        with self.writing, contextlib.suppress(OSError, ValueError):
            self.out.write(data)  # and the line's end apart: no copy of a long line
            self.out.write(b"\n")
            self.out.flush()


def _error(code: int, message: str, data: Any = None) -> dict[str, Any]:
    error: dict[str, Any] = {"code": code, "message": message}
    if data is not None:
        error["data"] = data
    return error


def _ident(value: Any) -> str | int | None:
    """A request's id as JSON-RPC allows it (MCP: never null); None for another."""
    if isinstance(value, (str, int)) and not isinstance(value, bool):
        return value
    return None


def _refused(exc: RpcError) -> dict[str, Any]:
    """The error member of an answer that refuses as ``exc`` says."""
    return _error(exc.code, exc.message, exc.data)


def _meta(params: Mapping[str, Any]) -> Mapping[str, Any]:
    meta = params.get("_meta")
    return meta if isinstance(meta, dict) else {}


def _capabilities(modern: bool) -> dict[str, Any]:
    """What the server offers: lists that never change while it runs, and (declared
    in 2026-07-28's capabilities) the MCP Skills extension."""
    capabilities: dict[str, Any] = {
        "prompts": {"listChanged": False},
        "resources": {"listChanged": False, "subscribe": False},
        "tools": {"listChanged": False},
    }
    if modern:
        capabilities["extensions"] = {EXTENSION: {}}
    return capabilities


def shallow(line: str) -> str:
    """A JSON-RPC request nested deeper than ``MAX_LINE_DEPTH``, with its params
    replaced by the ``TOO_DEEP`` marker (a tool's or prompt's name kept), so that the
    server answers it under its id; any other line as it is."""
    if line.count("[") + line.count("{") <= MAX_LINE_DEPTH:
        return line
    pieces, depth, start, skipped_from, deepest = [], 0, 0, -1, 0
    for token in _JSON_TOKEN.finditer(line):
        char = token.group()[0]
        if char in "[{":
            depth += 1
            deepest = max(deepest, depth)
            if depth == 3 and skipped_from < 0:  # below params: cut out
                pieces.append(line[start : token.start()])
                skipped_from = token.start()
        elif char in "]}":
            if depth == 3 and skipped_from >= 0:
                pieces.append("null")
                start, skipped_from = token.end(), -1
            depth -= 1
    if deepest <= MAX_LINE_DEPTH or skipped_from >= 0:
        return line  # shallow enough, or not JSON anyway
    try:
        message = json.loads("".join(pieces) + line[start:])
    except ValueError:
        return line
    if not isinstance(message, dict):
        return line
    old = message.get("params")
    name = old.get("name") if isinstance(old, dict) else None
    params: dict[str, Any] = {"arguments": {TOO_DEEP: str(deepest)}}
    if isinstance(name, str):
        params["name"] = name
    return json.dumps({**message, "params": params}) + "\n"
