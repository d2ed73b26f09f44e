"""Strict-mode eligibility, per tool and provider, for report.json: whether a tool can
be sent with ``strict: true`` to Anthropic and to OpenAI, and why not. The strict
provider files decide it (generator/emitters/providers/strict.py, after providers.md
2.4 and 3.3): what they left out, they left out with the reason. Anthropic's limits
per request (20 strict tools, 24 optional and 16 union parameters across them) are
said beside the list, as no one tool breaks them alone."""

from __future__ import annotations

from typing import Any

from ..emitters.provider_files import FOLDER
from ..emitters.providers.schemas import Notes
from ..views import ToolView

# Each provider's strict file, whose left-out notes say why a tool is not in it.
FILES = {
    "anthropic": FOLDER + "anthropic.strict.json",
    "openai": FOLDER + "openai-chat.strict.json",
}
REQUEST_LIMITS = {
    "anthropic": "at most 20 strict tools, 24 optional and 16 union parameters in one "
    "request (providers.md 2.4)",
    "openai": "each strict schema: at most 5,000 properties, 10 levels, 1,000 enum "
    "values (providers.md 3.3)",
}


def eligibility(tools: tuple[ToolView, ...], notes: Notes) -> dict[str, Any]:
    """report.json's ``strict``: each offered tool, ``true`` per provider or why it
    cannot be strict (a line each); and ``strict_limits``, the limits per request."""
    why: dict[tuple[str, str], str] = {}
    for note in notes.left_out:
        for provider, file in FILES.items():
            if note["file"] in (file, FOLDER + "*"):
                why.setdefault((note["tool"], provider), note["reason"])
    return {
        "strict": [
            {"tool": t.qualname, **{p: why.get((t.qualname, p), True) for p in FILES}}
            for t in tools
        ],
        "strict_limits": REQUEST_LIMITS,
    }
