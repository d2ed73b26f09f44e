"""What makes Claude Code refuse a plugin's ``.claude-plugin/plugin.json``: the plugin
does not load (or install) at all, so none of it is compiled, and the refusal is an
error at its key (``vetted``). Unknown top-level keys it drops, and loads the plugin
(code.claude.com/docs/en/plugins/manifest-reference, "Unrecognized fields"); those are
left to the component readers.

- Strict objects: each ``userConfig`` option, ``channels`` entry (and its
  ``userConfig`` options), ``lspServers`` server and ``monitors`` entry written in the
  manifest admits its own keys alone ("Strict objects", same page). The keys are those
  of Claude Code's own validators as extracted from CLI 2.1.274 by
  retif/claudecode-linter (contracts/plugin.schema.json@012bbac).
- ``agents`` lists agent files, each ``./...md``: a folder (``"./agents"``) or a path
  without ``./`` fails the install with ``agents: Invalid input``
  (anthropics/claude-code#44777, affaan-m/ECC#1459, JuliusBrussee/caveman#871)."""

from __future__ import annotations

from typing import Any

from ..diagnostics import Report
from ..loaders.refusals import CLAUDE_CODE, at, refuse

OPTION = frozenset(
    {"type", "title", "description", "required", "default", "multiple"}
    | {"sensitive", "min", "max", "options"}
)
CHANNEL = frozenset({"server", "displayName", "userConfig"})
LSP_SERVER = frozenset(
    {"command", "args", "extensionToLanguage", "transport", "env"}
    | {"initializationOptions", "settings", "workspaceFolder", "startupTimeout"}
    | {"shutdownTimeout", "restartOnCrash", "maxRestarts", "diagnostics"}
)
MONITOR = frozenset({"name", "command", "description", "when"})

Refusal = tuple[tuple[str, ...], str]  # the keys down to the one refused, and why


def vetted(
    data: dict[str, Any], text: str, rel: str, folder: str, report: Report
) -> dict[str, Any] | None:
    """``data`` when Claude Code loads the plugin; None, with each refusal an error at
    its key, when it does not."""
    refused = _strict(data) + _agents(data.get("agents"))
    for keys, why in refused:
        text_why = f"{why}: Claude Code does not load the plugin"
        refuse(report, CLAUDE_CODE, rel, at(text, *keys), "invalid-plugin", text_why)
    return None if refused else data


def _strict(data: dict[str, Any]) -> list[Refusal]:
    """Unknown keys in the strict objects the manifest writes inline."""
    found: list[Refusal] = []
    found += _options(("userConfig",), data.get("userConfig"))
    channels = data.get("channels")
    for channel in channels if isinstance(channels, list) else []:
        found += _closed(("channels",), channel, CHANNEL, "a channels entry")
        if isinstance(channel, dict):
            found += _options(("channels", "userConfig"), channel.get("userConfig"))
    for servers in _listed(data.get("lspServers")):
        for name, server in servers.items():
            found += _closed(("lspServers", name), server, LSP_SERVER, "an LSP server")
    monitors = data.get("monitors")
    for monitor in monitors if isinstance(monitors, list) else []:
        found += _closed(("monitors",), monitor, MONITOR, "a monitors entry")
    return found


def _listed(value: Any) -> list[dict[str, Any]]:
    """lspServers' inline objects: the value itself, or those of its list."""
    items = value if isinstance(value, list) else [value]
    return [item for item in items if isinstance(item, dict)]


def _options(keys: tuple[str, ...], options: Any) -> list[Refusal]:
    if not isinstance(options, dict):
        return []
    found: list[Refusal] = []
    for name, option in options.items():
        found += _closed((*keys, name), option, OPTION, f"userConfig option {name!r}")
    return found


def _closed(
    keys: tuple[str, ...], value: Any, allowed: frozenset[str], what: str
) -> list[Refusal]:
    if not isinstance(value, dict):
        return []
    return [
        (
            (*keys, key),
            f"{key!r} is not a key of {what}, a strict object (manifest-reference)",
        )
        for key in sorted(value.keys() - allowed)
    ]


def _agents(value: Any) -> list[Refusal]:
    """``agents``: a ``./`` path of an ``.md`` file, or a list of them."""
    items = [value] if isinstance(value, str) else value
    if not isinstance(items, list):
        return []
    return [
        (
            ("agents", item),
            f"agents entry {item!r} "
            + ("names no .md file" if item.startswith("./") else "has no './'")
            + " (agents: Invalid input, anthropics/claude-code#44777)",
        )
        for item in items
        if isinstance(item, str)
        and not (item.startswith("./") and item.endswith(".md"))
    ]
