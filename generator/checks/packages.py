"""Each package the build wrote (``harness-packages``), read back from disk as its
client loads it: what the client would refuse or skip is a ``package-refused``
error at the written file, naming the client and the rule.

- A plugin, extension or skills folder (Claude Code, Codex, Gemini CLI, Agent
  Plugins, Cursor, OpenCode) is read by skillc's own discovery and loaders following
  that client alone (``Subject.read``, which ``skillc check`` gives): each item the
  client does not load is said with its verdict and the rule's source
  (``generator/harness``), each file the loaders cannot read with what they say.
- Its manifests and marketplace are held to the client's rules where skillc's loaders
  do not read them as the client does (``package_files``).
- An upload bundle (openai-skills, anthropic-skills) is one zip a skill: one top-level
  folder holding a ``SKILL.md`` whose name is the folder's, and the bytes the lock
  records (``package_files.bundle``).

A package edited by hand is also stale (``build --check`` says which files differ);
these findings say whether its client still loads it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..checks import Subject
from ..diagnostic import Diagnostic
from ..diagnostics import Report, Severity
from ..harness import CLIENTS
from ..writer import previous_lock
from . import package_files
from .package_files import Finding

CODE = "package-refused"
FOLDER = "packages"
# What the loaders say of an item a client refuses: the verdict says it, with its rule.
SAID_BY_VERDICTS = frozenset({"harness-refused"})


def run(subject: Subject, report: Report) -> list[dict[str, Any]]:
    """Every package written, checked: the findings, each also an error."""
    config = subject.config
    found: list[Finding] = []
    for client in config.harness_packages:
        folder = config.out_dir / FOLDER / client
        if folder.is_symlink() or not folder.is_dir():
            continue  # not written: build --check says it is missing
        shown = f"{config.out}/{FOLDER}/{client}"
        if client in package_files.BUNDLES:
            owned = previous_lock(config.out_dir)
            found += package_files.bundles(client, folder, shown, owned)
            continue
        found += package_files.manifests(client, folder, shown)
        if subject.read is not None:
            found += _read_back(subject, client, folder, shown)
    for finding in sorted(set(found)):
        report.error(finding.path, finding.line, finding.col, CODE, finding.message)
    return [finding._asdict() for finding in sorted(set(found))]


def _read_back(
    subject: Subject, client: str, folder: Path, shown: str
) -> list[Finding]:
    """What ``client`` makes of the package's items, as skillc reads them."""
    assert subject.read is not None
    title = CLIENTS[client].title
    model, said = subject.read(client, folder)
    found = [
        _said(client, title, shown, d)
        for d in said
        if d.severity is Severity.ERROR and d.code not in SAID_BY_VERDICTS
    ]
    for item in model.verdicts if model is not None else ():
        verdict = item.clients.get(client)
        if verdict is None or verdict.outcome == "loaded":
            continue
        rule = f" (see {verdict.source})" if verdict.source else ""
        message = f"{client}: {verdict.why}{rule}"
        found.append(Finding(client, f"{shown}/{item.path}", 1, 1, message))
    return found


def _said(client: str, title: str, shown: str, d: Diagnostic) -> Finding:
    """A loader's error on a written file: the client cannot load it as written."""
    message = f"{client}: {title} cannot load it as written: {d.message} [{d.code}]"
    return Finding(client, f"{shown}/{d.path}", d.line, d.col, message)
