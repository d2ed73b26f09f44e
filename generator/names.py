"""The one sanitiser: every name that becomes a Python identifier goes through here.

It is deterministic: NFKC, camelCase to snake_case, lowercase, ASCII only (other letters
become ``u<hex>``), separators to ``_``; a leading digit gets a ``_`` prefix; keywords, soft
keywords and reserved names get a ``_`` suffix. Two names that end up equal are a
collision, which the resolver reports with both sources.
"""

from __future__ import annotations

import builtins
import keyword
import re
import unicodedata
from typing import NewType

Identifier = NewType("Identifier", str)

# Names every generated namespace module defines or imports itself.
NAMESPACE_NAMES = frozenset({"help", "list", "annotations"})
# Attribute names: keywords and the namespace's own names (builtins such as ``dir`` or
# ``open`` are fine as attributes: ``file.dir`` shadows nothing).
ATTRIBUTE_RESERVED = (
    frozenset(keyword.kwlist) | frozenset(keyword.softkwlist) | NAMESPACE_NAMES
)
# Parameter names are local variables in generated functions: builtins are reserved too.
PARAMETER_RESERVED = ATTRIBUTE_RESERVED | frozenset(dir(builtins)) | {"self", "cls"}

_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
_SEPARATORS = re.compile(r"[^a-z0-9_]+")


_KEBAB = re.compile(r"[a-z][a-z0-9]*(?:[-_][a-z0-9]+)*")


def identifier(name: str, reserved: frozenset[str] = ATTRIBUTE_RESERVED) -> Identifier:
    # Most names are kebab-case already, and the full rules then only turn - into _.
    text = name.replace("-", "_") if _KEBAB.fullmatch(name) else _normalise(name)
    if text in reserved or keyword.iskeyword(text):
        text += "_"
    return Identifier(text)


def _normalise(name: str) -> str:
    text = unicodedata.normalize("NFKC", name)
    text = _CAMEL.sub("_", text).lower()
    text = "".join(
        char if char.isascii() else f"_u{ord(char):04x}_"
        for char in unicodedata.normalize("NFKD", text)
        if not unicodedata.combining(char)
    )
    text = _SEPARATORS.sub("_", text)
    text = re.sub("_+", "_", text).strip("_") or "unnamed"
    return "_" + text if text[0].isdigit() else text


# Provider tool names (../shared/reference/providers.md §1, §8): Anthropic, OpenAI and
# Bedrock accept [A-Za-z0-9_-]{1,64} and no dots; Gemini and MCP keep dotted names.
PROVIDER_NAME = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
DOTTED_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_.:-]{0,63}$")
# Clients prefix names (Claude Code: ``mcp__<server>__``): stay well under 64 by default.
DEFAULT_PROVIDER_NAME_LIMIT = 48


def provider_name(qualname: str, limit: int = DEFAULT_PROVIDER_NAME_LIMIT) -> str:
    """The name providers without dots see: each ``.`` becomes ``__``
    (``s3.file.read`` -> ``s3__file__read``). A longer name keeps its start and ends in
    ``_`` and 8 hex digits of its hash, so it stays unique and within ``limit``."""
    name = qualname.replace(".", "__")
    if len(name) <= limit:
        return name
    import hashlib

    digest = hashlib.sha256(qualname.encode()).hexdigest()[:8]
    return f"{name[: limit - 9].rstrip('_')}_{digest}"


def dotted_name(qualname: str, underscored: str) -> str:
    """The name Gemini and MCP see: the dotted name itself, when their rules allow it."""
    return qualname if DOTTED_NAME.match(qualname) else underscored
