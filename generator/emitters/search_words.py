"""The package's word splitters, as a build uses them: ``_search.terms`` and the token ids
of ``_embed.Tokenizer``, with the same results (tests/test_search_words.py compares them
on every code point and on the real corpora), faster over thousands of tools.

- ``terms``: an ASCII text is split by ``_search._WORD`` at once (its words never span
  the separators ``_search._TOKEN`` splits at), and each word's stem is worked out once.
- ``token_ids``: the basic tokenizer maps each character on its own (dropped, a space,
  split off or kept), so the text goes through ``str.translate`` with that map, each
  character's entry made the first time it is met.
"""

from __future__ import annotations

import functools
import unicodedata
from types import ModuleType
from typing import Any

_STEMS: dict[str, tuple[str, ...]] = {}  # a word -> its terms (the stem, "=word")


def terms(search: ModuleType, text: str) -> list[str]:
    """``search.terms(text)``, where ``search`` is the package's ``_search``."""
    if text.isascii():
        words = [word.lower() for word in search._WORD.findall(text)]
    else:
        words = search.words(text)
    result: list[str] = []
    for word in words:
        forms = _STEMS.get(word)
        if forms is None:
            forms = _STEMS[word] = _forms(search, word)
        result += forms
    return result


def _forms(search: ModuleType, word: str) -> tuple[str, ...]:
    if word in search.STOP:
        return ()
    root = search.stem(word)
    return (root,) if root == word else (root, "=" + word)


def token_ids(embed: ModuleType, tokenizer: Any, text: str) -> list[int]:
    """``tokenizer(text)``, where ``embed`` is the package's ``_embed`` and
    ``tokenizer`` its ``Tokenizer``."""
    text = text.lower()
    if not text.isascii():  # NFD leaves ASCII as it is
        text = unicodedata.normalize("NFD", text)
    words = text.translate(_characters(embed)).split()
    return [i for word in words for i in tokenizer.word(word)]


@functools.cache
def _characters(embed: ModuleType) -> dict[int, str]:
    class Characters(dict[int, str]):
        """What ``_embed.basic_words`` makes of each (NFD, lowercase) character."""

        def __missing__(self, code: int) -> str:
            char = chr(code)
            if code == 0 or code == 0xFFFD or unicodedata.category(char) == "Mn":
                done = ""
            elif char.isspace() or unicodedata.category(char) in ("Cc", "Cf"):
                done = " "
            elif embed._is_punctuation(char) or embed._is_cjk(code):
                done = f" {char} "
            else:
                done = char
            self[code] = done
            return done

    return Characters()
