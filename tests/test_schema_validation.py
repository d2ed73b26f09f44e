"""The build's JSON Schema checks (generator/loaders/validation.py, by jsonschema-rs):
each schema against its own draft's meta-schema, values YAML gives that JSON has no
form for, and which problem an example's diagnostic names."""

from __future__ import annotations

from skillc.loaders import validation

DRAFT_4 = "http://json-schema.org/draft-04/schema#"


def test_a_schema_is_checked_against_the_draft_it_names() -> None:
    """Draft 4's boolean exclusiveMinimum is valid there, and not in 2020-12."""
    old = {"type": "integer", "minimum": 0, "exclusiveMinimum": True}
    assert validation.meta_problems({"$schema": DRAFT_4, **old}) == []
    found = validation.meta_problems(old)
    assert found is not None and [path for path, _ in found] == [("exclusiveMinimum",)]


def test_a_meta_schema_skillc_does_not_hold_is_unknown_and_never_fetched() -> None:
    for uri in ("http://json-schema.org/draft-03/schema#", "http://127.0.0.1:9/s"):
        assert validation.meta_problems({"$schema": uri}) is None


def test_a_value_json_has_no_form_for_is_one_problem_at_its_path() -> None:
    check = validation.validator(
        {
            "type": "object",
            "properties": {"a": {"type": "string"}, "b": {"type": "integer"}},
            "additionalProperties": False,
        }
    )
    found = validation.problems(check, {"a": b"x", "b": "y", 1: 2})
    assert sorted(found) == [
        ((), "unknown key ('1' was unexpected)"),
        (("a",), "not a JSON value (bytes)"),
        (("b",), '"y" is not of type "integer"'),
    ]


def test_an_example_is_told_its_problem_nearest_the_root() -> None:
    schema = {
        "type": "object",
        "properties": {"deep": {"type": "object", "properties": {"x": {"enum": [1]}}}},
        "required": ["n"],
    }
    assert validation.first_problem(schema, {"deep": {"x": 2}}) == (
        (),
        '"n" is a required property',
    )
    assert validation.first_problem(schema, {"n": 1, "deep": {"x": 2}}) == (
        ("deep", "x"),
        "2 is not one of 1",
    )
