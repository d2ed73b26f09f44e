"""The pipeline's stages after discovery: load, validate, resolve, views, emit.

Nothing is written here: the result is the whole output as ``{path: text}``, which the
writer writes or checks. ``memo`` (from the build cache) only saves work: a loader result
is reused when what the loader reads is unchanged, and so is a tool's finished view.
Imported only when a build has work to do.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import importlib
import operator
import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from generator import __version__, discover
from generator.cache import Memo, content_key
from generator.config import Config
from generator.diagnostics import Diagnostic, Report, Severity
from generator import tokens
from generator.emitters import (
    agent_docs,
    ai_tools,
    budgets,
    lock_report,
    provider_files,
    python_package,
    search_index,
    search_model,
)
from generator.ir import Definition, Function, Invalid, Kind, Model, SourceFile, Tool
from generator.views import Fragments, Layout, ToolView, builder, fragments
from generator.loaders import Context, Loaded, Loader, agent, command, skill
from generator.loaders import frontmatter
from generator.pipeline import parallel, typings
from generator.loaders.plugin import Plugin, load_plugin
from generator.resolve import BUILTIN_ROOT, resolve
from generator.provider_registry import PROVIDERS
from generator.resources import BUILTINS

GENERATOR = f"skillc {__version__}"
# Each kind of Markdown input's loader; a manifest's by its format (``Found.manifest``),
# imported when a project has one.
LOADERS: dict[Kind, Loader] = {
    Kind.SKILL: skill.load,
    Kind.AGENT: agent.load,
    Kind.COMMAND: command.load,
}
MANIFESTS = {
    "tools": "generator.loaders.tools_file",
    "tool-manifest": "generator.loaders.tool_manifest",
    "ai-tool": "generator.loaders.ai_tool",
    "skill-tools": "generator.loaders.skill_tools",  # a skill folder's tools
}


def compile_model(
    config: Config,
    report: Report,
    discovery: discover.Discovery,
    hashes: dict[str, str],
    memo: Memo,
    contents: dict[str, bytes] | None = None,
) -> Model:
    """Load every input (through the memo) and resolve them into the model;
    ``contents``: the bytes of the inputs read when they were hashed, not read again."""
    project = config.root.resolve()
    loading = _Loading(config, report, memo, hashes, dict(discovery.defined))
    definitions: list[Definition] = []
    functions: list[Function] = []
    summaries: dict[str, str] = {}
    for name in config.builtins:
        builtin = _builtin(name)
        functions += builtin.functions
        summaries[name] = builtin.summary
    with frontmatter.folders_remembered(contents, discovery.folders):
        manifests = [item for item in discovery.found if item.kind is Kind.TOOL]
        markdown = [item for item in discovery.found if item.kind is not Kind.TOOL]
        loaded_manifests = iter(loading.manifests(manifests))
        loaded_markdown = iter(loading.markdown(markdown))
        for item in discovery.found:
            if item.kind is Kind.TOOL:
                loaded = next(loaded_manifests)
                functions += loaded.functions
                if loaded.summary and loaded.functions:
                    namespace = ".".join(loaded.functions[0].path[:-1])
                    summaries.setdefault(namespace, loaded.summary)
                continue
            if item.kind is Kind.SKILL and discover.has_tools(item.files):
                functions += loading.skill_tools(item).functions
            definition = next(loaded_markdown)
            if definition is not None:
                definitions.append(definition)
    plugins = loading.plugins
    summaries |= {p.name: p.description for p in plugins.values() if p is not None}
    sources = tuple(
        SourceFile(discover.relative(path, project), sha)
        for path, sha in sorted(hashes.items())
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
    return dataclasses.replace(
        model,
        invalid=_invalid(report),
        not_compiled=discovery.not_compiled,
        hooks=discovery.hooks,
        mcp_servers=discovery.mcp_servers,
    )


T = TypeVar("T")


def guarded(load: Callable[[], T], rel: str, report: Report, failed: T) -> T:
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


class _Loading:
    """Each input's loader result, from the memo when what the loader reads is
    unchanged; a plugin's manifest is read once for all of its components."""

    def __init__(
        self,
        config: Config,
        report: Report,
        memo: Memo,
        hashes: dict[str, str],
        plugins: dict[Path, Plugin | None],
    ) -> None:
        self.config = config
        self.report = report
        self.memo = memo
        self.hashes = hashes
        self.plugins = plugins
        self.project = config.root.resolve()

    def manifests(self, items: list[discover.Found]) -> list[Loaded]:
        """Each manifest's tools; two or more that the memo lacks are loaded over two
        cores (each holds many tools)."""
        jobs = [
            (item, item.manifest, self.hashes.get(os.fspath(item.path)))
            for item in items
        ]
        return self._tools(jobs, 2)

    def skill_tools(self, item: discover.Found) -> Loaded:
        """A skill folder's tools: its manifest and its scripts (their descriptions)."""
        folder = item.path.parent
        content = tuple(
            self.hashes.get(os.fspath(folder / name))
            for name in item.files
            if name == discover.TOOL_MANIFEST or discover.is_script(name)
        )
        return self._tools([(item, "skill-tools", content)])[0]

    def _tools(
        self,
        jobs: Sequence[tuple[discover.Found, str, object]],
        split_from: int | None = None,
    ) -> list[Loaded]:
        """The tools of each item, read as the format named beside it (``MANIFESTS``)
        from inputs whose digests are the object beside it, unless the memo holds them;
        those it lacks are loaded over two cores when there are ``split_from``."""
        config = self.config
        keys = [
            content_key(
                "tools",
                item,
                config.strict,
                config.ignore,
                config.max_file_bytes,
                config.install_allowlist,
                content,
            )
            for item, _, content in jobs
        ]
        results: list[tuple[Loaded, list[Diagnostic]] | None] = [
            self.memo.get(key) for key in keys
        ]
        # Per file, not per content: what its last load normalised, kept for the next.
        schema_keys = [
            content_key("schemas", item.path, kind) for item, kind, _ in jobs
        ]
        missing = [i for i, result in enumerate(results) if result is None]
        for key, result in zip(schema_keys, results):
            if result is not None:
                self.memo.get(key)  # kept for the file's next edit
        known = {i: self.memo.get(schema_keys[i]) for i in missing}
        if split_from is not None and len(missing) >= split_from:
            missing = self._halves(missing, [jobs[i][0].path for i in missing])
        shared: dict[str, Any] = {}  # schemas normalised for one file, for the others
        done = parallel.split_map(
            lambda i: self._load_tools(*jobs[i][:2], known[i], shared),
            missing,
            split_from,
        )
        for i, (tools, diagnostics, schemas) in zip(missing, done):
            self.memo.put(keys[i], (tools, diagnostics))
            self.memo.put(schema_keys[i], schemas)
            results[i] = tools, diagnostics
        loaded = []
        for result in results:
            assert result is not None
            self.report.extend(result[1])
            loaded.append(result[0])
        return loaded

    @staticmethod
    def _halves(items: list[int], paths: list[Path]) -> list[int]:
        """``items`` reordered so that the split's halves (by count) hold about as many
        bytes each: a catalogue of 200 tools and a manifest of one are one item each.
        The largest go first, each to the half with fewer bytes that has room."""
        sizes = []
        for path in paths:
            try:
                sizes.append(path.stat().st_size)
            except OSError:  # gone: its load reports it
                sizes.append(0)
        room = [len(items) // 2, len(items) - len(items) // 2]
        halves: tuple[list[int], list[int]] = ([], [])
        totals = [0, 0]
        for k in sorted(range(len(items)), key=lambda k: -sizes[k]):
            side = int(room[1] > 0 and (room[0] == 0 or totals[1] < totals[0]))
            halves[side].append(items[k])
            totals[side] += sizes[k]
            room[side] -= 1
        return halves[0] + halves[1]

    def _load_tools(
        self, item: discover.Found, manifest: str, schemas: Any, shared: Any = None
    ) -> tuple[Loaded, list[Diagnostic], dict[str, Any]]:
        """The tools of ``item``, what loading them reported, and the normalised input
        schemas to give its next load (``schemas``: its last load's; ``shared``: those
        normalised for other files)."""
        config = self.config
        scratch = Report(strict=config.strict, ignore=frozenset(config.ignore))
        # Imported here: a project without manifests never loads them.
        load: Loader = importlib.import_module(MANIFESTS[manifest]).load
        from generator.loaders import manifest as manifests

        context = _context(config, self.project, scratch)
        rel = discover.relative(item.path, context.project)
        with manifests.remembering(schemas, shared) as kept:
            loaded = guarded(lambda: load(item, context), rel, scratch, Loaded())
        # Each tool's own digest: editing one tool of a large manifest re-renders only it.
        loaded = dataclasses.replace(
            loaded,
            functions=tuple(
                dataclasses.replace(t, digest=content_key(t)) for t in loaded.functions
            ),
        )
        return loaded, scratch.items, kept

    def plugin(self, where: Path) -> Plugin | None:
        if where not in self.plugins:
            self.plugins[where] = guarded(
                lambda: load_plugin(
                    where, self.project, self.report, self.config.max_file_bytes
                ),
                discover.relative(where, self.project),
                self.report,
                None,
            )
        return self.plugins[where]

    def markdown(self, items: list[discover.Found]) -> list[Definition | None]:
        """Skills, subagents and commands (None for one that, or whose plugin, is
        invalid); those the memo lacks are loaded over two cores when there are many."""
        keys: list[tuple[str, Plugin | None] | None] = []
        results: list[Memoised | None] = []
        for item in items:
            plugin = None if item.plugin is None else self.plugin(item.plugin)
            if item.plugin is not None and plugin is None:
                keys.append(None)
                results.append(None)
                continue
            key = self._key(item, plugin.name if plugin else None)
            keys.append((key, plugin))
            results.append(self.memo.get(key))
        missing = [
            (i, keyed)
            for i, keyed in enumerate(keys)
            if keyed is not None and results[i] is None
        ]
        done = parallel.split_map(
            lambda job: self._load(items[job[0]], *job[1]), missing
        )
        for (i, (key, _)), made in zip(missing, done):
            self.memo.put(key, made)
            results[i] = made
        definitions: list[Definition | None] = []
        for keyed, result in zip(keys, results):
            if keyed is None or result is None:
                definitions.append(None)
                continue
            definition, diagnostics = result
            self.report.extend(diagnostics)
            plugin_dir = keyed[1].folder if keyed[1] else None
            if definition is not None and definition.plugin_dir != plugin_dir:
                definition = dataclasses.replace(definition, plugin_dir=plugin_dir)
            definitions.append(definition)
        return definitions

    def _key(self, item: discover.Found, plugin_name: str | None) -> str:
        config = self.config
        return content_key(
            _found_fields(item),
            plugin_name,
            config.strict,
            config.ignore,
            config.max_file_bytes,
            self.hashes.get(os.fspath(item.path)),
            self.hashes.get(
                os.path.join(os.path.dirname(item.path), discover.METADATA_FILE)
            ),
        )

    def _load(self, item: discover.Found, key: str, plugin: Plugin | None) -> Memoised:
        """What the loader makes of a Markdown file, and what it reported."""
        config = self.config
        scratch = Report(strict=config.strict, ignore=frozenset(config.ignore))
        load = LOADERS[item.kind]
        context = _context(
            config, self.project, scratch, plugin.name if plugin else None
        )
        loaded = guarded(
            lambda: load(item, context),
            discover.relative(item.path, self.project),
            scratch,
            Loaded(),
        )
        done = loaded.definition
        if done is not None:
            # Set in place: the loader just made it, and nothing else holds it yet; a
            # copy per skill cost more than the rest of its loading besides the YAML.
            object.__setattr__(done, "digest", key)
        return done, scratch.items


# Every field of a found item, for its memo key: half the cost of the record's repr,
# which the build pays for each item before it can load any.
_found_fields = operator.attrgetter(
    *(f.name for f in dataclasses.fields(discover.Found))
)

# A Markdown file's definition (None: invalid) and its diagnostics, as the memo keeps it.
Memoised = tuple[Definition | None, list[Diagnostic]]


def _context(
    config: Config, project: Path, report: Report, plugin: str | None = None
) -> Context:
    return Context(
        project=project,
        report=report,
        max_file_bytes=config.max_file_bytes,
        plugin=plugin,
        install_allowlist=tuple(config.install_allowlist),
    )


@functools.cache
def _builtin(name: str) -> Loaded:
    """A built-in namespace, from the manifest shipped inside skillc."""
    from generator.loaders import tools_file

    path = BUILTINS / f"{name}{discover.TOOLS_SUFFIX}"
    scratch = Report()
    summary, functions = tools_file.read(
        path,
        f"<skillc>/builtins/{path.name}",
        BUILTIN_ROOT,
        scratch,
        1 << 20,
        "builtin",
    )
    if scratch.items:
        raise RuntimeError(f"the built-in {name} manifest: {scratch.items}")
    return Loaded(functions=tuple(functions), summary=summary)


def layout(config: Config) -> Layout:
    return Layout(
        package=config.package,
        out=discover.relative(config.out_dir, config.root.resolve()),
        sources=config.sources,
        builtins=config.builtins,
        file_root=config.file_root,
        db_path=config.db_path,
        max_read_bytes=config.max_read_bytes,
        default_timeout_sec=config.default_timeout_sec,
        max_output_bytes=config.max_output_bytes,
        module=config.module,
        import_root=config.import_root,
        regenerate=config.regenerate,
    )


def tool_views(
    model: Model,
    layout: Layout,
    config: Config,
    table: search_index.Table | None,
    memo: Memo,
) -> tuple[ToolView, ...]:
    """Each tool's finished view: from the memo when its part of the model, the layout
    and the settings are unchanged, else built and its fragments rendered (split over
    two cores when there are many, their vectors made beside them)."""
    count = tokens.counter(config.token_counter)
    method = search_index.summary(table)
    registry = sorted(PROVIDERS.items())  # which provider files a view has lines for
    key = builder.keys(layout, config.token_counter, method, registry)
    keys = ["view:" + key(tool) for tool in model.tools]
    views = [memo.get(key) for key in keys]
    missing = [model.tools[i] for i, view in enumerate(views) if view is None]
    typings.prime(model.tools, memo)  # before the split: each typed once, kept
    vector_keys, vectors = _memoised_vectors(missing, table, memo)
    making = [j for j in range(len(vector_keys)) if vectors[j] is None]
    texts = [_embed_text(missing[j]) for j in making]
    with _vectors_beside(texts, table) as made:
        built = parallel.split_map(
            lambda j: _finished_view(missing[j], layout, count, vectors[j]),
            range(len(missing)),
        )
        for j, vector in zip(making, made()):
            _set_vector(built[j], vector)
            memo.put(vector_keys[j], vector)
    done = iter(built)
    for i, view in enumerate(views):
        if view is None:
            views[i] = view = next(done)
            memo.put(keys[i], view)
    return tuple(views)


def _finished_view(
    tool: Tool,
    layout: Layout,
    count: Callable[[str], int],
    vector: tuple[str, float] | None,
) -> ToolView:
    """A tool's view with its rendered fragments (``vector``: the memo's, else None
    until the one made beside the views is set)."""
    view = builder.build(tool, layout, count)
    providers, always, notes = provider_files.fragment(view)
    length, terms, tfs, best = search_index.weigh(view)
    done = Fragments(
        module=python_package.tool_module(view),
        providers=providers,
        always=always,
        provider_notes=notes,
        search_length=length,
        search_terms=terms,
        search_tf=tfs,
        search_best=best,
        vector=vector,
    )
    _complete(view, body=None, fragments=done)
    return view


def _set_vector(view: ToolView, vector: tuple[str, float] | None) -> None:
    """Complete a view this build just made with its vector: a copy of the view and its
    fragments per tool would cost this process more than making the vectors beside it
    saves."""
    _complete(fragments(view), vector=vector)


def _complete(made: ToolView | Fragments, **fields: object) -> None:
    """Set ``fields`` of a view or fragments this build just made, in place: nothing
    else holds it yet, and a copy per tool (``dataclasses.replace``, which goes through
    every field) cost a cold build about a tenth of its work on views."""
    for name, value in fields.items():
        object.__setattr__(made, name, value)


def _memoised_vectors(
    tools: list[Tool], table: search_index.Table | None, memo: Memo
) -> tuple[list[str], list[tuple[str, float] | None]]:
    """The memo key of each tool's vector (none when the package ranks lexically) and
    the vector the memo holds (None: to be made). Keyed by what it is made of: a
    change that leaves a tool's name and description (a skill's body) neither loads
    the table nor imports numpy."""
    if table is None:
        return [], [None] * len(tools)
    keys = [content_key("vector", table.model, _embed_text(tool)) for tool in tools]
    return keys, [memo.get(key) for key in keys]


def _embed_text(tool: Tool) -> str:
    return search_index.embed_text(tool.qualname, tool.definition.description)


def _vectors_beside(
    texts: list[str], table: search_index.Table | None
) -> contextlib.AbstractContextManager[Callable[[], list[tuple[str, float]]]]:
    """The vectors of ``texts``, made by a forked process while this one makes the
    views when there are many: only that process imports numpy and loads the table
    (readied with one BLAS thread)."""
    if table is None:  # the package ranks lexically
        return contextlib.nullcontext(lambda: [])
    known = table

    def ready() -> None:
        with _single_threaded_blas():  # numpy, when many are made
            known.prepare(len(texts))

    return parallel.beside(
        lambda text: search_index.vector_fragment(known, text), texts, ready
    )


# What numpy's BLAS libraries (OpenBLAS, MKL, OpenMP builds) read for their thread count.
BLAS_THREADS = ("OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "OMP_NUM_THREADS")


@contextlib.contextmanager
def _single_threaded_blas() -> Iterator[None]:
    """numpy imported with one BLAS thread, unless the user chose a number: a vector is
    a sum of a few rows, with no BLAS call, and starting a thread per core is close to
    half of numpy's import. The environment is as it was afterwards."""
    unset = [name for name in BLAS_THREADS if name not in os.environ]
    os.environ.update(dict.fromkeys(unset, "1"))
    try:
        yield
    finally:
        for name in unset:
            os.environ.pop(name, None)


def emit(
    model: Model, config: Config, report: Report, memo: Memo
) -> tuple[dict[str, str], dict[str, str]]:
    """Every output file, and the sha256 of each (the lock lists them)."""
    where = layout(config)
    table = search_index.load_table(config.find_tool, report)
    encoder = search_model.choose(config, report)
    package = builder.package(model, tool_views(model, where, config, table, memo))
    _check_shadowing(package.tools, config.package, report)
    _check_file_names(package.tools, report)
    # What models are offered: not the skills marked disable-model-invocation: true.
    offered = package.offered
    # The find_tool index, joined by another process while this one joins the rest
    # (neither needs the other's files) when there are many tools.
    model_files = search_model.emit(offered, encoder, memo, report)
    method = "model" if model_files else None
    with parallel.aside(
        lambda: search_index.emit(offered, table, method),
        len(offered) >= parallel.MIN_ITEMS,
    ) as index:
        files = python_package.emit(package, where, report)
        files |= agent_docs.emit(package, where, config.profiles, config.conflicts)
        files |= ai_tools.emit(package)
        provider_outputs, notes = provider_files.emit(offered, config, report)
        files |= provider_outputs
        files |= index() | model_files
    budget = budgets.measure(
        package,
        files,
        tokens.counter(config.token_counter),
        config.token_counter,
        report,
    )
    files |= lock_report.emit_report(
        package,
        report.items,
        notes,
        budget,
        search_index.summary(table) | search_model.summary(encoder, model_files),
    )
    digests = {path: lock_report.sha256(text) for path, text in files.items()}
    lock = lock_report.emit_lock(package, where, config.as_json(), digests)
    files |= lock
    digests |= {path: lock_report.sha256(text) for path, text in lock.items()}
    return dict(sorted(files.items())), digests


def build(
    config: Config,
    report: Report,
    discovery: discover.Discovery,
    hashes: dict[str, str],
    memo: Memo,
    contents: dict[str, bytes] | None = None,
) -> tuple[Model, dict[str, str], dict[str, str]]:
    """The model, every output file and the sha256 of each."""
    model = compile_model(config, report, discovery, hashes, memo, contents)
    files, digests = emit(model, config, report, memo)
    return model, files, digests


NAME_MAX = 255  # the longest file name (in bytes) of common file systems


def _check_file_names(tools: tuple[ToolView, ...], report: Report) -> None:
    """A tool whose module or namespace folder name no file system can hold is an error
    at the tool, found before anything is written."""
    for tool in tools:
        longest = max((*tool.namespace, f"_{tool.py_name}.py"), key=len)
        if len(longest.encode("utf-8")) > NAME_MAX:
            report.error(
                tool.source.path,
                tool.source.line,
                tool.source.col,
                "name-too-long",
                f"{tool.qualname[:60]}...: its file name would be "
                f"{len(longest.encode()):,} bytes; file systems allow {NAME_MAX}",
            )


def _check_shadowing(tools: tuple[ToolView, ...], package: str, report: Report) -> None:
    """A python tool whose module has the package's name would import the package."""
    for tool in tools:
        module = tool.python_module
        if module is not None and module.split(".")[0] == package:
            report.error(
                tool.source.path,
                tool.source.line,
                tool.source.col,
                "package-shadows-module",
                f"{tool.qualname} runs {module!r}, which the generated package "
                f"{package!r} would shadow; choose another package name",
            )


def _invalid(report: Report) -> tuple[Invalid, ...]:
    codes: dict[str, set[str]] = {}
    for d in report.items:
        if d.severity is Severity.ERROR:
            codes.setdefault(d.path, set()).add(d.code)
    return tuple(Invalid(path, tuple(sorted(c))) for path, c in sorted(codes.items()))
