"""Resolution: names, precedence and collisions, from definitions to the one model
(the naming rules are in ``generator/resolve_names.py``).

- every skill and subagent is a ``task`` tool; a plugin's go one level down,
  ``task.<plugin>.<name>``;
- a later source root overrides an earlier root's tool of the same name (recorded);
- two tools of one name in one root and namespace, or two names that become the same
  Python identifier, are errors naming both files;
- a tool and a namespace may share a name (``todo`` beside ``todo.add``): the namespace
  is callable and runs the tool.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from . import resolve_names as naming
from .diagnostics import Report
from .tokens import estimate_tokens
from .ir import (
    Argument,
    Definition,
    Function,
    Model,
    Namespace,
    Override,
    Parameter,
    Shadowed,
    SourceFile,
    Tool,
)
from .names import (
    DEFAULT_PROVIDER_NAME_LIMIT,
    PARAMETER_RESERVED,
    Identifier,
    identifier,
)

TASK = Identifier("task")
# Built-in tools come from this pseudo source root; they win every name conflict.
BUILTIN_ROOT = -1
# Seed 000's api.github.repo.get: deeper names are an error unless configured.
MAX_DEPTH = 4
TASK_SUMMARY = "Skills and subagents: each call returns the instructions to carry out."
# Level 1 entries must stay under 100 tokens; the estimate below is conservative, and this
# budget leaves room for tokenizers that count differently.
LEVEL1_TOKENS = 80
# Parameters every task function has, so a named argument may not take them.
TASK_PARAMETERS = frozenset({"arguments", "prompt"})


def resolve(
    definitions: Iterable[Definition | Function],
    summaries: dict[str, str],
    sources: tuple[SourceFile, ...],
    generator: str,
    report: Report,
    max_depth: int = MAX_DEPTH,
    provider_limit: int = DEFAULT_PROVIDER_NAME_LIMIT,
) -> Model:
    """``summaries`` holds plugin descriptions by plugin name and namespace descriptions
    by dotted namespace."""
    named = [
        naming.named(d)
        for d in sorted(  # commands first: a skill of the same name wins over one
            definitions,
            key=lambda d: (not d.command, d.root, d.source.path, d.source.line),
        )
        if naming.within_depth(d, max_depth, report)
    ]
    named = [naming.escape_reserved(item, report) for item in named]
    named = naming.tell_apart(named, report)
    winners: dict[tuple[tuple[Identifier, ...], str], naming.Named] = {}
    overrides: list[Override] = []
    shadowed: list[Shadowed] = []
    seen_in_root: dict[tuple[int, tuple[Identifier, ...], str, bool], naming.Named] = {}
    for item in named:
        d = item.definition
        key = (d.root, item.namespace, d.name, d.command)
        if key in seen_in_root:
            first = seen_in_root[key].definition
            report.error(
                d.source.path,
                d.source.line,
                d.source.col,
                "duplicate-name",
                f"{d.kind.value} {d.name!r} is also defined in {first.source}",
            )
            continue
        seen_in_root[key] = item
        previous = winners.get((item.namespace, d.name))
        if previous is not None and previous.definition.root == BUILTIN_ROOT:
            shadowed.append(
                Shadowed(naming.qualname_of(item), previous.definition.source, d.source)
            )
            report.warning(
                d.source.path,
                d.source.line,
                d.source.col,
                "shadowed",
                f"{naming.qualname_of(item)} is a built-in tool, which wins; this one is left out",
            )
            continue
        if previous is not None and previous.definition.command and not d.command:
            # Claude Code: a skill wins over a command of its name (issue 13: shadowed).
            shadowed.append(
                Shadowed(naming.qualname_of(item), d.source, previous.definition.source)
            )
            report.warning(
                previous.definition.source.path,
                1,
                1,
                "shadowed",
                f"{naming.qualname_of(item)}: the skill {d.source.path} wins over this command "
                "of its name, which is left out",
            )
        elif previous is not None:
            overrides.append(
                Override(naming.qualname_of(item), d.source, previous.definition.source)
            )
            report.warning(
                d.source.path,
                1,
                1,
                "override",
                f"overrides {previous.definition.source.path} (a later source root wins)",
            )
        winners[(item.namespace, d.name)] = item
    survivors = sorted(
        naming.drop_identifier_collisions(list(winners.values()), report),
        key=naming.qualname_of,
    )
    # Every name first, then each tool made once, with them.
    aliases = naming.drop_alias_clashes(survivors, report)
    names = naming.provider_names(survivors, provider_limit, report)
    tools = tuple(
        _tool(item, report, kept, *chosen)
        for item, kept, chosen in zip(survivors, aliases, names)
        if chosen is not None
    )
    return Model(
        generator=generator,
        sources=sources,
        tools=tools,
        namespaces=_namespaces(tools, summaries),
        overrides=tuple(sorted(overrides, key=lambda o: o.qualname)),
        invalid=(),  # the pipeline fills it from every stage's diagnostics
        shadowed=tuple(sorted(shadowed, key=lambda s: (s.qualname, s.shadowed.path))),
    )


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


def _tool(
    item: naming.Named,
    report: Report,
    aliases: tuple[str, ...],
    provider_name: str,
    dotted_name: str,
) -> Tool:
    """The tool of ``item``, with the names the whole model's resolution gave it."""
    d = item.definition
    if isinstance(d, Function):
        return _function_tool(item, d, report, aliases, provider_name, dotted_name)
    arguments: list[Argument] = []
    taken: dict[Identifier, str] = {}
    for name in d.arguments:
        py_name = identifier(name, PARAMETER_RESERVED | TASK_PARAMETERS)
        if py_name in taken:
            report.error(
                d.source.path,
                d.source.line,
                d.source.col,
                "identifier-collision",
                f"arguments {taken[py_name]!r} and {name!r} both become the parameter {py_name}",
            )
            continue
        taken[py_name] = name
        arguments.append(Argument(name, py_name))
    return Tool(
        qualname=naming.qualname_of(item),
        namespace=item.namespace,
        py_name=item.py_name,
        summary=summarize(
            d.description, LEVEL1_TOKENS - estimate_tokens(naming.qualname_of(item))
        ),
        arguments=tuple(arguments),
        definition=d,
        aliases=aliases,
        provider_name=provider_name,
        dotted_name=dotted_name,
    )


def _function_tool(
    item: naming.Named,
    d: Function,
    report: Report,
    aliases: tuple[str, ...],
    provider_name: str,
    dotted_name: str,
) -> Tool:
    properties: dict[str, Any] = dict(d.input_schema.get("properties") or {})
    required = [n for n in d.input_schema.get("required") or [] if n in properties]
    order = required + [n for n in properties if n not in required]
    parameters: list[Parameter] = []
    taken: dict[Identifier, str] = {}
    for name in order:
        py_name = identifier(name, PARAMETER_RESERVED)
        if py_name in taken:
            report.error(
                d.source.path,
                d.source.line,
                d.source.col,
                "identifier-collision",
                f"properties {taken[py_name]!r} and {name!r} of {naming.qualname_of(item)} "
                f"both become the parameter {py_name}",
            )
            continue
        taken[py_name] = name
        prop = properties[name] if isinstance(properties[name], dict) else {}
        parameters.append(
            Parameter(
                name=name,
                py_name=py_name,
                required=name in required,
                description=" ".join(str(prop.get("description") or "").split()),
                default=prop.get("default"),
            )
        )
    qualname = naming.qualname_of(item)
    return Tool(
        qualname=qualname,
        namespace=item.namespace,
        py_name=item.py_name,
        summary=summarize(d.description, LEVEL1_TOKENS - estimate_tokens(qualname)),
        arguments=(),
        definition=d,
        parameters=tuple(parameters),
        aliases=aliases,
        provider_name=provider_name,
        dotted_name=dotted_name,
    )


def _namespace_summary(
    path: tuple[Identifier, ...], tools: list[Tool], summaries: dict[str, str]
) -> str:
    """``tools``: the namespace's own tools, in order."""
    qualname = ".".join(path)
    if path[0] == TASK:
        plugin = next((t.definition.plugin for t in tools if t.definition.plugin), None)
        if plugin is None:
            return TASK_SUMMARY
        return summarize(
            summaries.get(plugin) or f"Skills and subagents of the {plugin} plugin."
        )
    if summaries.get(qualname):
        return summarize(summaries[qualname])
    skill = next((t.definition.skill for t in tools if t.definition.skill), None)
    if skill is not None:
        return f"Tools of the {skill} skill."
    return f"Tools in {qualname}."


def _namespaces(
    tools: tuple[Tool, ...], summaries: dict[str, str]
) -> tuple[Namespace, ...]:
    """Every namespace, its tools and its children: each tool and namespace is looked
    at once (a scan of every tool per namespace took 5.9 s of a 21 s one-change
    rebuild of 5,000 manifest tools in 1,081 namespaces, tests/bench.py)."""
    own: dict[tuple[Identifier, ...], list[Tool]] = {}
    for tool in tools:
        if tool.namespace:
            own.setdefault(tool.namespace, []).append(tool)
        for depth in range(1, len(tool.namespace)):
            own.setdefault(tool.namespace[:depth], [])
    children: dict[tuple[Identifier, ...], list[Identifier]] = {}
    for path in own:
        if len(path) > 1:
            children.setdefault(path[:-1], []).append(path[-1])
    return tuple(
        Namespace(
            qualname=".".join(path),
            path=path,
            summary=_namespace_summary(path, own[path], summaries),
            tools=tuple(t.py_name for t in own[path]),
            children=tuple(sorted(children.get(path, []))),
        )
        for path in sorted(own)
    )
