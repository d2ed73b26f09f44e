"""The intermediate model: what loaders produce and the only thing emitters read.

Every class is a frozen dataclass. ``Definition`` is one validated skill or subagent as
its loader saw it, ``Function`` one callable tool; ``Tool`` adds the names resolution
gave it; ``Model`` is the whole build.
Paths are repo-relative POSIX paths.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, Literal

from .discovered import UNREADABLE as UNREADABLE
from .discovered import Hook as Hook
from .discovered import Kind as Kind
from .discovered import McpServer as McpServer
from .discovered import NotCompiled as NotCompiled
from .names import Identifier


@dataclasses.dataclass(frozen=True, slots=True)
class Position:
    path: str
    line: int = 1
    col: int = 1

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.col}"


@dataclasses.dataclass(frozen=True, slots=True)
class Definition:
    """A skill or subagent, validated and normalised, before naming and precedence."""

    kind: Kind
    name: str  # identity: a skill's folder name, a subagent's ``name``, normalised
    # The name as written (a project skill's folder, a plugin skill's or subagent's
    # ``name``, a command's file): two that normalise alike are told apart by it.
    written_name: str
    plugin: str | None  # the enclosing plugin's name, if any
    description: str
    body: str  # a skill's instructions, a subagent's system prompt
    source: Position
    root: int  # index of its source root; later roots take precedence
    allowed_tools: tuple[str, ...]
    model: str | None
    # Every other key kept: Claude Code extensions, metadata.yaml fields.
    extra: Mapping[str, Any]
    skill_dir: str | None = None  # a skill's folder (subagents and commands have none)
    files: tuple[str, ...] = ()  # bundled files, relative to skill_dir
    plugin_dir: str | None = None  # the enclosing plugin's folder, project-relative
    arguments: tuple[str, ...] = ()  # named positional arguments (``arguments``)
    argument_hint: str | None = None
    version: str | None = None
    tags: tuple[str, ...] = ()
    license: str | None = None
    compatibility: str | None = None
    metadata: Mapping[str, str] = dataclasses.field(
        default_factory=lambda: MappingProxyType({})
    )
    # A skill's SKILL.md frontmatter as written (SEP-2640's skill entries carry it).
    frontmatter: Mapping[str, Any] = dataclasses.field(
        default_factory=lambda: MappingProxyType({})
    )
    # False: the frontmatter is not YAML and was read leniently (loaders/fields.py).
    yaml_frontmatter: bool = True
    # disable-model-invocation: true -> False: in the package (a person runs it), not in
    # provider files, find_tool or agent docs. user-invocable: false is recorded.
    model_invocable: bool = True
    user_invocable: bool = True
    command: bool = (
        False  # a command file (commands/*.md), which a skill of its name beats
    )
    # What a callable tool has and a task tool has not, so that code reads either alike.
    provider_id: None = None
    skill: None = None

    @property
    def path(self) -> tuple[str, ...]:
        """The dotted name as Claude Code namespaces it: task.<plugin>.<name>."""
        return ("task", *([self.plugin] if self.plugin else []), self.name)

    @property
    def authored_depth(self) -> int:
        """How deep its author nested its dotted name: none, skillc derives it."""
        return 0


# How a callable tool runs: one typed record per executor, tagged by ``type``. Its
# ``settings`` are what templates/runtime/_executors.py reads from the tool's executor literal.
@dataclasses.dataclass(frozen=True, slots=True)
class PythonExecutor:
    """Calls ``module:function`` in the package's process."""

    function: str
    type: Literal["python"] = "python"

    @property
    def settings(self) -> dict[str, Any]:
        return {"function": self.function}


@dataclasses.dataclass(frozen=True, slots=True)
class ScriptExecutor:
    """Runs a skill's script: ``entry`` (below the tool's folder) with
    ``args_template``'s words, in ``cwd`` (project-relative): a manifest's scripts in
    their folder (seed 003), a skill's own scripts in the project folder, ``.``."""

    entry: str
    args_template: tuple[str, ...]
    cwd: str
    free_argv: bool = False  # the script's own command line: options pass through
    env: tuple[str, ...] = ()  # environment variables given besides the allowlisted
    secrets: tuple[
        str, ...
    ] = ()  # the variables that hold secrets (loaders.credentials)
    type: Literal["script"] = "script"

    @property
    def settings(self) -> dict[str, Any]:
        result: dict[str, Any] = {
            "entry": self.entry,
            "args_template": list(self.args_template),
            "cwd": self.cwd,
        }
        if self.free_argv:
            result["free_argv"] = True
        if self.env:
            result["env"] = list(self.env)
        return _with_secrets(result, self.secrets)


@dataclasses.dataclass(frozen=True, slots=True)
class CliExecutor:
    """Runs ``command`` with options from the arguments and ``positional`` in order."""

    command: tuple[str, ...]
    positional: tuple[str, ...]
    env: tuple[str, ...] = ()  # environment variables given besides the allowlisted
    secrets: tuple[
        str, ...
    ] = ()  # the variables that hold secrets (loaders.credentials)
    type: Literal["cli"] = "cli"

    @property
    def settings(self) -> dict[str, Any]:
        result: dict[str, Any] = {
            "command": list(self.command),
            "positional": list(self.positional),
        }
        if self.env:
            result["env"] = list(self.env)
        return _with_secrets(result, self.secrets)


@dataclasses.dataclass(frozen=True, slots=True)
class HttpExecutor:
    """Sends a request to ``url`` (its placeholders filled from the arguments)."""

    method: str
    url: str
    headers_template: Mapping[str, str] | None = None
    has_body: bool = False  # body_template may be any JSON value, null included
    body_template: Any = None
    secrets: tuple[
        str, ...
    ] = ()  # the variables that hold secrets (loaders.credentials)
    type: Literal["http"] = "http"

    @property
    def settings(self) -> dict[str, Any]:
        result: dict[str, Any] = {"method": self.method, "url": self.url}
        if self.headers_template:
            result["headers_template"] = dict(self.headers_template)
        if self.has_body:
            result["body_template"] = self.body_template
        return _with_secrets(result, self.secrets)


def _with_secrets(settings: dict[str, Any], secrets: tuple[str, ...]) -> dict[str, Any]:
    """An executor's settings, with the variables that hold secrets where there are
    any: the runtime redacts their values, and refuses to send one too short to."""
    if secrets:
        settings["secrets"] = list(secrets)
    return settings


Executor = PythonExecutor | ScriptExecutor | CliExecutor | HttpExecutor


@dataclasses.dataclass(frozen=True, slots=True)
class Function:
    """A callable tool with a JSON Schema for its input, before naming and precedence."""

    name: str  # as its author wrote it: "read", "orchestrator:status", "math.factorial"
    path: tuple[str, ...]  # the dotted name, namespace first: ("file", "read")
    origin: str  # "builtin", "tools", "tool-manifest", "ai-tool" or "script"
    description: str
    input_schema: Mapping[str, Any]  # normalised
    author_schema: Mapping[str, Any]  # as written, kept beside the normalised one
    output_schema: Mapping[str, Any] | None
    executor: Executor
    source: Position
    root: int
    category: str | None = None
    aliases: tuple[str, ...] = ()  # other dotted names that call the same tool
    examples: tuple[str, ...] = ()
    # The input each example that is a call of the tool sends, checked against its schema.
    input_examples: tuple[Mapping[str, Any], ...] = ()
    errors: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    triggers: tuple[str, ...] = ()
    dangerous: bool = False
    read_only: bool | None = None
    idempotent: bool | None = None  # a repeated call changes nothing more
    icons: tuple[Mapping[str, Any], ...] = ()  # MCP icons: src, mimeType, sizes, theme
    timeout_sec: float | None = None
    retry: Mapping[str, int] | None = None
    skill: str | None = None  # the skill it belongs to
    skill_dir: str | None = None  # its working directory, repo-relative
    provider_id: str | None = None  # a skill script's id, ``skill-name__script``
    # An ai-tool.yaml command's tool: {"name", "version", "description", "homepage",
    # "install"}, for the ai-tools.json aggregate.
    cli_tool: Mapping[str, Any] | None = None
    kind: Kind = Kind.TOOL
    command: bool = False  # only a Markdown command is one
    plugin: None = None  # what a task tool has and a callable tool has not

    @property
    def authored_depth(self) -> int:
        """How deep its author nested its dotted name (max-namespace-depth limits it)."""
        return len(self.path)


@dataclasses.dataclass(frozen=True, slots=True)
class Parameter:
    """A keyword parameter of a callable tool: one top-level input property."""

    name: str  # the original property name, which a call sends
    py_name: Identifier
    required: bool
    description: str
    default: Any = None  # a JSON value; None when there is none


@dataclasses.dataclass(frozen=True, slots=True)
class Argument:
    name: str
    py_name: Identifier


@dataclasses.dataclass(frozen=True, slots=True)
class Tool:
    qualname: str  # dotted Python path below the package, e.g. "task.code_reviewer"
    namespace: tuple[Identifier, ...]
    py_name: Identifier
    summary: str  # Level 1: one short line
    arguments: tuple[Argument, ...]
    definition: Definition | Function
    parameters: tuple[Parameter, ...] = ()
    aliases: tuple[str, ...] = ()  # dotted names below the package
    provider_name: str = ""  # for providers that reject dots: "s3__file__read"
    dotted_name: str = ""  # for Gemini and MCP, which keep dots: "s3.file.read"

    @property
    def model_invocable(self) -> bool:
        """Whether models are offered the tool (disable-model-invocation: true says no)."""
        d = self.definition
        return not isinstance(d, Definition) or d.model_invocable


@dataclasses.dataclass(frozen=True, slots=True)
class Namespace:
    qualname: str
    path: tuple[Identifier, ...]
    summary: str
    tools: tuple[Identifier, ...]
    children: tuple[Identifier, ...]


@dataclasses.dataclass(frozen=True, slots=True)
class SourceFile:
    path: str
    sha256: str
    size: int = 0  # in bytes (not in the lock: the MCP server's skill entries give it)
    # A symbolic link (or a path below one) to a place outside the project: its bytes
    # are never published (the MCP server's skills, the well-known index).
    linked_out: bool = False


@dataclasses.dataclass(frozen=True, slots=True)
class Override:
    qualname: str
    kept: Position
    replaced: Position


@dataclasses.dataclass(frozen=True, slots=True)
class Verdict:
    """One client's verdict on an item (generator/harness): ``loaded``, ``skipped`` or
    ``refused``, the name it gives it, and why."""

    outcome: str
    name: str = ""
    why: str = ""
    source: str = ""  # the rule's (not in report.json: skillc check names it)


@dataclasses.dataclass(frozen=True, slots=True)
class Verdicts:
    """Each client the build follows that reaches an item: its verdict, by client."""

    path: str
    kind: str
    clients: Mapping[str, Verdict]


@dataclasses.dataclass(frozen=True, slots=True)
class Shadowed:
    """A tool that lost its name to a built-in (seed 003 §3.3), or a command to a skill of
    its name: reported, not dropped silently."""

    qualname: str
    kept: Position
    shadowed: Position


@dataclasses.dataclass(frozen=True, slots=True)
class Invalid:
    path: str
    codes: tuple[str, ...]


@dataclasses.dataclass(frozen=True, slots=True)
class Model:
    generator: str
    sources: tuple[SourceFile, ...]
    tools: tuple[Tool, ...]
    namespaces: tuple[Namespace, ...]
    overrides: tuple[Override, ...]
    invalid: tuple[Invalid, ...]
    shadowed: tuple[Shadowed, ...] = ()
    not_compiled: tuple[NotCompiled, ...] = ()
    hooks: tuple[Hook, ...] = ()
    mcp_servers: tuple[McpServer, ...] = ()
    # The clients the build follows, and their verdicts on each item of their layouts.
    targets: tuple[str, ...] = ()
    verdicts: tuple[Verdicts, ...] = ()


def to_json(value: Any) -> Any:
    """The model as plain JSON data (``--dump-ir``)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {
            f.name: to_json(getattr(value, f.name)) for f in dataclasses.fields(value)
        }
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, Mapping):
        return {str(k): to_json(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_json(v) for v in value]
    return value
