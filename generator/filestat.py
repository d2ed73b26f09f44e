"""File stats as the no-op check compares them (``digests.unchanged``), by path: apart
from discovered.py, whose dataclasses a build with nothing to do never needs."""

from __future__ import annotations

import os

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
