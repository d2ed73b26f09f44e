"""The direct typing of simple schemas (generator/views/pytypes_simple.py) against
datamodel-code-generator: wherever the fast path answers, it must give exactly what
datamodel-code-generator gives, on the real corpora's input schemas and on names and
values chosen to trip it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import corpus_rates
from generator.views import pytypes, pytypes_simple
from generator.diagnostics import Report
from generator.loaders import tool_manifest


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


@pytest.mark.skipif(
    not corpus_rates.CORPUS.is_dir(),
    reason="../shared/corpus is not beside the checkout",
)
def test_fast_path_matches_codegen_on_the_real_corpora(tmp_path: Path) -> None:
    schemas = [s for s in _corpus_schemas(tmp_path) if s.get("properties")]
    simple = [s for s in schemas if pytypes_simple.annotate(s) is not None]
    # Most real tools are simple: the fast path is what makes manifest builds cheap.
    assert len(simple) >= 0.9 * len(schemas), (len(simple), len(schemas))
    # The properties of the schemas it declines, one by one: more shapes compared.
    alone = [
        {"type": "object", "properties": {name: prop}}
        for s in schemas
        if s not in simple
        for name, prop in s["properties"].items()
    ]
    compared = 0
    for schema in simple + alone:
        fast = pytypes_simple.annotate(schema)
        if fast is None:
            continue
        expected = _by_codegen(schema)
        assert (fast[2], fast[1], fast[0]) == (
            expected.models,
            expected.typing_names,
            dict(expected.annotations),
        ), schema
        compared += 1
    assert compared >= len(simple)


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
        {"type": "object", "properties": {"a": {"type": "object", "properties": {}}}},
        {"type": "array", "items": {"type": "object", "properties": {"a": {}}}},
        {"type": "object", "properties": {"a": {}}, "required": ["b"]},
        {"type": "object", "properties": {"a-b": {}}},
        {"type": "object", "properties": {"class": {}}},
        {"type": "object", "properties": {"P": {}}},  # a field named like its model
        {"type": "number", "enum": [1.5, 2]},  # codegen: Literal[2] | float
        {"enum": ["a", 1, None]},
        {"type": ["string", "integer"]},
        {"anyOf": [{"type": "string"}, {"type": "integer"}]},
        {"type": "object", "additionalProperties": {"type": "string"}},
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
    for name in ("_from", "_", "1st", "é", "Any", "Literal", "TypedDict"):
        schema = {"type": "object", "properties": {name: {"type": "string"}}}
        assert pytypes_simple.annotate(schema) is None


def test_simple_schemas_do_not_import_codegen() -> None:
    """Typing a simple schema never pays datamodel-code-generator's import."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from generator.views import pytypes\n"
        "pytypes.type_schema({'type': 'object', 'properties': {'a': {'type': 'string'}}})\n"
        "assert 'datamodel_code_generator' not in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


@pytest.mark.skipif(
    not corpus_rates.CORPUS.is_dir(),
    reason="../shared/corpus is not beside the checkout",
)
def test_a_build_of_the_corpora_is_byte_identical_without_the_fast_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The whole output, not only the annotations: every real function definition built
    with the fast path and with datamodel-code-generator alone."""
    import contextlib
    import io

    from conftest import tree
    from generator import cli

    outputs = []
    for fast in (True, False):
        project = tmp_path / ("fast" if fast else "codegen")
        for source in corpus_rates.FUNCTION_SOURCES:
            corpus_rates.write_function_manifests(project / "corpus", source)
        (project / "pyproject.toml").write_text(
            '[tool.skillc]\nsources = ["corpus"]\n', encoding="utf-8"
        )
        if not fast:
            monkeypatch.setattr(pytypes_simple, "annotate", lambda schema: None)
        with contextlib.redirect_stderr(io.StringIO()) as err:
            status = cli.main(["-C", str(project), "build", "--no-cache"])
        assert status == 0, err.getvalue()
        outputs.append(tree(project / "generated"))
    assert outputs[0].keys() == outputs[1].keys()
    differ = [path for path in outputs[0] if outputs[0][path] != outputs[1][path]]
    assert differ == []
