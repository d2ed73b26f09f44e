"""``_search_model.py``: each tool's vector by the encoder of find_tool's model mode
(``find-tool = "model"``, ``find-tool-encoder``), int8, with the encoder's name and
model and the fusion weights chosen for it. Vectors are memoised by the encoder's model
and the tool's text, so the encoder is loaded only when a tool's text is new."""

from __future__ import annotations

import base64
import hashlib
import json
from dataclasses import dataclass
from typing import Any, Protocol

from ..config import Config
from ..diagnostics import Report
from ..embed import encoders
from ..emitters import render
from ..emitters.search_index import HEADER, embed_text
from ..views import ToolView, pylit


class Store(Protocol):
    """Where vectors are kept between builds (the pipeline's memo)."""

    def get(self, key: str) -> Any: ...

    def put(self, key: str, value: object) -> None: ...


@dataclass
class Chosen:
    """The encoder a build embeds with, loaded when a vector is first made."""

    name: str
    found: encoders.Found
    loaded: Any = None

    @property
    def model(self) -> str:
        return self.found.model

    def embed(self, texts: list[str]) -> Any:
        if self.loaded is None:
            self.loaded = encoders.runtime().Encoder(self.found.folder)
        return self.loaded.embed(texts)


def fetch_hint(name: str) -> str:
    """How a user gets the encoder ``name``."""
    known = encoders.ENCODERS.get(name)
    if known is None:
        return f"put it in a folder {name}/ where skillc looks (README: find_tool)"
    opt_in = f" {known.opt_in}" if known.opt_in else ""
    return f"python -m skillc.embed.fetch {name}{opt_in}"


def choose(config: Config, report: Report) -> Chosen | None:
    """The encoder when ``find-tool`` is "model" and it is installed; else None, with
    a warning when model mode was asked for (the package ranks as "hybrid" does)."""
    if config.find_tool != "model":
        return None
    name = config.find_tool_encoder
    found = encoders.find(name)
    if found is None:
        _static(report, f"the encoder {name} is not installed ({fetch_hint(name)})")
        return None
    return Chosen(name, found)


def _static(report: Report, why: str) -> None:
    report.warning("pyproject.toml", 1, 1, "find-tool-static", f"find_tool: {why}")


def emit(
    tools: tuple[ToolView, ...], chosen: Chosen | None, memo: Store, report: Report
) -> dict[str, str]:
    """``_search_model.py`` (nothing when the package has no model mode)."""
    if chosen is None:
        return {}
    texts = [embed_text(t) for t in tools]
    keys = [_key(chosen.model, text) for text in texts]
    rows: list[tuple[str, float] | None] = [memo.get(key) for key in keys]
    missing = [i for i, row in enumerate(rows) if row is None]
    if missing:
        try:
            made = chosen.embed([texts[i] for i in missing])
        except Exception as error:  # torch, onnxruntime: anything, as a warning
            _static(report, f"the encoder {chosen.name} cannot run: {error!r}")
            return {}
        for i, vector in zip(missing, made):
            rows[i] = quantise(vector)
            memo.put(keys[i], rows[i])
    weight, floor = encoders.fusion(chosen.name)
    known = encoders.ENCODERS.get(chosen.name)
    return {
        # The encoder's runtime, only in the packages that use it.
        "_encoder.py": HEADER + render.static("_encoder.py"),
        "_search_model.py": HEADER
        + '"""find_tool\'s model mode: the encoder, the fusion weights, and each'
        " tool's\nvector by it (int8 rows in base64, in the order of"
        ' _search_index.TOOLS)\nand the scale that restores each."""\n\n'
        "from __future__ import annotations\n\n"
        "from typing import Final\n\n"
        + f"ENCODER: Final = {pylit.pyvalue(chosen.name)}\n"
        + f"MODEL: Final = {pylit.pyvalue(chosen.model)}\n"
        + f"DIM: Final = {int(chosen.found.spec['dim'])}\n"
        + f"WEIGHT: Final = {weight!r}\n"
        + f"FLOOR: Final = {floor!r}\n"
        + f"FETCH: Final = {pylit.pyvalue(fetch_hint(chosen.name))}\n"
        + f"EXTRA: Final = {pylit.pyvalue(known.extra if known else '')}\n"
        + "VECTORS: Final[list[str]] = "
        + pylit.pyvalue([row[0] for row in rows if row is not None])
        + "\nSCALES: Final[list[float]] = "
        + pylit.pyvalue([row[1] for row in rows if row is not None])
        + "\n",
    }


def _key(model: str, text: str) -> str:
    data = json.dumps(["model-vector", model, text], ensure_ascii=False)
    return hashlib.sha256(data.encode()).hexdigest()


def quantise(vector: Any) -> tuple[str, float]:
    """A unit vector as int8 (base64) and the scale that restores it."""
    import numpy

    peak = float(numpy.abs(vector).max())
    if peak == 0:
        return base64.b64encode(bytes(len(vector))).decode(), 0.0
    scale = peak / 127
    row = numpy.rint(vector / scale).astype(numpy.int8).tobytes()
    return base64.b64encode(row).decode(), scale


def summary(chosen: Chosen | None, files: dict[str, str]) -> dict[str, str]:
    """What report.json says of model mode (``files``: what ``emit`` wrote)."""
    if chosen is None or not files:
        return {}
    return {"method": "model", "encoder": chosen.name, "encoder_model": chosen.model}
