"""``skillc check``'s listing check: each harness asked for (by default Claude Code and
Codex, each at its default model's window), simulated as users install the project
(``listing_installs``) with ``listings``' rules; a diagnostic per entry a harness cuts
or drops, and each install's share of each budget as a figure."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from .. import tokens
from ..checks import Subject
from ..checks.harnesses import DEFAULT_HARNESSES, RULES, Rule
from ..checks.listing_installs import (
    context_of,
    costs,
    figures,
    installs,
    limit_of,
    share,
    where,
)
from ..checks.listings import CUT, DROPPED, OMITTED, TRUNCATED, Entry, Shown
from ..checks.listings import entries, simulate
from ..diagnostics import Report


def run(subject: Subject, report: Report) -> list[dict[str, Any]]:
    """Each harness asked for: its budget, what it shows, each install's share, and a
    diagnostic per entry it cuts or drops."""
    asked = subject.options.budgets or tuple((h, None) for h in DEFAULT_HARNESSES)
    placed = frozenset(v.path for v in subject.model.verdicts)
    return [
        _harness(subject, report, RULES[harness], size, placed)
        for harness, size in asked
    ]


def _harness(
    subject: Subject,
    report: Report,
    rule: Rule,
    size: int | None,
    placed: frozenset[str],
) -> dict[str, Any]:
    context, how = context_of(rule, size)
    listed = entries(rule, subject.model.tools, placed)
    limit = limit_of(rule, context)
    rows, parts = [], []
    for install in installs(rule, listed, subject.options.installed):
        said = where(rule, context, how, install)
        about = {id(e) for e in install.about}
        shown = [
            s for s in simulate(rule, install.listed, context) if id(s.entry) in about
        ]
        spent = costs(rule, shown, limit)
        for item, cost in zip(shown, spent):
            _say(report, rule, said, item, limit, len(install.listed))
            rows.append(_row(item, cost, limit, install.id))
        parts.append(figures(install, shown, spent, limit))
    cut = _compaction(subject, report, rule, listed, where(rule, context, how, None))
    return {
        "harness": rule.harness,
        "context": context,
        "context_from": how,  # given, default (the model's window) or unknown
        "model": rule.default_model if how == "default" else None,
        "where": where(rule, context, how, None),
        "budget": (
            None if rule.budget is None else {"limit": limit[0], "unit": limit[1]}
        ),
        "sources": list(rule.sources),
        "entries": rows,
        "installs": parts,
        "compaction_cut": cut,
    }


def _row(
    item: Shown, cost: int, limit: tuple[int, str], install: str
) -> dict[str, Any]:
    e = item.entry
    return {
        "tool": e.tool,
        "name": e.name,
        "plugin": e.plugin,
        "install": install,  # the id of its install in "installs"
        "status": item.status,
        "chars": len(e.text),
        "shown": item.chars,
        "cost": cost,  # of its line, in the budget's unit
        "share": share(cost, limit),
    }


def _compaction(
    subject: Subject, report: Report, rule: Rule, listed: list[Entry], said: str
) -> list[str]:
    """A warning per skill Claude Code cuts when it re-attaches it; their tools."""
    count = tokens.counter(subject.config.token_counter)
    cut = list(_after_compaction(rule, listed, count))
    for entry, size in cut:
        report.warning(
            entry.source.path,
            entry.source.line,
            entry.source.col,
            "compaction-cut",
            f"{said}: {entry.tool}'s instructions are {size:,} tokens "
            f"({subject.config.token_counter}); after compaction Claude Code "
            f"re-attaches an invoked skill at up to {rule.reattach_tokens:,}",
        )
    return [entry.tool for entry, _ in cut]


def _say(
    report: Report,
    rule: Rule,
    where: str,
    item: Shown,
    limit: tuple[int, str],
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
            if rule.budget is None
            else f"its {_budget(limit)} is spent"
        )
        report.error(
            *at,
            "listing-dropped",
            f"{where} {lost} ({why}); shorten descriptions or list fewer tools",
        )


def _budget(limit: tuple[int, str]) -> str:
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
