"""find_tool's model mode (issue 32), with a tiny deterministic encoder (kind "hashing")
that needs no download: build-time vectors stored as int8, memoised by text and model,
loaded with the encoder on the first call, fused with the lexical relevance, and the
fallback to hybrid ranking, with its reason, when the encoder is missing. The real
encoders are tested when installed (``python -m skillc.embed.fetch``), else skipped.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import shutil
from pathlib import Path
from typing import Any

import numpy
import pytest

from conftest import REPO, configured, run_mypy, run_python, run_skillc
from skillc.config import ConfigError
from skillc.embed import encoders
from skillc.emitters import search_model

ENCODER = "test-hashing"
SPEC = {"name": ENCODER, "model": "test-hashing-1", "kind": "hashing", "dim": 64}


def encoder_folder(root: Path, **changes: Any) -> Path:
    folder = root / ENCODER
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "ENCODER.json").write_text(json.dumps(SPEC | changes))
    return root


@pytest.fixture
def isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """An environment whose only encoders are under tmp_path/encoders (the user's
    cache moved into tmp_path too), for this process and the ones it starts."""
    env = {
        "SKILLC_ENCODERS": str(encoder_folder(tmp_path / "encoders")),
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
    }
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return env


def model_project(tmp_path: Path, encoder: str = ENCODER) -> Path:
    project = tmp_path / "repo"
    project.mkdir()
    shutil.copytree(REPO / "skills", project / "skills")
    (project / "pyproject.toml").write_text(
        '[tool.skillc]\nsources = ["skills"]\nbuiltins = ["file", "batch", "db"]\n'
        f'find-tool = "model"\nfind-tool-encoder = "{encoder}"\n'
    )
    return project


def build(capsys: pytest.CaptureFixture[str], project: Path) -> str:
    status, err = run_skillc(capsys, "-C", str(project), "build")
    assert status == 0, err
    return err


def built(project: Path) -> dict[str, Any]:
    """_search_model.py's constants, read as data."""
    namespace: dict[str, Any] = {}
    exec((project / "generated" / "_search_model.py").read_text(), namespace)
    return namespace


def index_constants(project: Path) -> dict[str, Any]:
    namespace: dict[str, Any] = {}
    exec((project / "generated" / "_search_index.py").read_text(), namespace)
    return namespace


def tools_of(project: Path) -> list[str]:
    return list(index_constants(project)["TOOLS"])


def test_build_embeds_each_tool_as_int8(
    tmp_path: Path, isolated: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    project = model_project(tmp_path)
    build(capsys, project)
    out = project / "generated"
    model = built(project)
    tools = tools_of(project)
    assert (model["ENCODER"], model["MODEL"], model["DIM"]) == (
        ENCODER,
        "test-hashing-1",
        64,
    )
    assert len(model["VECTORS"]) == len(model["SCALES"]) == len(tools) > 5
    # Each row restores the encoder's unit vector of the tool's text, to int8 precision.
    encoder = encoders.runtime().Encoder(Path(isolated["SKILLC_ENCODERS"]) / ENCODER)
    report = json.loads((out / "report.json").read_text())
    assert report["find_tool"]["method"] == "model"
    assert report["find_tool"]["encoder_model"] == "test-hashing-1"
    index = tools.index("file.grep")
    row = numpy.frombuffer(base64.b64decode(model["VECTORS"][index]), numpy.int8)
    assert row.dtype == numpy.int8 and abs(row).max() == 127
    restored = row.astype(numpy.float32) * model["SCALES"][index]
    # Its text: namespace and name as words, then the description.
    text = next(t for t in _texts(project) if t.startswith("file grep:"))
    exact = encoder.embed([text])[0]
    assert numpy.abs(restored - exact).max() <= model["SCALES"][index] / 2 + 1e-6
    assert index_constants(project)["METHOD"] == "model"
    assert (out / "_encoder.py").is_file()
    assert run_mypy(project, "generated").returncode == 0


def _texts(project: Path) -> list[str]:
    from skillc import pipeline
    from skillc.diagnostics import Report
    from skillc.emitters.search_index import runtime

    model = pipeline.run(configured(project), Report(), cached=False, emit=False).model
    assert model is not None
    words = runtime().words
    return [
        f"{' '.join(words(t.qualname))}: {t.definition.description}"
        for t in model.tools
    ]


def test_vectors_are_memoised_by_text_and_model(
    tmp_path: Path,
    isolated: dict[str, str],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    embedded: list[str] = []
    real = search_model.Chosen.embed

    def counting(self: search_model.Chosen, texts: list[str]) -> Any:
        embedded.extend(texts)
        return real(self, texts)

    monkeypatch.setattr(search_model.Chosen, "embed", counting)
    project = model_project(tmp_path)
    build(capsys, project)
    first = len(embedded)
    assert first == len(tools_of(project))
    skill = project / "skills" / "code-reviewer" / "SKILL.md"
    text = skill.read_text()
    skill.write_text(text.replace("description: ", "description: Careful. ", 1))
    build(capsys, project)
    assert len(embedded) == first + 1 and embedded[-1].startswith(
        "task code reviewer: Careful."
    )
    # The changed tool's row is its new text's (an incremental rebuild leaves model
    # mode to the full build).
    encoder = encoders.runtime().Encoder(Path(isolated["SKILLC_ENCODERS"]) / ENCODER)
    row = built(project)["VECTORS"][tools_of(project).index("task.code_reviewer")]
    assert row == search_model.quantise(encoder.embed(embedded[-1:])[0])[0]
    before = (project / "generated" / "_search_model.py").read_text()
    # Another encoder model: every vector is made again.
    encoder_folder(Path(isolated["SKILLC_ENCODERS"]), model="test-hashing-2")
    build(capsys, project)
    assert len(embedded) == 2 * first + 1
    assert (project / "generated" / "_search_model.py").read_text() != before


IMPORT_LEAN = """
import sys, json
import generated
modules = sorted(m for m in sys.modules if m.startswith("generated"))
heavy = [m for m in ("numpy", "torch", "onnxruntime", "transformers") if m in sys.modules]
matches = generated.find_tool("search file contents for a pattern")
after = "generated._search_model" in sys.modules and "generated._encoder" in sys.modules
print(json.dumps([modules, heavy, after, [[m.name, m.reason] for m in matches]]))
"""


def test_import_is_lean_and_the_first_call_loads_the_encoder(
    tmp_path: Path, isolated: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    project = model_project(tmp_path)
    build(capsys, project)
    done = run_python(IMPORT_LEAN, project)
    assert done.returncode == 0, done.stderr
    modules, heavy, after, matches = json.loads(done.stdout)
    assert heavy == [] and after
    assert "generated._search_model" not in modules
    assert "generated._encoder" not in modules
    assert len(matches) == 10  # k=10 by default: an agent reads ten cheaply
    assert all(reason.startswith("model: ") for _, reason in matches)
    assert "file.grep" in [name for name, _ in matches[:3]]
    # The same modules as a package built without model mode.
    static = tmp_path / "static"
    static.mkdir()
    shutil.copytree(project / "skills", static / "skills")
    (static / "pyproject.toml").write_text(
        (project / "pyproject.toml").read_text().replace('"model"', '"hybrid"')
    )
    build(capsys, static)
    assert json.loads(run_python(IMPORT_LEAN, static).stdout)[0] == modules


FUSED = """
import json
import numpy
import generated
from generated import _search, _search_model as built
purpose = "search file contents for a pattern"
match = generated.find_tool(purpose, k=1)[0]
lexical = _search._lexical(purpose).relevance()
encoder, vectors, _ = _search._state["model"]
from generated._search_index import TOOLS
index = TOOLS.index(match.name)
cosine = float(vectors[index] @ encoder.embed([purpose], query=True)[0])
dense = min(1, max(0, (cosine - built.FLOOR) / (1 - built.FLOOR)))
expected = built.WEIGHT * dense + (1 - built.WEIGHT) * lexical.get(index, 0.0)
print(json.dumps([match.relevance, round(min(1.0, expected), 3)]))
"""


def test_relevance_fuses_the_model_cosine_with_the_lexical_score(
    tmp_path: Path, isolated: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    project = model_project(tmp_path)
    build(capsys, project)
    done = run_python(FUSED, project)
    assert done.returncode == 0, done.stderr
    relevance, expected = json.loads(done.stdout)
    assert relevance == expected > 0


FALLBACK = """
import json, warnings
{prelude}
import generated
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    first = generated.find_tool("search file contents for a pattern", k=3)
    second = generated.find_tool("read a file", k=3)
print(json.dumps([[m.reason for m in first + second], [str(w.message) for w in caught]]))
"""


@pytest.mark.parametrize(
    ("prelude", "change", "why", "detail"),
    [
        ("", "remove", "test-hashing is not installed", "put it in a folder"),
        ("", "model", "test-hashing is another version", "test-hashing-9 is installed"),
        (
            "import sys; sys.modules['torch'] = None",
            "kind",
            "torch is not installed",
            "pip install",
        ),
    ],
)
def test_a_missing_encoder_falls_back_with_a_reason(
    tmp_path: Path,
    isolated: dict[str, str],
    capsys: pytest.CaptureFixture[str],
    prelude: str,
    change: str,
    why: str,
    detail: str,
) -> None:
    project = model_project(tmp_path)
    build(capsys, project)
    root = Path(isolated["SKILLC_ENCODERS"])
    if change == "remove":
        shutil.rmtree(root / ENCODER)
    elif change == "model":
        encoder_folder(root, model="test-hashing-9")
    else:  # a transformers encoder whose runtime is not installed
        encoder_folder(root, kind="transformers")
    done = run_python(FALLBACK.format(prelude=prelude), project)
    assert done.returncode == 0, done.stderr
    reasons, said = json.loads(done.stdout)
    assert reasons and all(
        r.startswith(f"hybrid, no encoder: {why}: ") for r in reasons
    )
    assert len(said) == 1 and why in said[0] and detail in said[0]


def fails(capsys: pytest.CaptureFixture[str], project: Path) -> str:
    """A build that stops with an error and writes nothing."""
    status, err = run_skillc(capsys, "-C", str(project), "build")
    assert status != 0 and "nothing written to generated/" in err, err
    assert "Traceback" not in err and not (project / "generated").exists()
    return err


@pytest.mark.parametrize("encoder", ["all-mpnet-base-v2", "all-mpnet-base-v3"])
def test_a_build_whose_encoder_is_unavailable_fails_at_its_setting(
    tmp_path: Path,
    isolated: dict[str, str],
    capsys: pytest.CaptureFixture[str],
    encoder: str,
) -> None:
    project = model_project(tmp_path, encoder=encoder)
    assert encoders.installed(encoder) is None  # `isolated` looks in tmp_path
    err = fails(capsys, project)
    # pyproject.toml's line 5 is find-tool-encoder (model_project)
    assert f"pyproject.toml:5:1: error[encoder-unavailable]: " in err
    assert isolated["SKILLC_ENCODERS"] in err  # where skillc looked
    assert 'set find-tool-fallback = "hybrid"' in err
    if encoder == "all-mpnet-base-v2":  # known: how to get it
        hub = "sentence-transformers/all-mpnet-base-v2"  # the hub first, then offline
        assert f"get it with: huggingface-cli download {hub} --revision " in err
        assert "(offline: python -m skillc.embed.fetch all-mpnet-base-v2)" in err
        assert f"models--{hub.replace('/', '--')}/snapshots/" in err
    else:  # misspelt: the names skillc knows
        assert "no encoder all-mpnet-base-v3 (did you mean 'all-mpnet-base-v2'?)" in err
        assert ", ".join(sorted(encoders.ENCODERS)) in err


def test_keep_going_does_not_write_past_an_unavailable_encoder(
    tmp_path: Path, isolated: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    """--keep-going leaves out the files with errors; no file holds this one."""
    project = model_project(tmp_path, encoder="all-mpnet-base-v3")
    status, err = run_skillc(capsys, "-C", str(project), "build", "--keep-going")
    assert status != 0 and "error[encoder-unavailable]" in err
    assert "nothing written to generated/" in err
    assert not (project / "generated").exists()


def test_the_default_encoder_is_reported_at_find_tool(
    tmp_path: Path, isolated: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    project = model_project(tmp_path)
    pyproject = project / "pyproject.toml"
    pyproject.write_text(
        pyproject.read_text().replace('find-tool-encoder = "test-hashing"\n', "")
    )
    assert "pyproject.toml:4:1: error[encoder-unavailable]: " in fails(capsys, project)


def test_with_the_hybrid_fallback_it_warns_and_ranks_hybrid(
    tmp_path: Path, isolated: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    project = model_project(tmp_path, encoder="all-mpnet-base-v2")
    with open(project / "pyproject.toml", "a") as pyproject:
        pyproject.write('find-tool-fallback = "hybrid"\n')
    err = build(capsys, project)
    assert "warning[find-tool-static]" in err and "error[" not in err
    assert "python -m skillc.embed.fetch all-mpnet-base-v2" in err
    out = project / "generated"
    assert (
        not (out / "_search_model.py").exists() and not (out / "_encoder.py").exists()
    )
    assert (
        json.loads((out / "report.json").read_text())["find_tool"]["method"] == "hybrid"
    )
    # Installing it later is a change the next build sees (here a stand-in by its name,
    # which the pins of the real one reject: a stand-in is not it).
    folder = Path(isolated["SKILLC_ENCODERS"]) / "all-mpnet-base-v2"
    folder.mkdir()
    (folder / "ENCODER.json").write_text(json.dumps(SPEC | {"name": folder.name}))
    err = build(capsys, project)
    assert "all-mpnet-base-v2/config.json: No such file" in err
    assert "find-tool-static" in err


WEIGHTS = b"weights " * 1000


def pinned(root: Path, weights: bytes = WEIGHTS) -> str:
    """A hashing encoder whose ENCODER.json pins a weights file, as fetch writes it."""
    folder = root / ENCODER
    (folder / "weights.bin").write_bytes(weights)
    digest = hashlib.sha256(WEIGHTS).hexdigest()
    encoder_folder(root, files={"weights.bin": digest})
    return digest


def test_a_corrupt_pinned_file_fails_the_build_naming_it(
    tmp_path: Path, isolated: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    root = Path(isolated["SKILLC_ENCODERS"])
    expected = pinned(root, WEIGHTS[:-1] + b"X")
    actual = hashlib.sha256(WEIGHTS[:-1] + b"X").hexdigest()
    err = fails(capsys, model_project(tmp_path))
    assert "error[encoder-unavailable]" in err
    assert f"weights.bin: sha256 {actual}, expected {expected}" in err


def test_a_corrupt_pinned_file_falls_back_at_run_time_naming_it(
    tmp_path: Path, isolated: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    root = Path(isolated["SKILLC_ENCODERS"])
    expected = pinned(root)
    project = model_project(tmp_path)
    build(capsys, project)
    assert built(project)["FILES"] == {"weights.bin": expected}
    done = run_python(FALLBACK.format(prelude=""), project)
    reasons, said = json.loads(done.stdout)
    assert said == [] and all(r.startswith("model: ") for r in reasons)
    (root / ENCODER / "weights.bin").write_bytes(WEIGHTS.upper())  # same size
    done = run_python(FALLBACK.format(prelude=""), project)
    assert done.returncode == 0, done.stderr
    reasons, said = json.loads(done.stdout)
    assert reasons and all(
        r.startswith("hybrid, no encoder: test-hashing is corrupt: ") for r in reasons
    )
    actual = hashlib.sha256(WEIGHTS.upper()).hexdigest()
    assert len(said) == 1
    assert f"weights.bin: sha256 {actual}, expected {expected}" in said[0]


def test_config_names_the_encoder(tmp_path: Path) -> None:
    (tmp_path / "skills").mkdir()
    (tmp_path / "pyproject.toml").write_text('[tool.skillc]\nfind-tool = "model"\n')
    config = configured(tmp_path)
    assert (config.find_tool, config.find_tool_encoder) == (
        "model",
        "all-mpnet-base-v2",
    )
    assert config.as_json()["find-tool-encoder"] == "all-mpnet-base-v2"
    (tmp_path / "pyproject.toml").write_text(
        '[tool.skillc]\nfind-tool-encoder = "../../etc"\n'
    )
    with pytest.raises(ConfigError, match="find-tool-encoder"):
        configured(tmp_path)
    (tmp_path / "pyproject.toml").write_text("[tool.skillc]\n")
    assert (
        "find-tool-encoder" not in configured(tmp_path).as_json()
    )  # other locks unchanged


def test_an_encoder_folder_names_only_known_kinds(tmp_path: Path) -> None:
    runtime = encoders.runtime()
    encoder_folder(tmp_path, kind="pickle")
    with pytest.raises(ValueError, match="known kind"):
        runtime.Encoder(tmp_path / ENCODER)
    encoder_folder(tmp_path, kind="transformers", dense=["../../x"])
    with pytest.raises(ValueError, match="dense"):
        runtime.Encoder(tmp_path / ENCODER)
    for files in (["weights.bin"], {"../../etc/passwd": "0" * 64}, {"w": "x"}):
        encoder_folder(tmp_path, kind="hashing", dense=[], files=files)
        with pytest.raises(ValueError, match="files must map paths in it to sha256"):
            runtime.Encoder(tmp_path / ENCODER)
    assert runtime.locate("../x") is None


# The real encoders: tested where `python -m skillc.embed.fetch` installed them.
REAL = {
    "all-minilm-l6-v2-int8": "onnxruntime",
    "all-mpnet-base-v2": "transformers",
    "embeddinggemma-300m": "transformers",
    "all-mpnet-base-v2-int8": "tokenizers",
    "embeddinggemma-300m-int8": "tokenizers",
}


@pytest.mark.parametrize("name", sorted(REAL))
def test_a_real_encoder_ranks_by_meaning(name: str) -> None:
    found = encoders.installed(name)
    if found is None:
        pytest.skip(f"{name} is not installed (python -m skillc.embed.fetch {name})")
    pytest.importorskip(
        REAL[name], reason=f"pip install 'skillc[{encoders.ENCODERS[name].extra}]'"
    )
    assert found.model == encoders.ENCODERS[name].model
    encoder = encoders.runtime().Encoder(found.folder)
    tools = encoder.embed(
        [
            "weather forecast: the weather of a city for the next days",
            "git commit: record changes to the repository",
            "calendar create event: add a meeting to a calendar",
        ]
    )
    query = encoder.embed(["will it rain in Paris tomorrow?"], query=True)[0]
    assert tools.shape == (3, encoder.dim)
    assert numpy.allclose(numpy.linalg.norm(tools, axis=1), 1, atol=1e-4)
    assert int(numpy.argmax(tools @ query)) == 0


REAL_PACKAGE = """
import json, sys
import generated
heavy = [m for m in ("numpy", "torch", "onnxruntime", "transformers") if m in sys.modules]
matches = generated.find_tool("look for lines that match a regex inside my files")
print(json.dumps([heavy, [[m.name, m.reason] for m in matches]]))
"""


@pytest.mark.parametrize("name", sorted(REAL))
def test_a_package_built_with_a_real_encoder_answers_by_it(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The whole path with the fetched encoder: the build embeds the tools, the import
    loads none of it, and the first call in a fresh process ranks by the model."""
    if encoders.installed(name) is None:
        pytest.skip(f"{name} is not installed (python -m skillc.embed.fetch {name})")
    pytest.importorskip(
        REAL[name], reason=f"pip install 'skillc[{encoders.ENCODERS[name].extra}]'"
    )
    project = model_project(tmp_path, encoder=name)
    assert "find-tool-static" not in build(capsys, project)
    assert built(project)["MODEL"] == encoders.ENCODERS[name].model
    done = run_python(REAL_PACKAGE, project)
    assert done.returncode == 0, done.stderr
    heavy, matches = json.loads(done.stdout)
    assert heavy == []
    assert all(reason.startswith("model: ") for _, reason in matches)
    assert "file.grep" in [match for match, _ in matches[:3]]


def test_agents_are_told_of_ten_and_get_ten(
    tmp_path: Path, isolated: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    project = model_project(tmp_path)
    build(capsys, project)
    for doc in ("CLAUDE.md", "AGENTS.md"):
        text = (project / "generated" / doc).read_text()
        assert "(the 10 best: read them all" in text
    done = run_python("", project, "-m", "generated", "find", "read", "a", "file")
    assert done.returncode == 0, done.stderr
    assert len(done.stdout.strip().splitlines()) == 10
