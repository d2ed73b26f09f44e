"""``find_tool(purpose)``: rank tools by how well they fit a purpose in plain words.

BM25F over fields with weights (a tool's name and aliases count most, then its
triggers and tags, then its description, then its parameters and examples), with light
stemming and a few verb synonyms. The index is a literal written at build time
(``_search_index.py``); a query only splits the purpose and adds up postings. skillc uses
the same ``terms()`` at build time, so both sides agree on every word.
"""

from __future__ import annotations

import math
import re
from typing import NamedTuple

# Field codes, their weights, and their names in reasons.
FIELDS = {"n": 4.0, "t": 2.5, "g": 2.0, "d": 1.0, "p": 0.6, "e": 0.5}
FIELD_NAMES = {
    "n": "name",
    "t": "triggers",
    "g": "tags",
    "d": "description",
    "p": "parameters",
    "e": "examples",
}
K1 = 1.2
B = 0.6
EXACT = 0.5  # the word as written, on top of its stem
SYNONYM = 0.2  # a synonym counts for less than the word itself
STOP = frozenset(
    "a an and are as at be by can do does for from how i in into is it its me my of on "
    "or please some that the their them then there these this to use used using want was "
    "what when where which who will with would you your".split()
)
# Verbs people use for the same action: a query word also counts as its group's words.
SYNONYMS = (
    ("get", "fetch", "retrieve", "read", "show", "view", "look", "open", "load"),
    ("list", "enumerate", "ls", "all", "show"),
    ("find", "search", "grep", "lookup", "locate", "query"),
    ("create", "make", "new", "add", "insert", "open"),
    ("delete", "remove", "drop", "erase", "destroy"),
    ("update", "edit", "modify", "change", "patch", "replace", "set"),
    ("run", "execute", "start", "launch", "invoke", "call"),
    ("write", "save", "store", "put"),
    ("dir", "folder", "directory"),
    ("file", "files", "document"),
    ("review", "check", "audit", "inspect"),
    ("repo", "repository"),
    ("pr", "pull"),
    ("issue", "ticket", "bug"),
)
_SYNONYMS: dict[str, tuple[str, ...]] = {}
for _group in SYNONYMS:
    for _word in _group:
        _SYNONYMS[_word] = _SYNONYMS.get(_word, ()) + tuple(
            w for w in _group if w != _word
        )
_WORD = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+")
_SUFFIXES = (
    "ations",
    "ation",
    "ings",
    "ing",
    "ies",
    "ied",
    "ers",
    "er",
    "ed",
    "es",
    "s",
    "ly",
)


class Match(NamedTuple):
    """One ranked tool: its dotted name, a relevance in 0..1, and why it matched."""

    name: str
    relevance: float
    reason: str


def stem(word: str) -> str:
    """A light suffix stripper: enough to make "reading", "reads" and "read" one word."""
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            if suffix == "es" and not word.endswith(
                ("ses", "xes", "zes", "ches", "shes")
            ):
                suffix = "s"  # "files" -> "file", but "boxes" -> "box"
            if suffix == "s" and word.endswith("ss"):
                break  # "class", "access"
            word = word[: -len(suffix)]
            if suffix in ("ies", "ied"):
                word += "y"
            break
    if len(word) > 3 and word[-1] == word[-2] and word[-1] not in "aeiouls":
        word = word[:-1]  # "running" -> "runn" -> "run"
    return word


def terms(text: str, stemmed: bool = True) -> list[str]:
    """Words of ``text``: camelCase and snake_case split, lowercased, stop words out;
    ``stemmed``: each as its stem, and also as written (``=alerts``) when that differs,
    so the exact form counts for more than a word that only shares the stem."""
    words = [w.lower() for w in _WORD.findall(text)]
    words = [w for w in words if w not in STOP]
    if not stemmed:
        return words
    result = []
    for word in words:
        root = stem(word)
        result.append(root)
        if root != word:
            result.append("=" + word)
    return result


def find(purpose: str, k: int = 5) -> list[Match]:
    from ._search_index import AVERAGE, LENGTHS, POSTINGS, TOOLS

    raw = terms(purpose, stemmed=False)
    query: dict[str, float] = {}
    for word in raw:
        query[stem(word)] = 1.0
    for word in raw:
        if stem(word) != word:
            query.setdefault("=" + word, EXACT)
        for other in _SYNONYMS.get(word, ()):
            query.setdefault(stem(other), SYNONYM)
    count = len(TOOLS)
    scores: dict[int, float] = {}
    matched: dict[int, list[tuple[float, str, str]]] = {}
    ideal = 0.0  # the score of a tool that fits every word of the purpose
    for term, weight in query.items():
        postings = POSTINGS.get(term)
        if postings is None:
            if weight == 1.0:  # a query word no tool has still counts
                ideal += math.log(1 + count) * (K1 + 1)
            continue
        entries = postings.split("|")
        idf = math.log(1 + (count - len(entries) + 0.5) / (len(entries) + 0.5))
        if weight == 1.0:
            ideal += idf * (K1 + 1)
        for entry in entries:
            index_text, tf_text, field = entry.split(" ")
            index, tf = int(index_text), int(tf_text) / 10
            norm = K1 * (1 - B + B * LENGTHS[index] / AVERAGE)
            gain = weight * idf * tf * (K1 + 1) / (tf + norm)
            scores[index] = scores.get(index, 0.0) + gain
            matched.setdefault(index, []).append((gain, term, field))
    ranked = sorted(scores.items(), key=lambda item: (-item[1], TOOLS[item[0]]))[:k]
    return [
        Match(
            TOOLS[index],
            round(min(1.0, score / ideal), 3) if ideal else 0.0,
            _reason(matched[index]),
        )
        for index, score in ranked
    ]


def _reason(matched: list[tuple[float, str, str]]) -> str:
    by_field: dict[str, list[str]] = {}
    for _, term, field in sorted(matched, key=lambda m: (-FIELDS[m[2]], -m[0])):
        words = by_field.setdefault(FIELD_NAMES[field], [])
        if term.lstrip("=") not in words:
            words.append(term.lstrip("="))
    return "; ".join(
        f"{field}: {', '.join(words[:4])}" for field, words in by_field.items()
    )
