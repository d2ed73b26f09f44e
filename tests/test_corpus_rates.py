"""Every real source of ../shared/corpus at once, built once in this process (skipped when
it is absent): skills and plugins as they are, each functions/*.json in tool manifests of
200.

- Every skill and subagent compiles, at least 99% of function definitions do, anything
  left out is reported with an error of its own, and the package imports and passes mypy
  --strict.
- What the build writes by hand gives what the slower code it replaced gave: each vector,
  summed by numpy along the rows, against the running sum it replaced; the provider
  files, which share each tool's schema, never change it. Each tool's module that black
  laid out in parts is what black makes of it whole.

One file, so that one build of the whole corpus (the suite's costliest fixture) serves
both (under ``--dist loadfile`` two files would each build it).
"""

from __future__ import annotations

import copy
import math
import re
from pathlib import Path
from typing import Any

import black
import numpy
import pytest

from conftest import run_mypy, run_python
from corpus_rates import CORPUS, Rate, build, count, lay_out
from skillc import settings
from skillc.config import Config
from skillc.diagnostics import Report
from skillc.emitters import provider_files, python_package, search_index
from skillc.views import TaskModule, ToolView

pytestmark = pytest.mark.skipif(
    not CORPUS.is_dir(), reason="../shared/corpus is not beside this checkout"
)


@pytest.fixture(scope="module")
def corpus(
    tmp_path_factory: pytest.TempPathFactory,
) -> tuple[Path, list[Rate], str, list[ToolView]]:
    """The corpus built: its project, the compile rates, the build's stderr, and every
    tool view (with its module data) the build made, in this process."""
    project = tmp_path_factory.mktemp("all-corpora")
    totals = lay_out(project)
    seen: list[ToolView] = []
    original = python_package.tool_module

    def recording(view: ToolView, *layout: Any, **named: Any) -> str:
        seen.append(view)
        return original(view, *layout, **named)

    patch = pytest.MonkeyPatch()
    patch.setattr(python_package, "tool_module", recording)
    try:
        _, err = build(project)
    finally:
        patch.undo()
    return project, count(project, totals), err, seen


@pytest.fixture(scope="module")
def views(corpus: tuple[Path, list[Rate], str, list[ToolView]]) -> list[ToolView]:
    seen = corpus[3]
    kinds = {view.kind for view in seen}
    assert len(seen) > 1000 and {"skill", "agent", "tool"} <= kinds, kinds
    return seen


def test_compile_rates_meet_the_targets(
    corpus: tuple[Path, list[Rate], str, list[ToolView]],
) -> None:
    _, rates, err, _ = corpus
    assert {rate.kind for rate in rates} >= {"skills", "subagents", "functions"}
    for rate in rates:
        goal = 0.99 if rate.kind == "functions" else 1.0
        assert rate.ratio >= goal, (rate, err[-3000:])


def test_what_is_left_out_is_reported_alone(
    corpus: tuple[Path, list[Rate], str, list[ToolView]],
) -> None:
    _, rates, err, _ = corpus
    missing = sum(rate.total - rate.compiled for rate in rates)
    errors = [line for line in err.splitlines() if " error[" in line]
    located = re.compile(r"^corpus/[^:]+:\d+:\d+: error\[[a-z-]+\]: ")
    assert all(located.match(line) for line in errors), errors[:5]
    assert len(errors) >= missing


def test_the_package_imports_and_passes_mypy_strict(
    corpus: tuple[Path, list[Rate], str, list[ToolView]],
) -> None:
    project, rates, _, _ = corpus
    result = run_python("import generated; print(len(generated.list()))", project)
    assert result.returncode == 0, result.stderr
    assert int(result.stdout) >= sum(rate.compiled for rate in rates)
    result = run_mypy(project, "generated")
    assert result.returncode == 0, result.stdout[-3000:]


def test_modules_black_laid_out_in_parts_are_black_as_a_whole(
    views: list[ToolView],
) -> None:
    """A callable tool's module is rendered by its template, and only its parts too
    wide (its models, a parameter) are given to black: black leaves each such module,
    whole, as it is."""
    mode = black.Mode(line_length=88, string_normalization=True)
    laid_out = 0
    for view in views:
        body = view.body
        if isinstance(body, TaskModule):
            continue
        lines = [f"    {line}," for line in body.signature] + body.models.splitlines()
        if any(len(line) > 88 for line in lines):
            text = python_package.tool_module(view)
            assert black.format_str(text, mode=mode) == text, view.qualname
            laid_out += 1
    assert laid_out > 20  # the corpus has long annotations to split


def _old_vector(table: Any, text: str) -> tuple[bytes, float]:
    """``search_index.vector`` as it was: the rows scaled and added one by one."""
    ids = [i for i in table.tokenize(text) if i != table.tokenize.unknown]
    total = numpy.zeros(table.dim, dtype=numpy.float64)
    for i in ids[: search_index.VECTOR_TOKENS]:
        total += table.rows[i].astype(numpy.float64) * float(table.scales[i])
    norm = math.sqrt(math.fsum(float(x) * float(x) for x in total))
    if norm == 0:
        return bytes(table.dim), 0.0
    unit = total / norm
    scale = float(numpy.abs(unit).max()) / 127
    return numpy.rint(unit / scale).astype(numpy.int8).tobytes(), scale


def test_vectors_are_the_old_sums(views: list[ToolView]) -> None:
    table = search_index.load_table("hybrid", Report())
    assert table is not None
    texts = [search_index.embed_text(view) for view in views[::3]]
    for text in texts + ["", "[UNK] !!"]:
        assert search_index.vector(table, text) == _old_vector(table, text)


def test_provider_files_leave_the_shared_schema_alone(views: list[ToolView]) -> None:
    """Each provider file builds what it changes anew: after every file's line, the
    schema is what it was, and a second pass writes the same lines."""
    offered = tuple(view for view in views if view.offered and not view.schema_problem)
    before = [copy.deepcopy(dict(view.input_schema)) for view in offered]
    config = Config(Path("."), **settings.parse("").values)  # the defaults
    first = provider_files.emit(offered, config, Report(), {})
    assert [dict(view.input_schema) for view in offered] == before
    assert provider_files.emit(offered, config, Report(), {}) == first
