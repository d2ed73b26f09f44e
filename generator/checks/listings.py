"""Listing budgets per harness: what Claude Code, Codex and the API providers show of
this catalogue at a context size, and which entries they cut, truncate or drop.

A harness is one ``Rule`` in ``harnesses.RULES``, with the source of each number beside
it; a rule's ``overflow`` names how it fits a listing that is too long ("rank": whole
descriptions kept in rank order, the rest shown as bare names; "share": every
description shortened alike, then skills left out; "count": entries past a maximum
left out).

An entry whose description a harness would drop (a bare name, or no entry at all) is an
error: a model cannot pick a skill by a description it never sees. One cut or
shortened is a warning. Usage is unknown at build time: where a harness ranks by use,
equal use is assumed, in the catalogue's order.
"""

from __future__ import annotations

import dataclasses

from collections.abc import Callable

from ..checks.harnesses import Rule
from ..harness import CLIENTS
from ..harness.judge import refusal
from ..ir import Definition, Function, Position, Tool
from ..verdicts import item_of
from ..views.builder import root_problem

FULL, CUT, TRUNCATED, NAME_ONLY, OMITTED = (
    "full",
    "cut",
    "truncated",
    "name-only",
    "omitted",
)
DROPPED = frozenset({NAME_ONLY, OMITTED})


@dataclasses.dataclass(frozen=True)
class Entry:
    tool: str
    name: str
    text: str
    path: str
    source: Position
    body: str = ""  # what an invocation loads (skills and commands)
    plugin: str | None = None
    refused: str = ""  # why the harness drops the skill whole, whatever its budget
    catalogue: bool = False  # a catalogue's item, outside every client's layout


@dataclasses.dataclass(frozen=True)
class Shown:
    entry: Entry
    status: str
    chars: int  # of its text shown


def entries(
    rule: Rule, tools: tuple[Tool, ...], placed: frozenset[str] | None = None
) -> list[Entry]:
    """What ``rule``'s harness lists of the catalogue, in the catalogue's order.
    ``placed``: the paths of the items in a client's layout (the model's verdicts);
    the project's others are a catalogue's, installed one by one."""
    listed = []
    for tool in tools:
        d = tool.definition
        if kind(d) not in rule.kinds or not tool.model_invocable:
            continue
        if rule.naming == "provider":
            schema = {"type": "object"} if isinstance(d, Definition) else d.input_schema
            if root_problem(dict(schema)) is not None:
                continue  # in no provider file (the build says why)
            name = tool.provider_name
        elif rule.naming == "claude" and isinstance(d, Definition) and d.plugin:
            name = f"{d.plugin}:{d.name}"
        else:
            name = d.name
        parts = [d.description]
        if isinstance(d, Definition):
            parts += [str(d.extra.get(f) or "") for f in rule.fields[1:]]
        text = " ".join(" ".join(p.split()) for p in parts if p and p.strip())
        body = d.body if isinstance(d, Definition) else ""
        path = rule.path_root + d.source.path
        plugin = d.plugin if isinstance(d, Definition) else None
        refused = _refused(rule, d)
        apart = placed is not None and plugin is None and d.source.path not in placed
        listed.append(
            Entry(
                tool.qualname, name, text, path, d.source, body, plugin, refused, apart
            )
        )
    return listed


def _refused(rule: Rule, d: Definition | Function) -> str:
    """Why a harness that is a client of the harness model drops a skill whole (Codex:
    a description over 1,024 characters, a name over 64): "" when it does not."""
    if rule.harness not in CLIENTS or not isinstance(d, Definition) or d.command:
        return ""
    return refusal(rule.harness, item_of(d))


def kind(d: Definition | Function) -> str:
    """skill, command (a Markdown command is a skill that a skill of its name beats),
    agent or tool."""
    return "command" if d.command else d.kind.value


def simulate(rule: Rule, listed: list[Entry], context: int | None) -> list[Shown]:
    """What the harness shows of each entry (none of one it drops whole)."""
    shown = iter(_fitted(rule, [e for e in listed if not e.refused], context))
    return [Shown(e, OMITTED, 0) if e.refused else next(shown) for e in listed]


def _fitted(rule: Rule, listed: list[Entry], context: int | None) -> list[Shown]:
    capped = [_capped(rule, e) for e in listed]
    if rule.overflow == "count":
        limit = rule.max_entries or len(capped)
        return [
            shown if i < limit else Shown(shown.entry, OMITTED, 0)
            for i, shown in enumerate(capped)
        ]
    assert rule.budget is not None
    limit, unit = rule.budget.limit(context)
    fit = _ranked if rule.overflow == "rank" else _shared
    return fit(rule, capped, limit, unit)


def _capped(rule: Rule, entry: Entry) -> Shown:
    if rule.entry_cap is not None and len(entry.text) > rule.entry_cap:
        return Shown(entry, CUT, rule.entry_cap)
    return Shown(entry, FULL, len(entry.text))


def line(rule: Rule, shown: Shown, chars: int | None = None) -> str:
    e = shown.entry
    text = e.text[: shown.chars if chars is None else chars]
    form = rule.line if text else rule.bare
    return form.format(name=e.name, text=text, path=e.path)


def _ranked(rule: Rule, capped: list[Shown], limit: int, unit: str) -> list[Shown]:
    """Claude Code: every name is listed; descriptions are granted whole, in rank
    order, while the listing stays within the budget (in characters)."""
    full = [len(line(rule, s)) + 1 for s in capped]
    if sum(full) <= limit:
        return capped
    used = sum(len(line(rule, s, 0)) + 1 for s in capped)
    result = []
    for shown, cost in zip(capped, full):
        extra = cost - len(line(rule, shown, 0)) - 1
        if shown.chars == 0 or used + extra <= limit:
            used += extra
            result.append(shown)
        else:
            result.append(Shown(shown.entry, NAME_ONLY, 0))
    return result


def _shared(rule: Rule, capped: list[Shown], limit: int, unit: str) -> list[Shown]:
    """Codex: every description whole if all fit; else each shortened alike, a
    character at a time in turn (a short one's unused share goes to the others); else
    no descriptions, and the entries past the budget left out."""
    cost = cost_of(unit)
    if sum(cost(line(rule, s) + "\n") for s in capped) <= limit:
        return capped
    minimum = [cost(line(rule, s, 0) + "\n") for s in capped]
    if sum(minimum) > limit:
        used, result = 0, []
        for shown, size in zip(capped, minimum):
            kept = used + size <= limit
            used += size if kept else 0
            status = (NAME_ONLY if shown.chars else shown.status) if kept else OMITTED
            result.append(Shown(shown.entry, status, 0))
        return result
    extra = [_extra_costs(rule, s, unit) for s in capped]
    given = [0] * len(capped)
    spent = [0] * len(capped)
    remaining = limit - sum(minimum)
    changed = True
    while changed:
        changed = False
        for i, shown in enumerate(capped):
            if given[i] >= shown.chars:
                continue
            delta = extra[i][given[i] + 1] - spent[i]
            if delta <= remaining:
                given[i] += 1
                spent[i] += delta
                remaining -= delta
                changed = True
    return [
        s if n == s.chars else Shown(s.entry, TRUNCATED if n else NAME_ONLY, n)
        for s, n in zip(capped, given)
    ]


def cost_of(unit: str) -> Callable[[str], int]:
    if unit == "chars":
        return len
    return lambda text: -(-len(text.encode("utf-8")) // 4)


def _extra_costs(rule: Rule, shown: Shown, unit: str) -> list[int]:
    """What each length of the entry's text adds to its bare line (and a space)."""
    bare = line(rule, shown, 0) + "\n"
    if unit == "chars":
        return [0] + [n + 1 for n in range(1, shown.chars + 1)]
    start = len(bare.encode("utf-8"))
    costs, size = [0], start + 1
    for char in shown.entry.text[: shown.chars]:
        size += len(char.encode("utf-8"))
        costs.append(-(-size // 4) - -(-start // 4))
    return costs
