"""The files a client reads at a repository's root when a user installs from its git
URL (``harness-root-files``): each the marketplace of the client's written package,
its plugins' paths made relative to the project root (``root_files`` owns them).

- Claude Code, ``/plugin marketplace add owner/repo``: the marketplace is
  ``.claude-plugin/marketplace.json`` in the marketplace's folder, and 'claude plugin
  marketplace add has no option' for another place; 'The directory that contains
  .claude-plugin/ is called the marketplace root, and every relative plugin source
  resolves from it' (code.claude.com/docs/en/plugins/marketplace-reference, Marketplace
  file); a relative source starts with ``./`` (Plugin sources).
- Codex, ``codex plugin marketplace add owner/repo``: the repository is cloned and its
  root must hold ``.agents/plugins/marketplace.json`` or, second,
  ``.claude-plugin/marketplace.json`` (openai/codex codex-rs/core-plugins/src/
  marketplace_add.rs@009a2cc, validate_marketplace_source_root; marketplace.rs@0324d09
  MARKETPLACE_MANIFEST_RELATIVE_PATHS, find_marketplace_manifest_path); a local path
  starts with ``./``, is made of folder names alone, and 'local plugin paths are
  resolved relative to <root>', the folder holding ``.agents/``
  (resolve_local_plugin_source_path, marketplace_root_dir).
- Cursor, a team marketplace: 'Import custom team marketplaces from GitHub in
  dashboard settings under Plugins' (cursor.com/docs/account/teams/dashboard, Team
  Marketplaces); 'The root .cursor-plugin/marketplace.json lists all plugins'
  (cursor/plugins README.md@195d935:30-37), each ``source`` the 'Path to the plugin
  directory (relative to the marketplace root)' (schemas/marketplace.schema.json@
  195d935:65-69), written as Cursor's own marketplace writes it: without ``./``.

Gemini CLI has none: ``gemini extensions install <source>`` clones the repository
and reads ``gemini-extension.json`` at the clone's root, with no option for a folder
in it (google-gemini/gemini-cli packages/cli/src/commands/extensions/install.ts@
5411f11:172-205; packages/cli/src/config/extension-manager.ts@5411f11:248-296,
1017-1030): an extension in ``packages/gemini-cli/<name>/`` is installed from a
clone's folder, by its path."""

from __future__ import annotations

import json
import posixpath
from collections.abc import Mapping
from typing import Any

from ...config import Config
from ...root_files import PATHS
from .common import FOLDER, dumps


def emit(files: Mapping[str, bytes], config: Config) -> dict[str, bytes]:
    """Each root file ``config.harness_root_files`` names, by project-relative path,
    from the written packages (``files``: below the output folder)."""
    found = {}
    for client in config.harness_root_files:
        path = PATHS[client]
        written = files.get(f"{FOLDER}{client}/{path}")
        if written is None:
            continue
        market = json.loads(written)
        base = posixpath.join(config.out, FOLDER, client)
        for entry in market["plugins"]:
            entry["source"] = _moved(entry["source"], base)
        found[path] = dumps(market)
    return found


def _moved(source: Any, base: str) -> Any:
    """A plugin's source in the package's marketplace, relative to the project root:
    ``./kit`` (Claude Code), ``{"source": "local", "path": "./kit"}`` (Codex), ``kit``
    (Cursor)."""
    if isinstance(source, dict):
        return source | {"path": _moved(source["path"], base)}
    dotted = source.startswith("./")
    moved = posixpath.join(base, source.removeprefix("./"))
    return f"./{moved}" if dotted else moved
