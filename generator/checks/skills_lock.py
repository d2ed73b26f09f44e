"""Third-party skills installed with ``npx skills`` (vercel-labs/skills), verified
against the project lock it writes: ``skills-lock.json`` at the project's root,
``{"version": 1, "skills": {name: {"source", "sourceType", "computedHash", ...}}}``
(a name may be ``source::name``). ``computedHash`` is the SHA-256 of the skill's
folder as installed: every regular file below it (``.git`` and ``node_modules``
folders left out, links not followed), sorted by relative path as JavaScript's
``localeCompare`` sorts, each path (UTF-8, "/"-separated) then its bytes
(vercel-labs/skills src/local-lock.ts, computeSkillFolderHash). ``wellKnownDigest``,
where an entry has one, is the digest of what a well-known index served, not of the
folder: it is recorded in ``--report``, not verified.

A skill is installed in ``.agents/skills/<name>`` (the canonical copy, read by the
universal agents) and linked or copied into each agent's folder, such as
``.claude/skills/<name>`` (src/installer.ts getCanonicalPath, sanitizeName; src/agents.ts
skillsDir, at 82dd76b): every copy found is verified, a link only when it stays inside
the project. A copy whose files differ is a ``skills-lock-mismatch`` error at it, a
skill the lock records and no folder holds a ``skills-lock-missing`` error at its
entry.

The lock and the folders come with a pull request, so both are read as hostile: the
lock a regular file of at most MAX_LOCK_BYTES, UTF-8 JSON at most MAX_DEPTH deep, of
the shape above (a bad entry is a ``skills-lock-invalid`` error for it alone; a bad
lock one error, and nothing verified); a folder walked without recursion, without
following links, up to MAX_FILES files and MAX_FOLDER_BYTES bytes.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import stat
from pathlib import Path
from typing import Any

from ..checks import Subject
from ..checks.collation import locale_key
from ..diagnostics import Report
from ..filestat import read_regular
from ..loaders.frontmatter import json_too_deep

LOCK = "skills-lock.json"
MAX_LOCK_BYTES = 4 * 1024 * 1024
MAX_DEPTH = 16
MAX_FILES = 10_000
MAX_FOLDER_BYTES = 64 * 1024 * 1024
# Where npx skills puts a project's skills: the canonical folder first, then the
# folders of the agents skillc knows that do not read it (src/agents.ts skillsDir).
FOLDERS = (".agents/skills", ".claude/skills", ".cursor/skills")
SKIPPED = frozenset({".git", "node_modules"})
DIGEST = re.compile(r"[0-9a-f]{64}")
STRINGS = ("source", "sourceType", "ref", "skillPath", "sourceUrl", "wellKnownDigest")


def run(subject: Subject, report: Report) -> dict[str, Any]:
    """Each skill the lock records: where it is installed and whether its files are
    the ones recorded."""
    root = subject.config.root
    if not os.path.lexists(root / LOCK):
        return {"lock": None, "skills": []}
    text = _text(root / LOCK, report)
    lock = None if text is None else _parsed(text, report)
    if text is None or lock is None:
        return {"lock": LOCK, "valid": False, "skills": []}
    found = []
    for key, entry in sorted(lock["skills"].items()):
        line = _line_of(text, key)
        problem = _entry_problem(entry)
        if problem is not None:
            _error(report, line, "skills-lock-invalid", f"skill {key!r}: {problem}")
            found.append({"name": key, "status": "invalid"})
            continue
        found.append(_verified(root, key, entry, line, report))
    return {"lock": LOCK, "valid": True, "skills": found}


def _text(path: Path, report: Report) -> str | None:
    data = read_regular(str(path), MAX_LOCK_BYTES)
    if data is None:
        why = f"not a regular file of at most {MAX_LOCK_BYTES:,} bytes"
        _error(report, 1, "skills-lock-invalid", f"{why}; no skill was verified")
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        why = f"not UTF-8 (byte {exc.start:,}); no skill was verified"
        _error(report, 1, "skills-lock-invalid", why)
        return None


def _parsed(text: str, report: Report) -> dict[str, Any] | None:
    """The lock when it is JSON of its shape; else None, and an error says why."""
    deep = json_too_deep(text, MAX_DEPTH)
    try:
        if deep is not None:
            raise json.JSONDecodeError(
                f"nested more than {MAX_DEPTH} levels deep", text, deep
            )
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        why = f"invalid JSON: {exc.msg}; no skill was verified"
        _error(report, exc.lineno, "skills-lock-invalid", why, exc.colno)
        return None
    except ValueError as exc:  # an integer of more digits than Python converts
        _error(report, 1, "skills-lock-invalid", f"invalid JSON: {exc}")
        return None
    problem = _shape_problem(value)
    if problem is not None:
        _error(report, 1, "skills-lock-invalid", f"{problem}; no skill was verified")
        return None
    assert isinstance(value, dict)
    return value


def _shape_problem(value: Any) -> str | None:
    if not isinstance(value, dict):
        return "it is not a JSON object"
    version = value.get("version")
    if isinstance(version, bool) or not isinstance(version, (int, float)):
        return "/version is not a number"
    if not isinstance(value.get("skills"), dict):
        return "/skills is not an object"
    return None


def _entry_problem(entry: Any) -> str | None:
    if not isinstance(entry, dict):
        return "its entry is not an object"
    digest = entry.get("computedHash")
    if not isinstance(digest, str) or not DIGEST.fullmatch(digest):
        return "computedHash is not a SHA-256 digest (64 lowercase hex digits)"
    for key in STRINGS:
        if not isinstance(entry.get(key, ""), str):
            return f"{key} is not a string"
    return None


def _verified(
    root: Path, key: str, entry: dict[str, Any], line: int, report: Report
) -> dict[str, Any]:
    """One recorded skill: each copy found, and how it compares."""
    name = _folder_name(key.rsplit("::", 1)[-1])
    source = entry.get("source") or "an unnamed source"
    recorded = entry["computedHash"]
    result: dict[str, Any] = {
        "name": key,
        "source": entry.get("source"),
        "recorded": recorded,
        "well_known_digest": entry.get("wellKnownDigest"),
        "copies": [],
    }
    places = [f"{folder}/{name}" for folder in FOLDERS]
    copies = [p for p in places if os.path.lexists(root / p)]
    if not copies:
        where = ", ".join(places)
        message = (
            f"skill {key!r} (from {source}) is recorded, and installed in none of "
            f"{where}; reinstall it (npx skills add {source}) or remove it from {LOCK}"
        )
        _error(report, line, "skills-lock-missing", message)
        result["status"] = "missing"
        return result
    verdicts = []
    for place in copies:
        found, why = _digest_of(root, place)
        verdict = "verified" if found == recorded else "mismatch"
        verdicts.append(verdict)
        result["copies"].append({"path": place, "found": found, "status": verdict})
        if verdict == "mismatch":
            what = (
                why
                or f"its files hash to {found[:12]}…, not the {recorded[:12]}… {LOCK} records"
            )
            report.error(
                _at(root, place),
                1,
                1,
                "skills-lock-mismatch",
                f"skill {key!r} (from {source}) is not what {LOCK} records: {what}; "
                "reinstall it, or update the lock if the change is yours",
            )
    result["status"] = "verified" if set(verdicts) == {"verified"} else "mismatch"
    return result


def _folder_name(name: str) -> str:
    """The folder npx skills installs ``name`` in (src/installer.ts sanitizeName)."""
    folder = re.sub(r"[^a-z0-9._]+", "-", name.lower())
    return re.sub(r"^[.\-]+|[.\-]+$", "", folder)[:255] or "unnamed-skill"


def _at(root: Path, place: str) -> str:
    skill = f"{place}/SKILL.md"
    return skill if os.path.isfile(root / skill) else place


def _digest_of(root: Path, place: str) -> tuple[str, str]:
    """The computedHash of the folder at ``place`` ("" and why, when it cannot be)."""
    folder = root / place
    if folder.is_symlink():
        target = folder.resolve()
        if not target.is_relative_to(root.resolve()) or not target.is_dir():
            return "", "it is a link out of the project, or to no folder"
        folder = target
    elif not folder.is_dir():
        return "", "it is not a folder"
    listed = _files(folder)
    if listed is None:
        return "", f"it holds more than {MAX_FILES:,} files and folders"
    files = []
    total = 0
    for relative, path in listed:
        data = read_regular(str(path), MAX_FOLDER_BYTES - total)
        if data is None:
            return "", f"its files are over {MAX_FOLDER_BYTES:,} bytes, or unreadable"
        total += len(data)
        files.append((relative, data))
    digest = hashlib.sha256()
    for relative, data in sorted(files, key=lambda f: locale_key(f[0])):
        digest.update(relative.encode("utf-8"))
        digest.update(data)
    return digest.hexdigest(), ""


def _files(folder: Path) -> list[tuple[str, Path]] | None:
    """Every regular file below ``folder``, by "/"-separated relative path: links
    and other kinds left out, .git and node_modules not entered, no recursion; None
    past MAX_FILES files and folders."""
    stack = [(folder, "")]
    found: list[tuple[str, Path]] = []
    seen = 0
    while stack:
        current, prefix = stack.pop()
        try:
            with os.scandir(current) as entries:
                kinds = [
                    (e.name, e.path, e.stat(follow_symlinks=False).st_mode)
                    for e in entries
                ]
        except OSError:
            continue
        seen += len(kinds)
        if seen > MAX_FILES:
            return None
        for name, path, mode in kinds:
            if stat.S_ISDIR(mode) and name not in SKIPPED:
                stack.append((Path(path), f"{prefix}{name}/"))
            elif stat.S_ISREG(mode):
                found.append((f"{prefix}{name}", Path(path)))
    return found


def _line_of(text: str, key: str) -> int:
    """The line of the lock where ``key`` is first written (1 if not found)."""
    at = text.find(json.dumps(key, ensure_ascii=False))
    return 1 if at < 0 else text.count("\n", 0, at) + 1


def _error(report: Report, line: int, code: str, message: str, col: int = 1) -> None:
    report.error(LOCK, line, col, code, f"{LOCK}: {message}")
