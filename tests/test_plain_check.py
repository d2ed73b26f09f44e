"""The quick check of plain JSON Schemas (generator/loaders/plain_check.py) against
jsonschema: wherever it gives a verdict, it is jsonschema's, on the real corpora's
manifests, on this repository's fixtures and on seeded mutations of both, for each
format skillc reads; and on the defaults of real input schemas' properties."""

from __future__ import annotations

import copy
import random
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

import corpus_rates
from conftest import FIXTURES, run_python, shared_corpus
from skillc.loaders import bounded_regex, manifest, plain_check

FORMATS = {
    "tool-manifest.yaml": "tool-manifest.schema.json",
    ".tools.yaml": "tools.schema.json",
    "ai-tool.yaml": "ai-tool.schema.json",
}
# Values a mutation puts somewhere: each breaks some rule of some format, or keeps it.
VALUES: list[Any] = [
    None, True, False, 0, -1, 1, 1.5, 3601, 10**6, "", "x", "a b", "1abc", "a.b",
    "GET", "get", "TRACE", "script", "http", "ftp://x", [], ["a"], [1], {}, {"a": 1},
    {"type": "object"}, {"max_attempts": 0}, {"max_attempts": 3}, 2.0,
]  # fmt: skip


def _documents(tmp: Path) -> dict[str, list[Any]]:
    """Every manifest of the fixtures and the real corpora, by its format's schema."""
    paths = [p for p in FIXTURES.rglob("*.yaml")]
    if corpus_rates.CORPUS.is_dir():
        for source in corpus_rates.FUNCTION_SOURCES:
            corpus_rates.write_function_manifests(tmp, source)
        paths += sorted(tmp.rglob("tool-manifest.yaml"))
    found: dict[str, list[Any]] = {schema: [] for schema in FORMATS.values()}
    for path in sorted(paths):
        schema = next((s for end, s in FORMATS.items() if path.name.endswith(end)), "")
        if schema:
            try:
                found[schema].append(yaml.safe_load(path.read_text(encoding="utf-8")))
            except yaml.YAMLError:
                continue
    return found


def _paths(value: Any, at: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [at]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _paths(item, (*at, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += _paths(item, (*at, index))
    return found


def _mutated(document: Any, rng: random.Random) -> Any:
    """The document with one node replaced, removed or given an unknown key."""
    result = copy.deepcopy(document)
    path = rng.choice(_paths(result)[1:] or [()])
    if not path:
        return rng.choice(VALUES)
    parent = result
    for part in path[:-1]:
        parent = parent[part]
    choice = rng.random()
    if choice < 0.15 and isinstance(parent, dict):
        del parent[path[-1]]
    elif choice < 0.3 and isinstance(parent[path[-1]], dict):
        parent[path[-1]]["surprise"] = rng.choice(VALUES)
    else:
        parent[path[-1]] = copy.deepcopy(rng.choice(VALUES))
    return result


def test_a_quick_valid_is_jsonschemas_valid(tmp_path: Path) -> None:
    documents = _documents(tmp_path)
    rng = random.Random(17)
    for name, found in documents.items():
        assert found, name
        schema = manifest._schema(name)
        validator = jsonschema.Draft202012Validator(schema)
        verdicts: dict[bool | None, int] = {True: 0, False: 0, None: 0}
        mutations = [_mutated(rng.choice(found), rng) for _ in range(400)]
        for document in [*found, *mutations]:
            quick = plain_check.verdict(document, schema)
            if quick is not None:
                valid = not list(validator.iter_errors(document))
                assert quick == valid, (name, document)
            verdicts[quick] += 1
        assert verdicts[True] and verdicts[False], (name, verdicts)  # both ways


@pytest.mark.skipif(
    not corpus_rates.CORPUS.is_dir(),
    reason="../shared/corpus is not beside the checkout",
)
def test_the_real_manifests_need_no_jsonschema(tmp_path: Path) -> None:
    """Where it pays: every real manifest that jsonschema accepts, it accepts too."""
    schema = manifest._schema("tool-manifest.schema.json")
    validator = jsonschema.Draft202012Validator(schema)
    found = [
        document
        for document in _documents(tmp_path)["tool-manifest.schema.json"]
        if not list(validator.iter_errors(document))
    ]
    assert len(found) >= 5
    assert all(plain_check.verdict(document, schema) for document in found)


def _properties(schema: Any) -> list[dict[str, Any]]:
    """Every property schema below ``schema``, nested ones too."""
    found = []
    if isinstance(schema, dict):
        for key, value in schema.items():
            if key == "properties" and isinstance(value, dict):
                found += [v for v in value.values() if isinstance(v, dict)]
            found += _properties(value)
    elif isinstance(schema, list):
        for item in schema:
            found += _properties(item)
    return found


def test_a_quick_valid_default_is_jsonschemas_valid(tmp_path: Path) -> None:
    """Defaults are checked against their property's schema: on every property of the
    real input schemas, with its own default and with values that break it."""
    shared_corpus("functions")
    documents = _documents(tmp_path)["tool-manifest.schema.json"]
    tools = [t for d in documents if isinstance(d, dict) for t in d.get("tools") or []]
    schemas = [t.get("parameters") or t.get("input_schema") for t in tools]
    properties = _properties([s for s in schemas if isinstance(s, dict)])
    assert len(properties) >= 100
    verdicts: dict[bool | None, int] = {True: 0, False: 0, None: 0}
    for prop in properties:
        probe = {k: v for k, v in prop.items() if k != "default"}
        values = [*VALUES, *prop.get("enum", [])[:2]]
        values += [prop["default"]] if "default" in prop else []
        for value in values:
            quick = plain_check.verdict(value, probe)
            if quick is not None:
                try:  # as schema_normalise reads it: a schema jsonschema fails on passes
                    valid = bounded_regex.validator(probe).is_valid(value)
                except Exception:  # noqa: BLE001
                    valid = True
                assert quick == valid, (probe, value)
            verdicts[quick] += 1
    assert verdicts[True] and verdicts[False] and verdicts[None], verdicts


TRICKY: list[tuple[dict[str, Any], Any]] = [
    ({"type": "integer"}, 2.0),
    ({"type": "integer"}, True),
    ({"type": "number"}, False),
    ({"type": ["fish", "string"]}, "x"),
    ({"type": ["string", "fish"]}, "x"),
    ({"type": ["string", "fish"]}, 1),
    ({"enum": "abc"}, "ab"),
    ({"enum": [1, 2]}, 1.0),
    ({"enum": [1, "1"]}, True),
    ({"enum": ["a", {"b": 1}]}, "a"),
    ({"type": "string", "pattern": "("}, "x"),
    ({"type": "integer", "pattern": "("}, "x"),
    ({"pattern": "(", "type": "integer"}, "x"),
    ({"required": 5}, {"a": 1}),
    ({"type": "object", "required": ["a"]}, {}),
    ({"items": [{"type": "string"}]}, [1]),
    ({"minLength": "3"}, "ab"),
    ({"minimum": 1}, True),
    ({"type": "array", "items": {"type": "string"}}, ("a",)),
    ({"properties": {"a": False}}, {"a": 1}),
    ({"additionalProperties": False}, {1: 2}),
    ({"$ref": "#/$defs/missing"}, 1),
    ({"type": "string", "optional": True}, 1),
    ({"optional": True, "maxLength": 1}, "ab"),
    ({"anyOf": [{"type": "string"}, {"type": "weird"}]}, "a"),
    ({"anyOf": [{"type": "string"}, {"type": "weird"}]}, 1),
    ({"anyOf": [{"minimum": 3}, {"type": "string"}]}, 2),
    ({"anyOf": []}, 1),
    ({"allOf": [{"type": "integer"}, {"minimum": 3}]}, 2),
    ({"allOf": [{"type": "integer"}, {"minimum": 3}]}, 3),
    ({"if": {"type": "string"}, "then": {"minLength": 2}}, "a"),
    ({"if": {"type": "string"}, "then": {"minLength": 2}}, 1),
    ({"if": {"minimum": 2}, "else": {"type": "string"}}, 1),
    ({"then": {"type": "string"}, "else": {"type": "string"}}, 1),
]


@pytest.mark.parametrize("schema, value", TRICKY, ids=lambda x: repr(x)[:30])
def test_verdicts_on_tricky_schemas(schema: dict[str, Any], value: Any) -> None:
    """Where jsonschema raises, is subtle about equality or meets a non-JSON value, the
    quick check gives jsonschema's verdict or none."""
    quick = plain_check.verdict(value, schema)
    try:
        valid = bounded_regex.validator(schema).is_valid(value)
    except Exception:  # noqa: BLE001 - schema_normalise reads that as valid
        valid = True
    assert quick in (None, valid)


COLD_BUILD = """
import os, sys
os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one process: all imports here
from skillc import cli
status = cli.main(["-C", sys.argv[1], "build"])
print(status, "jsonschema" in sys.modules)
"""


@pytest.mark.skipif(
    not corpus_rates.CORPUS.is_dir(),
    reason="../shared/corpus is not beside the checkout",
)
def test_a_cold_build_of_the_real_corpus_does_not_import_jsonschema(
    tmp_path: Path,
) -> None:
    project = tmp_path / "project"
    for source in corpus_rates.FUNCTION_SOURCES:
        corpus_rates.write_function_manifests(project / "corpus", source)
    (project / "pyproject.toml").write_text(
        '[tool.skillc]\nsources = ["corpus"]\n', encoding="utf-8"
    )
    done = run_python(COLD_BUILD, tmp_path, str(project))
    assert done.stdout.split() == ["0", "False"], done.stderr[-2000:]


def test_a_cold_build_with_the_built_in_tools_does_not_import_jsonschema(
    tmp_path: Path,
) -> None:
    """The built-in manifests (skillc's own format: allOf, if/then) and their tools'
    examples (anyOf) are plain enough for the quick check."""
    project = tmp_path / "project"
    (project / "skills" / "notes").mkdir(parents=True)
    (project / "skills" / "notes" / "SKILL.md").write_text(
        "---\nname: notes\ndescription: Takes notes.\n---\nWrite them down.\n"
    )
    (project / "pyproject.toml").write_text(
        '[tool.skillc]\nbuiltins = ["file", "batch", "db"]\n', encoding="utf-8"
    )
    done = run_python(COLD_BUILD, tmp_path, str(project))
    assert done.stdout.split() == ["0", "False"], done.stderr[-2000:]
