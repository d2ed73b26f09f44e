"""The processes of the script and cli executors and of the ``batch`` built-ins: started
without a shell (unless ``batch.run(shell=True)``), with only an allowlisted part of the
environment, their output read as it comes and cut at ``max-output-bytes``, and none of
them left running once the call is over.

On Linux each call's command runs under ``_reaper.py``, which keeps every process the
command starts, whatever session or group it moves to, and kills them all when the
command exits or when told to stop (its module says why a process of its own). The
command runs in the reaper's process group, a session of its own, so that a kill of
the group stops both whatever happens to the reaper. Elsewhere the command runs in a
session of its own, and its group is killed when the call ends.
"""

from __future__ import annotations

import contextlib
import json
import os
import selectors
import signal
import socket
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any, NamedTuple

from . import _secrets, _settings
from ._executors import Deadline, Failure, Output, _cut
from ._tools import shortened

CHUNK = 65536
REAPER = str(Path(__file__).with_name("_reaper.py"))
SPAWN_FAILED = 127  # the reaper's status when the command could not start
# Seconds the reaper has to end what is left of a call, before its group is killed.
ENDING = 2.0
# What a script or command sees of this process's environment: enough to run (find
# programs, a home, a locale, a temporary folder), never a credential. Its executor's
# ``env`` adds the variables it names.
ENVIRONMENT = frozenset(
    {
        "PATH",
        "HOME",
        "USER",
        "LOGNAME",
        "SHELL",
        "LANG",
        "LANGUAGE",
        "TZ",
        "TERM",
        "TMPDIR",
        "TEMP",
        "TMP",
        "SYSTEMROOT",
        "COMSPEC",
        "PATHEXT",
        "WINDIR",
        "PYTHONPATH",
        "PYTHONHOME",
        "PYTHONIOENCODING",
        "PYTHONUTF8",
        "PYTHONDONTWRITEBYTECODE",
        "VIRTUAL_ENV",
        "NODE_PATH",
        "SKILLC_SOURCE_ROOT",
    }
)


def environment() -> dict[str, str]:
    """What a process started for a call sees of this one's environment: the variables
    of ``ENVIRONMENT`` and the locale's ``LC_*``."""
    return {
        name: value
        for name, value in os.environ.items()
        if name in ENVIRONMENT or name.startswith("LC_")
    }


class Streams(NamedTuple):
    """What a process wrote, cut at the output limit; its exit status (None: killed
    at the deadline while still running)."""

    status: int | None
    stdout: bytes
    stderr: bytes
    truncated: bool


class _Started(NamedTuple):
    process: subprocess.Popen[bytes]
    control: socket.socket | None  # to the reaper: closed, it ends the call's processes


def _start(
    argv: list[str] | str,
    cwd: Path | str | None,
    env: Mapping[str, str],
    stdin: bytes | None,
    shell: bool,
) -> _Started:
    """The command started (under the reaper where there is one), in a session of its
    own; ``cannot-run`` when it cannot start."""
    keep = sys.platform.startswith("linux") and bool(sys.executable)
    control, given = socket.socketpair() if keep else (None, None)
    words = argv
    if given is not None:  # a shell's command line: the shell Popen would run
        command = ["/bin/sh", "-c", argv] if isinstance(argv, str) else argv
        words = [sys.executable, "-I", "-S", REAPER, str(given.fileno()), *command]
    try:
        process = subprocess.Popen(
            words,
            cwd=cwd,
            shell=shell and given is None,
            env=dict(env),
            stdin=subprocess.PIPE if stdin else subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
            pass_fds=() if given is None else (given.fileno(),),
        )
    except (OSError, ValueError) as exc:  # ValueError: a NUL in an argument
        if control is not None:
            control.close()
        name = argv if isinstance(argv, str) else argv[0]
        raise Failure(
            "cannot-run", f"{shortened(name)}: {getattr(exc, 'strerror', exc)}"
        ) from None
    finally:
        if given is not None:
            given.close()
    return _Started(process, control)


def stream(
    argv: list[str] | str,
    cwd: Path | str | None,
    deadline: Deadline,
    stdin: bytes | None,
    env: Mapping[str, str],
    shell: bool = False,
) -> Streams:
    """Run a command with the environment ``env``. Its output is read as it comes;
    once stdout passes ``max-output-bytes`` it is stopped. Once it has exited (and,
    under the reaper, every process it started with it), what it wrote is read and the
    call returns, even when a process beyond the reaper's reach still holds a pipe
    open; at the deadline it is stopped and the call returns."""
    started = _start(argv, cwd, env, stdin, shell)
    process = started.process
    ended = _ended(process)  # readable once the process has exited (Linux)
    with selectors.DefaultSelector() as selector:
        pipes = _Pipes(process, selector, stdin, ended)
        try:
            pipes.run(deadline)
            pipes.drain()
            # past the limit, the rest of the output is not wanted: stop the process
            truncated = pipes.truncated
            status = process.poll() if truncated else process.wait(deadline.left())
        except (Failure, subprocess.TimeoutExpired):
            status = process.poll()
        finally:
            said = _end(started)
            if ended is not None:
                os.close(ended)
    for pipe in (process.stdin, process.stdout, process.stderr):
        if pipe is not None:
            pipe.close()
    if status == SPAWN_FAILED and said.isdigit():  # the reaper could not start it
        name = argv if isinstance(argv, str) else argv[0]
        raise Failure("cannot-run", f"{shortened(name)}: {os.strerror(int(said))}")
    kept = pipes.kept
    return Streams(status, bytes(kept[1]), bytes(kept[2]), pipes.truncated)


class _Pipes:
    """A started process's pipes on one selector: stdout (1) and stderr (2) kept up to
    the output limit as they come, stdin (0) fed as it takes it, and (3) the
    descriptor that says the process has exited, where there is one."""

    def __init__(
        self,
        process: subprocess.Popen[bytes],
        selector: selectors.BaseSelector,
        stdin: bytes | None,
        ended: int | None,
    ) -> None:
        self.process, self.selector, self.ended = process, selector, ended
        self.kept = {1: bytearray(), 2: bytearray()}
        self.open = {1, 2}
        self.pending = memoryview(stdin or b"")
        self.limit = _settings.MAX_OUTPUT_BYTES
        self.truncated = self.exited = False
        assert process.stdout is not None and process.stderr is not None
        selector.register(process.stdout.fileno(), selectors.EVENT_READ, 1)
        selector.register(process.stderr.fileno(), selectors.EVENT_READ, 2)
        if process.stdin is not None:
            os.set_blocking(process.stdin.fileno(), False)
            selector.register(process.stdin.fileno(), selectors.EVENT_WRITE, 0)
        if ended is not None:
            selector.register(ended, selectors.EVENT_READ, 3)

    def run(self, deadline: Deadline) -> None:
        """Until the process exits, stdout passes the limit or every pipe is closed
        (``Failure`` at the deadline)."""
        wait = 0.5 if self.ended is not None else 0.05
        while self.selector.get_map() and not self.truncated and not self.exited:
            for key, _ in self.selector.select(min(deadline.left(), wait)):
                if key.data == 0:
                    self.pending = _feed(
                        key.fd, self.pending, self.selector, self.process
                    )
                elif key.data == 3:
                    self.exited = True
                else:
                    self.read(key)
            if self.ended is None and self.process.poll() is not None:
                self.exited = True

    def drain(self) -> None:
        """Once exited, its output is in the pipes: take what is there, and wait for no
        process that keeps them open."""
        for _ in range(2 * (self.limit // CHUNK + 2)):
            if self.truncated or not self.exited:
                return
            ready = [k for k, _ in self.selector.select(0) if k.data in self.open]
            if not ready:
                return
            for key in ready:
                self.read(key)

    def read(self, key: selectors.SelectorKey) -> None:
        """Keep what a pipe has; stdout past the limit is truncated."""
        chunk = os.read(key.fd, CHUNK)
        if not chunk:
            self.selector.unregister(key.fd)
            self.open.discard(key.data)
            return
        room = self.limit + 1 - len(self.kept[key.data])
        self.kept[key.data] += chunk[: max(room, 0)]
        if key.data == 1 and room < len(chunk):
            self.truncated = True


def _ended(process: subprocess.Popen[bytes]) -> int | None:
    """A descriptor that becomes readable when ``process`` exits, where the system has
    one (Linux's pidfd); None: the caller polls."""
    try:
        return os.pidfd_open(process.pid)
    except (AttributeError, OSError):
        return None


def _feed(
    fd: int,
    pending: memoryview,
    selector: selectors.BaseSelector,
    process: subprocess.Popen[bytes],
) -> memoryview:
    """Write what stdin can take now; close it when all is written (or unwanted)."""
    try:
        pending = pending[os.write(fd, pending[:CHUNK]) :]
    except BrokenPipeError:
        pending = pending[len(pending) :]
    if not pending:
        selector.unregister(fd)
        assert process.stdin is not None
        process.stdin.close()
    return pending


def _end(started: _Started) -> bytes:
    """End what is left of the call: the reaper is told to stop (it kills every
    process the command started, and exits), then the group is killed (the reaper and
    the command, whatever the reaper could not do in ``ENDING`` seconds). What the
    reaper said: the ``errno`` of a command it could not start, else nothing."""
    process, control = started
    said = b""
    if control is not None:
        with contextlib.suppress(OSError):
            control.setblocking(False)
            said = control.recv(16)
        control.close()
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(ENDING)
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    try:
        process.wait(1)
    except subprocess.TimeoutExpired:
        pass
    return said


def run(
    argv: list[str],
    cwd: Path | None,
    deadline: Deadline,
    stdin: bytes | None,
    env: Mapping[str, str],
) -> Output:
    """A script's or command's call: its output (the ``{"ok", "data", "error"}``
    envelope unwrapped), or ``Failure`` at the deadline, a non-zero exit or an error
    the envelope reports."""
    done = stream(argv, cwd, deadline, stdin, env)
    limit = _settings.MAX_OUTPUT_BYTES
    text, truncated = _cut(done.stdout, limit)
    stderr, _ = _cut(done.stderr, limit)
    if done.status is None and not truncated:
        raise Failure(
            "timeout",
            f"{Path(argv[0]).name} ran past {deadline.seconds} s",
            True,
            stderr,
        )
    envelope = _envelope(text) if not truncated else None
    if done.status not in (0, None):
        message = f"exit status {done.status}"
        # the tail of what it said, cut where no secret in it is cut in two
        tail = _secrets.redact((stderr or text).strip())[-2000:]
        if envelope is not None and envelope[1] is not None:
            raise Failure(envelope[1][0], envelope[1][1], stderr=stderr)
        raise Failure(
            "exit-status", f"{message}: {tail}" if tail else message, stderr=stderr
        )
    if envelope is not None:
        data, error = envelope
        if error is not None:
            raise Failure(error[0], error[1], stderr=stderr)
        return Output(data, False, stderr)
    return Output(text, truncated, stderr)


def _envelope(text: str) -> tuple[Any, tuple[str, str] | None] | None:
    """``{"ok": ..., "data": ..., "error": ...}`` on stdout: (data, (code, message))."""
    stripped = text.strip()
    if not stripped.startswith("{"):
        return None
    try:
        value = json.loads(stripped)
    except (ValueError, RecursionError):
        return None
    if not isinstance(value, dict) or not isinstance(value.get("ok"), bool):
        return None
    if value["ok"]:
        return value.get("data"), None
    error = value.get("error")
    if isinstance(error, Mapping):
        return None, (
            str(error.get("code") or "tool-error"),
            str(error.get("message") or ""),
        )
    return None, ("tool-error", str(error or "the tool reported a failure"))
