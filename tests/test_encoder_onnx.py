"""Issue 45: encoders of kind "onnx-tokenizers" (the -int8 exports), which run on
onnxruntime and tokenizers alone. A tiny encoder of that kind is made here, an ONNX
graph that pools itself (token vectors averaged over the attention mask, as the exports'
graphs end) and a word-level tokenizer.json, so that the whole path runs without
downloaded weights: the build embeds with it, and a package answers by it in a fresh
process that imports no torch."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path
from typing import Any

import numpy
import pytest

from conftest import REPO, run_python, run_skillc
from skillc.embed import encoders

onnx = pytest.importorskip("onnx")
pytest.importorskip("onnxruntime")
tokenizers = pytest.importorskip("tokenizers")

NAME = "tiny-onnx"
WORDS = ["[UNK]", "[CLS]", "[SEP]", "grep", "search", "pattern", "files", "read"]
WORDS += ["file", "weather", "city", "commit", "git", "text", "lines", "regex"]
DIM = 8


def tiny_encoder(root: Path, max_tokens: int = 16) -> Path:
    """``root/tiny-onnx``: model.onnx, tokenizer.json and ENCODER.json."""
    folder = root / NAME
    folder.mkdir(parents=True)
    helper, proto = onnx.helper, onnx.TensorProto
    rows = numpy.random.default_rng(7).standard_normal((len(WORDS), DIM))
    table = onnx.numpy_helper.from_array(rows.astype(numpy.float32), "table")
    axes = onnx.numpy_helper.from_array(numpy.array([1], numpy.int64), "axes")
    last = onnx.numpy_helper.from_array(numpy.array([-1], numpy.int64), "last")
    nodes = [
        helper.make_node("Gather", ["table", "input_ids"], ["hidden"]),
        helper.make_node("Cast", ["attention_mask"], ["mask"], to=proto.FLOAT),
        helper.make_node("Unsqueeze", ["mask", "last"], ["weights"]),
        helper.make_node("Mul", ["hidden", "weights"], ["kept"]),
        helper.make_node("ReduceSum", ["kept", "axes"], ["total"], keepdims=0),
        helper.make_node("ReduceSum", ["weights", "axes"], ["count"], keepdims=0),
        helper.make_node("Div", ["total", "count"], ["sentence_embedding"]),
    ]
    graph = helper.make_graph(
        nodes,
        "tiny",
        [
            helper.make_tensor_value_info(n, proto.INT64, ["batch", "tokens"])
            for n in ("input_ids", "attention_mask")
        ],
        [
            helper.make_tensor_value_info(
                "sentence_embedding", proto.FLOAT, ["batch", DIM]
            )
        ],
        [table, axes, last],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
    model.ir_version = 9
    onnx.save(model, str(folder / "model.onnx"))
    models, pre, post = (
        tokenizers.models,
        tokenizers.pre_tokenizers,
        tokenizers.processors,
    )
    tokenizer = tokenizers.Tokenizer(
        models.WordLevel({w: i for i, w in enumerate(WORDS)}, unk_token="[UNK]")
    )
    tokenizer.normalizer = tokenizers.normalizers.Lowercase()
    tokenizer.pre_tokenizer = pre.Whitespace()
    tokenizer.post_processor = post.TemplateProcessing(
        single="[CLS] $A [SEP]", special_tokens=[("[CLS]", 1), ("[SEP]", 2)]
    )
    tokenizer.enable_padding(length=40)  # the encoder must undo a saved padding
    tokenizer.save(str(folder / "tokenizer.json"))
    spec = {"name": NAME, "model": f"{NAME}-1", "kind": "onnx-tokenizers"}
    spec |= {"dim": DIM, "max_tokens": max_tokens, "query_prefix": "search "}
    (folder / "ENCODER.json").write_text(json.dumps(spec))
    return folder


def test_it_tokenizes_pools_in_the_graph_and_truncates(tmp_path: Path) -> None:
    folder = tiny_encoder(tmp_path, max_tokens=4)
    encoder = encoders.runtime().Encoder(folder)
    rows = numpy.random.default_rng(7).standard_normal((len(WORDS), DIM))

    def expected(*ids: int) -> Any:
        mean = rows[list(ids)].mean(axis=0)
        return mean / numpy.linalg.norm(mean)

    texts = ["grep files", "read the file lines regex", "Weather"]
    got = encoder.embed(texts)
    assert got.shape == (3, DIM) and got.dtype == numpy.float32
    # [CLS] grep files [SEP]; truncated to 4 with [SEP] kept; unknown words are [UNK].
    assert numpy.allclose(got[0], expected(1, 3, 6, 2), atol=1e-5)
    assert numpy.allclose(got[1], expected(1, 7, 0, 2), atol=1e-5)
    assert numpy.allclose(got[2], expected(1, 9, 2), atol=1e-5)
    # A query gets the query prefix ("search", a word of the vocabulary here).
    assert numpy.allclose(encoder.embed(["grep"])[0], expected(1, 3, 2), atol=1e-5)
    query = encoder.embed(["grep"], query=True)[0]
    assert numpy.allclose(query, expected(1, 4, 3, 2), atol=1e-5)


PACKAGE = """
import json, sys
import generated
matches = generated.find_tool("grep a regex pattern in files")
heavy = [m for m in ("torch", "transformers") if m in sys.modules]
print(json.dumps([heavy, [[m.name, m.reason] for m in matches[:3]]]))
"""


def test_a_package_built_with_it_answers_by_it_without_torch(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    tiny_encoder(tmp_path / "encoders")
    monkeypatch.setenv("SKILLC_ENCODERS", str(tmp_path / "encoders"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    project = tmp_path / "repo"
    shutil.copytree(REPO / "skills", project / "skills")
    (project / "pyproject.toml").write_text(
        '[tool.skillc]\nsources = ["skills"]\nbuiltins = ["file"]\n'
        f'find-tool = "model"\nfind-tool-encoder = "{NAME}"\n'
    )
    status, err = run_skillc(capsys, "-C", str(project), "build")
    assert status == 0, err
    assert "torch" not in sys.modules
    done = run_python(PACKAGE, project)
    assert done.returncode == 0, done.stderr
    heavy, matches = json.loads(done.stdout)
    assert heavy == []
    assert all(reason.startswith("model: ") for _, reason in matches)
    assert "file.grep" in [name for name, _ in matches]


def test_the_export_keeps_the_feed_forward_output_in_float_and_no_notes() -> None:
    """export.py's graph rules, on a graph of the shapes the exporter writes: the
    MatMul whose input is the product of two computed values (the feed-forward's
    activation) stays float; every node's notes (module paths, stack traces with the
    exporting machine's file paths) are removed, in subgraphs too."""
    from skillc.embed import export

    helper, proto = onnx.helper, onnx.TensorProto
    weight = onnx.numpy_helper.from_array(numpy.ones((4, 4), numpy.float32), "w")
    note = {"pkg.torch.onnx.stack_trace": "File /home/someone/site-packages/x.py"}
    branch = helper.make_graph(
        [helper.make_node("Identity", ["x"], ["y"], doc_string="/home/someone")],
        "branch",
        [],
        [helper.make_tensor_value_info("y", proto.FLOAT, [1, 4])],
    )
    nodes = [
        helper.make_node("MatMul", ["x", "w"], ["up"], name="up_proj"),
        helper.make_node("Tanh", ["up"], ["act"], name="act"),
        helper.make_node("Mul", ["act", "up"], ["gated"], name="gate"),
        helper.make_node("MatMul", ["gated", "w"], ["down"], name="down_proj"),
        helper.make_node("Mul", ["down", "w"], ["scaled"], name="scale"),
        helper.make_node("MatMul", ["scaled", "w"], ["out"], name="out_proj"),
        helper.make_node(
            "If", ["cond"], ["z"], name="if", then_branch=branch, else_branch=branch
        ),
    ]
    for node in nodes:  # the exporter's notes, as it writes them
        node.metadata_props.add(key="namespace", value="skillc.embed.export._trace")
        for key, value in note.items():
            node.metadata_props.add(key=key, value=value)
    graph = helper.make_graph(
        nodes,
        "g",
        [
            helper.make_tensor_value_info("x", proto.FLOAT, [1, 4]),
            helper.make_tensor_value_info("cond", proto.BOOL, []),
        ],
        [helper.make_tensor_value_info("out", proto.FLOAT, [1, 4])],
        [weight],
    )
    model = helper.make_model(graph, doc_string="made on /home/someone")
    assert export._outlier_inputs(model) == ["down_proj"]
    export._strip(model)
    text = model.SerializeToString()
    assert b"/home/someone" not in text and b"skillc.embed" not in text
    assert [n.name for n in model.graph.node][:4] == [
        "up_proj",
        "act",
        "gate",
        "down_proj",
    ]
