"""What the build writes by hand gives what the slower code it replaced gave, on the
real corpora of ../shared/corpus (every skill, plugin and function definition, built
once):

- each tool's module, written directly, against the Jinja templates it replaced
  (tests/oracles/);
- each vector, summed by numpy along the rows, against the running sum it replaced;
- the provider files, which share each tool's schema, never change it.
"""

from __future__ import annotations

import copy
import functools
import math
from pathlib import Path
from typing import Any

import black
import jinja2
import numpy
import pytest

from conftest import TESTS
from corpus_rates import CORPUS, build, lay_out
from skillc.diagnostics import Report
from skillc.config import Config
from skillc.emitters import provider_files, python_package, render, search_index
from skillc.views import TaskModule, ToolView

pytestmark = pytest.mark.skipif(
    not CORPUS.is_dir(), reason="../shared/corpus is not beside this checkout"
)


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    project = tmp_path_factory.mktemp("corpus")
    lay_out(project)
    return project


@pytest.fixture(scope="module")
def views(corpus: Path) -> list[ToolView]:
    """Every tool view (with its module data) a build of the whole corpus made, in this
    process."""
    seen: list[ToolView] = []
    original = python_package.tool_module

    def recording(view: ToolView, *layout: Any) -> str:
        seen.append(view)
        return original(view, *layout)

    patch = pytest.MonkeyPatch()
    patch.setattr(python_package, "tool_module", recording)
    try:
        build(corpus)
    finally:
        patch.undo()
    kinds = {view.kind for view in seen}
    assert len(seen) > 1000 and {"skill", "agent", "tool"} <= kinds, kinds
    return seen


@functools.cache
def _oracles() -> jinja2.Environment:
    """The build's Jinja environment reading tests/oracles/, made once: Jinja caches a
    compiled template per loader, so an overlay a view compiled both templates anew."""
    return render.environment().overlay(
        loader=jinja2.FileSystemLoader(TESTS / "oracles")
    )


def _old_module(view: ToolView) -> str:
    """The module as the Jinja templates wrote it, through black when it had a line
    too long."""
    body = view.body
    assert body is not None
    name = "task" if isinstance(body, TaskModule) else "callable"
    text = (
        _oracles()
        .get_template(f"{name}_tool.py.jinja")
        .render(
            header=python_package.HEADER.format(source=f" from {view.source.path}"),
            dots="." * (len(view.namespace) + 1),
            tool=body,
        )
    )
    if isinstance(body, TaskModule) or not body.needs_black:
        return text
    mode = black.Mode(
        line_length=88, string_normalization=True, magic_trailing_comma=True
    )
    return black.format_str(text, mode=mode)


def test_tool_modules_are_the_old_bytes(views: list[ToolView]) -> None:
    """Written directly, and only the lines too long given to black."""
    blacked = 0
    for view in views:
        assert python_package.tool_module(view) == _old_module(view), view.qualname
        blacked += not isinstance(view.body, TaskModule) and view.body.needs_black  # type: ignore[union-attr]
    assert blacked > 20  # the corpus has long annotations to split


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
    config = Config(Path("."), sources=("corpus",), package="generated")
    first = provider_files.emit(offered, config, Report(), {})
    assert [dict(view.input_schema) for view in offered] == before
    assert provider_files.emit(offered, config, Report(), {}) == first
