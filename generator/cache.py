"""A local build cache, ``.skillc-cache/`` in the project folder, so that rebuilds skip work.

It never changes output: a build with an empty cache writes the same bytes (tested).
- ``state``: the inputs key of the last written build, the outputs as written (size,
  mtime and sha256) and its diagnostics. When the key matches and the outputs on disk are
  untouched, there is nothing to do, and the loaders and emitters are not even imported.
- ``memo``: loader results by the hash of what they read, and each tool's view (its
  fragments of every output file included) by the hash of its part of the model, so a
  one-skill change re-parses and re-renders one skill. It is an SQLite table read and
  written one entry at a time: a rebuild writes only the entries that changed.

The key covers the generator's own code and templates, so an upgraded or edited skillc
starts from an empty cache. A cache that cannot be read is ignored.
"""

from __future__ import annotations

import contextlib
import copyreg
import dataclasses
import hashlib
import os
import pickle
import sqlite3
import sys
import time
import types
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from generator import __version__
from generator.diagnostics import Diagnostic
from generator.resources import templates_dir
from generator.stamps import FileStamp, Stamps, settled

CACHE_DIR = ".skillc-cache"


def _mapping_proxy(data: dict[str, Any]) -> types.MappingProxyType[str, Any]:
    return types.MappingProxyType(data)


# The model's read-only mappings are pickled as the dicts they wrap.
copyreg.pickle(types.MappingProxyType, lambda proxy: (_mapping_proxy, (dict(proxy),)))
Stat = tuple[int, int, str]  # size, mtime_ns, sha256
# A file's device, inode, size and mtime, from its own lstat: a folder listing's inode
# numbers are not used, as FUSE and overlay file systems may list others than stat gives.
Identity = tuple[int, int, int, int]


@dataclass
class State:
    key: str = ""
    outputs: dict[str, Stat] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    stamps: Stamps | None = None  # of the inputs and the folders the walk listed
    token: str = ""  # set when stored whole: which state its ``Changes`` apply to


# A state is stored whole in ``state.pickle`` (megabytes at 20,000 skills) only now and
# then: a build that changes a few of its entries stores the changes since the whole
# one, in ``state-since.pickle``, so a one-change rebuild writes what changed.
STATE, CHANGES = "state", "state-since"
# Changes since the whole state that make a new whole one worth writing: more than
# this share of its entries, or than a few (a small project's).
WHOLE_SHARE, WHOLE_LEAST = 8, 64


@dataclass
class Changes:
    """A state as the changes from the whole one whose ``token`` is ``base``; an entry
    that is None is one the whole state has and this one has not."""

    base: str = ""
    key: str = ""
    outputs: dict[str, Stat | None] = field(default_factory=dict)
    diagnostics: list[Diagnostic] | None = None  # None: the whole state's
    time: int = 0  # its stamps' (the other stamps but files are the whole state's)
    files: dict[str, FileStamp | None] = field(default_factory=dict)

    def applied(self, whole: State, stamps: Stamps) -> State:
        """The state, from the whole one and its ``stamps``."""
        stamps = dataclasses.replace(
            stamps, time=self.time, files=_applied(stamps.files, self.files)
        )
        return State(
            self.key,
            _applied(whole.outputs, self.outputs),
            whole.diagnostics if self.diagnostics is None else self.diagnostics,
            stamps,
            whole.token,
        )


def changes(whole: State, state: State) -> Changes | None:
    """``state`` as changes from ``whole``; None when it is better stored whole: few
    changes, to inputs that the same walk found."""
    old, new = whole.stamps, state.stamps
    if not whole.token or old is None or new is None:
        return None
    if (old.settings, old.walk, old.folders) != (new.settings, new.walk, new.folders):
        return None
    outputs = _changed(whole.outputs, state.outputs)
    files = _changed(old.files, new.files)
    entries = len(whole.outputs) + len(old.files)
    if len(outputs) + len(files) > max(WHOLE_LEAST, entries // WHOLE_SHARE):
        return None
    same = (
        state.diagnostics is whole.diagnostics or state.diagnostics == whole.diagnostics
    )
    diagnostics = None if same else state.diagnostics
    return Changes(whole.token, state.key, outputs, diagnostics, new.time, files)


V = TypeVar("V")


def _changed(old: dict[str, V], new: dict[str, V]) -> dict[str, V | None]:
    found: dict[str, V | None] = dict(new.items() - old.items())  # (compared in C)
    found.update(dict.fromkeys(old.keys() - new.keys()))
    return found


def _applied(old: dict[str, V], changed: dict[str, V | None]) -> dict[str, V]:
    result = old.copy()
    for key, value in changed.items():
        if value is None:
            result.pop(key, None)
        else:
            result[key] = value
    return result


# Entries are kept in this many pickles (by the last hex digits of their key), or more
# in a memo made with more entries: a rebuild that reads a few entries unpickles their
# shards whole, so a shard holds about ``SHARD_ENTRIES`` at any size.
SHARDS, MOST_SHARDS, SHARD_ENTRIES = 256, 1 << 16, 8
# A new memo of at least this many entries is saved by a forked process (``save_aside``).
ASIDE_ENTRIES = 1000


class Memo:
    """Memoised work by content key (a sha256, hex), kept in ``memo.sqlite`` (in memory
    only when ``path`` is None). Entries are grouped into shards, one pickle each:
    a build reads every shard (one query; one unpickling per shard, not per entry,
    which would look up every class again for each entry) and rewrites only the shards
    that gained or lost an entry. Nothing is written before ``save``, which also drops
    the entries this build did not use.

    A ``partial`` memo (an incremental rebuild's, which reads a few entries) reads each
    shard when first asked for, one query each, and drops nothing when saved."""

    def __init__(
        self, path: Path | None = None, fingerprint: str = "", partial: bool = False
    ) -> None:
        self._path = path
        self._fingerprint = fingerprint
        self._partial = partial
        self._used: set[str] = set()
        self._dirty: set[int] = set()
        self._db: sqlite3.Connection | None = None
        self._blobs: dict[int, bytes] | None = None
        self._shards: dict[int, dict[str, Any]] = {}
        self._count = SHARDS  # how many shards: the stored memo's, or the default
        self._puts = 0
        self._aside: int | None = None  # the process saving it (save_aside)
        self._touched = False  # used since that process was forked
        if path is not None and path.exists():
            try:
                db = sqlite3.connect(path, isolation_level=None)
                made, count = _made(db)
                if made == fingerprint:
                    self._db, self._count = db, count
                else:  # another version of skillc wrote it
                    db.close()
            except sqlite3.Error:  # corrupt: start again
                pass

    def get(self, key: str) -> Any:
        """The value memoised under ``key``, or None."""
        self._used.add(key)
        self._touched = True
        return self._shard(key).get(key)

    def put(self, key: str, value: object) -> None:
        self._used.add(key)
        self._touched = True
        self._puts += 1
        self._shard(key)[key] = value
        self._dirty.add(_shard_of(key, self._count))

    def _shard(self, key: str) -> dict[str, Any]:
        number = _shard_of(key, self._count)
        shard = self._shards.get(number)
        if shard is None:
            blob = self._blob(number)
            try:
                shard = {} if blob is None else dict(pickle.loads(blob))
            except Exception:  # an unreadable shard is work to redo
                shard = {}
                self._dirty.add(number)
            self._shards[number] = shard
        return shard

    def _blob(self, number: int) -> bytes | None:
        if self._partial and self._blobs is None:
            if self._db is None:
                return None
            try:
                row = self._db.execute(
                    "SELECT value FROM memo WHERE shard = ?", (number,)
                ).fetchone()
            except sqlite3.Error:
                return None
            return None if row is None else bytes(row[0])
        return self._stored().get(number)

    def _stored(self) -> dict[int, bytes]:
        """Every stored shard, still pickled, read in one query the first time."""
        if self._blobs is None:
            self._blobs = {}
            if self._db is not None:
                with contextlib.suppress(sqlite3.Error):
                    rows = self._db.execute("SELECT shard, value FROM memo").fetchall()
                    self._blobs = dict(rows)
        return self._blobs

    def save_aside(self) -> None:
        """Start ``save`` in a forked process, to pickle and store the entries beside
        what the build does meanwhile (writing its output); ``save`` waits for it. Only
        for a new file of many entries (a cold build's): an open database is not to be
        used by two processes, and a few entries cost less than the fork."""
        if (
            self._path is None
            or self._partial
            or self._db is not None
            or self._aside is not None
            or self._puts < ASIDE_ENTRIES
            or not hasattr(os, "fork")
        ):
            return
        try:
            pid = os.fork()
        except OSError:  # no process to spare: save does it all
            return
        if pid == 0:  # the child: save, and leave without running the parent's exits
            code = 1
            try:
                import signal  # here: no-op builds never fork, nor import it

                signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent's to handle
                self.save()
                code = 0
            finally:
                os._exit(code)
        self._aside, self._touched = pid, False

    def _saved_aside(self) -> bool:
        """Whether the process ``save_aside`` started saved all this memo holds."""
        pid, self._aside = self._aside, None
        if pid is None:
            return False
        try:
            _, status = os.waitpid(pid, 0)
        except ChildProcessError:  # reaped by another (SIGCHLD ignored): unknown
            return False
        return os.waitstatus_to_exitcode(status) == 0 and not self._touched

    def save(self) -> None:
        """Rewrite the shards that gained or lost an entry, in one transaction."""
        if self._path is None:
            return
        if self._saved_aside():
            self._dirty.clear()
            return
        for number in (
            () if self._partial else self._stored().keys() - self._shards.keys()
        ):
            self._shards[number] = {}  # none of its entries was used: dropped
            self._dirty.add(number)
        for number, shard in () if self._partial else self._shards.items():
            stale = shard.keys() - self._used
            for key in stale:
                del shard[key]
            if stale:
                self._dirty.add(number)
        db = self._db
        if db is None:  # none yet, corrupt or stale: a new one
            with contextlib.suppress(FileNotFoundError):
                self._path.unlink()
            self._regroup()
            db = self._db = sqlite3.connect(self._path, isolation_level=None)
            db.execute("CREATE TABLE memo (shard INTEGER PRIMARY KEY, value BLOB)")
            db.execute("CREATE TABLE meta (fingerprint TEXT, shards INTEGER)")
            db.execute(
                "INSERT INTO meta VALUES (?, ?)", (self._fingerprint, self._count)
            )
            self._dirty |= self._shards.keys()
        db.execute("PRAGMA synchronous = OFF")  # a cache: a lost write is redone work
        with db:
            db.execute("BEGIN")
            for number in sorted(self._dirty):
                shard = self._shards[number]
                if not shard:
                    db.execute("DELETE FROM memo WHERE shard = ?", (number,))
                    continue
                blob = pickle.dumps(shard, protocol=pickle.HIGHEST_PROTOCOL)
                db.execute("INSERT OR REPLACE INTO memo VALUES (?, ?)", (number, blob))
        self._dirty.clear()

    def _regroup(self) -> None:
        """Into as many shards as a new memo of this many entries takes."""
        entries = sum(map(len, self._shards.values()))
        count = SHARDS
        while count * SHARD_ENTRIES < entries and count < MOST_SHARDS:
            count *= 2
        if count == self._count:
            return
        shards: dict[int, dict[str, Any]] = {}
        for shard in self._shards.values():
            for key, value in shard.items():
                shards.setdefault(_shard_of(key, count), {})[key] = value
        self._shards, self._count, self._dirty = shards, count, set(shards)


def _shard_of(key: str, count: int) -> int:
    """A key's shard: its last hex digits (keys end in sha256 hex digits)."""
    try:
        return int(key[-4:], 16) % count
    except ValueError:
        return 0


def _made(db: sqlite3.Connection) -> tuple[str | None, int]:
    """Which skillc made the memo (its fingerprint), and how many shards it has."""
    row = db.execute("SELECT fingerprint, shards FROM meta").fetchone()
    if row is None or not isinstance(row[1], int) or not 0 < row[1] <= MOST_SHARDS:
        return None, SHARDS
    return str(row[0]), row[1]


class Cache:
    def __init__(self, project: Path, enabled: bool = True) -> None:
        self.folder = project / CACHE_DIR
        self.enabled = enabled
        self._own: tuple[str, str] | None = None  # to record (see _fingerprint)
        self.fingerprint = self._fingerprint() if enabled else ""
        self._whole = State()  # as state.pickle holds it
        self.state = self._read_state() if enabled else State()
        self._memo: Memo | None = None

    @property
    def memo(self) -> Memo:
        if self._memo is None:
            path = self.folder / "memo.sqlite" if self.enabled else None
            self._memo = Memo(path, self.fingerprint)
        return self._memo

    def partial_memo(self) -> Memo:
        """A memo that reads only the shards asked for (see ``Memo``); ``adopt`` it to
        have ``save`` write it."""
        path = self.folder / "memo.sqlite" if self.enabled else None
        return Memo(path, self.fingerprint, partial=True)

    def adopt(self, memo: Memo) -> None:
        self._memo = memo

    def save_memo_aside(self) -> None:
        """Start saving the memo in another process (``Memo.save_aside``); ``save``
        finishes it."""
        if not self.enabled or self._memo is None:
            return
        try:
            self._create()
        except OSError:
            return  # save skips the memo too
        self._memo.save_aside()

    def recall(self, name: str, kind: type[Any]) -> Any:
        """A value ``keep`` stored (``kind()`` when there is none, or it is unreadable)."""
        return self._read(name, kind) if self.enabled else kind()

    def keep(self, name: str, value: object) -> None:
        """Store ``value`` beside the state, best effort."""
        if not self.enabled:
            return
        try:
            self._create()
            self._write(name, value)
        except OSError:
            pass

    def subfolder(self, name: str) -> Path | None:
        """A folder inside the cache, or None when the cache cannot be written."""
        try:
            self._create()
            (self.folder / name).mkdir(exist_ok=True)
        except OSError:
            return None
        return self.folder / name

    def save(self, state: State) -> None:
        """Best effort: a cache that cannot be written (a read-only checkout) is skipped."""
        if not self.enabled:
            return
        try:
            self._create()
            if self._memo is not None:
                self._memo.save()
            self._write_state(state)
            self._write_fingerprint()
        except (OSError, sqlite3.Error):
            pass

    def refresh(self, stamps: Stamps | None) -> None:
        """After a build with nothing to do: record what it learnt (stamps that changed
        or became old enough to trust, skillc's own fingerprint) for the next one."""
        if not self.enabled or not self.folder.is_dir():
            return
        try:
            if stamps is not self.state.stamps:
                self._write_state(dataclasses.replace(self.state, stamps=stamps))
            self._write_fingerprint()
        except OSError:
            pass

    def _read_state(self) -> State:
        """The state the last build stored: whole, or as changes from the whole one."""
        whole: State = self._read(STATE, State)
        since: Changes = self._read(CHANGES, Changes)
        self._whole = whole
        if not whole.token or since.base != whole.token or whole.stamps is None:
            return whole  # (changes made from another whole state are stale)
        return since.applied(whole, whole.stamps)

    def _write_state(self, state: State) -> None:
        """Store the changes since the whole state, or a new whole one (see ``STATE``).
        A killed build leaves the old whole state, with its changes or without them:
        a state older than the output, which the next build finds out of date."""
        since = changes(self._whole, state)
        if since is not None:
            self._write(CHANGES, since)
            return
        self._whole = dataclasses.replace(state, token=os.urandom(8).hex())
        self._write(STATE, self._whole)
        with contextlib.suppress(FileNotFoundError):
            (self.folder / f"{CHANGES}.pickle").unlink()

    def _write_fingerprint(self) -> None:
        if self._own is not None:
            (self.folder / FINGERPRINT).write_text(" ".join(self._own))
            self._own = None

    def _fingerprint(self) -> str:
        """``generator_fingerprint()``, which reads all of skillc's sources: kept in the
        cache folder beside a digest of their stamps, and read again only when one of
        them changed (the new one is recorded by ``save``)."""
        stamps = _own_stamps()
        try:
            recorded, fingerprint = (self.folder / FINGERPRINT).read_text().split()
        except (OSError, ValueError):
            recorded = fingerprint = ""
        if recorded and recorded == stamps:
            return fingerprint
        fingerprint = generator_fingerprint()
        if stamps:
            self._own = (stamps, fingerprint)
        return fingerprint

    def _create(self) -> None:
        self.folder.mkdir(exist_ok=True)
        ignore = self.folder / ".gitignore"
        if not ignore.exists():
            ignore.write_text("# Created by skillc.\n*\n")

    def _read(self, name: str, kind: type[Any]) -> Any:
        try:
            with open(self.folder / f"{name}.pickle", "rb") as handle:
                fingerprint, value = pickle.load(handle)
        except Exception:  # absent, corrupt or from another version: start empty
            return kind()
        return (
            value
            if fingerprint == self.fingerprint and isinstance(value, kind)
            else kind()
        )

    def _write(self, name: str, value: object) -> None:
        target = self.folder / f"{name}.pickle"
        temporary = target.with_suffix(".tmp")
        with open(temporary, "wb") as handle:
            pickle.dump(
                (self.fingerprint, value), handle, protocol=pickle.HIGHEST_PROTOCOL
            )
        # Not os.replace: renaming over a file makes ext4 write the new one to disk
        # first (auto_da_alloc), which can cost more than the rest of a small rebuild.
        # Between the two steps there is no file: a cache that is not there is ignored.
        with contextlib.suppress(FileNotFoundError):
            target.unlink()
        os.rename(temporary, target)


def generator_fingerprint() -> str:
    """A hash of skillc's own code and templates (and the Python version)."""
    digest = hashlib.sha256(f"{__version__} {sys.version}".encode())
    for path in _own_files():
        with open(path, "rb") as handle:
            digest.update(os.path.basename(path).encode() + b"\0" + handle.read())
    return digest.hexdigest()


FINGERPRINT = "fingerprint"  # in the cache folder: "<stamps digest> <fingerprint>"


def _own_files() -> list[str]:
    """skillc's code and templates, in a stable order."""
    found = []
    package = os.path.dirname(os.path.abspath(__file__))
    for top in (package, os.fspath(templates_dir())):
        for folder, dirs, names in os.walk(top):
            dirs[:] = [d for d in dirs if d != "__pycache__"]
            found += [
                os.path.join(folder, n) for n in names if n.endswith((".py", ".jinja"))
            ]
    # Installed, the templates are inside the package: each file once.
    return sorted(set(found), key=lambda path: path.split(os.sep))


def _own_stamps() -> str:
    """A digest of the stamps of skillc's own files, "" when one of them changed too
    recently to be trusted (generator.stamps)."""
    now = time.time_ns()
    digest = hashlib.sha256(f"{__version__} {sys.version}".encode())
    for path in _own_files():
        stat = os.stat(path)
        if not settled(stat.st_mtime_ns, stat.st_ctime_ns, now):
            return ""
        line = f"{path}\0{stat.st_size}\0{stat.st_mtime_ns}\0{stat.st_ctime_ns}\0{stat.st_ino}\n"
        digest.update(line.encode())
    return digest.hexdigest()


def content_key(*parts: object) -> str:
    return hashlib.sha256(repr(parts).encode()).hexdigest()


def outputs_untouched(
    out_dir: Path, outputs: dict[str, Stat], seen: dict[str, Identity] | None = None
) -> bool:
    """True when the output folder holds exactly the recorded files, as they were
    written; ``seen`` gets the identity of each file found so (the writer compares a
    spare file with it rather than taking the output's lstat again)."""
    if not outputs:
        return False
    try:
        found = _untouched(os.fspath(out_dir), "", outputs, seen)
    except OSError:  # a folder or file went away meanwhile
        found = -1
    if found != len(outputs) and seen:
        seen.clear()  # not all as recorded: nothing to go by
    return found == len(outputs)


def _untouched(
    folder: str, base: str, outputs: dict[str, Stat], seen: dict[str, Identity] | None
) -> int:
    """How many files below ``folder`` are as recorded; -1 when one is not, or is not
    recorded (``__pycache__`` and linked folders left out, as os.walk leaves them)."""
    count = 0
    with os.scandir(folder) as scan:
        for entry in scan:
            if entry.is_dir():
                if entry.name == "__pycache__" or entry.is_symlink():
                    continue
                below = _untouched(entry.path, f"{base}{entry.name}/", outputs, seen)
                if below < 0:
                    return -1
                count += below
                continue
            path = base + entry.name
            recorded = outputs.get(path)
            if recorded is None:
                return -1
            stat = entry.stat(follow_symlinks=False)  # an lstat: a link is not a file
            if (stat.st_size, stat.st_mtime_ns) != recorded[:2]:
                return -1
            if seen is not None:
                seen[path] = stat.st_dev, stat.st_ino, stat.st_size, stat.st_mtime_ns
            count += 1
    return count


def stat_outputs(
    out_dir: Path,
    digests: dict[str, str],
    known: dict[str, Stat] | None = None,
    written: tuple[str, ...] = (),
) -> dict[str, Stat]:
    """Each written file's size and mtime, beside the sha256 the build computed.
    ``known``: stats still true of the files not ``written`` (a hard link keeps them).
    """
    result = {}
    known = known or {}
    fresh = frozenset(written)
    for path, digest in digests.items():
        recorded = known.get(path)
        if recorded is not None and recorded[2] == digest and path not in fresh:
            result[path] = recorded
            continue
        stat = os.stat(os.path.join(out_dir, path))
        result[path] = (stat.st_size, stat.st_mtime_ns, digest)
    return result
