"""The package's Agent Skills served the standard way: the MCP Skills extension
(SEP-2640, ``io.modelcontextprotocol/skills``), as handlers of ``_mcp.Handlers``.

``skills/list`` and ``skills/get`` answer with the entries skillc wrote into
``_skills`` at build time (each skill's SKILL.md frontmatter as written, and every file
as a ``skill://<skill path>/<file>`` resource with the ``sha256:`` digest and size the
lock records); ``resources/list`` and ``resources/read`` serve the files themselves,
from the skill folders below the source root. A file is served only as the build saw
it: a regular file (a FIFO or a device is refused, without blocking), not a symbolic
link, whose real path is inside its skill's folder, read no further than the size the
build recorded (and one byte more, to see it grew), whose bytes read have the recorded
digest. At most ``READS`` files are read at once, each held until its answer is sent
(``Handlers.bounded``): 40 reads of a 15 MiB file at once do not hold 40 copies. Nothing
here runs anything: a skill's ``allowed-tools`` and ``!`cmd``` lines are text for the
host to approve.
"""

from __future__ import annotations

import base64
import hashlib
import os
import stat
import threading
from collections.abc import Container, Mapping
from pathlib import Path
from typing import Any

from . import _settings
from ._mcp import INTERNAL_ERROR, INVALID_PARAMS, Handler, Paged, RpcError, param
from ._skills import FILES, SKILLS

EXTENSION = "io.modelcontextprotocol/skills"
# How long a host may keep an entry: it changes only when the package is rebuilt.
TTL_MS = 300_000
CACHE = {"ttlMs": TTL_MS, "cacheScope": "public"}
# Files read at once (in the server: each until its answer is sent).
READS = threading.BoundedSemaphore(2)


def served(tools: Container[str]) -> dict[str, dict[str, Any]]:
    """The skills entries of the skills whose tools the server offers, by URI."""
    return {
        uri: skill["entry"] for uri, skill in SKILLS.items() if skill["tool"] in tools
    }


def read(uri: str) -> dict[str, Any]:
    """A served file's ``resources/read`` contents: text when it is UTF-8, else base64;
    LookupError (its URI and why, no path of this machine) when it is not the file the
    build saw."""
    file = FILES[uri]
    folder = _settings.source_dir(file["folder"])
    data = _read(folder, file["file"], int(file["size"]), uri)
    if "sha256:" + hashlib.sha256(data).hexdigest() != file["digest"]:
        raise LookupError(f"{uri} changed since the package was built; rebuild it")
    contents: dict[str, Any] = {"uri": uri, "mimeType": file["mimeType"]}
    try:
        return contents | {"text": data.decode("utf-8")}
    except UnicodeDecodeError:
        return contents | {"blob": base64.b64encode(data).decode("ascii")}


def _read(folder: Path, name: str, size: int, uri: str) -> bytearray:
    """The bytes of ``name`` in ``folder``, opened without following a last symbolic
    link, without blocking on a FIFO, checked a regular file inside ``folder`` after
    opening, and read to ``size`` + 1 bytes at most."""
    path = os.path.realpath(folder / name)
    if not _inside(path, folder):
        raise LookupError(f"{uri} leads out of its skill's folder")
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(path, flags | getattr(os, "O_CLOEXEC", 0))
    except OSError as error:
        raise LookupError(f"{uri} cannot be opened ({error.strerror})") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise LookupError(f"{uri} is not a regular file")
        opened = f"/proc/self/fd/{fd}"  # Linux: what was opened, not what was asked
        if os.path.exists(opened) and not _inside(os.readlink(opened), folder):
            raise LookupError(f"{uri} leads out of its skill's folder")
        data, got = bytearray(size + 1), 0  # one buffer, no pieces to join
        with memoryview(data) as view:
            while got <= size:
                read = os.readv(fd, [view[got:]])
                if not read:
                    break
                got += read
    finally:
        os.close(fd)
    if got > size:
        raise LookupError(f"{uri} changed since the package was built; rebuild it")
    del data[got:]
    return data


def _inside(path: str, folder: Path) -> bool:
    return os.path.commonpath([path, str(folder)]) == str(folder)


class Skills:
    """The extension's methods (and the resources it needs) for the skills of
    ``tools``."""

    def __init__(self, tools: Container[str]) -> None:
        self.skills = served(tools)
        self.files = {
            r["uri"]: FILES[r["uri"]]
            for skill in self.skills.values()
            for r in skill["resources"]
        }

    def methods(self) -> dict[str, Handler]:
        listed = []
        for uri, file in self.files.items():
            resource = {
                "uri": uri,
                "name": uri.rpartition("/")[2],
                "size": file["size"],
            }
            if uri in self.skills:
                resource["name"] = self.skills[uri]["frontmatter"]["name"]
                resource["description"] = self.skills[uri]["frontmatter"]["description"]
            listed.append(resource | {"mimeType": file["mimeType"]})
        return {
            "skills/list": self.list_skills,
            "skills/get": self.get_skill,
            "resources/list": Paged("resources", listed, CACHE),
            "resources/read": self.read_resource,
        }

    def list_skills(self, params: Mapping[str, Any]) -> dict[str, Any]:
        return {"skills": list(self.skills.values()), **CACHE}

    def get_skill(self, params: Mapping[str, Any]) -> dict[str, Any]:
        uri: str = param(params, "uri", str, True)
        if uri not in self.skills:
            raise RpcError(INVALID_PARAMS, f"No skill is served at {uri[:200]}")
        return {"skill": self.skills[uri], **CACHE}

    def read_resource(self, params: Mapping[str, Any]) -> dict[str, Any]:
        """A file read: run in a worker thread."""
        uri: str = param(params, "uri", str, True)
        if uri not in self.files:
            raise RpcError(INVALID_PARAMS, f"No resource is served at {uri[:200]}")
        try:
            contents = read(uri)
        except (OSError, LookupError) as exc:
            raise RpcError(INTERNAL_ERROR, str(exc)) from None
        return {"contents": [contents], **CACHE}
