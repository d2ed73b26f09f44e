"""Discovery's files: which names it reads as inputs, which a skill bundles, which of
a skill's scripts are tools, and what an entry that is not a readable file is."""

from __future__ import annotations

import os
import stat

SKILL_FILE = "SKILL.md"
TOOL_MANIFEST = "tool-manifest.yaml"
AI_TOOL = "ai-tool.yaml"
TOOLS_SUFFIX = ".tools.yaml"
SCRIPTS = "scripts/"
SCRIPT_SUFFIXES = (".py", ".sh", ".bash", ".js", ".mjs")


def is_script(name: str, head: str | None = None) -> bool:
    """A file directly in a skill's ``scripts/`` folder that runs as a tool (seed 001): a
    known interpreter's extension or (when its text's ``head`` is given) a shebang line;
    never ``__init__.py`` nor a ``_private`` helper."""
    if not name.startswith(SCRIPTS) or "/" in name[len(SCRIPTS) :]:
        return False
    base = name[len(SCRIPTS) :]
    if base.startswith(("_", ".")):
        return False
    if base.endswith(SCRIPT_SUFFIXES):
        return True
    if head is None or "." in base:
        return head is None and "." not in base  # maybe a shebang script: look
    return head.startswith("#!")


def has_tools(files: tuple[str, ...]) -> bool:
    """Whether a skill may bring tools: a tool-manifest.yaml or scripts."""
    return TOOL_MANIFEST in files or any(is_script(name) for name in files)


def is_bundled(name: str) -> bool:
    return not name.startswith(".") and not name.endswith(".pyc")


def is_input(name: str) -> bool:
    """Whether a file of this name is read as a skill or a tool manifest."""
    return name in (SKILL_FILE, TOOL_MANIFEST, AI_TOOL) or (
        name.endswith(TOOLS_SUFFIX) and len(name) > len(TOOLS_SUFFIX)
    )


def not_a_file(path: str) -> str:
    """Why ``path``, where a file was expected, is none (for an error)."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return "a symbolic link to nothing, not a file: its tools cannot be read"
    except OSError as exc:
        return f"cannot be read ({exc.strerror}): its tools cannot be read"
    kind = "a folder" if stat.S_ISDIR(mode) else "a FIFO, socket or device"
    return f"{kind}, not a file: its tools cannot be read"


def shown(text: str) -> str:
    """A path or name as text that can be printed and stored: bytes that are not UTF-8
    (surrogates in Python's file names) written as ``\\xff``."""
    return text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def is_file(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_file()
    except OSError:
        return False


def is_dir(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir()
    except OSError:
        return False
