"""``.well-known/agent-skills/``: the published skills for the Agent Skills Discovery
RFC (0.2.0), written when ``well-known-index = true``.

``index.json`` lists each skill with its ``$schema``, ``name``, ``type``,
``description``, ``url`` and ``digest``; beside it are the artifacts it points to, by
relative URLs (the folder can be served from any site's root, as it is): a skill that
is its ``SKILL.md`` alone as ``<skill path>/SKILL.md`` (``skill-md``: its digest is the
one the lock records for that source), any other as ``<skill path>.zip`` (``archive``:
its files at the archive's root, stored uncompressed with fixed times and modes, so
its bytes, and the digest the lock records for this output, depend only on theirs).
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import zipfile
from collections.abc import Callable
from pathlib import Path

from ..diagnostics import Report
from ..emitters import confined
from ..emitters.skill_files import SKILL_FILE, File, Published

FOLDER = ".well-known/agent-skills/"
SCHEMA = "https://schemas.agentskills.io/discovery/0.2.0/schema.json"
# Every archive entry's time: the earliest a zip file can hold.
EPOCH = (1980, 1, 1, 0, 0, 0)

# A skill's file's bytes, by the skill's project-relative folder and the file.
Read = Callable[[str, File], bytes]


def reader(project: Path) -> Read:
    """What reads a skill's file for the artifacts, as ``confined`` reads it: OSError
    when it leads out of its folder or holds other bytes than the build hashed."""
    root = os.fspath(project.resolve())

    def read(folder: str, file: File) -> bytes:
        return confined.Folder(root, folder).read(file.path, file.sha256, file.size)

    return read


def emit(skills: list[Published], read: Read, report: Report) -> dict[str, bytes]:
    files: dict[str, bytes] = {}
    entries: dict[str, dict[str, str]] = {}
    for skill in skills:
        if skill.name in entries:  # the RFC identifies a skill by its name
            report.warning(
                skill.tool.source.path,
                1,
                1,
                "skill-not-published",
                f"{skill.tool.qualname} is not in {FOLDER}index.json: another skill "
                f"there is named {skill.name!r}",
            )
            continue
        if [f.path for f in skill.files] == [SKILL_FILE]:
            kind, url = "skill-md", f"{skill.path}/{SKILL_FILE}"
            data = read(skill.folder, skill.files[0])
        else:
            kind, url = "archive", f"{skill.path}.zip"
            data = archive([(f.path, read(skill.folder, f)) for f in skill.files])
        files[FOLDER + url] = data
        entries[skill.name] = {
            "name": skill.name,
            "type": kind,
            "description": skill.description,
            "url": url,
            "digest": "sha256:" + hashlib.sha256(data).hexdigest(),
        }
    index = {"$schema": SCHEMA, "skills": [entries[name] for name in sorted(entries)]}
    text = json.dumps(index, indent=2, ensure_ascii=False) + "\n"
    return {FOLDER + "index.json": text.encode("utf-8"), **files}


def archive(members: list[tuple[str, bytes]]) -> bytes:
    """A zip of ``members`` (path, bytes) whose bytes depend on nothing else."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as archive:
        for path, data in members:
            info = zipfile.ZipInfo(path, EPOCH)
            info.create_system = 3  # Unix, wherever the build runs
            info.external_attr = 0o100644 << 16  # a regular file, rw-r--r--
            archive.writestr(info, data)
    return buffer.getvalue()
