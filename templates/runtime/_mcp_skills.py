"""The package's Agent Skills served the standard way: the MCP Skills extension
(SEP-2640, ``io.modelcontextprotocol/skills``) on the server of ``_mcp``.

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
import importlib
from collections.abc import Container
from typing import Any

from . import _settings
from ._skills import FILES, SKILLS

EXTENSION = "io.modelcontextprotocol/skills"
# How long a host may keep an entry: it changes only when the package is rebuilt.
TTL_MS = 300_000


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


def register(server: Any, tools: Container[str]) -> None:
    """Declare the extension (and the resources it needs) on the SDK's low-level
    ``server`` and answer its methods, for the skills of ``tools``."""
    types = importlib.import_module("mcp.types")
    errors = importlib.import_module("mcp.shared.exceptions")
    threads = importlib.import_module("anyio.to_thread")
    skills = served(tools)
    files = {r["uri"]: FILES[r["uri"]] for s in skills.values() for r in s["resources"]}
    cache = {"ttlMs": TTL_MS, "cacheScope": "public"}

    def invalid(message: str) -> Any:
        return errors.MCPError(types.INVALID_PARAMS, message)

    async def list_skills(ctx: Any, params: Any) -> dict[str, Any]:
        return {"skills": list(skills.values()), **cache}

    async def get_skill(ctx: Any, params: Any) -> dict[str, Any]:
        if params.uri not in skills:
            raise invalid(f"No skill is served at {params.uri[:200]}")
        return {"skill": skills[params.uri], **cache}

    async def list_resources(ctx: Any, params: Any) -> Any:
        listed = []
        for uri, file in files.items():
            resource = {
                "uri": uri,
                "name": uri.rpartition("/")[2],
                "size": file["size"],
            }
            if uri in skills:
                resource["name"] = skills[uri]["frontmatter"]["name"]
                resource["description"] = skills[uri]["frontmatter"]["description"]
            listed.append(resource | {"mimeType": file["mimeType"]})
        return types.ListResourcesResult.model_validate({"resources": listed, **cache})

    async def read_resource(ctx: Any, params: Any) -> Any:
        if params.uri not in files:
            raise invalid(f"No resource is served at {params.uri[:200]}")
        try:
            contents = await threads.run_sync(read, params.uri)  # a file read
        except (OSError, LookupError) as exc:
            raise errors.MCPError(types.INTERNAL_ERROR, str(exc)) from None
        return types.ReadResourceResult.model_validate(
            {"contents": [contents], **cache}
        )

    server.extensions[EXTENSION] = {}
    server.add_request_handler("skills/list", types.PaginatedRequestParams, list_skills)
    server.add_request_handler(
        "skills/get", types.ReadResourceRequestParams, get_skill
    )  # its params are the same: a uri
    server.add_request_handler(
        "resources/list", types.PaginatedRequestParams, list_resources
    )
    server.add_request_handler(
        "resources/read", types.ReadResourceRequestParams, read_resource
    )
