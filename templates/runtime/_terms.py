"""The words ``find_tool`` ranks by, split the same way at build time (skillc loads this
module to write the index, ``_search_index.py``) and for a query (``_search``): fields
and their weights, stop words, verb synonyms, a light stemmer.
"""

from __future__ import annotations

import functools
import re
import unicodedata

# Field codes, their weights, and their names in reasons.
FIELDS = {"n": 4.0, "s": 3.0, "t": 2.5, "g": 2.0, "d": 1.0, "p": 0.6, "e": 0.5}
FIELD_NAMES = {
    "n": "name",
    "t": "triggers",
    "s": "namespace",
    "g": "tags",
    "d": "description",
    "p": "parameters",
    "e": "examples",
}
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
SYNONYMS_OF: dict[str, tuple[str, ...]] = {}  # each word's synonyms
for _group in SYNONYMS:
    for _word in _group:
        SYNONYMS_OF[_word] = SYNONYMS_OF.get(_word, ()) + tuple(
            w for w in _group if w != _word
        )
_TOKEN = re.compile(r"[^\W_]+")  # letters and digits: "_", "-", "." and spaces split
_WORD = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+")  # camelCase, HTTPServer
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


# Kept: a query stems each of its words and their synonyms (12 a purpose, 40% of a query
# at 2,000 tools); bounded, as the MCP server stems whatever words callers send.
@functools.lru_cache(maxsize=50_000)
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


def words(text: str) -> list[str]:
    """Lowercased words: camelCase, snake_case, kebab-case and dotted names split,
    accents stripped; a run of CJK characters (written without spaces) becomes its
    characters and their pairs."""
    result: list[str] = []
    for token in _TOKEN.findall(text):
        if token.isascii():
            result += [w.lower() for w in _WORD.findall(token)]
            continue
        plain = unicodedata.normalize("NFD", token.lower())
        plain = "".join(c for c in plain if unicodedata.category(c) != "Mn")
        if any(unicodedata.east_asian_width(c) == "W" for c in plain):
            result += list(plain) + [plain[i : i + 2] for i in range(len(plain) - 1)]
        else:
            result.append(plain)
    return result


def terms(text: str, stemmed: bool = True) -> list[str]:
    """Words of ``text`` (see ``words``), stop words out; ``stemmed``: each as its
    stem, and also as written (``=alerts``) when that differs, so the exact form counts
    for more than a word that only shares the stem."""
    words_ = [w for w in words(text) if w not in STOP]
    if not stemmed:
        return words_
    result = []
    for word in words_:
        root = stem(word)
        result.append(root)
        if root != word:
            result.append("=" + word)
    return result
