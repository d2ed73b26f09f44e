"""OpenCode: project skills, ``packages/opencode/``.

``.opencode/skills/<name>/SKILL.md`` (a config folder's ``skills/**/SKILL.md``, each
skill keyed by its frontmatter name: OC-02, OC-04), to copy into a project, and
``opencode.json`` with the generated MCP server as a ``local`` server (OC-12: the
documented shape, UNVERIFIED in source). OpenCode's subagents and commands take
frontmatter of their own, which skillc does not translate: a build's are left out
with a warning."""

from __future__ import annotations

from .common import Bundle, Files, LeftOut, admitted, dumps, server_entry, skill_files

CLIENT = "opencode"
KINDS = frozenset({"skill"})
SCHEMA = "https://opencode.ai/config.json"


def emit(bundle: Bundle, left: LeftOut) -> Files:
    bundle = admitted(bundle, CLIENT, KINDS, left, plugin=False)
    files: Files = {}
    for member in bundle.members:
        files |= skill_files(member, f".opencode/skills/{member.name}")
    if bundle.server is not None:
        entry = server_entry(bundle, "", CLIENT)
        command = [entry["command"], *entry["args"]]
        server = {"type": "local", "command": command, "enabled": True}
        config = {"$schema": SCHEMA, "mcp": {bundle.name: server}}
        files["opencode.json"] = dumps(config)
    return files
