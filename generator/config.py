"""Configuration: ``[tool.skillc]`` in pyproject.toml, then command-line flags on top.

Each setting is declared once, as a field of ``Config`` made by ``setting``: its key,
type, default, the doc the README's key block gives it, and the function that checks a
value; ``load`` reads every setting from there (tests/test_config.py holds the README to
it). Adding a setting is adding its field, and its line to the README's block."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any, NamedTuple

from .diagnostics import did_you_mean
from .names import DEFAULT_PROVIDER_NAME_LIMIT
from .project import ConfigError as ConfigError
from .project import find_root as find_root
from .project import (
    check_out,
    check_package_name,
    check_paths,
    default_sources,
    import_path,
    parse_table,
    read_pyproject,
    relative,
)
from .provider_registry import PROVIDERS

DEFAULT_OUT = "generated"
BUILTINS = ("file", "batch", "db")

TOKEN_COUNTERS = ("estimate", "o200k_base")
FIND_TOOL_METHODS = ("hybrid", "lexical", "model")
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


class Profile(NamedTuple):
    """Which tools one consumer sees (seed 002). CLI agents (claude_code, codex) drop the
    ``file_ops`` and ``shell`` categories by default: they have native file tools and a
    shell."""

    name: str
    provider: str
    exclude_categories: tuple[str, ...] = ()
    include: tuple[str, ...] = ()  # dotted-name globs; empty: every tool
    exclude: tuple[str, ...] = ()
    always_loaded: tuple[str, ...] = ()  # never deferred behind a tool search


class Conflict(NamedTuple):
    """Two tools (a generated one or a CLI agent's native one) declared to clash."""

    tools: tuple[str, str]
    kind: str  # "equivalent" or "incompatible"
    hint: str = ""


# ------------------------------------------------------------------ reading values


def _flag(key: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise ConfigError(f"[tool.skillc] {key} must be true or false")
    return value


def _positive(key: str, value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise ConfigError(f"[tool.skillc] {key} must be a positive integer")
    return value


def _string(key: str, value: Any) -> str:
    if not isinstance(value, str) or not value:
        raise ConfigError(f"[tool.skillc] {key} must be a non-empty string")
    return value


def _strings(key: str, value: Any) -> tuple[str, ...]:
    if not isinstance(value, list):
        raise ConfigError(f"[tool.skillc] {key} must be a list of strings")
    return tuple(_string(key, item) for item in value)


def _roots(key: str, value: Any) -> tuple[str, ...]:
    found = _strings(key, value)
    if not found:
        raise ConfigError(f"[tool.skillc] {key} must be a non-empty list of strings")
    return found


def _choice(choices: tuple[str, ...]) -> Callable[[str, Any], str]:
    def read(key: str, value: Any) -> str:
        if value not in choices:
            raise ConfigError(
                f"[tool.skillc] {key} must be one of {', '.join(choices)}"
            )
        return str(value)

    return read


def _encoder(key: str, value: Any) -> str:
    if not isinstance(value, str) or not re.fullmatch(r"[a-z0-9][a-z0-9.-]*", value):
        raise ConfigError(
            f"[tool.skillc] {key} must be an encoder's name"
            " (lowercase letters, digits, '.' and '-')"
        )
    return value


def _builtins(key: str, value: Any) -> tuple[str, ...]:
    names = _strings(key, value)
    unknown = sorted(set(names) - set(BUILTINS))
    if unknown:
        raise ConfigError(
            f"[tool.skillc] builtins: unknown namespace(s) {', '.join(unknown)}; "
            f"choose from {', '.join(BUILTINS)}"
        )
    return tuple(b for b in BUILTINS if b in names)


def _codes(key: str, value: Any) -> tuple[str, ...]:
    from .diagnostics import CODES, RETIRED

    codes = _strings(key, value)
    unknown = sorted(set(codes) - set(CODES) - RETIRED)
    if unknown:
        raise ConfigError(
            "[tool.skillc] ignore: unknown diagnostic code(s) "
            + ", ".join(code + did_you_mean(code, CODES) for code in unknown)
        )
    return tuple(sorted(set(codes)))


def _table(key: str, value: Any) -> Mapping[str, Any]:
    if not isinstance(value, dict):
        raise ConfigError(f"[tool.skillc.{key}] must be a table")
    return MappingProxyType(value)


def _profiles(key: str, value: Any) -> tuple[Profile, ...]:
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
        excluded = list(CLI_EXCLUDED) if provider in CLI_PROVIDERS else []
        lists = [
            _strings(f"{where}.{item}", table.get(item, default))
            for item, default in (
                ("exclude-categories", excluded),
                ("include", []),
                ("exclude", []),
                ("always-loaded", []),
            )
        ]
        result.append(Profile(name, provider, *lists))
    return tuple(result)


def _conflicts(key: str, value: Any) -> tuple[Conflict, ...]:
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


# ------------------------------------------------------------------ the settings


def setting(
    default: Any,
    doc: str,
    read: Callable[[str, Any], Any],
    *,
    key: str = "",
    shown: str = "",
    output: bool = True,
) -> Any:
    """A ``[tool.skillc]`` setting, declared once: its ``default``, the ``doc`` the
    README's key block gives it, the function that checks and reads a value, its
    ``key`` (default: the field's name with ``-`` for ``_``), the value the README
    shows when it is not the default (TOML), and whether it shapes the output (and so
    is recorded in the lock)."""
    meta = {"doc": doc, "read": read, "key": key, "shown": shown, "output": output}
    if isinstance(default, (list, dict)):
        raise TypeError("a setting's default is immutable")
    return Setting(default, meta)


class Setting:
    """A setting's declaration (``setting``): the name of its attribute of ``Config``,
    its default, and the rest (``metadata``)."""

    __slots__ = ("name", "default", "metadata")

    def __init__(self, default: Any, metadata: dict[str, Any]) -> None:
        self.name = ""
        self.default = default
        self.metadata = metadata

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name


class Config:
    """The project's configuration: its folder, then every ``[tool.skillc]`` setting
    (see ``setting``), then what is worked out from them. Read-only.

    A plain class, not a dataclass: a build with nothing to do imports no dataclasses
    (see pipeline.Build)."""

    root: Path  # the project folder; every path in output is relative to it
    sources: tuple[str, ...] = setting(
        (),
        "source roots, lowest precedence first (default below)",
        _roots,
        shown='[".claude/skills", "skills"]',
    )
    out: str = setting(DEFAULT_OUT, "the output folder (skillc owns it)", _string)
    package: str = setting(
        "",
        "the import name; default: the out folder's name",
        _string,
        shown='"generated"',
    )
    strict: bool = setting(
        False, "true: Claude Code's tolerated deviations are errors", _flag
    )
    exclude: tuple[str, ...] = setting(
        (),
        "project-relative paths (fnmatch globs) left out",
        _strings,
        shown='["vendor/**"]',
    )
    ignore: tuple[str, ...] = setting(
        (), "warning codes not reported", _codes, shown='["non-spec-key"]'
    )
    warnings_as_errors: bool = setting(
        False, "true: every warning fails the build", _flag
    )
    max_file_bytes: int = setting(
        1024 * 1024,
        "larger SKILL.md and manifest files are rejected",
        _positive,
    )
    builtins: tuple[str, ...] = setting(
        (), 'built-in namespaces: "file", "batch", "db"', _builtins
    )
    max_depth: int = setting(
        4,  # seed 000's own api.github.repo.get has four levels
        "dotted levels of a tool name: api.github.repo.get",
        _positive,
        key="max-namespace-depth",
    )
    install_allowlist: tuple[str, ...] = setting(
        ("pypi:*",), "where ai-tool.yaml install.pip may point", _strings
    )
    file_root: str = setting(
        ".", "the folder the file and batch tools stay inside", _string
    )
    db_path: str = setting("data.sqlite", "the db tools' SQLite database", _string)
    max_read_bytes: int = setting(
        1024 * 1024, "file.read and file.grep skip larger files", _positive
    )
    max_write_bytes: int = setting(
        1024 * 1024, "file.write and file.edit refuse to write more", _positive
    )
    default_timeout_sec: int = setting(
        30, "a call's timeout when its manifest sets none", _positive
    )
    max_output_bytes: int = setting(
        256 * 1024,
        "script, command and HTTP output is cut here",
        _positive,
    )
    token_counter: str = setting(
        "estimate",
        "or \"o200k_base\" (pip install 'skillc[tokens]')",
        _choice(TOKEN_COUNTERS),
    )
    provider_name_limit: int = setting(
        DEFAULT_PROVIDER_NAME_LIMIT,
        "longest provider tool name (see below)",
        _positive,
    )
    always_loaded: tuple[str, ...] = setting(
        (), "tools never deferred in the *.deferred.json files", _strings
    )
    lock_wait_sec: int = setting(
        60,
        "how long a build waits for another one to end",
        _positive,
        output=False,
    )
    discard_unowned: bool = setting(
        False,
        'true: like --force (see "Command line")',
        _flag,
        key="discard-unowned-files",
        output=False,
    )
    keep_going: bool = setting(
        False,
        "true: like --keep-going, for sources you cannot fix",
        _flag,
        output=False,
    )
    out_outside_project: bool = setting(
        False, "true: out may be outside the project folder", _flag, output=False
    )
    regenerate: str = setting(
        "skillc build",
        "the rebuild command CLAUDE.md and AGENTS.md give",
        _string,
    )
    find_tool: str = setting(
        "hybrid",
        'or "lexical" (BM25F only), or "model" (see find_tool)',
        _choice(FIND_TOOL_METHODS),
    )
    # model mode's encoder: the licence-clean one unless another is named
    # (generator/embed/encoders.py lists them).
    find_tool_encoder: str = setting(
        "all-mpnet-base-v2", "model mode's encoder (see find_tool)", _encoder
    )
    well_known_index: bool = setting(
        False,
        "true: also write .well-known/agent-skills/ (see below)",
        _flag,
    )
    profiles: tuple[Profile, ...] = setting((), "", _profiles)
    conflicts: tuple[Conflict, ...] = setting((), "", _conflicts)
    # skillc check's settings, read by generator.checks.settings; no output depends on them
    check: Mapping[str, Any] = setting(MappingProxyType({}), "", _table, output=False)
    # Worked out: the output's real import path and the folder it is imported from
    # (see import_path).
    module: str = DEFAULT_OUT
    import_root: str = "."
    # The sha256 of the pyproject.toml text the settings were read from, and its
    # [tool.skillc] table (see load).
    pyproject: tuple[str, Mapping[str, Any]] = ("", MappingProxyType({}))

    def __init__(self, root: Path, **values: Any) -> None:
        unknown = values.keys() - _DEFAULTS.keys()
        if unknown:
            raise TypeError(f"Config has no {', '.join(sorted(unknown))}")
        self.__dict__.update(_DEFAULTS, root=root, **values)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"Config is read-only: {name}")

    @property
    def out_dir(self) -> Path:
        return (self.root / self.out).resolve()

    def source_dirs(self) -> list[Path]:
        return [(self.root / source).resolve() for source in self.sources]

    def as_json(self) -> dict[str, Any]:
        """The settings that shape output (recorded in the lock)."""
        data = {
            key_of(f): _json(getattr(self, f.name))
            for f in settings()
            if f.metadata["output"]
        }
        if self.find_tool != "model":  # so that other projects' locks stay as they were
            del data["find-tool-encoder"]
        return data | {"module": self.module, "import-root": self.import_root}


# Each attribute's value when none is given: the settings' defaults, then the rest.
_DEFAULTS = {
    name: value.default if isinstance(value, Setting) else value
    for name, value in vars(Config).items()
    if name in Config.__annotations__
}


def settings() -> list[Setting]:
    """Every ``[tool.skillc]`` setting, in the order they are declared."""
    return [value for value in vars(Config).values() if isinstance(value, Setting)]


def key_of(setting: Setting) -> str:
    return str(setting.metadata["key"] or setting.name.replace("_", "-"))


def _json(value: Any) -> Any:
    """A setting's value as the lock records it (lists, and tables by key)."""
    if isinstance(value, (Profile, Conflict)):
        return {
            name.replace("_", "-"): _json(item)
            for name, item in zip(value._fields, value)
        }
    if isinstance(value, tuple):
        return [_json(item) for item in value]
    return value


def load(
    root: Path,
    *,
    sources: list[str] | None = None,
    out: str | None = None,
    package: str | None = None,
    strict: bool | None = None,
    parsed: tuple[str, Mapping[str, Any]] | None = None,
) -> Config:
    """The project's configuration: ``[tool.skillc]``, then the command line's flags.
    ``parsed``: the sha256 of a pyproject.toml text and its table, as a build recorded
    them (pipeline.configure): used when the text is the same, so that a build with
    nothing to do does not import tomllib: XXX."""
    text = read_pyproject(root)
    digest = hashlib.sha256(text.encode()).hexdigest()
    if parsed is not None and parsed[0] == digest:
        table = dict(parsed[1])
    else:
        table = parse_table(text)
    declared = {key_of(f): f for f in settings()}
    unknown = sorted(set(table) - declared.keys())
    if unknown:
        raise ConfigError(
            "pyproject.toml: unknown [tool.skillc] key(s): "
            + ", ".join(key + did_you_mean(key, declared) for key in unknown)
        )
    given = {"sources": sources, "out": out, "package": package, "strict": strict}
    values: dict[str, Any] = {}
    for key, declaration in declared.items():
        if given.get(key) is not None:
            values[declaration.name] = given[key]
        elif key in table:
            values[declaration.name] = declaration.metadata["read"](key, table[key])
    if "sources" not in values:
        values["sources"] = default_sources(root)
    source_list, out_dir = list(values["sources"]), values.get("out", DEFAULT_OUT)
    check_out(root, source_list, out_dir, values.get("out_outside_project", False))
    check_paths(root, source_list, out_dir)
    # Project-relative, whatever the command line said: no absolute path in any output.
    values["sources"] = tuple(relative(root, source) for source in source_list)
    values["out"] = out_dir = relative(root, out_dir)
    values.setdefault("package", Path(out_dir).name)
    check_package_name(values["package"])
    import_root, module = import_path(root, out_dir, values["package"])
    return Config(
        root,
        **values,
        import_root=import_root,
        module=module,
        pyproject=(digest, MappingProxyType(table)),
    )
