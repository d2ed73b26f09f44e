"""find_tool's index as numbers (issue 45): what the build writes is what a query reads,
a large catalogue's commonest words have no postings, and a small catalogue's rankings
are those of the text index that came before (tests/data/find_rankings.json, written by
7936fa8's find_tool)."""

from __future__ import annotations

import contextlib
import importlib
import io
import json
import shutil
import sys
import types
from pathlib import Path
from typing import Any

import pytest

from conftest import FIXTURES, template_module
from skillc import cli
from skillc.emitters import search_index

RANKINGS = Path(__file__).resolve().parent / "data" / "find_rankings.json"
PURPOSES = (
    "read a file and show its lines",
    "insert rows into the database",
    "what is the weather in Paris",
    "extract the text of a pdf",
    "weather.current",
    "delete everything",
    "zzzz qqqq",
)


def view(number: int, description: str) -> Any:
    """What the index reads of a tool: its name, fields' texts and name forms."""
    qualname = f"ns.tool_{word(number)}"
    return types.SimpleNamespace(
        qualname=qualname,
        search_fields={"n": qualname.split(".")[-1], "s": "ns", "d": description},
        name_forms=(qualname,),
    )


def word(number: int) -> str:
    """A word of its own for each number, which no stemming changes ("qnlmk")."""
    return "q" + "".join("klmnoprtuv"[int(d)] for d in f"{number:04d}")


def loaded(views: list[Any]) -> tuple[dict[str, Any], Any]:
    """The index the build writes for ``views``, run, and the runtime's reading of it."""
    namespace: dict[str, Any] = {}
    exec(search_index.index(tuple(views), "lexical"), namespace)
    lexical = template_module("_lexical")
    return namespace, lexical.Index(types.SimpleNamespace(**namespace))


def postings(index: Any, term: str) -> dict[int, tuple[float, str]]:
    at = index.terms.index(term)
    span = range(index.starts[at], index.starts[at + 1])
    return {index.docs[i]: (index.tfs[i] / 10, index.fields[i]) for i in span}


def test_the_arrays_read_back_as_each_tools_weighted_terms() -> None:
    views = [
        view(0, "Reads a file from disk."),
        view(1, "Writes rows to a database table, row by row."),
        view(2, "Deletes a file."),
    ]
    built, index = loaded(views)
    expected: dict[str, dict[int, tuple[float, str]]] = {}
    for number, tool in enumerate(views):
        _, terms, tfs, best = search_index.weigh(tool)
        for term, tf, field in zip(terms, tfs, best):
            expected.setdefault(term, {})[number] = (tf / 10, field)
    assert index.terms == sorted(expected)
    assert {term: postings(index, term) for term in index.terms} == expected
    assert built["TOOLS"] == [t.qualname for t in views]
    assert built["STOP"] == ""  # a small catalogue has no stop words
    k1, b = template_module("_lexical").K1, template_module("_lexical").B
    average = built["AVERAGE"]
    assert index.norms == [
        k1 * (1 - b + b * search_index.weigh(tool)[0] / average) for tool in views
    ]
    assert isinstance(built["DOCS"], str) and isinstance(built["TFS"], str)


def test_words_in_most_tools_of_a_large_catalogue_have_no_postings() -> None:
    count = search_index.STOP_TOOLS
    views = [view(i, f"common {word(i)} {word(i % 7)}") for i in range(count)]
    built, index = loaded(views)
    # In every tool: "common", the namespace and the word of every name.
    assert built["STOP"].split() == ["common", "ns", "tool"]
    assert "common" not in index.terms
    assert len(postings(index, word(3))) == len(range(3, count, 7))  # 14%: kept
    found = template_module("_lexical").Found
    # A stop word neither matches a tool nor counts in the score of a full fit.
    assert found(index, "common").relevance() == {}
    both, alone = found(index, f"common {word(505)}"), found(index, word(505))
    assert both.relevance() == alone.relevance()
    assert max(alone.relevance(), key=alone.relevance().get) == 505
    assert both.matched(505) == alone.matched(505)
    # One tool fewer: no stop list, the word posts in every tool.
    _, smaller = loaded(views[:-1])
    assert len(postings(smaller, "common")) == count - 1


def rankings(package: Any) -> list[str]:
    """Every method's ranking of PURPOSES, as text: name, relevance and reason."""
    search = importlib.import_module(f"{package.__name__}._search")
    lines = []
    for method in ("lexical", "dense", "hybrid"):
        for purpose in PURPOSES:
            for match in search.find(purpose, 10, method=method):
                lines.append(
                    f"{method} | {purpose} | {match.name} {match.relevance}"
                    f" | {match.reason}"
                )
    return lines


def built(fixture: str, folder: Path) -> Any:
    """tests/fixtures/<fixture> built into a package of its own, imported."""
    package = f"ranked_{fixture}"
    project = folder / fixture
    shutil.copytree(FIXTURES / fixture, project)
    command = ["-C", str(project), "build", "--package", package, "--out", package]
    with contextlib.redirect_stderr(io.StringIO()) as err:
        assert cli.main(command) == 0, err.getvalue()
    sys.path.insert(0, str(project))
    try:
        return importlib.import_module(package)
    finally:
        sys.path.remove(str(project))


@pytest.mark.parametrize("fixture", ["tools", "project"])
def test_a_small_catalogue_ranks_as_the_text_index_did(
    tmp_path: Path, fixture: str
) -> None:
    found = rankings(built(fixture, tmp_path))
    expected = json.loads(RANKINGS.read_text(encoding="utf-8"))[fixture]
    assert len(found) > 30
    assert found == expected
