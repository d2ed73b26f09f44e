"""The pipeline, one direction: discover, load, validate, resolve, emit. Nothing is written
here: the result is the whole output as ``{path: text}``, written (or checked) by the writer.
"""

from __future__ import annotations

import dataclasses
import hashlib
from dataclasses import dataclass
from pathlib import Path

from generator import __version__, discover
from generator.config import Config
from generator.diagnostics import Report, Severity
from generator.emitters import agent_docs, lock_report, python_package
from generator.ir import Definition, Invalid, Kind, Model, SourceFile
from generator.loaders.agent import load_agent
from generator.loaders.plugin import Plugin, load_plugin
from generator.loaders.skill import load_skill
from generator.resolve import resolve

GENERATOR = f"skillc {__version__}"


@dataclass(frozen=True, slots=True)
class Result:
    model: Model
    files: dict[str, str]  # relative to the output folder


def compile_model(config: Config, report: Report) -> Model:
    project = config.root.resolve()
    found = discover.discover(config.source_dirs(), project, config.out_dir, report)
    plugins: dict[Path, Plugin | None] = {}
    definitions: list[Definition] = []
    read: set[Path] = set()
    for item in found:
        plugin_name = None
        if item.plugin is not None:
            if item.plugin not in plugins:
                plugins[item.plugin] = load_plugin(item.plugin, project, report)
                read.add(item.plugin)
            plugin = plugins[item.plugin]
            if plugin is None:
                continue
            plugin_name = plugin.name
        load = load_skill if item.kind is Kind.SKILL else load_agent
        definition = load(
            item.path, project, item.root, plugin_name, report, config.max_file_bytes
        )
        read.add(item.path)
        if item.kind is Kind.SKILL and (item.path.parent / "metadata.yaml").is_file():
            read.add(item.path.parent / "metadata.yaml")
        if definition is not None:
            definitions.append(definition)
    summaries = {p.name: p.description for p in plugins.values() if p is not None}
    model = resolve(
        definitions, summaries, _hash_sources(read, project), (), GENERATOR, report
    )
    return dataclasses.replace(model, invalid=_invalid(report))


def emit(model: Model, config: Config, report: Report) -> dict[str, str]:
    layout = python_package.Layout(
        package=config.package,
        out=discover.relative(config.out_dir, config.root.resolve()),
        sources=config.sources,
    )
    files = python_package.emit(model, layout)
    files |= agent_docs.emit(model, layout)
    files |= lock_report.emit_report(model, report.items)
    files |= lock_report.emit_lock(model, layout, config.as_json(), files)
    return dict(sorted(files.items()))


def build(config: Config, report: Report) -> Result:
    model = compile_model(config, report)
    return Result(model, emit(model, config, report))


def _hash_sources(paths: set[Path], project: Path) -> tuple[SourceFile, ...]:
    sources = []
    for path in paths:
        try:
            digest = hashlib.sha256(path.read_bytes()).hexdigest()
        except OSError:
            continue
        sources.append(SourceFile(discover.relative(path, project), digest))
    return tuple(sorted(sources, key=lambda s: s.path))


def _invalid(report: Report) -> tuple[Invalid, ...]:
    codes: dict[str, set[str]] = {}
    for d in report.items:
        if d.severity is Severity.ERROR:
            codes.setdefault(d.path, set()).add(d.code)
    return tuple(Invalid(path, tuple(sorted(c))) for path, c in sorted(codes.items()))
