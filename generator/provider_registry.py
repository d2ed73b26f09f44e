"""Every provider skillc writes tool-schema files for, by the name a profile's
``provider`` gives, with the module that writes them. Adding a provider is adding its
module (see ``generator/emitters/providers/__init__.py`` for what it declares) and one
line here: its files, its column of names.json, and how the generated package's
``dispatch()`` and ``find_tool()`` name and serve it all come from that module. The
order is kept in what the files list and in ``dispatch()``'s tests of the name."""

from __future__ import annotations

from types import ModuleType

from .emitters.providers import anthropic, bedrock, gemini, mcp, openai
from .emitters.providers import openai_compatible

PROVIDERS: dict[str, ModuleType] = {
    "anthropic": anthropic,
    "openai": openai,
    "openai-compatible": openai_compatible,
    "gemini": gemini,
    "mcp": mcp,
    "bedrock": bedrock,
}
