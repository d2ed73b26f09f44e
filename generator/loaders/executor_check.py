"""Build-time checks of an executor's templates against its tool's input schema.

Every ``{name}`` in ``args_template``, ``url``, ``headers_template`` and ``body_template``
must name a declared parameter (``${NAME}`` is an environment variable, read at call
time), and every ``positional`` of a cli executor must be one. A ``{{name}}`` written for
another template language would render as ``{value}`` with its braces kept, so it is an
error too. An http request that carries a value from the environment (a credential, in
its URL, headers or body) goes only to the origin its manifest writes: a ``{name}`` in
the URL's scheme, host or port is an error (the runtime refuses such a call too). Each
error is reported at the template it is in; a tool with one is left out.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from ..loaders import manifest

# The runtime's placeholder syntax (templates/runtime/_executors.py): ${ENV} or {name}.
_PLACEHOLDER = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\{([^{}\s]+)\}")
_DOUBLE = re.compile(r"\{\{[^{}]*\}\}")
# A URL's scheme and authority: up to the first "/", "?" or "#" after "://" (or from
# the start, where the template does not write "://" itself).
_AUTHORITY = re.compile(r"^(?:[^/?#]*?://)?[^/?#]*")


def check(
    doc: manifest.Manifest,
    executor: Mapping[str, Any],
    at: manifest.JsonPath,
    schema: Mapping[str, Any],
) -> bool:
    """Whether every template of ``executor`` only names declared parameters."""
    declared = set(schema.get("properties") or {})
    known = ", ".join(sorted(declared)) or "none"
    ok = True
    for where, text in _templates(executor, at):
        double = _DOUBLE.search(text)
        if double:
            inner = double.group()[2:-2].strip()
            doc.error(
                where,
                "executor-invalid",
                f"{double.group()!r} is not a skillc placeholder; write {{{inner}}}",
            )
            ok = False
            continue
        for variable, name in _PLACEHOLDER.findall(text):
            if not variable and name not in declared:
                doc.error(
                    where,
                    "executor-invalid",
                    f"{{{name}}} names no declared parameter (declared: {known})",
                )
                ok = False
    ok = _origin_fixed(doc, executor, at) and ok
    for index, name in enumerate(executor.get("positional") or []):
        if name not in declared:
            doc.error(
                (*at, "positional", index),
                "executor-invalid",
                f"positional {name!r} is not a declared parameter (declared: {known})",
            )
            ok = False
    return ok


def _origin_fixed(
    doc: manifest.Manifest, executor: Mapping[str, Any], at: manifest.JsonPath
) -> bool:
    """Whether an http request that carries an ``${ENV}`` value has its scheme, host
    and port written by the manifest (an error at the URL otherwise)."""
    key = "url" if "url" in executor else "endpoint"
    url = executor.get(key)
    authority = _AUTHORITY.match(url) if isinstance(url, str) else None
    if authority is None:
        return True
    carries = any("${" in text for _, text in _templates(executor, at))
    found = [name for env, name in _PLACEHOLDER.findall(authority.group()) if not env]
    if not carries or not found:
        return True
    doc.error(
        (*at, key),
        "executor-invalid",
        f"{{{found[0]}}} fills in the URL's scheme, host or port, and the request "
        "carries a value from the environment: a credential would go to a host an "
        "argument picks; write the origin in the URL (or take it from ${ENV})",
    )
    return False


def _templates(
    executor: Mapping[str, Any], at: manifest.JsonPath
) -> Iterator[tuple[manifest.JsonPath, str]]:
    arguments = executor.get("args_template")
    if isinstance(arguments, str):
        yield (*at, "args_template"), arguments
    elif isinstance(arguments, list):
        for index, item in enumerate(arguments):
            yield (*at, "args_template", index), str(item)
    for key in ("url", "endpoint"):
        if isinstance(executor.get(key), str):
            yield (*at, key), executor[key]
    headers = executor.get("headers_template")
    if isinstance(headers, Mapping):
        for name, value in headers.items():
            yield (*at, "headers_template", name), str(value)
    if "body_template" in executor:
        yield from _strings(executor["body_template"], (*at, "body_template"))


def _strings(
    value: Any, at: manifest.JsonPath
) -> Iterator[tuple[manifest.JsonPath, str]]:
    if isinstance(value, str):
        yield at, value
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _strings(item, (*at, index))
    elif isinstance(value, Mapping):
        for key, item in value.items():
            yield from _strings(item, (*at, key))
