"""The build, top to bottom: config -> discover -> load (through the cache) -> resolve ->
views -> emitters -> ``{path: bytes}``. cli.py writes what ``run`` returns, or checks it.

The build is a pure function of the input files and the settings. ``cache.Memo`` keeps
its parts (loader results, hard typings, exact token counts, black's layouts) by the hash
of what they depend on, and what the last build wrote, for the no-op check (``digests``).
"""

from __future__ import annotations

import functools
import hashlib
import importlib
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar

from . import __version__, cache, config as configuration, digests, tokens
from .config import Config
from .diagnostics import Report, Severity
from .resources import BUILTINS, table_key

if TYPE_CHECKING:  # imported when a build has something to do (see Build)
    from . import discover
    from .diagnostic import Diagnostic
    from .ir import Definition, Function, Invalid, Model

# This package's own import name (skillc, installed from the folder generator/).
_ROOT = __name__.partition(".")[0]

GENERATOR = f"skillc {__version__}"
# Each Markdown kind's loader, by Kind.value, and each manifest format's (imported when
# a project has one).
MARKDOWN = {kind: f"{_ROOT}.loaders.{kind}" for kind in ("skill", "agent", "command")}
MANIFESTS = {
    "tools": f"{_ROOT}.loaders.tools_file",
    "tool-manifest": f"{_ROOT}.loaders.tool_manifest",
    "ai-tool": f"{_ROOT}.loaders.ai_tool",
    "skill-tools": f"{_ROOT}.loaders.skill_tools",  # a skill folder's tools
}
# The distributions whose output reaches the files: a cache of other versions is unused.
DEPENDENCIES = (
    *("black", "datamodel-code-generator", "pydantic", "jsonschema-rs", "PyYAML"),
    *("Jinja2", "numpy", "bpe-openai", "regex"),
)
# What the cache may hold besides plain data: loader results, typings, diagnostics.
CACHED = dict.fromkeys(
    ("Kind", "Definition", "Function", "Position", "Parameter", "PythonExecutor")
    + ("ScriptExecutor", "CliExecutor", "HttpExecutor"),
    f"{_ROOT}.ir",
) | {
    "Loaded": f"{_ROOT}.loaders",
    "Typed": f"{_ROOT}.views.pytypes",
    "Diagnostic": f"{_ROOT}.diagnostic",
    "Severity": f"{_ROOT}.diagnostics",
}
CACHE_DIR = cache.CACHE_DIR
Memo = cache.Memo  # what configure opens, for run (cli.py holds it, never imports it)


class Build(NamedTuple):
    """What ``run`` made. No dataclass: a no-op imports none, nor discover or the model:
    this repo's no-op 1.84x -> 1.36x its floor (bench.py --only repo --runs 7)."""

    files: dict[str, bytes]  # the output, by path relative to the output folder
    model: Model | None = None  # None: the output folder is up to date
    notes: tuple[str, ...] = ()  # cache files found and not trusted, to warn about
    remember: Callable[[], None] = lambda: None  # keep the cache, once written


def configure(root: Path, cached: bool, **flags: Any) -> tuple[Config, cache.Memo]:
    """The project's memo (``cached``: its folder's), then ``config.load`` (``flags``:
    the command line's) given the table the memo's first entry, a witness, keeps."""
    memo = cache.project_memo(root.resolve() if cached else None, CACHED, DEPENDENCIES)
    last = memo.get(memo.first) if memo.first else None
    parsed = last.get("pyproject") if isinstance(last, dict) else None
    return configuration.load(root, **flags, parsed=parsed), memo


def run(
    config: Config,
    report: Report,
    *,
    cached: bool = True,
    writing: bool = False,
    emit: bool = True,
    memo: cache.Memo | None = None,
) -> Build:
    """Compile the project. ``cached``: read the cache (``memo``: configure's);
    ``writing``: the output is about to be written (the cache may say it is up to
    date, and ``remember`` keeps it); ``emit``: False stops after the model."""
    started = time.time_ns()
    project = config.root.resolve()
    settings = [config.as_json(), table_key(config.find_tool), GENERATOR]
    if config.find_tool == "model":  # an encoder installed or removed since
        from .embed import encoders

        settings.append(encoders.encoder_key(config))
    sources = config.source_dirs()
    where = cache.key("last", settings, os.fspath(project), [str(s) for s in sources])
    memo = memo or cache.project_memo(project if cached else None, CACHED, DEPENDENCIES)
    memo.first = where
    last = memo.get(where) if writing and emit else None
    read = {"pyproject": config.pyproject}  # the settings' table, by its text
    if last and digests.unchanged(last["seen"], last["started"]):
        if done := _done(config, report, memo, where, last | read):
            return done
    from . import discover

    walk = Report(strict=config.strict, ignore=frozenset(config.ignore))
    skip = (config.out_dir, project / CACHE_DIR)
    found = discover.discover(
        sources, project, skip, walk, config.exclude, config.max_file_bytes
    )
    report.extend(walk.items)
    inputs, contents = digests.read_all(found.inputs, found.seen, config.max_file_bytes)
    key = cache.key("build", settings, repr(found), walk.items, inputs)
    witness = {"key": key, "seen": found.seen, "started": started} | read
    if last and last["key"] == key:  # a folder or file touched, nothing changed
        if done := _done(config, report, memo, where, last | witness):
            return done
    from . import loaders  # here: a no-op imports no loader (test_startup)

    with loaders.hashed(contents):  # the loaders read the bytes hashed
        model = _model(config, report, found, inputs, memo)
    if not emit:
        return Build({}, model, tuple(memo.ignored))
    files = _emit(model, config, report, memo)

    def remember() -> None:
        if not report.has_errors:
            outputs = digests.kept(config.out_dir, files)
            memo.put(where, witness | {"outputs": outputs, "diagnostics": report.items})
        memo.save()

    notes = tuple(memo.ignored)  # what the look-ups met too
    return Build(files, model, notes, remember if writing else lambda: None)


def _done(
    config: Config, report: Report, memo: cache.Memo, where: str, last: Any
) -> Build | None:
    """Nothing to do when the output folder holds what the last build of these
    settings wrote (``last``: what it saw, wrote and said, kept under ``where``)."""
    if not (held := digests.holds(config.out_dir, last["outputs"], memo.written_ns)):
        return None
    report.extend(last["diagnostics"])
    if held[1] or memo.get(where) != last:  # files were read, or the witness is new
        memo.put(where, last | {"outputs": held[0]})
    return Build({}, notes=tuple(memo.ignored), remember=memo.keep)


# ----------------------------------------------------------------------------- cache


T = TypeVar("T")


def _memoised(
    memo: cache.Memo,
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


def _model(
    config: Config,
    report: Report,
    found: discover.Discovery,
    inputs: Inputs,
    memo: cache.Memo,
) -> Model:
    """Load every input (through the memo) and resolve them into the model."""
    from dataclasses import replace
    from . import discover
    from .discovered import Kind
    from .ir import SourceFile
    from .loaders.plugin import load_plugin
    from .resolve import resolve

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
        if item.kind is Kind.SKILL and discover.has_tools(item.files):
            own = MANIFESTS["skill-tools"]
            functions += load(item, own, None).functions
        plugin = None
        if item.plugin is not None:
            if item.plugin not in plugins:
                where = item.plugin
                form = discover.plugin_format(where)
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
                continue  # an invalid plugin: reported where it was read
        owner = plugin.name if plugin else None
        markdown = MARKDOWN[item.kind.value]
        loaded = load(item, markdown, owner)
        if loaded.definition is not None:
            folder = plugin.folder if plugin else None
            definitions.append(replace(loaded.definition, plugin_dir=folder))
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
    model = resolve(
        [*definitions, *functions],
        summaries,
        sources,
        GENERATOR,
        report,
        config.max_depth,
        config.provider_name_limit,
    )
    return replace(
        model,
        invalid=_invalid(report),
        not_compiled=found.not_compiled,
        hooks=found.hooks,
        mcp_servers=found.mcp_servers,
    )


def _load(
    config: Config,
    report: Report,
    inputs: Inputs,
    memo: cache.Memo,
    folders: dict[str, str],
    item: discover.Found,
    module: str,
    plugin: str | None,
) -> Any:
    """What the loader ``module`` makes of ``item`` (``plugin``: its plugin's name), from
    the memo when every file it reads is as it was. ``folders``: real paths of folders
    met before (``digests.same``: 1,000 skills checked in 0.03 s of CPU, not 0.06)."""
    from . import discover, loaders

    read = _files_read(item, module, inputs)
    settings = (config.strict, sorted(config.ignore), config.max_file_bytes)
    allowlist = config.install_allowlist
    was = [inputs[path] for path in read]
    key = cache.key("load", module, repr(item), plugin, settings, allowlist, was)
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
        load = importlib.import_module(module).load
        rel = discover.relative(item.path, context.project)
        result = _guarded(lambda: load(item, context), rel, scratch, loaders.Loaded())
        kept = result, scratch.items
        if digests.same(read, inputs, folders, context.max_file_bytes):
            memo.put(key, kept)  # none changed since
    report.extend(kept[1])
    return kept[0]


def _files_read(item: discover.Found, module: str, inputs: Inputs) -> list[str]:
    """The input files the loader reads: the item's, and a skill's metadata.yaml; a
    skill's tool-manifest.yaml and scripts for its tools."""
    from . import discover

    path = os.fspath(item.path)
    folder = os.path.dirname(path)
    if module == MANIFESTS["skill-tools"]:
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


def _builtin(name: str, memo: cache.Memo) -> Any:
    """A built-in namespace, from the manifest shipped inside skillc."""

    def load(name: str) -> Any:
        from . import discover
        from .loaders import Loaded, tools_file
        from .resolve import BUILTIN_ROOT

        path = BUILTINS / f"{name}{discover.TOOLS_SUFFIX}"
        scratch = Report()
        where = f"<skillc>/builtins/{path.name}"
        summary, functions = tools_file.read(
            path, where, BUILTIN_ROOT, scratch, 1 << 20, "builtin"
        )
        if scratch.items:
            raise RuntimeError(f"the built-in {name} manifest: {scratch.items}")
        return Loaded(functions=tuple(functions), summary=summary)

    return _memoised(memo, "builtin", load)(name)


def _invalid(report: Report) -> tuple[Invalid, ...]:
    from .ir import Invalid

    codes: dict[str, set[str]] = {}
    for d in report.items:
        if d.severity is Severity.ERROR:
            codes.setdefault(d.path, set()).add(d.code)
    return tuple(Invalid(path, tuple(sorted(c))) for path, c in sorted(codes.items()))


# ----------------------------------------------------------------------------- emit


def _emit(
    model: Model, config: Config, report: Report, memo: cache.Memo
) -> dict[str, bytes]:
    """Every output file: the views of the tools, rendered by each emitter."""
    from .emitters import agent_docs, ai_tools, budgets, lock_report, mcp_skills
    from .emitters import provider_files, python_package, search_index, search_model
    from .emitters import skill_files, tool_modules, well_known
    from .checks import bom, strict
    from .views import builder, pytypes

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
    layout = _memoised(memo, "black", tool_modules.black)  # see its docstring
    files = python_package.emit(package, config, report, layout)
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
        strict.eligibility(offered, notes),
    )
    output = {path: text.encode("utf-8") for path, text in files.items()}
    if config.well_known_index:  # bytes: its archives
        output |= well_known.emit(published, well_known.reader(config.root), report)
    sums = {path: hashlib.sha256(data).hexdigest() for path, data in output.items()}
    lock = lock_report.emit_lock(package, config.out, config.as_json(), sums)
    output |= {path: text.encode("utf-8") for path, text in lock.items()}
    return dict(sorted(output.items()))
