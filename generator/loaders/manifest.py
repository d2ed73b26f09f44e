"""What every tool manifest loader shares: reading the YAML, checking it against the JSON
Schema skillc ships for its format, and turning input schemas into standard JSON Schema,
with each diagnostic at the file position of the YAML node it is about."""

from __future__ import annotations

import dataclasses
import functools
import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..loaders import frontmatter, schema_normalise, schema_support, validation
from ..loaders import yamlpos
from ..diagnostics import Report

JsonPath = tuple[str | int, ...]
# The lists whose entries fail alone: a manifest's tools, an ai-tool.yaml's commands.
ENTRY_LISTS = ("tools", "commands")
SCHEMAS = Path(__file__).resolve().parent.parent / "schemas"


@dataclass(frozen=True, slots=True)
class Manifest:
    """A parsed manifest that passed its format's schema."""

    path: str  # repo-relative
    data: dict[str, Any]
    located: yamlpos.Located
    report: Report
    # Entries of the tools (or commands) list that break the format: each is left out
    # alone, with its diagnostics, and the others compile.
    bad: frozenset[JsonPath] = frozenset()

    def entries(
        self, key: str, field: str, what: str, verb: str = "defined"
    ) -> list[tuple[JsonPath, Any]]:
        """The usable entries of the list under ``key``, with their paths. An entry whose
        ``field`` repeats an earlier one's is an error naming both lines, and left out.
        """
        found: list[tuple[JsonPath, Any]] = []
        seen: dict[str, int] = {}
        for index, item in enumerate(self.data.get(key) or []):
            if (key, index) in self.bad:
                continue
            name = item[field]
            if name in seen:
                line = self.where((key, seen[name], field))[1]
                message = f"{what} {name!r} is also {verb} on line {line} of this file"
                self.error((key, index, field), "duplicate-tool", message)
                continue
            seen[name] = index
            found.append(((key, index), item))
        return found

    def description(self, entry: dict[str, Any], at: JsonPath, name: str) -> str:
        """An entry's description; an empty one (MCP allows it) is a warning, and the
        name stands in for it."""
        text = str(entry.get("description") or "").strip()
        if not text:
            self.warning(
                (*at, "description") if "description" in entry else at,
                "missing-description",
                f"{name!r} has no description; Level 1 shows its name",
            )
        return text or name

    def where(self, path: JsonPath) -> tuple[str, int, int]:
        return (self.path, *yamlpos.locate(self.located.root, path))

    def error(self, path: JsonPath, code: str, message: str) -> None:
        self.report.error(*self.where(path), code, message)

    def warning(self, path: JsonPath, code: str, message: str) -> None:
        self.report.warning(*self.where(path), code, message)

    def input_schema(self, schema: Any, at: JsonPath) -> dict[str, Any] | None:
        """The standard form of the schema at ``at``; problems reported at their nodes."""
        return self._schema(schema, at, _normalise)

    def output_schema(self, schema: Any, at: JsonPath) -> dict[str, Any] | None:
        if isinstance(schema, bool):
            schema = {} if schema else {"not": {}}
        ok = self._schema(schema, at, _check_only)
        return dict(schema) if ok is not None else None

    def _schema(self, schema: Any, at: JsonPath, how: Any) -> dict[str, Any] | None:
        def complain(severity: str, inner: JsonPath, message: str) -> None:
            where = (*at, *inner)
            text = f"{_json_path(where)}: {message}"
            if severity == "error":
                self.error(where, "schema-invalid", text)
            else:
                self.warning(where, "schema-normalised", text)

        result: dict[str, Any] | None = how(schema, complain)
        return result


def _normalise(schema: Any, complain: schema_normalise.Complaint) -> Any:
    """The standard form, cut to what the generated validator checks."""
    result = schema_normalise.normalise(schema, complain)
    return None if result is None else schema_support.runtime_subset(result, complain)


def _check_only(schema: Any, complain: schema_normalise.Complaint) -> Any:
    if not isinstance(schema, Mapping):
        complain("error", (), "a schema must be a mapping")
        return None
    return schema if schema_normalise.check(schema, (), complain) else None


def read(
    path: Path, rel: str, schema_name: str, report: Report, max_bytes: int
) -> Manifest | None:
    """Read and check one manifest; report and return None when it is unusable."""
    text = frontmatter.read(path, rel, report, max_bytes)
    if text is None:
        return None
    located = yamlpos.parse(text, rel, 0, report)
    if located is None:
        return None
    if located.data is None:  # seed 004: "Empty manifest: log warning, skip tool"
        report.warning(rel, 1, 1, "manifest-empty", "the manifest is empty; skipped")
        return None
    if not isinstance(located.data, dict):
        report.error(rel, 1, 1, "manifest-invalid", "a manifest must be a YAML mapping")
        return None
    manifest = Manifest(rel, located.data, located, report)
    ok = True
    bad: set[JsonPath] = set()
    for where, problem in validation.problems(_validator(schema_name), located.data):
        manifest.error(
            where, "manifest-invalid", f"{_json_path(where) or 'the file'}: {problem}"
        )
        if len(where) >= 2 and where[0] in ENTRY_LISTS and isinstance(where[1], int):
            bad.add(where[:2])
        else:
            ok = False
    return dataclasses.replace(manifest, bad=frozenset(bad)) if ok else None


@functools.cache
def _validator(name: str) -> validation.Validator:
    schema = json.loads((SCHEMAS / name).read_text(encoding="utf-8"))
    return validation.validator(schema)


def _json_path(path: JsonPath) -> str:
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else part)
    return text


def strings(value: Any) -> tuple[str, ...]:
    """A list of texts; other JSON values shown as JSON."""
    if value is None:
        return ()
    items = value if isinstance(value, list) else [value]
    return tuple(
        item if isinstance(item, str) else json.dumps(item, sort_keys=True)
        for item in items
    )


def retry(value: Any) -> dict[str, int] | None:
    return dict(sorted(value.items())) if isinstance(value, dict) and value else None


def split_words(doc: Manifest, text: str, at: JsonPath) -> list[str] | None:
    """A command or argument template written as one string, split as a shell would;
    unbalanced quotes or a trailing backslash are an error at ``at``."""
    import shlex

    try:
        return shlex.split(text)
    except ValueError as exc:
        doc.error(at, "executor-invalid", f"cannot split {text!r} into words: {exc}")
        return None
