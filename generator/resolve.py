"""Resolution: names, precedence and collisions, from definitions to the one model.

- every skill and subagent is a ``task`` tool; a plugin's go one level down,
  ``task.<plugin>.<name>``;
- a later source root overrides an earlier root's tool of the same name (recorded);
- two tools of one name in one root and namespace, or two names that become the same
  Python identifier, are errors naming both files.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from generator.diagnostics import Report
from generator.ir import (
    Argument,
    Definition,
    Model,
    Namespace,
    Override,
    SourceFile,
    Tool,
)
from generator.names import PARAMETER_RESERVED, Identifier, identifier

TASK = Identifier("task")
TASK_SUMMARY = "Skills and subagents: each call returns the instructions to carry out."
# Level 1 entries must stay under 100 tokens; the estimate below is conservative, and this
# budget leaves room for tokenizers that count differently.
LEVEL1_TOKENS = 80
# Parameters every task function has, so a named argument may not take them.
TASK_PARAMETERS = frozenset({"arguments", "prompt"})


@dataclass(frozen=True, slots=True)
class _Named:
    namespace: tuple[Identifier, ...]
    py_name: Identifier
    definition: Definition


def resolve(
    definitions: Iterable[Definition],
    plugin_summaries: dict[str, str],
    sources: tuple[SourceFile, ...],
    generator: str,
    report: Report,
) -> Model:
    named = [
        _name(d) for d in sorted(definitions, key=lambda d: (d.root, d.source.path))
    ]
    winners: dict[tuple[tuple[Identifier, ...], str], _Named] = {}
    overrides: list[Override] = []
    seen_in_root: dict[tuple[int, tuple[Identifier, ...], str], _Named] = {}
    for item in named:
        d = item.definition
        key = (d.root, item.namespace, d.name)
        if key in seen_in_root:
            first = seen_in_root[key].definition
            report.error(
                d.source.path,
                1,
                1,
                "duplicate-name",
                f"{d.kind.value} {d.name!r} is also defined in {first.source.path}",
            )
            continue
        seen_in_root[key] = item
        previous = winners.get((item.namespace, d.name))
        if previous is not None:
            overrides.append(
                Override(_qualname(item), d.source, previous.definition.source)
            )
            report.warning(
                d.source.path,
                1,
                1,
                "override",
                f"overrides {previous.definition.source.path} (a later source root wins)",
            )
        winners[(item.namespace, d.name)] = item
    survivors = _drop_identifier_collisions(list(winners.values()), report)
    survivors = _drop_namespace_clashes(survivors, report)
    tools = tuple(
        sorted((_tool(item, report) for item in survivors), key=lambda t: t.qualname)
    )
    return Model(
        generator=generator,
        sources=sources,
        tools=tools,
        namespaces=_namespaces(tools, plugin_summaries),
        overrides=tuple(sorted(overrides, key=lambda o: o.qualname)),
        invalid=(),  # the pipeline fills it from every stage's diagnostics
    )


def estimate_tokens(text: str) -> int:
    """A conservative token count: four ASCII characters a token, one per other character."""
    ascii_chars = len(text) if text.isascii() else len(text.encode("ascii", "ignore"))
    return -(-ascii_chars // 4) + len(text) - ascii_chars


def summarize(text: str, budget: int = LEVEL1_TOKENS) -> str:
    """Level 1 text: the description on one line, cut at a sentence or word to fit ``budget``."""
    flat = " ".join(text.split())
    if estimate_tokens(flat) <= budget:
        return flat
    end = 0
    while end < len(flat) and estimate_tokens(flat[: end + 1]) < budget:
        end += 1  # the longest prefix that leaves a token for the ellipsis
    cut = flat[:end]
    sentence = cut.rfind(". ")
    if sentence > len(cut) // 3:
        return cut[: sentence + 1]
    space = cut.rfind(" ")
    return (cut[:space] if space > 0 else cut).rstrip(",;:") + "…"


def _name(d: Definition) -> _Named:
    namespace = (TASK,) if d.plugin is None else (TASK, identifier(d.plugin))
    return _Named(namespace, identifier(d.name), d)


def _qualname(item: _Named) -> str:
    return ".".join((*item.namespace, item.py_name))


def _drop_identifier_collisions(items: list[_Named], report: Report) -> list[_Named]:
    by_identifier: dict[tuple[tuple[Identifier, ...], Identifier], _Named] = {}
    kept = []
    for item in sorted(
        items, key=lambda i: (i.definition.source.path, i.definition.name)
    ):
        other = by_identifier.get((item.namespace, item.py_name))
        if other is not None:
            report.error(
                item.definition.source.path,
                1,
                1,
                "identifier-collision",
                f"{item.definition.name!r} and {other.definition.name!r} "
                f"({other.definition.source.path}) both become {_qualname(item)}",
            )
            continue
        by_identifier[(item.namespace, item.py_name)] = item
        kept.append(item)
    return kept


def _drop_namespace_clashes(items: list[_Named], report: Report) -> list[_Named]:
    """A tool may not take the name of a plugin's namespace beside it."""
    namespaces = {item.namespace for item in items}
    kept = []
    for item in items:
        if (*item.namespace, item.py_name) in namespaces:
            report.error(
                item.definition.source.path,
                1,
                1,
                "identifier-collision",
                f"{_qualname(item)} is also the namespace of a plugin",
            )
            continue
        kept.append(item)
    return kept


def _tool(item: _Named, report: Report) -> Tool:
    d = item.definition
    arguments: list[Argument] = []
    taken: dict[Identifier, str] = {}
    for name in d.arguments:
        py_name = identifier(name, PARAMETER_RESERVED | TASK_PARAMETERS)
        if py_name in taken:
            report.error(
                d.source.path,
                1,
                1,
                "identifier-collision",
                f"arguments {taken[py_name]!r} and {name!r} both become the parameter {py_name}",
            )
            continue
        taken[py_name] = name
        arguments.append(Argument(name, py_name))
    return Tool(
        qualname=_qualname(item),
        namespace=item.namespace,
        py_name=item.py_name,
        summary=summarize(
            d.description, LEVEL1_TOKENS - estimate_tokens(_qualname(item))
        ),
        arguments=tuple(arguments),
        definition=d,
    )


def _namespaces(
    tools: tuple[Tool, ...], plugin_summaries: dict[str, str]
) -> tuple[Namespace, ...]:
    paths: set[tuple[Identifier, ...]] = {(TASK,)} if tools else set()
    for tool in tools:
        for depth in range(1, len(tool.namespace) + 1):
            paths.add(tool.namespace[:depth])
    result = []
    for path in sorted(paths):
        plugin = next(
            (
                t.definition.plugin
                for t in tools
                if t.namespace == path and t.definition.plugin
            ),
            None,
        )
        summary = TASK_SUMMARY
        if plugin is not None:
            summary = summarize(
                plugin_summaries.get(plugin)
                or f"Skills and subagents of the {plugin} plugin."
            )
        result.append(
            Namespace(
                qualname=".".join(path),
                path=path,
                summary=summary,
                tools=tuple(t.py_name for t in tools if t.namespace == path),
                children=tuple(
                    sorted(
                        p[-1]
                        for p in paths
                        if len(p) == len(path) + 1 and p[:-1] == path
                    )
                ),
            )
        )
    return tuple(result)
