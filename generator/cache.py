"""The build cache: a memo around the build's pure functions, in ``.skillc-cache/``.

``Memo`` maps a key (a sha256 of everything a result depends on, made by ``key``) to a
value, kept in one file of JSON lines, ``memo.jsonl``. It never changes output: a
build with an empty memo writes the same bytes (tested). What the pipeline keeps in it:
each input file's loader result, the typing of an input schema, token counts of
texts, and what a finished build wrote (for the no-op check).

Nothing read from the project folder may run code, and anyone who can open a pull
request can commit a cache folder. So:

- values are JSON, decoded by ``Codec`` into plain data and the dataclasses and enums
  the pipeline lists, and nothing else (never pickle, marshal or Python source);
- every entry carries an HMAC-SHA256 of its key and value, made with a secret kept per
  user outside the project (``secret``: ``$XDG_CACHE_HOME/skillc/key``, or
  ``~/.cache/skillc/key``); an entry whose MAC does not verify was not written by this
  user's skillc, and is ignored with a warning, as is any other file in the folder;
- a value that cannot be encoded exactly is not kept (the work is done again).

Entries are read when asked for (only their MAC is checked, and only the entries a
build asks for are parsed), and ``save`` rewrites the file with the entries this build
used, so the memo holds what one build needs and no more. The entry a no-op rebuild
needs (``first``) is the file's second line, read without the rest of it.
"""

from __future__ import annotations

import contextlib
import enum
import hashlib
import hmac
import importlib
import json
import os
import re
import shutil
import stat
import sys
from collections.abc import Iterable
from pathlib import Path
from types import MappingProxyType
from typing import Any, BinaryIO

from .resources import PACKAGE, templates_dir

CACHE_DIR = ".skillc-cache"
MEMO = "memo.jsonl"
KNOWN = frozenset({MEMO, ".gitignore"})
TAG = "\x00"  # a decoded JSON object with this key is a tagged value (see Codec)


def key(*parts: object) -> str:
    """The sha256 of ``parts`` as JSON (mappings in their order, which may matter:
    a schema's properties order a signature; tuples as lists)."""
    text = json.dumps(parts, ensure_ascii=False, default=repr)
    return hashlib.sha256(text.encode()).hexdigest()


class Codec:
    """JSON for plain data and for the listed dataclasses and enums, exactly: tuples,
    read-only mappings, mappings with other keys than strings, dataclasses and enum
    members are tagged objects. ``types`` names the classes that may be kept, each with
    the module that defines it (imported only when one is met)."""

    def __init__(self, types: dict[str, str]) -> None:
        self._modules = types
        self._types: dict[str, type[Any]] = {}
        self._fields: dict[type[Any], tuple[str, ...]] = {}  # a dataclass's, by name

    def _type(self, name: str) -> type[Any] | None:
        import dataclasses  # only here: a no-op meets no dataclass (pipeline.Build)

        kind = self._types.get(name)
        if kind is None and name in self._modules:
            found = getattr(importlib.import_module(self._modules[name]), name, None)
            if isinstance(found, type) and issubclass(found, enum.Enum):
                kind = self._types[name] = found
            elif isinstance(found, type) and dataclasses.is_dataclass(found):
                kind = self._types[name] = found
                self._fields[kind] = tuple(f.name for f in dataclasses.fields(kind))
        return kind

    def encode(self, value: object) -> str:
        """The value as JSON; TypeError or ValueError when it cannot be kept exactly."""
        return json.dumps(
            self._plain(value), ensure_ascii=False, allow_nan=False, sort_keys=False
        )

    def decode(self, text: str) -> Any:
        return json.loads(text, object_hook=self._object)

    def _plain(self, value: object) -> object:
        if value is None or isinstance(value, (str, bool, int, float)):
            return value
        if isinstance(value, list):
            return [self._plain(item) for item in value]
        if isinstance(value, tuple):
            return {TAG: "tuple", "v": [self._plain(item) for item in value]}
        if isinstance(value, (dict, MappingProxyType)):
            return self._mapping(value)
        kind = type(value)
        if self._type(kind.__name__) is not kind:
            raise TypeError(f"not kept in the build cache: {kind.__name__}")
        if isinstance(value, enum.Enum):
            return {TAG: kind.__name__, "v": value.value}
        fields = {
            name: self._plain(getattr(value, name)) for name in self._fields[kind]
        }
        return {TAG: kind.__name__, "v": fields}

    def _mapping(self, value: dict[Any, Any] | MappingProxyType[Any, Any]) -> object:
        proxy = isinstance(value, MappingProxyType)
        if all(type(k) is str for k in value) and TAG not in value:
            plain = {k: self._plain(v) for k, v in value.items()}
            return {TAG: "proxy", "v": plain} if proxy else plain
        pairs = [[self._plain(k), self._plain(v)] for k, v in value.items()]
        return {TAG: "proxy-pairs" if proxy else "pairs", "v": pairs}

    def _object(self, data: dict[str, Any]) -> Any:
        tag = data.get(TAG)
        if tag is None:
            return data
        if set(data) != {TAG, "v"}:
            raise ValueError("a tagged value with other keys")
        value = data["v"]
        if tag == "tuple":
            return tuple(value)
        if tag == "proxy":
            return MappingProxyType(value)
        if tag in ("pairs", "proxy-pairs"):
            pairs = dict(value)  # a key that was a tuple is one again
            return MappingProxyType(pairs) if tag == "proxy-pairs" else pairs
        kind = self._type(tag)
        if kind is None:
            raise ValueError(f"an unknown type in the build cache: {tag!r}")
        if issubclass(kind, enum.Enum):
            return kind(value)
        if not isinstance(value, dict) or set(value) != set(self._fields[kind]):
            raise ValueError(f"{tag}: not its fields")
        return kind(**value)


HEADER = "skillc-memo-1"
MOST_BYTES = 1 << 30  # a larger memo file is not read


class Memo:
    """Values by key (see the module's docstring); ``folder`` None: in memory only.

    The file's first line names the ``salt`` it was made with (skillc's own fingerprint
    and its dependencies' versions), with a MAC: a file of another salt is this user's
    but stale, and is dropped quietly; a file whose first line does not verify was not
    made by this user's skillc, and is ignored with a warning."""

    def __init__(
        self,
        folder: Path | None,
        secret: bytes | None,
        salt: str,
        codec: Codec,
    ) -> None:
        self.folder = folder if secret is not None else None
        self._secret, self._salt, self._codec = secret or b"", salt, codec
        self.first = ""  # the key of the second line's entry (see _take)
        self._stored: dict[str, tuple[str, str]] = {}  # key -> (mac, JSON), unread
        self._rest: BinaryIO | None = None  # the file, past the entries read
        self._used: dict[str, tuple[str, str]] = {}  # key -> (MAC, JSON), for save
        self._values: dict[str, Any] = {}
        self._changed = False
        self.ignored: list[str] = []  # what was found in the folder and not trusted
        self.written_ns = 0  # when the file read was written (its mtime)
        if self.folder is not None:
            self._read(self.folder)

    def get(self, key: str) -> Any:
        """The value kept under ``key``, or None."""
        if key in self._values:
            return self._values[key]
        stored = self._take(key)
        if stored is None:
            return None
        mac, text = stored
        try:
            if not hmac.compare_digest(mac, self._mac(key, text)):
                raise ValueError("a MAC that does not verify")
            value = self._codec.decode(text)
        except (ValueError, TypeError, KeyError):
            self._ignore(f"{MEMO}: an entry this user's skillc did not write")
            self._changed = True
            return None
        self._values[key], self._used[key] = value, stored
        return value

    def _take(self, key: str) -> tuple[str, str] | None:
        """The stored (MAC, JSON) of ``key``; the rest of the file is read for a key
        not read yet. A no-op asks for ``first`` alone, the second line: the last
        build's witness, found before the configuration is read (pipeline.configure),
        whose settings' table spares the no-op tomllib (see config.load)."""
        if key not in self._stored:
            self._split()
        return self._stored.pop(key, None)

    def _split(self) -> None:
        """Every entry of the file, by key (what a look-up already found stays)."""
        if self._rest is None:
            return
        with self._rest as handle:
            try:
                text = handle.read().decode("utf-8", "replace")
            except OSError:
                text = ""
        self._rest = None
        for line in text.split("\n"):  # not splitlines: JSON may hold U+2028
            self._add(line)

    def _add(self, line: str) -> None:
        entry = line.split("\t", 2)
        if len(entry) == 3 and entry[0] not in self._used:
            self._stored[entry[0]] = entry[1], entry[2]

    def put(self, key: str, value: object) -> None:
        """Keep ``value`` (unless it cannot be encoded exactly: then it is not kept)."""
        try:
            text = self._codec.encode(value)
        except (TypeError, ValueError):
            return
        self._values[key], self._used[key] = value, (self._mac(key, text), text)
        self._stored.pop(key, None)
        self._changed = True

    def keep(self) -> None:
        """``save`` for a build that only looked: every entry is kept, the file is
        written when one changed."""
        if self._changed or self.ignored:
            self._split()
            self._used, self._stored = self._stored | self._used, {}
            self.save()
        elif self._rest is not None:
            self._rest.close()
            self._rest = None

    def save(self) -> None:
        """Write the entries this build used, and remove what else the folder holds;
        best effort (a read-only checkout keeps no cache)."""
        folder = self.folder
        self._split()
        if folder is None or not (self._changed or self._stored or self.ignored):
            return
        lines = [f"{HEADER}\t{self._salt}\t{self._mac(HEADER, self._salt)}\n"]
        lines += [
            f"{key}\t{mac}\t{text}\n"
            for key, (mac, text) in sorted(
                self._used.items(), key=lambda item: (item[0] != self.first, item[0])
            )
        ]
        with contextlib.suppress(OSError):
            folder.mkdir(exist_ok=True)
            if not _real_folder(folder):
                return
            for name in os.listdir(folder):
                if name not in KNOWN:
                    _remove(folder / name)
            ignore = folder / ".gitignore"
            if not ignore.exists():
                _write_new(ignore, "# Created by skillc.\n*\n")
            temporary = folder / f"{MEMO}.{os.getpid()}.tmp"
            _write_new(temporary, "".join(lines))
            os.replace(temporary, folder / MEMO)

    def _mac(self, key: str, text: str) -> str:
        message = f"{key}\t{text}".encode()
        return hmac.digest(self._secret, message, "sha256").hex()

    def _read(self, folder: Path) -> None:
        if not _real_folder(folder):
            if os.path.lexists(folder):
                self._ignore("")  # the folder itself is not one
                self.folder = None
            return
        for name in sorted(os.listdir(folder)):
            if name not in KNOWN:
                self._ignore(name)
        handle = _open_regular(folder / MEMO)
        if handle is None:
            return
        self.written_ns = os.fstat(handle.fileno()).st_mtime_ns
        try:
            head = handle.readline().decode("utf-8", "replace").rstrip("\n")
            parts = head.split("\t")
            if (
                len(parts) != 3
                or parts[0] != HEADER
                or not hmac.compare_digest(parts[2], self._mac(HEADER, parts[1]))
            ):
                self._ignore(MEMO)
            elif parts[1] == self._salt:  # else made by another skillc, or other deps
                line = handle.readline().decode("utf-8", "replace").rstrip("\n")
                self._add(line)
                self.first = line.partition("\t")[0] if self._stored else ""
                self._rest, handle = handle, None
        except OSError:
            pass
        finally:
            if handle is not None:
                handle.close()

    def _ignore(self, what: str) -> None:
        if what not in self.ignored:
            self.ignored.append(what)


def _real_folder(path: Path) -> bool:
    """A folder, not a symbolic link to one (nothing is written through a link)."""
    try:
        return stat.S_ISDIR(os.lstat(path).st_mode)
    except OSError:
        return False


def _open_regular(path: Path) -> BinaryIO | None:
    """A regular file, open to read (not through a link, never blocking on a FIFO)."""
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return None
    handle = open(descriptor, "rb")
    found = os.fstat(descriptor)
    if stat.S_ISREG(found.st_mode) and found.st_size <= MOST_BYTES:
        return handle
    handle.close()
    return None


def _write_new(path: Path, text: str) -> None:
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    with open(descriptor, "w", encoding="utf-8") as handle:
        handle.write(text)


def _remove(path: Path) -> None:
    """Remove a file, a link or a folder (a link's target is left alone)."""
    if _real_folder(path):
        shutil.rmtree(path)
    else:
        os.unlink(path)


def project_memo(
    project: Path | None, types: dict[str, str], dependencies: Iterable[str]
) -> Memo:
    """The memo of the folder ``project`` (in memory only without it or a user key),
    salted with skillc's own files and the versions of ``dependencies``; ``types``: the
    classes it may hold (see Codec)."""
    if project is None:
        return Memo(None, None, "", Codec(types))
    # Every file of skillc but the token table (MB) in embed/: its MODEL names it, and
    # encoders.py has the fusion weights model mode writes.
    embed = [PACKAGE / "embed" / name for name in ("MODEL", "encoders.py")]
    tops = (PACKAGE, templates_dir())
    salt = fingerprint(tops, {"__pycache__", "embed"}, embed, dependencies)
    return Memo(project / CACHE_DIR, secret(), salt, Codec(types))


def secret() -> bytes | None:
    """This user's key for the cache's MACs, made on first use; None (no cache) when
    it can be neither read nor made."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(
        os.path.expanduser("~"), ".cache"
    )
    path = Path(base, "skillc", "key")
    try:
        return bytes.fromhex(path.read_text(encoding="ascii").strip())
    except (OSError, ValueError):
        pass
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        made = os.urandom(32)
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "w", encoding="ascii") as handle:
            handle.write(made.hex())
        return made
    except OSError:
        try:  # another build made it meanwhile
            return bytes.fromhex(path.read_text(encoding="ascii").strip())
        except (OSError, ValueError):
            return None


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
