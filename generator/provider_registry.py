"""Every provider skillc writes tool-schema files for, by the name a profile's
``provider`` gives, with the module that writes them. Adding a provider is adding its
module (see ``generator/emitters/providers/__init__.py`` for what it declares) and one
line here."""

from __future__ import annotations

PROVIDERS: dict[str, str] = {
    "anthropic": "generator.emitters.providers.anthropic",
    "openai": "generator.emitters.providers.openai",
    "openai-compatible": "generator.emitters.providers.openai_compatible",
    "gemini": "generator.emitters.providers.gemini",
    "bedrock": "generator.emitters.providers.bedrock",
    "mcp": "generator.emitters.providers.mcp",
}
