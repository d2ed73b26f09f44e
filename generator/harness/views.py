"""Where each client looks: which clients' layouts hold an item a discovery found, and
whether each one's discovery reaches it (its roots, depth and dot-folder policy), from
the item's path alone. What the item's frontmatter makes of it is ``judge``'s."""

from __future__ import annotations

from dataclasses import dataclass

from . import CLIENTS
from .model import Client, Kind, Root

SKILL_FILE = "SKILL.md"


@dataclass(frozen=True, slots=True)
class Plugin:
    """The plugin an item belongs to: its folder (project-relative), the clients that
    read a manifest it holds, and where its manifest puts its components (relative to
    its folder; ``None``: the client's default folder)."""

    folder: str
    readers: frozenset[str]
    skills: tuple[str, ...] = ()  # added to skills/
    agents: tuple[str, ...] | None = None  # in place of agents/
    commands: tuple[str, ...] | None = None  # in place of commands/


@dataclass(frozen=True, slots=True)
class Reach:
    """One client's view of an item's place: ``loaded`` (its discovery reaches it) or
    ``skipped`` (``why``), at the root ``where`` (project-relative) of rank ``rank``
    in the client's roots (its load order)."""

    client: str
    outcome: str
    why: str
    where: str
    rank: int
    source: str
    cause: str = ""  # of a skip: "file", "dot" or "depth"


def locate(kind: Kind, path: str, plugin: Plugin | None) -> dict[str, Reach]:
    """Each client whose layout holds the item at ``path`` (project-relative, POSIX):
    none when it lies outside every client's layout (a catalogue's item)."""
    parts = path.split("/")
    found = {}
    for client in CLIENTS.values():
        if plugin is not None and client.id not in plugin.readers:
            continue
        best: Reach | None = None
        for rank, root in enumerate(client.roots):
            if root.kind != kind:
                continue
            for where, depth in _roots(root, plugin, parts):
                reach = _reach(client, root, rank, where, parts, depth)
                if best is None or (reach.outcome, best.outcome) == (
                    "loaded",
                    "skipped",
                ):
                    best = reach
        if best is not None:
            found[client.id] = best
    return found


def _roots(
    root: Root, plugin: Plugin | None, parts: list[str]
) -> list[tuple[str, tuple[int, int | None]]]:
    """The places of ``root`` that hold the item (project-relative), each with the
    depth the client reads there."""
    if (root.scope == "plugin") != (plugin is not None):
        return []
    if plugin is None:
        wanted = root.path.split("/")
        size = len(wanted)
        starts = [i for i in range(len(parts) - size) if parts[i : i + size] == wanted]
        return [("/".join(parts[: starts[-1] + size]), root.depth)] if starts else []
    if root.kind == "skill":
        # A listed skills path may name a skill's own folder as well as a folder of them.
        extra = [(path, (0, root.depth[1])) for path in plugin.skills]
        places = [(root.path, root.depth), *extra]
    else:
        listed = plugin.agents if root.kind == "agent" else plugin.commands
        places = [(path, root.depth) for path in listed or (root.path,)]
    found: list[tuple[str, tuple[int, int | None]]] = []
    whole = "/".join(parts)
    for place, depth in places:
        base = "/".join(filter(None, (plugin.folder, place)))
        if whole == base:  # a file the manifest lists
            found.append(("/".join(parts[:-1]), (0, 0)))
        elif not base or whole.startswith(base + "/"):
            found.append((base, depth))
    return found


def _reach(
    client: Client,
    root: Root,
    rank: int,
    where: str,
    parts: list[str],
    depth: tuple[int, int | None],
) -> Reach:
    below = parts[len(where.split("/")) if where else 0 :]
    folders = below[:-1]
    level = len(folders)
    low, high = depth
    why = cause = ""
    if root.kind == "skill" and below[-1] != SKILL_FILE:
        why, cause = f"{client.title} reads {SKILL_FILE} files only", "file"
    elif root.skipped_prefix and below[-1].startswith(root.skipped_prefix):
        prefix = root.skipped_prefix
        why, cause = f"{client.title} skips files starting with {prefix!r}", "file"
    elif not root.dot and any(folder.startswith(".") for folder in folders):
        dotted = next(folder for folder in folders if folder.startswith("."))
        why = f"in the dot folder {dotted}/, which {client.title} does not read"
        cause = "dot"
    elif level < low or (high is not None and level > high):
        why = (
            f"{_levels(level)} below {where or '.'}/; {client.title} reads "
            f"{_span(low, high)}"
        )
        cause = "depth"
    outcome = "skipped" if why else "loaded"
    return Reach(client.id, outcome, why, where, rank, root.source, cause)


def _levels(level: int) -> str:
    return f"{level} folder{'' if level == 1 else 's'}"


def _span(low: int, high: int | None) -> str:
    """How deep a client reads below a root, in folders."""
    if high is None:
        return f"{_levels(low)} or more below it" if low else "at any depth"
    if low == high:
        return f"exactly {_levels(low)} below it"
    return f"{low} to {_levels(high)} below it"
