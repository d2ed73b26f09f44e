"""The sentence encoder of ``find_tool``'s model mode. skillc embeds each tool with it at
build time; the package loads it on the first ``find_tool`` call and embeds the purpose.

An encoder is a folder holding ``ENCODER.json`` (written by skillc's acquisition script,
``python -m skillc.embed.fetch``) and the model's files. It is looked for in
``$SKILLC_ENCODERS``, in an ``_encoders/`` folder beside the package's modules, then in
the user's cache (``$XDG_CACHE_HOME/skillc/encoders``, else ``~/.cache/skillc/encoders``).
Or it is a snapshot in the Hugging Face hub's cache (``find-tool-encoder-hub``), whose
``ENCODER.json`` the build wrote into the package. Each file pinned by the build is
checked against its sha256 when the encoder is loaded, once per process.
Only file names this module knows are read, and weights only from safetensors or ONNX
files (nothing is unpickled); the inference libraries (onnxruntime and tokenizers; torch,
transformers) are imported on first use, never by importing the package.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import os
import re
from pathlib import Path
from typing import Any

# "onnx-wordpiece": a BERT-style ONNX file (last_hidden_state out) and a WordPiece
# vocabulary, mean-pooled; "onnx-tokenizers": an ONNX file that pools itself
# (sentence_embedding out, as ``python -m skillc.embed.fetch`` exports one) and a
# tokenizer.json read by the tokenizers library; "transformers": a transformers model
# folder (safetensors), mean-pooled, then optional dense layers; "hashing": words hashed
# into a few dimensions, a deterministic stand-in that needs nothing but numpy (tests).
KINDS = ("onnx-wordpiece", "onnx-tokenizers", "transformers", "hashing")
MARKER = "ENCODER.json"
THREADS: int | None = None  # threads the encoder may use; None: its library's default
BATCH = 16  # texts embedded at once at build time


def folders(package_dir: Path | None = None) -> list[Path]:
    """Where encoders are looked for, first match wins."""
    found = []
    if os.environ.get("SKILLC_ENCODERS"):
        found.append(Path(os.environ["SKILLC_ENCODERS"]))
    if package_dir is not None:
        found.append(package_dir / "_encoders")
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    found.append(Path(cache) / "skillc" / "encoders")
    return found


def locate(name: str, package_dir: Path | None = None) -> Path | None:
    """The folder of the encoder ``name``, or None when none is installed."""
    if not re.fullmatch(r"[a-z0-9][a-z0-9.-]*", name):
        return None
    for root in folders(package_dir):
        if (root / name / MARKER).is_file():
            return root / name
    return None


def hub_cache() -> Path:
    """The Hugging Face hub's cache, as huggingface_hub resolves it: $HF_HUB_CACHE,
    else $HUGGINGFACE_HUB_CACHE, else $HF_HOME/hub, else $XDG_CACHE_HOME/huggingface/hub,
    else ~/.cache/huggingface/hub (huggingface_hub, src/huggingface_hub/constants.py,
    HF_HOME and HF_HUB_CACHE)."""
    for name in ("HF_HUB_CACHE", "HUGGINGFACE_HUB_CACHE"):
        if os.environ.get(name):
            return Path(os.path.expanduser(os.environ[name]))
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    home = os.environ.get("HF_HOME") or os.path.join(cache, "huggingface")
    return Path(os.path.expanduser(home)) / "hub"


def snapshot(hub: str) -> Path:
    """Where ``<model id>@<commit>`` is in the hub's cache: a model's files are in
    ``models--<org>--<name>/snapshots/<commit>/`` (huggingface_hub,
    src/huggingface_hub/file_download.py: ``repo_folder_name`` joins "models" and the
    id's parts with "--"; ``hf_hub_download``'s docstring draws the blobs/, refs/ and
    snapshots/ layout). The folder may not exist."""
    repo, _, commit = hub.partition("@")
    return hub_cache() / "--".join(("models", *repo.split("/"))) / "snapshots" / commit


class Corrupt(ValueError):
    """A pinned file of an encoder is missing or not the bytes the build used."""


CHUNK = 1 << 20


def verify(folder: Path, pins: dict[str, str]) -> None:
    """Each pinned file's sha256 (``pins``: its path in the folder -> sha256), or
    ``Corrupt`` naming the first that differs, with the digest expected and found."""
    for name, expected in sorted(pins.items()):
        digest = hashlib.sha256()
        try:
            with open(folder / name, "rb") as handle:
                while block := handle.read(CHUNK):
                    digest.update(block)
        except OSError as error:
            raise Corrupt(f"{folder / name}: {error.strerror or error}") from None
        if digest.hexdigest() != expected:
            raise Corrupt(
                f"{folder / name}: sha256 {digest.hexdigest()}, expected {expected}"
            )


def describe(folder: Path, spec: Any = None) -> dict[str, Any]:
    """An encoder's ``ENCODER.json`` (or ``spec``, the one a build gave a hub
    snapshot), checked: known kind, plain file names."""
    if spec is None:
        spec = json.loads((folder / MARKER).read_text(encoding="utf-8"))
    if not isinstance(spec, dict) or spec.get("kind") not in KINDS:
        raise ValueError(f"{folder / MARKER}: not an encoder of a known kind")
    for part in spec.get("dense", []):
        if not re.fullmatch(r"[0-9]_Dense", str(part)):
            raise ValueError(f"{folder / MARKER}: bad dense layer {part!r}")
    files = spec.get("files", {})  # pins of a folder skillc does not know
    if not isinstance(files, dict) or not all(
        re.fullmatch(r"(?!.*\.\.)[\w.-]+(/[\w.-]+)*", str(path))
        and re.fullmatch(r"[0-9a-f]{64}", str(sha256))
        for path, sha256 in files.items()
    ):
        raise ValueError(f"{folder / MARKER}: files must map paths in it to sha256")
    return spec


class Encoder:
    """A loaded encoder: ``embed`` gives unit float32 rows (numpy). ``pins``: the
    files checked before any is read (``verify``); ``spec``: see ``describe``."""

    def __init__(
        self, folder: Path, pins: dict[str, str] | None = None, spec: Any = None
    ) -> None:
        spec = describe(folder, spec)
        verify(folder, pins or {})
        self.folder = folder
        self.name = str(spec["name"])
        self.model = str(spec["model"])
        self.kind = str(spec["kind"])
        self.dim = int(spec["dim"])
        self.max_tokens = int(spec.get("max_tokens", 256))
        self.prefix = {
            True: str(spec.get("query_prefix", "")),
            False: str(spec.get("document_prefix", "")),
        }
        self.dense = [str(part) for part in spec.get("dense", [])]
        self.numpy = importlib.import_module("numpy")
        self._run: Any = getattr(self, f"_load_{self.kind.replace('-', '_')}")()

    def embed(self, texts: list[str], query: bool = False) -> Any:
        """The unit vectors of ``texts`` (float32, one row each), in batches of
        similar lengths."""
        numpy = self.numpy
        prefixed = [self.prefix[query] + text for text in texts]
        result = numpy.zeros((len(texts), self.dim), dtype=numpy.float32)
        order = sorted(range(len(texts)), key=lambda i: len(prefixed[i]))
        for start in range(0, len(order), BATCH):
            chunk = order[start : start + BATCH]
            result[chunk] = self._run([prefixed[i] for i in chunk])
        norms = numpy.linalg.norm(result, axis=1, keepdims=True)
        return result / numpy.where(norms == 0, 1, norms)

    def _load_hashing(self) -> Any:
        numpy = self.numpy

        def run(texts: list[str]) -> Any:
            rows = numpy.zeros((len(texts), self.dim), dtype=numpy.float32)
            for row, text in zip(rows, texts):
                for word in re.findall(r"\w+", text.lower()):
                    digest = hashlib.sha256(word.encode()).digest()
                    row[digest[0] % self.dim] += 1 if digest[1] % 2 else -1
            return rows

        return run

    def _session(self) -> Any:
        """onnxruntime's session of the folder's model.onnx, on the CPU."""
        ort = importlib.import_module("onnxruntime")
        options = ort.SessionOptions()
        if THREADS:
            options.intra_op_num_threads = THREADS
            options.inter_op_num_threads = 1
        return ort.InferenceSession(
            str(self.folder / "model.onnx"), options, providers=["CPUExecutionProvider"]
        )

    def _padded(self, ids: list[list[int]]) -> tuple[Any, Any]:
        """Token ids as one int64 batch, right-padded with 0, and its attention mask."""
        numpy = self.numpy
        batch = numpy.zeros((len(ids), max(map(len, ids))), dtype=numpy.int64)
        mask = numpy.zeros_like(batch)
        for row, tokens in enumerate(ids):
            batch[row, : len(tokens)] = tokens
            mask[row, : len(tokens)] = 1
        return batch, mask

    def _load_onnx_wordpiece(self) -> Any:
        from . import _embed

        numpy = self.numpy
        session = self._session()
        vocab = (self.folder / "vocab.txt").read_text(encoding="utf-8").splitlines()
        tokenize = _embed.Tokenizer(vocab)
        first, last = tokenize.ids["[CLS]"], tokenize.ids["[SEP]"]

        def run(texts: list[str]) -> Any:
            batch, mask = self._padded(
                [[first, *tokenize(t)[: self.max_tokens - 2], last] for t in texts]
            )
            inputs = {"input_ids": batch, "attention_mask": mask}
            if "token_type_ids" in {i.name for i in session.get_inputs()}:
                inputs["token_type_ids"] = numpy.zeros_like(batch)
            (hidden,) = session.run(["last_hidden_state"], inputs)
            weights = mask[:, :, None].astype(numpy.float32)
            return (hidden * weights).sum(axis=1) / weights.sum(axis=1)

        return run

    def _load_onnx_tokenizers(self) -> Any:
        session = self._session()
        tokenizers = importlib.import_module("tokenizers")
        # A tokenizer.json is data (a Rust parser reads it; no code runs from it).
        tokenizer = tokenizers.Tokenizer.from_file(str(self.folder / "tokenizer.json"))
        tokenizer.no_padding()
        tokenizer.enable_truncation(self.max_tokens)  # counts the special tokens

        def run(texts: list[str]) -> Any:
            batch, mask = self._padded([e.ids for e in tokenizer.encode_batch(texts)])
            inputs = {"input_ids": batch, "attention_mask": mask}
            (pooled,) = session.run(["sentence_embedding"], inputs)
            return pooled

        return run

    def _load_transformers(self) -> Any:
        torch = importlib.import_module("torch")
        if THREADS:
            torch.set_num_threads(THREADS)
        tokenizer, model, dense = load_transformers(self.folder, self.dense)

        def run(texts: list[str]) -> Any:
            batch = tokenizer(
                texts,
                padding=True,
                truncation=True,
                max_length=self.max_tokens,
                return_tensors="pt",
            )
            with torch.inference_mode():
                hidden = model(**batch).last_hidden_state
                pooled = pool(hidden, batch["attention_mask"], dense)
            return pooled.float().numpy()

        return run


def load_transformers(folder: Path, dense: list[str]) -> tuple[Any, Any, list[Any]]:
    """A transformers folder's tokenizer, its model (float32, in eval mode) and the
    weights of its sentence-transformers ``dense`` layers: safetensors only, no remote
    code, nothing downloaded. The export to ONNX (skillc's ``embed/export.py``) loads
    its source with this too."""
    torch = importlib.import_module("torch")
    transformers = importlib.import_module("transformers")
    safetensors = importlib.import_module("safetensors.torch")
    transformers.logging.set_verbosity_error()  # no progress bars, no notes
    transformers.logging.disable_progress_bar()
    tokenizer = transformers.AutoTokenizer.from_pretrained(
        str(folder), local_files_only=True, trust_remote_code=False
    )
    model = transformers.AutoModel.from_pretrained(
        str(folder),
        local_files_only=True,
        trust_remote_code=False,
        use_safetensors=True,
        dtype=torch.float32,
    ).eval()
    weights = [
        safetensors.load_file(str(folder / part / "model.safetensors"))["linear.weight"]
        for part in dense
    ]
    return tokenizer, model, weights


def pool(hidden: Any, mask: Any, dense: Any) -> Any:
    """Sentence vectors as sentence-transformers makes them: the token vectors
    averaged over the attention mask, then each dense layer (no activation)."""
    weights = mask.unsqueeze(-1).to(hidden.dtype)
    pooled = (hidden * weights).sum(1) / weights.sum(1).clamp(min=1)
    for weight in dense:
        pooled = pooled @ weight.T
    return pooled
