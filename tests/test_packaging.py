"""skillc installs from a wheel with its templates inside, so `pip install .` works anywhere."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

from conftest import REPO


def test_wheel_ships_templates_and_entry_points(tmp_path: Path) -> None:
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
            str(REPO),
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
        assert f"generator/{where}" in names
    # The manifest schemas (for editors too) and the built-in namespaces' manifests.
    for folder in ("schemas", "builtins"):
        for path in sorted((REPO / "generator" / folder).iterdir()):
            assert f"generator/{folder}/{path.name}" in names
    entry_points = next(n for n in names if n.endswith("entry_points.txt"))
    assert (
        "skillc = generator.__main__:run"
        in zipfile.ZipFile(wheel).read(entry_points).decode()
    )
