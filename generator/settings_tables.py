"""The tables inside ``[tool.skillc]``: ``[tool.skillc.profiles.<name>]`` and
``[[tool.skillc.conflicts]]``, typed for the JSON Schema (``ProfileTable``,
``ConflictTable``) and read into the ``Profile`` and ``Conflict`` of config.py, the
part of the configuration a no-op keeps. A bad value raises ``Bad``, which says where
below ``[tool.skillc]`` it is (settings.py locates it in the file)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from .config import CLI_EXCLUDED, CLI_PROVIDERS, Conflict, Profile
from .diagnostics import did_you_mean
from .provider_registry import PROVIDERS


def toml_key(name: str) -> str:
    return name.replace("_", "-")


# Each table's keys, as its TOML spells them, typed for the JSON Schema: the values
# become a Profile or Conflict (config.py), the part of the configuration a no-op keeps.
TABLES = ConfigDict(extra="forbid", alias_generator=toml_key)


class ProfileTable(BaseModel):
    """``[tool.skillc.profiles.<name>]``: which tools one consumer sees (seed 002)."""

    model_config = TABLES
    provider: str = Field("", description="default: the profile's name")
    exclude_categories: list[str] = Field(
        [], description='default: ["file_ops", "shell"] for CLI agents, else none'
    )
    include: list[str] = Field([], description="dotted-name globs; none: every tool")
    exclude: list[str] = []
    always_loaded: list[str] = Field(
        [], description="never deferred behind a tool search"
    )


class ConflictTable(BaseModel):
    """``[[tool.skillc.conflicts]]``: two tools declared to clash."""

    model_config = TABLES
    tools: list[str] = Field(min_length=2, max_length=2)
    kind: Literal["equivalent", "incompatible"]
    hint: str = ""


class Bad(ValueError):
    """A bad value found by a validator, with where it is below [tool.skillc]."""

    def __init__(self, where: tuple[str, ...], message: str) -> None:
        super().__init__(message)
        self.where = where


def read_profile(name: str, table: Any) -> Profile:
    where = ("profiles", name)
    if not isinstance(table, dict):
        raise Bad(where, f"[tool.skillc.profiles.{name}] must be a table")
    known = {f.alias or name for name, f in ProfileTable.model_fields.items()}
    unknown = sorted(set(table) - known)
    if unknown:
        raise Bad(
            (*where, unknown[0]),
            f"[tool.skillc.profiles.{name}] unknown key(s): "
            + ", ".join(key + did_you_mean(key, known) for key in unknown),
        )
    provider = table.get("provider", name)
    choices = (*PROVIDERS, *CLI_PROVIDERS)
    if provider not in choices:
        raise Bad(
            (*where, "provider"),
            f"[tool.skillc.profiles.{name}] provider {provider!r} is not one of "
            f"{', '.join(choices)}",
        )
    excluded = list(CLI_EXCLUDED) if provider in CLI_PROVIDERS else []
    lists = []
    for key in ("exclude-categories", "include", "exclude", "always-loaded"):
        items = table.get(key, excluded if key == "exclude-categories" else [])
        if not isinstance(items, list) or not all(
            isinstance(item, str) and item for item in items
        ):
            raise Bad(
                (*where, key),
                f"[tool.skillc] profiles.{name}.{key} must be a list of strings",
            )
        lists.append(tuple(items))
    return Profile(name, provider, *lists)


def read_conflict(item: Any) -> Conflict:
    tools = item.get("tools") if isinstance(item, dict) else None
    kind = item.get("kind") if isinstance(item, dict) else None
    if (
        not isinstance(tools, list)
        or len(tools) != 2
        or not all(isinstance(t, str) for t in tools)
        or kind not in ("equivalent", "incompatible")
    ):
        raise Bad(
            ("conflicts",),
            '[[tool.skillc.conflicts]] needs tools = ["a", "b"] and '
            'kind = "equivalent" or "incompatible"',
        )
    return Conflict((tools[0], tools[1]), kind, str(item.get("hint", "")))
