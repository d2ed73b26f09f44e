"""Issue 41, finding 13: no process a call starts outlives the call, whatever it did to
get away from a group kill: a session of its own (``setsid``), a double fork that
orphans it, a process group of its own, an environment of its own. Each call runs in a
fresh process (``python -c``), as an agent's host would make it; the test then looks for
the processes the command left (their pids written to a file)."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from security_kit import canary, gone, guarded  # noqa: F401 - fixtures

# A command that leaves a sleeping process behind in each way, writes the pids, then
# exits at once ("exits") or sleeps past the call's deadline ("sleeps").
LEAVE = """
import os, subprocess, sys, time
pidfile, parent = sys.argv[1], sys.argv[2]
sleep = [sys.executable, "-c", "import time; time.sleep(300)"]
left = [
    subprocess.Popen(sleep, start_new_session=True).pid,  # setsid
    subprocess.Popen(sleep, process_group=0).pid,  # a group of its own
    subprocess.Popen(sleep, start_new_session=True, env={}).pid,  # no environment
]
middle = os.fork()  # a double fork: the grandchild is orphaned at once
if middle == 0:
    grandchild = os.fork()
    if grandchild == 0:
        os.setsid()
        time.sleep(300)
        os._exit(0)
    with open(pidfile + ".orphan", "w") as handle:
        handle.write(str(grandchild))
    os._exit(0)
os.waitpid(middle, 0)
left.append(int(open(pidfile + ".orphan").read()))
with open(pidfile, "w") as handle:
    handle.write(" ".join(map(str, left)))
print("left", len(left))
sys.stdout.flush()
if parent == "sleeps":
    time.sleep(300)
"""

# Run in a fresh process: the built package's batch.run (a command) or the script
# executor's tool, and what the call answered.
CALL = """
import json, sys
import guarded
how, pidfile, parent, script = sys.argv[1:5]
if how == "command":
    run = guarded.batch.run.using(confirm=True)
    result = run(command=[sys.executable, script, pidfile, parent], timeout_sec=2)
else:
    result = guarded.hostile.detached(pidfile=pidfile)
print(json.dumps([result.ok, result.error and result.error.code]))
"""


def _left(pidfile: Path) -> list[int]:
    return [int(pid) for pid in pidfile.read_text().split()]


def _kill(pids: list[int]) -> None:
    """The test's own clean-up of what a failing run left: by pid, one by one."""
    for pid in pids:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, signal.SIGKILL)


def _call(guarded: Any, tmp_path: Path, how: str, parent: str) -> tuple[Any, Path]:
    project = Path(guarded.__file__).parent.parent
    script = tmp_path / "leave.py"
    script.write_text(LEAVE)
    pidfile = tmp_path / "pids"
    done = subprocess.run(
        [sys.executable, "-c", CALL, how, str(pidfile), parent, str(script)],
        cwd=project,
        env={**os.environ, "PYTHONPATH": str(project)},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout), pidfile


@pytest.mark.parametrize("parent", ["exits", "sleeps"])
def test_a_command_leaves_no_process_behind(
    guarded: Any, tmp_path: Path, parent: str
) -> None:
    answer, pidfile = _call(guarded, tmp_path, "command", parent)
    left = _left(pidfile)
    try:
        assert len(left) == 4
        if parent == "exits":
            assert answer == [True, None]
        else:  # stopped at its deadline
            assert answer == [False, "timeout"]
        assert [pid for pid in left if not gone(pid)] == []
    finally:
        _kill(left)


def test_a_scripts_setsid_grandchild_ends_with_the_call(
    guarded: Any, tmp_path: Path
) -> None:
    # the script exits at once; its grandchild, in a session of its own, holds stdout
    answer, pidfile = _call(guarded, tmp_path, "script", "exits")
    left = _left(pidfile)
    try:
        assert answer == [True, None]
        assert gone(left[0])
    finally:
        _kill(left)
