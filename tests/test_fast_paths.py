"""The cold build's fast paths give what the slower code they replaced gave, on the real
corpora of ../shared/corpus (every skill, plugin and function definition, built once):

- each tool's module, written directly, against the Jinja templates it replaced
  (tests/oracles/);
- the build's word splitting and token ids against the package's own ``_search`` and
  ``_embed`` (also on every Unicode code point), and each vector against the sum it
  replaced;
- the provider files, which now share each tool's schema, never change it.
"""

from __future__ import annotations

import copy
import math
import random
import shutil
from pathlib import Path
from typing import Any

import black
import jinja2
import numpy
import pytest

from conftest import TESTS, tree
from corpus_rates import CORPUS, build, lay_out
from generator.diagnostics import Report
from generator.resources import TABLE
from generator.emitters import (
    provider_files,
    python_package,
    render,
    search_index,
    search_words,
)
from generator.pipeline import parallel
from generator.views import TaskModule, ToolView

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

    def recording(view: ToolView) -> str:
        seen.append(copy.copy(view))  # the view itself loses its module data after
        return original(view)

    patch = pytest.MonkeyPatch()
    patch.setattr(python_package, "tool_module", recording)
    patch.setattr(parallel, "MIN_ITEMS", 1 << 30)
    try:
        build(corpus)
    finally:
        patch.undo()
    kinds = {view.kind for view in seen}
    assert len(seen) > 1000 and {"skill", "agent", "tool"} <= kinds, kinds
    return seen


def test_views_built_on_two_cores_are_the_same(
    corpus: Path, views: list[ToolView], tmp_path: Path
) -> None:
    """The corpus built again with its views split over two processes (when the
    machine has two cores) writes the same bytes."""
    alone = tree(corpus / "generated")
    shutil.rmtree(corpus / "generated")
    shutil.rmtree(corpus / ".skillc-cache", ignore_errors=True)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(parallel, "MIN_ITEMS", 2)
        build(corpus)
    assert tree(corpus / "generated") == alone


def _old_module(view: ToolView) -> str:
    """The module as the Jinja templates wrote it, through black when it had a line
    too long."""
    body = view.body
    assert body is not None
    name = "task" if isinstance(body, TaskModule) else "callable"
    environment = render.environment().overlay(
        loader=jinja2.FileSystemLoader(TESTS / "oracles")
    )
    text = environment.get_template(f"{name}_tool.py.jinja").render(
        header=python_package.HEADER.format(source=f" from {view.source.path}"),
        dots="." * (len(view.namespace) + 1),
        tool=body,
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


def test_search_terms_are_the_runtimes(views: list[ToolView]) -> None:
    search = search_index.runtime()
    texts = [text for view in views for text in view.search_fields.values()]
    rng = random.Random(17)
    alphabet = "aZ09_-. xYzHTTPServer\t/ésé中文"
    texts += ["".join(rng.choices(alphabet, k=rng.randint(0, 30))) for _ in range(3000)]
    for text in texts:
        assert search_words.terms(search, text) == search.terms(text), text


def _tokenizer() -> Any:
    table = search_index.load_table("hybrid", Report())
    assert table is not None
    return table.inner.tokenize


def test_token_ids_are_the_runtimes(views: list[ToolView]) -> None:
    embed = search_index.embedding()
    tokenizer = _tokenizer()
    for view in views:
        text = search_index.embed_text(view.qualname, view.search_fields["d"])
        assert search_words.token_ids(embed, tokenizer, text) == tokenizer(text)


def test_basic_words_on_every_code_point() -> None:
    """Each character is mapped alone, so one text per block of code points covers
    every mapping (the NFD both sides apply first is the same)."""
    embed = search_index.embedding()
    tokenizer = _tokenizer()
    for start in range(0, 0x110000, 0x1000):
        text = "a".join(chr(c) for c in range(start, start + 0x1000))
        assert search_words.token_ids(embed, tokenizer, text) == tokenizer(text)


def _old_vector(table: Any, text: str) -> tuple[bytes, float]:
    """``search_index.vector`` as it was: the rows scaled and added one by one."""
    inner = table.inner
    ids = [i for i in inner.tokenize(text) if i != inner.tokenize.unknown]
    total = numpy.zeros(table.dim, dtype=numpy.float64)
    for i in ids[: search_index.VECTOR_TOKENS]:
        total += inner.rows[i].astype(numpy.float64) * float(inner.scales[i])
    norm = math.sqrt(math.fsum(float(x) * float(x) for x in total))
    if norm == 0:
        return bytes(table.dim), 0.0
    unit = total / norm
    scale = float(numpy.abs(unit).max()) / 127
    return numpy.rint(unit / scale).astype(numpy.int8).tobytes(), scale


def test_vectors_are_the_old_sums(views: list[ToolView]) -> None:
    table = search_index.load_table("hybrid", Report())
    assert table is not None
    for view in views[::3]:
        text = search_index.embed_text(view.qualname, view.search_fields["d"])
        assert search_index.vector(table, text) == _old_vector(table, text)


def test_plain_vectors_are_numpys(views: list[ToolView]) -> None:
    """Every tool's vector summed in plain Python (a rebuild of a few tools) is, byte
    for byte, the one numpy sums (a cold build) and the old sum."""
    plain = search_index.Table(TABLE)
    with_numpy = search_index.Table(TABLE)
    with_numpy.prepare(search_index.FEW_VECTORS)
    texts = [
        search_index.embed_text(view.qualname, view.search_fields["d"])
        for view in views
    ] + ["", "[UNK] !!"]
    for text in texts:
        made = search_index.vector(plain, text)
        assert made == search_index.vector(with_numpy, text), text
        assert made == _old_vector(with_numpy, text), text
    assert "inner" not in plain.__dict__  # the plain path never loaded numpy's table


def test_provider_files_leave_the_shared_schema_alone(views: list[ToolView]) -> None:
    """Each provider file builds what it changes anew: after every file's line, the
    schema is what it was, and a second pass writes the same lines."""
    for view in views:
        before = copy.deepcopy(dict(view.input_schema))
        first = provider_files.fragment(view)
        assert dict(view.input_schema) == before, view.qualname
        assert provider_files.fragment(view) == first, view.qualname
