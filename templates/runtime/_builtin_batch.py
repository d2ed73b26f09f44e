"""The built-in ``batch`` tools: commands run as argument lists, never through a shell
unless the caller asks for one, in a folder inside the configured root. They run as
the script executor runs its processes (``_processes``): every process they start
ended at the timeout, or when the command exits, output cut at ``max-output-bytes`` as
it is read, and only the allowlisted part of the environment
(``_processes.ENVIRONMENT``)."""

from __future__ import annotations

import shlex
import shutil
import sys
from typing import Any

from ._builtin_file import PathError, inside
from . import _settings
from ._executors import Deadline, Failure, _cut, current_deadline
from ._processes import environment, stream
from ._tasks import split_words

INTERPRETERS = {".py": (sys.executable,), ".sh": ("bash",), ".js": ("node",)}


def run(
    command: str | list[str],
    shell: bool = False,
    timeout_sec: float = 60,
    cwd: str = ".",
) -> dict[str, Any]:
    folder = inside(cwd)
    if shell:
        text = command if isinstance(command, str) else shlex.join(command)
        return _run(text, str(folder), timeout_sec, shell=True)
    argv = split_words(command) if isinstance(command, str) else list(command)
    if not argv:
        raise ValueError("the command is empty")
    return _run(argv, str(folder), timeout_sec)


def script(
    path: str, args: list[str] | None = None, timeout_sec: float = 60
) -> dict[str, Any]:
    target = inside(path)
    interpreter = INTERPRETERS.get(target.suffix)
    if interpreter is None:
        raise PathError(f"{path!r}: no interpreter for {target.suffix or 'no suffix'}")
    if shutil.which(interpreter[0]) is None:
        raise PathError(f"{interpreter[0]} is not installed")
    argv = [*interpreter, str(target), *(args or [])]
    return _run(argv, str(target.parent), timeout_sec)


def _run(
    command: str | list[str], cwd: str, timeout_sec: float, shell: bool = False
) -> dict[str, Any]:
    # the command's own timeout, within what is left of the call's
    deadline = Deadline(min(timeout_sec, current_deadline().left()))
    done = stream(command, cwd, deadline, None, environment(), shell=shell)
    if done.status is None and not done.truncated:
        raise Failure("timeout", f"the command ran past {timeout_sec} s")
    return {
        "exit_code": -9 if done.status is None else done.status,  # -9: stopped
        "stdout": _cut(done.stdout, _settings.MAX_OUTPUT_BYTES)[0],
        "stderr": _cut(done.stderr, _settings.MAX_OUTPUT_BYTES)[0],
        "truncated": done.truncated,
    }
