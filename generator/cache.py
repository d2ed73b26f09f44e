"""The build cache, in the shape of black's (``black/cache.py``): pickles in the user's
cache folder, one set per project, made by this skillc with these dependencies.

Where: ``$SKILLC_CACHE_DIR`` (tests, CI), else the user's cache folder (platformdirs:
``~/.cache/skillc`` on Linux), then a folder per skillc version. Never inside the
project: a pickle runs code when it is read, and anyone who can open a pull request can
commit files to the project. A folder of the user's own can be written only by what
already runs as the user, so the cache needs no MAC; a file is read only when it is a
regular file of this user's.

Per project (the name: the sha256 of its path), two files, each a pickle of
``(salt, value)``; a file of another salt (skillc's own files by stat, the versions of
the dependencies whose output reaches the files) is ignored:

- ``<name>.pickle``: ``last``, what the last build saw, said and wrote (the no-op
  check, pipeline.py), read by every build;
- ``<name>.memo.pickle``: values by key (``key``: the sha256 of what each depends on,
  the settings among them): loader results, typings, token counts, black's layouts,
  vectors. Read on first use (a no-op never reads it), rewritten with the entries the
  build used, so that it holds what one build needs and no more.

It never changes output: a build with an empty cache writes the same bytes (tested).
Pickle, not JSON: the values are the model's dataclasses, which pickle keeps exactly
with no codec of skillc's; marshal keeps no class.
"""

from __future__ import annotations

import copyreg
import hashlib
import json
import os
import pickle
import re
import stat
import sys
from collections.abc import Iterable
from pathlib import Path
from types import MappingProxyType
from typing import Any

# What the user's cache folder is on each system (black finds its own so).
from platformdirs import user_cache_dir

from . import __version__
from .resources import PACKAGE, templates_dir

FOLDER_VARIABLE = "SKILLC_CACHE_DIR"
# The witness's file and the memo's: <name>.pickle, <name>.memo.pickle.
LAST, MEMO = ".pickle", ".memo.pickle"


def _proxy(items: dict[Any, Any]) -> MappingProxyType[Any, Any]:
    return MappingProxyType(items)


# Read-only mappings are kept as such (pickle refuses a mappingproxy).
_TABLE = copyreg.dispatch_table | {
    MappingProxyType: lambda kept: (_proxy, (dict(kept),))
}


def folder() -> Path:
    """The folder of this skillc version's caches."""
    base = os.environ.get(FOLDER_VARIABLE) or user_cache_dir("skillc", False)
    return Path(base).resolve() / __version__


def name(project: Path) -> str:
    """The name of the cache files of the project folder ``project``."""
    return hashlib.sha256(os.fsencode(project)).hexdigest()[:32]


def key(*parts: object) -> str:
    """The sha256 of ``parts`` as JSON (mappings in their order, which may matter:
    a schema's properties order a signature; tuples as lists)."""
    text = json.dumps(parts, ensure_ascii=False, default=repr)
    return hashlib.sha256(text.encode()).hexdigest()


class Cache:
    """One project's cache (see the module's docstring); ``path`` None: in memory
    only. ``last``: the last build's witness; ``written_ns``: when it was written."""

    def __init__(self, path: Path | None = None, salt: str = "") -> None:
        self.notes: list[str] = []  # what the build should warn about
        self.last: dict[str, Any] | None = None
        self.written_ns = 0
        self.files: dict[str, Path] = {}  # by LAST and MEMO
        if path is not None:
            self.files = {
                part: path.with_name(path.name + part) for part in (LAST, MEMO)
            }
            self.last, self.written_ns = _read(self.files[LAST], salt)
        self.salt = salt
        self._memo: dict[str, Any] | None = None  # read on first use
        self._used: dict[str, Any] = {}  # the entries this build asked for or made
        self._changed: set[str] = set()  # which files to write

    @classmethod
    def of(cls, project: Path | None, dependencies: Iterable[str]) -> Cache:
        """The cache of the folder ``project`` (None: in memory only), salted with
        skillc's own files and the versions of ``dependencies``."""
        if project is None:
            return cls()
        where = folder()
        if where == project or project in where.parents:
            found = cls()
            found.notes.append(
                f"the cache folder {where} is inside the project, where anyone who "
                f"can commit can write: not used (set {FOLDER_VARIABLE} elsewhere)"
            )
            return found
        # Every file of skillc but the token table (MB) in embed/: its MODEL names it,
        # and encoders.py has the fusion weights model mode writes.
        embed = [PACKAGE / "embed" / name for name in ("MODEL", "encoders.py")]
        tops = (PACKAGE, templates_dir())
        salt = fingerprint(tops, {"__pycache__", "embed"}, embed, dependencies)
        return cls(where / name(project), salt)

    def get(self, key: str) -> Any:
        """The value kept under ``key``, or None."""
        if self._memo is None:
            memo = _read(self.files[MEMO], self.salt)[0] if self.files else None
            self._memo = memo if isinstance(memo, dict) else {}
        value = self._used.get(key, self._memo.get(key))
        if value is not None:
            self._used[key] = value
        return value

    def put(self, key: str, value: object) -> None:
        self._used[key] = value
        self._changed.add(MEMO)

    def remember(self, last: dict[str, Any]) -> None:
        """Keep ``last`` as the last build's witness."""
        self.last = last
        self._changed.add(LAST)

    def save(self) -> None:
        """Write what changed, the memo with the entries this build used; best effort
        (a cache that cannot be written is skipped)."""
        if self._memo is not None and self._memo.keys() - self._used.keys():
            self._changed.add(MEMO)  # the entries this build did not use go
        if not self.files:
            return
        values = {LAST: self.last, MEMO: self._used}
        try:
            where, stem = self.files[LAST].parent, self.files[LAST].stem
            where.mkdir(parents=True, exist_ok=True)
            for found in os.listdir(where):  # a killed build's temporaries
                if found.startswith(stem) and found.endswith(".tmp"):
                    os.unlink(where / found)
            for part in sorted(self._changed):
                _write(self.files[part], (self.salt, values[part]))
        except (OSError, pickle.PicklingError, TypeError, AttributeError):
            pass
        self._changed.clear()


def _read(path: Path, salt: str) -> tuple[Any, int]:
    """The value of the file ``path`` and its mtime (ns), or (None, 0): a file of
    another salt, not this user's or not a regular file, or that cannot be read."""
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return None, 0
    with open(descriptor, "rb") as handle:
        found = os.fstat(descriptor)
        user = os.getuid() if hasattr(os, "getuid") else found.st_uid  # (Windows)
        if not stat.S_ISREG(found.st_mode) or found.st_uid != user:
            return None, 0
        try:
            made, value = pickle.load(handle)
        except Exception:  # noqa: BLE001 - a damaged file: any error of unpickling
            return None, 0
    return (value, found.st_mtime_ns) if made == salt else (None, 0)


def _write(path: Path, data: object) -> None:
    """``path`` holding ``data``, replaced at once: a build killed meanwhile leaves the
    old file (and a temporary, which the next save removes)."""
    temporary = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW
    try:
        with open(os.open(temporary, flags, 0o600), "wb") as handle:
            pickler = pickle.Pickler(handle, pickle.HIGHEST_PROTOCOL)
            pickler.dispatch_table = _TABLE
            pickler.dump(data)
    except BaseException:
        os.unlink(temporary)
        raise
    os.replace(temporary, path)


def fingerprint(
    tops: Iterable[Path],
    skip: set[str],
    files: Iterable[Path],
    dependencies: Iterable[str],
) -> str:
    """A digest of skillc's own files (below ``tops``, but in folders named in
    ``skip``; and ``files``) and the versions of the distributions whose output
    reaches the files it writes: a cache made by another skillc, or with another
    black, jsonschema..., is never used. A file counts by its path and stat (size,
    mtime, ctime, inode), as git's index does: writing it changes its ctime, which
    nobody can set. Reading skillc's 132 files took 0.010 s of this repository's no-op
    rebuild (CPU; its floor 0.09 s), their stats 0.001 s."""
    own = [os.fspath(path) for path in files]
    for top in tops:
        for folder, subfolders, names in os.walk(top):
            subfolders[:] = [name for name in subfolders if name not in skip]
            own += [os.path.join(folder, name) for name in names]
    digest = hashlib.sha256(sys.version.encode())
    for path in sorted(own):
        info = os.stat(path)
        stats = (info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino)
        digest.update(f"\0{path}\0{stats}".encode())
    for name, version in sorted(versions(dependencies).items()):
        digest.update(f"\0{name}={version}".encode())
    return digest.hexdigest()


def versions(names: Iterable[str]) -> dict[str, str]:
    """Each installed distribution's version ("" when it is not installed): from the
    name of the first ``<name>-<version>.dist-info`` folder on ``sys.path`` (as pip
    installs it, and as importlib.metadata finds it), and from importlib.metadata for a
    distribution installed otherwise. Importing importlib.metadata alone took 0.045 s
    of a no-op rebuild's 0.45 s (CPU, 1,000 skills, tests/bench.py's project)."""
    wanted = {_normal(name): name for name in names}
    found: dict[str, str] = {}
    for entry in sys.path:
        try:
            listing = os.listdir(entry or ".")
        except OSError:
            continue
        for item in listing:
            stem, dot, suffix = item.rpartition(".")
            name, dash, version = stem.partition("-")
            if suffix == "dist-info" and dash and _normal(name) in wanted:
                found.setdefault(wanted[_normal(name)], version)
    rest = [name for name in wanted.values() if name not in found]
    if rest:
        import importlib.metadata

        for name in rest:
            try:
                found[name] = importlib.metadata.version(name)
            except importlib.metadata.PackageNotFoundError:
                found[name] = ""
    return found


def _normal(name: str) -> str:
    """A distribution's name as its folders spell it (PEP 503, then '-' as '_')."""
    return re.sub(r"[-_.]+", "_", name).lower()
