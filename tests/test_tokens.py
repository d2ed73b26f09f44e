"""The exact token counter: loaded from bpe-openai's extension module alone, it counts
what bpe-openai's public ``Encoding`` counts."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from conftest import REPO
from skillc import tokens


def test_counts_equal_the_public_encodings() -> None:
    """Every skill and runtime text of this repository, and texts with a special
    token, a lone surrogate, emoji and nothing at all."""
    bpe_openai = pytest.importorskip("bpe_openai")
    encoding = bpe_openai.get_encoding("o200k_base")
    count = tokens.counter("o200k_base")
    texts = [
        path.read_text(encoding="utf-8")
        for folder in ("skills", "templates")
        for path in sorted((REPO / folder).rglob("*"))
        if path.is_file() and path.suffix in (".md", ".py", ".jinja", ".yaml")
    ]
    texts += [
        "",
        "a <|endoftext|> b <|endofprompt|>",
        "x\ud800y",
        "🙂 ünïcode 漢字\r\n",
    ]
    assert len(texts) > 30
    for text in texts:
        assert count(text) == len(encoding.encode(text, disallowed_special=()))


def test_the_counter_does_not_import_the_package() -> None:
    """Its import decodes every encoding's merge table; counting needs none of it."""
    pytest.importorskip("bpe_openai")
    code = (
        "import sys\nfrom skillc import tokens\n"
        "print(tokens.counter('o200k_base')('two words'), 'bpe_openai' in sys.modules)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout.split() == ["2", "False"]
