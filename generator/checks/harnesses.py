"""The harnesses whose listings ``skillc check`` simulates (``listings``): the clients
of the harness model that list skills (``generator/harness``: each one's ``listing``,
with the source of each number beside it) and the API providers' tool lists. A new
harness that fits one of the ways of ``Rule.overflow`` is one entry of ``RULES``.
"""

from __future__ import annotations

from ..config import ConfigError
from ..harness import CLIENTS
from ..harness.model import Listing

Rule = Listing  # a harness's listing, whether a client's or a provider's
ALL = frozenset({"skill", "command", "agent", "tool"})


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
        *(client.listing for client in CLIENTS.values() if client.listing),
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
# The context size of ``harness:unknown``: the harness's budget when it does not know
# the model's window (Codex's 8,000 characters), simulated only when asked for.
UNKNOWN = 0


def parse(value: str) -> tuple[str, int | None]:
    """``claude-code:200k`` -> ("claude-code", 200000); ``codex`` -> ("codex", None):
    its default model's window; ``codex:unknown`` -> ("codex", UNKNOWN)."""
    harness, _, size = value.partition(":")
    if harness not in RULES:
        raise ConfigError(
            f"--budget {value}: no harness {harness!r}; one of {', '.join(RULES)}"
        )
    if not size:
        return harness, None
    if size.lower() == "unknown":
        budget = RULES[harness].budget
        if budget is None or budget.fallback_chars is None:
            raise ConfigError(
                f"--budget {value}: {harness} has no budget for an unknown window"
            )
        return harness, UNKNOWN
    digits, scale = size.lower(), 1
    if digits[-1:] in ("k", "m"):
        digits, scale = digits[:-1], 1000 if digits[-1] == "k" else 1_000_000
    if not digits.isdigit() or int(digits) == 0:
        raise ConfigError(
            f"--budget {value}: the context size is tokens: 200k, 1m, 272000"
        )
    return harness, int(digits) * scale
