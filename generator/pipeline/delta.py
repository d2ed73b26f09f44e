"""The incremental rebuild: when only some input files' contents changed, and every tool
they define keeps its names, the output is the last build's with those tools' parts
replaced, so the rebuild costs what changed rather than what the project holds.

It is tried after the no-op check fails and before the full build, and gives up (the
full build runs) on anything it does not splice: other settings, files added, removed or
moved, a changed name, kind, namespace or alias (anything ``resolve`` reads across
tools), a diagnostic at a changed file before or after, a changed tool's metadata, its
ai-tools.json entry or its visibility. What it splices:

- the changed tools' own modules;
- their lines in the provider files, ``_listing.py``, report.json (its tool and budget
  entries, the recounted provider files) and the lock (sources and outputs);
- their postings in ``_search_index.py`` (the lengths' average recomputed from the file)
  and their rows in ``_search_vectors.py``.

Every other file is the one on disk, which must be exactly what the last build wrote.
The full build leaves what this needs in the cache (``Base``); this reads only the
changed inputs and, through a partial memo, the shards of their old and new entries.
A differential test checks the result against a cold build, byte for byte.
"""

from __future__ import annotations

import bisect
import hashlib
import json
import os
import pickle
import re
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from generator import cache, discover, writer
from generator.config import Config
from generator.diagnostics import Diagnostic, Report, Severity, ordered
from generator.records import record
from generator.ir import Definition, Function, Kind, Model, Tool
from generator.resolve import naming, named_tool, said_alone

STATE = "delta"
SINCE = "delta-since"
# Errors whose message names another tool's source: a change there would change them.
CROSS_CODES = frozenset(
    {"duplicate-name", "identifier-collision", "provider-name-collision"}
)
Naming = tuple[tuple[str, ...], str, tuple[str, ...], str, str]


class Fallback(Exception):
    """The change is not one the delta splices: the full build runs instead."""


class Sharded:
    """A mapping stored as pickles of a few entries each, by a hash of the key: a
    splice unpickles those of the entries it reads, not the whole mapping (megabytes
    at 20,000 skills)."""

    def __init__(self, mapping: dict[str, Any] | None = None) -> None:
        mapping = mapping or {}
        count = max(1, len(mapping) // SHARD_ENTRIES)
        parts: list[dict[str, Any]] = [{} for _ in range(count)]
        for key, value in mapping.items():
            parts[_shard(key, count)][key] = value
        self.parts = tuple(
            pickle.dumps(part, pickle.HIGHEST_PROTOCOL) for part in parts
        )

    def get(self, key: str) -> Any:
        """The value at ``key``, or None."""
        return pickle.loads(self.parts[_shard(key, len(self.parts))]).get(key)


SHARD_ENTRIES = 16


def _shard(key: str, count: int) -> int:
    return zlib.crc32(key.encode()) % count


@dataclass
class Base:
    """What a full build leaves for the incremental ones after it (which change no
    name, so it holds for them too; each of them leaves its key, ``Since``)."""

    key: str = ""  # the inputs key of that build
    frame: str = ""  # settings and discovery, everything but file contents
    owners: Sharded = field(default_factory=Sharded)  # input -> its Found's index
    # Each source's tools' names, by (dotted path, command)
    names: Sharded = field(default_factory=Sharded)
    # Sources an override or shadowing names, or that define two tools of one name
    # (None: a change anywhere may change what is said of another tool).
    entangled: frozenset[str] | None = None
    offered: Sharded = field(default_factory=Sharded)  # qualname -> its index
    count: int = 0  # tools


@dataclass
class Since:
    """The last splice on top of a ``Base``: its inputs key."""

    key: str = ""
    base: str = ""  # the base's key


def frame(
    settings: dict[str, Any],
    listed: str,
    discovery: discover.Discovery,
    walk: list[Diagnostic],
) -> str:
    """A hash of what a build reads besides input contents; ``listed`` is the digest of
    the walk's items and inputs (``pipeline._listed``)."""
    digest = hashlib.sha256(json.dumps(settings, sort_keys=True).encode())
    digest.update(listed.encode())
    rest = (walk, discovery.not_compiled, discovery.hooks, discovery.mcp_servers)
    digest.update(repr(rest).encode())
    return digest.hexdigest()


def remember(
    store: cache.Cache,
    key: str,
    framed: str,
    discovery: discover.Discovery,
    model: Model,
    diagnostics: list[Diagnostic],
) -> None:
    """Keep what the next incremental build needs of this one."""
    owners: dict[str, int] = {}
    shared: set[str] = set()
    for index, item in enumerate(discovery.found):
        # A skill's scripts and tool manifest are not its: a change there falls back.
        paths = [os.fspath(item.path)]
        if item.kind is not Kind.TOOL:
            paths.append(
                os.path.join(os.path.dirname(item.path), discover.METADATA_FILE)
            )
        for path in paths:
            if path in owners:
                shared.add(path)
            owners[path] = index
    for path in shared:  # read for more than one item (a folder's metadata.yaml)
        del owners[path]
    names: dict[str, dict[tuple[tuple[str, ...], bool], Naming]] = {}
    entangled = set()
    for tool in model.tools:
        d = tool.definition
        source = names.setdefault(d.source.path, {})
        if (tuple(d.path), d.command) in source:
            entangled.add(d.source.path)
        source[tuple(d.path), d.command] = naming(tool)
    for override in model.overrides:
        entangled |= {override.kept.path, override.replaced.path}
    for lost in model.shadowed:
        entangled |= {lost.kept.path, lost.shadowed.path}
    cross = any(d.code in CROSS_CODES for d in diagnostics)
    offered = [t.qualname for t in model.tools if t.model_invocable]
    store.keep(
        STATE,
        Base(
            key,
            framed,
            Sharded(owners),
            Sharded(names),
            None if cross else frozenset(entangled),
            Sharded({qualname: index for index, qualname in enumerate(offered)}),
            len(model.tools),
        ),
    )


@record()
class Rebuilt:
    files: dict[str, str]  # every output file; "" for those left as they are
    digests: dict[str, str]
    count: int  # tools
    diagnostics: list[Diagnostic]
    plan: writer.Plan  # the output on disk is the last build's: no need to read it


def attempt(
    config: Config,
    report: Report,
    store: cache.Cache,
    discovery: discover.Discovery,
    found: Callable[[int], discover.Found],
    hashes: dict[str, str],
    key: str,
    framed: str,
) -> Rebuilt | None:
    """The rebuild, spliced into the last build's output; None when it cannot be.
    ``found``: the walk's item at an index (``discovery.found`` may be left empty)."""
    base: Base = store.recall(STATE, Base)
    since: Since = store.recall(SINCE, Since)
    last = since.key if since.base == base.key else base.key
    known = store.state.stamps  # of the last build's inputs: their hashes
    if not last or last != store.state.key or base.entangled is None or not known:
        return None
    if base.frame != framed or known.files.keys() != hashes.keys():
        return None
    changed = sorted(p for p, sha in hashes.items() if known.files[p][4] != sha)
    owners = [base.owners.get(path) for path in changed]
    if not changed or None in owners:
        return None
    indexes = sorted(set(owners))
    old = hashes | {path: known.files[path][4] for path in changed}
    identities: dict[str, cache.Identity] = {}
    if not cache.outputs_untouched(config.out_dir, store.state.outputs, identities):
        return None
    memo = store.partial_memo()
    try:
        splice = _Splice(config, store, base, memo, old, hashes, identities)
        rebuilt = splice.run([found(i) for i in indexes], changed, discovery)
    except (Fallback, ValueError, KeyError, IndexError):
        return None
    report.extend(rebuilt.diagnostics)
    store.adopt(memo)
    store.keep(SINCE, Since(key, base.key))
    return rebuilt


class _Strict:
    """The memo as the last build left it: a miss means the delta cannot tell what was
    there, and nothing is stored."""

    def __init__(self, memo: cache.Memo) -> None:
        self.memo = memo

    def get(self, key: str) -> Any:
        value = self.memo.get(key)
        if value is None:
            raise Fallback(key)
        return value

    def put(self, key: str, value: object) -> None:
        raise Fallback(key)


class _Splice:
    def __init__(
        self,
        config: Config,
        store: cache.Cache,
        base: Base,
        memo: cache.Memo,
        old: dict[str, str],
        hashes: dict[str, str],
        identities: dict[str, cache.Identity],
    ) -> None:
        self.config = config
        self.identities = identities  # of the output's files, as found unchanged
        self.store = store
        self.base = base
        self.memo = memo
        self.old = old  # the inputs' hashes at the last build, and now
        self.hashes = hashes
        self.project = config.root.resolve()
        self.texts: dict[str, str] = {}  # output files read, then changed
        # What the last build said of the changed tools, and what this one says; only
        # at the changed files (``allowed``), and no error.
        self.dropped: set[Diagnostic] = set()
        self.added: set[Diagnostic] = set()
        self.allowed: set[str] = set()

    def run(
        self,
        items: list[discover.Found],
        changed: list[str],
        discovery: discover.Discovery,
    ) -> Rebuilt:
        from generator.emitters import search_index
        from generator.pipeline import stages

        where = stages.layout(self.config)
        table = search_index.load_table(self.config.find_tool, Report())
        old_tools: list[Tool] = []
        new_tools: list[Tool] = []
        for item in items:
            for old, new in zip(*self._definitions(item, discovery)):
                if old != new:
                    name = self._names(new.source.path).get((new.path, new.command))
                    if name is None:
                        raise Fallback(new.source.path)
                    old_tools.append(self._tool(old, name, self.dropped))
                    new_tools.append(self._tool(new, name, self.added))

        def views(tools: list[Tool], memo: Any) -> tuple[Any, ...]:
            model = Model("", (), tuple(tools), (), (), ())
            return stages.tool_views(model, where, self.config, table, memo)

        pairs = [
            (old, new)
            for old, new in zip(
                views(old_tools, _Strict(self.memo)), views(new_tools, self.memo)
            )
            if old != new
        ]
        for old, new in pairs:
            self._check(old, new)
            self._said(old, self.dropped)
            self._said(new, self.added)
            self._splice(old, new)
        return self._finish(changed, where.out)

    def _definitions(
        self, item: discover.Found, discovery: discover.Discovery
    ) -> tuple[list[Definition | Function], list[Definition | Function]]:
        """The item's definitions as the last build loaded them (from the memo) and
        as they are now, which must name the same tools and say nothing."""
        from generator.pipeline import stages

        rel = discover.relative(item.path, self.project)
        metadata = os.path.join(os.path.dirname(item.path), discover.METADATA_FILE)
        assert self.base.entangled is not None
        if rel in self.base.entangled:
            raise Fallback(rel)
        self.allowed.add(rel)
        if item.kind is not Kind.TOOL and self.base.owners.get(metadata) is not None:
            self.allowed.add(discover.relative(metadata, self.project))
        loaded = []
        for hashes, memo, bucket in (
            (self.old, _Strict(self.memo), self.dropped),
            (self.hashes, self.memo, self.added),
        ):
            said = self._report()
            loading = stages._Loading(
                self.config, said, memo, hashes, dict(discovery.defined)  # type: ignore[arg-type]
            )
            found: list[Definition | Function]
            if item.kind is Kind.TOOL:
                tools = loading.manifests([item])[0]
                found = [*tools.functions]
                summary: object = tools.summary
            else:
                definition = loading.markdown([item])[0]
                if definition is None:
                    raise Fallback(rel)
                found, summary = [definition], None
            self._keep(said, bucket)
            loaded.append((summary, found))
        (old_summary, old), (new_summary, new) = loaded
        if old_summary != new_summary or [_identity(d) for d in old] != [
            _identity(d) for d in new
        ]:
            raise Fallback(rel)
        return old, new

    def _report(self) -> Report:
        """A report that shows what the build's own would."""
        config = self.config
        return Report(
            config.strict, frozenset(config.ignore), config.warnings_as_errors
        )

    def _keep(self, said: Report, bucket: set[Diagnostic]) -> None:
        for d in said.items:
            if d.severity is Severity.ERROR or d.path not in self.allowed:
                raise Fallback(d.format())
            bucket.add(d)

    def _names(self, source: str) -> dict[tuple[tuple[str, ...], bool], Naming]:
        """The names the last build gave the tools of ``source``."""
        names: dict[tuple[tuple[str, ...], bool], Naming] | None
        names = self.base.names.get(source)
        return {} if names is None else names

    def _tool(
        self, d: Definition | Function, name: Naming, bucket: set[Diagnostic]
    ) -> Tool:
        """The tool ``resolve`` made of ``d``, and what it said of ``d`` alone."""
        said = self._report()
        tool = named_tool(d, name, said)  # type: ignore[arg-type]
        config = self.config
        said_alone(d, tool, config.max_depth, config.provider_name_limit, said)
        self._keep(said, bucket)
        return tool

    def _check(self, old: Any, new: Any) -> None:
        """The two views differ only where the splices reach."""
        from generator.emitters import budgets

        if any(getattr(old, f) != getattr(new, f) for f in SAME):
            raise Fallback(new.qualname)
        if old.fragments.provider_notes != new.fragments.provider_notes:
            raise Fallback(new.qualname)
        for view in (old, new):
            if (
                view.schema_problem is not None
                or view.tokens[0] > budgets.LEVEL1_LIMIT
                or view.tokens[1] > budgets.LEVEL2_LIMIT
            ):
                raise Fallback(new.qualname)  # warnings that name the whole file

    def _said(self, view: Any, bucket: set[Diagnostic]) -> None:
        """What the emitters say of one tool's view."""
        from generator.emitters import python_package
        from generator.pipeline import stages

        said = self._report()
        python_package.report_loosened(view, said)
        stages._check_shadowing((view,), self.config.package, said)
        stages._check_file_names((view,), said)
        self._keep(said, bucket)

    def _text(self, path: str) -> str:
        if path not in self.texts:
            self.texts[path] = (self.config.out_dir / path).read_text(encoding="utf-8")
        return self.texts[path]

    def _splice(self, old: Any, new: Any) -> None:
        from generator.emitters import lock_report, provider_files, python_package

        done, was = new.fragments, old.fragments
        if done.module != was.module:
            self.texts[new.module_path] = done.module
        if old.summary != new.summary:
            self.texts["_listing.py"] = _swap(
                self._text("_listing.py"),
                python_package.level1_line(old),
                python_package.level1_line(new),
                "\n",
                ("\n",),
            )
        if old.report != new.report:
            self.texts[lock_report.REPORT] = _swap(
                self._text(lock_report.REPORT),
                lock_report.compact(dict(old.report)),
                lock_report.compact(dict(new.report)),
                "\n    ",
                (",\n", "\n  ]"),
            )
        if old.tokens != new.tokens:
            self.texts[lock_report.REPORT] = _swap(
                self._text(lock_report.REPORT),
                _budget(old),
                _budget(new),
                "",
                (", ", "]"),
            )
        if not new.offered:
            return
        index = self.base.offered.get(new.qualname)
        if index is None:
            raise Fallback(new.qualname)
        if _postings(was) != _postings(done):
            self.texts["_search_index.py"] = _search(
                self._text("_search_index.py"), index, was, done
            )
        if was.vector != done.vector and self.config.find_tool == "model":
            raise Fallback(new.qualname)  # its model vector: the full build makes it
        if was.vector != done.vector and done.vector is not None:
            text = self._text("_search_vectors.py")
            text = _item(text, "VECTORS: Final[list[str]] = [", index, done.vector[0])
            text = _item(text, "SCALES: Final[list[float]] = [", index, done.vector[1])
            self.texts["_search_vectors.py"] = text
        before = provider_files.tool_lines(old, self.config)
        for path, line in provider_files.tool_lines(new, self.config).items():
            if line != before[path]:
                if not (line and before[path]):
                    raise Fallback(path)  # a line that comes or goes
                self.texts[path] = _swap(
                    self._text(path), before[path], line, _indent(path), (",\n", "\n")
                )

    def _finish(self, changed: list[str], out: str) -> Rebuilt:
        """Recount the changed provider files, then the lock lists every change."""
        from generator import tokens
        from generator.emitters import lock_report

        old = {path: stat[2] for path, stat in self.store.state.outputs.items()}
        if not self.texts.keys() <= old.keys():
            raise Fallback("a new output file")
        diagnostics = self.store.state.diagnostics
        said = set(diagnostics)
        if not self.dropped <= said:
            raise Fallback("the last build said otherwise")  # a check on this module
        if self.dropped != self.added:
            diagnostics = ordered((said - self.dropped) | self.added)
            self._warnings(diagnostics)
        count = tokens.counter(self.config.token_counter)
        for path in [p for p in self.texts if _counted(p)]:
            report = self._text(lock_report.REPORT)
            at, end = _count_at(report, f"{lock_report.compact(path)}: ")
            text = f"{lock_report.compact(path)}: {count(self.texts[path])}"
            self.texts[lock_report.REPORT] = report[:at] + text + report[end:]
        lock = self._text(writer.LOCK)
        for path in changed:
            rel = discover.relative(path, self.project)
            lock = _swap(
                lock,
                lock_report.compact({"path": rel, "sha256": self.old[path]}),
                lock_report.compact({"path": rel, "sha256": self.hashes[path]}),
                "\n    ",
                (",\n", "\n  ]"),
            )
        digests = dict(old)
        for path, text in self.texts.items():
            if path == writer.LOCK:
                continue
            digests[path] = lock_report.sha256(text)
            lock = _swap(
                lock,
                lock_report.compact({"path": f"{out}/{path}", "sha256": old[path]}),
                lock_report.compact({"path": f"{out}/{path}", "sha256": digests[path]}),
                "\n    ",
                (",\n", "\n  ]"),
            )
        self.texts[writer.LOCK] = lock
        digests[writer.LOCK] = lock_report.sha256(lock)
        files = dict.fromkeys(old, "") | self.texts
        changes = {
            path for path, text in self.texts.items() if digests[path] != old[path]
        }
        unchanged = tuple(sorted(old.keys() - changes))
        plan = writer.Plan(
            (), tuple(sorted(changes)), unchanged, (), (), self.identities
        )
        return Rebuilt(files, digests, self.base.count, diagnostics, plan)

    def _warnings(self, diagnostics: list[Diagnostic]) -> None:
        """report.json with its warnings (its last key) replaced."""
        from generator.emitters import lock_report

        report = self._text(lock_report.REPORT)
        at = report.rindex('\n  "warnings": ') + 1
        if not report.endswith("\n}\n"):
            raise Fallback(lock_report.REPORT)
        value = lock_report.dumps_value(lock_report.warnings(diagnostics))
        self.texts[lock_report.REPORT] = f'{report[:at]}  "warnings": {value}\n}}\n'


# What a changed tool's view must keep for the splices to hold: its names, its place
# in every listing, and what the files the delta leaves as they are show of it.
SAME = (
    "qualname",
    "namespace",
    "py_name",
    "function",
    "module",
    "module_path",
    "name",
    "kind",
    "offered",
    "aliases",
    "provider_name",
    "dotted_name",
    "category",
    "claude_native",
    "task_call",
    "tool_call",
    "python_module",
    "name_forms",
    "metadata",
    "ai_tool",
    "ai_skill",
)


def _identity(d: Definition | Function) -> tuple[object, ...]:
    """What ``resolve`` reads of a definition across tools: its names and where they
    come from (and which namespace summary it gives)."""
    return (
        type(d).__name__,
        d.kind,
        d.name,
        d.path,
        d.root,
        d.command,
        d.source.path,
        getattr(d, "plugin", None),
        d.skill,
        d.provider_id,
        getattr(d, "aliases", ()),
    )


def _counted(path: str) -> bool:
    """A file whose tokens report.json's budgets count."""
    return path.startswith("providers/") and path.endswith(".json")


_COUNT = re.compile(r"\d+(?=[,}])")  # a count, then what follows a value in JSON


def _count_at(report: str, label: str) -> tuple[int, int]:
    """Where ``label`` and the count after it (digits, then ``,`` or ``}``) stand in
    ``report``: exactly once, or the delta gives up. Found with ``str.find``, which
    goes through a report of megabytes many times faster than a regular expression."""
    hits = []
    start = report.find(label)
    while start >= 0:
        digits = _COUNT.match(report, start + len(label))
        if digits:
            hits.append((start, digits.end()))
        start = report.find(label, start + 1)
    if len(hits) != 1:
        raise Fallback(label)
    return hits[0]


def _indent(path: str) -> str:
    """What stands before a tool's line in a provider file: a newline, then the indent
    its file's ``wrap`` gives each line."""
    from generator.emitters import provider_files

    probe = provider_files.files()[path.rpartition("/")[2]].wrap(["\0"])
    at = probe.index("\0")
    return probe[probe.rindex("\n", 0, at) : at]


def _budget(view: Any) -> str:
    from generator.emitters import lock_report

    level1, level2 = view.tokens
    return lock_report.compact(
        {"name": view.qualname, "level1": level1, "level2": level2}
    )


def _swap(text: str, old: str, new: str, before: str, after: tuple[str, ...]) -> str:
    """``text`` with ``old`` replaced by ``new`` where it stands between ``before`` and
    one of ``after``: exactly once, or the delta gives up."""
    needle = before + old
    hits = []
    start = text.find(needle)
    while start >= 0:
        if text.startswith(after, start + len(needle)):
            hits.append(start)
        start = text.find(needle, start + 1)
    if len(hits) != 1:
        raise Fallback(old[:60])
    at = hits[0] + len(before)
    return text[:at] + new + text[at + len(old) :]


def _section(text: str, header: str, closer: str) -> tuple[int, int]:
    """Where the items of the literal after ``header`` (on a line of its own, one item
    per line, as ``pylit.pyvalue`` lays them out) start and end."""
    start = text.index(f"\n{header}\n") + len(header) + 2
    return start, text.index(f"\n{closer}", start)


def _item(text: str, header: str, index: int, value: object) -> str:
    """``text`` with item ``index`` of the list after ``header`` replaced."""
    from generator.views import pylit

    start, end = _section(text, header, "]")
    lines = text[start:end].split("\n")
    lines[index] = f"    {pylit.pyvalue(value)},"
    return text[:start] + "\n".join(lines) + text[end:]


def _postings(done: Any) -> tuple[object, ...]:
    return (done.search_length, done.search_terms, done.search_tf, done.search_best)


def _search(text: str, index: int, was: Any, done: Any) -> str:
    """``_search_index.py`` with tool ``index``'s length, the average length and its
    postings replaced (see ``search_index.emit``)."""
    from generator.views import pylit

    text = _item(text, "LENGTHS: Final[list[float]] = [", index, done.search_length)
    start, end = _section(text, "LENGTHS: Final[list[float]] = [", "]")
    lengths = [float(line[4:-1]) for line in text[start:end].split("\n")]
    average = round(sum(lengths) / len(lengths), 3)
    at = text.index("\nAVERAGE: Final = ") + 1
    line_end = text.index("\n", at)
    text = f"{text[:at]}AVERAGE: Final = {pylit.pyvalue(average)}{text[line_end:]}"
    old = _entries(was, index)
    new = _entries(done, index)
    start, end = _section(text, "POSTINGS: Final[dict[str, str]] = {", "}")
    lines = text[start:end].split("\n")
    keys = [_term(line) for line in lines]
    for term in sorted(old.keys() | new.keys()):
        if old.get(term) == new.get(term):
            continue
        at = bisect.bisect_left(keys, term)
        present = at < len(keys) and keys[at] == term
        entries = _value(lines[at]).split("|") if present else []
        entries = _posting(entries, index, new.get(term))
        if pylit.pystr(term) != f'"{term}"':
            raise Fallback(term)
        line = f'    "{term}": "{"|".join(entries)}",'
        if present and entries:
            lines[at] = line
        elif present:
            del lines[at], keys[at]
        elif entries:
            lines.insert(at, line)
            keys.insert(at, term)
    return text[:start] + "\n".join(lines) + text[end:]


def _entries(done: Any, index: int) -> dict[str, str]:
    return {
        term: f"{index} {tf} {best}"
        for term, tf, best in zip(done.search_terms, done.search_tf, done.search_best)
    }


def _term(line: str) -> str:
    """A postings line's term (a word: no quote or backslash to unescape)."""
    if not (line.startswith('    "') and line.endswith('",')) or "\\" in line:
        raise Fallback(line[:60])
    return line[5 : line.index('": "')]


def _value(line: str) -> str:
    return line[line.index('": "') + 4 : -2]


def _posting(entries: list[str], index: int, entry: str | None) -> list[str]:
    """A term's postings ("tool tf field", by tool) with tool ``index``'s replaced."""
    tools = [int(e.partition(" ")[0]) for e in entries]
    at = bisect.bisect_left(tools, index)
    kept = entries[:at] + entries[at + (at < len(tools) and tools[at] == index) :]
    return kept[:at] + [entry] + kept[at:] if entry is not None else kept
