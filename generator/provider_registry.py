"""Every provider skillc writes tool-schema files for, by the name a profile's
``provider`` gives, with the module that writes them. Adding a provider is adding its
module (see ``generator/emitters/providers/__init__.py`` for what it declares) and one
line here: its files, its column of names.json, and how the generated package's
``dispatch()`` and ``find_tool()`` name and serve it all come from that module. The
order is kept in what the files list and in ``dispatch()``'s tests of the name."""

from __future__ import annotations

# This package's own import name (skillc, installed from the folder generator/).
_ROOT = __name__.partition(".")[0]

PROVIDERS: dict[str, str] = {
    "anthropic": f"{_ROOT}.emitters.providers.anthropic",
    "openai": f"{_ROOT}.emitters.providers.openai",
    "openai-compatible": f"{_ROOT}.emitters.providers.openai_compatible",
    "gemini": f"{_ROOT}.emitters.providers.gemini",
    "mcp": f"{_ROOT}.emitters.providers.mcp",
    "bedrock": f"{_ROOT}.emitters.providers.bedrock",
}
