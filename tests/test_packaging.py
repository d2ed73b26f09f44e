"""skillc installs from a wheel with its templates inside, so `pip install .` works anywhere."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

from conftest import REPO


def test_wheel_ships_templates_and_entry_points(tmp_path: Path) -> None:
    # Built from a copy: setuptools writes skillc.egg-info into the folder it builds,
    # and one in the checkout is the skillc that importlib.metadata finds for every
    # later test of the run (test_init's requirement among them).
    source = tmp_path / "source"
    for part in ("generator", "templates"):
        shutil.copytree(
            REPO / part, source / part, ignore=shutil.ignore_patterns("__pycache__")
        )
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy2(REPO / name, source / name)
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "-q",
            "-w",
            str(tmp_path),
            str(source),
        ],
        check=True,
        capture_output=True,
    )
    (wheel,) = tmp_path.glob("skillc-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    shipped = (".py", ".jinja")  # not the __pycache__ a checkout may hold
    templates = (p for p in (REPO / "templates").rglob("*") if p.suffix in shipped)
    assert {p.parent.name for p in templates} >= {"jinja", "runtime"}
    for template in sorted(
        p for p in (REPO / "templates").rglob("*") if p.suffix in shipped
    ):
        where = template.relative_to(REPO).as_posix()
        assert f"skillc/{where}" in names
    # Every module of generator/ (installed as skillc: the package list is written out),
    # the manifest schemas (for editors too) and the built-in namespaces' manifests.
    for path in sorted((REPO / "generator").rglob("*")):
        if path.suffix in (".py", ".json", ".yaml") and "__pycache__" not in path.parts:
            assert f"skillc/{path.relative_to(REPO / 'generator').as_posix()}" in names
    assert not any(name.startswith("generator/") for name in names)
    entry_points = next(n for n in names if n.endswith("entry_points.txt"))
    assert (
        "skillc = skillc.__main__:run"
        in zipfile.ZipFile(wheel).read(entry_points).decode()
    )


def test_a_projects_own_generator_package_shadows_nothing(tmp_path: Path) -> None:
    """skillc's import name is skillc: in a repository with a package of its own named
    `generator`, `python -m skillc build` runs skillc and find_tool finds the token
    table (it used to look for it through `generator`, and fell back to lexical)."""
    from conftest import FIXTURES, run_python

    project = tmp_path / "project"
    shutil.copytree(FIXTURES / "project", project)
    (project / "generator").mkdir()
    (project / "generator" / "__init__.py").write_text("raise SystemExit(99)\n")
    (project / "generator" / "__main__.py").write_text("raise SystemExit(99)\n")
    built = run_python("", project, "-m", "skillc", "build")
    assert built.returncode == 0, built.stderr
    assert "find-tool-lexical" not in built.stderr
    assert (
        'METHOD: Final = "hybrid"' in (project / "out" / "_search_index.py").read_text()
    )
    found = run_python(
        "from pathlib import Path\nfrom out import _embed\n"
        "print(_embed.locate(Path('out').resolve()))",
        project,
    )
    assert found.returncode == 0, found.stderr
    assert found.stdout.strip() not in ("", "None"), found.stdout
