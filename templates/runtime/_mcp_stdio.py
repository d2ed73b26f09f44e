"""``python -m <package> mcp`` over stdio: the SDK's stdio transport, fed and drained
on the event loop itself when the wire is a pipe or a socket (as clients start a
server). The SDK's own reads and writes each hop to a worker thread, three hops per
call: with them a call cost the server 1.5 to 2 times the CPU of a lean server on the
SDK (``python tests/bench.py --only runtime``). On a file or a terminal the SDK's
threaded reads and writes are kept.

While serving, descriptor 0 reads the null device and descriptor 1 writes to stderr,
so nothing else (a tool, a child) takes a request off the wire or writes on it, as the
SDK's own transport arranges. A request nested deeper than the SDK's JSON parser reads
(about 200 levels) would get no answer at all, so such a line is read here first: its
parameters are replaced by a marker and the request answered as too deep, under its
own id.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import json
import os
import re
import stat
import sys
from collections.abc import AsyncIterator, Iterator
from typing import Any

# A stdio line nested deeper than this is answered as too deep (the SDK's parser stops
# at about 200 levels; dispatch refuses arguments past 64 with its own answer).
MAX_LINE_DEPTH = 128
TOO_DEEP = "skillc:nested-too-deep"  # the marker that replaces such a line's params
_JSON_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[\[{]|[\]}]', re.S)


def serve(mcp_server: Any) -> None:
    """Serve ``mcp_server`` (the SDK's low-level ``Server``) until stdin ends."""
    anyio = importlib.import_module("anyio")
    stdio = importlib.import_module("mcp.server.stdio")

    async def run() -> None:
        with _claimed(0, os.devnull) as wire_in, _claimed(1, None) as wire_out:
            if _pipe(wire_in) and _pipe(wire_out):
                lines: Any = await _PipeLines.open(wire_in)
                out: Any = await _PipeWriter.open(wire_out)
            else:
                lines = anyio.wrap_file(_text(wire_in, "r"))
                out = anyio.wrap_file(_text(wire_out, "w"))
            async with stdio.stdio_server(stdin=_shallow_lines(lines), stdout=out) as (
                read,
                write,
            ):
                options = mcp_server.create_initialization_options()
                await mcp_server.run(read, write, options)

    anyio.run(run)


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
        with contextlib.suppress(OSError):
            os.set_blocking(wire, True)  # as it was, for whoever shares it
        os.dup2(wire, fd)
        os.close(wire)


def _pipe(fd: int) -> bool:
    """Whether ``fd`` is one the event loop can wait on (never a terminal, which
    would be left non-blocking for the shell)."""
    mode = os.fstat(fd).st_mode
    return stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)


def _text(fd: int, mode: str) -> Any:
    errors = "replace" if mode == "r" else "strict"  # as the SDK reads and writes
    return open(fd, mode, encoding="utf-8", errors=errors, closefd=False)


class _PipeLines:
    """The wire's lines as text, read on the event loop."""

    def __init__(self, reader: asyncio.StreamReader) -> None:
        self.reader = reader

    @classmethod
    async def open(cls, fd: int) -> _PipeLines:
        loop = asyncio.get_running_loop()
        reader = asyncio.StreamReader(limit=sys.maxsize, loop=loop)  # lines any size
        pipe = open(fd, "rb", buffering=0, closefd=False)
        await loop.connect_read_pipe(
            lambda: asyncio.StreamReaderProtocol(reader, loop=loop), pipe
        )
        return cls(reader)

    def __aiter__(self) -> _PipeLines:
        return self

    async def __anext__(self) -> str:
        line = await self.reader.readline()
        if not line:
            raise StopAsyncIteration
        return line.decode("utf-8", "replace")


class _PipeWriter:
    """The wire's output, written on the event loop: ``write`` then ``flush`` (which
    waits while the client does not read)."""

    def __init__(self, writer: asyncio.StreamWriter) -> None:
        self.writer = writer

    @classmethod
    async def open(cls, fd: int) -> _PipeWriter:
        loop = asyncio.get_running_loop()
        pipe = open(fd, "wb", buffering=0, closefd=False)
        transport, protocol = await loop.connect_write_pipe(
            asyncio.streams.FlowControlMixin, pipe
        )
        return cls(asyncio.StreamWriter(transport, protocol, None, loop))

    async def write(self, text: str) -> None:
        self.writer.write(text.encode("utf-8"))

    async def flush(self) -> None:
        await self.writer.drain()


async def _shallow_lines(lines: Any) -> AsyncIterator[str]:
    """The wire's lines, each nested too deep for the SDK's parser made shallow."""
    async for line in lines:
        yield shallow(line)


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
        return line  # shallow enough, or not JSON the SDK could read anyway
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
