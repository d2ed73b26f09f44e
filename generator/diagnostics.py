"""Diagnostics as data: every stage reports problems here, never by raising at the user.

A diagnostic prints as ``path:line:col: error[code]: message``. Codes are stable kebab-case
names, listed with their meaning in ``CODES`` (and in the README).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable

from . import urls

from .diagnostic import ORDER, Diagnostic
from .diagnostic import Severity as Severity

# Codes no build reports any more, still accepted in `ignore` so that a configuration
# written for an older skillc keeps working (ignoring them changes nothing).
RETIRED = frozenset({"budget-exceeded"})  # replaced by skillc check's listing budgets
CODES: dict[str, str] = {
    # files and parsing
    "invalid-setting": "a [tool.skillc] setting in pyproject.toml has a wrong key, type or value",
    "file-unreadable": "the file could not be read",
    "file-not-utf8": "the file is not valid UTF-8",
    "name-not-utf8": "a file or folder name is not valid UTF-8",
    "file-empty": "the file is empty",
    "file-too-large": "the file is larger than max-file-bytes",
    "symlink-loop": "a symbolic link leads back into a folder already being scanned",
    "no-frontmatter": "the Markdown file does not start with a '---' YAML frontmatter block",
    "frontmatter-unclosed": "the frontmatter has no closing '---' line",
    "frontmatter-not-mapping": "the frontmatter is not a YAML mapping",
    "yaml-syntax": "the YAML does not parse",
    "yaml-duplicate-key": "a key appears twice in one mapping",
    "yaml-alias-bomb": "YAML anchors and aliases expand past the node or size limit",
    "yaml-too-deep": "YAML or JSON collections are nested more than 64 levels deep",
    "non-finite-number": "a number is infinite or not a number (.inf, .nan, 1e999)",
    "symlink-outside-project": "an input file is a symbolic link to a file outside the project",
    "json-syntax": "the JSON does not parse",
    "load-failed": "a loader failed in a way skillc did not foresee (please report it)",
    "bom": "the file starts with a byte-order mark",
    "crlf": "the file uses CRLF line endings",
    "unquoted-colon": "a one-line description holds ': ' unquoted (not YAML): read as the text meant, the rest of the line and its continuation lines; skillc fix quotes it",
    "frontmatter-placeholder": 'a plugin subagent whose frontmatter does not parse, in a way no reading makes certain: compiled as Claude Code registers it (its file name, "Agent from <plugin> plugin", every tool)',
    # skill and agent fields
    "missing-name": "name is missing or empty",
    "invalid-name": "name breaks the naming rules",
    "name-folder-mismatch": "a skill's name differs from its folder's name",
    "missing-description": "description is missing or empty",
    "description-too-long": "description is longer than 1,024 characters",
    "invalid-field": "a field has the wrong type or value",
    "non-spec-key": "a key Claude Code accepts but the Agent Skills spec does not define",
    "unknown-key": "a key that neither the spec nor Claude Code defines",
    "flow-style": "a flow-style YAML list or map, which the reference validator rejects",
    "allowed-tools-list": "a skill's allowed-tools written as a YAML list (block or flow), which gh skill publish rejects (a string, not an array)",
    "metadata-conflict": "metadata.yaml and the frontmatter give different values for a key",
    "not-a-subagent": "a Markdown file in an agents folder without frontmatter",
    "unknown-skill": "a subagent's or command's skills names a skill the build does not compile, or one only a person may invoke: the item is left out",
    "invalid-plugin": "a plugin manifest that cannot be used, or a bad hooks or MCP server config",
    "invalid-plugin-path": "a plugin component path (or marketplace source) not starting with './' or holding '..'",
    "manifest-field-ignored": 'a plugin manifest\'s field its client reports and ignores, never obeys (an unknown Agent Plugins field such as "skills", an extensions that is no object, a Codex path it cannot use)',
    "draft-version": "a plugin targets a draft of its format (Agent Plugins 1.1.0): read by the draft's rules; a client of the published version rejects it",
    "invalid-marketplace": "a .claude-plugin/marketplace.json that cannot be used",
    "duplicate-plugin": "two marketplace entries with the same plugin name",
    "component-not-compiled": "a plugin's component skillc does not compile (lspServers, bin/, settings.json, another client's own...), a default commands/ or agents/ folder replaced by a custom path, or a listed component path that does not exist",
    "invalid-openai-yaml": "a skill's agents/openai.yaml (Codex's settings) that is not a mapping of its keys",
    "too-many-files": "a skill folder bundles more files than are listed",
    "symlink-escapes-skill": "a symbolic link in a skill folder leads out of it (to .env, .git/config, another project file or folder): the skill's files are not published",
    "skill-not-published": "an offered skill's files are not published (MCP skills, the well-known index): its name, size or a file breaks a rule, or its name is taken",
    "package-refused": "a written package (harness-packages) holds what its client refuses or skips: an item, a manifest or marketplace against the client's rules, an upload bundle that is not one folder with its SKILL.md, or whose digest is not the lock's (skillc check)",
    "root-file-not-owned": "a file at the project root that harness-root-files would replace or remove is not one skillc wrote (a user's own, or edited since): never touched, and nothing is written",
    "package-changed": "a subagent is written into a client's package otherwise than its source says (harness-packages): without a model the client names its own way, so it runs on the session's model",
    "package-left-out": "a skill, subagent or command is left out of a client's package (harness-packages): the client has no such component, or its rules refuse or skip it",
    "empty-source": "a source root holds no skill, subagent or tool manifest",
    "not-compiled": "definitions found and left out, with the reason (info: in dot folders, deeper than the clients read, in the layouts of clients the build does not follow, outside every source)",
    "harness-disagreement": "the clients a build follows disagree on an item: which load it, or the name they give it (the build follows one and says which)",
    "harness-refused": "every client the build follows that reaches an item refuses it (a hard limit, a strict key): the item is left out",
    # tool manifests
    "manifest-empty": "a tool manifest with nothing in it (skipped)",
    "manifest-invalid": "a tool manifest breaks the JSON Schema of its format",
    "schema-invalid": "an input or output schema has no clear meaning or is not valid JSON Schema",
    "schema-normalised": "a non-standard schema construct was rewritten to its one clear meaning",
    "schema-untyped": "part of an input schema could only be typed loosely (Any, dict[str, Any], list[Any])",
    "duplicate-tool": "two tools or commands of one manifest have the same name",
    "install-not-allowed": "an ai-tool.yaml install source is outside the install-allowlist",
    "invalid-tool-id": "a skill script's tool id breaks the seed 001 rule, or an ai-tool.yaml command id carries another tool's prefix",
    "executor-invalid": "an executor's entry or URL cannot be used",
    "invalid-example": "a tool manifest's example calls the tool with arguments it cannot take",
    "namespace-too-deep": "a dotted tool name is deeper than max-namespace-depth",
    "package-shadows-module": "a python tool's module has the generated package's name",
    "name-too-long": "a tool's module or folder name is longer than 255 bytes",
    # resolution
    "duplicate-name": "two tools have the same name in one source root and namespace (a warning when one of them is a subagent, renamed `<name>-agent`)",
    "identifier-collision": "two names become the same Python identifier (a warning when the second tool is renamed `<name>_2`; an error for aliases and parameters)",
    "reserved-name": "a tool or namespace named like a function of the generated package is reached as <name>_, or a tool named list takes its namespace's list()",
    "override": "a later source root overrides a tool of an earlier one",
    "shadowed": "a tool lost its name to a built-in tool, a command to a skill, or a client's copy of a skill to another client's, and is left out",
    "provider-name-shortened": "a tool's provider name was cut to provider-name-limit",
    "provider-name-collision": "two tools get the same provider name",
    "profile-invalid": "a profile enables both tools of an incompatible pair",
    "provider-schema": "a tool's input schema has a root no provider accepts",
    "find-tool-lexical": "find-tool is hybrid but numpy or the token table is missing",
    "find-tool-static": "find-tool is model, its encoder is unavailable and find-tool-fallback is hybrid",
    "encoder-unavailable": "find-tool is model but its encoder is missing, unknown, corrupt or cannot run",
    # --check
    "stale-output": "a file of the output folder is not what a build would write",
    # skillc check (generator/checks)
    "listing-dropped": "a harness's listing would drop a skill's description, or the tool",
    "listing-cut": "a harness's listing would cut or shorten a description",
    "skills-lock-invalid": "skills-lock.json (npx skills) is not a lock of its shape, or an entry is not",
    "skills-lock-mismatch": "an installed skill's files are not those skills-lock.json records",
    "skills-lock-missing": "a skill skills-lock.json records is installed in none of its folders",
    "compaction-cut": "Claude Code re-attaches an invoked skill after compaction cut to 5,000 tokens",
    "breaking-change": "a tool's interface changed in a way that breaks a caller, without a major version bump",
    "baseline-invalid": "skillc check's baseline lock (on disk or at --against REF) is missing at REF or not a lock skillc writes: not a regular file, not JSON, too deep, or of another shape",
    "version-not-bumped": "a tool's interface gained something without a minor version bump",
    "download-and-execute": "a hook, script, MCP server or skill line downloads code and runs it (curl | sh)",
    "obfuscated-execution": "a hook, script, MCP server or skill line runs code it decodes or fetches (exec(base64.b64decode(...)), base64 -d piped to sh, powershell -enc)",
    "exfiltration": "a hook, script, MCP server or skill line reads credentials (an SSH key, cloud credentials, the whole environment) and sends data over the network",
    "hook-runs-package": "a hook downloads a package and runs it (npx pkg@1.2, uvx, pipx run), on every tool call when its matcher takes every tool",
    "secret-in-source": "a secret (a token or key of a known shape) is written into a source file",
    "credential-in-url": "a URL in a source carries a credential (user:password@, or a key, token or secret in its query): the outputs write it without",
    "allowed-tools-wildcard": "a skill's allowed-tools pre-approve every use of a tool (*, Bash, Bash(*))",
    "hidden-unicode": "invisible or bidirectional Unicode in a source: text a reviewer does not see",
    "overlapping-tools": "two tools' descriptions so alike that a model or find_tool can hardly tell them apart, or one name spelt two ways (--strict)",
    "duplicate-definition": "a note: one definition shipped in several plugins, with its copies (--strict)",
}


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """`` (did you mean 'flow-style'?)`` for a name close to one of ``choices`` (a typo,
    ``_`` for ``-``, another case), else ""."""
    import difflib

    known = {choice.lower().replace("_", "-"): choice for choice in choices}
    close = difflib.get_close_matches(word.lower().replace("_", "-"), known, 1, 0.75)
    return f" (did you mean {known[close[0]]!r}?)" if close else ""


def position(text: str, offset: int) -> tuple[int, int]:
    """The 1-based line and column of ``offset`` in ``text``."""
    column = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return text.count("\n", 0, offset) + 1, column


_RANK = {Severity.ERROR: 0, Severity.WARNING: 1, Severity.INFO: 2}


def make(
    severity: Severity, path: str, line: int, col: int, code: str, message: str
) -> Diagnostic:
    assert code in CODES, code
    rank = _RANK[severity]
    # A message may quote a source's URL: printed in CI logs, kept in report.json.
    message = urls.redact(message)
    return Diagnostic(path, max(line, 1), max(col, 1), rank, code, message, severity)


def ordered(items: Collection[Diagnostic]) -> list[Diagnostic]:
    """``sorted(items)``, faster (``diagnostic.ORDER``)."""
    return sorted(items, key=ORDER)


class Report:
    """Collects diagnostics from every stage; a stage never stops the others."""

    def __init__(
        self,
        strict: bool = False,
        ignore: frozenset[str] = frozenset(),
        warnings_as_errors: bool = False,
    ) -> None:
        self.strict = strict
        # The project's choices ([tool.skillc] ignore, warnings-as-errors), applied to
        # what the report shows and counts: warnings of an ignored code are dropped (a
        # deviation --strict would make an error stays a warning, so it is dropped too),
        # and the others can be made errors. Any other error is never ignored.
        self.ignore = ignore
        self.warnings_as_errors = warnings_as_errors
        self._items: set[Diagnostic] = set()

    def error(self, path: str, line: int, col: int, code: str, message: str) -> None:
        self._items.add(make(Severity.ERROR, path, line, col, code, message))

    def warning(self, path: str, line: int, col: int, code: str, message: str) -> None:
        self._items.add(make(Severity.WARNING, path, line, col, code, message))

    def info(self, path: str, line: int, col: int, code: str, message: str) -> None:
        """A note: what was left out on purpose, or what skillc did; nothing to
        fix in the source (``Severity.INFO``)."""
        self._items.add(make(Severity.INFO, path, line, col, code, message))

    def lenient(self, path: str, line: int, col: int, code: str, message: str) -> None:
        """A deviation Claude Code accepts: a warning, or an error under --strict."""
        if self.strict and code not in self.ignore:  # ignore lets a strict build pass
            self.error(path, line, col, code, message + " (error under --strict)")
        else:
            self.warning(path, line, col, code, message)

    def extend(self, items: Iterable[Diagnostic]) -> None:
        self._items.update(items)

    @property
    def items(self) -> list[Diagnostic]:
        if not self.ignore and not self.warnings_as_errors:
            return ordered(self._items)
        shown = []
        for d in self._items:
            if d.severity is not Severity.ERROR:
                if d.code in self.ignore:
                    continue
                if self.warnings_as_errors and d.severity is Severity.WARNING:
                    d = make(
                        Severity.ERROR,
                        d.path,
                        d.line,
                        d.col,
                        d.code,
                        d.message + " (warnings-as-errors)",
                    )
            shown.append(d)
        return ordered(shown)

    @property
    def error_count(self) -> int:
        shown = self.items if self.warnings_as_errors else self._items
        return sum(1 for d in shown if d.severity is Severity.ERROR)

    @property
    def has_errors(self) -> bool:
        return self.error_count > 0
