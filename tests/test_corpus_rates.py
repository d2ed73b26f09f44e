"""Every real source of ../shared/corpus at once (skipped when it is absent): skills and
plugins as they are, each functions/*.json in tool manifests of 200. Every skill and
subagent compiles, at least 99% of function definitions do, anything left out is
reported with an error of its own, and the package imports and passes mypy --strict."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from conftest import run_mypy, run_python
from corpus_rates import CORPUS, Rate, build, count, lay_out

pytestmark = pytest.mark.skipif(
    not CORPUS.is_dir(), reason="../shared/corpus is not beside this checkout"
)


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Rate], str]:
    project = tmp_path_factory.mktemp("all-corpora")
    totals = lay_out(project)
    _, err = build(project)
    return project, count(project, totals), err


def test_compile_rates_meet_the_targets(
    corpus: tuple[Path, list[Rate], str],
) -> None:
    _, rates, err = corpus
    assert {rate.kind for rate in rates} >= {"skills", "subagents", "functions"}
    for rate in rates:
        goal = 0.99 if rate.kind == "functions" else 1.0
        assert rate.ratio >= goal, (rate, err[-3000:])


def test_what_is_left_out_is_reported_alone(
    corpus: tuple[Path, list[Rate], str],
) -> None:
    _, rates, err = corpus
    missing = sum(rate.total - rate.compiled for rate in rates)
    errors = [line for line in err.splitlines() if " error[" in line]
    located = re.compile(r"^corpus/[^:]+:\d+:\d+: error\[[a-z-]+\]: ")
    assert all(located.match(line) for line in errors), errors[:5]
    assert len(errors) >= missing


def test_the_package_imports_and_passes_mypy_strict(
    corpus: tuple[Path, list[Rate], str],
) -> None:
    project, rates, _ = corpus
    result = run_python("import generated; print(len(generated.list()))", project)
    assert result.returncode == 0, result.stderr
    assert int(result.stdout) >= sum(rate.compiled for rate in rates)
    result = run_mypy(project, "generated")
    assert result.returncode == 0, result.stdout[-3000:]
