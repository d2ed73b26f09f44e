"""The one sanitiser: every name that becomes a Python identifier goes through here.

It is deterministic: NFKC, camelCase to snake_case, lowercase, ASCII only (other letters
become ``u<hex>``), separators to ``_``; a leading digit gets a ``_`` prefix; keywords and
soft keywords get a ``_`` suffix, nothing else does. Two names that end up equal are a
collision, which the resolver reports with both sources.

Skill and script names are normalised as seed 001 says before they are validated
(``skill_name``, ``script_name``).
"""

from __future__ import annotations

import builtins
import hashlib
import keyword
import re
import unicodedata
from typing import NewType

Identifier = NewType("Identifier", str)

# Only what Python itself refuses gets a trailing ``_``: keywords and the soft keywords
# (a fixed list, so that output does not depend on the Python version; ``type`` stays,
# as seed 000's ``list``, ``id``, ``filter`` and ``input`` do). ``annotations`` is the
# one name a generated module binds itself (``from __future__ import annotations``).
SOFT_KEYWORDS = frozenset({"_", "case", "match"})
ATTRIBUTE_RESERVED = (
    frozenset(keyword.kwlist) | SOFT_KEYWORDS | frozenset({"annotations"})
)
PARAMETER_RESERVED = ATTRIBUTE_RESERVED
# What every namespace module defines: a tool may not take ``help`` (an error naming
# both); a tool named ``list`` takes the name of the namespace's listing method.
NAMESPACE_HELP = "help"
NAMESPACE_LIST = "list"
# The package's own lowercase attributes: a top-level namespace or alias may not take
# them (nor the subpackage of the agent frameworks' adapters).
PACKAGE_ATTRIBUTES = frozenset(
    {
        "adapters",
        "dispatch",
        "entries",
        "find_tool",
        "help",
        "lazy_attribute",
        "list",
        "package_help",
        "set_task_runner",
        "tools",
    }
)
# Lowercase names a tool's own module uses (builtins in its annotations, its imports):
# the function is called ``<name>_`` inside its module and keeps its name outside.
MODULE_RESERVED = frozenset(n for n in dir(builtins) if n.islower()) | frozenset(
    {"annotations", "task_tool", "sequence"}
)


def function_name(py_name: str) -> str:
    """The tool function's name inside its own module."""
    return py_name + "_" if py_name in MODULE_RESERVED else py_name


_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
_SEPARATORS = re.compile(r"[^a-z0-9_]+")


_KEBAB = re.compile(r"[a-z][a-z0-9]*(?:[-_][a-z0-9]+)*")


def identifier(name: str, reserved: frozenset[str] = ATTRIBUTE_RESERVED) -> Identifier:
    # Most names are kebab-case already, and the full rules then only turn - into _.
    text = name.replace("-", "_") if _KEBAB.fullmatch(name) else _normalise(name)
    if text in reserved or keyword.iskeyword(text):
        text += "_"
    return Identifier(text)


def skill_name(name: str) -> str:
    """Seed 001's skill part: lowercase, ``_`` (and white space) to ``-``, runs of ``-``
    collapsed, none at either end: ``PDF-Extractor`` -> ``pdf-extractor``,
    ``Zoho Desk Automation`` -> ``zoho-desk-automation``, ``csv_parser`` -> ``csv-parser``.
    """
    text = unicodedata.normalize("NFKC", name).strip().lower()
    text = re.sub(r"[\s_]+", "-", text)
    return re.sub("-{2,}", "-", text).strip("-")


def script_name(name: str) -> str:
    """Seed 001's script part: lowercase, ``-`` (and white space) to ``_``:
    ``bundle-artifact`` -> ``bundle_artifact``."""
    text = unicodedata.normalize("NFKC", name).strip().lower()
    return re.sub(r"[\s-]+", "_", text)


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
_NOT_PROVIDER = re.compile(r"[^A-Za-z0-9_-]")
DOTTED_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_.:-]{0,63}$")
# Clients prefix names (Claude Code: ``mcp__<server>__``): stay well under 64 by default.
DEFAULT_PROVIDER_NAME_LIMIT = 48


def provider_name(qualname: str, limit: int = DEFAULT_PROVIDER_NAME_LIMIT) -> str:
    """The name providers without dots see: each ``.`` becomes ``__``
    (``s3.file.read`` -> ``s3__file__read``), any other character they refuse ``_``
    (``u<hex>`` for a letter of another script). A longer name keeps its start and ends in
    ``_`` and 8 hex digits of its hash, so it stays unique and within ``limit``."""
    name = _NOT_PROVIDER.sub(_provider_char, qualname.replace(".", "__"))
    if len(name) <= limit:
        return name
    digest = hashlib.sha256(qualname.encode()).hexdigest()[:8]
    return f"{name[: limit - 9].rstrip('_')}_{digest}"


def _provider_char(match: re.Match[str]) -> str:
    """A character providers refuse: ``_``, or ``u<hex>`` for a non-ASCII letter (so
    that two names in other scripts stay apart)."""
    char = match.group()
    return "_" if char.isascii() else f"u{ord(char):04x}"


def dotted_name(qualname: str, underscored: str) -> str:
    """The name Gemini and MCP see: the dotted name itself, when their rules allow it."""
    return qualname if DOTTED_NAME.match(qualname) else underscored
