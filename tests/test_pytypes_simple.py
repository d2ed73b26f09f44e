"""The direct typing of simple schemas (generator/views/pytypes_simple.py) against
datamodel-code-generator: wherever the fast path answers, it must give exactly what
datamodel-code-generator gives, on the real corpora's input schemas and on names and
values chosen to trip it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import corpus_rates
from skillc import cache
from skillc.views import pytypes, pytypes_simple
from skillc.diagnostics import Report
from skillc.loaders import tool_manifest


def _by_codegen(schema: dict[str, Any]) -> pytypes.Typed:
    return pytypes._type_by_codegen(schema)


def _corpus_schemas(tmp: Path) -> list[dict[str, Any]]:
    """Every real input schema, as the loader hands it to typing (normalised)."""
    schemas = []
    for source in corpus_rates.FUNCTION_SOURCES:
        corpus_rates.write_function_manifests(tmp, source)
    for path in sorted(tmp.rglob("tool-manifest.yaml")):
        _, tools, _ = tool_manifest.read(path, "x.yaml", 0, None, Report(), 1 << 22)
        schemas += [dict(t.input_schema) for t in tools if t.input_schema]
    return schemas


def _assert_as_codegen(schema: dict[str, Any]) -> None:
    fast = pytypes_simple.annotate(schema)
    assert fast is not None, schema
    expected = _by_codegen(schema)
    assert (fast[2], fast[1], fast[0]) == (
        expected.models,
        expected.typing_names,
        dict(expected.annotations),
    ), schema


OBJECT = {"type": "object", "properties": {"a": {"type": "string"}}}
# Shapes of the real corpora's properties beyond flat scalars, each typed as
# datamodel-code-generator types it.
SHAPES: list[dict[str, Any]] = [
    {"type": "boolean", "enum": ["True", "False", "dontcare"]},
    {"type": "number", "enum": [1, 2]},
    {"enum": ["a", "b"]},
    {"type": ["string", "number", "boolean"]},
    {"type": ["null", "string", "integer"]},
    {"anyOf": [{"type": "string", "minLength": 1}, {"type": "null"}]},
    {"oneOf": [{"type": "null"}, {"type": "array", "items": {"type": "string"}}]},
    {"anyOf": [{"type": "string"}, {"type": "integer"}]},
    {"type": "object", "required": ["x"]},
    {"type": "object", "additionalProperties": {"type": "string"}},
    {"type": "object", "additionalProperties": {}},
    {"type": "object", "additionalProperties": True},
    {"type": "object", "properties": {}},
    {
        "type": "object",
        "properties": {"Content-Type": {"type": "string"}, "b": {}},
        "required": ["b"],
    },
    {"type": "object", "properties": {"class": {}, "None": {"type": "integer"}}},
    {
        "type": "object",
        "properties": {"filter": {}, "str": {"type": "string"}, "type": {"enum": [1]}},
    },
    {
        "type": "object",
        "properties": {"_x": {"type": "string"}, "b": {"type": ["string", "null"]}},
    },
    {**OBJECT, "additionalProperties": {"not": {}}},
    {"type": "object", "properties": {"a": {"type": "object", "properties": {}}}},
    {"type": "object", "oneOf": [{**OBJECT, "required": ["a"]}, OBJECT]},
    {"type": "array", "items": {"oneOf": [{"type": "string"}, OBJECT]}},
    {
        "type": "array",
        "items": {
            "type": "object",
            "anyOf": [
                OBJECT,
                {**OBJECT, "required": ["a"]},
                {"type": "object", "properties": {"b": {}}},
            ],
        },
    },
]


@pytest.mark.parametrize("shape", SHAPES, ids=lambda p: repr(p)[:50])
def test_fast_path_matches_codegen_on_the_corpora_shapes(shape: dict[str, Any]) -> None:
    schema = {
        "type": "object",
        "properties": {"my_prop": shape, "_from": {"type": "string"}, "to": {}},
        "required": ["my_prop", "_from"],
        "optional": ["to"],  # not JSON Schema, but real tools have it
    }
    _assert_as_codegen(schema)


# Arrays of objects: their models are named in the singular, as
# datamodel-code-generator names them (by inflect); plurals it may read otherwise are
# left to it.
PLURALS = [
    "data", "files", "fields", "field_filters", "iterations", "issue_fields", "items",
    "ids", "urls", "tags", "labels", "headers", "rules", "types", "names", "means",
    "lens", "cms", "genres", "massacres", "my_data", "data_sets", "kwargs",
]  # fmt: skip
OTHERS = [
    "values", "news", "status", "address", "analyses", "indices", "matches", "boxes",
    "categories", "leaves", "series", "aliases", "statuses", "keys", "sizes", "repos",
    "photos", "xs", "ms", "clothes", "glasses", "theses", "crises", "wharves", "spies",
    "heroes", "potatoes", "opuses", "person",
]  # fmt: skip


@pytest.mark.parametrize("name", PLURALS + OTHERS)
def test_fast_path_matches_codegen_on_arrays_of_objects(name: str) -> None:
    items = {**OBJECT, "required": ["a"], "additionalProperties": {"not": {}}}
    schema = {"type": "object", "properties": {name: {"type": "array", "items": items}}}
    if name in PLURALS:
        _assert_as_codegen(schema)
    else:
        assert pytypes_simple.annotate(schema) is None


NAMES = [
    "class", "from", "list", "str", "a-b", "a b", "schema", "json", "copy", "fields",
    "model_config", "None", "True", "self", "camelCase", "Arguments", "a.b", "a'b",
    'a"b', "x1", "dict", "int", "float", "bool", "typing", "Optional", "Union",
]  # fmt: skip
PROPERTIES: list[dict[str, Any]] = [
    {"type": "string"},
    {"type": "integer", "minimum": 1},
    {"type": "number", "format": "double"},
    {"type": "boolean", "default": False},
    {"type": ["string", "null"]},
    {"type": ["null", "integer"]},
    {"type": "string", "enum": ["a", "b", "a"]},
    {"type": "string", "enum": ["it's", 'a"b', "é\n", "\\"]},
    {"type": "integer", "enum": [3, -1, 0]},
    {"type": "array"},
    {"type": "array", "items": {"type": "string", "enum": ["x", "y"]}},
    {"type": "array", "items": {"type": "array", "items": {"type": "number"}}},
    {"type": "array", "items": {"type": "object"}},
    {"type": "object"},
    {"description": "anything"},
    {},
]


@pytest.mark.parametrize("prop", PROPERTIES, ids=lambda p: repr(p)[:40])
def test_fast_path_matches_codegen_on_each_shape(prop: dict[str, Any]) -> None:
    schema = {
        "type": "object",
        "properties": {name: prop for name in NAMES},
        "required": NAMES[:3],
    }
    fast = pytypes_simple.annotate(schema)
    assert fast is not None
    expected = _by_codegen(schema)
    assert (fast[2], fast[1], fast[0]) == (
        expected.models,
        expected.typing_names,
        dict(expected.annotations),
    )


@pytest.mark.parametrize(
    "prop",
    [
        {"type": "array", "items": {"type": "object", "properties": {"a": {}}}},
        {"type": "object", "properties": {"a": {}}, "required": ["b"]},
        {"type": "object", "properties": {"P": {}}},  # a field named like its model
        {"type": "number", "enum": [1.5, 2]},  # codegen: Literal[2] | float
        {"enum": ["a", 1, None]},
        {"type": ["string", "string"]},
        {"anyOf": [{"type": "string"}, {"type": "null"}, {"type": "integer"}]},
        {"anyOf": [{"type": "null"}, {"type": "object", "properties": {"a": {}}}]},
        {"type": "object", "properties": {"a": {}}, "additionalProperties": False},
        {"type": "object", "properties": {"a": OBJECT}},  # two levels of models
        {"type": "object", "properties": {"_a": {}, "a-b": {}}},
        {"anyOf": [OBJECT, {**OBJECT, "title": "t"}]},  # it merges equal models
        {"$ref": "#/$defs/x"},
    ],
)
def test_other_shapes_are_left_to_codegen(prop: dict[str, Any]) -> None:
    assert (
        pytypes_simple.annotate({"type": "object", "properties": {"p": prop}}) is None
    )


MODEL_NAMES = [
    "page", "update_data", "pointA", "a", "b_c", "x1", "any", "none", "list", "data",
    "exception", "arguments", "model", "field", "headers", "type", "self", "literal",
    "typed_dict", "not_required", "a__b", "a_1", "str", "int",
]  # fmt: skip


FIELDS = [
    "name", "size", "camelCase", "x1", "Arguments", "index", "Zed", "model_config",
    "schema", "json", "copy", "fields", "Optional", "Union", "self", "a", "b", "c",
]  # fmt: skip


@pytest.mark.parametrize("name", MODEL_NAMES)
def test_fast_path_matches_codegen_on_nested_objects(name: str) -> None:
    """Objects of simple properties, one level down: their models, named and ordered
    as datamodel-code-generator names and orders them, with its NotRequired."""
    inner = {
        "type": "object",
        "description": "inner",
        "properties": {n: p for n, p in zip(FIELDS, PROPERTIES)},
        "required": FIELDS[1:4],
    }
    schema = {
        "type": "object",
        "properties": {name: inner, "other": {"type": "string"}, "zeta": inner},
        "required": [name],
    }
    fast = pytypes_simple.annotate(schema)
    expected = _by_codegen(schema)
    if fast is not None:
        assert (fast[2], fast[1], fast[0]) == (
            expected.models,
            expected.typing_names,
            dict(expected.annotations),
        )
    if name in ("page", "update_data", "pointA", "a", "b_c", "x1", "data"):
        assert fast is not None


def test_names_codegen_renames_are_left_to_it() -> None:
    for name in ("_é", "1st", "é", "Any", "Literal", "TypedDict"):
        schema = {"type": "object", "properties": {name: {"type": "string"}}}
        assert pytypes_simple.annotate(schema) is None


def test_simple_schemas_do_not_import_codegen() -> None:
    """Typing a simple schema never pays datamodel-code-generator's import."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from skillc.views import pytypes\n"
        "pytypes.type_schema({'type': 'object', 'properties': {'a': {'type': 'string'}}})\n"
        "assert 'datamodel_code_generator' not in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


COLD_BUILD = """
import sys
from skillc import cli
assert cli.main(["build", "--no-cache"]) == 0
print(sorted({m.split(".")[0] for m in sys.modules}))
"""


@pytest.mark.skipif(
    not corpus_rates.CORPUS.is_dir(),
    reason="../shared/corpus is not beside the checkout",
)
def test_the_corpora_build_byte_identical_without_the_fast_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every real function definition built twice, cold: with the fast path in a fresh
    process, and with datamodel-code-generator alone in this one.

    - The fast build does not import datamodel-code-generator (half a second of
      imports with pydantic, which the settings' model imports alone).
    - The whole output is byte-identical, not only the annotations.
    - Every real input schema is in the fast path's grammar (a cold build of the corpora
      never pays datamodel-code-generator's import), and the fast path types each one
      exactly as datamodel-code-generator did in the second build (its answers recorded
      there, so each schema goes through datamodel-code-generator once, not twice)."""
    import contextlib
    import io

    from conftest import run_python, tree
    from skillc import cli

    projects = {}
    for name in ("fast", "codegen"):
        project = projects[name] = tmp_path / name
        for source in corpus_rates.FUNCTION_SOURCES:
            corpus_rates.write_function_manifests(project / "corpus", source)
        (project / "pyproject.toml").write_text(
            '[tool.skillc]\nsources = ["corpus"]\n', encoding="utf-8"
        )

    done = run_python(COLD_BUILD, projects["fast"])
    assert done.returncode == 0, done.stderr
    imported = done.stdout.split("[", 1)[1]
    assert "'skillc'" in imported
    assert "datamodel_code_generator" not in imported

    by_codegen: dict[str, pytypes.Typed] = {}
    original = pytypes._type_by_codegen

    def recording(schema: dict[str, Any]) -> pytypes.Typed:
        typed = by_codegen[cache.key(schema)] = original(schema)
        return typed

    monkeypatch.setattr(pytypes_simple, "annotate", lambda schema: None)
    monkeypatch.setattr(pytypes, "_type_by_codegen", recording)
    with contextlib.redirect_stderr(io.StringIO()) as err:
        status = cli.main(["-C", str(projects["codegen"]), "build", "--no-cache"])
    assert status == 0, err.getvalue()
    monkeypatch.undo()

    outputs = [tree(project / "generated") for project in projects.values()]
    assert outputs[0].keys() == outputs[1].keys()
    differ = [path for path in outputs[0] if outputs[0][path] != outputs[1][path]]
    assert differ == []

    schemas = {
        cache.key(s): s
        for s in _corpus_schemas(tmp_path / "schemas")
        if s.get("properties")
    }
    declined = [s for s in schemas.values() if pytypes_simple.annotate(s) is None]
    assert declined == []
    for key, schema in schemas.items():
        fast = pytypes_simple.annotate(schema)
        assert fast is not None and key in by_codegen, schema
        expected = by_codegen[key]
        assert (fast[2], fast[1], fast[0]) == (
            expected.models,
            expected.typing_names,
            dict(expected.annotations),
        ), schema


def _schemas() -> Any:
    """Schemas from the fast path's grammar and around it: names and shapes it types,
    renames, or leaves to datamodel-code-generator."""
    from hypothesis import strategies as st

    names = st.sampled_from(
        ["a", "b_c", "_from", "class", "Content-Type", "str", "filter", "None", "x1"]
        + ["items", "files", "data", "status", "Any", "a b", "fields", "aB", "_"]
    )
    scalar = st.sampled_from(
        [{"type": t} for t in ("string", "integer", "number", "boolean", "null")]
        + [{}, {"description": "d"}, {"type": ["string", "null"]}]
        + [{"type": ["integer", "string"]}, {"type": ["null", "number", "boolean"]}]
        + [{"enum": ["a", "b"]}, {"type": "integer", "enum": [1, 2]}]
        + [{"type": "boolean", "enum": ["x"]}, {"enum": [1.5]}, {"enum": ["a", 1]}]
        + [{"type": "object"}, {"type": "object", "required": ["a"]}]
        + [{"type": "object", "additionalProperties": {"type": "string"}}]
    )

    def objects(inner: Any) -> Any:
        return st.builds(
            lambda props, required, closed: {
                "type": "object",
                "properties": props,
                **({"required": sorted(props)[:required]} if required else {}),
                **({"additionalProperties": {"not": {}}} if closed else {}),
            },
            st.dictionaries(names, inner, min_size=1, max_size=3),
            st.integers(0, 2),
            st.booleans(),
        )

    def nested(inner: Any) -> Any:
        return (
            objects(inner)
            | st.builds(lambda i: {"type": "array", "items": i}, inner)
            | st.builds(lambda i: {"anyOf": [i, {"type": "null"}]}, inner)
            | st.builds(
                lambda branches: {"oneOf": branches},
                st.lists(inner, min_size=2, max_size=3),
            )
        )

    prop = st.recursive(scalar, nested, max_leaves=6)
    return objects(prop)


def test_fast_path_matches_codegen_on_generated_schemas() -> None:
    """Wherever the fast path answers on a generated schema, datamodel-code-generator
    gives the same (a bounded, seeded run)."""
    from hypothesis import given, settings

    answered = []

    @settings(max_examples=600, deadline=None, derandomize=True, database=None)
    @given(schema=_schemas())
    def check(schema: dict[str, Any]) -> None:
        fast = pytypes_simple.annotate(schema)
        if fast is None:
            return
        answered.append(schema)
        try:
            expected = _by_codegen(schema)
        except pytypes.TypingError:
            raise AssertionError(f"typed, but not by codegen: {schema}") from None
        assert (fast[2], fast[1], fast[0]) == (
            expected.models,
            expected.typing_names,
            dict(expected.annotations),
        ), schema

    check()
    assert len(answered) >= 60  # the grammar is exercised, not only declined


def test_a_root_of_the_functional_form_keeps_its_leading_underscores() -> None:
    """A keyword among the root's names makes datamodel-code-generator write it in the
    functional form, which keeps ``_from`` (the class form renames it field_from)."""
    for names in (["_from", "class"], ["_x", "a-b", "c"], ["_from", "to"]):
        _assert_as_codegen(
            {"type": "object", "properties": {n: {"type": "string"} for n in names}}
        )
