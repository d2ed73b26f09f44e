"""JSON Schema's ``pattern`` is an ECMA-262 regular expression; skillc's engines (the
build's ``re`` and ``regex``, the package's ``re2``, ``regex`` or ``re``) read Python's
dialect. ``translate`` rewrites the few ECMA-262 forms they refuse into forms of the
same meaning that are valid in both dialects, so the schema stays one providers accept:

- a ``-`` beside a class escape in a character class is a literal (Annex B):
  ``[\\w-\\.]`` is ``[\\w\\-\\.]``;
- ``[^]`` (any character) is ``[\\s\\S]``; ``[]`` (none) is ``(?!)``;
- ``\\cJ`` is ``\\x0a``; ``\\u{1F600}`` is ``\\uXXXX`` or the character itself;
- a named group ``(?<name>...)`` is a plain group, and ``\\k<name>`` its number.

``\\p{...}`` and a lookbehind of varying width are left as written: ``regex`` and
``re2`` read them, and the package's fallback to ``re`` says it cannot check them.
"""

from __future__ import annotations

import re

_CLASS_ESCAPES = frozenset("dDwWsS")
_NAMED = re.compile(r"\(\?<([A-Za-z_$][A-Za-z0-9_$]*)>")


def translate(pattern: str) -> str:
    """``pattern`` in forms Python's engines read, with the meaning ECMA-262 gives it."""
    numbers = _group_numbers(pattern)
    out: list[str] = []
    i, n = 0, len(pattern)
    while i < n:
        char = pattern[i]
        if char == "\\" and i + 1 < n:
            text, i = _escape(pattern, i, numbers)
            out.append(text)
        elif char == "(" and _NAMED.match(pattern, i):
            match = _NAMED.match(pattern, i)
            assert match is not None
            out.append("(")
            i = match.end()
        elif char == "[":
            text, i = _class(pattern, i)
            out.append(text)
        else:
            out.append(char)
            i += 1
    return "".join(out)


def _group_numbers(pattern: str) -> dict[str, int]:
    """Each named group's number: capturing groups counted by their ``(`` in order."""
    numbers: dict[str, int] = {}
    count = 0
    i, in_class = 0, False
    while i < len(pattern):
        char = pattern[i]
        if char == "\\":
            i += 2
            continue
        if in_class:
            in_class = char != "]"
        elif char == "[":
            in_class = True
        elif char == "(":
            named = _NAMED.match(pattern, i)
            if named is not None or not pattern.startswith("(?", i):
                count += 1
            if named is not None:
                numbers[named.group(1)] = count
        i += 1
    return numbers


def _escape(pattern: str, i: int, numbers: dict[str, int]) -> tuple[str, int]:
    """The escape at ``i`` (a backslash), as Python reads it, and the index after it."""
    kind = pattern[i + 1]
    if kind == "c" and i + 2 < len(pattern) and pattern[i + 2].isascii():
        if pattern[i + 2].isalpha():
            return f"\\x{ord(pattern[i + 2]) % 32:02x}", i + 3
    if kind == "u" and pattern.startswith("{", i + 2):
        end = pattern.find("}", i + 3)
        digits = pattern[i + 3 : end] if end > 0 else ""
        if digits and all(c in "0123456789abcdefABCDEF" for c in digits):
            code = int(digits, 16)
            if code <= 0xFFFF:
                return f"\\u{code:04x}", end + 1
            if code <= 0x10FFFF:
                return chr(code), end + 1
    if kind == "k" and pattern.startswith("<", i + 2):
        end = pattern.find(">", i + 3)
        name = pattern[i + 3 : end] if end > 0 else ""
        if name in numbers:
            return f"(?:\\{numbers[name]})", end + 1
    if kind in "pP" and pattern.startswith("{", i + 2):
        end = pattern.find("}", i + 3)
        if end > 0:
            return pattern[i : end + 1], end + 1
    return pattern[i : i + 2], i + 2


def _class(pattern: str, start: int) -> tuple[str, int]:
    """The character class opening at ``start``, and the index after it."""
    i = start + 1
    negated = pattern.startswith("^", i)
    i += negated
    if pattern.startswith("]", i):  # ECMA-262 closes the class here: [] or [^]
        return ("[\\s\\S]" if negated else "(?!)"), i + 1
    items: list[str] = []  # one entry per class atom or '-'
    while i < len(pattern) and pattern[i] != "]":
        char = pattern[i]
        if char == "\\" and i + 1 < len(pattern):
            text, i = _escape(pattern, i, {})
            items.append(text)
        elif char == "[":  # a literal in ECMA-262, a nested set to come in Python
            items.append("\\[")
            i += 1
        else:
            items.append(char)
            i += 1
    if i >= len(pattern):  # unterminated: leave it for the compiler to say so
        return pattern[start:], len(pattern)
    for index, item in enumerate(items):
        if item != "-" or index in (0, len(items) - 1):
            continue
        before, after = items[index - 1], items[index + 1]
        if _is_set(before) or _is_set(after):
            items[index] = "\\-"
    return "[" + "^" * negated + "".join(items) + "]", i + 1


def _is_set(item: str) -> bool:
    """A class escape (``\\d``, ``\\p{L}``): no range may end at it."""
    return (
        item.startswith("\\")
        and len(item) > 1
        and (item[1] in _CLASS_ESCAPES or item[1] in "pP")
    )
