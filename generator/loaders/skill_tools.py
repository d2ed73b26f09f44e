"""A skill's own tools: its ``tool-manifest.yaml`` and the scripts in its ``scripts/``
folder (seed 001). Each runnable script directly in ``scripts/`` (a known interpreter's
extension, or a shebang line; not ``__init__.py`` nor a ``_private`` helper) becomes the
tool ``<skill>.<script>``, with the provider id ``skill-name__script_name``: the skill
part lowercase with ``-`` for ``_``, the script part lowercase with ``_`` for ``-``
(``web-artifacts-builder__bundle_artifact``), matching ``^[a-z0-9-]+__[a-z0-9_]+$`` in at
most 60 characters; a tool of the skill's tool-manifest.yaml gets an id the same way.
A script's description is its module docstring or leading comment block. A script that
a manifest entry runs takes that entry's parameters (and description); any other takes
a free-form list of string arguments.
"""

from __future__ import annotations

import ast
import dataclasses
import posixpath
import re
from pathlib import Path

from .. import discover
from ..diagnostics import Report
from ..loaders import Context, Loaded
from ..ir import Function, Position, ScriptExecutor
from ..loaders import frontmatter, tool_manifest
from ..names import script_name, skill_name

PROVIDER_ID = re.compile(r"^[a-z0-9-]+__[a-z0-9_]+$")
PROVIDER_ID_LIMIT = 60
FREE_FORM = {
    "type": "object",
    "properties": {
        "args": {
            "type": "array",
            "items": {"type": "string"},
            "description": "Command-line arguments, passed to the script as they are.",
        }
    },
}


def load(found: discover.Found, context: Context) -> Loaded:
    """A skill folder's tools: its tool-manifest.yaml and its scripts."""
    functions = read(
        found.path,
        discover.relative(found.path, context.project),
        found.path.parent.name,
        found.files,
        found.root,
        context.report,
        context.max_file_bytes,
    )
    return Loaded(functions=tuple(functions))


def read(
    skill_file: Path,
    rel: str,
    skill: str,
    files: tuple[str, ...],
    root: int,
    report: Report,
    max_bytes: int,
) -> list[Function]:
    folder = posixpath.dirname(rel)
    owner = tool_manifest.Owner((skill,), folder, skill)
    functions: list[Function] = []
    used: set[str] = set()
    if tool_manifest.FILE in files:
        _, functions, used = tool_manifest.read(
            skill_file.parent / tool_manifest.FILE,
            posixpath.join(folder, tool_manifest.FILE),
            root,
            owner,
            report,
            max_bytes,
        )
    functions = [
        dataclasses.replace(f, provider_id=tool_id)
        for f in functions
        if (tool_id := _tool_id(skill, f.name, f.source, report)) is not None
    ]
    for script in files:
        path = skill_file.parent / script
        if script in used or not discover.is_script(script):
            continue
        head = _read(path, max_bytes)
        if not discover.is_script(script, head) or not entry_point(script, head):
            continue  # a helper module the skill's scripts import
        stem = script_name(posixpath.splitext(posixpath.basename(script))[0])
        where = Position(posixpath.join(folder, script))
        frontmatter.check_link(path, where.path, report)  # as every other input
        provider_id = _tool_id(skill, stem, where, report, script)
        if provider_id is None:
            continue
        functions.append(
            Function(
                name=stem,
                path=(skill, stem),
                origin="script",
                description=script_description(path.suffix, head)
                or f"Run the {script} script of the {skill} skill.",
                input_schema=FREE_FORM,
                author_schema={},
                output_schema=None,
                # args is the script's own command line, options included; it runs
                # where CLAUDE.md's commands run (the project folder), as Claude Code
                # runs a skill's scripts from where it works
                executor=ScriptExecutor(script, ("{args}",), ".", free_argv=True),
                source=where,
                root=root,
                skill=skill,
                skill_dir=folder,
                provider_id=provider_id,
            )
        )
    return functions


def _tool_id(
    skill: str, name: str, where: Position, report: Report, script: str | None = None
) -> str | None:
    """Seed 001's id: the skill's name lowercased with ``-`` for ``_``, ``__``, the tool's
    name lowercased; it must match ``^[a-z0-9-]+__[a-z0-9_]+$`` and fit 60 characters.
    """
    tool_id = f"{skill_name(skill)}__{script_name(name)}"
    if len(tool_id) > PROVIDER_ID_LIMIT:
        reason = f"is {len(tool_id)} characters; the limit is {PROVIDER_ID_LIMIT}"
    elif not PROVIDER_ID.match(tool_id):
        reason = "must match ^[a-z0-9-]+__[a-z0-9_]+$"
    else:
        return tool_id
    what = f"script {script!r}" if script else f"tool {name!r}"
    report.error(
        where.path,
        where.line,
        where.col,
        "invalid-tool-id",
        f"skill {skill!r}, {what}: tool id {tool_id!r} {reason}",
    )
    return None


def _read(path: Path, limit: int) -> str:
    try:
        return frontmatter.head(path, limit).decode("utf-8", "replace")
    except OSError:
        return ""


# A JavaScript file that looks at its own command line is run; one that only exports
# is a module.
_JS_RUN = re.compile(r"\bprocess\.argv\b|\brequire\.main\b|\bimport\.meta\.main\b")
_JS_EXPORTS = re.compile(r"\bmodule\.exports\b|\bexports\.\w|^\s*export\s", re.M)
# What a Python module's top level may hold and still only define things for others.
_DEFINITIONS = (
    ast.Import,
    ast.ImportFrom,
    ast.FunctionDef,
    ast.AsyncFunctionDef,
    ast.ClassDef,
    ast.Assign,
    ast.AnnAssign,
    ast.Pass,
)


def entry_point(script: str, text: str) -> bool:
    """Whether a script declares that it runs (seed 001: a script tool is run as a
    process with its arguments), rather than being a helper its siblings import:

    - Python: it has an ``if __name__ == "__main__":`` block, reads ``sys.argv``, or
      does anything at its top level besides imports, definitions and assignments
      (``utils.py`` and
      ``connections.py`` only define, and are not tools, shebang or not);
    - JavaScript: it reads ``process.argv`` or checks ``require.main``, or exports
      nothing (``module.exports``, ``export``);
    - a shell script, or a file without a known extension that starts with ``#!``.

    A Python file that does not parse is taken as a script."""
    suffix = posixpath.splitext(script)[1]
    if suffix in (".js", ".mjs"):
        return bool(_JS_RUN.search(text)) or not _JS_EXPORTS.search(text)
    if suffix != ".py" or "sys.argv" in text:
        return True
    try:
        body = ast.parse(text).body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return True
    for statement in body:
        if isinstance(statement, _DEFINITIONS):
            continue
        if isinstance(statement, ast.Expr) and isinstance(
            statement.value, ast.Constant
        ):
            continue  # a docstring
        if isinstance(statement, (ast.If, ast.Try)) and not _runs(statement):
            continue  # TYPE_CHECKING imports, import fallbacks
        return True
    return False


def _runs(statement: ast.If | ast.Try) -> bool:
    """An ``if``/``try`` at the top level that does more than define: the main block,
    or any statement inside that is not a definition."""
    if isinstance(statement, ast.If) and "__main__" in ast.unparse(statement.test):
        return True
    inner: list[ast.stmt] = [*statement.body, *statement.orelse]
    if isinstance(statement, ast.Try):
        inner += [s for handler in statement.handlers for s in handler.body]
        inner += statement.finalbody
    return any(
        not isinstance(s, _DEFINITIONS)
        and not (isinstance(s, (ast.If, ast.Try)) and not _runs(s))
        for s in inner
    )


def script_description(suffix: str, head: str) -> str:
    """A script's module docstring (Python) or leading comment block (``#`` or ``//``
    lines after the shebang) when a blank line follows it, as one paragraph; "" when it
    has none. (A comment right above a line of code is about that line: ``# Exit on
    error`` above ``set -e`` does not describe the script.)"""
    lines = head.splitlines()
    if lines and lines[0].startswith("#!"):
        lines = lines[1:]
    text = "\n".join(lines).lstrip()
    if suffix == ".py" and text[:3] in ('"""', "'''"):
        end = text.find(text[:3], 3)
        return _paragraph(text[3:end] if end > 0 else "")
    comment: list[str] = []
    for line in text.splitlines():
        stripped = line.strip()
        marker = next((m for m in ("#", "//") if stripped.startswith(m)), None)
        if marker is None:
            if stripped:  # code right below the comment: it is about that code
                return ""
            break
        if stripped.startswith(("# -*-", "#!")):
            continue
        comment.append(stripped[len(marker) :].strip())
    return _paragraph("\n".join(comment))


def _paragraph(text: str) -> str:
    """The first paragraph, on one line."""
    first = text.strip().split("\n\n", 1)[0]
    return " ".join(first.split())
