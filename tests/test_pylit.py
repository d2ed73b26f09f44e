"""Literals and docstrings: any text gives valid, inert Python that black leaves as it is."""

from __future__ import annotations

import ast

import black
from hypothesis import given, settings
from hypothesis import strategies as st

from skillc.views import pylit

MODE = black.Mode(target_versions={black.TargetVersion.PY311})
texts = st.text(
    alphabet=st.characters(blacklist_categories=("Cs",)), max_size=300
) | st.sampled_from(
    ['"""', "'''", "\\", 'a"', "it's", "\\'", '"\'"', "x\n" * 50, "\r\n\t\x00"]
)


def black_stable(source: str) -> bool:
    return black.format_str(source, mode=MODE) == source


@settings(max_examples=300, deadline=None)
@given(texts)
def test_pystr_round_trips_and_is_black_stable(text: str) -> None:
    literal = pylit.pystr(text)
    assert ast.literal_eval(literal) == text
    assert black_stable(f"x = [\n    {literal},\n]\n")


@settings(max_examples=300, deadline=None)
@given(
    st.text(alphabet="ab \n\"'\\", max_size=400),
    st.sampled_from(["X", "_INSTRUCTIONS", "A_LONGER_TARGET_NAME"]),
)
def test_pyassign_round_trips_and_is_black_stable(text: str, target: str) -> None:
    source = pylit.pyassign(target, text) + "\n"
    namespace: dict[str, object] = {}
    exec(compile(source, "<test>", "exec"), namespace)
    assert namespace[target] == text
    assert black_stable(source), source


@settings(max_examples=300, deadline=None)
@given(texts)
def test_pydoc_is_inert_and_black_stable(text: str) -> None:
    source = f"def f() -> None:\n    {pylit.pydoc(text)}\n"
    tree = ast.parse(source)
    function = tree.body[0]
    assert (
        isinstance(function, ast.FunctionDef) and len(function.body) == 1
    )  # only the docstring
    assert black_stable(source), source


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.text(max_size=90), max_size=3), st.integers(min_value=0, max_value=60)
)
def test_pytuple_is_black_stable(items: list[str], pad: int) -> None:
    name = "k" * (pad + 1)
    source = f"x = f(\n    {name}={pylit.pytuple(items, '    ', name + '=')},\n)\n"
    assert black_stable(source), source
    call = ast.parse(source).body[0].value  # type: ignore[attr-defined]
    assert ast.literal_eval(call.keywords[0].value) == tuple(items)


def test_pycomment_cannot_end_the_comment() -> None:
    source = pylit.pycomment("line one\nimport os; os.system('id')\r\nthree") + "\n"
    assert all(line.startswith("#") for line in source.splitlines())
    assert ast.parse(source).body == []


def _pystr_by_repr(text: str) -> str:
    """pystr as it was before its fast paths: always from repr."""
    literal = repr(text)
    if literal[0] == '"':
        return literal
    body = literal[1:-1]
    double = body.replace("\\'", "'").replace('"', '\\"')
    return literal if double.count("\\") > body.count("\\") else f'"{double}"'


def _doc_escape_by_char(line: str) -> str:
    """_doc_escape as it was before its fast path: character by character."""
    out = [
        char if char.isprintable() or char == "\t" else repr(char)[1:-1]
        for char in line.replace("\\", "\\\\")
    ]
    return "".join(out).replace('"""', '\\"\\"\\"')


@settings(max_examples=500, deadline=None)
@given(texts | st.text(alphabet="ab \n\"'\\\té\x00", max_size=40))
def test_fast_paths_write_what_repr_did(text: str) -> None:
    assert pylit.pystr(text) == _pystr_by_repr(text)
    for line in [text, *text.splitlines(keepends=True)]:
        assert pylit.pystr(line) == _pystr_by_repr(line)
        assert pylit._doc_escape(line) == _doc_escape_by_char(line)
