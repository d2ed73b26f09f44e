"""The find_tool evaluations, shared by their tests and the bench.

- ``tests/eval/find_tool.yaml``: purposes this project wrote over its own tools and two
  corpus catalogues (self-written: they reuse the descriptions' words).
- ``tests/eval/find_tool_heldout.yaml``: purposes written as users ask, over catalogues
  others wrote (``../shared/corpus/functions`` and ``../shared/corpus/plugins``), split
  into a dev part (tuned on) and a test part (reported by ``nox -s bench``).

Each ranking is measured beside a plain BM25 baseline (one field, no stemming, no
synonyms, no field weights) over the same tool texts, in the same process.
"""

from __future__ import annotations

import contextlib
import fnmatch
import importlib
import importlib.util
import io
import math
import re
import shutil
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from skillc import cli, pipeline
from skillc.views import builder
from skillc.diagnostics import Report
from skillc.emitters import search_index
from skillc.ir import Model

TESTS = Path(__file__).resolve().parent
REPO = TESTS.parent
EVAL = TESTS / "eval" / "find_tool.yaml"
FUNCTIONS = REPO.parent / "shared" / "corpus" / "functions"
HELDOUT = TESTS / "eval" / "find_tool_heldout.yaml"
PLUGINS = REPO.parent / "shared" / "corpus" / "plugins"

Finder = Callable[[str, int], list[str]]


@dataclass
class Catalogue:
    name: str
    package: Any  # the generated package, imported
    model: Model
    pairs: list[tuple[str, str]]


def catalogues(tmp: Path) -> list[Catalogue]:
    """The repo's own tools, and (when ../shared is there) the corpus's 517."""
    pairs = yaml.safe_load(EVAL.read_text(encoding="utf-8"))
    repo = tmp / "repo_tools"
    repo.mkdir(parents=True)
    shutil.copytree(REPO / "skills", repo / "skills")
    shutil.copy(REPO / "pyproject.toml", repo / "pyproject.toml")
    result = [_catalogue("repo", repo, pairs["repo"])]
    if FUNCTIONS.is_dir():
        from corpus_functions import write_manifests

        corpus = tmp / "corpus_tools"
        (corpus / "skills").mkdir(parents=True)
        counter = "o200k_base" if importlib.util.find_spec("bpe_openai") else "estimate"
        (corpus / "pyproject.toml").write_text(
            '[tool.skillc]\nsources = ["skills"]\nmax-namespace-depth = 5\n'
            f'token-counter = "{counter}"\n'
        )
        write_manifests(corpus / "skills")
        result.append(_catalogue("corpus", corpus, pairs["corpus"]))
    return result


@dataclass(frozen=True)
class Purpose:
    text: str
    answers: tuple[str, ...]  # fnmatch patterns of every tool that serves it
    hard: bool
    lang: str


def heldout(part: str) -> list[Purpose]:
    """The held-out purposes of one part, "dev" or "test"."""
    entries = yaml.safe_load(HELDOUT.read_text(encoding="utf-8"))[part]
    return [
        Purpose(
            e["purpose"], tuple(e["answers"]), e.get("hard", False), e.get("lang", "en")
        )
        for e in entries
    ]


def heldout_catalogue(tmp: Path, encoder: str | None = None) -> Catalogue:
    """Every catalogue of ../shared/corpus/functions and the plugins of
    ../shared/corpus/plugins, in one package (the few plugin scripts skillc rejects are
    left out with --keep-going); with ``encoder``, built in model mode with it. A
    project already in ``tmp`` is built again with its cache (the model vectors)."""
    from corpus_functions import ALL_SOURCES, write_manifests

    name = "heldout" + (f"_{re.sub(r'[^a-z0-9]', '_', encoder)}" if encoder else "")
    project = tmp / f"{name}_tools"
    shutil.rmtree(project / "skills", ignore_errors=True)
    (project / "skills").mkdir(parents=True)
    (project / "pyproject.toml").write_text(
        '[tool.skillc]\nsources = ["skills"]\nmax-namespace-depth = 5\n'
        + (f'find-tool = "model"\nfind-tool-encoder = "{encoder}"\n' if encoder else "")
    )
    write_manifests(project / "skills", ALL_SOURCES)
    shutil.copytree(PLUGINS, project / "skills" / "plugins")
    return _catalogue(name, project, [], keep_going=True)


def distracted_catalogue(tmp: Path, size: int, encoder: str | None = None) -> Catalogue:
    """The held-out catalogue grown to ``size`` tools with real distractors: the
    definitions of ../shared/corpus/functions that serve no held-out purpose (dev or
    test), copied in turn into namespaces x000, x001, ... (200 to a manifest) until the
    package has ``size`` tools. A copy of an answer would tie with it, so none is made.
    Every distractor is a copy: the folder holds 874 definitions (858 distinct by name
    and description), all in the base catalogue already, 631 names of them serve no
    purpose; at 5,000 tools 3,641 tools are copies (find_tool returns one tool of each
    group of twins, so a copy crowds out no other tool; the best-ranked copy of a group
    still competes). With ``encoder``, in model mode with it.
    """
    from corpus_functions import ALL_SOURCES, _identifier, definitions

    base = heldout_catalogue(tmp, encoder)
    purposes = heldout("dev") + heldout("test")
    wanted = [a.split(".", 1)[-1] for p in purposes for a in p.answers]
    pool = {  # one of each name: a manifest holds a name once
        _identifier(item["name"]): item
        for items in definitions(ALL_SOURCES).values()
        for item in items
        if not any(fnmatch.fnmatchcase(_identifier(item["name"]), w) for w in wanted)
    }
    name = base.name.replace("heldout", f"heldout_{size}")
    project = tmp / f"{name}_tools"
    shutil.copytree(tmp / f"{base.name}_tools", project, dirs_exist_ok=True)
    shutil.rmtree(project / "generated", ignore_errors=True)
    missing = size - len(base.model.tools)
    for number in range(0, missing, 200):
        tools = [
            {
                "name": item["name"],
                "description": item.get("description") or "(no description)",
                "parameters": item.get("parameters", item.get("inputSchema")),
                "executor": {"type": "http", "url": "https://example.com/call"},
            }
            for item in _cycle(list(pool.values()), number, min(200, missing - number))
        ]
        folder = project / "skills" / f"x{number // 200:03d}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "tool-manifest.yaml").write_text(
            yaml.safe_dump({"namespace": folder.name, "tools": tools}, sort_keys=False),
            encoding="utf-8",
        )
    return _catalogue(name, project, [], keep_going=True)


def _cycle(pool: list[Any], start: int, count: int) -> list[Any]:
    """``count`` items of ``pool`` from ``start`` on, going round; none twice in one
    manifest (the pool is larger than one)."""
    return [pool[(start + i) % len(pool)] for i in range(count)]


def rank_of(ranked: list[str], answers: tuple[str, ...]) -> int | None:
    """The 1-based rank of the first tool that serves the purpose, if any does."""
    for rank, name in enumerate(ranked, 1):
        if any(fnmatch.fnmatchcase(name, pattern) for pattern in answers):
            return rank
    return None


def scores(find: Finder, purposes: list[Purpose]) -> dict[str, float]:
    """recall@1, @3, @10 and MRR (within the top 10)."""
    ranks = [rank_of(find(p.text, 10), p.answers) for p in purposes]
    count = len(purposes)
    result = {
        f"recall@{k}": sum(1 for r in ranks if r is not None and r <= k) / count
        for k in (1, 3, 10)
    }
    result["MRR"] = sum(1 / r for r in ranks if r is not None) / count
    return result


def content_words(text: str) -> set[str]:
    terms = search_index.runtime().terms
    return {t for t in terms(text) if not t.startswith("=") and len(t) > 2}


def overlap_shares(model: Model, purposes: list[Purpose]) -> tuple[float, float]:
    """How much the purposes borrow from their targets' descriptions: the share of
    purposes at least half of whose content words occur in an answer's description,
    and the share that shares any content word with one."""
    texts = {tool.qualname: tool.definition.description for tool in model.tools}
    half = anyone = 0
    for purpose in purposes:
        words = content_words(purpose.text)
        shared = 0
        for name, description in texts.items():
            if any(fnmatch.fnmatchcase(name, a) for a in purpose.answers):
                shared = max(shared, len(words & content_words(description)))
        half += bool(words) and shared * 2 >= len(words)
        anyone += shared > 0
    return half / len(purposes), anyone / len(purposes)


def _catalogue(
    name: str, project: Path, pairs: list[list[str]], keep_going: bool = False
) -> Catalogue:
    package = f"{name}_catalogue"
    command = ["-C", str(project), "build", "--package", package, "--out", package]
    with contextlib.redirect_stderr(io.StringIO()) as err:
        status = cli.main(command + ["--keep-going"] * keep_going)
    assert status == 0 or keep_going and status == 1, err.getvalue()
    sys.path.insert(0, str(project))
    module = importlib.import_module(package)
    return Catalogue(
        name, module, model_of(project, package), [(p, e) for p, e in pairs]
    )


def model_of(project: Path, out: str) -> Model:
    """The intermediate model of a project, built in this process."""
    cfg = pipeline.configure(project.resolve(), False, out=out)[0]
    model = pipeline.run(cfg, Report(), cached=False, emit=False).model
    assert model is not None
    return model


def bm25(model: Model) -> Finder:
    """Plain BM25 over each tool's whole text: the baseline to beat."""
    terms = search_index.runtime().terms
    docs = []
    for tool in model.tools:
        words = terms(" ".join(builder.search_fields(tool).values()), stemmed=False)
        counts: dict[str, int] = {}
        for word in words:
            counts[word] = counts.get(word, 0) + 1
        docs.append((tool.qualname, counts, len(words)))
    average = sum(length for _, _, length in docs) / len(docs)
    frequency: dict[str, int] = {}
    for _, counts, _ in docs:
        for word in counts:
            frequency[word] = frequency.get(word, 0) + 1

    def find(purpose: str, k: int) -> list[str]:
        query = terms(purpose, stemmed=False)
        scores = []
        for name, counts, length in docs:
            score = 0.0
            for word in query:
                tf = counts.get(word, 0)
                if tf:
                    n = frequency[word]
                    idf = math.log(1 + (len(docs) - n + 0.5) / (n + 0.5))
                    score += (
                        idf * tf * 2.2 / (tf + 1.2 * (0.25 + 0.75 * length / average))
                    )
            if score > 0:
                scores.append((-score, name))
        return [name for _, name in sorted(scores)[:k]]

    return find


def rank_bm25(model: Model) -> Finder:
    """rank_bm25's BM25Okapi over each tool's whole text (as ``bm25`` splits it): the
    library a user would reach for, for the speed figures."""
    from rank_bm25 import BM25Okapi

    terms = search_index.runtime().terms
    names = [tool.qualname for tool in model.tools]
    texts = [" ".join(builder.search_fields(tool).values()) for tool in model.tools]
    index = BM25Okapi([terms(text, stemmed=False) for text in texts])

    def find(purpose: str, k: int) -> list[str]:
        found: list[str] = index.get_top_n(terms(purpose, stemmed=False), names, n=k)
        return found

    return find


def measure(
    find: Finder, pairs: list[tuple[str, str]]
) -> tuple[float, float, float, float]:
    """recall@1, recall@3, recall@10 and mean reciprocal rank (within the top 10)."""
    hits1 = hits3 = hits10 = 0
    reciprocal = 0.0
    for purpose, expected in pairs:
        ranked = find(purpose, 10)
        if expected in ranked:
            rank = ranked.index(expected) + 1
            hits1 += rank == 1
            hits3 += rank <= 3
            hits10 += 1
            reciprocal += 1 / rank
    count = len(pairs)
    return hits1 / count, hits3 / count, hits10 / count, reciprocal / count


def method(catalogue: Catalogue, name: str) -> Finder:
    """The package's own ranking by one method: "lexical", "dense" or "hybrid"."""
    search = importlib.import_module(f"{catalogue.package.__name__}._search")

    def find(purpose: str, k: int) -> list[str]:
        return [match.name for match in search.find(purpose, k, method=name)]

    return find


def find_tool(catalogue: Catalogue) -> Finder:
    def find(purpose: str, k: int) -> list[str]:
        return [match.name for match in catalogue.package.find_tool(purpose, k)]

    return find


def main() -> None:
    """``python tests/find_eval.py [SIZE ...]``: the default mode's recall@1/@3/@10 and
    MRR on the held-out dev and test parts, at the catalogue's size and grown with
    distractors to each SIZE."""
    import tempfile

    sizes = [int(size) for size in sys.argv[1:]] or [2000, 5000]
    with tempfile.TemporaryDirectory() as tmp:
        found = [heldout_catalogue(Path(tmp))]
        found += [distracted_catalogue(Path(tmp), size) for size in sizes]
        for part in ("dev", "test"):
            purposes = heldout(part)
            for catalogue in found:
                figures = scores(find_tool(catalogue), purposes)
                shown = "  ".join(f"{k} {v:.3f}" for k, v in figures.items())
                count = len(catalogue.model.tools)
                print(f"{part:<5}{count:>6} tools  {shown}", flush=True)


if __name__ == "__main__":
    sys.path.insert(0, str(TESTS))
    main()
