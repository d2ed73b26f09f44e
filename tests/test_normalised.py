"""Input schemas normalised once (generator/loaders/manifest.py ``remembering``): when
one tool of a manifest changes, the reload normalises only the schemas it has not
normalised before, says their diagnostics again at their nodes, and writes what a
cold build writes."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from conftest import run_skillc, tree
from generator.loaders import schema_normalise
from generator.pipeline import parallel

# Each tool's own schema; "dict" and "float" are read as "object" and "number", with
# a warning each at its node.
SCHEMAS = [
    "{type: dict, properties: {x: {type: float}}}",
    "{type: object, properties: {name: {type: string}}, required: [name]}",
    "{type: object, properties: {n: {type: integer, minimum: 1}}}",
]


def _write(project: Path, descriptions: list[str], schemas: list[str]) -> None:
    text = "namespace: shapes\ntools:\n"
    for number, (description, schema) in enumerate(zip(descriptions, schemas)):
        text += f"  - name: draw{number}\n    description: {description}\n"
        text += f"    parameters: {schema}\n"
        text += "    executor:\n      type: http\n      url: https://example.com/d\n"
    path = project / "tools" / "shapes" / "tool-manifest.yaml"
    path.write_text(text, encoding="utf-8")


def _warnings(err: str) -> list[str]:
    return [line for line in err.splitlines() if "warning[" in line]


def test_an_edit_normalises_only_the_schemas_it_changed(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    normalised: list[Any] = []
    normalise = schema_normalise.normalise

    def counted(schema: Any, complain: Any) -> Any:
        normalised.append(schema)
        return normalise(schema, complain)

    monkeypatch.setattr(schema_normalise, "normalise", counted)
    project = tmp_path / "project"
    (project / "tools" / "shapes").mkdir(parents=True)
    (project / "pyproject.toml").write_text('[tool.skillc]\nsources = ["tools"]\n')
    descriptions = ["Draws a point.", "Draws a name.", "Draws n times."]
    _write(project, descriptions, SCHEMAS)
    status, err = run_skillc(capsys, "-C", str(project), "build")
    assert status == 0, err
    assert len(normalised) == 3
    first = _warnings(err)
    assert len(first) == 2  # dict and float, at their lines

    # A description edit: no schema is normalised again, its warnings said again.
    normalised.clear()
    descriptions[0] = "Draws a point, edited."
    _write(project, descriptions, SCHEMAS)
    status, err = run_skillc(capsys, "-C", str(project), "build")
    assert status == 0, err
    assert normalised == []
    assert _warnings(err) == first

    # One schema edited: that one alone is normalised.
    schemas = [*SCHEMAS[:2], SCHEMAS[2].replace("minimum: 1", "minimum: 2")]
    _write(project, descriptions, schemas)
    status, err = run_skillc(capsys, "-C", str(project), "build")
    assert status == 0, err
    assert len(normalised) == 1
    assert _warnings(err) == first

    # Byte for byte what a cold build of the same inputs writes, with its warnings.
    normalised.clear()
    cold = tmp_path / "cold"
    shutil.copytree(project, cold, ignore=shutil.ignore_patterns("generated", ".*"))
    status, err = run_skillc(capsys, "-C", str(cold), "build")
    assert status == 0, err
    assert len(normalised) == 3
    assert _warnings(err) == first
    assert tree(project / "generated") == tree(cold / "generated")


def test_a_schema_several_manifests_repeat_is_normalised_once(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Catalogues repeat schemas across files: each is normalised once a build, and
    each file still says its own diagnostics and writes what it wrote before."""
    normalised: list[Any] = []
    normalise = schema_normalise.normalise

    def counted(schema: Any, complain: Any) -> Any:
        normalised.append(schema)
        return normalise(schema, complain)

    project = tmp_path / "project"
    project.mkdir()
    (project / "pyproject.toml").write_text('[tool.skillc]\nsources = ["tools"]\n')
    for name in ("forms", "lines", "shapes"):  # written as shapes, then moved
        (project / "tools" / "shapes").mkdir(parents=True, exist_ok=True)
        _write(project, ["Draws a point.", "Draws a name.", "Draws n times."], SCHEMAS)
        (project / "tools" / "shapes").rename(project / "tools" / name)
        manifest = project / "tools" / name / "tool-manifest.yaml"
        text = manifest.read_text(encoding="utf-8")
        manifest.write_text(text.replace("shapes", name), encoding="utf-8")
    status, err = run_skillc(capsys, "-C", str(project), "build", "--no-cache", "-v")
    assert status == 0, err
    before = tree(project / "generated")
    monkeypatch.setattr(schema_normalise, "normalise", counted)
    monkeypatch.setattr(parallel, "_cores", lambda: 1)  # every file loaded here
    status, again = run_skillc(capsys, "-C", str(project), "build", "--no-cache", "-v")
    assert status == 0, again
    assert len(normalised) == len(SCHEMAS)  # not once per file
    assert len(_warnings(again)) == 3 * 2  # dict and float, in each file
    assert _warnings(again) == _warnings(err)
    assert tree(project / "generated") == before
