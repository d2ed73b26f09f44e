"""The rule for a skill's files that leave the project (the MCP server's skills, the
well-known archives): each must resolve, links followed, inside its own skill folder.

A link to ``../../.env``, to ``.git/config``, to another skill's file or a folder link
to the project's root would otherwise publish what the skill's author never wrote into
it. ``escape`` finds such a file when the skills are chosen; ``read`` reads a file's
bytes for an archive under the same rule, then as the digest the lock records says:
opened by its real path without following a link, a regular file, never read past
the size hashed, its sha256 checked on the very bytes read.
"""

from __future__ import annotations

import hashlib
import os
from typing import NamedTuple

from ..filestat import read_regular


class Escape(NamedTuple):
    """A link below a skill folder that leads out of it (project-relative paths)."""

    link: str
    target: str  # where the link itself resolves


class Folder:
    """One skill folder of the project at ``project`` (an absolute, resolved path),
    ``folder`` below it (project-relative, "" for the root)."""

    def __init__(self, project: str, folder: str) -> None:
        self.project = project
        self.path = (
            os.path.join(project, folder) if folder not in ("", ".") else project
        )
        self.folder = "" if folder in ("", ".") else folder + "/"
        self.real = os.path.realpath(self.path)

    def escape(self, path: str) -> Escape | None:
        """Where the file ``path`` (relative to the folder) leads out of the folder: the
        first part of it that resolves outside, and where; None when none does. Parts
        before the first link are not resolved (one lstat a part: most paths)."""
        below, linked = self.path, False
        for part in path.split("/"):
            below = os.path.join(below, part)
            linked = linked or os.path.islink(below)
            if linked and not self._inside(real := os.path.realpath(below)):
                link = os.path.relpath(below, self.path).replace(os.sep, "/")
                return Escape(self.folder + link, self._shown(real))
        return None

    def read(self, path: str, sha256: str, size: int) -> bytes:
        """The bytes of the file ``path`` that were hashed to ``sha256`` (``size``
        bytes); OSError, saying why, when it now leads out of the folder, is no regular
        file, or holds other bytes."""
        real = os.path.realpath(os.path.join(self.path, path))
        where = self.folder + path
        if not self._inside(real):
            raise OSError(
                f"{where} now leads to {self._shown(real)}, out of its folder"
            )
        data = read_regular(real, size)
        if data is None or hashlib.sha256(data).hexdigest() != sha256:
            raise OSError(f"{where} changed during the build; build again")
        return data

    def _inside(self, real: str) -> bool:
        base = self.real
        return real == base or real.startswith(base.rstrip(os.sep) + os.sep)

    def _shown(self, real: str) -> str:
        """A real path as a message shows it: project-relative."""
        shown = os.path.relpath(real, self.project).replace(os.sep, "/")
        return "the project's root" if shown == "." else shown
