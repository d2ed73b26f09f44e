"""Issue 41: the redaction fuzzed. Random secrets (line breaks, quotes, backslashes,
letters beyond ASCII, ``%``, ``+``, ``/``, ``=``, a trailing line break as from a file)
go through every executor's ways of failing or echoing (an origin's JSON, text or 500;
a header injected; a script's output, error exit and envelope; a command's error; a
python function's exception, each quoting the secret in its own form), and out by one
channel of each example (``dispatch`` for a provider, ``python -m sealed call``'s main,
the MCP stdio server's connection, the LangChain adapter) besides the ``ToolResult``
and the log events: no form of the secret leaves (``channels.leaks``). And the other
side: redaction never changes an answer that holds no declared secret, configuration
values (``us``, ``prod``) included. Bounded by ``max_examples`` (a few seconds)."""

from __future__ import annotations

import contextlib
import importlib
import json
import logging
import os
import re
import urllib.parse
from collections.abc import Iterator
from typing import Any, NamedTuple

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import channels
from channels import leaks
from security_kit import canary, sealed  # noqa: F401 - fixtures

ALPHABET = "abcXYZ0189-_.~'\"\\é€☃ß%+/=:@&;, \n"
FORMS = ["raw", "repr", "bytes", "latin", "ascii", "json", "json-in-json"]
FORMS += ["repr-in-json", "html", "quoted", "plus", "base64", "hex", "header"]
HOWS = st.sampled_from(["json", "text", "error"])
ROUTES = (
    st.tuples(st.just("leak.header"), st.fixed_dictionaries({"how": HOWS}))
    | st.tuples(st.just("leak.signed"), st.fixed_dictionaries({"how": HOWS}))
    | st.tuples(
        st.just("leak.cookie"),
        st.fixed_dictionaries({"lang": st.sampled_from(["en", "en\nX: 1", "\r"])}),
    )
    | st.tuples(
        st.just("leak.script"),
        st.fixed_dictionaries(
            {
                "form": st.builds(
                    "{}{}".format,
                    st.sampled_from(FORMS),
                    st.sampled_from(["", ":stderr", ":envelope"]),
                )
            }
        ),
    )
    | st.tuples(st.just("leak.command"), st.just({}))
    | st.tuples(
        st.just("leak.raises"), st.fixed_dictionaries({"form": st.sampled_from(FORMS)})
    )
)
CHANNELS = ["dispatch", "cli", "mcp", "langchain"]


def _long_enough(secret: str) -> bool:
    """As the runtime asks: 8 characters at least in every form it is sent in (a
    shorter one is refused, and never redacted)."""
    read = {secret, urllib.parse.unquote(secret), urllib.parse.unquote_plus(secret)}
    sent = read | {re.sub(r"[\t\r\n]", "", value) for value in read}
    return min(len(value.strip()) for value in sent) >= 8


SECRET = st.builds(
    "{}{}".format,
    st.text(alphabet=ALPHABET, min_size=8, max_size=24),
    st.sampled_from(["", "\n"]),  # as read from a file
).filter(_long_enough)


@contextlib.contextmanager
def environment(**values: str) -> Iterator[None]:
    """Set variables for one example (hypothesis runs many in one test)."""
    before = {name: os.environ.get(name) for name in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for name, value in before.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


class Events(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.texts: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.texts.append(record.getMessage() + repr(vars(record)))


@pytest.fixture
def forgetful(sealed: Any) -> Iterator[Any]:
    """The package's secrets module, its remembered values forgotten after each
    example's run (else each example's secrets add to every later pattern)."""
    secrets = importlib.import_module("sealed._secrets")
    yield secrets
    secrets._values.clear()


def _through(channel: str, provider: str, dotted: str, arguments: Any) -> str:
    if channel == "dispatch":
        answer = importlib.import_module("sealed").dispatch(
            provider, channels.call(provider, dotted, arguments)
        )
        return json.dumps(answer, ensure_ascii=False)
    made: str = getattr(
        channels, {"cli": "printed", "mcp": "served"}.get(channel, channel)
    )("sealed", dotted, arguments)
    return made


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    secret=SECRET,
    route=ROUTES,
    channel=st.sampled_from(CHANNELS),
    provider=st.sampled_from(channels.PROVIDERS),
)
def test_no_form_of_a_random_secret_leaves(
    forgetful: Any, secret: str, route: Any, channel: str, provider: str
) -> None:
    dotted, arguments = route
    if channel == "langchain":
        pytest.importorskip("langchain_core")
    events = Events()
    log = logging.getLogger("sealed.tools")
    log.addHandler(events)
    log.setLevel(logging.DEBUG)
    try:
        with environment(LEAK_TOKEN=secret, LEAK_KEY=secret, LEAK_SIGNING=secret):
            namespace, _, name = dotted.partition(".")
            tool = getattr(importlib.import_module(f"sealed.{namespace}"), name)
            result = tool.call_raw(arguments)
            texts = [repr(result), json.dumps(result._asdict(), ensure_ascii=False)]
            texts.append(_through(channel, provider, dotted, arguments))
    finally:
        log.removeHandler(events)
        forgetful._values.clear()
    for text in texts + events.texts:
        assert not leaks(text, secret), (secret, text)


class Pair(NamedTuple):
    first: Any
    second: Any


def _answers(secret: str) -> st.SearchStrategy[Any]:
    """Answers a tool may give, with texts near the secret (a part of it, the
    configuration values) but not the secret itself."""
    near = st.sampled_from(
        [secret[:-1], secret[1:], secret[: len(secret) // 2], "us", "prod", "1"]
    )
    texts = st.text(max_size=12) | near | st.builds("{}{}".format, near, st.text())
    leaves = texts | st.integers() | st.booleans() | st.none() | st.floats()
    return st.recursive(
        leaves,
        lambda inner: st.lists(inner, max_size=3)
        | st.builds(Pair, inner, inner)
        | st.dictionaries(texts, inner, max_size=3),
        max_leaves=10,
    )


def _texts(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _texts(key)
            yield from _texts(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _texts(item)


@settings(max_examples=100, deadline=None)
@given(secret=SECRET, data=st.data())
def test_redaction_never_changes_an_answer_without_a_secret(
    sealed: Any, secret: str, data: Any
) -> None:
    secrets = importlib.import_module("sealed._secrets")
    value = data.draw(_answers(secret))
    assume(not any(leaks(text, secret) for text in _texts(value)))
    with environment(LEAK_TOKEN=secret, LEAK_REGION="us", LEAK_STAGE="prod"):
        secrets.remember("LEAK_TOKEN", secret)
        try:
            result = secrets.redact(value)
        finally:
            secrets._values.clear()
    assert repr(result) == repr(value)
