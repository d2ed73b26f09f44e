"""Gemini CLI: a folder of extensions, ``packages/gemini-cli/<name>/``
(``common.plugins``). Each holds

``gemini-extension.json`` (``name``: letters, digits and hyphens, no periods;
``version``, required; ``mcpServers``, whose strings the CLI hydrates from
``${extensionPath}``: GM-13), the skills one level deep (``skills/<name>/SKILL.md``,
named by their frontmatter name: GM-03, GM-05, GM-14), the subagents in ``agents/``
(top-level ``*.md``, strict frontmatter keys: GM-09, GM-10; written without a model
of Claude Code's, with a warning: ``commands.model``) and each command as the
TOML file Gemini CLI loads, ``commands/<extension>/<name>.toml`` (``/<extension>:<name>``,
as Claude Code names a plugin's): its description, and its body as the ``prompt``
with Claude Code's syntax in Gemini CLI's (``$ARGUMENTS`` as ``{{args}}``,
``!`cmd``` as ``!{cmd}``, ``@path`` as ``@{path}``). A command Gemini CLI cannot
express (``commands.unexpressed``, and the rules below) is left out with a warning.
Rules: ``harness/gemini_cli.py``."""

from __future__ import annotations

import json
import re

import yaml

from ...harness.gemini_cli import (
    ARGS,
    ARGS_IN_SHELL,
    AT,
    COMMAND_NAME,
    COMMAND_SEGMENT,
    FILE,
    PLACEHOLDERS,
    SHELL,
)
from . import commands
from .common import (
    FOLDER,
    Bundle,
    Files,
    LeftOut,
    Member,
    plugins,
    dumps,
    server_entry,
    skill_files,
)

CLIENT = "gemini-cli"
TITLE = "Gemini CLI"
KINDS = frozenset({"skill", "agent", "command"})
# Claude Code's syntax in a command's body: $ARGUMENTS (not $ARGUMENTS[N]), !`cmd`
# at a line's start or after whitespace, @path after whitespace or "(".
ARGUMENTS = re.compile(r"(?<!\\)\$ARGUMENTS(?!\[)")
INJECTED = re.compile(r"(?:^|(?<=\s))!`([^`\n]+)`", re.MULTILINE)
INCLUDED = re.compile(r"(?:^|(?<=[\s(]))@([^\s`'\"(){}<>,;]+)", re.MULTILINE)
CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")  # not in a TOML literal string
AGENTS = f"agentLoader.ts{AT}:97-108"
TOOL_NAMES = f"tool-names.ts{AT}:303"  # both in google-gemini/gemini-cli
MODEL = f"agentLoader.ts{AT}:546-547, 610-611"  # the model a subagent runs on
ROOT = "${extensionPath}"  # extensions/variables.ts@5411f11:22
# Required (extension-manager.ts@5411f11:1026-1028): its source plugin's, else this.
VERSION = "0.1.0"


def emit(bundle: Bundle, left: LeftOut) -> Files:
    files: Files = {}
    for each in plugins(bundle, CLIENT, KINDS, left, _refusal):
        at = f"{each.name}/"
        version = each.version or VERSION
        manifest: dict[str, object] = {"name": each.name, "version": version}
        for member in each.members:
            if member.kind == "skill":
                files |= skill_files(member, f"{at}skills/{member.name}")
            elif member.kind == "agent":
                files[f"{at}agents/{member.name}.md"] = _agent(member, left)
            else:
                path = f"{at}commands/{each.name}/{member.name}.toml"
                files[path] = _toml(member.description, prompt(member)[0])
        if each.server is not None:
            servers = {each.name: server_entry(each, ROOT, f"{CLIENT}/{at}")}
            manifest["mcpServers"] = servers
        files[f"{at}gemini-extension.json"] = dumps(manifest)
    return files


def _refusal(member: Member) -> str:
    """Why Gemini CLI cannot hold the member ("" when it can). A subagent's
    ``tools``: Claude Code's names (Read, Grep, Bash(git:*)) are none of Gemini
    CLI's (read_file, grep_search...), and its loader refuses an agent that names a
    tool it does not know."""
    if member.kind == "command":
        return prompt(member)[1]
    if member.kind != "agent":
        return ""
    if "tools" in member.frontmatter:
        return (
            "Gemini CLI refuses it: its tools are Claude Code's, and Gemini CLI's "
            f"subagents name tools of their own ({AGENTS}; {TOOL_NAMES})"
        )
    return ""


def _agent(member: Member, left: LeftOut) -> bytes:
    """A subagent's file as written, or without its model when that is Claude
    Code's."""
    ((_file, data),) = member.files
    if not commands.model(member, f"{FOLDER}{CLIENT}/", TITLE, MODEL, left):
        return data
    head = {k: v for k, v in member.frontmatter.items() if k != "model"}
    text = yaml.safe_dump(head, sort_keys=False, allow_unicode=True, width=4096)
    return f"---\n{text}---\n\n{commands.body(member)}".encode("utf-8")


def prompt(member: Member) -> tuple[str, str]:
    """A command's body as Gemini CLI's ``prompt``, or why it cannot be one."""
    text = commands.body(member)
    named = re.sub(r"[^a-zA-Z0-9_\-.]", "_", member.name)[:50]
    if not re.fullmatch(COMMAND_SEGMENT, member.name):
        return "", f"Gemini CLI would name it {named!r} ({COMMAND_NAME})"
    why = commands.unexpressed(member, TITLE, text)
    if why:
        return "", why
    if any(mark in text for mark in (ARGS, SHELL, FILE)):
        return "", (
            f"its text holds Gemini CLI's own {ARGS}, {SHELL} or {FILE} "
            f"({PLACEHOLDERS})"
        )
    for found in INJECTED.finditer(text):
        if ARGUMENTS.search(found[1]):
            return "", (
                f"its shell command `{found[1]}` takes $ARGUMENTS, which Gemini CLI "
                f"passes as one quoted word ({ARGS_IN_SHELL})"
            )
        if not _balanced(found[1]):
            return "", f"its shell command `{found[1]}` has unbalanced braces"
    text = INJECTED.sub(lambda m: SHELL + m[1] + "}", text)
    text = commands.outside_code(text, lambda part: INCLUDED.sub(_included, part))
    return ARGUMENTS.sub(ARGS, text), ""


def _included(found: re.Match[str]) -> str:
    """``@path`` as ``@{path}``; an @ that names no file (``@team``) as it is."""
    path = found[1].rstrip(".,:;!?]")
    if "/" not in path and "." not in path.strip("."):
        return found[0]
    return FILE + path + "}" + found[1][len(path) :]


def _balanced(command: str) -> bool:
    """Whether ``command``'s braces pair up, as ``!{...}`` needs."""
    depth = 0
    for char in command:
        depth += {"{": 1, "}": -1}.get(char, 0)
        if depth < 0:
            return False
    return depth == 0


def _toml(description: str, text: str) -> bytes:
    """A command's TOML file: ``description``, then ``prompt`` as a multi-line
    literal string (its text as written) when it can be one."""
    if "'''" in text or CONTROL.search(text):
        value = _basic(text)
    else:
        value = "'''\n" + text + "'''"
    return f"description = {_basic(description)}\nprompt = {value}\n".encode("utf-8")


def _basic(text: str) -> str:
    """A TOML basic string: JSON's escapes are TOML's, DEL apart."""
    return json.dumps(text, ensure_ascii=False).replace("\x7f", "\\u007f")
