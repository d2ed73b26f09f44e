"""The whole pipeline, one direction: config -> discover -> load -> resolve -> views ->
emit, with the output as ``{path: text}``. The CLI parses arguments, calls ``run``, and
writes or checks what it returns.

When the inputs are those of the last build and its output is untouched, ``run`` says
so before the loaders and emitters are even imported (``stages`` holds them); when the
file-system stamps the last build recorded still hold (generator.stamps), before the
discovery walk and without reading an input.
"""

from __future__ import annotations

import hashlib
import json
import pickle
import time
from dataclasses import field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from generator import cache
from generator.collector import pausing
from generator.config import Config
from generator.diagnostics import Diagnostic, Report
from generator.records import record
from generator.resources import table_key
from generator.embed.encoders import encoder_key
from generator.stamps import Stamps, hash_inputs, restamp, same_bytes, same_folders

if TYPE_CHECKING:
    from collections.abc import Callable

    from generator import writer
    from generator.discover import Discovery, Found
    from generator.ir import Model


# The last walk's items are kept as pickles of this many rows each (``Rows``): a
# rebuild that reuses the walk unpickles those of the items it reads.
CHUNK = 16
Rows = tuple[bytes, ...]


@record()
class Result:
    key: str  # the inputs key of this build (the cache's state records it)
    model: Model | None = None  # None: the output folder is up to date
    files: dict[str, str] = field(default_factory=dict)  # relative to the output folder
    digests: dict[str, str] = field(default_factory=dict)  # the sha256 of each file
    stamps: Stamps | None = None  # of the inputs, for the cache's state
    tools: int = 0  # how many tools it has
    spliced: bool = False  # made by splicing the changes into the last build (delta)
    plan: writer.Plan | None = None  # what writing it changes, when already known


@pausing  # the walk, the model and the output: objects that live to the end
def run(
    config: Config,
    report: Report,
    store: cache.Cache,
    *,
    emit: bool = True,
    reuse: bool = True,
    write_cache: bool = True,
) -> Result:
    """Compile the project. ``emit``: False stops after the model (validate);
    ``reuse``: the output folder may be reported up to date without a build;
    ``write_cache``: templates may be compiled into the cache folder."""
    project = config.root.resolve()
    started = time.time_ns()  # before any stamp is taken
    built = settings(config, store.fingerprint)
    digest = _walk_digest(built, project, config)
    known = store.state.stamps
    # Folders unchanged: the inputs are the last walk's; each is hashed only when its
    # stamp changed, and once.
    current = (
        restamp(known, started)
        if reuse and known is not None and same_folders(known, digest)
        else None
    )
    if (
        known is not None
        and current is not None
        and same_bytes(current, known)
        and cache.outputs_untouched(config.out_dir, store.state.outputs)
    ):
        report.extend(store.state.diagnostics)
        return Result(store.state.key, stamps=current)
    walked = _last_walk(current) if current is not None else None
    reused = current if walked is not None else None  # the last walk's stamps
    rows: Rows | None = None  # its items, made into Found when read
    if reused is not None and walked is not None:
        discovery, rows, walk_items, listed = walked
        # Its inputs and folders are those the stamps record (see _stored_walk).
        inputs = tuple(sorted(reused.files))
        discovery = replace(discovery, inputs=inputs, folders=reused.folders)
    else:
        from generator import discover

        walk = Report(strict=config.strict, ignore=frozenset(config.ignore))
        discovery = discover.discover(
            config.source_dirs(),
            project,
            config.out_dir,
            walk,
            config.exclude,
            config.max_file_bytes,
        )
        walk_items = walk.items
        listed = _listed(discovery, project)
    contents: dict[str, bytes] = {}  # the inputs read to hash them, for the loaders
    files = (
        reused.files
        if reused is not None
        else hash_inputs(discovery.inputs, known, contents)
    )
    hashes = {path: stamp[4] for path, stamp in files.items()}
    key = inputs_key(listed[0], discovery.inputs, built, hashes)
    found = (
        reused.walk
        if reused is not None
        else _stored_walk(discovery, walk_items, listed)
    )
    recorded = Stamps(started, digest, discovery.folders, files, found)
    if reuse and _unchanged(store, key, config.out_dir):
        report.extend(store.state.diagnostics)
        return Result(key, stamps=recorded)
    report.extend(walk_items)

    # The loaders and emitters are imported only when there is work to do.
    from generator.emitters import render
    from generator.pipeline import delta, stages

    if not emit:
        discovery = _whole(discovery, rows)
        model = stages.compile_model(
            config, report, discovery, hashes, store.memo, contents
        )
        return Result(key, model, tools=len(model.tools))
    bytecode = store.subfolder("jinja") if store.enabled and write_cache else None
    if bytecode is not None:
        render.use_bytecode_cache(bytecode)
    # Only a build that writes its output and cache splices into the last one.
    spliced = store.enabled and write_cache and reuse
    framed = delta.frame(built, listed[1], discovery, walk_items)
    rebuilt = (
        delta.attempt(
            config,
            report,
            store,
            discovery,
            _reader(discovery, rows),
            hashes,
            key,
            framed,
        )
        if spliced
        else None
    )
    if rebuilt is not None:
        from generator.ir import Model

        return Result(
            key,
            Model("", (), (), (), (), ()),
            rebuilt.files,
            rebuilt.digests,
            recorded,
            rebuilt.count,
            spliced=True,
            plan=rebuilt.plan,
        )
    discovery = _whole(discovery, rows)
    model, output, digests = stages.build(
        config, report, discovery, hashes, store.memo, contents
    )
    if store.enabled and write_cache:
        delta.remember(store, key, framed, discovery, model, report.items)
    return Result(key, model, output, digests, recorded, len(model.tools))


def _stored_walk(
    discovery: Discovery, walk_items: list[Diagnostic], listed: tuple[str, str]
) -> bytes:
    """What the walk found, for the next build to reuse: its items as rows (see
    ``discover.Row``), pickled ``CHUNK`` at a time, beside the rest but its inputs and
    folders (the stamps record them)."""
    from generator.discover import row

    rows = [row(item) for item in discovery.found]
    chunks = tuple(
        pickle.dumps(rows[at : at + CHUNK], pickle.HIGHEST_PROTOCOL)
        for at in range(0, len(rows), CHUNK)
    )
    head = replace(discovery, found=(), inputs=(), folders=None)
    kept = (head, chunks, walk_items, listed)
    return pickle.dumps(kept, pickle.HIGHEST_PROTOCOL)


def _last_walk(
    known: Stamps | None,
) -> tuple[Discovery, Rows, list[Diagnostic], tuple[str, str]] | None:
    """What the last walk found (without its items, given as rows), and its ``_listed``
    digests: a walk reads only folder listings (or it left no folder stamps), so with
    the folders unchanged it would find the same."""
    if known is None or known.walk is None:
        return None
    try:
        walked: tuple[Discovery, Rows, list[Diagnostic], tuple[str, str]]
        walked = pickle.loads(known.walk)
    except Exception:  # noqa: BLE001 - a cache that cannot be read is ignored
        return None
    return walked


def _whole(discovery: Discovery, rows: Rows | None) -> Discovery:
    """The walk's result with its items, made from ``rows`` when it was reused."""
    if rows is None:
        return discovery
    from generator.discover import from_row

    found = tuple(from_row(r) for chunk in rows for r in pickle.loads(chunk))
    return replace(discovery, found=found)


def _reader(discovery: Discovery, rows: Rows | None) -> Callable[[int], Found]:
    """Item ``i`` of the walk, made only when read (a splice reads the changed ones)."""
    if rows is None:
        return discovery.found.__getitem__
    from generator.discover import from_row

    return lambda index: from_row(pickle.loads(rows[index // CHUNK])[index % CHUNK])


def _listed(discovery: Discovery, project: Path) -> tuple[str, str]:
    """Digests of what the walk found, as the inputs key and the delta's frame read
    it: computed once per walk and kept with it, since a rebuild that reuses the walk
    would otherwise go through every item again (a second at 20,000 skills)."""
    from generator.discover import relative

    keyed = [relative(path, project) + "\0" for path in discovery.inputs]
    framed = []
    for item in discovery.found:
        plugin = relative(item.plugin, project) if item.plugin else ""
        keyed.append(
            f"{item.kind.value}\0{relative(item.path, project)}\0{item.root}\0"
            f"{plugin}\0" + "\0".join(item.files) + "\n"
        )
        framed.append(
            f"{item.kind.value}\0{item.path}\0{item.root}\0{item.plugin}\0"
            f"{item.files}\0{item.manifest}\0{item.subfolders}"
        )
    framed.append("\n" + "\0".join(discovery.inputs))
    # One text hashed at once: four times faster than a row at a time.
    return _sha256(keyed), _sha256(framed)


def _sha256(text: list[str]) -> str:
    return hashlib.sha256("".join(text).encode()).hexdigest()


def model(config: Config, report: Report) -> Model:
    """The project's intermediate model, built without a cache."""
    result = run(config, report, cache.Cache(config.root, enabled=False), emit=False)
    assert result.model is not None
    return result.model


def settings(config: Config, fingerprint: str) -> dict[str, Any]:
    """What a build depends on besides its input files."""
    return {
        **config.as_json(),
        "generator": fingerprint,
        "find-tool-table": table_key(config.find_tool),
        # An encoder installed or removed since: model mode's vectors change.
        **(
            {"find-tool-encoder": encoder_key(config)}
            if config.find_tool == "model"
            else {}
        ),
    }


def _walk_digest(settings: dict[str, Any], project: Path, config: Config) -> str:
    """What the discovery walk depends on besides the folders it lists: the settings,
    and where the project, its source roots and its output folder are."""
    where = [str(project), str(config.out_dir), *map(str, config.source_dirs())]
    text = json.dumps([settings, where], sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


def inputs_key(
    listed: str,
    inputs: tuple[str, ...],
    settings: dict[str, Any],
    hashes: dict[str, str],
) -> str:
    """A hash of everything a build reads: settings, what the walk found (``listed``,
    from ``_listed``: its items and input files), and the contents of those ``inputs``
    (``hashes``: the sha256 of each)."""
    text = [
        json.dumps(settings, sort_keys=True),
        listed,
        *map(hashes.__getitem__, inputs),
    ]
    return hashlib.sha256("".join(text).encode()).hexdigest()


def _unchanged(store: cache.Cache, key: str, out_dir: Path) -> bool:
    """The inputs are those of the last build and its output is untouched: no work."""
    return store.state.key == key and cache.outputs_untouched(
        out_dir, store.state.outputs
    )
