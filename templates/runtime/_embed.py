"""Static sentence embeddings for ``find_tool``: a text's vector is the mean of its
WordPiece tokens' rows in a table trained to imitate all-MiniLM-L6-v2 (see
``generator/embed/README.md``). Tokenising is pure Python; the arithmetic needs numpy,
which is imported only when a vector is asked for. skillc embeds the tools at build time
with this very module; the package embeds only the query.
"""

from __future__ import annotations

import importlib
import unicodedata
from pathlib import Path
from typing import Any

MAX_WORD = 100  # longer words are one unknown token, as BERT's tokenizer does
UNKNOWN = "[UNK]"
MAX_KEPT = 50_000  # characters and words whose tokens are kept, each


def _is_punctuation(char: str) -> bool:
    code = ord(char)
    if 33 <= code <= 47 or 58 <= code <= 64 or 91 <= code <= 96 or 123 <= code <= 126:
        return True
    return unicodedata.category(char).startswith("P")


def _is_cjk(code: int) -> bool:
    return (
        0x4E00 <= code <= 0x9FFF
        or 0x3400 <= code <= 0x4DBF
        or 0x20000 <= code <= 0x2A6DF
        or 0x2A700 <= code <= 0x2CEAF
        or 0xF900 <= code <= 0xFAFF
        or 0x2F800 <= code <= 0x2FA1F
    )


class _Spacing(dict[int, str]):
    """What BERT's basic tokenizer puts in place of each character (by code point),
    worked out the first time the character is met: nothing for a NUL, U+FFFD or a
    combining mark, a space for whitespace and control characters, the character
    between spaces for punctuation and CJK, else the character itself."""

    def __missing__(self, code: int) -> str:
        char = chr(code)
        category = unicodedata.category(char)
        if code == 0 or code == 0xFFFD or category == "Mn":
            spaced = ""
        elif char.isspace() or category in ("Cc", "Cf"):
            spaced = " "
        elif _is_punctuation(char) or _is_cjk(code):
            spaced = f" {char} "
        else:
            spaced = char
        if len(self) < MAX_KEPT:  # a server's queries cannot grow it without end
            self[code] = spaced
        return spaced


_SPACING = _Spacing()


def basic_words(text: str) -> list[str]:
    """BERT's basic tokenizer (uncased): accents stripped, punctuation and CJK
    characters split off, whitespace split. One ``str.translate`` rather than a Python
    step per character: the wshobson-agents marketplace's 494 tool texts in 0.02 s, not
    0.16 s; its cold build 17.7/19.4x -> 12.0/17.3x its floor (tests/bench.py --only
    marketplace --runs 3, two rounds against main on a loaded machine), 0.92x main's
    CPU (median of 8 interleaved cold builds)."""
    return unicodedata.normalize("NFD", text.lower()).translate(_SPACING).split()


class Tokenizer:
    """WordPiece over a vocabulary: each word becomes its longest known pieces."""

    def __init__(self, vocab: list[str]) -> None:
        self.ids = dict(zip(vocab, range(len(vocab))))
        self.unknown = self.ids.get(UNKNOWN, 0)
        self._cache: dict[str, tuple[int, ...]] = {}

    def word(self, word: str) -> tuple[int, ...]:
        cached = self._cache.get(word)
        if cached is not None:
            return cached
        pieces: list[int] = []
        start = 0
        while start < len(word) and len(word) <= MAX_WORD:
            end = len(word)
            while end > start:
                piece = word[start:end] if start == 0 else "##" + word[start:end]
                if piece in self.ids:
                    pieces.append(self.ids[piece])
                    break
                end -= 1
            if end == start:  # no piece fits: the whole word is unknown
                pieces = []
                break
            start = end
        result = tuple(pieces) if pieces else (self.unknown,)
        if len(self._cache) < MAX_KEPT:
            self._cache[word] = result
        return result

    def __call__(self, text: str) -> list[int]:
        return [i for word in basic_words(text) for i in self.word(word)]


class Table:
    """The token table: int8 rows, a float32 scale per row, and the vocabulary."""

    def __init__(self, folder: Path) -> None:
        numpy = _numpy()
        # Mapped: a query reads the rows of its few tokens, not the 7.8 MB table.
        self.rows: Any = numpy.load(folder / "table.npy", mmap_mode="r").view(
            numpy.ndarray
        )
        self.scales: Any = numpy.load(folder / "scales.npy").astype(numpy.float32)
        vocab = (folder / "vocab.txt").read_text(encoding="utf-8").splitlines()
        self.tokenize = Tokenizer(vocab)
        self.model = (folder / "MODEL").read_text(encoding="utf-8").strip()
        self.dim = int(self.rows.shape[1])

    def query(self, text: str) -> Any:
        """The unit vector of ``text`` (float32), or None when no token is known."""
        numpy = _numpy()
        ids = [i for i in self.tokenize(text) if i != self.tokenize.unknown]
        if not ids:
            return None
        vector = (self.rows[ids] * self.scales[ids, None]).sum(axis=0)
        norm = float(numpy.linalg.norm(vector))
        return vector / norm if norm else None


def _numpy() -> Any:
    """numpy, imported by name so that the package type-checks where it is absent."""
    return importlib.import_module("numpy")


def locate(package_dir: Path) -> Path | None:
    """The table's folder: a copy inside the generated package, else the one in an
    installed skillc (``pip install skillc``)."""
    local = package_dir / "_embed_table"
    if (local / "table.npy").is_file():
        return local
    import importlib.util

    spec = importlib.util.find_spec("skillc")
    if spec is None or not spec.submodule_search_locations:
        return None
    for root in spec.submodule_search_locations:
        folder = Path(root) / "embed"
        if (folder / "table.npy").is_file():
            return folder
    return None
