"""File stats as the no-op check compares them (``digests.unchanged``), by path: apart
from discovered.py, whose dataclasses a build with nothing to do never needs. And
``read_regular``, how a file the user does not control the kind of is read."""

from __future__ import annotations

import os
import stat

UNREADABLE = "unreadable"  # the lock's digest of an input that could not be read

# A file's or folder's size, mtime, ctime and inode, as the no-op check compares them
# (writing to a file, or to a folder's entries, changes its ctime), by path.
Stat = list[int]
Seen = dict[str, Stat | None]


def stat_of(path: str) -> Stat | None:
    """The stat of ``path`` (through links), or None when it has none."""
    try:
        return stats(os.stat(path))
    except OSError:
        return None


def stats(info: os.stat_result) -> Stat:
    return [info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino]


def read_regular(path: str, limit: int) -> bytes | None:
    """The bytes of ``path`` when it is a regular file of at most ``limit`` bytes, else
    None (a link, FIFO, device, folder, a file too large or gone). Opened without
    following a last link nor waiting on a FIFO, judged by ``fstat`` of what was opened
    (nothing can be swapped in between), and never read past ``limit``: a file that
    grows while it is read is refused, not read whole."""
    try:
        handle = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return None
    try:
        info = os.fstat(handle)
        if not stat.S_ISREG(info.st_mode) or info.st_size > limit:
            return None
        with open(handle, "rb", closefd=False) as file:
            data = file.read(limit + 1)
    except OSError:
        return None
    finally:
        os.close(handle)
    return data if len(data) <= limit else None
