"""JSON Schema validation at build time, by jsonschema-rs: a manifest against its
format's schema (``generator/schemas``), a schema against its draft's meta-schema, a
default against its property's schema and an example's input against its tool's input
schema. (The generated package checks calls itself: templates/runtime/_validate.py.)

jsonschema-rs rather than jsonschema, by measurement (issue 40, ``python tests/bench.py
--only manifests``): a cold build of 2,000 and 5,000 real function definitions took
9.8 and 11.5 times the floor with it (13.5 and 8.6 in another run), 21.9 and 14.5 with
jsonschema, and 9.1 and 10.1 (9.1 and 9.9) with the quick checks before jsonschema
that it replaces; in CPU time, the three interleaved: 8.4 and 10.1, 17.5 and 16.7,
9.8 and 10.4 (target: 15).

Patterns are ECMA-262, JSON Schema's dialect, as jsonschema-rs reads them. A pattern and
the values it meets are both a manifest author's, so a match must end: jsonschema-rs
matches a pattern without backreferences or lookaround in linear time (``^(a+)+$``
against forty ``a`` and a ``b`` is a quick no), and one with them under a limit of
backtracking steps, whose overrun is an error like a failed match. Formats are
annotations (as the 2020-12 meta-schema says), and nothing is fetched: a reference
outside the document resolves to nothing.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

import jsonschema_rs

Validator = jsonschema_rs.Validator
JsonPath = tuple[str | int, ...]
Problem = tuple[JsonPath, str]  # where in the instance, and what is wrong there
META_SCHEMA = "https://json-schema.org/draft/2020-12/schema"
# The drafts jsonschema-rs holds the meta-schema of, by its URI without the empty "#".
_DRAFTS = {
    "http://json-schema.org/draft-04/schema": jsonschema_rs.Draft4Validator,
    "http://json-schema.org/draft-06/schema": jsonschema_rs.Draft6Validator,
    "http://json-schema.org/draft-07/schema": jsonschema_rs.Draft7Validator,
    "https://json-schema.org/draft/2019-09/schema": jsonschema_rs.Draft201909Validator,
    META_SCHEMA: jsonschema_rs.Draft202012Validator,
}
_OPTIONS: dict[str, Any] = {"validate_formats": False, "offline": True}


def validator(schema: Mapping[str, Any]) -> Validator:
    """A Draft 2020-12 validator of ``schema``; ValueError when it cannot read it."""
    return jsonschema_rs.Draft202012Validator(dict(schema), **_OPTIONS)


def problems(check: Validator, instance: Any) -> list[Problem]:
    """Every way ``instance`` breaks the schema of ``check``. A value JSON has no form
    for (YAML's ``!!binary`` or ``!!set``) is one problem at its path; a key that is not
    text is read as its text."""
    try:
        return [
            (tuple(e.instance_path), message(e)) for e in check.iter_errors(instance)
        ]
    except ValueError:  # jsonschema-rs takes JSON values only
        pass
    odd: list[tuple[JsonPath, Any]] = []
    data = _as_json(instance, (), odd)
    found = [
        (path, f"not a JSON value ({type(value).__name__})") for path, value in odd
    ]
    for error in check.iter_errors(data):
        path = tuple(error.instance_path)
        if not any(path[: len(at)] == at for at, _ in odd):
            found.append((path, message(error)))
    return found


def first_problem(schema: Mapping[str, Any], instance: Any) -> Problem | None:
    """The problem nearest the root of ``instance`` (the first such), or None."""
    found = problems(validator(schema), instance)
    return min(found, key=lambda problem: len(problem[0]), default=None)


def fits(value: Any, schema: Mapping[str, Any]) -> bool:
    """Whether ``schema`` accepts ``value``; yes when the schema cannot be read (its
    check against the meta-schema says why)."""
    try:
        check = validator(schema)
    except Exception:  # noqa: BLE001 - ValueError, or a reference it cannot resolve
        return True
    return not problems(check, value)


def meta_problems(schema: Mapping[str, Any]) -> list[Problem] | None:
    """How ``schema`` breaks the meta-schema its ``$schema`` names (2020-12 when it
    names none), sorted by path; None when it names one skillc does not know."""
    uri = schema.get("$schema", META_SCHEMA)
    check = _meta(uri.rstrip("#")) if isinstance(uri, str) else None
    if check is None:
        return None
    return sorted(problems(check, schema), key=lambda p: [str(part) for part in p[0]])


@functools.cache
def _meta(uri: str) -> Validator | None:
    draft = _DRAFTS.get(uri)
    return None if draft is None else draft({"$ref": uri}, **_OPTIONS)


def message(error: jsonschema_rs.ValidationError) -> str:
    """jsonschema-rs's message, but an unknown key and a value outside an enum said as
    skillc's diagnostics say them."""
    kind = error.kind
    if isinstance(kind, jsonschema_rs.ValidationErrorKind.AdditionalProperties):
        return error.message.replace(
            "Additional properties are not allowed", "unknown key"
        )
    if isinstance(kind, jsonschema_rs.ValidationErrorKind.Enum):
        return f"{error.instance!r} is not one of {', '.join(map(repr, kind.options))}"
    return error.message


def _as_json(value: Any, at: JsonPath, odd: list[tuple[JsonPath, Any]]) -> Any:
    """``value`` with text keys, and None for (and in ``odd``) what is not JSON."""
    if isinstance(value, dict):
        return {str(k): _as_json(v, (*at, str(k)), odd) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_as_json(item, (*at, i), odd) for i, item in enumerate(value)]
    if value is None or isinstance(value, (str, int, float)):
        return value
    odd.append((at, value))
    return None
