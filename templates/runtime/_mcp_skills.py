"""The package's Agent Skills served the standard way: the MCP Skills extension
(SEP-2640, ``io.modelcontextprotocol/skills``), as handlers of ``_mcp.Handlers``.

``skills/list`` and ``skills/get`` answer with the entries skillc wrote into
``_skills`` at build time (each skill's SKILL.md frontmatter as written, and every file
as a ``skill://<skill path>/<file>`` resource with the ``sha256:`` digest and size the
lock records); ``resources/list`` and ``resources/read`` serve the files themselves,
from the skill folders below the source root. A file whose bytes no longer match its
digest (changed since the build) is refused, not served. Nothing here runs anything: a
skill's ``allowed-tools`` and ``!`cmd``` lines are text for the host to approve.
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Container, Mapping
from typing import Any

from . import _settings
from ._mcp import INTERNAL_ERROR, INVALID_PARAMS, Handler, Paged, RpcError, param
from ._skills import FILES, SKILLS

EXTENSION = "io.modelcontextprotocol/skills"
# How long a host may keep an entry: it changes only when the package is rebuilt.
TTL_MS = 300_000
CACHE = {"ttlMs": TTL_MS, "cacheScope": "public"}


def served(tools: Container[str]) -> dict[str, dict[str, Any]]:
    """The skills entries of the skills whose tools the server offers, by URI."""
    return {
        uri: skill["entry"] for uri, skill in SKILLS.items() if skill["tool"] in tools
    }


def read(uri: str) -> dict[str, Any]:
    """A served file's ``resources/read`` contents: text when it is UTF-8, else base64;
    LookupError when its bytes are not those of the build."""
    file = FILES[uri]
    data = _settings.source_dir(file["folder"], file["file"]).read_bytes()
    if "sha256:" + hashlib.sha256(data).hexdigest() != file["digest"]:
        raise LookupError(f"{uri} changed since the package was built; rebuild it")
    contents: dict[str, Any] = {"uri": uri, "mimeType": file["mimeType"]}
    try:
        return contents | {"text": data.decode("utf-8")}
    except UnicodeDecodeError:
        return contents | {"blob": base64.b64encode(data).decode("ascii")}


class Skills:
    """The extension's methods (and the resources it needs) for the skills of
    ``tools``."""

    def __init__(self, tools: Container[str]) -> None:
        self.skills = served(tools)
        self.files = {
            r["uri"]: FILES[r["uri"]]
            for skill in self.skills.values()
            for r in skill["resources"]
        }

    def methods(self) -> dict[str, Handler]:
        listed = []
        for uri, file in self.files.items():
            resource = {
                "uri": uri,
                "name": uri.rpartition("/")[2],
                "size": file["size"],
            }
            if uri in self.skills:
                resource["name"] = self.skills[uri]["frontmatter"]["name"]
                resource["description"] = self.skills[uri]["frontmatter"]["description"]
            listed.append(resource | {"mimeType": file["mimeType"]})
        return {
            "skills/list": self.list_skills,
            "skills/get": self.get_skill,
            "resources/list": Paged("resources", listed, CACHE),
            "resources/read": self.read_resource,
        }

    def list_skills(self, params: Mapping[str, Any]) -> dict[str, Any]:
        return {"skills": list(self.skills.values()), **CACHE}

    def get_skill(self, params: Mapping[str, Any]) -> dict[str, Any]:
        uri: str = param(params, "uri", str, True)
        if uri not in self.skills:
            raise RpcError(INVALID_PARAMS, f"No skill is served at {uri[:200]}")
        return {"skill": self.skills[uri], **CACHE}

    def read_resource(self, params: Mapping[str, Any]) -> dict[str, Any]:
        """A file read: run in a worker thread."""
        uri: str = param(params, "uri", str, True)
        if uri not in self.files:
            raise RpcError(INVALID_PARAMS, f"No resource is served at {uri[:200]}")
        try:
            contents = read(uri)
        except (OSError, LookupError) as exc:
            raise RpcError(INTERNAL_ERROR, str(exc)) from None
        return {"contents": [contents], **CACHE}
