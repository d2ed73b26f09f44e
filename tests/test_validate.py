"""The generated packages' argument validator agrees with jsonschema (the reference
implementation) on whether a value is valid, for the keywords it implements."""

from __future__ import annotations

from typing import Any

import jsonschema
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import template_module

validate = template_module("_validate")

SCHEMAS: list[dict[str, Any]] = [
    {
        "type": "object",
        "properties": {
            "n": {"type": "integer", "minimum": 1, "exclusiveMaximum": 10},
            "x": {"type": ["number", "null"], "multipleOf": 0.5},
            "s": {
                "type": "string",
                "minLength": 1,
                "maxLength": 3,
                "pattern": "^[a-c]",
            },
            "e": {"enum": ["a", 1, None, True]},
            "c": {"const": [1, "a"]},
        },
        "required": ["n"],
        "additionalProperties": False,
    },
    {
        "type": "object",
        "properties": {
            "list": {
                "type": "array",
                "items": {"type": "string"},
                "minItems": 1,
                "maxItems": 3,
                "uniqueItems": True,
            },
            "pair": {
                "type": "array",
                "prefixItems": [{"type": "integer"}, {"type": "boolean"}],
            },
            "obj": {
                "type": "object",
                "properties": {"k": {"type": "boolean"}},
                "additionalProperties": {"type": "integer"},
                "minProperties": 1,
            },
        },
    },
    {
        "type": "object",
        "properties": {
            "any": {"anyOf": [{"type": "string"}, {"type": "integer", "minimum": 5}]},
            "one": {"oneOf": [{"type": "number"}, {"type": "integer"}]},
            "all": {"allOf": [{"type": "string"}, {"maxLength": 2}]},
            "not": {"not": {"type": "string"}},
        },
    },
]

values = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-20, 20),
        st.floats(-20, 20, allow_nan=False),
        st.sampled_from(["", "a", "ab", "abc", "abcd", "z", "b1"]),
    ),
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(st.sampled_from(["k", "n", "x", "y"]), inner, max_size=3),
    ),
    max_leaves=8,
)
arguments = st.dictionaries(
    st.sampled_from(
        [
            "n",
            "x",
            "s",
            "e",
            "c",
            "list",
            "pair",
            "obj",
            "any",
            "one",
            "all",
            "not",
            "zz",
        ]
    ),
    values,
    max_size=5,
)


@settings(max_examples=600, deadline=None)
@given(schema=st.sampled_from(SCHEMAS), value=arguments)
def test_agrees_with_jsonschema(schema: dict[str, Any], value: dict[str, Any]) -> None:
    expected = jsonschema.Draft202012Validator(schema).is_valid(value)
    found = validate.problems(schema, value)
    assert (not found) == expected, found


def test_every_problem_is_listed_by_parameter() -> None:
    found = validate.problems(SCHEMAS[0], {"n": 0, "s": "zzzz", "zz": 1})
    assert found == [
        "n: 0 is less than 1",
        "s: longer than 3 characters",
        "s: does not match '^[a-c]'",
        "zz: unknown argument",
    ]


accept = template_module("_accept")


@settings(max_examples=600, deadline=None)
@given(schema=st.sampled_from(SCHEMAS), value=arguments)
def test_the_compiled_predicate_gives_the_walks_verdict(
    schema: dict[str, Any], value: dict[str, Any]
) -> None:
    """``_accept.check`` answers a valid call in one pass of a predicate compiled from
    the schema; on any value it finds exactly what ``problems`` + ``undeclared`` do."""
    walked = validate.problems(schema, value) + validate.undeclared(schema, value)
    assert accept.check(schema, value) == walked
    assert accept._accepting(schema)(value) == (not walked)


def test_the_compiled_predicate_refuses_what_the_walk_refuses() -> None:
    schema = {
        "type": "object",
        "properties": {
            "n": {"type": ["integer", "null"], "minimum": 1},
            "s": {"type": "string", "maxLength": 2, "enum": ["a", "bb", "ccc"]},
            "l": {"type": "array", "items": {"type": "boolean"}, "maxItems": 2},
            "o": {"type": "object", "additionalProperties": False},
            "p": {"type": "string", "pattern": "^a"},
            "u": {"anyOf": [{"type": "string"}, {"type": "null"}]},
        },
        "required": ["n"],
    }
    for value in (
        {},
        {"n": 0},
        {"n": True},
        {"n": 1.5},
        {"n": 1, "s": "ccc"},
        {"n": 1, "s": "d"},
        {"n": 1, "l": [True, 1]},
        {"n": 1, "l": [True, True, False]},
        {"n": 1, "o": {"x": 1}},
        {"n": 1, "p": "b"},
        {"n": 1, "u": 1},
        {"n": 1, "zz": 1},
        {"n": 1, "deep": [[[[[]]]]] * 2},
    ):
        assert accept.check(schema, value), value
        assert accept.check(schema, value) == validate.problems(
            schema, value
        ) + validate.undeclared(schema, value)
    for value in ({"n": None}, {"n": 2.0, "s": "bb", "l": [True], "o": {}, "u": None}):
        assert accept.check(schema, value) == [], value
    deep: Any = 1
    for _ in range(validate.MAX_DEPTH + 2):
        deep = [deep]
    schema = {"type": "object", "additionalProperties": True}
    assert accept.check(schema, {"x": deep}) == validate.problems(schema, {"x": deep})
    assert accept.check(schema, {"x": deep})
