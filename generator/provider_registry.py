"""Every provider skillc writes tool-schema files for, by the name a profile's
``provider`` gives, with the module that writes them. Adding a provider is adding its
module (see ``generator/emitters/providers/__init__.py`` for what it declares), its
runtime module and one line here: its files, its column of names.json, and the module
by which the generated package's ``dispatch()`` serves it all come from that module.
The order is kept in what the files list and in the generated ``_providers`` table."""

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
