"""The lock a build is compared with for breaking changes: the one on disk (what the
last ``skillc build`` wrote), or the one a git ref holds (``origin/main``: what a pull
request changes). Read only, never run."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

from ..config import Config, ConfigError
from ..writer import LOCK

GIT_TIMEOUT_SEC = 30


def lock(config: Config, against: str) -> tuple[dict[str, Any] | None, str]:
    """The baseline lock (None when there is none) and where it came from."""
    if against == "lock":
        path = config.out_dir / LOCK
        return (
            _parsed(path.read_bytes() if path.is_file() else None),
            "the lock on disk",
        )
    return _parsed(_git_file(config.root.resolve(), against, f"{config.out}/{LOCK}")), (
        f"the lock at {against}"
    )


def _parsed(data: bytes | None) -> dict[str, Any] | None:
    if data is None:
        return None
    try:
        value = json.loads(data)
    except ValueError:
        return None  # not a lock skillc wrote: no baseline
    return value if isinstance(value, dict) else None


def _git_file(project: Path, ref: str, path: str) -> bytes | None:
    """``path`` (project-relative) at ``ref``; None when the ref does not hold it. A ref
    that git does not know is a usage error."""
    if not ref or ref.startswith("-") or any(c.isspace() or ord(c) < 32 for c in ref):
        raise ConfigError(f"--against {ref!r}: not a git ref")
    commit = _git(
        project,
        "rev-parse",
        "--verify",
        "--quiet",
        "--end-of-options",
        f"{ref}^{{commit}}",
    )
    if commit is None:
        raise ConfigError(f"--against {ref}: git knows no such commit here")
    return _git(project, "show", f"{commit.decode().strip()}:./{path}")


def _git(project: Path, *args: str) -> bytes | None:
    try:
        done = subprocess.run(
            ["git", "--no-pager", "-c", "core.fsmonitor=false", *args],
            cwd=project,
            capture_output=True,
            timeout=GIT_TIMEOUT_SEC,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise ConfigError(f"--against: git could not be run ({exc})") from None
    return done.stdout if done.returncode == 0 else None
