"""``_search_model.py``: each tool's vector by the encoder of find_tool's model mode
(``find-tool = "model"``, ``find-tool-encoder``), int8, with the encoder's name and
model and the fusion weights chosen for it. Vectors are memoised by the encoder's model
and the tool's text, so the encoder is loaded only when a tool's text is new."""

from __future__ import annotations

import base64
import hashlib
import json
import textwrap
from dataclasses import dataclass
from typing import Any, Protocol

from ..config import Config
from ..project import read_pyproject
from ..toml_keys import position
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
    """The encoder a build embeds with, loaded (its pinned files checked) when a
    vector is first made; ``config`` says what to do when it cannot be."""

    name: str
    found: encoders.Found
    config: Config
    loaded: Any = None

    @property
    def model(self) -> str:
        return self.found.model

    def embed(self, texts: list[str]) -> Any:
        if self.loaded is None:
            found = self.found
            spec = (
                found.spec if found.hub else None
            )  # a hub snapshot has no ENCODER.json
            self.loaded = encoders.runtime().Encoder(found.folder, found.pins, spec)
        return self.loaded.embed(texts)


def choose(config: Config, report: Report) -> Chosen | None:
    """The encoder when ``find-tool`` is "model" and it can be found; else None, with
    an error (or, with ``find-tool-fallback = "hybrid"``, a warning: the package ranks
    as "hybrid" does)."""
    if config.find_tool != "model":
        return None
    try:
        found = encoders.find(config.find_tool_encoder, config.find_tool_encoder_hub)
    except encoders.Unavailable as error:
        unavailable(config, report, str(error))
        return None
    return Chosen(config.find_tool_encoder, found, config)


def unavailable(config: Config, report: Report, why: str) -> None:
    """An ``encoder-unavailable`` error at the setting that names the encoder, or the
    ``find-tool-static`` warning when the project accepts a hybrid package."""
    if config.find_tool_fallback == "hybrid":
        report.warning(
            "pyproject.toml", 1, 1, "find-tool-static", f"find_tool ranks hybrid: {why}"
        )
        return
    text = read_pyproject(config.root)
    line, col = position(text, ("find-tool-encoder",))
    if (line, col) == position(text, ()):  # the default encoder: at find-tool
        line, col = position(text, ("find-tool",))
    report.error(
        "pyproject.toml",
        line,
        col,
        "encoder-unavailable",
        f'find-tool = "model": {why} (or set find-tool-fallback = "hybrid")',
    )


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
        except Exception as error:  # a pinned file that differs; torch, onnxruntime
            why = str(error) if isinstance(error, ValueError) else repr(error)
            unavailable(chosen.config, report, f"{chosen.name} cannot run: {why}")
            return {}
        for i, vector in zip(missing, made):
            rows[i] = quantise(vector)
            memo.put(keys[i], rows[i])
    weight, floor = encoders.fusion(chosen.name)
    found = chosen.found
    known = encoders.ENCODERS.get(chosen.name)
    return {
        "NOTICE": notice(chosen.name),
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
        + f"FETCH: Final = {pylit.pyvalue(encoders.hint(chosen.name, found.hub))}\n"
        + f"HUB: Final = {pylit.pyvalue(found.hub)}\n"
        + f"SPEC: Final = {pylit.pyvalue(found.spec if found.hub else None)}\n"
        + f"FILES: Final[dict[str, str]] = {pylit.pyvalue(found.pins)}\n"
        + f"EXTRA: Final = {pylit.pyvalue(known.extra if known else '')}\n"
        + "VECTORS: Final[list[str]] = "
        + pylit.pyvalue([row[0] for row in rows if row is not None])
        + "\nSCALES: Final[list[float]] = "
        + pylit.pyvalue([row[1] for row in rows if row is not None])
        + "\n",
    }


def notice(name: str) -> str:
    """The package's NOTICE: the encoder its vectors are outputs of, and its licence."""
    known = encoders.ENCODERS.get(name)
    said = [
        f"find_tool's model mode: the tool vectors in _search_model.py are outputs of"
        f" the encoder {name}{f' ({known.licence})' if known else ''}, which also"
        " embeds each purpose at run time. The encoder is not part of this package:"
        " its folder holds its licence (LICENSE) and its NOTICE.",
        *(known.notice.split("\n\n") if known else ()),
    ]
    return "\n\n".join(textwrap.fill(part.strip(), 88) for part in said) + "\n"


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
