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

from collections.abc import Callable, Iterator
from typing import Any

from .. import tokens
from ..checks import Subject
from ..checks.harnesses import DEFAULT_HARNESSES, RULES, Rule
from ..harness import CLIENTS
from ..harness.judge import refusal
from ..diagnostics import Report
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


@dataclasses.dataclass(frozen=True)
class Shown:
    entry: Entry
    status: str
    chars: int  # of its text shown


def entries(rule: Rule, tools: tuple[Tool, ...]) -> list[Entry]:
    """What ``rule``'s harness lists of the catalogue, in the catalogue's order."""
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
        listed.append(
            Entry(tool.qualname, name, text, path, d.source, body, plugin, refused)
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


def installs(listed: list[Entry]) -> list[tuple[str | None, list[Entry]]]:
    """What a user installs at once: the project's own entries, and each plugin with
    them (a marketplace's plugins are installed one by one). Each with the plugin whose
    entries it is about (None: the project's)."""
    own = [e for e in listed if e.plugin is None]
    plugins = sorted({e.plugin for e in listed if e.plugin is not None})
    return [(None, own)] + [
        (p, own + [e for e in listed if e.plugin == p]) for p in plugins
    ]


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


def _line(rule: Rule, shown: Shown, chars: int | None = None) -> str:
    e = shown.entry
    text = e.text[: shown.chars if chars is None else chars]
    form = rule.line if text else rule.bare
    return form.format(name=e.name, text=text, path=e.path)


def _ranked(rule: Rule, capped: list[Shown], limit: int, unit: str) -> list[Shown]:
    """Claude Code: every name is listed; descriptions are granted whole, in rank
    order, while the listing stays within the budget (in characters)."""
    full = [len(_line(rule, s)) + 1 for s in capped]
    if sum(full) <= limit:
        return capped
    used = sum(len(_line(rule, s, 0)) + 1 for s in capped)
    result = []
    for shown, cost in zip(capped, full):
        extra = cost - len(_line(rule, shown, 0)) - 1
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
    cost = _cost(unit)
    if sum(cost(_line(rule, s) + "\n") for s in capped) <= limit:
        return capped
    minimum = [cost(_line(rule, s, 0) + "\n") for s in capped]
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


def _cost(unit: str) -> Callable[[str], int]:
    if unit == "chars":
        return len
    return lambda text: -(-len(text.encode("utf-8")) // 4)


def _extra_costs(rule: Rule, shown: Shown, unit: str) -> list[int]:
    """What each length of the entry's text adds to its bare line (and a space)."""
    bare = _line(rule, shown, 0) + "\n"
    if unit == "chars":
        return [0] + [n + 1 for n in range(1, shown.chars + 1)]
    start = len(bare.encode("utf-8"))
    costs, size = [0], start + 1
    for char in shown.entry.text[: shown.chars]:
        size += len(char.encode("utf-8"))
        costs.append(-(-size // 4) - -(-start // 4))
    return costs


def run(subject: Subject, report: Report) -> list[dict[str, Any]]:
    """Each harness asked for: its budget, what it shows, and a diagnostic per entry it
    cuts or drops."""
    asked = subject.options.budgets or tuple((h, None) for h in DEFAULT_HARNESSES)
    count = tokens.counter(subject.config.token_counter)
    results = []
    for harness, size in asked:
        rule = RULES[harness]
        context = size if size is not None else rule.default_context
        listed = entries(rule, subject.model.tools)
        limit = rule.budget.limit(context) if rule.budget else None
        shown = []
        for plugin, installed in installs(listed):
            where = _where(rule, context, plugin)
            for item in simulate(rule, installed, context):
                if item.entry.plugin == plugin:
                    shown.append(item)
                    _say(report, rule, where, item, limit, len(installed))
        where = _where(rule, context, None)
        compaction = list(_after_compaction(rule, listed, count))
        for entry, size_ in compaction:
            report.warning(
                entry.source.path,
                entry.source.line,
                entry.source.col,
                "compaction-cut",
                f"{where}: {entry.tool}'s instructions are {size_:,} tokens "
                f"({subject.config.token_counter}); after compaction Claude Code "
                f"re-attaches an invoked skill at up to {rule.reattach_tokens:,}",
            )
        results.append(
            {
                "harness": harness,
                "context": context,
                "budget": (
                    None if limit is None else {"limit": limit[0], "unit": limit[1]}
                ),
                "sources": list(rule.sources),
                "entries": [
                    {
                        "tool": s.entry.tool,
                        "name": s.entry.name,
                        "plugin": s.entry.plugin,
                        "status": s.status,
                        "chars": len(s.entry.text),
                        "shown": s.chars,
                    }
                    for s in shown
                ],
                "compaction_cut": [entry.tool for entry, _ in compaction],
            }
        )
    return results


def _where(rule: Rule, context: int | None, plugin: str | None) -> str:
    """The harness, at which context size, with which plugin installed."""
    if context is None:
        size = " (context size unknown)"
    elif context % 1000 == 0:
        size = f" at {context // 1000:,}k"
    else:
        size = f" at {context:,} tokens"
    return rule.harness + size + (f" with plugin {plugin}" if plugin else "")


def _say(
    report: Report,
    rule: Rule,
    where: str,
    item: Shown,
    limit: tuple[int, str] | None,
    total: int,
) -> None:
    e = item.entry
    at = (e.source.path, e.source.line, e.source.col)
    size = f"{len(e.text):,} characters"
    if item.status == CUT:
        report.warning(
            *at,
            "listing-cut",
            f"{where} shows {rule.entry_cap:,} of the {size} of {e.tool}'s "
            f"{' + '.join(rule.fields)}; the rest is never seen",
        )
    elif item.status == TRUNCATED:
        report.warning(
            *at,
            "listing-cut",
            f"{where} shortens {e.tool}'s description to {item.chars:,} of its "
            f"{size} to fit the listing's {_budget(limit)}",
        )
    elif e.refused:
        report.error(
            *at,
            "listing-dropped",
            f"{where} leaves {e.tool} out, whatever its budget: {e.refused} "
            "('failed to load skill')",
        )
    elif item.status in DROPPED:
        lost = (
            f"leaves {e.tool} out"
            if item.status == OMITTED
            else f"drops {e.tool}'s description and shows its name alone"
        )
        why = (
            f"{rule.max_entries:,} entries at most, {total:,} offered"
            if limit is None
            else f"its {_budget(limit)} is spent"
        )
        report.error(
            *at,
            "listing-dropped",
            f"{where} {lost} ({why}); shorten descriptions or list fewer tools",
        )


def _budget(limit: tuple[int, str] | None) -> str:
    assert limit is not None
    return f"budget of {limit[0]:,} {limit[1]}"


def _after_compaction(
    rule: Rule, listed: list[Entry], count: Callable[[str], int]
) -> Iterator[tuple[Entry, int]]:
    """The skills whose instructions Claude Code cuts when it re-attaches them."""
    if rule.reattach_tokens is None:
        return
    for entry in listed:
        if entry.body and len(entry.body) > rule.reattach_tokens:  # cheap bound first
            size = count(entry.body)
            if size > rule.reattach_tokens:
                yield entry, size
