"""Configuration: ``[tool.skillc]`` in pyproject.toml, then command-line flags on top.

Each setting is declared once, as a field of ``Config`` made by ``setting``: its key,
type, default, the doc the README's key block gives it, and the function that checks a
value; ``load`` reads every setting from there (tests/test_config.py holds the README to
it). Adding a setting is adding its field, and its line to the README's block."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any

from .config_values import CLI_EXCLUDED as CLI_EXCLUDED
from .config_values import CLI_PROVIDERS as CLI_PROVIDERS
from .config_values import Conflict as Conflict
from .config_values import Profile as Profile
from .config_values import (
    read_choice,
    read_codes,
    read_conflicts,
    read_encoder,
    read_flag,
    read_positive,
    read_profiles,
    read_roots,
    read_string,
    read_strings,
    read_table,
)
from .diagnostics import did_you_mean
from .names import DEFAULT_PROVIDER_NAME_LIMIT
from .project import ConfigError as ConfigError
from .project import find_root as find_root
from .project import (
    check_out,
    check_package_name,
    default_sources,
    import_path,
    parse_table,
    read_pyproject,
    relative,
)

DEFAULT_OUT = "generated"
BUILTINS = ("file", "batch", "db")

TOKEN_COUNTERS = ("estimate", "o200k_base")
FIND_TOOL_METHODS = ("hybrid", "lexical", "model")


# ------------------------------------------------------------------ reading values


def _builtins(key: str, value: Any) -> tuple[str, ...]:
    names = read_strings(key, value)
    unknown = sorted(set(names) - set(BUILTINS))
    if unknown:
        raise ConfigError(
            f"[tool.skillc] builtins: unknown namespace(s) {', '.join(unknown)}; "
            f"choose from {', '.join(BUILTINS)}"
        )
    return tuple(b for b in BUILTINS if b in names)


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
        read_roots,
        shown='[".claude/skills", "skills"]',
    )
    out: str = setting(DEFAULT_OUT, "the output folder (skillc owns it)", read_string)
    package: str = setting(
        "",
        "the import name; default: the out folder's name",
        read_string,
        shown='"generated"',
    )
    strict: bool = setting(
        False, "true: Claude Code's tolerated deviations are errors", read_flag
    )
    exclude: tuple[str, ...] = setting(
        (),
        "project-relative paths (fnmatch globs) left out",
        read_strings,
        shown='["vendor/**"]',
    )
    ignore: tuple[str, ...] = setting(
        (), "warning codes not reported", read_codes, shown='["non-spec-key"]'
    )
    warnings_as_errors: bool = setting(
        False, "true: every warning fails the build", read_flag
    )
    max_file_bytes: int = setting(
        1024 * 1024,
        "larger SKILL.md and manifest files are rejected",
        read_positive,
    )
    builtins: tuple[str, ...] = setting(
        (), 'built-in namespaces: "file", "batch", "db"', _builtins
    )
    max_depth: int = setting(
        4,  # seed 000's own api.github.repo.get has four levels
        "dotted levels of a tool name: api.github.repo.get",
        read_positive,
        key="max-namespace-depth",
    )
    install_allowlist: tuple[str, ...] = setting(
        ("pypi:*",), "where ai-tool.yaml install.pip may point", read_strings
    )
    file_root: str = setting(
        ".", "the folder the file and batch tools stay inside", read_string
    )
    db_path: str = setting("data.sqlite", "the db tools' SQLite database", read_string)
    max_read_bytes: int = setting(
        1024 * 1024, "file.read and file.grep skip larger files", read_positive
    )
    max_write_bytes: int = setting(
        1024 * 1024, "file.write and file.edit refuse to write more", read_positive
    )
    default_timeout_sec: int = setting(
        30, "a call's timeout when its manifest sets none", read_positive
    )
    max_output_bytes: int = setting(
        256 * 1024,
        "script, command and HTTP output is cut here",
        read_positive,
    )
    token_counter: str = setting(
        "estimate",
        "or \"o200k_base\" (pip install 'skillc[tokens]')",
        read_choice(TOKEN_COUNTERS),
    )
    provider_name_limit: int = setting(
        DEFAULT_PROVIDER_NAME_LIMIT,
        "longest provider tool name (see below)",
        read_positive,
    )
    always_loaded: tuple[str, ...] = setting(
        (), "tools never deferred in the *.deferred.json files", read_strings
    )
    lock_wait_sec: int = setting(
        60,
        "how long a build waits for another one to end",
        read_positive,
        output=False,
    )
    discard_unowned: bool = setting(
        False,
        'true: like --force (see "Command line")',
        read_flag,
        key="discard-unowned-files",
        output=False,
    )
    keep_going: bool = setting(
        False,
        "true: like --keep-going, for sources you cannot fix",
        read_flag,
        output=False,
    )
    out_outside_project: bool = setting(
        False, "true: out may be outside the project folder", read_flag, output=False
    )
    regenerate: str = setting(
        "skillc build",
        "the rebuild command CLAUDE.md and AGENTS.md give",
        read_string,
    )
    find_tool: str = setting(
        "hybrid",
        'or "lexical" (BM25F only), or "model" (see find_tool)',
        read_choice(FIND_TOOL_METHODS),
    )
    # model mode's encoder: the licence-clean one unless another is named
    # (generator/embed/encoders.py lists them).
    find_tool_encoder: str = setting(
        "all-mpnet-base-v2", "model mode's encoder (see find_tool)", read_encoder
    )
    well_known_index: bool = setting(
        False,
        "true: also write .well-known/agent-skills/ (see below)",
        read_flag,
    )
    profiles: tuple[Profile, ...] = setting((), "", read_profiles)
    conflicts: tuple[Conflict, ...] = setting((), "", read_conflicts)
    # skillc check's settings, read by generator.checks.settings; no output depends on them
    check: Mapping[str, Any] = setting(
        MappingProxyType({}), "", read_table, output=False
    )
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
    them (pipeline.configure), used for the same text: a build with nothing to do
    imports no tomllib. Its no-op of this repository's skills/ went from 1.36x to
    1.22x and 1.20x its floor (tests/bench.py --only repo --runs 7, two runs)."""
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
