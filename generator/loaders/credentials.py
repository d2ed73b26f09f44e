"""Which of an executor's environment variables hold secrets: the values the runtime
redacts from every answer (``_settings.SECRET_NAMES``), and refuses to send when they
are too short to redact safely.

A variable is a secret when its executor's ``env`` says so (``{name: X, secret:
true}``; ``secret: false`` says it is not, whatever follows), else when its name reads
as a credential (``GITHUB_TOKEN``, ``API_KEY``, ``DB_PASSWORD``) or it stands where a
credential goes: a header that carries one (``Authorization``, ``Cookie``,
``X-Api-Key``), a URL's user and password, a query parameter, body key or command-line
option named like one (``?api_key=``, ``{"token": ...}``, ``--password=``). Any other
variable is configuration (``REGION``, ``STAGE``, ``DEBUG``), sent as it is and never
cut out of an answer: redacting a value as short as ``us`` would cut it out of every
text, and a model that writes such a text back would corrupt a file.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

_VARIABLE = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")
# Words of a name (snake, kebab or camel case) that say it holds a credential; a word
# ending in one of ``_ENDINGS`` does too (apikey, accesstoken, clientsecret).
_WORDS = frozenset(
    (
        "auth authorization bearer cookie credential credentials dsn jwt key otp "
        "pass passphrase passwd password pat pwd secret session sessionid sig "
        "signature token"
    ).split()
)
_ENDINGS = ("key", "token", "secret", "password", "passwd")
_WORD = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+")


def credential_like(name: str) -> bool:
    """Whether ``name`` (a variable, header, parameter or option) reads as one."""
    for word in _WORD.findall(name):
        word = word.lower()
        if word in _WORDS or word.endswith(_ENDINGS):
            return True
    return False


def env_names(items: Any) -> tuple[str, ...]:
    """An ``env`` list's variable names (an item is a name or ``{name, secret}``)."""
    return tuple(sorted({_name(item) for item in items or ()}))


def secrets(executor: Mapping[str, Any]) -> tuple[str, ...]:
    """The variables of ``executor`` (as its manifest writes it) that hold secrets."""
    marked = {
        _name(item): bool(item["secret"])
        for item in executor.get("env") or ()
        if isinstance(item, Mapping) and "secret" in item
    }
    found: dict[str, bool] = {}
    for name, placed in _uses(executor):
        found[name] = found.get(name, False) or placed or credential_like(name)
    return tuple(sorted(n for n, secret in found.items() if marked.get(n, secret)))


def _name(item: Any) -> str:
    return str(item["name"] if isinstance(item, Mapping) else item)


def _uses(executor: Mapping[str, Any]) -> Iterator[tuple[str, bool]]:
    """Each variable the executor reads, and whether it stands where a credential
    goes."""
    for item in executor.get("env") or ():
        yield _name(item), False
    url = executor.get("url", executor.get("endpoint"))
    if isinstance(url, str):
        yield from _in_url(url)
    for header, text in (executor.get("headers_template") or {}).items():
        yield from _found(str(text), credential_like(str(header)))
    yield from _in_body(executor.get("body_template"), False)
    template = executor.get("args_template") or []
    words = template.split() if isinstance(template, str) else list(template)
    for before, word in zip(["", *words], words):
        for match in _VARIABLE.finditer(str(word)):
            prefix = str(word)[: match.start()] or str(before)
            yield match.group(1), credential_like(prefix)


def _in_url(url: str) -> Iterator[tuple[str, bool]]:
    """A URL's variables: those in its user and password, and in the value of a query
    parameter named like a credential, stand where a credential goes."""
    rest, _, query = url.partition("?")
    scheme, _, after = rest.partition("://")
    authority, slash, path = (after or scheme).partition("/")
    user, at, host = authority.rpartition("@")
    yield from _found(user, bool(at))
    yield from _found(f"{host}{slash}{path}" if after else rest, False)
    for pair in query.split("#", 1)[0].split("&"):
        key, _, value = pair.partition("=")
        yield from _found(key, False)
        yield from _found(value, credential_like(key))


def _in_body(value: Any, placed: bool) -> Iterator[tuple[str, bool]]:
    if isinstance(value, str):
        yield from _found(value, placed)
    elif isinstance(value, list):
        for item in value:
            yield from _in_body(item, placed)
    elif isinstance(value, Mapping):
        for key, item in value.items():
            yield from _in_body(item, placed or credential_like(str(key)))


def _found(text: str, placed: bool) -> Iterator[tuple[str, bool]]:
    for name in _VARIABLE.findall(text):
        yield name, placed
