"""Export an encoder of find_tool's model mode to ONNX with int8 weights, so that builds
and packages embed with onnxruntime and tokenizers alone (no torch where it runs):
``python -m skillc.embed.fetch embeddinggemma-300m-int8 --accept-gemma-terms``.

The source encoder's pinned safetensors are traced by torch's ONNX exporter with its
pooling and dense layers inside the graph (one ``sentence_embedding`` output), then
onnxruntime's dynamic quantisation stores the MatMul and Gather (embedding) weights as
int8, per tensor (per channel kept cosine 0.62-0.77 to the source's vectors), but for
the feed-forward's output projections (``_outlier_inputs``). The result is the same
bytes in any folder and process with the versions of ``VERSIONS`` (the extra
``skillc[export]``), and ``encoders.py`` pins them; an export that differs (other
versions) is refused, naming the versions, as every other pinned file is. This needs
torch once, where the encoder is made; nothing that loads it does.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from ..embed import encoders

# The versions the pinned exports were made with (pyproject.toml's extra "export").
VERSIONS = {
    "torch": "2.15.0",
    "transformers": "5.25.0",
    "onnx": "1.23.2",
    "onnxscript": "0.7.2",
    "onnxruntime": "1.32.0",
}
OPSET = 18


class ExportError(Exception):
    pass


def version_gaps() -> list[str]:
    """Each library of ``VERSIONS`` that is missing or another version, as
    "name X (pinned Y)"."""
    gaps = []
    for name, pinned in VERSIONS.items():
        try:
            found = importlib.metadata.version(name).split("+")[0]
        except importlib.metadata.PackageNotFoundError:
            found = "missing"
        if found != pinned:
            gaps.append(f"{name} {found} (pinned {pinned})")
    return gaps


def export(source: Path, dense: list[str], target: Path) -> None:
    """``source`` (a transformers folder with its sentence-transformers ``dense``
    layers) as ``target``: an int8 ONNX file taking ``input_ids`` and
    ``attention_mask`` and giving the pooled ``sentence_embedding``. It runs in a
    process of its own with a fixed hash seed: the exporter names some of the graph's
    values in set order, so the bytes would differ from one process to the next."""
    if gaps := [g for g in version_gaps() if " missing " in f" {g} "]:
        raise ExportError(
            f"exporting needs {', '.join(gaps)}: pip install 'skillc[export]'"
        )
    done = subprocess.run(
        [sys.executable, "-m", __name__, str(source), str(target), *dense],
        env={**os.environ, "PYTHONHASHSEED": "0"},
        stderr=subprocess.PIPE,
        text=True,
    )
    if done.returncode != 0:
        last = done.stderr.strip().splitlines()[-1:] or ["no message"]
        raise ExportError(f"the export failed: {last[0]}")


def _export(source: Path, dense: list[str], target: Path) -> None:
    with tempfile.TemporaryDirectory(dir=target.parent) as work:
        traced = Path(work) / "model.onnx"
        _trace(source, dense, traced)
        onnx: Any = importlib.import_module("onnx")
        graph = onnx.load(str(traced))
        _strip(graph)
        onnx.save(graph, str(traced))
        quantisation = importlib.import_module("onnxruntime.quantization")
        quantisation.quantize_dynamic(
            str(traced),
            str(target),
            weight_type=quantisation.QuantType.QInt8,
            op_types_to_quantize=["MatMul", "Gather"],
            nodes_to_exclude=_outlier_inputs(graph),
        )


def _outlier_inputs(model: Any) -> list[str]:
    """The MatMuls left in float: those whose input is the product of two computed
    values, the feed-forward's activation (GELU, or Gemma's GELU times its gate) going
    into its output projection. Dynamic quantisation gives each input one uint8 scale,
    and these have outliers: quantised, the vectors kept cosine 0.72 to the source's
    (mpnet; 0.97 for Gemma), left in float 0.99 (both), on 120 corpus tool texts."""
    graph = model.graph
    weights = {tensor.name for tensor in graph.initializer}
    made_by = {output: node for node in graph.node for output in node.output}

    def product(value: str) -> bool:
        node = made_by.get(value)
        return (
            node is not None
            and node.op_type == "Mul"
            and set(node.input) <= set(made_by)
        )

    return [
        node.name
        for node in graph.node
        if node.op_type == "MatMul"
        and node.input[1] in weights
        and product(node.input[0])
    ]


def _strip(proto: Any) -> None:
    """The exporter's notes out of a model and everything in it: each node's module
    path, class names and stack trace (file paths of the machine that made it), which
    would make the bytes differ by where skillc is installed and how it is run."""
    if hasattr(proto, "metadata_props"):
        del proto.metadata_props[:]
    if hasattr(proto, "doc_string"):
        proto.doc_string = ""
    children = [proto.graph] if hasattr(proto, "graph") else []
    for name in ("node", "input", "output", "value_info", "initializer"):
        children.extend(getattr(proto, name, []))
    for attribute in getattr(proto, "attribute", []):
        children.extend([attribute.g] if attribute.HasField("g") else [])
        children.extend(attribute.graphs)
    for child in children:
        _strip(child)


def _trace(source: Path, dense: list[str], out: Path) -> None:
    torch: Any = importlib.import_module("torch")
    runtime = encoders.runtime()
    _, model, weights = runtime.load_transformers(source, dense)

    class Sentence(torch.nn.Module):  # type: ignore[misc]
        """The encoder as the runtime's "transformers" kind runs it, pooled in the
        graph."""

        def __init__(self) -> None:
            super().__init__()
            self.model = model
            self.dense = torch.nn.ParameterList(weights)

        def forward(self, input_ids: Any, attention_mask: Any) -> Any:
            hidden = self.model(
                input_ids=input_ids, attention_mask=attention_mask
            ).last_hidden_state
            return runtime.pool(hidden, attention_mask, self.dense)

    # Two rows of different lengths, so that batch and length stay dynamic.
    ids = torch.tensor([[2, 100, 200, 300, 1], [2, 5, 6, 1, 0]])
    mask = (ids != 0).long()
    mask[0] = 1
    with torch.inference_mode():
        torch.onnx.export(
            Sentence().eval(),
            (ids, mask),
            str(out),
            input_names=["input_ids", "attention_mask"],
            output_names=["sentence_embedding"],
            dynamic_axes={
                "input_ids": {0: "batch", 1: "tokens"},
                "attention_mask": {0: "batch", 1: "tokens"},
                "sentence_embedding": {0: "batch"},
            },
            opset_version=OPSET,
            dynamo=True,  # transformers' masks use vmap, which TorchScript cannot trace
            external_data=False,
            verbose=False,
        )


if __name__ == "__main__":  # export's own process: SOURCE TARGET [DENSE ...]
    _export(Path(sys.argv[1]), sys.argv[3:], Path(sys.argv[2]))
