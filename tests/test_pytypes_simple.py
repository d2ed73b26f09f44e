"""The direct typing of simple schemas (generator/views/pytypes_simple.py) against
datamodel-code-generator, on a representative sample: a shape of each kind the grammar
types (scalars, enums, type lists, unions, arrays, maps, objects one level down), names
it keeps or renames as datamodel-code-generator does, a sample of the real corpora's
input schemas, and shapes it leaves to datamodel-code-generator."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import corpus_rates
from conftest import shared_corpus
from skillc import cache
from skillc.diagnostics import Report
from skillc.loaders import tool_manifest
from skillc.views import pytypes, pytypes_simple


def _assert_as_codegen(schema: dict[str, Any]) -> None:
    fast = pytypes_simple.annotate(schema)
    assert fast is not None, schema
    expected = pytypes._type_by_codegen(schema)
    assert (fast[2], fast[1], fast[0]) == (
        expected.models,
        expected.typing_names,
        dict(expected.annotations),
    ), schema


OBJECT = {"type": "object", "properties": {"a": {"type": "string"}}}
INNER = {
    "type": "object",
    "description": "inner",
    "properties": {
        "name": {"type": "string"},
        "size": {"type": "integer", "minimum": 1},
        "camelCase": {"type": ["string", "null"]},
        "model_config": {"type": "string", "enum": ["it's", 'a"b', "é\n"]},
        "Zed": {"type": "array", "items": {"type": "number"}},
    },
    "required": ["size", "camelCase"],
}
# Property shapes of each kind the grammar types, most from the real corpora.
SHAPES: list[dict[str, Any]] = [
    {"type": "integer", "minimum": 1},
    {"type": "boolean", "enum": ["True", "False", "dontcare"]},
    {"type": "integer", "enum": [3, -1, 0]},
    {"enum": ["a", "b"]},
    {"type": ["null", "string", "integer"]},
    {"anyOf": [{"type": "string", "minLength": 1}, {"type": "null"}]},
    {"oneOf": [{"type": "null"}, {"type": "array", "items": {"type": "string"}}]},
    {"type": "array", "items": {"type": "array", "items": {"type": "number"}}},
    {"type": "object", "additionalProperties": {"type": "string"}},
    {"description": "anything"},
    {**OBJECT, "additionalProperties": {"not": {}}},
    {"type": "object", "oneOf": [{**OBJECT, "required": ["a"]}, OBJECT]},
    {"type": "array", "items": {"oneOf": [{"type": "string"}, OBJECT]}},
    INNER,
]


@pytest.mark.parametrize("shape", SHAPES, ids=lambda p: repr(p)[:50])
def test_each_kind_of_shape_is_typed_as_codegen_types_it(shape: dict[str, Any]) -> None:
    schema = {
        "type": "object",
        "properties": {"my_prop": shape, "_from": {"type": "string"}, "to": {}},
        "required": ["my_prop", "_from"],
        "optional": ["to"],  # not JSON Schema, but real tools have it
    }
    _assert_as_codegen(schema)


# Names it keeps, names Python or the models would shadow, and the singular of a plural
# (inflect's, in datamodel-code-generator) that names an array's item model.
NAMES = ["class", "a-b", "None", "self", "Arguments", "x1", "typing", "Optional"]


@pytest.mark.parametrize(
    "schema",
    [
        {"type": "object", "properties": {name: {"type": "string"} for name in NAMES}},
        {"type": "object", "properties": {"update_data": INNER, "zeta": INNER}},
        {"type": "object", "properties": {"pointA": INNER}, "required": ["pointA"]},
        *(
            {"type": "object", "properties": {n: {"type": "array", "items": INNER}}}
            for n in ("files", "data", "field_filters", "kwargs")
        ),
        {"type": "object", "properties": {"_from": {}, "class": {}}},  # functional
    ],
    ids=[
        "names",
        "models",
        "camel-model",
        "files",
        "data",
        "filters",
        "kwargs",
        "func",
    ],
)
def test_names_are_as_codegen_gives_them(schema: dict[str, Any]) -> None:
    _assert_as_codegen(schema)


@pytest.mark.parametrize(
    "prop",
    [
        {"type": "array", "items": {"type": "object", "properties": {"a": {}}}},
        {"type": "object", "properties": {"P": {}}},  # a field named like its model
        {"type": "number", "enum": [1.5, 2]},  # codegen: Literal[2] | float
        {"anyOf": [{"type": "null"}, {"type": "object", "properties": {"a": {}}}]},
        {"type": "object", "properties": {"a": OBJECT}},  # two levels of models
        {"$ref": "#/$defs/x"},
    ],
)
def test_other_shapes_are_left_to_codegen(prop: dict[str, Any]) -> None:
    assert (
        pytypes_simple.annotate({"type": "object", "properties": {"p": prop}}) is None
    )


def test_names_codegen_may_read_otherwise_are_left_to_it() -> None:
    items = {**OBJECT, "required": ["a"], "additionalProperties": {"not": {}}}
    for plural in ("status", "analyses", "news", "aliases"):  # inflect's call
        array = {"type": "array", "items": items}
        schema = {"type": "object", "properties": {plural: array}}
        assert pytypes_simple.annotate(schema) is None
    for name in ("_é", "1st", "é", "Any", "Literal", "TypedDict"):  # renamed
        schema = {"type": "object", "properties": {name: {"type": "string"}}}
        assert pytypes_simple.annotate(schema) is None


def test_every_real_schema_is_simple_and_a_sample_typed_as_codegen_types_it(
    tmp_path: Path,
) -> None:
    """A cold build of the real corpora never pays datamodel-code-generator (the figure
    in pytypes_simple's docstring); every 15th of their distinct schemas, typed both
    ways."""
    shared_corpus("functions")
    for source in corpus_rates.FUNCTION_SOURCES:
        corpus_rates.write_function_manifests(tmp_path, source)
    schemas: dict[str, dict[str, Any]] = {}
    for path in sorted(tmp_path.rglob("tool-manifest.yaml")):
        _, tools, _ = tool_manifest.read(path, "x.yaml", 0, None, Report(), 1 << 22)
        for tool in tools:
            if tool.input_schema and tool.input_schema.get("properties"):
                schemas[cache.key(dict(tool.input_schema))] = dict(tool.input_schema)
    assert len(schemas) >= 700
    assert [s for s in schemas.values() if pytypes_simple.annotate(s) is None] == []
    for key in sorted(schemas)[::15]:
        _assert_as_codegen(schemas[key])


def test_simple_schemas_do_not_import_codegen() -> None:
    """Typing a simple schema never pays datamodel-code-generator's import."""
    code = (
        "import sys\n"
        "from skillc.views import pytypes\n"
        "pytypes.type_schema({'type': 'object', 'properties': {'a': {'type': 'string'}}})\n"
        "assert 'datamodel_code_generator' not in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
