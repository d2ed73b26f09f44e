"""find_tool's model mode with an encoder read from the Hugging Face hub's cache
(``find-tool-encoder-hub = "<model id>@<commit>"``), in the layout ``huggingface-cli
download`` and ``snapshot_download`` write: ``models--<org>--<name>/`` holding
``blobs/`` (each file once, by its digest), ``refs/main`` and ``snapshots/<commit>/``
(links to the blobs). A tiny known encoder (kind "hashing") stands in for a real one:
skillc gives the snapshot its spec and pins; the package finds the same snapshot."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from conftest import run_python
from skillc.embed import encoders
from test_find_model import FALLBACK, build, built, fails, isolated, model_project

__all__ = ["isolated"]  # the fixture, used by name
COMMIT = "0123456789abcdef0123456789abcdef01234567"
WEIGHTS = b"hub weights " * 500
NAME = "tiny-hub"


@pytest.fixture
def hub(
    tmp_path: Path, isolated: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> Path:
    """A hub cache holding org/tiny at COMMIT, and the encoder skillc knows it as."""
    cache = tmp_path / "hub"
    monkeypatch.setenv("HF_HUB_CACHE", str(cache))
    sha = hashlib.sha256(WEIGHTS).hexdigest()
    repo = cache / "models--org--tiny"
    (repo / "blobs").mkdir(parents=True)
    (repo / "blobs" / sha).write_bytes(WEIGHTS)  # an LFS file's blob: its sha256
    (repo / "refs").mkdir()
    (repo / "refs" / "main").write_text(COMMIT)
    snapshot = repo / "snapshots" / COMMIT
    snapshot.mkdir(parents=True)
    os.symlink(f"../../blobs/{sha}", snapshot / "model.safetensors")
    tiny = encoders.Encoder(
        name=NAME,
        licence="MIT",
        wheels=(),
        joined=None,
        files={"model.safetensors": ("", sha)},
        spec={"kind": "hashing", "dim": 64},
        weight=0.8,
        floor=0.1,
        notice="",
    )
    monkeypatch.setitem(encoders.ENCODERS, NAME, tiny)
    return snapshot


def hub_project(tmp_path: Path, commit: str = COMMIT) -> Path:
    project = model_project(tmp_path, encoder=NAME)
    with open(project / "pyproject.toml", "a") as pyproject:
        pyproject.write(f'find-tool-encoder-hub = "org/tiny@{commit}"\n')
    return project


def test_an_encoder_from_the_hub_cache_is_built_and_found_again(
    tmp_path: Path, hub: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = hub_project(tmp_path)
    build(capsys, project)
    model = built(project)
    assert model["HUB"] == f"org/tiny@{COMMIT}"
    assert model["SPEC"]["kind"] == "hashing" and model["SPEC"]["name"] == NAME
    assert model["FILES"] == {"model.safetensors": hashlib.sha256(WEIGHTS).hexdigest()}
    assert model["FETCH"].startswith(
        f"huggingface-cli download org/tiny --revision {COMMIT} (offline: "
    )
    notice = (project / "generated" / "NOTICE").read_text()
    assert f"outputs of the encoder {NAME} (MIT)" in " ".join(notice.split())
    lock = json.loads((project / "generated" / "skillc.lock.json").read_text())
    assert lock["config"]["find-tool-encoder-hub"] == f"org/tiny@{COMMIT}"
    # The package reads the same snapshot (no ENCODER.json there: the build's spec).
    done = run_python(FALLBACK.format(prelude=""), project)
    assert done.returncode == 0, done.stderr
    reasons, said = json.loads(done.stdout)
    assert said == [] and reasons and all(r.startswith("model: ") for r in reasons)
    # A blob that differs from its pin: the package ranks hybrid and says which.
    (hub / "model.safetensors").resolve().write_bytes(WEIGHTS[::-1])
    reasons, said = json.loads(run_python(FALLBACK.format(prelude=""), project).stdout)
    assert all(r.startswith(f"hybrid, no encoder: {NAME} is corrupt") for r in reasons)
    assert "model.safetensors: sha256 " in said[0]


def test_a_revision_not_in_the_hub_cache_fails_with_the_download_command(
    tmp_path: Path, hub: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    other = "f" * 40
    err = fails(capsys, hub_project(tmp_path, other))
    assert "error[encoder-unavailable]" in err
    assert f"org/tiny@{other} is not in the Hugging Face hub's cache" in err
    assert str(hub.parent / other) in err
    assert f"huggingface-cli download org/tiny --revision {other}" in err


def test_only_an_encoder_skillc_knows_is_read_from_the_hub(
    tmp_path: Path, hub: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = hub_project(tmp_path)
    pyproject = project / "pyproject.toml"
    pyproject.write_text(pyproject.read_text().replace(NAME, "mystery"))
    err = fails(capsys, project)
    assert "mystery is not an encoder skillc knows" in err


def test_the_pinned_hub_revision_is_the_default_and_the_folder_an_alternative(
    tmp_path: Path,
    hub: Path,
    isolated: dict[str, str],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An encoder skillc pins on the hub is read from the hub's cache without a
    setting; the package takes skillc's folder of the same bytes where the snapshot
    is not (the pins tell them apart from any other)."""
    tiny = replace(encoders.ENCODERS[NAME], hub=f"org/tiny@{COMMIT}")
    monkeypatch.setitem(encoders.ENCODERS, NAME, tiny)
    project = model_project(tmp_path, encoder=NAME)
    build(capsys, project)
    assert built(project)["HUB"] == f"org/tiny@{COMMIT}"
    folder = Path(isolated["SKILLC_ENCODERS"]) / NAME
    folder.mkdir()
    (folder / "ENCODER.json").write_text(json.dumps(tiny.describe()))
    (folder / "model.safetensors").write_bytes(WEIGHTS)
    shutil.rmtree(hub)
    done = run_python(FALLBACK.format(prelude=""), project)
    assert done.returncode == 0, done.stderr
    reasons, said = json.loads(done.stdout)
    assert said == [] and reasons and all(r.startswith("model: ") for r in reasons)
