"""Each client's verdict on what was loaded (``harness.judge``), and what the build
makes of them, before resolution:

- an item no client the build follows loads is left out (listed under
  ``not_compiled``); when every one that reaches it refuses it (a hard limit), that is
  an error at the item (``harness-refused``), unless the rule is one for a sole target
  (a Claude Code subagent among Gemini CLI's refuses a Claude-only key);
- an item is named as the first client that loads it names it, in the order of
  ``harness.CLIENTS`` (Claude Code, Codex, Gemini CLI, OpenCode, Agent Plugins,
  Cursor): one name in every output; where the clients followed disagree (on its name,
  or whether they load it), one ``harness-disagreement`` warning says who does what;
- copies of one name in several clients' folders are one tool: the copy the first
  client that loads one keeps, by its precedence (Gemini CLI's later root, Codex's
  first by path...); each other copy is ``shadowed``.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from . import resolve_names as naming
from .diagnostics import Report
from .discovered import NotCompiled
from .harness import CLIENTS, order
from .harness.judge import Item, Verdict, judge
from .harness.model import Kind as HarnessKind
from .harness.views import Reach
from .ir import Definition, Kind, Position, Shadowed, Verdicts
from .ir import Verdict as Recorded
from .names import skill_name

VERBS = {"skipped": "skips", "refused": "refuses"}
KEPT = {
    "last": "the copy in its later root wins",
    "first": "the copy in its first root wins",
    "path": "it lists every copy, in the order of their paths; skillc keeps the first",
}


@dataclass
class Settled:
    """What ``settle`` kept (renamed), and what it recorded and left out."""

    definitions: list[Definition] = field(default_factory=list)
    shadowed: list[Shadowed] = field(default_factory=list)
    verdicts: list[Verdicts] = field(default_factory=list)
    not_compiled: list[NotCompiled] = field(default_factory=list)


def settle(
    definitions: Iterable[Definition],
    reach: dict[str, dict[str, Reach]],
    targets: tuple[str, ...],
    report: Report,
    left: Iterable[NotCompiled] = (),
) -> Settled:
    """``left``: what discovery left out (its verdicts are recorded too)."""
    settled = Settled()
    chosen: dict[str, list[Verdict]] = {}
    for d in definitions:
        views = reach.get(d.source.path)
        if views is None:  # a catalogue's item: skillc's own rules
            settled.definitions.append(d)
            continue
        verdicts = judge(item_of(d), views, list(targets))
        settled.verdicts.append(_recorded(d, verdicts))
        loaded = [v for v in verdicts if v.outcome == "loaded"]
        if not loaded:
            _left_out(d, verdicts, targets, settled, report)
            continue
        d = _named(d, loaded[0])
        _disagreement(d, verdicts, report)
        chosen[d.source.path] = loaded
        settled.definitions.append(d)
    settled.definitions = _copies(settled, reach, chosen, report)
    settled.verdicts += _unreached(reach, left, targets)
    settled.verdicts.sort(key=lambda v: v.path)
    return settled


def _unreached(
    reach: dict[str, dict[str, Reach]],
    left: Iterable[NotCompiled],
    targets: tuple[str, ...],
) -> list[Verdicts]:
    """The verdicts on what discovery left out (no client followed reaches it)."""
    found = []
    for entry in left:
        views = reach.get(entry.path)
        if views is None:
            continue
        clients = {
            c: Recorded(views[c].outcome, "", views[c].why, views[c].source)
            for c in targets
            if c in views
        }
        found.append(Verdicts(entry.path, entry.kind, clients))
    return found


def item_of(d: Definition) -> Item:
    """What the harness model's checks read of ``d``."""
    if d.kind is Kind.SKILL and not d.command:
        return Item(
            "skill",
            os.path.basename(d.skill_dir or ""),
            d.frontmatter,
            d.plugin,
            not d.yaml_frontmatter,
        )
    # A subagent's or command's frontmatter keys, as its loader kept them.
    keys: dict[str, object] = {"name": d.written_name, "description": d.description}
    keys |= {"tools": list(d.allowed_tools)} if d.allowed_tools else {}
    keys |= {"model": d.model} if d.model else {}
    stem = os.path.splitext(os.path.basename(d.source.path))[0]
    kind: HarnessKind = "command" if d.command else "agent"
    return Item(kind, stem, keys | dict(d.extra), d.plugin, not d.yaml_frontmatter)


def _recorded(d: Definition, verdicts: list[Verdict]) -> Verdicts:
    kind = "command" if d.command else d.kind.value
    clients = {v.client: Recorded(v.outcome, v.name, v.why, v.source) for v in verdicts}
    return Verdicts(d.source.path, kind, clients)


def _left_out(
    d: Definition,
    verdicts: list[Verdict],
    targets: tuple[str, ...],
    settled: Settled,
    report: Report,
) -> None:
    """An item no client followed loads: an error when they refuse it (a rule for a
    sole target only when it is the one), else listed as left out."""
    why = "; ".join(v.why for v in verdicts)
    refused = [v for v in verdicts if v.outcome == "refused"]
    sole = {v.client for v in refused} == set(targets)
    if refused and (sole or not all(v.alone for v in refused)):
        sources = "; ".join(sorted({v.source for v in refused}))
        at = d.source
        report.error(
            at.path,
            at.line,
            at.col,
            "harness-refused",
            f"{why}: left out (see {sources})",
        )
    plugin = d.plugin or ""
    kind = "command" if d.command else d.kind.value
    settled.not_compiled.append(NotCompiled(d.source.path, plugin, why, kind))


def _named(d: Definition, first: Verdict) -> Definition:
    """A skill named as the first client that loads it names it."""
    if d.kind is not Kind.SKILL or d.command or first.bare == d.written_name:
        return d
    name = skill_name(first.bare)
    if not name:
        return d
    return replace(d, name=name, written_name=first.bare)


def _disagreement(d: Definition, verdicts: list[Verdict], report: Report) -> None:
    """One warning at an item on which the clients followed disagree."""
    loaded = [v for v in verdicts if v.outcome == "loaded"]
    names = {v.bare for v in loaded}
    if len(names) == 1 and len(loaded) == len(verdicts):
        return
    said = []
    for v in verdicts:
        title = CLIENTS[v.client].title
        if v.outcome == "loaded":
            said.append(f"{title} loads it as {v.name!r}")
        else:
            said.append(f"{title} {VERBS[v.outcome]} it ({v.why})")
    first = CLIENTS[loaded[0].client].title
    at = d.source
    report.warning(
        at.path,
        at.line,
        at.col,
        "harness-disagreement",
        f"{'; '.join(said)}; skillc compiles it as {d.name!r}, {first}'s name (the "
        "first client followed that loads it)",
    )


def _copies(
    settled: Settled,
    reach: dict[str, dict[str, Reach]],
    chosen: dict[str, list[Verdict]],
    report: Report,
) -> list[Definition]:
    """One tool of copies of one name in several clients' folders: the copy the first
    client that loads one keeps; the others are shadowed."""
    groups: dict[tuple[Kind, str | None, str, bool], list[Definition]] = {}
    for d in settled.definitions:
        if d.source.path in chosen:
            groups.setdefault((d.kind, d.plugin, d.name, d.command), []).append(d)
    lost: set[str] = set()
    for copies in groups.values():
        if len(copies) < 2:
            continue
        client = next(c for c in CLIENTS if any(_loads(chosen, d, c) for d in copies))
        mine = [d for d in copies if _loads(chosen, d, client)]
        kept = _kept(client, mine, reach)
        choice = KEPT[CLIENTS[client].precedence.dedupe] if len(mine) > 1 else ""
        home = reach[kept.source.path][client].where
        for d in copies:
            view = reach[d.source.path].get(client)
            if d is kept or (view is not None and view.where == home):
                continue  # in one root with it: resolution decides
            lost.add(d.source.path)
            _shadowed(settled, d, kept, client, choice, report)
        _other_winners(copies, kept, client, chosen, reach, report)
    return [d for d in settled.definitions if d.source.path not in lost]


def _loads(chosen: dict[str, list[Verdict]], d: Definition, client: str) -> bool:
    return any(v.client == client for v in chosen.get(d.source.path, ()))


def _kept(
    client: str, copies: list[Definition], reach: dict[str, dict[str, Reach]]
) -> Definition:
    """The copy ``client`` keeps of those it loads, by its precedence."""
    rule = CLIENTS[client].precedence.dedupe

    def rank(d: Definition) -> int:
        view = reach[d.source.path].get(client)
        return view.rank if view is not None else -1

    by_path = sorted(copies, key=lambda d: d.source.path)
    if rule == "last":
        return max(reversed(by_path), key=rank)
    if rule == "first":
        return min(by_path, key=rank)
    return by_path[0]


def _shadowed(
    settled: Settled,
    d: Definition,
    kept: Definition,
    client: str,
    choice: str,
    report: Report,
) -> None:
    """``choice``: how ``client`` chose among the copies it loads ("": it loads one)."""
    qualname = naming.qualname_of(naming.named(d))
    settled.shadowed.append(Shadowed(qualname, kept.source, d.source))
    title = CLIENTS[client].title
    if choice:
        why = f"{title}'s choice, the first client followed that loads one: {choice}"
    else:
        why = f"the copy {title} reads, the first client followed that loads one"
    report.warning(
        d.source.path,
        d.source.line,
        d.source.col,
        "shadowed",
        f"{qualname}: the copy in {kept.source.path} wins ({why}); this one is left out",
    )


def _other_winners(
    copies: list[Definition],
    kept: Definition,
    client: str,
    chosen: dict[str, list[Verdict]],
    reach: dict[str, dict[str, Reach]],
    report: Report,
) -> None:
    """One warning when another client followed keeps another copy."""
    others = []
    for other in order({v.client for d in copies for v in chosen[d.source.path]}):
        if other == client:
            continue
        mine = [d for d in copies if _loads(chosen, d, other)]
        if len(mine) < 2:
            continue  # no choice of its own: it reads one of the folders
        theirs = _kept(other, mine, reach)
        if theirs is not kept:
            others.append(f"{CLIENTS[other].title} keeps {theirs.source.path}")
    if others:
        at: Position = kept.source
        report.warning(
            at.path,
            at.line,
            at.col,
            "harness-disagreement",
            f"{CLIENTS[client].title} keeps this copy of {kept.name!r}; "
            f"{'; '.join(others)}; skillc follows {CLIENTS[client].title}",
        )
