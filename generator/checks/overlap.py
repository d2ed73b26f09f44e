"""Overlapping tools: pairs whose descriptions are so close that a model, or
``find_tool``, cannot tell which one a purpose means.

A pair overlaps when its descriptions are the same (spaces and case aside), or when
all three of these hold (chosen on the real corpora of ../shared/corpus; see the
closing note of issue 28 for what they find there and how many are false alarms):

- the cosine of the two tools' vectors in the find_tool index the build made is at
  least ``COSINE`` (skipped when the package ranks lexically);
- their description words, each weighted by its rarity in the catalogue (idf), are
  shared at least ``WEIGHTED_JACCARD``: a difference in a word most tools use ("in a
  GitHub repository") counts for little, one in a rare word ("secret", "rule") much;
- at least ``BIGRAMS`` of the shorter description's word pairs are in the other: the
  same words in another order ("drug name by X", "X by drug name") say another thing;
- no word that tells the descriptions apart is one that tells the tools' names apart
  (``delete_policy`` and ``delete_policy_rule`` say "policy" and "policy rule": a
  model reading both sees the difference it is told to look for).

Reported in ``skillc check --report`` always, and as a warning under ``--strict``.
"""

from __future__ import annotations

import ast
import base64
import math
from collections import Counter, defaultdict
from collections.abc import Callable, Mapping
from typing import Any

from ..checks import Subject
from ..diagnostics import Report
from ..emitters import search_index
from ..ir import Tool

COSINE = 0.90
WEIGHTED_JACCARD = 0.75
BIGRAMS = 0.75


def _literal(text: str, name: str) -> Any:
    """The value of ``NAME: ... = <literal>`` in a generated module (read, not run)."""
    for node in ast.parse(text).body:
        if isinstance(node, ast.AnnAssign) and getattr(node.target, "id", None) == name:
            assert node.value is not None
            return ast.literal_eval(node.value)
    return None


def vectors(files: Mapping[str, bytes]) -> tuple[list[str], Any]:
    """The tools of the find_tool index and their unit vectors (a numpy array; None
    when the package ranks lexically)."""
    import numpy

    index = files.get("_search_index.py")
    if index is None:
        return [], None
    tools: list[str] = _literal(index.decode("utf-8"), "TOOLS") or []
    table = files.get("_search_vectors.py", b"").decode("utf-8")
    rows = _literal(table, "VECTORS") or []
    scales = _literal(table, "SCALES") or []
    if len(rows) != len(tools) or not rows:
        return tools, None
    raw = numpy.array(
        [numpy.frombuffer(base64.b64decode(r), dtype=numpy.int8) for r in rows],
        dtype=numpy.float32,
    )
    return tools, raw * numpy.array(scales, dtype=numpy.float32)[:, None]


def _words(text: str) -> list[str]:
    return [t for t in search_index.runtime().terms(text) if not t.startswith("=")]


def pairs(names: list[str], descriptions: list[str], unit: Any) -> list[dict[str, Any]]:
    """The overlapping pairs of ``names`` (``unit``: their vectors, or None), with
    what made each one."""
    words = [_words(d) for d in descriptions]
    split = search_index.runtime().words
    leaves = [set(_words(" ".join(split(n.rpartition(".")[2])))) for n in names]
    count = Counter(t for w in words for t in set(w))
    total = len(names)

    def idf(term: str) -> float:  # smoothed: a word in every description still counts
        return math.log(1 + total / max(1, count[term]))

    found = _same_descriptions(descriptions)
    sets = [set(w) for w in words]
    similarity = None if unit is None else unit @ unit.T
    for i, j in _candidates(sets, idf, count):
        if (i, j) in found:
            continue
        cosine = 1.0 if similarity is None else float(similarity[i, j])
        if cosine < COSINE or _named(sets[i] ^ sets[j], leaves[i] ^ leaves[j]):
            continue
        alike = _alike((words[i], sets[i]), (words[j], sets[j]), idf, cosine)
        if alike is not None:
            found[i, j] = alike
    return [{"tools": [names[i], names[j]], **found[i, j]} for i, j in sorted(found)]


def _same_descriptions(
    descriptions: list[str],
) -> dict[tuple[int, int], dict[str, Any]]:
    """The pairs whose descriptions are the same, but for spaces and case."""
    same: dict[str, list[int]] = defaultdict(list)
    for i, description in enumerate(descriptions):
        text = " ".join(description.split()).lower()
        if text:
            same[text].append(i)
    return {
        (i, j): {"why": "the same description"}
        for group in same.values()
        for x, i in enumerate(group)
        for j in group[x + 1 :]
    }


def _alike(
    first: tuple[list[str], set[str]],
    second: tuple[list[str], set[str]],
    idf: Callable[[str], float],
    cosine: float,
) -> dict[str, Any] | None:
    """How alike two descriptions (each its words, in order and as a set) are, when
    their weighted word overlap and their shared word pairs both reach the limits."""
    (words_a, a), (words_b, b) = first, second
    weighted = sum(idf(t) for t in a & b) / sum(idf(t) for t in a | b)
    pa, pb = set(zip(words_a, words_a[1:])), set(zip(words_b, words_b[1:]))
    bigrams = len(pa & pb) / max(1, min(len(pa), len(pb)))
    if weighted < WEIGHTED_JACCARD or bigrams < BIGRAMS:
        return None
    return {
        "why": f"descriptions {weighted:.0%} alike (cosine {cosine:.2f})",
        "cosine": round(cosine, 3),
        "weighted_jaccard": round(weighted, 3),
        "bigrams": round(bigrams, 3),
    }


def _named(told: set[str], naming: set[str]) -> bool:
    """Whether a word telling two descriptions apart tells the names apart too (a
    name's short form counts: "org" for "organization")."""
    return any(
        w == n or (min(len(w), len(n)) >= 3 and (w.startswith(n) or n.startswith(w)))
        for w in told
        for n in naming
    )


def _candidates(
    sets: list[set[str]], idf: Callable[[str], float], count: Counter[str]
) -> list[tuple[int, int]]:
    """The pairs whose weighted word overlap may reach WEIGHTED_JACCARD: each
    description a vector of sqrt(idf) per word, whose cosine is never below the
    weighted Jaccard (so nothing is missed), over the words two descriptions can share;
    one matrix product, not a loop over every pair."""
    import numpy

    shared = sorted(t for t, n in count.items() if n > 1)
    column = {t: k for k, t in enumerate(shared)}
    matrix = numpy.zeros((len(sets), len(shared)), dtype=numpy.float32)
    norms = numpy.ones(len(sets), dtype=numpy.float32)
    for i, words in enumerate(sets):
        total = sum(idf(t) for t in words)
        if total > 0:
            norms[i] = math.sqrt(total)
        for t in words:
            if t in column:
                matrix[i, column[t]] = math.sqrt(idf(t))
    matrix /= norms[:, None]
    near = numpy.argwhere(numpy.triu(matrix @ matrix.T, 1) >= WEIGHTED_JACCARD - 1e-6)
    return [(int(i), int(j)) for i, j in near]


def run(subject: Subject, report: Report) -> list[dict[str, Any]]:
    names, unit = vectors(subject.files)
    tools: dict[str, Tool] = {t.qualname: t for t in subject.model.tools}
    names = [n for n in names if n in tools]
    if unit is not None and len(names) != len(unit):
        unit = None
    descriptions = [tools[n].definition.description for n in names]
    found = pairs(names, descriptions, unit)
    for pair in found:
        a, b = (tools[n].definition.source for n in pair["tools"])
        pair["paths"] = [a.path, b.path]
        if report.strict:
            report.warning(
                a.path,
                a.line,
                a.col,
                "overlapping-tools",
                f"{pair['tools'][0]} and {pair['tools'][1]} ({b.path}): "
                f"{pair['why']}; a model or find_tool can hardly tell them apart",
            )
    return found
