"""What the no-op check and the loaders' memo compare: each input file's sha256, real
path and size, and whether the output folder still holds what a build wrote."""

from __future__ import annotations

import hashlib
import os
import stat
from pathlib import Path

from . import writer
from .filestat import UNREADABLE, Seen, stat_of, stats


def read_all(
    paths: tuple[str, ...], seen: Seen, limit: int
) -> tuple[dict[str, tuple[str, str, int]], dict[str, bytes]]:
    """Each input's digest (``read``), its stat kept in ``seen``; and the bytes of
    those of at most ``limit`` bytes (``max-file-bytes``: a loader reads no larger
    file), for the loaders (``loaders.hashed``)."""
    folders: dict[str, str] = {}
    contents: dict[str, bytes] = {}
    return {
        path: read(path, folders, seen, contents, limit) for path in paths
    }, contents


def read(
    path: str,
    folders: dict[str, str] | None = None,
    seen: Seen | None = None,
    contents: dict[str, bytes] | None = None,
    limit: int = -1,
) -> tuple[str, str, int]:
    """An input's sha256 (``UNREADABLE`` when it is not a regular file that can be
    read), its real path (a link's target changes what its loader says:
    ``symlink-outside-project``) and its size in bytes, read from the same bytes.
    ``folders``: real paths of folders met before; ``seen``: where to keep the file's
    stat from before it was read (for ``unchanged``); ``contents``: where to keep its
    bytes when it has at most ``limit``."""
    real = _real(path, {} if folders is None else folders)
    digest = hashlib.sha256()
    chunks = []
    size = 0
    if seen is not None:
        seen[path] = None
    try:
        with open(os.open(path, os.O_RDONLY | os.O_NONBLOCK), "rb") as handle:
            info = os.fstat(handle.fileno())
            if not stat.S_ISREG(info.st_mode):
                raise OSError("not a regular file")
            if seen is not None:
                seen[path] = stats(info)
            while chunk := handle.read(min(info.st_size, 1 << 20) + 1):
                digest.update(chunk)
                size += len(chunk)
                if size <= limit:
                    chunks.append(chunk)
    except OSError:
        return UNREADABLE, real, 0
    if contents is not None and size <= limit:
        contents[path] = b"".join(chunks)
    return digest.hexdigest(), real, size


def same(
    paths: list[str],
    inputs: dict[str, tuple[str, str, int]],
    folders: dict[str, str],
    limit: int,
) -> bool:
    """Whether the inputs ``paths`` are still as ``read_all`` found them (``inputs``):
    their real paths, and the bytes of those a loader had to read from the file (larger
    than ``limit``, or unreadable: every other one it read as hashed)."""
    for path in paths:
        digest, real, size = inputs[path]
        if digest == UNREADABLE or size > limit:
            if read(path, folders) != inputs[path]:
                return False
        elif _real(path, folders) != real:
            return False
    return True


# A stat vouches for its file when it is older than this before the build that took it
# began: more than a tick of the clock file times come from (a few ms).
RACY_NS = 20_000_000


def unchanged(seen: Seen, started: int) -> bool:
    """Whether every file and folder a build that began at ``started`` (ns) saw (its
    ``Discovery.seen`` and its inputs' stats) has the stat it had: then a discovery
    would find the same inputs holding the same bytes, and the build is skipped
    without walking the sources or reading them.

    As git's index does it: a write changes a file's ctime, and an entry added,
    removed or renamed its folder's; nobody can set a ctime back. A stat from the
    clock tick the build began in, or later, may hide a change made after it was
    taken in the same tick: it is not trusted. The walk saw every folder it listed,
    and the folders and links in them, the hidden ones it does not walk too (a
    ``.claude-plugin/`` that gains a plugin.json). Not seen: a path a plugin manifest
    names two or more folders deep inside a folder the walk skips.

    `tests/bench.py --only repo,marketplace,skills --runs 3`, ratios to the floor,
    without (``--skillc`` main ae8e509) and with this check, in runs just after each
    other: no-op of the wshobson-agents marketplace (622 folders, 1,092 inputs) 2.52
    -> 1.04, of 1,000 skills 2.09 -> 1.08; this repository's skills/ (30 inputs,
    imports are most of it) 1.91 -> 1.83; one change unchanged (5 interleaved runs:
    2.22 s -> 2.24 s at the marketplace)."""
    for path, was in seen.items():
        now = stat_of(path)
        if now != was or (now is not None and max(now[1], now[2]) >= started - RACY_NS):
            return False
    return True


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


# An output file as the memo keeps it: [sha256, size, mtime_ns, ctime_ns, inode], or
# [sha256] alone when its stat cannot be trusted (it is read each time).
Kept = list[str | int]


def kept(out_dir: Path, files: dict[str, bytes]) -> dict[str, Kept]:
    """What the no-op check needs of the output folder that holds ``files``: each
    file's sha256 and its stat, taken from the file it reads (a file that does not hold
    those bytes gets no stat). 0.037 s of CPU at tests/bench.py's 1,000 skills (1,048
    files, 9.7 MB), mostly opening and reading them."""
    sums = {path: hashlib.sha256(data).hexdigest() for path, data in files.items()}
    return {
        path: _checked(out_dir, path, sha256) or [sha256]
        for path, sha256 in sums.items()
    }


def holds(
    out_dir: Path, outputs: dict[str, Kept], since: int
) -> tuple[dict[str, Kept], int] | None:
    """Whether the output folder holds exactly the files ``outputs`` lists, byte for
    byte: None, or the outputs with their stats as they are now and how many files
    were read to know it.

    Done the way git's index does it: a file whose size, mtime, ctime and inode are
    those kept holds what it held (a write changes its ctime, which nobody can set), so
    it is not read. Only a file whose stat differs is hashed, and one "racily clean": a
    stat from the clock tick ``since`` (when the memo was written) or later may hide an
    edit made just after it was taken. At tests/bench.py's 1,000 skills (1,048 files,
    9.7 MB) hashing every file took 0.045 s of a no-op rebuild's 0.35 s (CPU), the
    stats 0.009 s. The no-op, with discovered.py and the fingerprint by stat: 2.58x
    its floor before, 1.48x after (medians of 7 interleaved pairs, a loaded machine)."""
    try:
        found = writer.existing(out_dir)
    except OSError:
        return None
    if found.keys() != outputs.keys():
        return None
    now: dict[str, Kept] = {}
    read = 0
    for path, kind in found.items():
        sha256, *was = outputs[path]
        if kind != "file":
            return None
        try:
            info = os.lstat(os.path.join(out_dir, path))
        except OSError:
            return None
        if stats(info) == was and max(info.st_mtime_ns, info.st_ctime_ns) < since:
            now[path] = outputs[path]
            continue
        again = _checked(out_dir, path, str(sha256))
        if again is None:
            return None
        now[path] = again
        read += 1
    return now, read


def _checked(out_dir: Path, path: str, sha256: str) -> Kept | None:
    """[sha256, *stat] of the output file ``path`` when it holds bytes of that sha256
    (the stat from before they were read: an edit after it changes the ctime), else
    None."""
    try:
        flags = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK
        with open(os.open(os.path.join(out_dir, path), flags), "rb") as handle:
            info = os.fstat(handle.fileno())
            if not stat.S_ISREG(info.st_mode):
                return None
            if hashlib.sha256(handle.read()).hexdigest() != sha256:
                return None
    except OSError:
        return None
    return [sha256, *stats(info)]
