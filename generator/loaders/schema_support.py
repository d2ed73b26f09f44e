"""The part of JSON Schema the generated validator checks, enforced at build time.

The runtime validator (templates/runtime/_validate.py) gives jsonschema's Draft 2020-12 verdict
for every keyword it meets. What it does not check is dropped here with a warning at
its JSON path, so that what a tool's schema says and what its calls are checked
against never silently differ: ``unevaluatedProperties`` and ``unevaluatedItems``
(they need a full evaluation model), references left after normalising, and earlier
drafts' ``dependencies``, ``additionalItems`` and boolean ``exclusiveMinimum``. A
``pattern`` (or a ``patternProperties`` key) in ECMA-262 forms Python refuses is
rewritten to the same meaning (``ecma_regex``), with a warning; one that still does not
compile is an error at its location.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from ..loaders import ecma_regex
from ..loaders.schema_normalise import Complaint

UNCHECKED = (
    "$dynamicRef",
    "$recursiveRef",
    "$ref",
    "unevaluatedItems",
    "unevaluatedProperties",
    # earlier drafts' keywords, which Draft 2020-12 does not define
    "additionalItems",
    "dependencies",
)
# Keywords whose value is a schema, a list of schemas, or a mapping of names to schemas.
_ONE = (
    "additionalProperties",
    "contains",
    "else",
    "if",
    "items",
    "not",
    "propertyNames",
    "then",
)
_MANY = ("allOf", "anyOf", "oneOf", "prefixItems")
_NAMED = ("$defs", "definitions", "dependentSchemas", "patternProperties", "properties")


def runtime_subset(schema: Any, complain: Complaint) -> Any:
    """``schema`` without the keywords the runtime cannot check (each one a warning);
    None when a pattern does not compile (an error)."""
    ok = [True]
    result = _walk(schema, (), complain, ok)
    return result if ok[0] else None


def _walk(
    schema: Any, at: tuple[str | int, ...], complain: Complaint, ok: list[bool]
) -> Any:
    if not isinstance(schema, Mapping):
        return schema
    result: dict[str, Any] = {}
    for key, value in schema.items():
        old_bound = key.startswith("exclusiveM") and isinstance(value, bool)
        if key in UNCHECKED or old_bound:  # draft 4 wrote exclusiveMinimum: true
            complain(
                "warning",
                (*at, key),
                f"{key!r} cannot be checked when the tool is called; it is left out",
            )
            continue
        if key == "pattern" and isinstance(value, str):
            value = _compiles(value, (*at, key), complain, ok)
        if key in _ONE:
            value = _walk(value, (*at, key), complain, ok)
        elif key in _MANY and isinstance(value, list):
            value = [
                _walk(item, (*at, key, i), complain, ok) for i, item in enumerate(value)
            ]
        elif key in _NAMED and isinstance(value, Mapping):
            value = {
                (
                    _compiles(name, (*at, key, name), complain, ok)
                    if key == "patternProperties"
                    else name
                ): _walk(sub, (*at, key, name), complain, ok)
                for name, sub in value.items()
            }
        result[key] = value
    return result


def _compiles(
    pattern: str, at: tuple[str | int, ...], complain: Complaint, ok: list[bool]
) -> str:
    """``pattern`` as the package's engines read it: as written when Python's ``re``
    compiles it, else its ECMA-262 forms rewritten (``ecma_regex``), with a warning;
    one that neither ``re`` nor ``regex`` compiles then is an error."""
    try:
        re.compile(pattern)
        return pattern
    except (re.error, RecursionError, OverflowError):
        pass
    read = ecma_regex.translate(pattern)
    said = f"pattern {pattern!r} is ECMA-262, JSON Schema's dialect"
    if read != pattern:
        said += f"; it is read as {read!r}"
    try:
        re.compile(read)
        complain("warning", at, said)
        return read
    except (re.error, RecursionError, OverflowError) as exc:
        refused = exc
    import regex

    try:
        regex.compile(read, regex.VERSION0)
    except (regex.error, RecursionError, OverflowError) as exc:
        complain("error", at, f"pattern {pattern!r} does not compile: {exc}")
        ok[0] = False
        return pattern
    complain(
        "warning",
        at,
        f"{said}; checking it needs google-re2 or regex where the package runs "
        f"(Python's re refuses it: {refused})",
    )
    return read
