"""One typed, frozen view per tool: everything the emitters and templates read about it.

A view is data: names, texts, schemas, parameters, metadata, and its module's data
(the Python types of its parameters included), built from the model once per tool
(``builder.build``). Emitters render views into files and never change them. The
builder is the one place that tells skills, subagents and commands from callable
tools; emitters read the view's fields and never ask which kind of tool it is.
"""

from __future__ import annotations

from dataclasses import dataclass

from collections.abc import Mapping
from typing import Any

from ..ir import (
    Argument,
    Hook,
    Invalid,
    McpServer,
    Namespace,
    NotCompiled,
    Override,
    Parameter,
    Position,
    Shadowed,
    SourceFile,
)

ClaudeValue = str | bool | tuple[str, ...]


@dataclass(frozen=True, slots=True)
class TaskModule:
    """What ``task_tool.py.jinja`` writes: a skill's, subagent's or command's module."""

    kind: str
    name: str
    qualname: str
    summary: str
    help: str
    instructions: str
    argument_names: tuple[str, ...]
    named: tuple[Argument, ...]
    allowed_tools: tuple[str, ...]
    model: str | None
    skill_dir: str | None
    plugin_dir: str | None
    plugin: str | None  # the plugin's name
    claude: tuple[tuple[str, ClaudeValue], ...]
    codex: tuple[tuple[str, ClaudeValue], ...]  # agents/openai.yaml, by Codex field
    files: tuple[str, ...]
    py_name: str
    function: str
    free_text: (
        bool  # a skill takes free text (and named arguments); a subagent a prompt
    )


@dataclass(frozen=True, slots=True)
class CallableModule:
    """What ``callable_tool.py.jinja`` writes: a callable tool's module."""

    qualname: str
    name: str
    summary: str
    help: str
    executor: Mapping[str, Any]  # the executor literal the runtime runs
    parameters: Mapping[str, str]  # Python name -> the name a call sends
    input_schema: Mapping[str, Any]
    output_schema: str  # a Python literal
    skill_dir: str | None
    skill: str | None
    py_name: str
    returns: str
    function: str
    signature: tuple[str, ...]
    docstring: str
    sends: tuple[tuple[str, str], ...]
    typing_names: tuple[str, ...]
    models: str  # the parameters' model classes, as Python source


@dataclass(frozen=True, slots=True)
class AgentSkill:
    """An Agent Skill's folder and frontmatter, for those who publish its files (the
    MCP server's SEP-2640 skills, the well-known index)."""

    folder: str  # project-relative
    frontmatter: Mapping[str, Any]  # its SKILL.md's, as written


@dataclass(frozen=True, slots=True)
class ToolView:
    qualname: str
    namespace: tuple[str, ...]
    py_name: str
    function: str  # its function inside its module (``list_`` for ``list``)
    module: str  # its module, dotted below the package: "file._read"
    module_path: str  # its module's file: "file/_read.py"
    name: str  # as its source names it
    kind: str  # "skill", "agent", "command" or "tool"
    summary: str
    source: Position
    offered: bool  # offered to models (not disable-model-invocation)
    aliases: tuple[str, ...]
    # The names its source says it had before (a skill's metadata previous-name): a
    # breaking change calls it renamed, not removed and added.
    previous: tuple[str, ...]
    provider_name: str
    dotted_name: str
    python_path: str  # how Python reaches it: "generated.s3.file.read"
    category: str | None
    claude_native: bool  # Claude Code loads it from a .claude/ folder itself
    parameters: tuple[Parameter, ...]
    # How CLAUDE.md shows a call from the shell: a task tool takes its text, a callable
    # tool its required options ("" when the tool is the other kind).
    task_call: str
    tool_call: str
    python_module: str | None  # the module a python executor imports
    # Provider files: the description they show, the plain input schema, why no
    # provider can take it (None: all can), the output schema, MCP's hints.
    description: str
    input_schema: Mapping[str, Any]
    schema_problem: str | None
    output_schema: Mapping[str, Any] | None
    hints: Mapping[str, bool]
    input_examples: tuple[Mapping[str, Any], ...]  # inputs its examples send, checked
    icons: tuple[Mapping[str, Any], ...]  # MCP icons, as the manifest gives them
    search_fields: Mapping[str, str]  # find_tool's text of each field
    name_forms: tuple[str, ...]  # the compound names a purpose may call it by
    report: Mapping[str, Any]  # its entry in report.json
    # Seed 000's metadata it sets (version, author, tags, capabilities...), in one form.
    metadata: Mapping[str, str | list[str]]
    # ai-tools.json: an ai-tool.yaml command's tool and its entry, or a task tool's
    # entry under "skills" (offered to models, with metadata).
    ai_tool: tuple[Mapping[str, Any], Mapping[str, Any]] | None
    ai_skill: Mapping[str, Any] | None
    tokens: tuple[int, int]  # Level 1, and what a call loads (Level 2)
    agent_skill: AgentSkill | None  # an Agent Skill's files are published
    body: TaskModule | CallableModule  # the data its module is written from
    loosened: tuple[tuple[str, str], ...]  # input schema paths typed loosely, and why


@dataclass(frozen=True, slots=True)
class PackageView:
    """The whole build as the emitters see it: the tools' views, and the rest of the
    model."""

    generator: str
    tools: tuple[ToolView, ...]
    namespaces: tuple[Namespace, ...]
    sources: tuple[SourceFile, ...]
    overrides: tuple[Override, ...]
    shadowed: tuple[Shadowed, ...]
    invalid: tuple[Invalid, ...]
    not_compiled: tuple[NotCompiled, ...]
    hooks: tuple[Hook, ...]
    mcp_servers: tuple[McpServer, ...]

    @property
    def offered(self) -> tuple[ToolView, ...]:
        """The tools models are offered."""
        return tuple(t for t in self.tools if t.offered)
