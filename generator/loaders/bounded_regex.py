"""JSON Schema checks at build time whose ``pattern`` runs in bounded time.

A manifest's ``pattern`` is written by someone else, and Python's ``re`` backtracks
without limit: ``(a+)+$`` against forty ``a`` and a ``b`` runs for hours, and checking a
``default`` or an ``enum`` value against such a pattern would hang the build. The
``regex`` library takes a timeout; a pattern that runs out of time counts as not
matching, so the value is reported like any other value that does not fit.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from typing import Any

PATTERN_TIMEOUT_SEC = 0.5


def validator(schema: dict[str, Any]) -> Any:
    """A Draft 2020-12 validator for ``schema`` whose pattern keywords are bounded."""
    return _validator_class()(schema)


def search(pattern: str, text: str) -> bool:
    """``re.search``, in at most PATTERN_TIMEOUT_SEC; False when it runs out of time."""
    import regex

    try:
        return regex.search(pattern, text, timeout=PATTERN_TIMEOUT_SEC) is not None
    except TimeoutError:
        return False


def _pattern(validator: Any, pattern: str, instance: Any, schema: Any) -> Iterator[Any]:
    from jsonschema import ValidationError

    if isinstance(instance, str) and not search(pattern, instance):
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


def _pattern_properties(
    validator: Any, patterns: dict[str, Any], instance: Any, schema: Any
) -> Iterator[Any]:
    if not isinstance(instance, dict):
        return
    for pattern, subschema in patterns.items():
        for key, value in instance.items():
            if search(pattern, key):
                yield from validator.descend(
                    value, subschema, path=key, schema_path=pattern
                )


@functools.cache
def _validator_class() -> Any:
    import jsonschema

    return jsonschema.validators.extend(  # type: ignore[no-untyped-call]
        jsonschema.Draft202012Validator,
        {"pattern": _pattern, "patternProperties": _pattern_properties},
    )
