"""What ``skillc init`` chooses as sources, and what it says about the repository
(issue 46): it scans the whole repository first (``survey``), then chooses sources so
that each client's view the repository ships is compiled:

- a root that is a marketplace or a plugin (``.claude-plugin/marketplace.json``...):
  the root, with every client's folder in it (Claude Code users install the
  marketplace; the mirrors for Codex and Gemini CLI are read in it too);
- else each client's folder at the root (``.claude/skills``, ``.agents/skills``,
  ``.gemini/``...), and each folder holding a marketplace or plugins;
- else the plain catalogue folders (``skills``, ``agents``), or the root when it
  holds skill folders one or two levels down.

A catalogue of installable definitions elsewhere (``components/``, a dot-folder
catalogue such as ``skills/.curated``) is compiled only when asked for
(``--catalogue FOLDER``); the summary says so, and what each folder holds. The summary
is what a build of the chosen sources would find (discovery itself is run on them):
what it compiles, what it leaves out and why, and the defects it would stop on."""

from __future__ import annotations

import os
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from . import discover, project, survey
from .diagnostics import Report, Severity
from .harness import CLIENTS, order
from .harness.model import Kind as HarnessKind
from .harness.views import locate

KINDS = ("skill", "agent", "command")
SHOWN = 6  # folders listed by name in a group; the others are counted


@dataclass
class Plan:
    sources: list[str]
    why: str
    lines: list[str] = field(default_factory=list)  # the summary


def plan(root: Path, out: str = "generated", catalogues: tuple[str, ...] = ()) -> Plan:
    """The sources for the repository at ``root`` (``catalogues``: folders to compile
    as installed too), and the summary."""
    skip = (root / out,)
    found = survey.scan(root, skip)
    sources, why = _choose(root, found)
    for folder in catalogues:
        wanted = _catalogue(root, folder)
        sources = [s for s in sources if s != folder] + [
            s for s in wanted if s not in sources
        ]
        why = f"{why}; and the catalogue{'s' * (len(catalogues) > 1)} asked for"
    result = Plan(sources, why)
    result.lines += _found(found)
    if sources:
        result.lines += _built(root, sources, skip, found)
    result.lines += _catalogues(root, found, sources)
    return result


def _choose(root: Path, found: survey.Survey) -> tuple[list[str], str]:
    manifest = project.root_manifest(root)
    if manifest is not None:
        return ["."], f"the root: {manifest} makes it a marketplace or plugin"
    chosen = [s for s in project.CLIENT_FOLDERS if (root / s).is_dir()]
    for path in sorted(found.marketplaces + found.manifests):
        holder = _holder_of(path)
        if holder and not _inside(holder, chosen) and not holder.startswith("."):
            chosen.append(holder)
    if chosen:
        return chosen, "each client's folder, marketplace and plugins found here"
    plain = [s for s in ("skills", "agents") if (root / s).is_dir()]
    if plain:
        return plain, "a catalogue's folders (no client's layout is here)"
    if any(path.count("/") in (1, 2) for kind, path in found.definitions):
        return ["."], "the root: it holds skill folders"
    return [], ""


def _holder_of(path: str) -> str:
    """The source that reads a manifest: a marketplace's folder; the folder holding a
    plugin's folder (``plugins/`` for ``plugins/x/.claude-plugin/plugin.json``)."""
    parts = path.split("/")
    folder = parts[:-2] if len(parts) > 1 and parts[-2].startswith(".") else parts[:-1]
    if path.endswith("marketplace.json") or len(folder) < 2:
        return "/".join(folder)
    return "/".join(folder[:-1])


def _inside(path: str, sources: list[str]) -> bool:
    return any(path == s or path.startswith(s + "/") or s == "." for s in sources)


def _catalogue(root: Path, folder: str) -> list[str]:
    """A catalogue as sources: the folder, or its dot folders (``skills/.curated``...)
    when its skills are in those."""
    base = root / folder
    dotted = sorted(
        f"{folder}/{entry.name}"
        for entry in os.scandir(base)
        if entry.is_dir() and entry.name.startswith(".")
    )
    return dotted or [folder]


def _found(found: survey.Survey) -> list[str]:
    """What the repository holds, by where it lies: each client's layout, the plugins,
    and the rest by top folder."""
    groups: dict[str, Counter[str]] = {}
    plugins = sorted(_plugin_folder(path) for path in found.manifests)
    for kind, path in found.definitions:
        groups.setdefault(_layout(path, plugins), Counter())[kind] += 1
    counts = Counter(kind for kind, _ in found.definitions)
    lines = [
        f"skillc: found {survey.counted(counts) or 'no definitions'}, "
        f"{len(found.manifests)} plugin manifest(s), "
        f"{len(found.marketplaces)} marketplace(s)"
        + (" (the scan stopped at 50,000 folders)" if found.cut else "")
    ]
    lines += [
        f"  {where}: {survey.counted(kinds)}" for where, kinds in sorted(groups.items())
    ]
    links = Counter(_layout(f"{path}/SKILL.md", []) for path in found.links)
    lines += [
        f"  {where}: {n} link(s) to nothing" for where, n in sorted(links.items())
    ]
    return lines


def _plugin_folder(manifest: str) -> str:
    parts = manifest.split("/")
    cut = 2 if len(parts) > 1 and parts[-2][:1] == "." else 1
    return "/".join(parts[:-cut])


def _layout(path: str, plugins: list[str]) -> str:
    """Where a definition lies, as the summary names it: a client's folder, the
    plugins of a top folder, or a top folder."""
    holder = next((p for p in plugins if path.startswith(p + "/") or not p), None)
    if holder is not None:
        top = holder.split("/")[0] if holder else "."
        return f"{top}/ (plugins)"
    kind: HarnessKind = "skill" if path.endswith("SKILL.md") else "agent"
    views = locate(kind, path, None) or locate("command", path, None)
    if views:
        client = order(views)[0]
        titles = ", ".join(CLIENTS[c].title for c in order(views))
        where = views[client].where
        if where.count("/") > 1:  # a client's folder deep in a tree: by the tree
            return f"{where.split('/')[0]}/ ({titles}'s folders in it)"
        return f"{where}/ ({titles})"
    top = path.split("/")[0]
    return f"{top}/" if "/" in path else "./"


def _built(
    root: Path, sources: list[str], skip: tuple[Path, ...], found: survey.Survey
) -> list[str]:
    """What a build of ``sources`` finds: its discovery, run here."""
    report = Report()
    roots = [(root / s).resolve() for s in sources]
    seen = discover.discover(roots, root.resolve(), skip, report)
    kept: Counter[str] = Counter(
        item.kind.value for item in seen.found if item.kind.value in KINDS
    )
    lines = [
        f"skillc: these sources compile {survey.counted(kept) or 'nothing'} "
        f"(followed: {', '.join(CLIENTS[c].title for c in seen.targets) or 'none'})"
    ]
    left: dict[str, list[str]] = {}
    for entry in seen.not_compiled:
        if entry.kind in KINDS:
            left.setdefault(_reason(entry.reason, entry.path), []).append(entry.path)
    for reason, paths in sorted(left.items()):
        lines.append(f"  not compiled: {_folders(paths)}: {reason}")
    errors: dict[str, int] = Counter(
        os.path.dirname(d.path) or "."
        for d in report.items
        if d.severity is Severity.ERROR
    )
    if errors:
        where = ", ".join(f"{folder}/ ({n})" for folder, n in sorted(errors.items()))
        lines.append(
            f"  defects the build stops on: {where} (each located by skillc build; "
            "keep-going = true builds the rest, or a harnesses setting without the "
            "client whose copy is broken leaves it out)"
        )
    return lines


def _reason(why: str, path: str) -> str:
    """A reason without the item's own particulars (its folder, its depth)."""
    if "of a catalogue" in why:  # skills/.curated/x/SKILL.md: skills/.curated
        parts = path.split("/")
        dotted = "/".join(parts[: next(i for i, p in enumerate(parts) if p[:1] == ".")])
        return (
            "a catalogue's dot folders, which no client reads there: skillc init "
            f"--catalogue {dotted or '.'} compiles each as installed"
        )
    if "dot folder" in why:
        return "in dot folders no client followed reads there"
    if "below" in why and "reads" in why:  # "2 folders below x/; Claude Code reads..."
        said = "; ".join(part for part in why.split("; ") if " reads " in part)
        return f"at a depth no client followed reads ({said})"
    return why


def _folders(paths: list[str]) -> str:
    holders = sorted({os.path.dirname(os.path.dirname(p)) or "." for p in paths})
    shown = ", ".join(f"{h}/" for h in holders[:SHOWN])
    more = len(holders) - SHOWN
    return f"{len(paths):,} in {shown}" + (
        f" and {more} more folders" if more > 0 else ""
    )


def _catalogues(root: Path, found: survey.Survey, sources: list[str]) -> list[str]:
    """What lies outside the sources: by top folder, with what to do about it."""
    outside: dict[str, Counter[str]] = {}
    for kind, path in found.definitions:
        if not _inside(path, sources):
            outside.setdefault(path.split("/")[0], Counter())[kind] += 1
    lines = []
    for top, kinds in sorted(outside.items()):
        if top in survey.VENDORED:
            why = "vendored or generated: not compiled"
        elif locate("skill", f"{top}/x/SKILL.md", None):
            why = "a client's folder outside the sources"
        else:
            why = (
                "a catalogue of installable definitions, outside every client's "
                f"layout: not compiled; skillc init --catalogue {top} compiles each "
                f'as installed (or add "{top}" to sources)'
            )
        lines.append(f"  {top}/: {survey.counted(kinds)}: {why}")
    return lines
