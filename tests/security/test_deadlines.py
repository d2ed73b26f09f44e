"""Deadlines that hold: the call returns, and the processes it started are gone.

Nothing here asserts a wall-clock figure: each test bounds the work done (the call
returned at all; the process group is gone; the server wrote only part of its body)."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from security_kit import Quiet, canary, gone, guarded, returns, serve  # noqa: F401

DRIP_BYTES = 200
DRIPPED: list[int] = []


class Drip(Quiet):
    """Headers at once, then one byte of the body every 50 ms."""

    def do_GET(self) -> None:  # noqa: N802 - http.server's naming
        self.send_response(200)
        self.send_header("Content-Length", str(DRIP_BYTES))
        self.end_headers()
        sent = 0
        try:
            for _ in range(DRIP_BYTES):
                self.wfile.write(b"x")
                self.wfile.flush()
                sent += 1
                time.sleep(0.05)
        except OSError:
            pass  # the client went away
        DRIPPED.append(sent)


def _pid(path: Path) -> int:
    return int(path.read_text())


def test_timeout_kills_the_whole_process_group(guarded: Any, tmp_path: Path) -> None:
    pidfile = tmp_path / "pid"
    result = returns(lambda: guarded.hostile.sleeper(pidfile=str(pidfile)))
    assert result.error.code == "timeout" and result.attempts == 1
    assert gone(_pid(pidfile))  # the grandchild went with its group


def test_call_returns_at_deadline_when_a_grandchild_holds_the_pipe(
    guarded: Any, tmp_path: Path
) -> None:
    pidfile = tmp_path / "pid"
    result = returns(
        lambda: guarded.hostile.sleeper(pidfile=str(pidfile), parent_exits=True)
    )
    assert result.ok and result.data == "parent done\n"
    assert gone(_pid(pidfile))


def test_output_is_cut_while_it_is_read(guarded: Any) -> None:
    # the script prints forever: only reading it as a stream lets the call end
    result = returns(guarded.hostile.flood)
    assert result.ok and result.truncated
    assert result.data.endswith("[... output cut at 4096 bytes by skillc ...]")


def test_slow_drip_server_cannot_outlast_the_deadline(
    guarded: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    DRIPPED.clear()
    with serve(Drip) as base:
        monkeypatch.setenv("SECURITY_TEST_BASE", base)
        result = returns(guarded.hostile.drip)
        assert result.error.code == "timeout"
        # one deadline for the call: no retry started after it was spent
        assert result.attempts == 1
        for _ in range(100):  # the server notices the client left at its next write
            if DRIPPED:
                break
            time.sleep(0.05)
    assert DRIPPED and DRIPPED[0] < DRIP_BYTES


def test_server_dripping_its_headers_cannot_outlast_the_deadline(
    guarded: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    sent: list[int] = []

    def drip_headers() -> None:
        connection, _ = listener.accept()
        count = 0
        try:
            connection.sendall(b"HTTP/1.1 200 OK\r\nX-Slow: ")
            for _ in range(DRIP_BYTES):
                connection.sendall(b"x")
                count += 1
                time.sleep(0.05)
        except OSError:
            pass  # the client went away
        sent.append(count)
        connection.close()

    thread = threading.Thread(target=drip_headers, daemon=True)
    thread.start()
    monkeypatch.setenv(
        "SECURITY_TEST_BASE", f"http://127.0.0.1:{listener.getsockname()[1]}"
    )
    try:
        result = returns(guarded.hostile.drip)
        thread.join(30)
    finally:
        listener.close()
    assert result.error.code == "timeout" and result.attempts == 1
    assert sent and sent[0] < DRIP_BYTES


def test_batch_timeout_kills_the_whole_process_group(
    guarded: Any, tmp_path: Path
) -> None:
    pidfile = tmp_path / "pid"
    spawn = (
        "import subprocess, sys, time; "
        "child = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(120)']); "
        f"open({str(pidfile)!r}, 'w').write(str(child.pid)); time.sleep(120)"
    )
    run = guarded.batch.run.using(confirm=True)
    result = returns(lambda: run(command=[sys.executable, "-c", spawn], timeout_sec=1))
    assert result.error.code == "timeout"
    assert gone(_pid(pidfile))


def test_a_grandchild_in_a_session_of_its_own_does_not_hold_the_call(
    guarded: Any, tmp_path: Path
) -> None:
    # The script exits at once; its grandchild (setsid: beyond the group kill) keeps
    # stdout open. The tool's deadline is 600 s: the call must not wait for it.
    pidfile = tmp_path / "pid"
    try:
        result = returns(lambda: guarded.hostile.detached(pidfile=str(pidfile)))
    finally:
        if pidfile.exists():  # the test's own process: ended here, by its id
            with contextlib.suppress(ProcessLookupError):
                os.kill(_pid(pidfile), signal.SIGKILL)
    assert result.ok and result.data == "parent done\n"
