"""Which removed tool an added one renames. Two tools that merely share an interface
are not one tool renamed (anthropics/skills' history: every script tool takes the same
``args``, and ``pptx.inventory`` was called ``docx.comment`` renamed); a pair is a
rename only when the tools are related:

- the added tool declares the removed one's name (``previous-name``), or
- both come from the same source file, which holds no other tool before or after (a
  plugin or skill renamed in place), or
- their names and their descriptions are alike: the names' words, in order, at least
  ``NAME`` alike (a one-word name: its letters), the descriptions' words at least
  ``WORDS`` shared and ``PAIRS`` of the shorter one's word pairs in the other, and no
  word that tells the names apart telling the descriptions apart too
  (``get_code_scanning_alert``, ``get_secret_scanning_alert``). The same name words in
  another order (``get_drug_by_name``, ``get_name_by_drug``) name another tool unless
  the descriptions are the same.

A removed tool related to two added ones, or an added one to two removed (a split, a
merge), is no rename: each is a removal and an addition. The limits were set on the
labelled pairs of tests/data/renames.json (every pair of a removed and an added tool
that could be related, in anthropics/skills' and github/github-mcp-server's
histories): precision 1.0, recall 0.97 (tests/test_check_renames.py).
"""

from __future__ import annotations

import difflib
import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

NAME = 0.7
WORDS = 0.7
PAIRS = 0.6
SAME = 0.95  # descriptions this alike are the same (names in another order)

WORD = re.compile(r"[a-z0-9]+")
CAMEL = re.compile(r"([a-z0-9])([A-Z])")


def _stem(word: str) -> str:
    """A plural's singular, roughly: "alerts" and "alert" are one word here."""
    return word[:-1] if len(word) > 3 and word[-1] == "s" and word[-2] != "s" else word


def words(text: str) -> list[str]:
    return [_stem(w) for w in WORD.findall(text.lower())]


def name_words(name: str) -> list[str]:
    """The words of a dotted name's last part: ``getPullRequest``, ``get-pull_request``
    are get, pull, request."""
    return words(CAMEL.sub(r"\1_\2", name.rpartition(".")[2]))


def name_likeness(a: str, b: str) -> float:
    """How alike two names are, their words in order (a one-word name: its letters)."""
    x, y = name_words(a), name_words(b)
    alike = difflib.SequenceMatcher(None, x, y, autojunk=False).ratio()
    if len(x) == len(y) == 1:
        letters = difflib.SequenceMatcher(None, x[0], y[0], autojunk=False).ratio()
        alike = max(alike, letters)
    return alike


def description_likeness(a: str, b: str) -> tuple[float, float]:
    """The share of words two descriptions have in common (Jaccard), and of the shorter
    one's word pairs found in the other."""
    x, y = words(a), words(b)
    union = set(x) | set(y)
    shared = len(set(x) & set(y)) / len(union) if union else 0.0
    pa, pb = set(zip(x, x[1:])), set(zip(y, y[1:]))
    if not pa or not pb:
        return shared, 1.0 if x == y else 0.0
    return shared, len(pa & pb) / min(len(pa), len(pb))


def told_apart(told: set[str], naming: set[str]) -> bool:
    """Whether a word telling two descriptions apart tells the names apart too (a short
    form counts: "org" for "organization")."""
    return any(
        w == n or (min(len(w), len(n)) >= 3 and (w.startswith(n) or n.startswith(w)))
        for w in told
        for n in naming
    )


def alike(old: Mapping[str, Any], new: Mapping[str, Any]) -> bool:
    """Whether two interfaces' names and descriptions say they are one tool."""
    a, b = str(old["tool"]), str(new["tool"])
    da, db = str(old.get("description", "")), str(new.get("description", ""))
    shared, pairs = description_likeness(da, db)
    if shared < WORDS or pairs < PAIRS:
        return False
    x, y = name_words(a), name_words(b)
    if told_apart(set(words(da)) ^ set(words(db)), set(x) ^ set(y)):
        return False
    if sorted(x) == sorted(y) and x != y:  # the same words in another order
        return shared >= SAME and pairs >= SAME
    return name_likeness(a, b) >= NAME


def _declared(old: str, new: Mapping[str, Any]) -> bool:
    """Whether ``new`` names ``old`` as a name it had: the whole dotted name or its last
    part, with ``-`` and ``_`` alike (a skill's name, its tool's identifier)."""
    leaf = old.rpartition(".")[2].replace("-", "_")
    return any(
        p.replace("-", "_") in (old.replace("-", "_"), leaf)
        for p in new.get("previous", ())
    )


def match(
    gone: Sequence[str],
    added: Sequence[str],
    before: Mapping[str, Mapping[str, Any]],
    after: Mapping[str, Mapping[str, Any]],
) -> dict[str, tuple[str, str]]:
    """Each removed tool that an added one renames: its new name and why (declared,
    same source, alike). The strongest reason decides; a tool related to two others
    by the same reason is no rename."""
    found: dict[str, tuple[str, str]] = {}
    taken: set[str] = set()
    for why, related in (
        ("it declares the old name", lambda o, n: _declared(o, after[n])),
        ("the same source file", _same_source(before, after)),
        ("alike in name and description", lambda o, n: alike(before[o], after[n])),
    ):
        olds = [o for o in gone if o not in found]
        news = [n for n in added if n not in taken]
        pairs = [(o, n) for o in olds for n in news if related(o, n)]
        for o, n in pairs:
            if (
                sum(o == p[0] for p in pairs) == 1
                and sum(n == p[1] for p in pairs) == 1
            ):
                found[o] = (n, why)
                taken.add(n)
    return found


def _same_source(
    before: Mapping[str, Mapping[str, Any]], after: Mapping[str, Mapping[str, Any]]
) -> Callable[[str, str], bool]:
    """Related when both come from one file that holds no other tool, before or after
    (a manifest of several tools is no witness)."""

    def source(entry: Mapping[str, Any]) -> str:
        return str(entry.get("source") or "")

    was = Counter(source(e) for e in before.values())
    now = Counter(source(e) for e in after.values())

    def related(old: str, new: str) -> bool:
        path = source(before[old])
        return bool(path) and path == source(after[new]) and was[path] == now[path] == 1

    return related
