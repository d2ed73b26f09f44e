"""The typings of datamodel-code-generator, memoised by input schema
(generator/pipeline/typings.py): a schema typed before is not typed again, in this
build (tools that share it) or a later one (an edit that leaves the schema as it was),
and the output is the cold build's. Such a rebuild does not import jsonschema either
(generator/loaders/plain_check.py), nor numpy (its one new vector is summed in plain
Python, generator/emitters/search_index.py)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from conftest import run_python, run_skillc, tree
from generator.views import pytypes

# Objects two levels down: beyond pytypes_simple, so datamodel-code-generator types it.
SCHEMA = """\
    parameters:
      type: object
      required: [waypoints]
      properties:
        waypoints:
          type: array
          items:
            type: object
            required: [x]
            properties:
              x:
                type: number
              y:
                type: number
              at:
                type: object
                properties:
                  lat:
                    type: number
        speed:
          type: integer
          minimum: 1
          default: 2
"""


def _manifest(descriptions: list[str]) -> str:
    text = "namespace: robot\ntools:\n"
    for number, description in enumerate(descriptions):
        text += f"  - name: move{number}\n    description: {description}\n"
        text += SCHEMA
        text += "    executor:\n      type: http\n      url: https://example.com/move\n"
    return text


def _project(root: Path, descriptions: list[str]) -> Path:
    project = root / "project"
    (project / "tools" / "robot").mkdir(parents=True)
    (project / "pyproject.toml").write_text('[tool.skillc]\nsources = ["tools"]\n')
    _write(project, descriptions)
    return project


def _write(project: Path, descriptions: list[str]) -> None:
    path = project / "tools" / "robot" / "tool-manifest.yaml"
    path.write_text(_manifest(descriptions), encoding="utf-8")


BUILD = """
import json, sys
from generator import cli
status = cli.main(["-C", sys.argv[1], "build"])
print(json.dumps({
    "status": status,
    "codegen": "datamodel_code_generator" in sys.modules,
    "jsonschema": "jsonschema" in sys.modules,
    "numpy": "numpy" in sys.modules,
}))
"""


def _build(project: Path) -> dict[str, Any]:
    done = run_python(BUILD, project.parent, str(project))
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout)
    assert result["status"] == 0, done.stderr
    return result


def test_a_description_edit_imports_neither_codegen_nor_jsonschema(
    tmp_path: Path,
) -> None:
    project = _project(tmp_path, ["Moves the robot."])
    assert _build(project)["codegen"]  # the schema needs datamodel-code-generator
    # A full build (a file added) whose view of move0 comes from the memo keeps its
    # typing there too.
    other = project / "tools" / "lamp"
    other.mkdir()
    (other / "tool-manifest.yaml").write_text(
        "tools:\n  - name: dim\n    description: Dims the lamp.\n"
        "    parameters:\n      type: object\n      properties:\n"
        "        level:\n          type: integer\n"
        "    executor:\n      type: http\n      url: https://example.com/dim\n",
        encoding="utf-8",
    )
    assert not _build(project)["codegen"]
    _write(project, ["Moves the robot to a point."])
    rebuilt = _build(project)
    assert not rebuilt["codegen"]
    # Nor jsonschema: the manifest's format is checked by plain_check.
    assert not rebuilt["jsonschema"]
    # Nor numpy: the one new vector is summed in plain Python.
    assert not rebuilt["numpy"]
    # Byte for byte what a cold build of the same inputs writes.
    cold = tmp_path / "cold"
    shutil.copytree(project, cold, ignore=shutil.ignore_patterns("generated", ".*"))
    assert _build(cold)["codegen"]
    assert tree(project / "generated") == tree(cold / "generated")


def test_a_schema_is_typed_once(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    typed: list[object] = []
    codegen = pytypes._type_by_codegen

    def counted(schema: Any) -> pytypes.Typed:
        typed.append(schema)
        return codegen(schema)

    monkeypatch.setattr(pytypes, "_type_by_codegen", counted)
    monkeypatch.setattr(pytypes, "TYPED", {})  # as in a fresh process
    project = _project(tmp_path, ["Moves one.", "Moves two.", "Moves three."])
    assert run_skillc(capsys, "-C", str(project), "build")[0] == 0
    assert len(typed) == 1  # three tools, one schema
    monkeypatch.setattr(pytypes, "TYPED", {})  # only the build memo remembers it now
    _write(project, ["Moves one.", "Moves two, edited.", "Moves three."])
    assert run_skillc(capsys, "-C", str(project), "build")[0] == 0
    assert len(typed) == 1
    modules = (project / "generated").rglob("_move*.py")
    assert {"class Waypoint(TypedDict):" in p.read_text() for p in modules} == {True}
