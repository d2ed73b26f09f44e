"""The find_tool evaluation (tests/eval/find_tool.yaml), shared by its test and the bench:
recall@1, recall@3 and MRR of ``find_tool`` beside a plain BM25 baseline (one field, no
stemming, no synonyms, no field weights) over the same tool texts, in the same process.
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
import io
import math
import shutil
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from generator import build, cache, cli, config, discover
from generator.diagnostics import Report
from generator.emitters import search_index
from generator.ir import Model

TESTS = Path(__file__).resolve().parent
REPO = TESTS.parent
EVAL = TESTS / "eval" / "find_tool.yaml"
FUNCTIONS = REPO.parent / "shared" / "corpus" / "functions"

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


def _catalogue(name: str, project: Path, pairs: list[list[str]]) -> Catalogue:
    package = f"{name}_catalogue"
    with contextlib.redirect_stderr(io.StringIO()) as err:
        status = cli.main(
            ["-C", str(project), "build", "--package", package, "--out", package]
        )
    assert status == 0, err.getvalue()
    sys.path.insert(0, str(project))
    module = importlib.import_module(package)
    return Catalogue(
        name, module, model_of(project, package), [(p, e) for p, e in pairs]
    )


def model_of(project: Path, out: str) -> Model:
    """The intermediate model of a project, built in this process."""
    cfg = config.load(project.resolve(), out=out)
    report = Report()
    found = discover.discover(cfg.source_dirs(), cfg.root, cfg.out_dir, report)
    _, hashes = cache.inputs_key(found, cfg.root, cfg.as_json())
    return build.compile_model(cfg, report, found, hashes, cache.Memo())


def bm25(model: Model) -> Finder:
    """Plain BM25 over each tool's whole text: the baseline to beat."""
    terms = search_index.runtime().terms
    docs = []
    for tool in model.tools:
        words = terms(" ".join(search_index.fields(tool).values()), stemmed=False)
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


def measure(find: Finder, pairs: list[tuple[str, str]]) -> tuple[float, float, float]:
    """recall@1, recall@3 and mean reciprocal rank (within the top 10)."""
    hits1 = hits3 = 0
    reciprocal = 0.0
    for purpose, expected in pairs:
        ranked = find(purpose, 10)
        if expected in ranked:
            rank = ranked.index(expected) + 1
            hits1 += rank == 1
            hits3 += rank <= 3
            reciprocal += 1 / rank
    count = len(pairs)
    return hits1 / count, hits3 / count, reciprocal / count


def find_tool(catalogue: Catalogue) -> Finder:
    def find(purpose: str, k: int) -> list[str]:
        return [match.name for match in catalogue.package.find_tool(purpose, k)]

    return find
