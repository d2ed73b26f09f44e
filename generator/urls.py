"""URLs as skillc writes them into what leaves the build: without credentials.

A URL copied from a source (a plugin's MCP server, a hook, an http tool's endpoint, a
marketplace's remote source, an ai-tool's homepage or install line) may carry one:
``https://user:PASSWORD@host/sse``, ``?api_key=sk-...``. Every output a person or a
model reads (CLAUDE.md, AGENTS.md, report.json, bom.json, ai-tools.json) is written
through ``redact``/``scrub``: userinfo and the values of query (and fragment)
parameters are removed, their names kept; a value that is only a placeholder
(``${TOKEN}``, ``{id}``) names no secret and stays. ``credential`` says what a URL
carries, for the scan (``credential-in-url``).

Found with one pattern that always matches a whole token once it starts (no
backtracking, so linear in the text), and split by hand (urlsplit raises on some
inputs and rewrites others).
"""

from __future__ import annotations

import re
from typing import Any

# A scheme (at most 32 characters, not inside a longer word) and the rest of its token.
URL = re.compile(r"(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]{0,31}://[^\s\"'<>`\\]*")
# Punctuation that ends a sentence or a bracket, not the URL before it.
TRAILING = ".,;:!?)]"
PLACEHOLDER = re.compile(
    r"\$\{[A-Za-z_][A-Za-z0-9_]*\}|\$[A-Za-z_][A-Za-z0-9_]*|\{[A-Za-z_][A-Za-z0-9_.]*\}"
)
# Query parameters that hold credentials, by the last word of their name.
CREDENTIAL_WORDS = frozenset(
    {"key", "apikey", "token", "secret", "password", "passwd", "pwd", "auth"}
    | {"sig", "signature", "credential", "credentials", "session", "jwt", "bearer"}
)
_WORDS = re.compile(r"[^A-Za-z0-9]+")
_AUTHORITY_END = re.compile(r"[/?#]")
# Documentation's stand-ins for a value, not a credential: postgresql://user:pass@...
# in a scaffold's .env example (wshobson/agents' scaffolds), YOUR_API_KEY, <token>, xxx.
STAND_IN = re.compile(
    r"(?i)^(?:<[^>]*>|your[_-].*|x{3,}|\*+|\.\.\.|example.*|%s"
    r"|pass(?:word|wd)?|pwd|secret|changeme|changeit|dummy|placeholder)$"
)


def redact(text: str) -> str:
    """``text`` with every URL in it redacted (``redact_url``)."""
    if "://" not in text:
        return text
    return URL.sub(lambda match: _redacted_token(match.group()), text)


def scrub(value: Any) -> Any:
    """JSON data with every string in it (keys too) passed through ``redact``."""
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, dict):
        return {scrub(key): scrub(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [scrub(item) for item in value]
    return value


def redact_url(url: str) -> str:
    """``url`` without its userinfo and with each query and fragment parameter's
    value removed (``?api_key=``), placeholders kept; unchanged when it has none."""
    scheme, authority, path, query, fragment = _split(url)
    user = authority.rpartition("@")[0]
    if user and not _placeholders(user):
        authority = authority.rpartition("@")[2]
    parts = [f"{scheme}://{authority}{path}"]
    if query is not None:
        parts.append("?" + _names_only(query))
    if fragment is not None:
        parts.append("#" + (_names_only(fragment) if "=" in fragment else fragment))
    return "".join(parts)


def credential(url: str) -> str | None:
    """What credential ``url`` carries, in words; None when none (a placeholder or a
    documentation stand-in is none)."""
    _, authority, _, query, fragment = _split(url)
    user = authority.rpartition("@")[0]
    password = user.partition(":")[2]
    if password and not _stand_in(password):
        return "a password (user:password@)"
    for params in (query, fragment):
        for pair in (params or "").split("&"):
            name, equals, value = pair.partition("=")
            words = _WORDS.split(name.lower())
            if equals and value and words[-1] in CREDENTIAL_WORDS:
                if not _stand_in(value):
                    return f"a value of its parameter {name!r}"
    return None


def urls(text: str) -> list[str]:
    """The URLs in ``text`` that have userinfo, a query or a fragment (the others
    cannot carry a credential), in order."""
    if "://" not in text:
        return []
    found = (_strip(token)[0] for token in URL.findall(text))
    return [url for url in found if "@" in url or "?" in url or "#" in url]


def _redacted_token(token: str) -> str:
    if "@" not in token and "?" not in token and "#" not in token:
        return token
    url, trailing = _strip(token)
    return redact_url(url) + trailing


def _strip(token: str) -> tuple[str, str]:
    """A token's URL and the punctuation after it."""
    url = token.rstrip(TRAILING)
    return url, token[len(url) :]


def _split(url: str) -> tuple[str, str, str, str | None, str | None]:
    """scheme, authority, path, query (None: no ``?``), fragment (None: no ``#``)."""
    scheme, _, rest = url.partition("://")
    end = _AUTHORITY_END.search(rest)
    cut = len(rest) if end is None else end.start()
    authority, rest = rest[:cut], rest[cut:]
    rest, hashed, fragment = rest.partition("#")
    path, asked, query = rest.partition("?")
    return (
        scheme,
        authority,
        path,
        query if asked else None,
        fragment if hashed else None,
    )


def _names_only(params: str) -> str:
    pairs = []
    for pair in params.split("&"):
        name, equals, value = pair.partition("=")
        pairs.append(pair if not equals or _placeholders(value) else name + "=")
    return "&".join(pairs)


def _placeholders(text: str) -> bool:
    """Whether ``text`` is placeholders alone (``${USER}:${TOKEN}``, ``{id}``), or
    empty: it names values, it holds none."""
    return not PLACEHOLDER.sub("", text).strip(":")


def _stand_in(value: str) -> bool:
    return _placeholders(value) or bool(STAND_IN.match(value))
