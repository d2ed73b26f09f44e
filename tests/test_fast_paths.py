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
from typing import Any

import jinja2
import numpy
import pytest

from conftest import TESTS
from corpus_rates import CORPUS, build, lay_out
from generator.diagnostics import Report
from generator.emitters import (
    provider_files,
    python_package,
    render,
    search_index,
    search_words,
    tool_modules,
)
from generator.views import TaskModule, ToolView

pytestmark = pytest.mark.skipif(
    not CORPUS.is_dir(), reason="../shared/corpus is not beside this checkout"
)


@pytest.fixture(scope="module")
def views(tmp_path_factory: pytest.TempPathFactory) -> list[ToolView]:
    """Every tool view (with its module data) a build of the whole corpus made."""
    project = tmp_path_factory.mktemp("corpus")
    lay_out(project)
    seen: list[ToolView] = []
    original = python_package.tool_module

    def recording(view: ToolView, layout: Any) -> str:
        seen.append(view)
        return original(view, layout)

    patch = pytest.MonkeyPatch()
    patch.setattr(python_package, "tool_module", recording)
    try:
        build(project)
    finally:
        patch.undo()
    kinds = {view.kind for view in seen}
    assert len(seen) > 1000 and {"skill", "agent", "tool"} <= kinds, kinds
    return seen


def _jinja(view: ToolView) -> str:
    """The module as the Jinja templates wrote it (before any black pass)."""
    body = view.body
    assert body is not None
    name = "task" if isinstance(body, TaskModule) else "callable"
    environment = render.environment().overlay(
        loader=jinja2.FileSystemLoader(TESTS / "oracles")
    )
    return environment.get_template(f"{name}_tool.py.jinja").render(
        header=python_package.HEADER.format(source=f" from {view.source.path}"),
        dots="." * (len(view.namespace) + 1),
        tool=body,
    )


def test_tool_modules_are_the_templates_bytes(views: list[ToolView]) -> None:
    for view in views:
        body = view.body
        header = python_package.HEADER.format(source=f" from {view.source.path}")
        dots = "." * (len(view.namespace) + 1)
        if isinstance(body, TaskModule):
            direct = tool_modules.task(body, header, dots)
        else:
            assert body is not None
            direct = tool_modules.callable_(body, header, dots)
        assert direct == _jinja(view), view.qualname


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
        text = search_index.embed_text(view)
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
        text = search_index.embed_text(view)
        assert search_index.vector(table, text) == _old_vector(table, text)


def test_provider_files_leave_the_shared_schema_alone(views: list[ToolView]) -> None:
    """Each provider file builds what it changes anew: after every file's line, the
    schema is what it was, and a second pass writes the same lines."""
    for view in views:
        before = copy.deepcopy(dict(view.input_schema))
        first = provider_files.fragment(view)
        assert dict(view.input_schema) == before, view.qualname
        assert provider_files.fragment(view) == first, view.qualname
