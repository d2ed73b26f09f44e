"""Regular expressions with a bound on time, for patterns or text a model controls
(``file.grep``, a schema's ``pattern`` and ``patternProperties``).

The engine is the best one importable: ``re2`` (google-re2, linear time) for the
patterns it supports; else the ``regex`` library, whose searches stop after
``TIMEOUT_SEC``; else the standard library's ``re``, which cannot be stopped, so a
pattern with nested repetition or a back-reference is refused and text is cut at
``MAX_TEXT`` characters before it is searched. Only the standard library is needed.
"""

from __future__ import annotations

import functools
import importlib
import re
from collections.abc import Callable
from typing import Any

TIMEOUT_SEC = 1.0
MAX_TEXT = 4096


class PatternError(ValueError):
    """A pattern that does not compile, or that the engine in use cannot bound."""


class TextTooLong(TimeoutError):
    """Text longer than the standard library engine searches (``MAX_TEXT``)."""


def _optional(name: str) -> Any:
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


_re2 = _optional("re2")
_regex = _optional("regex")
ENGINE = "re2" if _re2 is not None else "regex" if _regex is not None else "re"


@functools.lru_cache(maxsize=256)
def searcher(pattern: str, ignore_case: bool = False) -> Callable[[str], bool]:
    """A search function for ``pattern``: True when it matches somewhere in a text.
    A search that runs out of time raises ``TimeoutError``."""
    if _re2 is not None:
        try:
            options = _re2.Options()
            options.case_sensitive = not ignore_case
            compiled = _re2.compile(pattern, options)
            return lambda text: compiled.search(text) is not None
        except Exception:  # a pattern re2 does not support: the next engine
            pass
    flags = re.IGNORECASE if ignore_case else 0
    if _regex is not None:
        try:
            matcher = _regex.compile(pattern, flags | _regex.VERSION0)
        except _regex.error as exc:
            raise PatternError(f"{pattern!r} is not a valid pattern: {exc}") from None
        return lambda text: matcher.search(text, timeout=TIMEOUT_SEC) is not None
    try:
        plain = re.compile(pattern, flags)
    except (re.error, RecursionError, OverflowError) as exc:
        raise PatternError(f"{pattern!r} is not a valid pattern: {exc}") from None
    if not _bounded(pattern):
        raise PatternError(
            f"{pattern!r} repeats a repetition or refers back to a group, which could "
            "run for hours; install google-re2 or regex to use it"
        )

    def search(text: str) -> bool:
        if len(text) > MAX_TEXT:
            raise TextTooLong(f"text over {MAX_TEXT} characters is not searched")
        return plain.search(text) is not None

    return search


def _bounded(pattern: str) -> bool:
    """No repetition inside a repetition (``(a+)+``, ``(a|aa)*``) and no back-reference:
    the shapes that make a backtracking search take exponential time."""
    parser = importlib.import_module("re._parser")
    return _safe(parser.parse(pattern), parser, inside_repeat=False)


def _safe(items: Any, parser: Any, inside_repeat: bool) -> bool:
    repeats = {parser.MAX_REPEAT, parser.MIN_REPEAT, parser.POSSESSIVE_REPEAT}
    for op, value in items:
        if op in (parser.GROUPREF, parser.GROUPREF_EXISTS):
            return False
        if op in repeats:
            low, high, body = value
            many = high is parser.MAXREPEAT or high > 1
            if many and inside_repeat:
                return False
            if not _safe(body, parser, inside_repeat or many):
                return False
        elif op is parser.BRANCH:
            if inside_repeat and len(value[1]) > 1:
                return False
            if not all(_safe(branch, parser, inside_repeat) for branch in value[1]):
                return False
        elif op is parser.SUBPATTERN:
            if not _safe(value[-1], parser, inside_repeat):
                return False
        elif op in (parser.ASSERT, parser.ASSERT_NOT):
            if not _safe(value[1], parser, inside_repeat):
                return False
        elif op is parser.ATOMIC_GROUP:
            if not _safe(value, parser, inside_repeat):
                return False
    return True


def search(pattern: str, text: str) -> bool:
    """Whether ``pattern`` matches somewhere in ``text`` (JSON Schema's ``pattern``)."""
    return searcher(pattern)(text)
