"""An executor's templates filled in for a call: ``{name}`` with an argument (as a
whole word, as text, or URL-quoted), ``${NAME}`` with an environment variable read at
call time (through the call's ``Secrets``, which redacts or refuses a secret)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from ._tools import shortened

if TYPE_CHECKING:
    from ._executors import Secrets

PLACEHOLDER = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\{([^{}\s]+)\}")


def render(
    text: str,
    arguments: Mapping[str, Any],
    secrets: Secrets,
    used: set[str] | None = None,
    quote: Callable[..., str] | None = None,
) -> str:
    """``{name}`` becomes an argument (quoted for URLs), ``${NAME}`` an environment
    variable read now, at call time; a missing argument becomes empty text."""

    def replace(match: re.Match[str]) -> str:
        variable, name = match.groups()
        if variable is not None:
            return secrets.read(variable)
        if used is not None:
            used.add(name)
        value = as_text(arguments.get(name, ""))
        return quote(value, safe="") if quote else value

    return PLACEHOLDER.sub(replace, text)


def render_json(template: Any, arguments: Mapping[str, Any], secrets: Secrets) -> Any:
    """A JSON body template: a string that is exactly ``{name}`` takes the argument's
    JSON value; other strings are rendered as text."""
    if isinstance(template, str):
        whole = PLACEHOLDER.fullmatch(template)
        if whole and whole.group(2) is not None:
            return arguments.get(whole.group(2))
        return render(template, arguments, secrets)
    if isinstance(template, list):
        return [render_json(item, arguments, secrets) for item in template]
    if isinstance(template, dict):
        return {k: render_json(v, arguments, secrets) for k, v in template.items()}
    return template


def render_arguments(
    template: list[str],
    arguments: Mapping[str, Any],
    secrets: Secrets,
    options_allowed: bool = False,
) -> list[str]:
    """An ``args_template``: an item that is exactly ``{name}`` expands to the argument
    (each item of a list); other items are rendered as text. An item whose argument is
    missing is dropped whole. A value in a slot of its own that starts with ``-`` would
    read as an option, so it is refused unless the template put ``--`` before it (or
    the arguments are a skill script's own command line: ``options_allowed``)."""
    result: list[str] = []
    options_ended = options_allowed
    for item in template:
        options_ended = options_ended or item == "--"
        names = [name for _, name in PLACEHOLDER.findall(item) if name]
        if any(arguments.get(name) is None for name in names):
            continue
        whole = PLACEHOLDER.fullmatch(item)
        if not (whole and whole.group(2) is not None):
            result.append(render(item, arguments, secrets))
            continue
        for word in as_words(arguments[whole.group(2)]):
            if word.startswith("-") and not options_ended:
                from ._executors import Failure  # not at import: it imports this

                raise Failure(
                    "invalid-arguments",
                    f"{whole.group(2)}: {shortened(word)!r} starts with '-' and would "
                    "be read as an option",
                )
            result.append(word)
    return result


def as_words(value: Any) -> list[str]:
    return (
        [as_text(item) for item in value]
        if isinstance(value, list)
        else [as_text(value)]
    )


def as_text(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    return json.dumps(value)
