"""File-system stamps: how a build with nothing to do knows it without walking the
source roots or reading one input.

As git's index does, a build records the stamp of each folder the discovery walk
listed (its mtime and ctime: adding, removing or renaming an entry changes both) and of
each input file (size, mtime, ctime, inode) beside the sha256 of its bytes. The next
build stats them: when every folder's stamp is the recorded one, the walk would find the
same things (so a build whose inputs changed reuses what it found), an input whose
stamp is the recorded one holds the same bytes, and one whose stamp changed is hashed
again (touched is not edited).

Racy stamps: a file changed twice within one tick of the file system's clock keeps its
mtime. So a stamp is trusted only when it is older than the start of the build that
recorded it by ``SETTLE_NS``, more than any file system's tick (FAT's is 2 s); a younger
one counts as changed (the input is hashed, the folders walked), and the build that
finds it so records it again, older by then.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
import hashlib
import os


SETTLE_NS = 3_000_000_000
Signature = tuple[int, int, int, int]  # size, mtime_ns, ctime_ns, inode
FileStamp = tuple[int, int, int, int, str]  # a signature, then the sha256 of the bytes
UNREADABLE: FileStamp = (-1, -1, -1, -1, "unreadable")


@dataclass(frozen=True, slots=True)
class Stamps:
    time: int  # time.time_ns() when the build that recorded them started
    settings: str  # a digest of what else the walk depends on (pipeline._walk_digest)
    # Each listed folder's (mtime_ns, ctime_ns); None when the walk cannot be replayed
    # from them (it followed a symbolic link or read a plugin's manifest).
    folders: dict[str, tuple[int, int]] | None
    files: dict[str, FileStamp]  # by path, each input file
    # What that walk found (its Discovery and diagnostics, pickled: unpickling them
    # imports the walk's code, which a no-op build never needs), so a build whose
    # folders are unchanged but some inputs' bytes are not need not walk again.
    walk: bytes | None = None


def settled(mtime_ns: int, ctime_ns: int, since: int) -> bool:
    """Whether a stamp taken by a build that started at ``since`` can be trusted."""
    return max(mtime_ns, ctime_ns) < since - SETTLE_NS


def hash_inputs(
    paths: tuple[str, ...],
    known: Stamps | None,
    contents: dict[str, bytes] | None = None,
) -> dict[str, FileStamp]:
    """Each file's stamp and sha256: the recorded one when its stamp is unchanged and
    settled, else read and hashed; the bytes of each file read go to ``contents`` (the
    loaders use them rather than reading the file again)."""
    recorded = {} if known is None else known.files
    result = {}
    for path in paths:
        old = recorded.get(path)
        if old is not None and _trusted(path, old, known):
            result[path] = old
            continue
        result[path], data = _hashed(path)
        if contents is not None and data is not None:
            contents[path] = data
    return result


def same_folders(known: Stamps, settings: str) -> bool:
    """Whether a walk would find what the one that recorded ``known`` found: the same
    settings, and every folder it listed keeps its settled stamp."""
    if known.settings != settings or known.folders is None:
        return False
    for folder, (mtime, ctime) in known.folders.items():
        try:
            current = folder_stamp(folder)
        except OSError:
            return False
        if current != (mtime, ctime) or not settled(mtime, ctime, known.time):
            return False
    return True


def restamp(known: Stamps, now: int) -> Stamps:
    """``known`` with every input's stamp taken again, hashing only the inputs whose
    stamp changed: ``known`` itself when none did, else a copy recording them."""
    files = hash_inputs(tuple(known.files), known)
    if files == known.files:
        return known
    return dataclasses.replace(known, time=now, files=files)


def same_bytes(first: Stamps, second: Stamps) -> bool:
    """Whether the two record the same inputs holding the same bytes."""
    return first.files.keys() == second.files.keys() and all(
        stamp[4] == second.files[path][4] for path, stamp in first.files.items()
    )


def signature(stat: os.stat_result) -> Signature:
    return stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns, stat.st_ino


def folder_stamp(path: str) -> tuple[int, int]:
    _, mtime, ctime, _ = signature(os.stat(path))
    return mtime, ctime


def _trusted(path: str, old: FileStamp, known: Stamps | None) -> bool:
    if known is None or not settled(old[1], old[2], known.time):
        return False
    try:
        return signature(os.stat(path)) == old[:4]
    except OSError:
        return False


def _hashed(path: str) -> tuple[FileStamp, bytes | None]:
    """The file's stamp, taken before it is read (a change while it is read leaves the
    stamp stale: the next build reads it again) and the sha256 of its bytes; and the
    bytes (None when it cannot be read)."""
    try:
        with open(path, "rb") as handle:
            stamp = signature(os.fstat(handle.fileno()))
            data = handle.read()
    except OSError:
        return UNREADABLE, None
    return (*stamp, hashlib.sha256(data).hexdigest()), data
