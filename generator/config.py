"""The project's configuration as a build uses it: its folder, every ``[tool.skillc]``
setting, and what is worked out from them (``load``).

The settings are declared once, as the fields of ``settings.Settings`` (type, default,
bounds, doc), which reads and checks them; ``Config`` has that model's type and the
values it read. A build with nothing to do takes the values its last build read from
the same pyproject.toml text (``pipeline.configure``), so it imports neither pydantic
nor tomllib: that is why ``Config`` is a plain object at run time."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from .project import ConfigError as ConfigError
from .project import SettingsError as SettingsError
from .project import find_root as find_root
from .project import (
    check_out,
    check_package_name,
    default_sources,
    import_path,
    relative,
)

if TYPE_CHECKING:  # the type; the values come from it, or from the last build
    from .settings import Settings as Declared
else:
    Declared = object

CLI_PROVIDERS = ("claude_code", "codex")
# What CLI agents have natively (seed 002): their own file tools and shell.
CLI_EXCLUDED = ("file_ops", "shell")


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


class Parsed(NamedTuple):
    """What ``settings.parse`` read from a pyproject.toml text."""

    sha256: str  # of the text
    values: Mapping[str, Any]  # every setting, by attribute name
    recorded: Mapping[str, str]  # the settings that shape output: their keys, by name


class Config(Declared):
    """The project's configuration (see the module's docstring). Read-only."""

    root: Path  # the project folder; every path in output is relative to it
    # Worked out: the output's real import path and the folder it is imported from
    # (see import_path), and what the settings were read from.
    module: str
    import_root: str
    pyproject: Parsed

    def __init__(self, root: Path, **values: Any) -> None:
        self.__dict__.update(values, root=root)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"Config is read-only: {name}")

    @property
    def out_dir(self) -> Path:
        return (self.root / self.out).resolve()

    def source_dirs(self) -> list[Path]:
        return [(self.root / source).resolve() for source in self.sources]

    def as_json(self) -> dict[str, Any]:
        """The settings that shape output (recorded in the lock)."""
        data = {key: _json(getattr(self, name)) for name, key in self.recorded.items()}
        # So that other projects' locks stay as they were:
        for key in ("find-tool-encoder", "find-tool-encoder-hub", "find-tool-fallback"):
            if self.find_tool != "model" or data[key] in ("", "none"):
                del data[key]
        if not self.harnesses:  # the default: the clients whose layouts are used
            del data["harnesses"]
        if not self.harness_packages:
            del data["harness-packages"]
        if not self.harness_root_files:
            del data["harness-root-files"]
        return data | {"module": self.module, "import-root": self.import_root}

    @property
    def recorded(self) -> Mapping[str, str]:
        return self.pyproject.recorded


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
    parsed: Parsed,
    *,
    sources: list[str] | None = None,
    out: str | None = None,
    package: str | None = None,
    strict: bool | None = None,
) -> Config:
    """The configuration of the project ``root`` whose pyproject.toml gave ``parsed``,
    with the command line's flags on top."""
    given = {"sources": sources, "out": out, "package": package, "strict": strict}
    values = dict(parsed.values) | {k: v for k, v in given.items() if v is not None}
    source_list = list(values["sources"]) or default_sources(root)
    check_out(root, source_list, values["out"], values["out_outside_project"])
    # Project-relative, whatever the command line said: no absolute path in any output.
    values["sources"] = tuple(relative(root, source) for source in source_list)
    values["out"] = out_dir = relative(root, values["out"])
    values["package"] = values["package"] or Path(out_dir).name
    check_package_name(values["package"])
    import_root, module = import_path(root, out_dir, values["package"])
    return Config(
        root, **values, import_root=import_root, module=module, pyproject=parsed
    )
