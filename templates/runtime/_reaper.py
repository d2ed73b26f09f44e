"""What a script or command started for a tool call runs under, on Linux: the keeper of
every process the call starts (``_processes.stream`` starts it; it imports nothing of
the package).

``python -I -S _reaper.py FD COMMAND...`` makes itself the subreaper of what it starts
(``PR_SET_CHILD_SUBREAPER``), starts COMMAND on its own standard streams and waits for
it. A process COMMAND leaves behind is orphaned to this one, never to init, whatever it
did to get away: a session of its own (``setsid``), another process group, a double
fork. When COMMAND exits, or when the socket FD says stop (the host's deadline, or the
host gone: its end closed), every such process is killed and reaped, then this one
exits as COMMAND did (its status, or its signal). If COMMAND cannot be started, its
``errno`` is written to FD and the exit status is 127.

Why a process of its own: a process group or a session does not hold a ``setsid``
grandchild, and Linux has no kill-by-session; making the host process a subreaper
would make it the parent of every orphan of everything it runs (a library cannot take
that over from its application); a cgroup or a PID namespace needs privileges or a
delegation most machines do not give. A subreaper keeps the whole tree, and needs
nothing but ``prctl``. Its cost is a second, small interpreter start per call (``-I
-S``: no site packages), which the scripts' and commands' own start outweighs.
"""

from __future__ import annotations

import ctypes
import os
import select
import sys
import time

PR_SET_CHILD_SUBREAPER = 36
SPAWN_FAILED = 127


def main(argv: list[str]) -> None:
    control = int(argv[1])
    os.set_inheritable(control, False)
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)  # best effort: a group kill is left
    # the C module: ``signal`` (and ``importlib``) would be a third of this start
    signals = __import__("_signal")
    try:  # with the signals Python ignores (SIGPIPE, SIGXFSZ) back to their default
        pid = os.posix_spawnp(
            argv[2], argv[2:], os.environ, setsigdef=(signals.SIGPIPE, signals.SIGXFSZ)
        )
    except OSError as exc:
        os.write(control, str(exc.errno or 0).encode())
        os._exit(SPAWN_FAILED)
    null = os.open(os.devnull, os.O_RDWR)  # the streams are COMMAND's now
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    status = wait(pid, control)
    end_all(os.getpid())
    if status is None:  # told to stop
        os._exit(SPAWN_FAILED + 10)
    code = os.waitstatus_to_exitcode(status)
    if code < 0:  # ended by a signal: end by it too
        signals.signal(-code, signals.SIG_DFL)
        os.kill(os.getpid(), -code)
        code = 128 - code
    os._exit(code)


def wait(pid: int, control: int) -> int | None:
    """COMMAND's wait status once it has exited; None when ``control`` says stop
    first (readable: data, or its other end closed)."""
    try:
        ended: int | None = os.pidfd_open(pid)
    except OSError:  # a kernel older than 5.3: poll
        ended = None
    watched = [control] if ended is None else [control, ended]
    while True:
        ready, _, _ = select.select(watched, [], [], 0.05 if ended is None else None)
        if control in ready:
            return None
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return status


def end_all(me: int) -> None:
    """Kill every process below this one and reap them, until none is left: each
    round kills the children there are (a killed parent's children come here next)."""
    while True:
        try:
            while os.waitpid(-1, os.WNOHANG)[0]:
                pass
        except ChildProcessError:
            return
        for pid in children(me):
            try:
                os.kill(pid, 9)  # SIGKILL
            except ProcessLookupError:
                pass
        time.sleep(0.001)


def children(me: int) -> list[int]:
    """The processes whose parent is ``me``, from ``/proc`` (``/proc/<pid>/task/*/
    children`` is not in every kernel)."""
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as handle:
                stat = handle.read()
        except OSError:  # gone meanwhile
            continue
        # pid (comm) state ppid ...: comm may hold spaces and parentheses
        fields = stat[stat.rfind(b")") + 2 :].split()
        if len(fields) > 1 and int(fields[1]) == me:
            found.append(int(name))
    return found


if __name__ == "__main__":
    main(sys.argv)
