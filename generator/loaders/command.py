"""Claude Code commands: ``.claude/commands/*.md`` and a plugin's ``commands/``. A command
takes the same frontmatter as a skill (``name`` and ``paths`` are ignored): it is named by
its file, its description defaults to the first line of its body, and it compiles to a
``task`` tool like a skill without a folder of its own.
"""

from __future__ import annotations

from .. import discover
from ..loaders import frontmatter
from ..loaders import Context, markdown_loader
from ..ir import Definition, Kind, Position
from ..loaders.fields import Document, Fallback, has_frontmatter, read_document
from ..loaders.skill import KNOWN_KEYS, TAKEN, argument_hint, first_line
from ..names import skill_name

# Claude Code parses a command's frontmatter with Bun.YAML.parse and, when that throws,
# logs a warning and loads the command with no frontmatter (measured on 2.1.232:
# cathrynlavery/diagram-design#126); commands are skills now, named by their file.
FALLBACK = Fallback(
    {},
    "as Claude Code loads a command whose frontmatter does not parse: with none "
    "(its description the body's first line, no allowed-tools; "
    "cathrynlavery/diagram-design#126)",
)


def load_command(found: discover.Found, context: Context) -> Definition | None:
    report, max_bytes = context.report, context.max_file_bytes
    rel = discover.relative(found.path, context.project)
    if has_frontmatter(found.path):
        doc = read_document(found.path, rel, report, max_bytes, KNOWN_KEYS, FALLBACK)
    else:  # a command's frontmatter is optional: the whole file is its prompt
        text = frontmatter.read(found.path, rel, report, max_bytes)
        doc = None if text is None else Document(rel, {}, text, report)
    if doc is None:
        return None
    name = skill_name(found.path.stem)
    if not name:
        doc.error(None, "invalid-name", f"file name {found.path.name!r} gives no name")
        return None
    description = doc.text("description") or first_line(doc.body) or name
    return Definition(
        kind=Kind.SKILL,
        name=name,
        written_name=found.path.stem,
        plugin=context.plugin,
        description=description,
        body=doc.body,
        source=Position(rel),
        yaml_frontmatter=doc.yaml,
        root=found.root,
        arguments=doc.words("arguments"),
        argument_hint=argument_hint(doc),
        allowed_tools=doc.tool_list("allowed-tools"),
        model=doc.text("model"),
        version=doc.text("version"),
        tags=doc.words("tags"),
        extra=doc.extra(TAKEN | {"paths"}),
        model_invocable=doc.flag("disable-model-invocation") is not True,
        user_invocable=doc.flag("user-invocable") is not False,
        command=True,
    )


load = markdown_loader(load_command)  # A command's Markdown file.
