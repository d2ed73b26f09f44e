"""Configuration: ``[tool.skillc]`` in pyproject.toml, then command-line flags on top."""

from __future__ import annotations

import os
import re

import tomllib
from pathlib import Path
from typing import Any

from generator.diagnostics import did_you_mean
from generator.names import DEFAULT_PROVIDER_NAME_LIMIT
from generator.provider_registry import PROVIDERS
from generator.records import record

# Without a sources setting: whichever of these exist, lowest precedence first.
DEFAULT_SOURCES = (
    ".claude/skills",
    ".claude/agents",
    ".claude/commands",
    "skills",
    "agents",
)
DEFAULT_OUT = "generated"
# Without those: a repository whose root is a marketplace or a plugin is its own source.
PLUGIN_ROOT_MANIFESTS = ("marketplace.json", "plugin.json")
DEFAULT_MAX_FILE_BYTES = 1024 * 1024

BUILTINS = ("file", "batch", "db")
DEFAULT_MAX_DEPTH = 4  # seed 000's own api.github.repo.get has four levels
DEFAULT_ALLOWLIST = ("pypi:*",)
DEFAULT_MAX_READ_BYTES = 1024 * 1024
DEFAULT_TIMEOUT_SEC = 30
DEFAULT_MAX_OUTPUT_BYTES = 256 * 1024
DEFAULT_LOCK_WAIT_SEC = 60

_KEYS = {
    "sources",
    "out",
    "package",
    "strict",
    "max-file-bytes",
    "builtins",
    "max-namespace-depth",
    "install-allowlist",
    "file-root",
    "db-path",
    "max-read-bytes",
    "default-timeout-sec",
    "max-output-bytes",
    "provider-name-limit",
    "always-loaded",
    "profiles",
    "conflicts",
    "token-counter",
    "lock-wait-sec",
    "discard-unowned-files",
    "keep-going",
    "out-outside-project",
    "regenerate",
    "exclude",
    "ignore",
    "warnings-as-errors",
    "find-tool",
    "find-tool-encoder",
}
# What the agent docs tell an agent to run after changing a source (`regenerate`).
DEFAULT_REGENERATE = "skillc build"
TOKEN_COUNTERS = ("estimate", "o200k_base")
FIND_TOOL_METHODS = ("hybrid", "lexical", "model")
# find-tool = "model": the licence-clean encoder unless another is named
# (generator/embed/encoders.py lists them).
DEFAULT_ENCODER = "all-mpnet-base-v2"
CLI_PROVIDERS = ("claude_code", "codex")
# What CLI agents have natively (seed 002): their own file tools and shell.
CLI_EXCLUDED = ("file_ops", "shell")
_PROFILE_KEYS = {
    "provider",
    "exclude-categories",
    "include",
    "exclude",
    "always-loaded",
}


class ConfigError(Exception):
    """A usage or configuration error: exit status 2."""


@record(slots=True)
class Profile:
    """Which tools one consumer sees (seed 002). CLI agents (claude_code, codex) drop the
    ``file_ops`` and ``shell`` categories by default: they have native file tools and a
    shell."""

    name: str
    provider: str
    exclude_categories: tuple[str, ...] = ()
    include: tuple[str, ...] = ()  # dotted-name globs; empty: every tool
    exclude: tuple[str, ...] = ()
    always_loaded: tuple[str, ...] = ()  # never deferred behind Anthropic's tool search


@record(slots=True)
class Conflict:
    """Two tools (a generated one or a CLI agent's native one) declared to clash."""

    tools: tuple[str, str]
    kind: str  # "equivalent" or "incompatible"
    hint: str = ""


@record(slots=True)
class Config:
    root: Path  # the project folder; every path in output is relative to it
    sources: tuple[str, ...]  # lowest precedence first
    out: str
    package: str
    strict: bool
    max_file_bytes: int
    builtins: tuple[str, ...] = ()
    max_depth: int = DEFAULT_MAX_DEPTH
    install_allowlist: tuple[str, ...] = DEFAULT_ALLOWLIST
    file_root: str = (
        "."  # project-relative: the folder the file and batch tools stay in
    )
    db_path: str = "data.sqlite"  # project-relative: the db tools' SQLite database
    max_read_bytes: int = DEFAULT_MAX_READ_BYTES
    default_timeout_sec: int = DEFAULT_TIMEOUT_SEC
    max_output_bytes: int = DEFAULT_MAX_OUTPUT_BYTES
    provider_name_limit: int = DEFAULT_PROVIDER_NAME_LIMIT
    always_loaded: tuple[str, ...] = ()
    profiles: tuple[Profile, ...] = ()
    conflicts: tuple[Conflict, ...] = ()
    token_counter: str = "estimate"
    # How the output folder is written (none of them shapes the output's bytes).
    lock_wait_sec: int = DEFAULT_LOCK_WAIT_SEC
    discard_unowned: bool = False  # true: files skillc does not own may be removed
    keep_going: bool = False  # true: on errors, still write the valid tools
    out_outside_project: bool = False
    regenerate: str = DEFAULT_REGENERATE
    # The output's real import path and the folder it is imported from (see import_path).
    module: str = DEFAULT_OUT
    import_root: str = "."
    exclude: tuple[str, ...] = ()  # globs of project-relative paths left out
    ignore: tuple[str, ...] = ()  # warning codes not shown
    warnings_as_errors: bool = False
    find_tool: str = "hybrid"  # "lexical" without numpy or the token table
    find_tool_encoder: str = DEFAULT_ENCODER  # the encoder of "model"

    @property
    def out_dir(self) -> Path:
        return (self.root / self.out).resolve()

    def source_dirs(self) -> list[Path]:
        return [(self.root / source).resolve() for source in self.sources]

    def as_json(self) -> dict[str, Any]:
        """The settings that shape output (recorded in the lock)."""
        return {
            "sources": list(self.sources),
            "out": self.out,
            "package": self.package,
            "strict": self.strict,
            "max-file-bytes": self.max_file_bytes,
            "builtins": list(self.builtins),
            "max-namespace-depth": self.max_depth,
            "install-allowlist": list(self.install_allowlist),
            "file-root": self.file_root,
            "db-path": self.db_path,
            "max-read-bytes": self.max_read_bytes,
            "default-timeout-sec": self.default_timeout_sec,
            "max-output-bytes": self.max_output_bytes,
            "provider-name-limit": self.provider_name_limit,
            "always-loaded": list(self.always_loaded),
            "profiles": [
                {
                    "name": p.name,
                    "provider": p.provider,
                    "exclude-categories": list(p.exclude_categories),
                    "include": list(p.include),
                    "exclude": list(p.exclude),
                    "always-loaded": list(p.always_loaded),
                }
                for p in self.profiles
            ],
            "conflicts": [
                {"tools": list(c.tools), "kind": c.kind, "hint": c.hint}
                for c in self.conflicts
            ],
            "token-counter": self.token_counter,
            "regenerate": self.regenerate,
            "module": self.module,
            "import-root": self.import_root,
            "exclude": list(self.exclude),
            "ignore": list(self.ignore),
            "warnings-as-errors": self.warnings_as_errors,
            "find-tool": self.find_tool,
            # Only in model mode, so that other projects' locks stay as they were.
            **(
                {"find-tool-encoder": self.find_tool_encoder}
                if self.find_tool == "model"
                else {}
            ),
        }


def find_root(start: Path) -> Path:
    """The nearest folder at or above ``start`` whose pyproject.toml has [tool.skillc]."""
    for folder in (start, *start.parents):
        pyproject = folder / "pyproject.toml"
        if pyproject.is_file() and "[tool.skillc" in pyproject.read_text(
            encoding="utf-8"
        ):
            return folder
    return start


def load(
    root: Path,
    *,
    sources: list[str] | None = None,
    out: str | None = None,
    package: str | None = None,
    strict: bool | None = None,
) -> Config:
    table = _read_table(root)
    unknown = sorted(set(table) - _KEYS)
    if unknown:
        raise ConfigError(
            "pyproject.toml: unknown [tool.skillc] key(s): "
            + ", ".join(key + did_you_mean(key, _KEYS) for key in unknown)
        )
    source_list = sources or (
        _strings(table["sources"], "sources")
        if "sources" in table
        else _default_sources(root)
    )
    out_dir = out or _string(table.get("out", DEFAULT_OUT), "out")
    outside = _flag(table, "out-outside-project")
    check_out(root, source_list, out_dir, outside)
    _check_paths(root, source_list, out_dir)
    # Project-relative, whatever the command line said: no absolute path in any output.
    source_list = [_relative(root, source) for source in source_list]
    out_dir = _relative(root, out_dir)
    package_name = package or _string(
        table.get("package", Path(out_dir).name), "package"
    )
    check_package_name(package_name)
    strict_flag = strict if strict is not None else table.get("strict", False)
    max_bytes = table.get("max-file-bytes", DEFAULT_MAX_FILE_BYTES)
    if not isinstance(strict_flag, bool):
        raise ConfigError("[tool.skillc] strict must be true or false")
    if not isinstance(max_bytes, int) or max_bytes < 1:
        raise ConfigError("[tool.skillc] max-file-bytes must be a positive integer")
    builtins = _strings(table.get("builtins", []), "builtins", empty=True)
    unknown_builtins = sorted(set(builtins) - set(BUILTINS))
    if unknown_builtins:
        raise ConfigError(
            f"[tool.skillc] builtins: unknown namespace(s) {', '.join(unknown_builtins)}; "
            f"choose from {', '.join(BUILTINS)}"
        )
    import_root, module = import_path(root, out_dir, package_name)
    return Config(
        root,
        tuple(source_list),
        out_dir,
        package_name,
        strict_flag,
        max_bytes,
        builtins=tuple(b for b in BUILTINS if b in builtins),
        max_depth=_positive(table, "max-namespace-depth", DEFAULT_MAX_DEPTH),
        install_allowlist=tuple(
            _strings(
                table.get("install-allowlist", list(DEFAULT_ALLOWLIST)),
                "install-allowlist",
                empty=True,
            )
        ),
        file_root=_string(table.get("file-root", "."), "file-root"),
        db_path=_string(table.get("db-path", "data.sqlite"), "db-path"),
        max_read_bytes=_positive(table, "max-read-bytes", DEFAULT_MAX_READ_BYTES),
        default_timeout_sec=_positive(
            table, "default-timeout-sec", DEFAULT_TIMEOUT_SEC
        ),
        max_output_bytes=_positive(table, "max-output-bytes", DEFAULT_MAX_OUTPUT_BYTES),
        provider_name_limit=_positive(
            table, "provider-name-limit", DEFAULT_PROVIDER_NAME_LIMIT
        ),
        always_loaded=tuple(
            _strings(table.get("always-loaded", []), "always-loaded", empty=True)
        ),
        profiles=_profiles(table.get("profiles", {})),
        conflicts=_conflicts(table.get("conflicts", [])),
        token_counter=_choice(table, "token-counter", TOKEN_COUNTERS),
        lock_wait_sec=_positive(table, "lock-wait-sec", DEFAULT_LOCK_WAIT_SEC),
        discard_unowned=_flag(table, "discard-unowned-files"),
        keep_going=_flag(table, "keep-going"),
        out_outside_project=outside,
        regenerate=_string(table.get("regenerate", DEFAULT_REGENERATE), "regenerate"),
        module=module,
        import_root=import_root,
        exclude=tuple(_strings(table.get("exclude", []), "exclude", empty=True)),
        ignore=_codes(table.get("ignore", [])),
        warnings_as_errors=_flag(table, "warnings-as-errors"),
        find_tool=_choice(table, "find-tool", FIND_TOOL_METHODS),
        find_tool_encoder=_encoder(table),
    )


# What a generated package imports besides the standard library, when installed.
RUNTIME_DEPENDENCIES = frozenset({"re2", "regex", "mcp"})


def check_package_name(name: str) -> None:
    """A package named like a module it (or Python) imports would shadow that module:
    ``import json`` inside it, or anywhere on the same path, would find the package."""
    import keyword
    import sys

    if not name.isidentifier() or keyword.iskeyword(name):
        raise ConfigError(f"package name {name!r} is not a Python identifier")
    if name in sys.stdlib_module_names or name in RUNTIME_DEPENDENCIES:
        raise ConfigError(
            f"package name {name!r} shadows the module {name!r} that Python or the "
            "generated package imports; choose another --package or out folder name"
        )


def check_out(root: Path, sources: list[str], out: str, outside: bool) -> None:
    """The output folder must be inside the project (unless out-outside-project = true),
    and never the file system's root, the home folder, or a folder holding the project
    or a source root: a build may replace everything skillc owns there."""
    project = root.resolve()
    out_dir = (project / out).resolve()
    protected = [project, *((project / source).resolve() for source in sources)]
    if out_dir in (Path(out_dir.anchor), Path.home().resolve()) or any(
        out_dir == path or out_dir in path.parents for path in protected
    ):
        raise ConfigError(
            f"output folder {out!r} is the root, the home folder, the project, a source "
            "root or a folder holding one; choose a folder inside the project"
        )
    if not outside and project not in out_dir.parents:
        raise ConfigError(
            f"output folder {out!r} is outside the project folder; choose a folder "
            "inside it (or set out-outside-project = true in [tool.skillc])"
        )


def _default_sources(root: Path) -> list[str]:
    found = [source for source in DEFAULT_SOURCES if (root / source).is_dir()]
    if found:
        return found
    if any(
        (root / ".claude-plugin" / name).is_file() for name in PLUGIN_ROOT_MANIFESTS
    ):
        return ["."]  # a marketplace or plugin repository: its root is the source
    raise ConfigError(
        f"no source folder: none of {', '.join(DEFAULT_SOURCES)} exists, nor "
        ".claude-plugin/marketplace.json or plugin.json; "
        "set [tool.skillc] sources or pass --source DIR"
    )


def _codes(value: Any) -> tuple[str, ...]:
    from generator.diagnostics import CODES

    codes = _strings(value, "ignore", empty=True)
    unknown = sorted(set(codes) - set(CODES))
    if unknown:
        raise ConfigError(
            "[tool.skillc] ignore: unknown diagnostic code(s) "
            + ", ".join(code + did_you_mean(code, CODES) for code in unknown)
        )
    return tuple(sorted(set(codes)))


def _flag(table: dict[str, Any], key: str) -> bool:
    value = table.get(key, False)
    if not isinstance(value, bool):
        raise ConfigError(f"[tool.skillc] {key} must be true or false")
    return value


def import_path(root: Path, out: str, package: str) -> tuple[str, str]:
    """The folder the output is imported from (repo-relative) and its dotted import path:
    every enclosing folder with an ``__init__.py`` is part of it, so ``src/app/agent_tools``
    inside the package ``app`` is ``app.agent_tools``, imported from ``src``."""
    project = root.resolve()
    folder = (project / out).resolve().parent
    parts = [package]
    while folder != project and (folder / "__init__.py").is_file():
        parts.insert(0, folder.name)
        folder = folder.parent
    # os.path.relpath: with out-outside-project the folder may lie beside the project.
    relative = Path(os.path.relpath(folder, project)).as_posix()
    return relative, ".".join(parts)


def _choice(table: dict[str, Any], key: str, choices: tuple[str, ...]) -> str:
    value = table.get(key, choices[0])
    if value not in choices:
        raise ConfigError(f"[tool.skillc] {key} must be one of {', '.join(choices)}")
    return str(value)


def _encoder(table: dict[str, Any]) -> str:
    value = table.get("find-tool-encoder", DEFAULT_ENCODER)
    if not isinstance(value, str) or not re.fullmatch(r"[a-z0-9][a-z0-9.-]*", value):
        raise ConfigError(
            "[tool.skillc] find-tool-encoder must be an encoder's name"
            " (lowercase letters, digits, '.' and '-')"
        )
    return value


def _profiles(value: Any) -> tuple[Profile, ...]:
    if not isinstance(value, dict):
        raise ConfigError("[tool.skillc.profiles] must be a table of profiles")
    result = []
    for name, table in sorted(value.items()):
        where = f"profiles.{name}"
        if not isinstance(table, dict):
            raise ConfigError(f"[tool.skillc.{where}] must be a table")
        unknown = sorted(set(table) - _PROFILE_KEYS)
        if unknown:
            raise ConfigError(
                f"[tool.skillc.{where}] unknown key(s): "
                + ", ".join(key + did_you_mean(key, _PROFILE_KEYS) for key in unknown)
            )
        provider = table.get("provider", name)
        known = (*PROVIDERS, *CLI_PROVIDERS)
        if provider not in known:
            raise ConfigError(
                f"[tool.skillc.{where}] provider {provider!r} is not one of "
                f"{', '.join(known)}"
            )
        default_excluded = list(CLI_EXCLUDED) if provider in CLI_PROVIDERS else []
        result.append(
            Profile(
                name,
                provider,
                tuple(
                    _strings(
                        table.get("exclude-categories", default_excluded),
                        f"{where}.exclude-categories",
                        empty=True,
                    )
                ),
                tuple(
                    _strings(table.get("include", []), f"{where}.include", empty=True)
                ),
                tuple(
                    _strings(table.get("exclude", []), f"{where}.exclude", empty=True)
                ),
                tuple(
                    _strings(
                        table.get("always-loaded", []),
                        f"{where}.always-loaded",
                        empty=True,
                    )
                ),
            )
        )
    return tuple(result)


def _conflicts(value: Any) -> tuple[Conflict, ...]:
    if not isinstance(value, list):
        raise ConfigError("[[tool.skillc.conflicts]] must be an array of tables")
    result = []
    for item in value:
        tools = item.get("tools") if isinstance(item, dict) else None
        kind = item.get("kind") if isinstance(item, dict) else None
        if (
            not isinstance(tools, list)
            or len(tools) != 2
            or not all(isinstance(t, str) for t in tools)
            or kind not in ("equivalent", "incompatible")
        ):
            raise ConfigError(
                '[[tool.skillc.conflicts]] needs tools = ["a", "b"] and '
                'kind = "equivalent" or "incompatible"'
            )
        hint = item.get("hint", "")
        result.append(Conflict((tools[0], tools[1]), kind, str(hint)))
    return tuple(result)


def _positive(table: dict[str, Any], key: str, default: int) -> int:
    value = table.get(key, default)
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise ConfigError(f"[tool.skillc] {key} must be a positive integer")
    return value


def _read_table(root: Path) -> dict[str, Any]:
    pyproject = root / "pyproject.toml"
    if not pyproject.is_file():
        return {}
    try:
        data = tomllib.loads(pyproject.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError(f"pyproject.toml: {exc}") from None
    table = data.get("tool", {}).get("skillc", {})
    if not isinstance(table, dict):
        raise ConfigError("pyproject.toml: [tool.skillc] must be a table")
    return table


def _string(value: Any, key: str) -> str:
    if not isinstance(value, str) or not value:
        raise ConfigError(f"[tool.skillc] {key} must be a non-empty string")
    return value


def _strings(value: Any, key: str, empty: bool = False) -> list[str]:
    if not isinstance(value, list) or not (value or empty):
        raise ConfigError(f"[tool.skillc] {key} must be a non-empty list of strings")
    return [_string(item, key) for item in value]


def _relative(root: Path, path: str) -> str:
    project = root.resolve()
    return Path(os.path.relpath((project / path).resolve(), project)).as_posix()


def _check_paths(root: Path, sources: list[str], out: str) -> None:
    project = root.resolve()
    out_dir = (project / out).resolve()
    for source in sources:
        path = (project / source).resolve()
        if not path.is_dir():
            raise ConfigError(f"source folder {source!r} does not exist")
        # Only the project's root may hold the output among its sources (a marketplace
        # repository's default source): discovery never walks into the output folder.
        inside = path in out_dir.parents and path != project
        if path == out_dir or out_dir in path.parents or inside:
            raise ConfigError(
                f"source folder {source!r} and output folder {out!r} overlap"
            )
