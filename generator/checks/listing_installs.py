"""What a user installs at once, and what each install takes of a listing's budget.

A client lists what is installed in it, and users install a repository the way it is
laid out: a project's own client folders (``.claude/``, ``.agents/skills``...) come as
a whole with the project; a marketplace's plugins one by one; a catalogue of skill
folders (outside every client's layout, ComposioHQ/awesome-claude-skills' 865) one
skill at a time. ``installed = "all"`` in ``[tool.skillc.check]`` simulates every
skill and plugin of the project installed at once instead.

Each install's share of a budget is a figure: what its entries' lines cost, in the
budget's unit, over the budget (``--report`` has every one; the text output the
largest, and every one with -v).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator
from typing import Any

from ..checks.harnesses import UNKNOWN, Rule
from ..checks.listings import CUT, DROPPED, OMITTED, TRUNCATED, Entry, Shown
from ..checks.listings import cost_of, line
from ..harness import CLIENTS

EACH, ALL = "each", "all"
PROJECT, PLUGIN, SKILL, EVERYTHING = "project", "plugin", "skill", "all"


@dataclasses.dataclass(frozen=True)
class Install:
    """One install: its kind (the project's own, a plugin, a catalogue's skill, or
    everything at once), its name, what the client then lists, and the entries it is
    about (the others are the project's own, reported in the project's install)."""

    kind: str
    name: str
    listed: list[Entry]
    about: list[Entry]

    @property
    def id(self) -> str:
        return (
            self.kind
            if self.kind in (PROJECT, EVERYTHING)
            else f"{self.kind}:{self.name}"
        )

    def with_what(self) -> str:
        """How a diagnostic says what was installed."""
        if self.kind == PLUGIN:
            return f" with plugin {self.name}"
        if self.kind == SKILL:
            return f" with skill {self.name} installed"
        if self.kind == EVERYTHING:
            return " with every skill and plugin installed"
        return ""


def installs(rule: Rule, listed: list[Entry], installed: str = EACH) -> list[Install]:
    """What a user installs at once, each with what the client then lists: the
    project's own entries, then each plugin with them, then (a client's listing only:
    an API provider is offered the package's tools in one request) each catalogue
    skill with them."""
    if installed == ALL:
        return [Install(EVERYTHING, "", listed, listed)]
    apart = rule.harness in CLIENTS
    own = [e for e in listed if e.plugin is None and not (apart and e.catalogue)]
    result = [Install(PROJECT, "", own, own)]
    for plugin in sorted({e.plugin for e in listed if e.plugin is not None}):
        mine = [e for e in listed if e.plugin == plugin]
        result.append(Install(PLUGIN, plugin, own + mine, mine))
    if apart:
        result += [
            Install(SKILL, e.name, own + [e], [e])
            for e in listed
            if e.plugin is None and e.catalogue
        ]
    return result


def context_of(rule: Rule, size: int | None) -> tuple[int | None, str]:
    """The context size simulated, and how it was chosen: "given", "default" (the
    default model's window) or "unknown" (the harness's fallback, when asked)."""
    if size == UNKNOWN:
        return None, "unknown"
    if size is not None:
        return size, "given"
    return rule.default_context, "default"


def where(rule: Rule, context: int | None, how: str, install: Install | None) -> str:
    """The harness, at which context size (the model named when it is the default
    model's window), with what installed."""
    if context is None and how == "unknown":
        size = " (model's window unknown: its fallback budget)"
    elif context is None:
        size = ""
    elif context % 1000 == 0:
        size = f" at {context // 1000:,}k"
    else:
        size = f" at {context:,} tokens"
    if how == "default" and rule.default_model and context is not None:
        size += f" ({rule.default_model}'s window)"
    return rule.harness + size + (install.with_what() if install else "")


def limit_of(rule: Rule, context: int | None) -> tuple[int, str]:
    """The budget and its unit: characters or tokens, or entries for a list that only
    counts them."""
    if rule.budget is None:
        return rule.max_entries or 1, "entries"
    return rule.budget.limit(context)


def share(cost: int, limit: tuple[int, str]) -> float:
    """``cost`` as a fraction of the budget, to four places (stable in JSON)."""
    return round(cost / limit[0], 4)


def costs(rule: Rule, shown: Iterable[Shown], limit: tuple[int, str]) -> list[int]:
    """What each entry's line costs in the listing, in the budget's unit (0: none)."""
    if limit[1] == "entries":
        return [0 if s.status == OMITTED else 1 for s in shown]
    return [
        0 if s.status == OMITTED else cost_of(limit[1])(line(rule, s) + "\n")
        for s in shown
    ]


def figures(
    install: Install, shown: list[Shown], spent: list[int], limit: tuple[int, str]
) -> dict[str, Any]:
    """An install's figures for ``--report``: its entries, what their lines cost and
    their share of the budget, how many are cut and how many dropped."""
    total = sum(spent)
    return {
        "id": install.id,
        "kind": install.kind,
        "name": install.name,
        "entries": len(shown),
        "cost": total,
        "share": share(total, limit),
        "cut": sum(1 for s in shown if s.status in (CUT, TRUNCATED)),
        "dropped": sum(1 for s in shown if s.status in DROPPED or s.entry.refused),
    }


def summary(results: list[dict[str, Any]], every: bool, most: int = 3) -> Iterator[str]:
    """The text output of each harness's budget: the largest installs' shares (every
    one with ``every``)."""
    for result in results:
        budget = result.get("budget")
        parts = [i for i in result.get("installs", []) if i["entries"]]
        if budget is None or not parts:
            continue
        ranked = sorted(parts, key=lambda i: (-i["cost"], i["id"]))
        shown = ranked if every else ranked[:most]
        said = ", ".join(f"{_named(i)} {i['share']:.1%}" for i in shown)
        rest = (
            ""
            if len(shown) == len(ranked)
            else f" ({len(ranked) - len(shown):,} more with -v; all in --report)"
        )
        yield (
            f"skillc: {result['where']}: a budget of {budget['limit']:,} {budget['unit']}; "
            f"shares: {said}{rest}"
        )


def _named(install: dict[str, Any]) -> str:
    if install["kind"] == PROJECT:
        return "the project's own"
    if install["kind"] == EVERYTHING:
        return "everything"
    return f"{install['kind']} {install['name']}"
