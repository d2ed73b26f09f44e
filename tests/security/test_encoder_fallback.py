"""Issue 41, finding 11: model-mode ``find_tool`` never raises for an encoder it cannot
use. An encoder installed under the built model's name and version but of another
dimension (a query numpy cannot multiply with the tools' vectors, or, of one dimension,
would broadcast into a silent nonsense ranking) makes it rank hybrid instead, with a
warning, as a missing encoder does; the README promises no exception. In a fresh process each, with a
deterministic encoder (kind "hashing") that needs no download."""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
from contextlib import redirect_stderr
from pathlib import Path

import pytest

from conftest import REPO, SKILLC_PATH
from security_kit import canary  # noqa: F401 - fixture
from skillc import cli

pytest.importorskip("numpy")
ENCODER = "test-hashing"
SPEC = {"name": ENCODER, "model": "test-hashing-1", "kind": "hashing", "dim": 64}
FIND = """
import json, warnings
import generated
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    first = generated.find_tool("search file contents for a pattern", k=3)
    second = generated.find_tool("read a file", k=3)
print(json.dumps([[m.reason for m in first + second], [str(w.message) for w in caught]]))
"""


def _encoder(root: Path, **changes: object) -> None:
    folder = root / ENCODER
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "ENCODER.json").write_text(json.dumps(SPEC | changes))


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    """The repository's skills built for model mode with the 64-dimension encoder."""
    root = tmp_path_factory.mktemp("model")
    env = {
        "SKILLC_ENCODERS": str(root / "encoders"),
        "XDG_CACHE_HOME": str(root / "cache"),
    }
    _encoder(root / "encoders")
    project = root / "repo"
    shutil.copytree(REPO / "skills", project / "skills")
    (project / "pyproject.toml").write_text(
        '[tool.skillc]\nsources = ["skills"]\n'
        f'find-tool = "model"\nfind-tool-encoder = "{ENCODER}"\n'
    )
    before = {name: os.environ.get(name) for name in env}
    os.environ.update(env)
    try:
        with redirect_stderr(io.StringIO()) as err:
            assert cli.main(["-C", str(project), "build"]) == 0, err.getvalue()
    finally:
        for name, value in before.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
    return project, env


@pytest.mark.parametrize("dim", [32, 65, 1])
def test_an_encoder_of_another_dimension_falls_back_with_a_warning(
    built: tuple[Path, dict[str, str]], tmp_path: Path, dim: int
) -> None:
    project, env = built
    installed = tmp_path / "encoders"  # the built model's name, another dimension
    _encoder(installed, dim=dim)
    done = subprocess.run(
        [sys.executable, "-c", FIND],
        cwd=project,
        env={
            **os.environ,
            **env,
            "SKILLC_ENCODERS": str(installed),
            "PYTHONPATH": os.pathsep.join([str(project), *SKILLC_PATH]),
        },
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr  # no exception
    reasons, said = json.loads(done.stdout)
    assert reasons and all(
        r.startswith(f"hybrid, no encoder: {ENCODER} failed: ") for r in reasons
    )
    assert len(said) == 1 and "find_tool ranks without its encoder" in said[0]
