"""How a ``[tool.skillc]`` value is checked and read: the functions the settings of
config.py name, and the profiles and conflicts tables (seed 002)."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any, NamedTuple

from .diagnostics import did_you_mean
from .project import ConfigError
from .provider_registry import PROVIDERS

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


def read_flag(key: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise ConfigError(f"[tool.skillc] {key} must be true or false")
    return value


def read_positive(key: str, value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise ConfigError(f"[tool.skillc] {key} must be a positive integer")
    return value


def read_string(key: str, value: Any) -> str:
    if not isinstance(value, str) or not value:
        raise ConfigError(f"[tool.skillc] {key} must be a non-empty string")
    return value


def read_strings(key: str, value: Any) -> tuple[str, ...]:
    if not isinstance(value, list):
        raise ConfigError(f"[tool.skillc] {key} must be a list of strings")
    return tuple(read_string(key, item) for item in value)


def read_roots(key: str, value: Any) -> tuple[str, ...]:
    found = read_strings(key, value)
    if not found:
        raise ConfigError(f"[tool.skillc] {key} must be a non-empty list of strings")
    return found


def read_choice(choices: tuple[str, ...]) -> Callable[[str, Any], str]:
    def read(key: str, value: Any) -> str:
        if value not in choices:
            raise ConfigError(
                f"[tool.skillc] {key} must be one of {', '.join(choices)}"
            )
        return str(value)

    return read


def read_encoder(key: str, value: Any) -> str:
    if not isinstance(value, str) or not re.fullmatch(r"[a-z0-9][a-z0-9.-]*", value):
        raise ConfigError(
            f"[tool.skillc] {key} must be an encoder's name"
            " (lowercase letters, digits, '.' and '-')"
        )
    return value


def read_codes(key: str, value: Any) -> tuple[str, ...]:
    from .diagnostics import CODES, RETIRED

    codes = read_strings(key, value)
    unknown = sorted(set(codes) - set(CODES) - RETIRED)
    if unknown:
        raise ConfigError(
            "[tool.skillc] ignore: unknown diagnostic code(s) "
            + ", ".join(code + did_you_mean(code, CODES) for code in unknown)
        )
    return tuple(sorted(set(codes)))


def read_table(key: str, value: Any) -> Mapping[str, Any]:
    if not isinstance(value, dict):
        raise ConfigError(f"[tool.skillc.{key}] must be a table")
    return MappingProxyType(value)


def read_profiles(key: str, value: Any) -> tuple[Profile, ...]:
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
            read_strings(f"{where}.{item}", table.get(item, default))
            for item, default in (
                ("exclude-categories", excluded),
                ("include", []),
                ("exclude", []),
                ("always-loaded", []),
            )
        ]
        result.append(Profile(name, provider, *lists))
    return tuple(result)


def read_conflicts(key: str, value: Any) -> tuple[Conflict, ...]:
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
