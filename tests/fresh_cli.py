"""``python -m skillc`` in a fresh process, for tests of what the command line does
(exit status, stderr, no traceback) that must not share state with pytest's process."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from conftest import SKILLC_PATH


def skillc(
    project: Path, *args: str, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    """``skillc -C project ARGS``; ``timeout`` guards against a hang, it times nothing."""
    paths = [*SKILLC_PATH, os.environ.get("PYTHONPATH", "")]
    path = os.pathsep.join(p for p in paths if p)
    env = {**os.environ, "PYTHONPATH": path, "PYTHONDONTWRITEBYTECODE": "1"}
    return subprocess.run(
        [sys.executable, "-m", "skillc", "-C", str(project), *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
        env=env,
    )


def clean(done: subprocess.CompletedProcess[str]) -> bool:
    """Whether the process ended without a traceback (skillc's internal-error exit)."""
    return done.returncode != 3 and "Traceback" not in done.stderr
