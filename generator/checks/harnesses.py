"""The harnesses whose listings ``skillc check`` simulates (``listings``): what each
lists, how it shows an entry, its budget and how it fits a listing that is too long,
with the source of each number beside it. A new harness that fits one of the ways of
``Rule.overflow`` is one entry of ``RULES``.
"""

from __future__ import annotations

import dataclasses
import math

from ..config import ConfigError

ALL = frozenset({"skill", "command", "agent", "tool"})


@dataclasses.dataclass(frozen=True)
class Budget:
    """A listing's share of the context window."""

    fraction: float
    unit: str  # "chars": the context's tokens times chars_per_token; "tokens"
    chars_per_token: int = 4
    fallback_chars: int | None = None  # the budget when the context size is unknown

    def limit(self, context: int | None) -> tuple[int, str]:
        """The budget and its unit at ``context`` tokens (None: unknown)."""
        if context is None:
            if self.fallback_chars is None:
                raise ConfigError("this harness needs a context size (harness:200k)")
            return self.fallback_chars, "chars"
        per_token = self.chars_per_token if self.unit == "chars" else 1
        return max(1, math.floor(context * per_token * self.fraction)), self.unit


@dataclasses.dataclass(frozen=True)
class Rule:
    harness: str
    kinds: frozenset[
        str
    ]  # what it lists (of those offered): skill, command, agent, tool
    naming: str  # "claude": plugin:name; "skill": the skill's name; "provider"
    fields: tuple[str, ...]  # what makes an entry's text: description, when_to_use
    line: str  # an entry as shown; {name}, {text}, {path}
    bare: str  # an entry without its text
    overflow: str  # "rank", "share" or "count"
    sources: tuple[str, ...]  # where each number below is documented
    budget: Budget | None = None
    default_context: int | None = None  # tokens, when none is given
    entry_cap: int | None = None  # characters of an entry's text
    max_entries: int | None = None
    reattach_tokens: int | None = None  # an invoked skill after compaction
    path_root: str = ""  # what stands before a skill's path in {path}


def _provider(
    harness: str, most: int, *sources: str, entry_cap: int | None = None
) -> Rule:
    """An API provider's list: every tool offered, by its provider name, up to
    ``most`` in one request."""
    return Rule(
        harness,
        ALL,
        "provider",
        ("description",),
        "{name}",
        "{name}",
        "count",
        sources,
        entry_cap=entry_cap,
        max_entries=most,
    )


RULES: dict[str, Rule] = {
    rule.harness: rule
    for rule in (
        Rule(
            "claude-code",
            frozenset({"skill", "command"}),
            "claude",
            ("description", "when_to_use"),
            "- {name}: {text}",
            "- {name}",
            "rank",
            sources=(
                # budget = floor(context tokens x 4 x skillListingBudgetFraction 0.01),
                # default context 200000 (constants read from the shipped binary);
                # SLASH_COMMAND_TOOL_CHAR_BUDGET overrides it.
                "github.com/melodic-software/claude-code-plugins/issues/1271",
                "github.com/anthropics/claude-code/issues/64606",
                # description + when_to_use cut at 1,536 characters
                # (skillListingMaxDescChars); over budget, descriptions of the least
                # used skills are dropped first, whole, the names kept.
                "code.claude.com/docs/en/skills#skill-descriptions-are-cut-short",
                "github.com/anthropics/claude-code/issues/68135",
                "github.com/martinholovsky/SOTA-skills/pull/349",
                # an invoked skill is re-attached after compaction at up to 5,000 tokens
                "code.claude.com/docs/en/skills (../shared/reference/skills-format.md 4.2)",
                # subagents are listed apart, in full, without a budget
                "github.com/anthropics/claude-code/issues/87515",
            ),
            budget=Budget(0.01, "chars", 4),
            default_context=200_000,
            entry_cap=1536,
            reattach_tokens=5000,
        ),
        Rule(
            "codex",
            frozenset({"skill"}),
            "skill",
            ("description",),  # when_to_use is not read (umputun/agterm#528)
            "- {name}: {text} (file: {path})",
            "- {name}: (file: {path})",
            "share",
            sources=(
                # 2% of the context window in tokens (4 bytes a token), 8,000
                # characters when the window is unknown; descriptions shortened alike,
                # then every description removed and the skills past the budget left
                # out, in scope then name order.
                "github.com/openai/codex codex-rs/core-skills/src/render.rs",
                "github.com/openai/codex/pull/18213",
                "developers.openai.com/codex/skills",
                "github.com/umputun/agterm/pull/528",
            ),
            budget=Budget(0.02, "tokens", 4, fallback_chars=8000),
            # a repository skill's path, as Codex shows it: absolute, so some root
            path_root="/home/user/project/",
        ),
        _provider(
            "anthropic-deferred",
            10_000,  # deferred tools per request (tool search)
            "platform.claude.com/docs/en/agents-and-tools/tool-use/tool-search-tool",
            "../shared/reference/providers.md 2.6",
        ),
        _provider(
            "openai-chat",
            128,  # tools (array_above_max_length)
            "../shared/reference/providers.md 3.2",
            # descriptions of 1,024 characters (string_above_max_length)
            "github.com/getsentry/sentry-mcp/issues/106",
            entry_cap=1024,
        ),
        _provider(
            "gemini",
            512,  # function declarations (google-genai 3.4 docstring)
            "../shared/reference/providers.md 1",
        ),
    )
}
DEFAULT_HARNESSES = ("claude-code", "codex")


def parse(value: str) -> tuple[str, int | None]:
    """``claude-code:200k`` -> ("claude-code", 200000); ``codex`` -> ("codex", None)."""
    harness, _, size = value.partition(":")
    if harness not in RULES:
        raise ConfigError(
            f"--budget {value}: no harness {harness!r}; one of {', '.join(RULES)}"
        )
    if not size:
        return harness, None
    digits, scale = size.lower(), 1
    if digits[-1:] in ("k", "m"):
        digits, scale = digits[:-1], 1000 if digits[-1] == "k" else 1_000_000
    if not digits.isdigit() or int(digits) == 0:
        raise ConfigError(
            f"--budget {value}: the context size is tokens: 200k, 1m, 272000"
        )
    return harness, int(digits) * scale
