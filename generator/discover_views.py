"""Which clients reach what a discovery found, and what is left out (issue 46's rule:
discovery never skips without a word).

Each skill, subagent and command found in a client's layout (``.claude/skills``, a
plugin's ``skills/``...) gets each client's view of its place (``harness.views``):
it is compiled when a client the build follows reaches it, else left out. A
catalogue's item (outside every client's layout) is compiled as installed, unless it
lies in a dot folder. What is left out is listed in ``report.json`` under
``not_compiled`` with the reason, and summarised once per reason in an info line.
"""

from __future__ import annotations

import contextlib
import fnmatch
import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from . import survey
from .diagnostics import Report
from .discover_plugins import PluginFolder
from .discovered import Found, Kind, NotCompiled, relative
from .harness import CLIENTS, marked, order, readers, targets
from .harness.model import Kind as HarnessKind
from .harness.views import Plugin, Reach, locate

# Dot folders a catalogue's item may lie in (where skillc has always read them).
VISIBLE_DOT_DIRS = frozenset({".claude", ".agents"})
# The summary line of each reason things are left out for.
SAID = {
    "dot": "in dot folders, which no client the build follows reads there",
    "depth": "at a depth no client the build follows reads",
    "untargeted": "in the layouts of clients the build does not follow (harnesses)",
    "skipped": "that no client the build follows loads",
    "file": "single-file skills (<name>.md), which no client the build follows loads",
}
SHOWN_FOLDERS = 3
KINDS: dict[Kind, HarnessKind] = {
    Kind.SKILL: "skill",
    Kind.AGENT: "agent",
    Kind.COMMAND: "command",
}
# Folders never looked through for definitions.
UNLOOKED = frozenset({".git", "node_modules", "__pycache__", ".venv", "venv"})


def _project_roots(kind: str) -> list[list[str]]:
    return [
        root.path.split("/")
        for client in CLIENTS.values()
        for root in client.roots
        if root.kind == kind and root.scope == "project"
    ]


SKILL_ROOTS = _project_roots("skill")
# Files of a skills folder that are no skill (a single-file skill has frontmatter).
NOT_SKILLS = frozenset({"README.md", "CHANGELOG.md", "LICENSE.md", "AGENTS.md"})


def in_agents(folder: str, project: str) -> bool:
    """Whether ``folder`` lies below a folder named ``agents``: a client's
    (``.claude/agents``, ``.gemini/agents``: each client's depth says whether it reads
    the files there) or a catalogue's, whose subagents are installed into one."""
    return "agents" in relative(folder, project).split("/")[:-1]


def single_files(folder: str, files: list[str]) -> list[str]:
    """The Markdown files with frontmatter directly in a client's skills folder
    (``.opencode/skills/review.md``): single-file skills, which no client followed
    loads (OpenCode's V2 documentation describes them; its 1.x loader reads
    ``<name>/SKILL.md`` only: harness/opencode.py)."""
    parts = folder.split(os.sep)
    if not any(parts[-len(root) :] == root for root in SKILL_ROOTS):
        return []
    found = []
    for name in files:
        if name.endswith(".md") and name not in NOT_SKILLS and name != "SKILL.md":
            path = os.path.join(folder, name)
            with contextlib.suppress(OSError), open(path, "rb") as file:
                if file.read(4).startswith(b"---"):
                    found.append(path)
    return found


def client_folders() -> dict[str, frozenset[str]]:
    """Each dot folder where a client keeps definitions, and the subfolders of it
    that a client reads (``.gemini``: skills and agents)."""
    found: dict[str, set[str]] = {}
    for client in CLIENTS.values():
        for root in client.roots:
            first, _, rest = root.path.partition("/")
            if root.scope == "project" and first.startswith("."):
                found.setdefault(first, set()).add(rest.split("/")[0])
    return {name: frozenset(children) for name, children in found.items()}


@dataclass
class Placed:
    """What ``place`` decided."""

    targets: tuple[str, ...]
    kept: list[Found] = field(default_factory=list)
    left: list[Found] = field(default_factory=list)
    not_compiled: list[NotCompiled] = field(default_factory=list)
    # Each item in a client's layout, by project-relative path: each client's view.
    reach: dict[str, dict[str, Reach]] = field(default_factory=dict)
    causes: dict[str, str] = field(default_factory=dict)  # of each item left out
    counts: dict[str, str] = field(default_factory=dict)  # of each folder left out

    def broken(self, links: dict[str, dict[str, Reach]], report: Report) -> None:
        """Links to nothing in clients' layouts: an error for a client the build
        follows (located, and said to be that client's copy: with keep-going the
        others still build), else left out."""
        for rel, views in sorted(links.items()):
            mine = [views[c] for c in order(views) if c in self.targets]
            titles = ", ".join(CLIENTS[c].title for c in order(views))
            what = "a symbolic link to nothing, not a file or folder"
            if mine:
                report.error(
                    rel,
                    1,
                    1,
                    "file-unreadable",
                    f"{what}: a skill in {titles}'s layout ({mine[0].where}/) cannot "
                    "be read (keep-going = true builds the rest)",
                )
            else:
                why = f"{what}, in the layout of {titles}, which the build does not follow"
                self.not_compiled.append(NotCompiled(rel, "", why, "skill"))
                self.causes[rel] = "untargeted"

    def left_outside(
        self,
        project: Path,
        roots: list[Path],
        skip: tuple[Path, ...],
        exclude: tuple[str, ...],
    ) -> None:
        """What looks like a definition outside every source, by top folder."""
        for counts, entry in survey.outside(project, roots, skip):
            if exclude and any(fnmatch.fnmatchcase(entry.path, p) for p in exclude):
                continue
            self.not_compiled.append(entry)
            self.causes[entry.path] = "outside"
            self.counts[entry.path] = counts

    def left_singles(self, paths: list[str], project: Path) -> None:
        """Single-file skills in clients' skills folders: left out."""
        for path in paths:
            rel = relative(path, project)
            why = (
                "a single-file skill: the clients followed read <name>/SKILL.md only "
                "(OpenCode's V2 documentation describes single-file skills; its 1.x "
                "loader, anomalyco/opencode skill/index.ts@a2cc772:23-25, globs "
                "SKILL.md only)"
            )
            self.not_compiled.append(NotCompiled(rel, "", why, "skill"))
            self.causes[rel] = "file"

    def left_hidden(
        self, folders: list[str], project: Path, exclude: tuple[str, ...]
    ) -> None:
        """The definitions in dot folders the walk only looked through: left out."""
        for kind, path in looked_through(folders):
            rel = relative(path, project)
            if exclude and any(fnmatch.fnmatchcase(rel, p) for p in exclude):
                continue
            why = (
                f"in the dot folder {_dotted(rel)}/, which no client skillc "
                "follows reads there"
            )
            self.not_compiled.append(NotCompiled(rel, "", why, kind))
            self.causes[rel] = "dot"


def marks_of(roots: Iterable[Path], project: Path) -> set[str]:
    """The clients whose marks the source roots' own paths hold (``.claude`` as a
    source root, ``.agents/skills``...)."""
    found = set()
    for root in roots:
        parts = relative(root, project).split("/")
        for index, part in enumerate(parts):
            if part not in ("", ".", ".."):
                found |= marked(os.path.join(project, *parts[:index]), [part])
    return found


def place(
    found: list[Found],
    plugins: dict[str, PluginFolder],
    roots: list[Path],
    project: Path,
    chosen: tuple[str, ...],
    met: set[str],
) -> Placed:
    """Keep what a client the build follows (``chosen``, else the clients whose marks
    were ``met``) reaches, and what lies outside every client's layout."""
    placed = Placed(tuple(order(targets(_Chosen(chosen), met))))
    followed = frozenset(placed.targets)
    contexts: dict[Path, Plugin] = {}
    for item in found:
        if item.kind is Kind.TOOL:
            placed.kept.append(item)
            continue
        rel = relative(item.path, project)
        plugin = None
        if item.plugin is not None:
            if item.plugin not in contexts:
                contexts[item.plugin] = _context(plugins[str(item.plugin)], project)
            plugin = contexts[item.plugin]
        views = locate(KINDS[item.kind], rel, plugin)
        if views:
            placed.reach[rel] = views
            why, cause = _left_out(views, followed)
        else:
            why, cause = _catalogue(relative(item.path, roots[item.root]))
        if not why:
            placed.kept.append(item)
            continue
        placed.left.append(item)
        name = "" if plugin is None else os.path.basename(plugin.folder)
        placed.not_compiled.append(NotCompiled(rel, name, why, item.kind.value))
        placed.causes[rel] = cause
    return placed


def looked_through(folders: list[str], most: int = 2000) -> list[tuple[str, str]]:
    """The definitions below ``folders`` (dot folders no client reads where they are):
    each ``SKILL.md``, and each ``*.md`` file in a folder named ``agents`` or
    ``commands`` (at most ``most`` folders looked at)."""
    found: list[tuple[str, str]] = []
    looked = 0
    for top in sorted(folders):
        for folder, subfolders, files in os.walk(top):
            subfolders[:] = sorted(n for n in subfolders if n not in UNLOOKED)
            looked += 1
            if looked > most:
                return found
            base = os.path.basename(folder)
            for name in sorted(files):
                if name == "SKILL.md":
                    found.append(("skill", os.path.join(folder, name)))
                elif name.endswith(".md") and base in ("agents", "commands"):
                    found.append((base[:-1], os.path.join(folder, name)))
    return found


def inputs_of(items: list[Found]) -> set[str]:
    """The input files of ``items``."""
    paths = set()
    for item in items:
        path = os.fspath(item.path)
        paths.add(path)
        if item.kind is Kind.SKILL:
            folder = os.path.dirname(path)
            paths |= {os.path.join(folder, name) for name in item.files}
            paths |= {
                os.path.join(folder, n) for n in ("metadata.yaml", "agents/openai.yaml")
            }
    return paths


def _dotted(rel: str) -> str:
    """The first dot folder of a project-relative path."""
    return next(p for p in rel.split("/") if p.startswith(".") and p.strip("."))


def summarise(
    left: list[NotCompiled],
    causes: dict[str, str],
    report: Report,
    counts: dict[str, str] | None = None,
) -> None:
    """One info line per reason things were left out for: how many, and where
    (``counts``: of what each folder left out whole holds)."""
    by_cause: dict[str, list[str]] = {}
    for entry in left:
        cause = causes.get(entry.path, "skipped")
        if cause == "outside":  # one entry per top folder, its counts as its kind
            report.info(
                entry.path,
                1,
                1,
                "not-compiled",
                f"{(counts or {})[entry.path]} not compiled, {entry.reason}",
            )
            continue
        by_cause.setdefault(cause, []).append(entry.path)
    for cause, paths in sorted(by_cause.items()):
        folders = sorted({_holder(path) for path in paths})
        shown = ", ".join(f"{folder}/" for folder in folders[:SHOWN_FOLDERS])
        more = len(folders) - SHOWN_FOLDERS
        if more > 0:
            shown += f" and {more} more folder{'s' * (more > 1)}"
        count = len(paths)
        report.info(
            folders[0],
            1,
            1,
            "not-compiled",
            f"{count} definition{'s' * (count > 1)} not compiled, {SAID[cause]}: "
            f"{shown} (report.json lists each under not_compiled, with the reason)",
        )


def _holder(path: str) -> str:
    """The folder holding an item: a skill's folder's parent, a file's folder."""
    parts = path.split("/")
    cut = 2 if parts[-1] == "SKILL.md" else 1
    return "/".join(parts[:-cut]) or "."


def _left_out(views: dict[str, Reach], followed: frozenset[str]) -> tuple[str, str]:
    """Why no followed client reaches an item ("" when one does), and the cause."""
    mine = [views[c] for c in order(views) if c in followed]
    if any(view.outcome == "loaded" for view in mine):
        return "", ""
    if not mine:
        titles = ", ".join(CLIENTS[c].title for c in order(views))
        return f"read by {titles}, which the build does not follow", "untargeted"
    causes = {view.cause for view in mine}
    why = "; ".join(f"{CLIENTS[v.client].title}: {v.why}" for v in mine)
    return why, causes.pop() if len(causes) == 1 else "skipped"


def _catalogue(rel: str) -> tuple[str, str]:
    """A catalogue's item (``rel``: below its source root) is compiled as installed,
    unless a folder of its path is a dot folder no client reads."""
    for folder in rel.split("/")[:-1]:
        if folder.startswith(".") and folder not in VISIBLE_DOT_DIRS:
            return (
                f"in the dot folder {folder}/ of a catalogue, outside every client's "
                "layout: no client reads it there",
                "dot",
            )
    return "", ""


def _context(folder: PluginFolder, project: Path) -> Plugin:
    """A plugin as the harness model sees it: where it is, which clients read it."""
    # An entry of a marketplace without a manifest of its own is read as the entry.
    held = ["marketplace"] if "#" in folder.key else None
    layout = folder.layout
    return Plugin(
        relative(folder.folder, project),
        frozenset(readers(folder.folder, held)),
        layout.skills,
        layout.agents,
        layout.commands,
    )


@dataclass(frozen=True)
class _Chosen:
    harnesses: tuple[str, ...]
