"""A Claude Code command (or subagent) as another client writes it: its body and
frontmatter split, and why the client cannot express it, if it cannot.

What every client here lacks: positional arguments (Claude Code's ``$N`` and
``$ARGUMENTS[N]`` count from 0, OpenCode's ``$N`` from 1, Gemini CLI has none; a
``$N`` counts in the command's prose alone, as ``POSITIONAL`` says),
Claude Code's ``${CLAUDE_...}`` values, its fenced ```` ```! ```` shell blocks, and the
frontmatter keys with which Claude Code runs a command otherwise (``CHANGING``: a
forked subagent, a model, hooks, tools taken away...). ``allowed-tools`` is
translated by leaving it out: Claude Code reads it as tools pre-approved for the
turn, not a limit, and without it the other client asks before each tool call;
``argument-hint`` and ``when_to_use`` only label it, and a key Claude Code does not
know it ignores (code.claude.com/docs/en/skills, frontmatter reference: a command
takes a skill's keys)."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from ...loaders import skill
from .common import FRONTMATTER, LeftOut, Member

# $ARGUMENTS[N], or $N in its prose: one digit, not a sum ($150, $1,500, $5.0M); a
# $1 in a code block or span is the shell's, as its author wrote it.
POSITIONAL = re.compile(r"(?<!\\)\$(?:ARGUMENTS\[\d+\]|\d(?!\w|[.,]\d))")
CODE = re.compile(r"^```.*?^```[^\n]*$|`[^`\n]*`", re.MULTILINE | re.DOTALL)
VARIABLE = re.compile(r"\$\{CLAUDE_[A-Z_]+\}")
SHELL_BLOCK = re.compile(r"^```!", re.MULTILINE)
# Claude Code's defaults: a key set to one of them changes nothing.
DEFAULTS: Mapping[str, object] = {
    "model": "inherit",
    "shell": "bash",
    "user-invocable": True,
}
# Claude Code's keys (those a command shares with a skill) that change how a command
# runs: all but those that only label it or say when it is offered, and
# disable-model-invocation, which keeps an item out of every package before this.
CHANGING = skill.CLAUDE_CODE_KEYS - {
    "when_to_use",
    "argument-hint",
    "disable-model-invocation",
    "paths",
}


def body(member: Member) -> str:
    """The text after its frontmatter, line ends as LF, without blank lines around."""
    ((_name, data),) = member.files
    text = data.decode("utf-8", "replace").replace("\r\n", "\n")
    head = FRONTMATTER.match(text)
    return (text[head.end() :] if head else text).strip("\n") + "\n"


def unexpressed(member: Member, title: str, text: str) -> str:
    """Why ``title``'s client cannot express the command ("" when it can)."""
    if member.recovered:
        return f"its frontmatter is not strict YAML: {title} would not read it so"
    keys = changing(member.frontmatter, CHANGING)
    if keys:
        return f"{title} has no equivalent of its {', '.join(keys)}"
    found = POSITIONAL.search(CODE.sub("", text))
    if found:
        return (
            f"it takes positional arguments ({found[0]}), which {title} does not "
            "number as Claude Code does"
        )
    found = VARIABLE.search(text)
    if found:
        return f"{title} has no value for {found[0]}"
    if SHELL_BLOCK.search(text):
        return f"{title} runs no ```! block"
    return ""


def model(member: Member, client: str, title: str, source: str, left: LeftOut) -> bool:
    """Whether a subagent is written without its model in ``client``'s package
    (said once, as a ``package-changed`` warning): Claude Code names one by its
    aliases (sonnet, opus, haiku) or Anthropic's ids, which ``title`` would take for
    a model of its own (``source``), and a subagent with none runs on the session's
    model, as "inherit" (both's default) does in Claude Code."""
    value = member.frontmatter.get("model")
    if value is None or value == "inherit":
        return False
    left.change(
        member,
        client,
        f"without its model {value!r}: {title} names models its own way ({source}) "
        "and runs a subagent without one on the session's model",
    )
    return True


def outside_code(text: str, change: Callable[[str], str]) -> str:
    """``text`` with ``change`` made outside its code blocks and spans."""
    parts, at = [], 0
    for code in CODE.finditer(text):
        parts += [change(text[at : code.start()]), code[0]]
        at = code.end()
    return "".join([*parts, change(text[at:])])


def changing(frontmatter: Mapping[str, Any], keys: frozenset[str]) -> list[str]:
    """Those of ``keys`` (Claude Code's that change how a command or subagent runs)
    that ``frontmatter`` sets to other than their default."""
    return sorted(
        key
        for key, value in frontmatter.items()
        if key in keys
        and value is not None
        and not (key in DEFAULTS and value == DEFAULTS[key])
    )
