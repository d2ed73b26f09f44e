"""``find_tool(purpose)``: rank tools by how well they fit a purpose in plain words.

Lexical: BM25F over fields with weights (``_lexical.py``), over arrays written at build
time (``_search_index.py``); a query only splits the purpose and adds up postings. Both
split words by ``_terms``, so they agree on every word.

Hybrid (when the package was built with vectors, and numpy and the token table are
there): each tool's vector was computed at build time (``_search_vectors.py``); the
query is embedded with the static table (``_embed.py``) and its cosine to every tool is
fused with the lexical relevance. Without them, the ranking is lexical (said once).

Model (when the package was built with ``find-tool = "model"``): the same fusion, with
the tools' vectors by a sentence encoder (``_search_model.py``) and the purpose embedded
by that encoder (``_encoder.py``), loaded on the first call. Without the encoder or its
runtime, the ranking is hybrid (said once, and in each result's ``reason``).
"""

from __future__ import annotations

import binascii
import importlib
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple

from ._lexical import Found, Index
from ._terms import FIELD_NAMES, FIELDS

# Lexical weight beside the cosine in hybrid ranking (chosen on the dev part of
# tests/eval/find_tool_heldout.yaml), and the cosine counted as no fit at all.
DENSE_WEIGHT = 0.6
COSINE_FLOOR = 0.1
# Only a purpose's first characters are read: a purpose is a sentence or two, and
# ranking costs time in its length (a megabyte took 15 s).
MAX_PURPOSE = 1000


class Match(NamedTuple):
    """One ranked tool: its dotted name, a relevance in 0..1 (comparable across
    purposes), why it matched (the fields whose words matched, or "semantic"), where to
    call it in Python, its name in its source, and its name for each provider."""

    name: str
    relevance: float
    reason: str
    path: str = ""
    original: str = ""
    providers: dict[str, str] = {}


METHODS = ("lexical", "dense", "hybrid", "model")
TWINS_NAMED = 3  # a match names this many of its twins in its reason, at most


def find(
    purpose: str,
    k: int = 10,
    method: str | None = None,
    *,
    tags: Sequence[str] = (),
    capabilities: Sequence[str] = (),
) -> list[Match]:
    """The ``k`` tools that fit ``purpose`` (plain words, any phrasing) best, best first.

    Each ``Match`` has the tool's dotted ``name``, its import ``path``, its ``original``
    name, its ``providers`` names, a ``relevance`` in 0..1 that is comparable across
    queries, and a ``reason`` (the fields that matched, or "semantic"). When the first
    results do not clearly fit, ask for more (a larger ``k``) rather than guess. Only
    the first ``MAX_PURPOSE`` (1,000) characters of ``purpose`` are read.

    ``method``: "lexical", "dense", "hybrid" or "model"; by default the one the
    package was built for. A package built for "model" says in each ``reason`` which
    mode answered ("model: ...", or "hybrid, no encoder: <why>: ..." when the encoder
    is missing). ``tags`` and ``capabilities``: only tools that have each of them (seed
    000's metadata) compete; the values are only compared with the index's strings.

    Tools of the same name and description (one definition in two namespaces) are
    returned once, the best ranked of them, whose ``reason`` names the
    others: name the namespace to rank one first."""
    from ._search_index import METHOD, TOOLS

    chosen = method or METHOD
    if chosen not in METHODS:
        raise ValueError(f"method must be one of {', '.join(METHODS)}")
    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        raise ValueError("k must be a positive integer")
    purpose = purpose[:MAX_PURPOSE]
    cosines, weight, floor, mode = _dense(purpose, chosen)
    built_for: str = METHOD  # a str: a package built for "hybrid" says so as a Literal
    said = mode if built_for == "model" else ""
    found = _lexical(purpose)
    allowed = _allowed(tags, capabilities) if tags or capabilities else None
    if cosines is None:
        lexical = found.relevance()
        if allowed is not None:
            lexical = {i: score for i, score in lexical.items() if i in allowed}
        ranked = sorted(lexical.items(), key=lambda item: (-item[1], TOOLS[item[0]]))
        ranked = _distinct(ranked, found.index.twins)
        return [_match(i, score, found, said) for i, score in ranked[:k]]
    return _fused(found, cosines, weight, floor, allowed, k, said)


def _distinct(
    ranked: list[tuple[int, float]], twins: dict[int, int]
) -> list[tuple[int, float]]:
    """``ranked`` (best first) with one tool of each group of twins: the first."""
    groups: set[int] = set()
    kept = []
    for tool, score in ranked:
        group = twins.get(tool, tool)
        if group not in groups:
            groups.add(group)
            kept.append((tool, score))
    return kept


def _fused(
    found: Found,
    cosines: Any,
    weight: float,
    floor: float,
    allowed: set[int] | None,
    k: int,
    said: str,
) -> list[Match]:
    """The ``k`` best tools by the cosine fused with the lexical relevance (a cosine
    at ``floor`` or below counts as no fit, ``weight`` is the cosine's share)."""
    numpy = _state["numpy"]
    fused = numpy.clip((cosines - floor) / (1 - floor), 0, 1) * weight
    if weight < 1:
        fused += (1 - weight) * found.relevance(numpy)
    if allowed is not None:
        fused[[i for i in range(len(fused)) if i not in allowed]] = 0.0
    best = _best(numpy, fused, k, found.index.twins)
    return [_match(i, min(1.0, score), found, said) for i, score in best]


def _best(
    numpy: Any, fused: Any, k: int, twins: dict[int, int]
) -> list[tuple[int, float]]:
    """The ``k`` tools of highest positive ``fused`` score, best first (ties by name),
    one of each group of twins: taken from the ``m`` best (found in linear time, then
    only they are sorted), ``m`` doubled until they hold ``k`` groups. It starts at
    ``k`` times the tools per group (1 without twins)."""
    count = len(fused)
    m = -(-k * count // max(1, count - len(twins)))
    while True:
        top = numpy.argpartition(-fused, m)[:m] if m < count else numpy.arange(count)
        # TOOLS is sorted: ties by name
        ranked = [(i, -s) for s, i in sorted(zip((-fused[top]).tolist(), top.tolist()))]
        positive = [(i, score) for i, score in ranked if score > 0]
        kept = _distinct(positive, twins)
        if len(kept) >= k or m >= count or len(positive) < m:
            return kept[:k]
        m *= 2


def _dense(purpose: str, method: str) -> tuple[Any, float, float, str]:
    """The purpose's cosine to every tool (None: lexical only), the weight and floor
    that fuse it with the lexical relevance, and the mode that answered: ``method``, or
    what model mode fell back to (and why)."""
    weight, floor = (1.0 if method == "dense" else DENSE_WEIGHT), COSINE_FLOOR
    cosines, mode = None, method
    if method == "model":
        cosines, weight, floor = _model_cosines(purpose)
        if cosines is None:
            mode = f"hybrid, no encoder: {_state['model why']}"
    if cosines is None and method != "lexical":
        cosines = _cosines(purpose)
        if cosines is None and method == "model":
            mode = f"lexical, no encoder: {_state['model why']}"
    return cosines, weight, floor, mode


def _allowed(tags: Sequence[str], capabilities: Sequence[str]) -> set[int]:
    """The positions in the search index of the tools with every tag and capability."""
    from ._runtime import entries
    from ._search_index import TOOLS

    names = {entry.name for entry in entries(None, tags, capabilities)}
    return {i for i, name in enumerate(TOOLS) if name in names}


def _lexical(purpose: str) -> Found:
    if "index" not in _state:
        from . import _search_index

        _state["index"] = Index(_search_index)
    return Found(_state["index"], purpose)


_state: dict[str, Any] = {}


def _cosines(purpose: str) -> Any:
    """The cosine of the purpose to every tool (numpy), or None when the package has
    no vectors, numpy or the token table is missing, or the purpose has no known
    token; loaded on first use, and a missing piece is said once."""
    if "vectors" not in _state:
        _state["vectors"] = _load()
    loaded = _state["vectors"]
    if loaded is None:
        return None
    table, vectors = loaded
    query = table.query(purpose)
    if query is None:
        return None
    # einsum's own loop: a BLAS product would wake BLAS threads, which on a busy machine
    # costs milliseconds for a product of a tenth of one.
    return _state["numpy"].einsum("ij,j->i", vectors, query)


def _load() -> Any:
    from . import _search_vectors as built

    if not built.MODEL:
        return None
    from . import _embed

    try:
        numpy = _embed._numpy()
    except ImportError:
        _say("numpy is not installed (pip install numpy)")
        return None
    folder = _embed.locate(Path(__file__).parent)
    if folder is None:
        _say("the token table is not found (pip install skillc)")
        return None
    _state["numpy"] = numpy
    table = _embed.Table(folder)
    if table.model != built.MODEL:
        _say(
            f"the token table is {table.model}, the tools were built with {built.MODEL}"
        )
        return None
    return table, _vectors(numpy, built)


def _vectors(numpy: Any, built: Any) -> Any:
    """A vectors module's (``_search_vectors``, ``_search_model``) int8 rows, as
    float32 rows scaled back."""
    rows = b"".join(map(binascii.a2b_base64, built.VECTORS))
    vectors = numpy.frombuffer(rows, numpy.int8).reshape(-1, built.DIM)
    scales = numpy.array(built.SCALES, dtype=numpy.float32)
    return numpy.multiply(vectors, scales[:, None], dtype=numpy.float32)


def _model_cosines(purpose: str) -> tuple[Any, float, float]:
    """The cosine of the purpose to every tool by the package's encoder, and the
    fusion weight and floor chosen for it; (None, ...) when the encoder is missing or
    fails (``_state["model why"]`` says why, and the first time a warning does)."""
    if "model" not in _state:
        _state["model"] = _load_model()
    loaded = _state["model"]
    if loaded is None:
        return None, DENSE_WEIGHT, COSINE_FLOOR
    encoder, vectors, built = loaded
    try:  # whatever the inference library raises; a query of another dimension
        query = encoder.embed([purpose], query=True)[0].reshape(vectors.shape[1])
        cosines = _state["numpy"].einsum("ij,j->i", vectors, query)
    except Exception as error:
        _state["model"] = None
        _model_missing(f"{built.ENCODER} failed", repr(error))
        return None, DENSE_WEIGHT, COSINE_FLOOR
    return cosines, built.WEIGHT, built.FLOOR


def _load_model() -> Any:
    """The encoder, the tools' vectors (float32) and ``_search_model``; or None."""
    try:
        built = importlib.import_module(f"{__package__}._search_model")
    except ImportError:  # method="model" asked of a package built without it
        _model_missing("not built", "the package was built without model mode")
        return None
    _encoder = importlib.import_module(f"{__package__}._encoder")
    # A snapshot in the Hugging Face hub's cache, else skillc's folder of the same
    # bytes (the pins tell): only a snapshot needs the build's spec.
    folder, spec = _encoder.snapshot(built.HUB), built.SPEC
    if not (built.HUB and folder.is_dir()):
        folder, spec = _encoder.locate(built.ENCODER, Path(__file__).parent), None
    if folder is None:
        _model_missing(f"{built.ENCODER} is not installed", built.FETCH)
        return None
    try:  # its pinned files checked first: once per process
        encoder = _encoder.Encoder(folder, built.FILES, spec)
    except ImportError as error:
        extra = f"pip install 'skillc[{built.EXTRA}]'" if built.EXTRA else "pip install"
        _model_missing(f"{error.name or error} is not installed", extra)
        return None
    except _encoder.Corrupt as error:
        _model_missing(f"{built.ENCODER} is corrupt", f"{error}; {built.FETCH}")
        return None
    except Exception as error:  # a broken folder, a library's own error
        _model_missing(f"{built.ENCODER} cannot be loaded", repr(error))
        return None
    if encoder.model != built.MODEL:
        _model_missing(
            f"{built.ENCODER} is another version",
            f"{encoder.model} is installed, the tools were built with {built.MODEL}",
        )
        return None
    numpy = _state["numpy"] = encoder.numpy
    return encoder, _vectors(numpy, built), built


def _model_missing(why: str, detail: str) -> None:
    """Said in each result's reason (``why``), and once as a warning, with ``detail``
    (how to install it, or the error)."""
    _state["model why"] = why
    warnings.warn(
        f"find_tool ranks without its encoder: {why} ({detail})",
        RuntimeWarning,
        stacklevel=5,
    )


def _say(why: str) -> None:
    warnings.warn(f"find_tool ranks lexically: {why}", RuntimeWarning, stacklevel=4)


def _match(index: int, relevance: float, found: Found, mode: str = "") -> Match:
    """The ``index``-th tool as a match; its twins, returned in its place, named in
    its ``reason``."""
    if "names" not in _state:
        _state["names"] = _names()
    tools, sources, providers = _state["names"]
    name = tools[index]
    reason = _reason(found.matched(index)) or "semantic"
    twins = [tools[twin] for twin in found.index.twins_of(index)]
    if twins:
        more = f" and {len(twins) - TWINS_NAMED:,} more" * (len(twins) > TWINS_NAMED)
        reason += f"; the same tool as {', '.join(twins[:TWINS_NAMED])}{more}"
    return Match(
        name,
        round(relevance, 3),
        f"{mode}: {reason}" if mode else reason,
        f"{__package__}.{name}",
        sources.get(name, name),
        providers.get(name, {}),
    )


def _names() -> tuple[list[str], dict[str, str], dict[str, dict[str, str]]]:
    """The index's tools, and each one's source name and provider names."""
    from ._index import SOURCE_NAMES
    from ._names import DOTTED, FLAT
    from ._providers import NAME_FORMS
    from ._search_index import TOOLS

    sources = {}
    for line in SOURCE_NAMES:
        dotted, _, source = line.partition("\t")
        sources[dotted] = source
    dotted_names = {path: name for name, path in DOTTED.items()}
    providers = {}
    for flat, path in FLAT.items():
        forms = {"flat": flat, "dotted": dotted_names[path]}
        providers[path] = {name: forms[f] for name, f in NAME_FORMS.items()}
    return TOOLS, sources, providers


def _reason(matched: list[tuple[float, str, str]]) -> str:
    by_field: dict[str, list[str]] = {}
    for _, term, field in sorted(matched, key=lambda m: (-FIELDS[m[2]], -m[0])):
        found = by_field.setdefault(FIELD_NAMES[field], [])
        if term.lstrip("=") not in found:
            found.append(term.lstrip("="))
    return "; ".join(
        f"{field}: {', '.join(found[:4])}" for field, found in by_field.items()
    )
