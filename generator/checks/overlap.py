"""Overlapping tools: what a model, or ``find_tool``, cannot tell apart.

- **Duplicates**: one definition shipped several times (one kind, one name once a
  plugin's prefix is set aside, one description: wshobson/agents copies an agent into
  each plugin that uses it) is one finding, with how many versions of its
  instructions the copies hold; never a pair per two copies.
- **One name**: two tools whose names are one word once case and separators are set
  aside, spelt two ways (``docker_hub-automation``, ``Docker Hub Automation``), always;
  spelt alike in two plugins or namespaces, when their descriptions reach ``NAMED``.
- **Pairs**: the same description (spaces and case aside), or all of these (``LIMITS``):
  the cosine of the two tools' vectors in the find_tool index the build made (1 when
  the package ranks lexically); their description words, each weighted by its rarity
  in the catalogue (idf), shared: a difference in a word most tools use ("in a GitHub
  repository") counts for little, one in a rare word ("secret", "rule") much; the
  shorter description's word pairs found in the other: the same words in another order
  ("drug name by X", "X by drug name") say another thing; and no word that tells the
  descriptions apart tells the names apart (``delete_policy``, ``delete_policy_rule``).
- A contrast term (a language, a platform: Python vs TypeScript) that tells two
  descriptions apart scales their word overlap by ``CONTRAST``.

Reported in ``skillc check --report`` always; under ``--strict``, a pair is an
``overlapping-tools`` warning and a duplicate a ``duplicate-definition`` note.
"""

from __future__ import annotations

import ast
import base64
import math
from collections import Counter, defaultdict
from collections.abc import Callable, Mapping
from typing import Any

from ..checks import Subject, overlap_names
from ..checks.overlap_names import Identity
from ..diagnostics import Report
from ..emitters import search_index
from ..ir import Definition, Tool

# The least cosine, weighted word overlap and share of word pairs of an overlap
# (LIMITS), and of two tools of one name (NAMED; in two plugins or namespaces);
# CONTRAST scales the word overlap of two descriptions a contrast term tells apart.
# Set on the labelled pairs of tests/data/overlap_pairs.json
# (tests/test_check_overlap_eval.py reports precision and recall).
LIMITS = (0.90, 0.75, 0.80)
NAMED = (0.85, 0.50, 0.50)
CONTRAST = 0.8


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


def pairs(
    names: list[str],
    descriptions: list[str],
    unit: Any,
    ids: list[Identity] | None = None,
) -> list[dict[str, Any]]:
    """The overlapping tools of ``names`` (``unit``: their vectors, or None; ``ids``:
    what each is apart from where it ships), with what made each finding: the copies
    of one definition as one duplicate, then the pairs."""
    ids = ids or [Identity("tool", "")] * len(names)
    copies = overlap_names.duplicates(ids, descriptions)
    copied = {(i, j) for group in copies for i in group for j in group if i < j}
    named = overlap_names.same_names(ids, copies)
    found = {
        k: v for k, v in _same_descriptions(descriptions).items() if k not in copied
    }
    for (i, j), respelt in named.items():
        if respelt:
            why = f"one name spelt two ways ({ids[i].name}, {ids[j].name})"
            found.setdefault((i, j), {"why": why})
    texts = _Texts(names, descriptions, unit)
    for i, j in sorted(set(texts.candidates()) | set(named)):
        if (i, j) not in found and (i, j) not in copied:
            alike = texts.alike(i, j, NAMED if (i, j) in named else LIMITS)
            if alike is not None:
                found[i, j] = alike
    return [_duplicate(names, ids, group) for group in copies] + [
        {"kind": "overlap", "tools": [names[i], names[j]], **found[i, j]}
        for i, j in sorted(found)
    ]


class _Texts:
    """A catalogue's descriptions as the pairs are scored: each one's words (in order
    and as a set), its name's words, its contrast terms, and how rare each word is."""

    def __init__(self, names: list[str], descriptions: list[str], unit: Any) -> None:
        self.words = [_words(d) for d in descriptions]
        self.sets = [set(w) for w in self.words]
        split = search_index.runtime().words
        self.leaves = [
            set(_words(" ".join(split(n.rpartition(".")[2])))) for n in names
        ]
        self.raw = [
            overlap_names.terms(f"{d} {n}") for d, n in zip(descriptions, names)
        ]
        self.count = Counter(t for w in self.words for t in set(w))
        self.similarity = None if unit is None else unit @ unit.T

    def idf(self, term: str) -> float:
        """Smoothed: a word in every description still counts."""
        return math.log(1 + len(self.words) / max(1, self.count[term]))

    def candidates(self) -> list[tuple[int, int]]:
        return _candidates(self.sets, self.idf, self.count)

    def alike(
        self, i: int, j: int, limits: tuple[float, float, float]
    ) -> dict[str, Any] | None:
        """What makes ``i`` and ``j`` overlap within ``limits``, or None."""
        sets, leaves = self.sets, self.leaves
        cosine = 1.0 if self.similarity is None else float(self.similarity[i, j])
        if cosine < limits[0] or _named(sets[i] ^ sets[j], leaves[i] ^ leaves[j]):
            return None
        contrast = overlap_names.contrasts(self.raw[i], self.raw[j])
        return _alike(
            (self.words[i], sets[i]),
            (self.words[j], sets[j]),
            self.idf,
            contrast,
            (limits, cosine),
        )


def _duplicate(
    names: list[str], ids: list[Identity], group: list[int]
) -> dict[str, Any]:
    """One definition shipped several times: its copies, and how many versions of its
    instructions they hold (more than one: the copies have drifted apart)."""
    plugins = {ids[i].plugin for i in group} - {None}
    where = f"in {len(plugins)} plugins" if len(plugins) > 1 else f"{len(group)} times"
    return {
        "kind": "duplicate",
        "tools": [names[i] for i in group],
        "why": f"one definition shipped {where}",
        "versions": len({ids[i].body for i in group}),
    }


def _same_descriptions(
    descriptions: list[str],
) -> dict[tuple[int, int], dict[str, Any]]:
    """The pairs whose descriptions are the same, but for spaces and case."""
    same: dict[str, list[int]] = defaultdict(list)
    for i, description in enumerate(descriptions):
        if text := overlap_names.text(description):
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
    contrast: list[str],
    limits: tuple[tuple[float, float, float], float],
) -> dict[str, Any] | None:
    """How alike two descriptions (each its words, in order and as a set) are, when
    their weighted word overlap and their shared word pairs both reach the limits; a
    contrast term that tells them apart (Python, TypeScript) scales the overlap by
    CONTRAST."""
    (words_a, a), (words_b, b) = first, second
    (_, least, least_pairs), cosine = limits
    weighted = sum(idf(t) for t in a & b) / sum(idf(t) for t in a | b)
    weighted *= CONTRAST if contrast else 1.0
    pa, pb = set(zip(words_a, words_a[1:])), set(zip(words_b, words_b[1:]))
    bigrams = len(pa & pb) / max(1, min(len(pa), len(pb)))
    if weighted < least or bigrams < least_pairs:
        return None
    return {
        "why": f"descriptions {weighted:.0%} alike (cosine {cosine:.2f})"
        + (", one name" if limits[0] is NAMED else ""),
        **({"contrast": contrast} if contrast else {}),
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
    """The pairs whose weighted word overlap may reach LIMITS[1]: each
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
    near = numpy.argwhere(numpy.triu(matrix @ matrix.T, 1) >= LIMITS[1] - 1e-6)
    return [(int(i), int(j)) for i, j in near]


def run(subject: Subject, report: Report) -> list[dict[str, Any]]:
    names, unit = vectors(subject.files)
    tools: dict[str, Tool] = {t.qualname: t for t in subject.model.tools}
    names = [n for n in names if n in tools]
    if unit is not None and len(names) != len(unit):
        unit = None
    descriptions = [tools[n].definition.description for n in names]
    found = pairs(names, descriptions, unit, [identity(tools[n]) for n in names])
    for finding in found:
        sources = [tools[n].definition.source for n in finding["tools"]]
        finding["paths"] = [s.path for s in sources]
        finding["lines"] = [s.line for s in sources]
        if report.strict:
            _say(report, finding, sources[0])
    return found


def identity(tool: Tool) -> Identity:
    """What a tool is apart from where it ships."""
    d = tool.definition
    if not isinstance(d, Definition):
        return Identity(d.kind.value, d.name)
    name = overlap_names.unprefixed(d.written_name, d.plugin)
    return Identity(d.kind.value, name, d.plugin, d.body)


def _say(report: Report, finding: dict[str, Any], at: Any) -> None:
    """A strict project's diagnostic of a finding, at its first tool's source: a
    duplicate is a note (shipping copies may be the point), a pair a warning."""
    first, *others = finding["tools"]
    if finding["kind"] == "duplicate":
        drift = finding["versions"]
        report.info(
            at.path,
            at.line,
            at.col,
            "duplicate-definition",
            f"{first}: {finding['why']} ({', '.join(finding['paths'][1:])})"
            + (f"; its copies hold {drift} versions of its instructions" * (drift > 1)),
        )
        return
    report.warning(
        at.path,
        at.line,
        at.col,
        "overlapping-tools",
        f"{first} and {others[0]} ({finding['paths'][1]}): "
        f"{finding['why']}; a model or find_tool can hardly tell them apart",
    )
