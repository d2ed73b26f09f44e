"""Resolution's naming rules: each definition's Python name, and what happens when two
tools would get one name.

- a name deeper than ``max-namespace-depth`` is an error;
- a name the package itself uses (``help``, ``list``, ``dispatch``...) is escaped
  (``help_``), with a warning;
- tools Claude Code loads side by side that would get one name are kept apart
  (``<name>-agent``, ``-2``...), as are two names that become one Python identifier
  (``_2``...), each with a warning;
- an alias that would take another name is dropped (an error), and two tools may not
  share a provider name.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from .diagnostics import Report
from .ir import Definition, Function, Kind
from .names import (
    NAMESPACE_HELP,
    NAMESPACE_LIST,
    PACKAGE_ATTRIBUTES,
    Identifier,
    dotted_name,
    identifier,
    provider_name,
)


@dataclass(frozen=True, slots=True)
class Named:
    namespace: tuple[Identifier, ...]
    py_name: Identifier
    definition: Definition | Function


def provider_names(
    items: list[Named], limit: int, report: Report
) -> list[tuple[str, str] | None]:
    """Each tool's name for providers that reject dots, and for those that keep them; a
    skill script keeps its seed 001 id. Two tools may not share one (the dispatcher maps
    names back by table): the second is None."""
    taken: dict[str, Named] = {}
    result: list[tuple[str, str] | None] = []
    for item in items:
        d = item.definition
        qualname = qualname_of(item)
        script_id = d.provider_id
        original = ".".join(d.path)
        chosen = script_id or provider_name(original, limit)
        if script_id is None and chosen != provider_name(original, 1 << 16):
            report.info(  # skillc's own naming, nothing to fix in the source
                d.source.path,
                d.source.line,
                d.source.col,
                "provider-name-shortened",
                f"{qualname} is {chosen!r} for providers, shortened to "
                f"provider-name-limit ({limit}) characters",
            )
        other = taken.get(chosen)
        if other is not None:
            report.error(
                d.source.path,
                d.source.line,
                d.source.col,
                "provider-name-collision",
                f"{qualname} and {qualname_of(other)} ({other.definition.source}) "
                f"both become the provider name {chosen!r}",
            )
            result.append(None)
            continue
        taken[chosen] = item
        result.append((chosen, dotted_name(original, chosen)))
    return result


def within_depth(d: Definition | Function, max_depth: int, report: Report) -> bool:
    if d.authored_depth <= max_depth:
        return True
    report.error(
        d.source.path,
        d.source.line,
        d.source.col,
        "namespace-too-deep",
        f"{'.'.join(d.path)} has {len(d.path)} dotted levels; the limit is {max_depth}: "
        f"raise it with max-namespace-depth = {len(d.path)} under [tool.skillc] in "
        "pyproject.toml",
    )
    return False


def named(d: Definition | Function) -> Named:
    # Provider names derive from ``d.path`` as its authors wrote it, never from these
    # Python identifiers (``s3.file.list`` stays ``s3__file__list``).
    path = tuple(identifier(part) for part in d.path)
    return Named(path[:-1], path[-1], d)


def qualname_of(item: Named) -> str:
    return ".".join((*item.namespace, item.py_name))


def _written(d: Definition | Function) -> str:
    """A tool's name as its author wrote it."""
    return d.written_name if isinstance(d, Definition) else d.path[-1]


def _first_kept(item: Named) -> tuple[bool, str, str, int]:
    """Who keeps a name that several tools normalise to: the one written as it is
    normalised (``docker-hub-automation``, ``get_user_info``), then by code point."""
    d = item.definition
    written = _written(d)
    if isinstance(d, Definition):
        canonical = written == d.name
    else:
        canonical = written.replace("-", "_") == item.py_name
    return (not canonical, written, d.source.path, d.source.line)


def tell_apart(items: list[Named], report: Report) -> list[Named]:
    """Skills, commands and subagents that Claude Code loads side by side but that
    would get one name here are kept apart (never an error, never a lost tool):

    - a subagent named like a skill or command (a plugin's ``claude-security`` skill
      and agent) is ``<name>-agent``; the skill or command keeps the name;
    - tools of one source root whose names differ as written but normalise alike
      (folders ``docker_hub-automation`` and ``docker-hub-automation``) keep the name
      in the order of ``_first_kept``; the others take ``-2``, ``-3``...

    A warning names both. Two written alike stay a ``duplicate-name`` error."""
    taken = {
        (item.namespace, item.definition.name)
        for item in items
        if isinstance(item.definition, Definition)
    }
    current = {id(item): item for item in items}
    by_name: dict[tuple[tuple[Identifier, ...], str], list[Named]] = {}
    for item in items:
        if isinstance(item.definition, Definition):
            by_name.setdefault((item.namespace, item.definition.name), []).append(item)
    for (namespace, name), group in sorted(by_name.items(), key=lambda g: g[0]):
        agents = [i for i in group if i.definition.kind is Kind.AGENT]
        others = [i for i in group if i.definition.kind is not Kind.AGENT]
        groups = [(name, group)]
        if agents and others:
            other = others[0].definition
            what = "command" if other.command else "skill"
            agent_name = _free(namespace, f"{name}-agent", taken)
            for item in agents:
                current[id(item)] = _renamed(
                    item,
                    agent_name,
                    report,
                    "duplicate-name",
                    f"subagent {name!r} shares its name with the {what} "
                    f"{other.source.path}; the subagent is ",
                )
            groups = [(name, others), (agent_name, agents)]
        for shared, members in groups:
            for tied in _side_by_side(members):
                kept, *rest = sorted(tied, key=lambda i: _first_kept(current[id(i)]))
                first = current[id(kept)].definition
                seen = {_written(first)}
                for item in rest:
                    written = _written(item.definition)
                    if written in seen:
                        continue  # written alike: a duplicate-name error below
                    seen.add(written)
                    current[id(item)] = _renamed(
                        current[id(item)],
                        _free(namespace, shared, taken),
                        report,
                        "identifier-collision",
                        f"{written!r} and {_written(first)!r} ({first.source.path}) both "
                        f"normalise to {shared!r}; this one is ",
                    )
    return [current[id(item)] for item in items]


def _side_by_side(group: list[Named]) -> list[list[Named]]:
    """Tools of one name that would stand side by side: same source root, same kind
    (a later root overrides; a skill shadows a command)."""
    tied: dict[tuple[int, bool], list[Named]] = {}
    for item in group:
        tied.setdefault((item.definition.root, item.definition.command), []).append(
            item
        )
    return [items for items in tied.values() if len(items) > 1]


def _free(
    namespace: tuple[Identifier, ...],
    name: str,
    taken: set[tuple[tuple[Identifier, ...], str]],
) -> str:
    """``name``, or ``name-2``, ``name-3``... whichever no tool of ``namespace`` has."""
    number = 1
    candidate = name
    while (namespace, candidate) in taken:
        number += 1
        candidate = f"{name}-{number}"
    taken.add((namespace, candidate))
    return candidate


def _renamed(item: Named, name: str, report: Report, code: str, why: str) -> Named:
    d = item.definition
    assert isinstance(d, Definition)
    d = dataclasses.replace(d, name=name)
    new = named(d)
    new = Named(item.namespace, new.py_name, d)
    report.warning(
        d.source.path, d.source.line, d.source.col, code, why + qualname_of(new)
    )
    return new


def drop_identifier_collisions(items: list[Named], report: Report) -> list[Named]:
    """Tools of one namespace whose names differ as written but become one Python
    identifier (``get_user_info`` and ``getUserInfo``): the first by ``_first_kept``
    keeps it, the others take ``_2``, ``_3``... (their provider names stay as
    written, and apart). A warning names both."""
    by_identifier: dict[tuple[tuple[Identifier, ...], Identifier], list[Named]] = {}
    for item in items:
        by_identifier.setdefault((item.namespace, item.py_name), []).append(item)
    taken = set(by_identifier)
    kept = []
    for (namespace, py_name), group in by_identifier.items():
        first, *rest = sorted(group, key=_first_kept)
        kept.append(first)
        for item in rest:
            number = 2
            while (namespace, Identifier(f"{py_name}_{number}")) in taken:
                number += 1
            new = Identifier(f"{py_name}_{number}")
            taken.add((namespace, new))
            d, other = item.definition, first.definition
            report.warning(
                d.source.path,
                d.source.line,
                d.source.col,
                "identifier-collision",
                f"{_written(d)!r} and {_written(other)!r} ({other.source}) both "
                f"become {qualname_of(first)}; this one is {'.'.join((*namespace, new))}",
            )
            kept.append(Named(namespace, new, d))
    return kept


def escape_reserved(item: Named, report: Report) -> Named:
    """The documented escape for names the package itself uses: a tool or namespace
    named ``help`` below the top is reached as ``help_`` (``help()`` is its namespace's),
    and a top-level namespace named like a package function (``dispatch``, ``list``...)
    as ``dispatch_``; a warning says so. Provider names keep the original name."""
    path = (*item.namespace, item.py_name)
    escaped = tuple(
        (
            Identifier(part + "_")
            if (depth == 0 and part in PACKAGE_ATTRIBUTES)
            or (depth > 0 and part == NAMESPACE_HELP)
            else part
        )
        for depth, part in enumerate(path)
    )
    d = item.definition
    listing = [
        depth for depth, part in enumerate(path) if depth and part == NAMESPACE_LIST
    ]
    if listing:  # the README's rule: it takes the namespace's list()
        owner = ".".join(path[: listing[0]])
        report.warning(
            d.source.path,
            d.source.line,
            d.source.col,
            "reserved-name",
            f"{'.'.join(path[: listing[0] + 1])} takes the place of the {owner} "
            "namespace's list(); filter its tools with the package's "
            f"tools(namespace={owner!r}, tag=...) or see them with help()",
        )
    if escaped == path:
        return item
    report.warning(
        d.source.path,
        d.source.line,
        d.source.col,
        "reserved-name",
        f"{'.'.join(path)} is reached as {'.'.join(escaped)}: the package's own "
        f"help(), list(), dispatch()... keep their names",
    )
    return Named(escaped[:-1], escaped[-1], d)


def drop_alias_clashes(items: list[Named], report: Report) -> list[tuple[str, ...]]:
    """Each tool's aliases but those that would take a tool's, a namespace's or another
    alias's name."""
    taken: dict[str, str] = {}
    for item in items:
        qualname = qualname_of(item)
        taken[qualname] = qualname
    taken |= {name: f"the package's own {name}()" for name in PACKAGE_ATTRIBUTES}
    for item in items:
        for depth in range(1, len(item.namespace) + 1):
            taken.setdefault(".".join(item.namespace[:depth]), "a namespace")
    result = []
    for item in items:
        kept = []
        for alias in _aliases(item.definition):
            if alias.rpartition(".")[2] in (NAMESPACE_HELP, "list"):
                taken.setdefault(alias, f"the {alias}() of its namespace")
            if alias in taken:
                d = item.definition
                report.error(
                    d.source.path,
                    d.source.line,
                    d.source.col,
                    "identifier-collision",
                    f"alias {alias} of {qualname_of(item)} is already {taken[alias]}",
                )
                continue
            taken[alias] = f"an alias of {qualname_of(item)}"
            kept.append(alias)
        result.append(tuple(kept))
    return result


def _aliases(d: Definition | Function) -> tuple[str, ...]:
    """A callable tool's aliases, as dotted Python names below the package."""
    if not isinstance(d, Function):
        return ()
    return tuple(
        ".".join(identifier(part) for part in alias.split(".")) for alias in d.aliases
    )
