"""What the no-op check and the loaders' memo compare: each input file's sha256, real
path and size, and whether the output folder still holds what a lock lists."""

from __future__ import annotations

import hashlib
import json
import os
import stat
from pathlib import Path

from . import writer
from .ir import UNREADABLE


def read(path: str, folders: dict[str, str] | None = None) -> tuple[str, str, int]:
    """An input's sha256 (``UNREADABLE`` when it is not a regular file that can be
    read), its real path (a link's target changes what its loader says:
    ``symlink-outside-project``) and its size in bytes, read from the same bytes.
    ``folders``: real paths of folders met before."""
    real = _real(path, {} if folders is None else folders)
    digest = hashlib.sha256()
    size = 0
    try:
        with open(os.open(path, os.O_RDONLY | os.O_NONBLOCK), "rb") as handle:
            if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
                raise OSError("not a regular file")
            while chunk := handle.read(1 << 20):
                digest.update(chunk)
                size += len(chunk)
    except OSError:
        return UNREADABLE, real, 0
    return digest.hexdigest(), real, size


def _real(path: str, folders: dict[str, str]) -> str:
    """``os.path.realpath(path)``, each folder resolved once (kept in ``folders``):
    realpath looks at every part of every path: 0.05 s of CPU for the 1,000 skills of
    tests/bench.py (a no-op rebuild is 0.4 s), this 0.02 s."""
    folder, name = os.path.split(path)
    if not folder or name in ("", ".", "..") or os.path.islink(path):
        return os.path.realpath(path)
    real = folders.get(folder)
    if real is None:
        real = folders[folder] = _real(folder, folders)
    return os.path.join(real, name)


def holds(out_dir: Path, lock_digest: str) -> bool:
    """Whether the output folder holds what the lock of digest ``lock_digest`` lists,
    byte for byte, and nothing else."""
    try:
        data = (out_dir / writer.LOCK).read_bytes()
        if hashlib.sha256(data).hexdigest() != lock_digest:
            return False
        lock = json.loads(data)
        prefix = lock["config"]["out"] + "/"
        outputs = {o["path"][len(prefix) :]: o["sha256"] for o in lock["outputs"]}
    except (OSError, ValueError, KeyError, TypeError):
        return False
    return writer.holds(out_dir, {**outputs, writer.LOCK: lock_digest})
