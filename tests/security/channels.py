"""Every way an answer leaves a generated package, driven in this process, and an oracle
that finds a secret in a text in any form a reader could take back (issue 41).

``texts(package, dotted, arguments)`` calls one tool through each channel and gives the
texts that left: the ``ToolResult`` (repr and JSON), ``dispatch``'s answer for each
provider, ``python -m <package> call``'s output (its ``main``), the MCP stdio server's
lines (its ``Connection``, over in-memory streams) and the LangChain adapter's answer.
``leaks(text, secret)`` undoes what it can (URL quoting, HTML, backslash escapes of text
and bytes, twice; base64 and hex at any alignment) rather than asking the runtime which
forms it knows. Run as a script (in a fresh process), it prints as JSON the ``texts``
of each call its arguments list, each made in its environment and dispatched for one
provider, each provider in turn."""

from __future__ import annotations

import base64
import binascii
import contextlib
import html
import importlib
import io
import json
import re
import sys
import urllib.parse
from typing import Any

PROVIDERS = ["anthropic", "openai-chat", "openai-responses", "gemini", "mcp", "bedrock"]
_ESCAPE = re.compile(r"\\(u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|x[0-9a-fA-F]{2}|.)", re.S)
_SIMPLE = {"n": "\n", "r": "\r", "t": "\t", "0": "\0", "b": "\b", "f": "\f"}
_BYTES = re.compile(r"[\x80-\xff]+")


def texts(
    package: str, dotted: str, arguments: dict[str, Any], providers: Any = PROVIDERS
) -> list[str]:
    built = importlib.import_module(package)
    namespace, _, name = dotted.partition(".")
    tool = getattr(importlib.import_module(f"{package}.{namespace}"), name)
    result = tool.call_raw(arguments)
    found = [repr(result), json.dumps(result._asdict(), default=str)]
    for provider in providers:
        answer = built.dispatch(provider, call(provider, dotted, arguments))
        found.append(json.dumps(answer, ensure_ascii=False))
    found.append(printed(package, dotted, arguments))
    found.append(served(package, dotted, arguments))
    found.append(langchain(package, dotted, arguments))
    return found


def call(provider: str, dotted: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """A provider's tool call of ``dotted`` with ``arguments``, as the provider sends it."""
    name = dotted if provider in ("gemini", "mcp") else dotted.replace(".", "__")
    made: dict[str, Any] = {
        "anthropic": {"id": "r", "name": name, "input": arguments},
        "openai-chat": {
            "id": "r",
            "function": {"name": name, "arguments": json.dumps(arguments)},
        },
        "openai-responses": {
            "call_id": "r",
            "name": name,
            "arguments": json.dumps(arguments),
        },
        "gemini": {"functionCall": {"name": name, "args": arguments}},
        "mcp": {"name": name, "arguments": arguments},
        "bedrock": {"toolUse": {"toolUseId": "r", "name": name, "input": arguments}},
    }
    return dict(made[provider])


def printed(package: str, dotted: str, arguments: dict[str, Any]) -> str:
    """What ``python -m <package> call`` prints (its ``main``, here)."""
    words = [w for key, value in arguments.items() for w in (f"--{key}", str(value))]
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        importlib.import_module(f"{package}._cli").main(["call", dotted, *words])
    return out.getvalue()


def served(package: str, dotted: str, arguments: dict[str, Any]) -> str:
    """The lines the MCP stdio server writes for a ``tools/call``."""
    mcp = importlib.import_module(f"{package}._mcp")
    stdio = importlib.import_module(f"{package}._mcp_stdio")
    hello = {
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "clientInfo": {"name": "t", "version": "0"},
    }
    requests = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": hello},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {
            "jsonrpc": "2.0",
            "id": 2,
            "method": "tools/call",
            "params": {"name": dotted, "arguments": arguments},
        },
    ]
    lines = io.BytesIO(b"".join(json.dumps(r).encode() + b"\n" for r in requests))
    out = io.BytesIO()
    stdio.Connection(mcp.Handlers(), out).run(lines)
    return out.getvalue().decode("utf-8")


def langchain(package: str, dotted: str, arguments: dict[str, Any]) -> str:
    """The LangChain adapter's answer ('' without langchain-core)."""
    try:
        importlib.import_module("langchain_core.tools")
    except ImportError:
        return ""
    adapter = importlib.import_module(f"{package}.adapters.langchain")
    name = dotted.replace(".", "__")
    (tool,) = [t for t in adapter.tools() if t.name == name]
    return str(tool.invoke(arguments))


def leaks(text: str, secret: str) -> bool:
    """Whether ``text`` holds ``secret`` (stripped, without the line breaks a URL
    loses, or as a server reads it from a URL) in a form a reader could take back."""
    read = {urllib.parse.unquote(secret), urllib.parse.unquote_plus(secret)}
    cores = {
        line.strip() for value in {secret} | read for line in (value, _unbroken(value))
    }
    found = _decodings(text)
    if any(core in decoded for core in cores for decoded in found):
        return True
    raws = {core.encode("utf-8", "surrogatepass") for core in cores}
    return any(_in_binary(decoded, raws) for decoded in found)


def _unbroken(text: str) -> str:
    return re.sub(r"[\t\r\n]", "", text)


def _decodings(text: str) -> set[str]:
    found = {text}
    for _ in range(2):  # escaped twice: a repr inside JSON
        found |= {_unescaped(t) for t in found}
        found |= {html.unescape(t) for t in found}
    found |= {urllib.parse.unquote(t) for t in found}
    found |= {urllib.parse.unquote_plus(t) for t in found}
    found |= {_BYTES.sub(_utf8, t) for t in found}  # bytes escaped one by one
    return found


def _unescaped(text: str) -> str:
    def one(match: re.Match[str]) -> str:
        code = match.group(1)
        if len(code) > 1 and code[0] in "uUx":
            return chr(int(code[1:], 16))
        return _SIMPLE.get(code, code)

    return _ESCAPE.sub(one, text)


def _utf8(match: re.Match[str]) -> str:
    try:
        return match.group().encode("latin-1").decode("utf-8")
    except UnicodeDecodeError:
        return match.group()


def _in_binary(text: str, raws: set[bytes]) -> bool:
    for run in re.findall(r"[A-Za-z0-9+/_-]{8,}", text):
        standard = run.replace("-", "+").replace("_", "/")
        for start in range(4):
            chunk = standard[start:]
            chunk = chunk[: len(chunk) - len(chunk) % 4]
            with contextlib.suppress(ValueError, binascii.Error):
                decoded = base64.b64decode(chunk)
                if any(raw in decoded for raw in raws):
                    return True
    for run in re.findall(r"[0-9a-fA-F]{16,}", text):
        for start in range(2):
            chunk = run[start:]
            decoded = bytes.fromhex(chunk[: len(chunk) - len(chunk) % 2])
            if any(raw in decoded for raw in raws):
                return True
    return False


if (
    __name__ == "__main__"
):  # package, then a JSON list of [environment, tool, arguments]
    import os

    found = []
    for index, (environment, dotted, arguments) in enumerate(json.loads(sys.argv[2])):
        os.environ.update(environment)
        provider = PROVIDERS[index % len(PROVIDERS)]  # each call by one, in turn
        found.append(texts(sys.argv[1], dotted, arguments, [provider]))
    print(json.dumps(found))
