"""``[tool.skillc]`` in pyproject.toml: each setting declared once, as a field of
``Settings`` (its key, type, default, bounds and the doc the README's key block gives
it), read and checked by pydantic, as openapi-python-client's ``ConfigFile`` does.

The JSON Schema editors use (``skillc schema skillc-settings``) is made from it
(tests/test_config.py holds the committed file, and the README's block, to it). A bad
value is an error located in pyproject.toml, ``pyproject.toml:3:1:
error[invalid-setting]: ...``, every one of them at once, never a traceback.

Imported after the no-op decision (pipeline.configure): a build with nothing to do
takes the values the last build read from the same text."""

from __future__ import annotations

import hashlib
import json
import tomllib
import typing
from collections.abc import Mapping
from posixpath import normpath
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
    ValidationError,
    ValidationInfo,
    field_validator,
)
from pydantic.fields import FieldInfo

from .config import Conflict, Parsed, Profile
from .diagnostics import CODES, RETIRED, did_you_mean
from .harness import CLIENTS
from .names import DEFAULT_PROVIDER_NAME_LIMIT
from .project import ConfigError, SettingsError
from .settings_tables import (
    Bad,
    ConflictTable,
    ProfileTable,
    read_conflict,
    toml_key,
    read_profile,
)
from .toml_keys import position

SCHEMA_ID = "urn:skillc:schema:skillc-settings:v1"
Positive = Annotated[StrictInt, Field(ge=1)]
Text = Annotated[StrictStr, Field(min_length=1)]
Texts = tuple[Text, ...]
# A Hugging Face model id and the 40-hex commit it is pinned to.
HUB = r"^([A-Za-z0-9][\w.-]*/)?[A-Za-z0-9][\w.-]*@[0-9a-f]{40}$|^$"


class Settings(BaseModel):
    """``[tool.skillc]``: every key is optional."""

    model_config = ConfigDict(
        extra="forbid",
        frozen=True,
        alias_generator=toml_key,
        field_title_generator=lambda name, info: info.alias or name,
        title="[tool.skillc]",
    )

    sources: Texts = Field(
        (),
        min_length=1,
        description="source roots, lowest precedence first (default below)",
        examples=[["skills"]],
    )
    out: Text = Field("generated", description="the output folder (skillc owns it)")
    package: Text = Field(
        "",
        description="the import name; default: the out folder's name",
        examples=["generated"],
    )
    strict: StrictBool = Field(
        False, description="true: Claude Code's tolerated deviations are errors"
    )
    harnesses: Texts = Field(
        (),
        description="clients followed; default: those whose layout is used",
        examples=[["claude-code", "codex"]],
        json_schema_extra={"items": {"enum": list(CLIENTS)}, "uniqueItems": True},
    )
    exclude: Texts = Field(
        (),
        description="project-relative paths (fnmatch globs) left out",
        examples=[["vendor/**"]],
    )
    ignore: Texts = Field(
        (), description="warning codes not reported", examples=[["non-spec-key"]]
    )
    warnings_as_errors: StrictBool = Field(
        False, description="true: every warning fails the build"
    )
    max_file_bytes: Positive = Field(
        1024 * 1024, description="larger SKILL.md and manifest files are rejected"
    )
    builtins: tuple[Literal["file", "batch", "db"], ...] = Field(
        (), description='built-in namespaces: "file", "batch", "db"'
    )
    max_depth: Positive = Field(
        4,  # seed 000's own api.github.repo.get has four levels
        alias="max-namespace-depth",
        description="dotted levels of a tool name: api.github.repo.get",
    )
    install_allowlist: Texts = Field(
        ("pypi:*",), description="where ai-tool.yaml install.pip may point"
    )
    file_root: Text = Field(
        ".", description="the folder the file and batch tools stay inside"
    )
    db_path: Text = Field("data.sqlite", description="the db tools' SQLite database")
    max_read_bytes: Positive = Field(
        1024 * 1024, description="file.read and file.grep skip larger files"
    )
    max_write_bytes: Positive = Field(
        1024 * 1024, description="file.write and file.edit refuse to write more"
    )
    default_timeout_sec: Positive = Field(
        30, description="a call's timeout when its manifest sets none"
    )
    max_output_bytes: Positive = Field(
        256 * 1024, description="script, command and HTTP output is cut here"
    )
    token_counter: Literal["estimate", "o200k_base"] = Field(
        "estimate", description="or \"o200k_base\" (pip install 'skillc[tokens]')"
    )
    provider_name_limit: Positive = Field(
        DEFAULT_PROVIDER_NAME_LIMIT,
        description="longest provider tool name (see below)",
    )
    always_loaded: Texts = Field(
        (), description="tools never deferred in the *.deferred.json files"
    )
    # Excluded: no output depends on it (not recorded in the lock).
    lock_wait_sec: Positive = Field(
        60, description="how long a build waits for another one to end", exclude=True
    )
    discard_unowned: StrictBool = Field(
        False,
        alias="discard-unowned-files",
        description='true: like --force (see "Command line")',
        exclude=True,
    )
    keep_going: StrictBool = Field(
        False,
        description="true: like --keep-going, for sources you cannot fix",
        exclude=True,
    )
    out_outside_project: StrictBool = Field(
        False, description="true: out may be outside the project folder", exclude=True
    )
    regenerate: Text = Field(
        "skillc build", description="the rebuild command CLAUDE.md and AGENTS.md give"
    )
    find_tool: Literal["hybrid", "lexical", "model"] = Field(
        "hybrid",
        description='or "lexical" (BM25F only), or "model" (see find_tool)',
    )
    # model mode's encoder: the licence-clean one unless another is named
    # (generator/embed/encoders.py lists them).
    find_tool_encoder: Annotated[StrictStr, Field(pattern=r"^[a-z0-9][a-z0-9.-]*$")] = (
        Field("all-mpnet-base-v2", description="model mode's encoder (see find_tool)")
    )
    find_tool_encoder_hub: Annotated[StrictStr, Field(pattern=HUB)] = Field(
        "", description='"<model id>@<commit>": its files from the hub\'s cache'
    )
    find_tool_fallback: Literal["none", "hybrid"] = Field(
        "none", description='"hybrid": no encoder, a hybrid package (else an error)'
    )
    harness_packages: tuple[
        Literal[
            "claude-code",
            "codex",
            "gemini-cli",
            "agent-plugins",
            "cursor",
            "opencode",
            "openai-skills",
            "anthropic-skills",
        ],
        ...,
    ] = Field(
        (),
        description="clients whose own package is also written (see below)",
        examples=[["claude-code", "agent-plugins"]],
        json_schema_extra={"uniqueItems": True},
    )
    harness_root_files: tuple[Literal["claude-code", "codex", "cursor"], ...] = Field(
        (),
        description="clients whose git-URL install file is at the root (see below)",
        examples=[["claude-code"]],
        json_schema_extra={"uniqueItems": True},
    )
    well_known_index: StrictBool = Field(
        False, description="true: also write .well-known/agent-skills/ (see below)"
    )
    # Tables, documented beside the README's key block.
    profiles: tuple[Profile, ...] = Field(
        (),
        description="which tools each consumer sees (see Profiles)",
        json_schema_extra={"default": {}},
    )
    conflicts: tuple[Conflict, ...] = Field(
        (), description="tools declared to clash (see Profiles)"
    )
    # skillc check's table, read by generator.checks.settings.
    check: Mapping[str, Any] = Field(
        default_factory=dict, description="skillc check's settings", exclude=True
    )

    @field_validator("ignore")
    @classmethod
    def _codes(cls, codes: tuple[str, ...]) -> tuple[str, ...]:
        unknown = sorted(set(codes) - set(CODES) - RETIRED)
        if unknown:
            raise ValueError(
                "[tool.skillc] ignore: unknown diagnostic code(s) "
                + ", ".join(code + did_you_mean(code, CODES) for code in unknown)
            )
        return tuple(sorted(set(codes)))

    @field_validator("harnesses")
    @classmethod
    def _clients(cls, ids: tuple[str, ...]) -> tuple[str, ...]:
        unknown = sorted(set(ids) - set(CLIENTS))
        if unknown:
            raise ValueError(
                "[tool.skillc] harnesses: unknown client(s) "
                + ", ".join(i + did_you_mean(i, CLIENTS) for i in unknown)
                + f"; one of {', '.join(CLIENTS)}"
            )
        return tuple(client for client in CLIENTS if client in ids)

    @field_validator("harness_root_files")
    @classmethod
    def _at_root(cls, ids: tuple[str, ...], info: ValidationInfo) -> tuple[str, ...]:
        """Each a package written, beside sources set below the project root: a
        marketplace written at the root would be read back, or make it a source."""
        unwritten = sorted(set(ids) - set(info.data.get("harness_packages", ())))
        sources = {normpath(s) for s in info.data.get("sources") or (".",)}
        if unwritten:
            why = f"{', '.join(unwritten)}: not in harness-packages"
        elif ids and "." in sources:
            why = "needs sources set, none of them the project root"
        else:
            return ids
        raise Bad(("harness-root-files",), f"[tool.skillc] harness-root-files {why}")

    @field_validator("builtins", "harness_packages", "harness_root_files")
    @classmethod
    def _in_order(cls, names: tuple[str, ...], info: ValidationInfo) -> tuple[str, ...]:
        """Each once, in the order the setting's type lists them."""
        assert info.field_name is not None
        order = typing.get_args(
            typing.get_args(cls.model_fields[info.field_name].annotation)[0]
        )
        return tuple(name for name in order if name in names)

    @field_validator(
        "profiles", mode="before", json_schema_input_type=dict[str, ProfileTable]
    )
    @classmethod
    def _profiles(cls, value: Any) -> tuple[Profile, ...]:
        if not isinstance(value, dict):
            raise Bad(
                ("profiles",), "[tool.skillc.profiles] must be a table of profiles"
            )
        return tuple(read_profile(name, table) for name, table in sorted(value.items()))

    @field_validator(
        "conflicts", mode="before", json_schema_input_type=list[ConflictTable]
    )
    @classmethod
    def _conflicts(cls, value: Any) -> tuple[Conflict, ...]:
        if not isinstance(value, list):
            raise Bad(
                ("conflicts",), "[[tool.skillc.conflicts]] must be an array of tables"
            )
        return tuple(read_conflict(item) for item in value)


# What a value must be, by the error pydantic found in it.
_MUST = {
    "bool_type": "true or false",
    "int_type": "a positive integer",
    "greater_than_equal": "a positive integer",
    "string_type": "a non-empty string",
    "string_too_short": "a non-empty string",
    "tuple_type": "a list of strings",
    "too_short": "a non-empty list of strings",
    "string_pattern_mismatch": "an encoder's name (lowercase letters, digits, '.' and '-')",
    "dict_type": "a table",
}
FIELDS: dict[str, FieldInfo] = Settings.model_fields


def parse(text: str) -> Parsed:
    """The settings of a pyproject.toml ``text`` ("" when there is none)."""
    try:
        table = tomllib.loads(text).get("tool", {}).get("skillc", {})
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"pyproject.toml: {exc}") from None
    if not isinstance(table, dict):
        raise ConfigError("pyproject.toml: [tool.skillc] must be a table")
    try:
        settings = Settings.model_validate(table)
    except ValidationError as exc:
        found = sorted({_said(text, error) for error in exc.errors()})
        raise SettingsError(
            "\n".join(
                f"pyproject.toml:{line}:{column}: error[invalid-setting]: {says}"
                for line, column, says in found
            )
        ) from None
    values = {name: getattr(settings, name) for name in FIELDS}
    recorded = {
        name: toml_key(f.alias or name) for name, f in FIELDS.items() if not f.exclude
    }
    return Parsed(hashlib.sha256(text.encode()).hexdigest(), values, recorded)


def _said(text: str, error: Any) -> tuple[int, int, str]:
    """Where a validation error is (line, column), and what it says."""
    key = str(error["loc"][0]) if error["loc"] else ""
    where: tuple[str, ...] = (key,)
    if error["type"] == "extra_forbidden":
        known = [f.alias or name for name, f in FIELDS.items()]
        says = f"unknown [tool.skillc] key(s): {key}{did_you_mean(key, known)}"
    elif isinstance(cause := error.get("ctx", {}).get("error"), Bad):
        where, says = cause.where, str(cause)
    elif error["type"] == "value_error":
        says = str(error["ctx"]["error"])
    elif error["type"] == "literal_error":
        name = next(n for n, f in FIELDS.items() if (f.alias or n) == key)
        choices = _choices(FIELDS[name].annotation)
        says = f"[tool.skillc] {key} must be one of {', '.join(choices)}"
    elif key == "find-tool-encoder-hub":
        says = f"[tool.skillc] {key} must be <model id>@<its 40-hex commit>"
    else:
        says = f"[tool.skillc] {key} must be {_MUST.get(error['type'], 'valid')}"
    return *position(text, where), says


def _choices(annotation: Any) -> tuple[str, ...]:
    """The strings of a Literal, or of a tuple of them."""
    found = typing.get_args(annotation)
    if typing.get_origin(annotation) is tuple:
        found = typing.get_args(found[0])
    return tuple(str(choice) for choice in found)


def schema() -> dict[str, Any]:
    """The JSON Schema of [tool.skillc], for editors (schemas/skillc-settings...)."""
    made = Settings.model_json_schema(by_alias=True)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
    } | made


if __name__ == "__main__":  # python -m skillc.settings > generator/schemas/...
    print(json.dumps(schema(), indent=2, ensure_ascii=False))
