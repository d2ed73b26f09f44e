"""The whole pipeline, one direction: config -> discover -> load -> resolve -> views ->
emit, with the output as ``{path: text}``. The CLI parses arguments, calls ``run``, and
writes or checks what it returns.

When the inputs are those of the last build and its output is untouched, ``run`` says
so before the loaders and emitters are even imported (``stages`` holds them).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from generator import cache, discover, writer
from generator.config import Config
from generator.diagnostics import Report
from generator.discover import relative
from generator.ir import Model


@dataclass(frozen=True)
class Result:
    key: str  # the inputs key of this build (the cache's state records it)
    model: Model | None = None  # None: the output folder is up to date
    files: dict[str, str] = field(default_factory=dict)  # relative to the output folder
    digests: dict[str, str] = field(default_factory=dict)  # the sha256 of each file
    tools: int = 0  # how many tools it has
    spliced: bool = False  # made by splicing the changes into the last build (delta)
    plan: writer.Plan | None = None  # what writing it changes, when already known


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
    walk = Report(strict=config.strict, ignore=frozenset(config.ignore))
    discovery = discover.discover(
        config.source_dirs(),
        project,
        config.out_dir,
        walk,
        config.exclude,
        config.max_file_bytes,
    )
    key, hashes = inputs_key(discovery, project, settings(config, store.fingerprint))
    if reuse and _unchanged(store, key, config.out_dir):
        report.extend(store.state.diagnostics)
        return Result(key)
    report.extend(walk.items)

    # The loaders and emitters are imported only when there is work to do.
    from generator.emitters import render
    from generator.pipeline import delta, stages

    if not emit:
        model = stages.compile_model(config, report, discovery, hashes, store.memo)
        return Result(key, model, tools=len(model.tools))
    bytecode = store.subfolder("jinja") if store.enabled and write_cache else None
    if bytecode is not None:
        render.use_bytecode_cache(bytecode)
    # Only a build that writes its output and cache splices into the last one.
    spliced = store.enabled and write_cache and reuse
    framed = delta.frame(settings(config, store.fingerprint), discovery, walk.items)
    rebuilt = (
        delta.attempt(config, report, store, discovery, hashes, key, framed)
        if spliced
        else None
    )
    if rebuilt is not None:
        empty = Model("", (), (), (), (), ())
        return Result(
            key,
            empty,
            rebuilt.files,
            rebuilt.digests,
            rebuilt.count,
            spliced=True,
            plan=rebuilt.plan,
        )
    model, files, digests = stages.build(config, report, discovery, hashes, store.memo)
    if store.enabled and write_cache:
        delta.remember(store, key, framed, discovery, hashes, model, report.items)
    return Result(key, model, files, digests, len(model.tools))


def model(config: Config, report: Report) -> Model:
    """The project's intermediate model, built without a cache."""
    result = run(config, report, cache.Cache(config.root, enabled=False), emit=False)
    assert result.model is not None
    return result.model


def settings(config: Config, fingerprint: str) -> dict[str, Any]:
    """What a build depends on besides its input files."""
    from generator.emitters.search_index import table_key

    return {
        **config.as_json(),
        "generator": fingerprint,
        "find-tool-table": table_key(config.find_tool),
    }


def inputs_key(
    discovery: discover.Discovery, project: Path, settings: dict[str, Any]
) -> tuple[str, dict[str, str]]:
    """A hash of everything a build reads (settings, file names, input contents), and
    the sha256 of each input file."""
    digest = hashlib.sha256(json.dumps(settings, sort_keys=True).encode())
    hashes = {path: _file_hash(path) for path in discovery.inputs}
    for item in discovery.found:
        plugin = relative(item.plugin, project) if item.plugin else ""
        line = f"{item.kind.value}\0{relative(item.path, project)}\0{item.root}\0{plugin}\0"
        digest.update(line.encode() + "\0".join(item.files).encode() + b"\n")
    for path, sha in hashes.items():
        digest.update(relative(path, project).encode() + b"\0" + sha.encode())
    return digest.hexdigest(), hashes


def _file_hash(path: str) -> str:
    try:
        with open(path, "rb") as handle:
            return hashlib.sha256(handle.read()).hexdigest()
    except OSError:
        return "unreadable"


def _unchanged(store: cache.Cache, key: str, out_dir: Path) -> bool:
    """The inputs are those of the last build and its output is untouched: no work."""
    return store.state.key == key and cache.outputs_untouched(
        out_dir, store.state.outputs
    )
