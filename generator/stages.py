"""The stages of a build that has something to do (pipeline.run decides): load every
input through the cache, resolve the model, and render every output file from its
views. Imported after the no-op decision: everything a build uses is imported here.
"""

from __future__ import annotations

import functools
import hashlib
import os
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from types import ModuleType
from typing import Any, TypeVar

from . import cache, digests, discover, discover_views, loaders, tokens, verdicts
from .checks import bom, strict
from .config import Config
from .diagnostic import Diagnostic
from .diagnostics import Report, Severity
from .discover_plugins import plugin_format
from .discovered import Kind
from .emitters import agent_docs, ai_tools, budgets, lock_report, mcp_skills
from .emitters import provider_files, python_package, search_index, search_model
from .emitters import packages, render, skill_files, well_known
from .ir import Definition, Function, Invalid, Model, SourceFile, Verdict, to_json
from .loaders import agent, ai_tool, command, references, skill, skill_tools
from .loaders import tool_manifest
from .loaders import tools_file
from .loaders.plugin import load_plugin
from .resolve import BUILTIN_ROOT, resolve
from .resources import BUILTINS
from .views import builder, pytypes

# Each Markdown kind's loader, and each manifest format's.
MARKDOWN = {Kind.SKILL: skill, Kind.AGENT: agent, Kind.COMMAND: command}
MANIFESTS = {
    "tools": tools_file,
    "tool-manifest": tool_manifest,
    "ai-tool": ai_tool,
    "skill-tools": skill_tools,  # a skill folder's tools
}

T = TypeVar("T")


def _memoised(
    memo: cache.Cache,
    kind: str,
    make: Callable[..., T],
    by: Callable[..., tuple[Any, ...]] = lambda *arguments: arguments,
) -> Callable[..., T]:
    """``make``, its results kept in ``memo`` by ``kind`` and what ``by`` makes of the
    arguments (the arguments themselves unless told)."""

    def made(*arguments: Any) -> T:
        key = cache.key(kind, *by(*arguments))
        value = memo.get(key)
        if value is None:
            value = make(*arguments)
            memo.put(key, value)
        return value  # type: ignore[no-any-return]

    return made


# ----------------------------------------------------------------------------- load


Inputs = dict[str, tuple[str, str, int]]  # path -> (sha256, real path, size)
LoaderResult = tuple[Any, list["Diagnostic"]]  # a loader's result, and what it reported


def model(
    config: Config,
    report: Report,
    found: discover.Discovery,
    inputs: tuple[Inputs, dict[str, bytes]],
    memo: cache.Cache,
    generator: str,
) -> Model:
    """Load every input (through the memo) from the bytes hashed (``inputs``: their
    digests, and the bytes by path), and resolve them into the model (``generator``:
    what made it)."""
    with loaders.hashed(inputs[1]):  # the loaders read the bytes hashed
        return _model(config, report, found, inputs[0], memo, generator)


def _model(
    config: Config,
    report: Report,
    found: discover.Discovery,
    inputs: Inputs,
    memo: cache.Cache,
    generator: str,
) -> Model:
    project = config.root.resolve()
    load = functools.partial(_load, config, report, inputs, memo, {})
    plugins: dict[Path, Any] = dict(found.defined)
    definitions: list[Definition] = []
    functions: list[Function] = []
    summaries: dict[str, str] = {}
    for name in config.builtins:
        builtin = _builtin(name, memo)
        functions += builtin.functions
        summaries[name] = builtin.summary
    for item in found.found:
        if item.kind is Kind.TOOL:
            manifest = MANIFESTS[item.manifest]
            loaded = load(item, manifest, None)
            functions += loaded.functions
            if loaded.summary and loaded.functions:
                namespace = ".".join(loaded.functions[0].path[:-1])
                summaries.setdefault(namespace, loaded.summary)
            continue
        plugin = None
        if item.plugin is not None:
            if item.plugin not in plugins:
                where = item.plugin
                form = plugin_format(where)
                plugins[where] = _guarded(
                    lambda: load_plugin(
                        where, project, report, config.max_file_bytes, form
                    ),
                    discover.relative(where, project),
                    report,
                    None,
                )
            plugin = plugins[item.plugin]
            if plugin is None:
                continue  # an invalid or refused plugin: none of it is compiled
        if item.kind is Kind.SKILL and discover.has_tools(item.files):
            own = MANIFESTS["skill-tools"]
            functions += load(item, own, None).functions
        owner = plugin.name if plugin else None
        markdown = MARKDOWN[item.kind]
        loaded = load(item, markdown, owner)
        if loaded.definition is not None:
            folder = plugin.folder if plugin else None
            definitions.append(replace(loaded.definition, plugin_dir=folder))
    definitions = references.resolved(
        definitions, report, project, config.max_file_bytes
    )
    summaries |= {p.name: p.description for p in plugins.values() if p is not None}
    base = os.fspath(project) + os.sep
    sources = tuple(
        SourceFile(
            discover.relative(path, project),
            digest,
            size,
            os.path.abspath(path).startswith(base) and not real.startswith(base),
        )
        for path, (digest, real, size) in sorted(inputs.items())
    )
    settled = verdicts.settle(
        definitions,
        found.reach,
        found.targets,
        report,
        found.not_compiled,
    )
    discover_views.summarise(settled.not_compiled, {}, report)
    model = resolve(
        [*settled.definitions, *functions],
        summaries,
        sources,
        generator,
        report,
        config.max_depth,
        config.provider_name_limit,
    )
    left = (*found.not_compiled, *settled.not_compiled)
    shadowed = (*model.shadowed, *settled.shadowed)
    return replace(
        model,
        invalid=_invalid(report),
        not_compiled=tuple(sorted(left, key=lambda n: (n.path, n.name))),
        hooks=found.hooks,
        mcp_servers=found.mcp_servers,
        shadowed=tuple(sorted(shadowed, key=lambda s: (s.qualname, s.shadowed.path))),
        targets=found.targets,
        verdicts=tuple(settled.verdicts),
    )


def _load(
    config: Config,
    report: Report,
    inputs: Inputs,
    memo: cache.Cache,
    folders: dict[str, str],
    item: discover.Found,
    module: ModuleType,
    plugin: str | None,
) -> Any:
    """What the loader ``module`` makes of ``item`` (``plugin``: its plugin's name), from
    the memo when every file it reads is as it was. ``folders``: real paths of folders
    met before (``digests.same``: 1,000 skills checked in 0.03 s of CPU, not 0.06)."""
    read = _files_read(item, module, inputs)
    settings = (config.strict, sorted(config.ignore), config.max_file_bytes)
    allowlist = config.install_allowlist
    was = [inputs[path] for path in read]
    key = cache.key(
        "load", module.__name__, repr(item), plugin, settings, allowlist, was
    )
    kept: LoaderResult | None = memo.get(key)
    if kept is None:
        scratch = Report(strict=config.strict, ignore=frozenset(config.ignore))
        context = loaders.Context(
            project=config.root.resolve(),
            report=scratch,
            max_file_bytes=config.max_file_bytes,
            plugin=plugin,
            install_allowlist=tuple(allowlist),
        )
        load = module.load
        rel = discover.relative(item.path, context.project)
        result = _guarded(lambda: load(item, context), rel, scratch, loaders.Loaded())
        kept = result, scratch.items
        if digests.same(read, inputs, folders, context.max_file_bytes):
            memo.put(key, kept)  # none changed since
    report.extend(kept[1])
    return kept[0]


def _files_read(item: discover.Found, module: ModuleType, inputs: Inputs) -> list[str]:
    """The input files the loader reads: the item's, and a skill's metadata.yaml; a
    skill's tool-manifest.yaml and scripts for its tools."""
    path = os.fspath(item.path)
    folder = os.path.dirname(path)
    if module is skill_tools:
        names = [
            name
            for name in item.files
            if name == discover.TOOL_MANIFEST or discover.is_script(name)
        ]
        return [p for p in (os.path.join(folder, n) for n in names) if p in inputs]
    if item.kind.value != "skill":
        return [path]
    # Beside SKILL.md: its metadata.yaml, and Codex's agents/openai.yaml.
    besides = (discover.METADATA_FILE, os.path.join("agents", "openai.yaml"))
    return [
        path,
        *(p for p in (os.path.join(folder, b) for b in besides) if p in inputs),
    ]


def _guarded(load: Callable[[], T], rel: str, report: Report, failed: T) -> T:
    """A loader's result; an exception no loader foresaw (a bug in skillc) becomes an
    error located at the file, so one odd file never takes the other tools down."""
    try:
        return load()
    except Exception as exc:  # noqa: BLE001 - reported, with what was raised
        report.error(
            rel,
            1,
            1,
            "load-failed",
            f"skillc could not load this file ({type(exc).__name__}: {exc}); "
            "please report it",
        )
        return failed


def _builtin(name: str, memo: cache.Cache) -> Any:
    """A built-in namespace, from the manifest shipped inside skillc."""

    def load(name: str) -> Any:
        path = BUILTINS / f"{name}{discover.TOOLS_SUFFIX}"
        scratch = Report()
        where = f"<skillc>/builtins/{path.name}"
        summary, functions = tools_file.read(
            path, where, BUILTIN_ROOT, scratch, 1 << 20, "builtin"
        )
        if scratch.items:
            raise RuntimeError(f"the built-in {name} manifest: {scratch.items}")
        return loaders.Loaded(functions=tuple(functions), summary=summary)

    return _memoised(memo, "builtin", load)(name)


def _harnesses(model: Model) -> dict[str, Any]:
    """report.json's ``harnesses`` (the clients the build follows) and ``verdicts``
    (each one's on each item of their layouts): none when it follows none."""
    if not model.targets:
        return {}
    verdicts = [
        to_json(item)
        | {"clients": {c: _said(v) for c, v in sorted(item.clients.items())}}
        for item in model.verdicts
    ]
    return {"harnesses": list(model.targets), "verdicts": verdicts}


def _said(verdict: Verdict) -> dict[str, str]:
    """A verdict as report.json gives it: its outcome, and its name and why if any."""
    said = to_json(verdict).items()
    return {key: value for key, value in said if value and key != "source"}


def _invalid(report: Report) -> tuple[Invalid, ...]:
    codes: dict[str, set[str]] = {}
    for d in report.items:
        if d.severity is Severity.ERROR:
            codes.setdefault(d.path, set()).add(d.code)
    return tuple(Invalid(path, tuple(sorted(c))) for path, c in sorted(codes.items()))


def emit(
    model: Model, config: Config, report: Report, memo: cache.Cache
) -> dict[str, bytes]:
    """Every output file: the views of the tools, rendered by each emitter."""
    embedding = search_index.hybrid(config.find_tool, report)
    encoder = search_model.choose(config, report)
    count = tokens.counter(config.token_counter)
    if config.token_counter != tokens.ESTIMATE:  # 2,000 estimates: 0.001 s of CPU,
        # their look-ups in the memo file up to 0.05 s (1,000 skills of tests/bench.py)
        count = _memoised(memo, f"tokens:{config.token_counter}", count)
    hard = _memoised(memo, "typing", pytypes.type_hard)  # by datamodel-code-generator
    typing = functools.partial(pytypes.type_loosely, hard=hard)

    views = tuple(builder.build(t, config.package, count, typing) for t in model.tools)
    package = builder.package(model, views)
    python_package.check(package, config.package, report)
    offered = package.offered
    layout = _memoised(memo, "black", render.black)  # see python_package.tool_module
    # A tool's module by its view (a frozen dataclass, keyed by its repr): one change
    # renders its tool's module alone (wshobson's 485 tools, one subagent edited: the
    # rebuild 2.0 -> 1.3 s).
    module = _memoised(
        memo, "module", functools.partial(python_package.tool_module, layout=layout)
    )
    files = python_package.emit(package, config, report, module)
    files |= agent_docs.emit(package, config)
    files |= ai_tools.emit(package)
    files |= bom.emit(model, config, package.generator)
    summaries = {ns.qualname: ns.summary for ns in package.namespaces}
    providers, notes = provider_files.emit(offered, config, report, summaries)
    files |= providers
    files |= (model_files := search_model.emit(offered, encoder, memo, report))
    # Each tool's vector, kept by its text: a rebuild makes the changed tools' alone
    # (see search_index.Embedding for the figure).
    vector = None
    if embedding is not None:
        table = embedding.model
        vector = _memoised(memo, "vector", embedding.fragment, lambda t: (table, t))
    method = "model" if model_files else None
    files |= search_index.emit(offered, embedding, vector, method)
    published = skill_files.published(package, config, report)
    files |= mcp_skills.emit(published)
    budget = budgets.measure(package, files, count, config.token_counter)
    files |= lock_report.emit_report(
        package,
        report.items,
        notes,
        budget,
        search_index.summary(embedding) | search_model.summary(encoder, model_files),
        strict.eligibility(offered, notes) | _harnesses(model),
    )
    output = {path: text.encode("utf-8") for path, text in files.items()}
    if config.well_known_index:  # bytes: its archives
        output |= well_known.emit(published, well_known.reader(config.root), report)
    output |= packages.emit(package, published, config, report)
    sums = {path: hashlib.sha256(data).hexdigest() for path, data in output.items()}
    roots = packages.root.emit(output, config)  # at the root: owned through the lock
    at_root = {path: hashlib.sha256(data).hexdigest() for path, data in roots.items()}
    lock = lock_report.emit_lock(package, config.out, config.as_json(), sums, at_root)
    output |= {path: text.encode("utf-8") for path, text in lock.items()}
    return dict(sorted(output.items()))
