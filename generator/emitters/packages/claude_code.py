"""Claude Code: a marketplace, ``packages/claude-code/``.

``.claude-plugin/marketplace.json`` at the folder's root lists each plugin at
``./<name>`` (``common.plugins``: each source plugin, and the build's own; relative sources resolve from the marketplace root: the folder holding
``.claude-plugin/``); the plugin holds ``.claude-plugin/plugin.json``, its skills one
level deep (``skills/<name>/SKILL.md``: Claude Code names them ``<plugin>:<folder>``),
``agents/`` and ``commands/`` in their default places (none listed in the manifest, so
none replaces a default folder) and ``.mcp.json`` with the generated MCP server (the
manifest tools, in the build's own plugin), whose ``${CLAUDE_PLUGIN_ROOT}`` finds
the package in place.
Rules: ``harness/claude_code.py`` (CC-02, CC-11, CC-14 to CC-18)."""

from __future__ import annotations

from .common import (
    Bundle,
    Files,
    LeftOut,
    dumps,
    head,
    plugins,
    server_entry,
    skill_files,
)

CLIENT = "claude-code"
KINDS = frozenset({"skill", "agent", "command"})
MANIFEST = ".claude-plugin/plugin.json"
MARKETPLACE = ".claude-plugin/marketplace.json"
ROOT = "${CLAUDE_PLUGIN_ROOT}"  # code.claude.com/docs/en/plugins-reference


def emit(bundle: Bundle, left: LeftOut) -> Files:
    files: Files = {}
    entries = []
    for each in plugins(bundle, CLIENT, KINDS, left):
        name = each.name
        entries.append(
            {"name": name, "source": f"./{name}", "description": each.description}
        )
        files |= plugin(each, f"{name}/", ROOT, CLIENT)
        files[f"{name}/{MANIFEST}"] = dumps(head(each))
    files[MARKETPLACE] = dumps(
        {
            "name": bundle.name,
            "owner": {"name": bundle.name},
            "metadata": {"description": bundle.description},
            "plugins": entries,
        }
    )
    return files


def plugin(
    bundle: Bundle,
    at: str,
    root: str,
    client: str,
    mcp: str = ".mcp.json",
) -> Files:
    """A Claude-style plugin's components below ``at`` (its folder in the client's):
    ``skills/<name>/``, ``agents/<name>.md``, ``commands/<name>.md``, and the MCP
    server (``root``: the client's placeholder for the plugin's folder) in ``mcp``. Cursor's and Codex's layouts are the same.
    """
    files: Files = {}
    for member in bundle.members:
        if member.kind == "skill":
            files |= skill_files(member, f"{at}skills/{member.name}")
        else:
            ((_file, data),) = member.files
            files[f"{at}{member.kind}s/{member.name}.md"] = data
    if bundle.server is not None:
        entry = server_entry(bundle, root, f"{client}/{at}")
        files[f"{at}{mcp}"] = dumps({"mcpServers": {bundle.name: entry}})
    return files
