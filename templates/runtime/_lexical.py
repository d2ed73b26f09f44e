"""find_tool's lexical ranking: BM25F over the index's arrays (``_search_index``),
which a query slices and never parses. A tool's name and aliases count most, then its
triggers and tags, its namespace, its description, then its parameters and examples
(the weights are ``_terms.FIELDS``, applied at build time), with light stemming, a few
verb synonyms and a boost for a tool named exactly. A word in too many tools of a large
catalogue has no postings (``STOP``): it tells the tools apart too little to be worth
reading them. With numpy (hybrid ranking) the postings are added up as arrays.
"""

from __future__ import annotations

import array
import base64
import bisect
import math
import re
import sys
from typing import Any

from ._terms import SYNONYMS_OF, stem, terms

K1 = 1.2  # BM25F's
B = 0.6
EXACT = 0.5  # the word as written, on top of its stem
SYNONYM = 0.2  # a synonym counts for less than the word itself
EXACT_NAME = 0.5  # relevance added when the purpose names the tool


class Found:
    """A purpose's words in the index: each one's weight times its idf and postings
    (``Index``'s slice), the score of a tool that would fit every word, and the tools
    the purpose names exactly."""

    def __init__(self, index: Index, purpose: str) -> None:
        self.index = index
        self.words: list[tuple[str, float, int, int]] = []
        self.ideal = 0.0
        count = len(index.norms)
        for term, weight in _query(purpose).items():
            if term in index.stop:  # in too many tools to tell them apart
                continue
            at = bisect.bisect_left(index.terms, term)
            if at == len(index.terms) or index.terms[at] != term:
                if weight == 1.0:  # a query word no tool has still counts
                    self.ideal += math.log(1 + count) * (K1 + 1)
                continue
            start, end = index.starts[at], index.starts[at + 1]
            n = end - start
            idf = math.log(1 + (count - n + 0.5) / (n + 0.5))
            if weight == 1.0:
                self.ideal += idf * (K1 + 1)
            self.words.append((term, weight * idf, start, end))
        self.named: dict[int, list[str]] = {}
        for token in re.findall(r"[\w.-]+", purpose.lower()):
            for tool in index.names.get(token.strip(".-"), ()):
                self.named.setdefault(tool, []).append(token)

    def relevance(self, numpy: Any = None) -> Any:
        """Each tool's BM25F relevance in 0..1 (its score over ``ideal``), with
        EXACT_NAME added for a tool named: a dict of the tools that match, or with
        ``numpy`` an array of every tool's."""
        index = self.index
        if numpy is None:
            scores: dict[int, float] = {}
            for _, weighed, start, end in self.words:
                for at in range(start, end):
                    tool, tf = index.docs[at], index.tfs[at] / 10
                    gain = weighed * tf * (K1 + 1) / (tf + index.norms[tool])
                    scores[tool] = scores.get(tool, 0.0) + gain
            ideal = self.ideal
            found = {
                i: min(1.0, s / ideal) if ideal else 0.0 for i, s in scores.items()
            }
            for tool in self.named:
                found[tool] = min(1.0, found.get(tool, 0.0) + EXACT_NAME)
            return found
        arrays = index.arrays(numpy)
        total = numpy.zeros(len(index.norms))
        for _, weighed, start, end in self.words:
            docs, tfs = arrays[0][start:end], arrays[1][start:end]
            total[docs] += weighed * tfs * (K1 + 1) / (tfs + arrays[2][docs])
        total = numpy.minimum(1.0, total / self.ideal) if self.ideal else total * 0
        if self.named:
            named = list(self.named)
            total[named] = numpy.minimum(1.0, total[named] + EXACT_NAME)
        return total

    def matched(self, tool: int) -> list[tuple[float, str, str]]:
        """The words that matched ``tool``: each one's gain and field (for reasons)."""
        index = self.index
        result = []
        for term, weighed, start, end in self.words:
            at = bisect.bisect_left(index.docs, tool, start, end)
            if at < end and index.docs[at] == tool:
                tf = index.tfs[at] / 10
                gain = weighed * tf * (K1 + 1) / (tf + index.norms[tool])
                result.append((gain, term, index.fields[at]))
        return result + [(math.inf, t, "n") for t in self.named.get(tool, ())]


def _query(purpose: str) -> dict[str, float]:
    """The purpose's terms, each with its weight: its stems, the words as written and
    their synonyms' stems."""
    raw = terms(purpose, stemmed=False)
    query: dict[str, float] = {}
    for word in raw:
        query[stem(word)] = 1.0
    for word in raw:
        if stem(word) != word:
            query.setdefault("=" + word, EXACT)
        for other in SYNONYMS_OF.get(word, ()):
            query.setdefault(stem(other), SYNONYM)
    return query


class Index:
    """``_search_index``'s arrays, decoded the first time a purpose is ranked."""

    def __init__(self, built: Any) -> None:
        self.terms: list[str] = built.TERMS.split()
        self.stop = frozenset(built.STOP.split())
        self.starts = _array("I", built.STARTS)
        self.docs = _array("I", built.DOCS)
        self.tfs = _array("H", built.TFS)
        self.fields: str = built.FIELDS
        self.names: dict[str, list[int]] = built.NAMES
        pairs = _array("I", built.TWINS)
        # Each tool named and described as a former one, with that first tool.
        self.twins: dict[int, int] = dict(zip(pairs[::2], pairs[1::2]))
        self._groups: dict[int, list[int]] | None = None
        average = built.AVERAGE
        self.norms = [
            K1 * (1 - B + B * n / average) for n in _array("d", built.LENGTHS)
        ]
        self._numpy: tuple[Any, ...] = ()

    def twins_of(self, tool: int) -> list[int]:
        """The other tools of ``tool``'s group of twins, by name ([] when none)."""
        if self._groups is None:  # once a process, when a twin is first returned
            groups: dict[int, list[int]] = {}
            for twin, first in sorted(self.twins.items()):
                groups.setdefault(first, [first]).append(twin)
            self._groups = groups
        group = self._groups.get(self.twins.get(tool, tool), [])
        return [other for other in group if other != tool]

    def arrays(self, numpy: Any) -> tuple[Any, ...]:
        """The postings' tools and tfs, and the tools' norms, as numpy arrays."""
        if not self._numpy:
            tfs = numpy.frombuffer(self.tfs, numpy.uint16) / 10
            docs = numpy.frombuffer(self.docs, numpy.uint32).astype(numpy.intp)
            self._numpy = docs, tfs, numpy.array(self.norms)
        return self._numpy


def _array(code: str, text: str) -> array.array[Any]:
    """A base64 literal of the index as an array of type ``code`` (little-endian)."""
    values = array.array(code, base64.b64decode(text))
    if sys.byteorder == "big":
        values.byteswap()
    return values
