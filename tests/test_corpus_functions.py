"""Real tool definitions (../shared/corpus/functions: 400 from BFCL, 117 from GitHub's MCP
server; skipped when absent): every one is put into a tool-manifest.yaml as it is, and
compiles; the package imports, passes mypy --strict and sends the original names."""

from __future__ import annotations

import contextlib
import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from conftest import run_mypy, run_python
from corpus_functions import FUNCTIONS, definitions, write_manifests
from skillc import cli

pytestmark = pytest.mark.skipif(
    not FUNCTIONS.is_dir(), reason="../shared/corpus is not beside this checkout"
)


@pytest.fixture(scope="module")
def functions_build(
    tmp_path_factory: pytest.TempPathFactory,
) -> tuple[Path, int, str, dict[str, str]]:
    project = tmp_path_factory.mktemp("functions")
    (project / "pyproject.toml").write_text(
        '[tool.skillc]\nsources = ["skills"]\nmax-namespace-depth = 5\n'
    )
    placed = write_manifests(project / "skills")
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        status = cli.main(["-C", str(project), "build"])
    return project, status, err.getvalue(), placed


def test_every_definition_compiles(
    functions_build: tuple[Path, int, str, dict[str, str]],
) -> None:
    project, status, err, placed = functions_build
    assert status == 0, err
    assert "error[" not in err
    # The messy parts are normalised with a located warning, never dropped in silence.
    assert "warning[schema-normalised]" in err
    listing = run_python(
        "import generated; print('\\n'.join(e.name for e in generated.list()))", project
    )
    assert listing.returncode == 0, listing.stderr
    assert set(listing.stdout.split()) == set(placed.values())
    assert len(placed) == sum(len(items) for items in definitions().values())


def test_the_package_passes_mypy_strict(
    functions_build: tuple[Path, int, str, dict[str, str]],
) -> None:
    project = functions_build[0]
    result = run_mypy(project, "generated")
    assert result.returncode == 0, result.stdout[-3000:]


def test_calls_send_the_original_property_names(
    functions_build: tuple[Path, int, str, dict[str, str]],
) -> None:
    """For every definition, a call with every parameter set sends exactly the
    property names its author wrote."""
    project = functions_build[0]
    script = """
import importlib, json, generated
from generated._cli import find
out = {}
for entry in generated.list():
    tool = find(entry.name)
    sample = {py: 1 for py in tool.spec.parameters}
    built = tool.__wrapped__(**sample)
    out[entry.name] = sorted(built)
print(json.dumps(out))
"""
    result = run_python(script, project)
    assert result.returncode == 0, result.stderr[-3000:]
    sent = json.loads(result.stdout)
    every = definitions()
    for key, qualname in functions_build[3].items():
        source, index = key.split(":")
        item = every[source][int(index)]
        schema = item.get("parameters", item.get("inputSchema")) or {}
        assert sent[qualname] == sorted(schema.get("properties") or {}), qualname


def _walk(schema: Any, path: str = "") -> Iterator[tuple[str, dict[str, Any]]]:
    if not isinstance(schema, dict):
        return
    yield path, schema
    for name, sub in (schema.get("properties") or {}).items():
        yield from _walk(sub, f"{path}/properties/{name}")
    if isinstance(schema.get("items"), dict):
        yield from _walk(schema["items"], f"{path}/items")
    for index, sub in enumerate(schema.get("anyOf") or []):
        yield from _walk(sub, f"{path}/anyOf/{index}")


@pytest.mark.parametrize(
    ("name", "flavor"),
    [
        ("anthropic.strict.json", "anthropic"),
        ("openai-chat.strict.json", "openai"),
        ("openai-responses.strict.json", "openai"),
    ],
)
def test_strict_files_meet_the_provider_rules(
    functions_build: tuple[Path, int, str, dict[str, str]], name: str, flavor: str
) -> None:
    """providers.md §2.4 and §3.3, for every definition of the corpus: each tool is in the
    strict file or listed as left out with its reason, and what is in it keeps the rules.
    """
    import jsonschema

    from skillc.emitters.providers.strict import (
        ANTHROPIC_FORMATS,
        ANTHROPIC_UNSUPPORTED,
        COMMON_UNSUPPORTED,
        OPENAI_FORMATS,
    )

    project = functions_build[0]
    folder = project / "generated" / "providers"
    names = json.loads((folder / "names.json").read_text())["from_provider"]["openai"]
    report = json.loads((project / "generated" / "report.json").read_text())
    left_out = {
        e["tool"] for e in report["provider_left_out"] if e["file"].endswith(name)
    }
    plain = {t["name"]: t for t in json.loads((folder / "anthropic.json").read_text())}
    entries = json.loads((folder / name).read_text())
    unsupported = ANTHROPIC_UNSUPPORTED if flavor == "anthropic" else COMMON_UNSUPPORTED
    formats = ANTHROPIC_FORMATS if flavor == "anthropic" else OPENAI_FORMATS
    seen = set()
    for entry in entries:
        function = entry.get("function", entry)
        assert function["strict"] is True
        schema = function.get("parameters") or function.get("input_schema")
        jsonschema.Draft202012Validator.check_schema(schema)
        assert schema["type"] == "object" and not {"anyOf", "oneOf", "allOf"} & set(
            schema
        )
        for path, node in _walk(schema):
            assert not set(node) & unsupported, (function["name"], path)
            assert not {"allOf", "oneOf", "not", "prefixItems"} & set(node), path
            assert node.get("format", "date-time") in formats, path
            if node.get("type") == "object" or "properties" in node:
                assert node["additionalProperties"] is False, path
                assert node["required"] == list(node["properties"]), path
            kinds = node.get("type")
            if kinds == "array" or (isinstance(kinds, list) and "array" in kinds):
                assert isinstance(node.get("items"), dict) and node["items"], path
            if flavor == "anthropic":
                assert node.get("minItems", 0) <= 1, path
        original = plain[function["name"]]["input_schema"]
        optional = set(original["properties"]) - set(original.get("required") or [])
        for prop in optional:  # optional stays optional: it takes null
            sub = schema["properties"][prop]
            allows_null = (
                "null" in (sub.get("type") or [])
                or {"type": "null"} in (sub.get("anyOf") or [])
                or None in (sub.get("enum") or [])
            )
            assert allows_null, (function["name"], prop)
        seen.add(names[function["name"]])
    every = set(names.values())
    assert every == seen | left_out
    assert not seen & left_out
    assert len(seen) > len(every) // 2  # most real tools have a strict form
