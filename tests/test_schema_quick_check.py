"""The quick "valid" verdict (generator/loaders/schema_quick_check.py) against jsonschema and the
Draft 2020-12 meta-schema: whenever it says valid, jsonschema must agree, on the real
corpora's schemas and on each of them broken one keyword at a time."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest

import corpus_rates
from skillc.loaders import schema_quick_check
from skillc.diagnostics import Report
from skillc.loaders import tool_manifest

META = jsonschema.Draft202012Validator(jsonschema.Draft202012Validator.META_SCHEMA)
# Values the meta-schema rejects, or that only look like what it accepts.
BAD = [
    "strin", "", 3, -1, 1.5, 1.0, 0, True, None, [], ["a", "a"], [1], {}, {"a": 1},
    [["x"]], "x", [{"type": "strin"}], [{}, 3], [True], {"type": 3},
]  # fmt: skip
KEYWORDS = [
    "type", "enum", "examples", "title", "description", "format", "pattern", "minimum",
    "multipleOf", "minLength", "maxItems", "uniqueItems", "required", "properties",
    "items", "additionalProperties", "deprecated", "$comment", "$id", "unknownKeyword",
    "anyOf", "oneOf", "allOf", "not",
]  # fmt: skip


def _agrees(schema: Any) -> None:
    if schema_quick_check.plainly_valid(schema):
        assert META.is_valid(schema), schema


def _nodes(schema: dict[str, Any]) -> Iterator[dict[str, Any]]:
    yield schema
    for prop in (schema.get("properties") or {}).values():
        if isinstance(prop, dict):
            yield from _nodes(prop)
    if isinstance(schema.get("items"), dict):
        yield from _nodes(schema["items"])


@pytest.mark.skipif(
    not corpus_rates.CORPUS.is_dir(),
    reason="../shared/corpus is not beside the checkout",
)
def test_quick_verdict_agrees_with_the_meta_schema_on_the_corpora(
    tmp_path: Path,
) -> None:
    schemas = []
    for source in corpus_rates.FUNCTION_SOURCES:
        corpus_rates.write_function_manifests(tmp_path, source)
    for path in sorted(tmp_path.rglob("tool-manifest.yaml")):
        _, tools, _ = tool_manifest.read(path, "x.yaml", 0, None, Report(), 1 << 22)
        schemas += [dict(t.input_schema) for t in tools]
    quick = [s for s in schemas if schema_quick_check.plainly_valid(s)]
    assert len(quick) >= 0.9 * len(schemas), (len(quick), len(schemas))
    for schema in schemas:
        _agrees(schema)
    # Every 40th, each broken one keyword at a time at every level: 46,560 variants, of
    # which about 7,500 the quick check calls valid and jsonschema confirms (every 20th
    # doubled it for no new kind of case). The meta-schema judges each node under
    # "properties" or "items" by itself, with the same meta-schema ($dynamicRef), so a
    # variant of a valid schema is valid exactly when its changed node is: that node is
    # what jsonschema checks (a whole schema cost ~10 ms, the suite's costliest loop).
    # The first sampled schema with nested nodes has its whole variants checked too.
    whole_too = next(s for s in quick[::40] if len(list(_nodes(s))) > 1)
    for schema in quick[::40]:
        for index, _ in enumerate(_nodes(schema)):
            for keyword in KEYWORDS:
                for value in BAD:
                    broken = copy.deepcopy(schema)
                    node = list(_nodes(broken))[index]
                    node[keyword] = value
                    if not schema_quick_check.plainly_valid(broken):
                        continue
                    assert META.is_valid(node), (broken, index)
                    if schema is whole_too:
                        assert META.is_valid(broken), broken


@pytest.mark.parametrize("keyword", KEYWORDS)
@pytest.mark.parametrize("value", BAD, ids=repr)
def test_quick_verdict_agrees_on_each_bad_value(keyword: str, value: Any) -> None:
    for schema in (
        {keyword: value},
        {"type": "object", "properties": {"p": {keyword: value}}},
        {"type": "array", "items": {keyword: value}},
    ):
        _agrees(schema)


def test_plain_schemas_are_valid_quickly() -> None:
    schema = {
        "type": "object",
        "properties": {
            "a": {"type": ["string", "null"], "description": "x", "maxLength": 3},
            "b": {"type": "array", "items": {"enum": [1, "x"]}, "minItems": 0},
            "c": {"anyOf": [{"type": "string"}, {"type": "null"}], "not": {}},
        },
        "required": ["a"],
    }
    assert schema_quick_check.plainly_valid(schema)
    assert META.is_valid(schema)


def test_the_vocabulary_holds_every_keyword_of_draft_2020_12() -> None:
    """A keyword outside it is taken as one jsonschema and the meta-schema ignore."""
    from jsonschema.validators import _REMOTE_WARNING_REGISTRY as registry

    known = set(jsonschema.Draft202012Validator.VALIDATORS)
    for uri in registry:
        if "2020-12" in uri:
            contents = registry[uri].contents
            known |= set(contents) | set(contents.get("properties", {}))
    assert known <= schema_quick_check.VOCABULARY, known - schema_quick_check.VOCABULARY
    assert schema_quick_check.plainly_valid({"type": "string", "optional": True})
