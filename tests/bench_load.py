"""The bench's load test of ``python -m <package> mcp --http --workers N`` (the
``runtime`` section's, at 500 tools), bounded, on loopback, and stopping every process
it started: ``LOAD_CALLS`` calls of the last tool from ``LOAD_CLIENTS`` threads (plain
JSON-RPC over streamable HTTP, each client on one kept-alive connection) per round, on
servers of N = 1, 2 and 4 workers. Its rows: errors + lost calls (== 0), and the
server's CPU per call (summed over all its processes, from /proc) for N workers / 1
worker (<= 1.25: flat; the machine has 2 cores, so CPU per call, not calls per second).
Every server serves statelessly (one worker with ``--stateless``, as several always do),
so the ratio compares the same work spread over more processes.

Beside them, the same load on the stdio section's lean peer, served as the SDK's stateless
streamable-HTTP app under uvicorn (``PEER_APP``): skillc's CPU per call over HTTP / the
peer's, one worker each (<= 0.9, issue 30's per-call target over HTTP); and, for scale,
the peer's own CPU per call on 4 workers / 1 (no target: what the same stack does on
this machine).

How, the same for every server, skillc's and the peer's:

- all of them are started side by side, then measured in turn, one round each, ``runs``
  times over, and each ratio is the median of the rounds' ratios (with their spread):
  back-to-back rounds on one idle server differ by a quarter on this shared machine,
  and one round per server gave 4 workers / 1 anywhere from 0.9 to 1.6 in one run;
- a server is loaded once every process of it has started (``_ready``): uvicorn's
  supervisor binds the port before its workers start (1.5 s of CPU each), so a server
  that accepts a connection may still be starting, and that start was counted as calls;
- it is warmed up by ``WARM_ROUNDS`` rounds, each on fresh connections: which worker
  accepts a connection is the kernel's choice, and a worker that got none of a single
  warm-up round's 8 paid its first call in the measured round.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

from bench_runtime import CHOOSE, PEER, Line, _cpu_and_rss

LOAD_WORKERS = (1, 2, 4)
LOAD_CALLS = 400  # per round and server
LOAD_CLIENTS = 8
WARM_ROUNDS = 3  # of 2 calls per client, each round on fresh connections
LOAD_PATIENCE = 120  # seconds for a server to answer, or a call to: then it is lost
# CPU seconds a server may spend in half a second once every process of it has started
# (idle, 4 workers and their supervisor spend 0.008).
QUIET = 0.05
# The stdio peer's handlers as a stateless streamable-HTTP app, for ``uvicorn peer_app:app``.
PEER_APP = PEER.rpartition("async def main")[0] + (
    "app = server.streamable_http_app(host='127.0.0.1', stateless_http=True)\n"
)


def _descendants(pid: int) -> list[int]:
    """``pid`` and every process below it (uvicorn's workers and what they start)."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text().rpartition(")")[2].split()
            except OSError:
                continue
            parents[int(entry.name)] = int(stat[1])
    found, frontier = [pid], [pid]
    while frontier:
        frontier = [child for child, up in parents.items() if up in frontier]
        found += frontier
    return found


def _tree_cpu(pid: int) -> float:
    total = 0.0
    for each in _descendants(pid):
        try:
            total += _cpu_and_rss(each)[0]
        except (OSError, StopIteration):
            pass  # ended meanwhile
    return total


class _Client:
    """Plain JSON-RPC over streamable HTTP, on one kept-alive connection."""

    def __init__(self, port: int) -> None:
        import http.client

        self.connection = http.client.HTTPConnection(
            "127.0.0.1", port, timeout=LOAD_PATIENCE
        )
        self.headers = {
            "Content-Type": "application/json",
            "Accept": "application/json, text/event-stream",
        }

    def send(self, ident: int, method: str, **params: Any) -> Any:
        message: dict[str, Any] = {"jsonrpc": "2.0", "method": method, "params": params}
        if ident:
            message["id"] = ident
        self.connection.request(
            "POST", "/mcp", json.dumps(message).encode(), self.headers
        )
        response = self.connection.getresponse()
        body = response.read().decode()
        session = response.getheader("mcp-session-id")
        if session:
            self.headers["Mcp-Session-Id"] = session
        if not ident:
            return None
        if response.status != 200:
            raise ValueError(f"HTTP {response.status}: {body[:200]}")
        if "text/event-stream" in (response.getheader("content-type") or ""):
            body = next(
                line[5:] for line in body.splitlines() if line.startswith("data:")
            )
        answer = json.loads(body)
        if "result" not in answer:
            raise ValueError(str(answer)[:200])
        return answer["result"]

    def start(self) -> None:
        info = {"name": "bench", "version": "1"}
        hello = self.send(
            1,
            "initialize",
            protocolVersion="2025-11-25",
            capabilities={},
            clientInfo=info,
        )
        self.headers["MCP-Protocol-Version"] = hello["protocolVersion"]
        self.send(0, "notifications/initialized")


def _load_round(port: int, call: tuple[str, Any], calls: int) -> tuple[int, int, int]:
    """``calls`` tools/call requests from ``LOAD_CLIENTS`` threads: (answered,
    errors, lost)."""
    import threading

    name, arguments = call
    counts = {"ok": 0, "errors": 0, "lost": 0}
    lock = threading.Lock()
    share = [
        calls // LOAD_CLIENTS + (i < calls % LOAD_CLIENTS) for i in range(LOAD_CLIENTS)
    ]

    def client(number: int) -> None:
        try:
            session = _Client(port)
            session.start()
        except Exception:
            with lock:
                counts["lost"] += share[number]
            return
        for ident in range(2, 2 + share[number]):
            try:
                result = session.send(
                    ident, "tools/call", name=name, arguments=arguments
                )
                outcome = "errors" if result.get("isError") else "ok"
            except (OSError, ValueError, StopIteration):
                outcome = "lost"
                session = _Client(port)  # a fresh connection for the next
                try:
                    session.start()
                except Exception:
                    pass
            with lock:
                counts[outcome] += 1

    threads = [threading.Thread(target=client, args=(i,)) for i in range(LOAD_CLIENTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return counts["ok"], counts["errors"], counts["lost"]


def _ours(workers: int) -> Callable[[int], list[str]]:
    """The command line of skillc's server with ``workers`` on a port."""

    def command(port: int) -> list[str]:
        line = [sys.executable, "-m", "generated", "mcp", "--http", "--stateless"]
        return [*line, "--port", str(port), "--workers", str(workers)]

    return command


def _peer(workers: int) -> Callable[[int], list[str]]:
    """The command line of the peer (``PEER_APP``) with ``workers`` on a port."""

    def command(port: int) -> list[str]:
        line = [sys.executable, "-m", "uvicorn", "peer_app:app", "--log-level", "error"]
        return [*line, "--port", str(port), "--workers", str(workers)]

    return command


class _Server(NamedTuple):
    process: subprocess.Popen[bytes]
    port: int
    call: tuple[str, Any]


def _start(
    project: Path, command: Callable[[int], list[str]], call: tuple[str, Any]
) -> _Server:
    """The server ``command`` gives, started on a free loopback port, to be loaded
    with ``call`` (not yet ready)."""
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {**os.environ, "PYTHONPATH": str(project), "PYTHONDONTWRITEBYTECODE": "1"}
    process = subprocess.Popen(
        command(port), cwd=project, env=env, stderr=subprocess.DEVNULL
    )
    return _Server(process, port, call)


def _ready(server: _Server) -> None:
    """Once the server accepts connections and every process of it has started (its
    CPU time still for half a second), warmed up as the module docstring says."""
    import socket
    import time

    until = time.monotonic() + LOAD_PATIENCE
    while True:
        try:
            socket.create_connection(("127.0.0.1", server.port), timeout=1).close()
            break
        except OSError:
            if time.monotonic() > until or server.process.poll() is not None:
                raise RuntimeError(f"the server {server.process.args} did not start")
            time.sleep(0.2)
    spent = _tree_cpu(server.process.pid)
    while True:
        time.sleep(0.5)
        spent, before = _tree_cpu(server.process.pid), spent
        if spent - before < QUIET:
            break
        if time.monotonic() > until:
            raise RuntimeError(f"the server {server.process.args} never went idle")
    for _ in range(WARM_ROUNDS):
        _load_round(server.port, server.call, 2 * LOAD_CLIENTS)


def _measured(server: _Server) -> tuple[int, int, int, float]:
    """One round: (answered, errors, lost, server CPU seconds per answered call)."""
    before = _tree_cpu(server.process.pid)
    ok, errors, lost = _load_round(server.port, server.call, LOAD_CALLS)
    spent = _tree_cpu(server.process.pid) - before
    return ok, errors, lost, spent / max(ok + errors, 1)


def _stop(server: _Server) -> None:
    for pid in reversed(_descendants(server.process.pid)):  # only the server's own
        try:
            os.kill(pid, 9)
        except OSError:
            pass
    server.process.wait()


def load(project: Path, Figure: Any, runs: int) -> list[Line]:
    """The load test of the module docstring: its rows."""
    chosen = json.loads(
        subprocess.run(
            [sys.executable, "-c", CHOOSE],
            cwd=project,
            env={**os.environ, "PYTHONPATH": str(project)},
            check=True,
            capture_output=True,
            text=True,
        ).stdout
    )
    _, _, arguments, name, peer_name = chosen[1]
    (project / "peer_app.py").write_text(PEER_APP)
    plan = [("ours", workers, _ours(workers), name) for workers in LOAD_WORKERS]
    plan += [("peer", workers, _peer(workers), peer_name) for workers in (1, 4)]
    servers: dict[tuple[str, int], _Server] = {}
    rounds: dict[tuple[str, int], list[tuple[int, int, int, float]]] = {}
    try:
        for who, workers, command, tool in plan:
            servers[who, workers] = _start(project, command, (tool, arguments))
        for server in servers.values():
            _ready(server)
        for _ in range(max(runs, 1)):
            for key, server in servers.items():
                rounds.setdefault(key, []).append(_measured(server))
    finally:
        for server in servers.values():
            _stop(server)
    for key in (("peer", 1), ("peer", 4)):
        answered = sum(ok for ok, *_ in rounds[key])
        if answered != LOAD_CALLS * len(rounds[key]):  # it did other work: no figure
            raise RuntimeError(f"the HTTP peer answered {answered} of all its calls")
    per_call = {key: [cpu * 1e6 for *_, cpu in done] for key, done in rounds.items()}
    rows: list[Line] = []
    for workers in LOAD_WORKERS:
        done = rounds["ours", workers]
        bad = sum(errors + lost for _, errors, lost, _ in done)
        bad += sum(LOAD_CALLS - ok - errors - lost for ok, errors, lost, _ in done)
        rows.append(
            (
                f"MCP --http load, {workers} worker(s): errors + lost of "
                f"{LOAD_CALLS * len(done)}",
                float(bad),
                "calls",
                None,
                None,
                "== 0",
                "yes" if bad == 0 else "NO",
            )
        )
    ours = {workers: per_call["ours", workers] for workers in LOAD_WORKERS}
    made = [
        Figure(
            f"MCP --http CPU per call, {workers} workers / 1 (500 tools)",
            ours[workers],
            ours[1],
            1.25,
            "us",
        )
        for workers in LOAD_WORKERS[1:]
    ]
    made.append(
        Figure(
            "MCP --http CPU per call / peer, 1 worker (500 tools)",
            ours[1],
            per_call["peer", 1],
            0.9,
            "us",
        )
    )
    made.append(
        Figure(
            "  the peer's own, 4 workers / 1 (for scale)",
            per_call["peer", 4],
            per_call["peer", 1],
            None,
            "us",
        )
    )
    return [*rows, *(figure.row() for figure in made)]
