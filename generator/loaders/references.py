"""Skill references: the ``skills`` a subagent preloads in full at startup (Claude
Code's sub-agents page, code.claude.com/docs/en/sub-agents: "skills: Skills preloaded
in full at startup"), and a command's, resolved against the skills the build compiles.
A name no compiled skill has, or one whose skill only a person may invoke
(``disable-model-invocation: true``: "cannot be preloaded into subagents",
code.claude.com/docs/en/skills), is an error at its entry, and the item that names it
is left out; the rest of the build goes on.

A name is a skill's (``review``: a project skill, or one of the item's own plugin), or
``plugin:skill``; names are compared as skillc normalises them (``Code_Review`` is
``code-review``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..diagnostics import Report
from ..ir import Definition, Kind
from ..loaders import frontmatter, yamlpos
from ..loaders.fields import split_tool_list
from ..names import skill_name

KEY = "skills"


def resolved(
    definitions: list[Definition], report: Report, project: Path, max_bytes: int
) -> list[Definition]:
    """``definitions`` but the subagents and commands whose ``skills`` name a skill
    that is not there to preload: each an error at its entry."""
    skills = {(d.plugin, d.name): d for d in definitions if d.kind is Kind.SKILL}
    kept = []
    for definition in definitions:
        names = _names(definition.extra.get(KEY))
        wrong = [
            (index, name, why)
            for index, name in enumerate(names)
            if (why := _why(name, definition.plugin, skills))
        ]
        for index, name, why in wrong:
            rel = definition.source.path
            where = _where(
                project / rel, rel, index, isinstance(names, list), max_bytes
            )
            report.error(
                rel,
                *where,
                "unknown-skill",
                f"skills names {name!r}, {why}: the {_kind(definition)} cannot "
                "preload it",
            )
        if not wrong:
            kept.append(definition)
    return kept


def _names(value: Any) -> list[str] | tuple[str, ...]:
    """The names a ``skills`` value gives: a list, or a string of them."""
    if isinstance(value, str):
        return split_tool_list(value)
    if isinstance(value, list):
        return [str(item) for item in value]
    return []


def _why(
    name: str, plugin: str | None, skills: dict[tuple[str | None, str], Definition]
) -> str:
    """Why ``name`` (named by an item of ``plugin``) is no skill to preload, or ""."""
    owner, _, bare = name.rpartition(":")
    wanted = skill_name(bare)
    found = (
        skills.get((owner, wanted))
        if owner
        else skills.get((plugin, wanted)) or skills.get((None, wanted))
    )
    if found is None:
        return "which no compiled skill is"
    if not found.model_invocable:
        return "a skill only a person may invoke (disable-model-invocation)"
    return ""


def _kind(definition: Definition) -> str:
    return "command" if definition.command else "subagent"


def _where(
    path: Path, rel: str, index: int, listed: bool, max_bytes: int
) -> tuple[int, int]:
    """The position of the ``index``-th entry of the file's ``skills`` (of the key,
    when it is a string), read again: only a file in error is."""
    quiet = Report()
    text = frontmatter.read(path, rel, quiet, max_bytes)
    parts = None if text is None else frontmatter.split(text, rel, quiet)
    if parts is None:
        return 1, 1
    located = yamlpos.parse(parts.frontmatter, rel, parts.line_offset, quiet)
    if located is None:
        return 1, 1
    keys: tuple[str | int, ...] = (KEY, index) if listed else (KEY,)
    return yamlpos.locate(located.root, keys, parts.line_offset)
