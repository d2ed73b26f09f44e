"""Python literals and docstrings that black leaves unchanged, so output needs no black pass.

Untrusted text reaches generated code only through these functions: strings are escaped
like ``repr`` and then quoted the way black normalises them (double quotes unless that
adds backslashes). A test runs black over every generated file and over random strings.
"""

from __future__ import annotations

LINE_LENGTH = 88
INDENT = "    "


def width(line: str) -> int:
    """A line's width as black measures it: East Asian wide characters count twice."""
    if line.isascii():
        return len(line)
    from black.strings import str_width

    return int(str_width(line))


def pystr(text: str) -> str:
    """A one-line string literal, quoted as black quotes it."""
    if _plain(text):  # what repr leaves as it is, without quotes to choose between
        return f'"{text}"'
    if text[-1:] == "\n" and _plain(text[:-1]):  # a line of a longer text
        return f'"{text[:-1]}\\n"'
    literal = repr(text)
    if literal[0] == '"':
        return literal  # repr already chose double quotes (the text has ' but no ")
    body = literal[1:-1]
    double = body.replace("\\'", "'").replace('"', '\\"')
    if double.count("\\") > body.count("\\"):
        return literal
    return f'"{double}"'


def in_triple_quotes(line: str) -> str:
    """A one-line text escaped for a line inside a ``\"\"\"`` literal: as ``pystr``
    escapes it, and every ``"`` too (so no run of quotes can end the literal)."""
    literal = pystr(line)
    body = literal[1:-1]
    return body if literal[0] == '"' else body.replace('"', '\\"')


def _plain(text: str) -> bool:
    return text.isprintable() and not ("'" in text or '"' in text or "\\" in text)


def pyassign(target: str, text: str) -> str:
    """``target = <text>`` at module level, laid out as black lays it out.

    A text that fits goes on one line; one that fits once wrapped in parentheses is
    wrapped; a longer multi-line text becomes one implicitly concatenated literal per line.
    """
    # A literal is at least its text and two quotes wide: a longer text's is not made
    # only to be measured (most are a module's help or instructions, of many lines).
    if len(INDENT) + len(text) + 2 <= LINE_LENGTH:
        single = pystr(text)
        if len(target) + 3 + width(single) <= LINE_LENGTH:
            return f"{target} = {single}"
        if len(INDENT) + width(single) <= LINE_LENGTH:
            return f"{target} = (\n{INDENT}{single}\n)"
    lines = text.splitlines(keepends=True)
    if len(lines) < 2:
        return f"{target} = {pystr(text)}"
    # Only \n splits a text plain without it: each line quoted as pystr quotes it.
    if _plain(text.replace("\n", "")):
        parts = "".join(
            f'{INDENT}"{line[:-1]}\\n"\n' if line[-1] == "\n" else f'{INDENT}"{line}"\n'
            for line in lines
        )
    else:
        parts = "".join(f"{INDENT}{pystr(line)}\n" for line in lines)
    return f"{target} = (\n{parts})"


def pydoc(text: str, indent: str = INDENT) -> str:
    """A docstring at ``indent`` that black leaves as it is; the text is shown, never run.

    Black keeps a one-line docstring on one line whatever its length.
    """
    lines = [
        _doc_escape(line).rstrip() for line in text.expandtabs().strip().splitlines()
    ]
    while lines and not lines[-1]:
        lines.pop()
    if not lines:
        return '""" """'
    rest = _dedent(lines[1:])
    first = lines[0].lstrip()
    if first.startswith('"'):
        first = (
            " " + first
        )  # as black writes it: the text may not touch the opening quotes
    if not rest:
        return f'"""{_close_safe(first)}"""'
    body = "\n".join(f"{indent}{line}" if line else "" for line in rest)
    middle = f"\n{body}" if rest else ""
    return f'"""{first}{middle}\n{indent}"""'


def pycomment(text: str) -> str:
    """Text as ``# `` comment lines (newlines cannot end the comment early)."""
    lines = text.splitlines() or [""]
    return "\n".join(f"# {_doc_escape(line)}".rstrip() for line in lines)


def _doc_escape(line: str) -> str:
    line = line.replace("\\", "\\\\")
    if not line.isprintable():
        line = "".join(
            char if char.isprintable() or char == "\t" else repr(char)[1:-1]
            for char in line
        )
    return line.replace('"""', '\\"\\"\\"')


def _close_safe(line: str) -> str:
    # Black spaces a docstring's text off quotes that would touch its closing quotes.
    return line + " " if line.endswith('"') else line


def _dedent(lines: list[str]) -> list[str]:
    widths = [len(line) - len(line.lstrip()) for line in lines if line.strip()]
    cut = min(widths, default=0)
    return [line[cut:] for line in lines]


def pytuple(
    items: list[str] | tuple[str, ...], indent: str, prefix: str = "", suffix: str = ","
) -> str:
    """A tuple of string literals, starting after ``indent + prefix`` on its line.

    Two or more items are laid out one per line with a trailing comma, which black keeps;
    a one-item tuple stays on its line when it fits, as black would leave it.
    """
    if not items:
        return "()"
    literals = [pystr(item) for item in items]
    if len(literals) == 1:
        inline = f"({literals[0]},)"
        if width(indent + prefix + inline + suffix) <= LINE_LENGTH:
            return inline
    inner = indent + INDENT
    body = "".join(f"{inner}{literal},\n" for literal in literals)
    return f"(\n{body}{indent})"


def pyopt(text: str | None) -> str:
    """A string literal, or ``None``."""
    return "None" if text is None else pystr(text)


def pyvalue(value: object, indent: str = "") -> str:
    """JSON data (dicts, lists, strings, numbers, booleans, None) as a Python literal at
    ``indent``. A non-empty dict or list is laid out one item per line with a trailing
    comma, which black keeps exploded; so the layout never depends on line length."""
    if isinstance(value, str):
        return pystr(value)
    if value is None or isinstance(value, (bool, int)):
        return repr(value)
    if isinstance(value, float):
        return repr(value).replace("e+", "e")  # as black writes exponents
    inner = indent + INDENT
    if isinstance(value, dict):
        if not value:
            return "{}"
        items = "".join(
            f"{inner}{pystr(str(key))}: {pyvalue(item, inner)},\n"
            for key, item in value.items()
        )
        return f"{{\n{items}{indent}}}"
    if isinstance(value, (list, tuple)):
        if not value:
            return "[]"
        items = "".join(f"{inner}{pyvalue(item, inner)},\n" for item in value)
        return f"[\n{items}{indent}]"
    raise TypeError(f"not JSON data: {type(value).__name__}")


def pyfrom(module: str, names: list[str] | tuple[str, ...], indent: str = "") -> str:
    """``from module import names`` at ``indent``: one line when it fits, else one name
    per line in parentheses with a trailing comma, as black lays it out."""
    line = f"{indent}from {module} import {', '.join(names)}"
    if width(line) <= LINE_LENGTH:
        return line
    inner = "".join(f"{indent}{INDENT}{name},\n" for name in names)
    return f"{indent}from {module} import (\n{inner}{indent})"
