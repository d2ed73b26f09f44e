"""The build, top to bottom: config -> discover -> load (through the cache) -> resolve ->
views -> emitters -> ``{path: bytes}``. cli.py writes what ``run`` returns, or checks it.

The build is a pure function of the input files and the settings. ``cache.Cache`` keeps
its parts (loader results, hard typings, exact token counts, black's layouts) by the hash
of what they depend on, and what the last build saw, said and wrote, for the no-op
check (``digests``). This module is that decision: what each step past it needs is
imported where the step begins (the settings' model, the walk, the stages), so that a
build with nothing to do imports none of it (tests/test_startup.py).
"""

from __future__ import annotations

import hashlib
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from . import __version__, cache, config as configuration, digests, root_files
from .config import Config
from .diagnostic import Diagnostic
from .diagnostics import Report
from .project import read_pyproject
from .resources import table_key

if TYPE_CHECKING:  # imported when a build has something to do (see Build)
    from .ir import Model

GENERATOR = f"skillc {__version__}"
# The distributions whose output reaches the files: a cache of other versions is unused.
DEPENDENCIES = (
    *("black", "datamodel-code-generator", "pydantic", "jsonschema-rs", "PyYAML"),
    *("Jinja2", "numpy", "bpe-openai", "regex"),
)
Cache = cache.Cache  # what configure opens, for run (cli.py holds it, never imports it)


class Build(NamedTuple):
    """What ``run`` made. No dataclass: a no-op imports none, nor discover or the model:
    this repo's no-op 1.84x -> 1.36x its floor (bench.py --only repo --runs 7)."""

    files: dict[str, bytes]  # the output, by path relative to the output folder
    model: Model | None = None  # None: nothing to do (the last build's outcome holds)
    notes: tuple[str, ...] = ()  # what to warn about the cache
    # Keep the cache, once the output is written (True) or not (errors).
    remember: Callable[[bool], None] = lambda written: None


def configure(root: Path, cached: bool, **flags: Any) -> tuple[Config, cache.Cache]:
    """The project's cache (``cached``: the user's cache folder's), then its
    configuration (``flags``: the command line's): the settings the last build read
    from the same pyproject.toml text, or those the text gives."""
    memo = cache.Cache.of(root.resolve() if cached else None, DEPENDENCIES)
    text = read_pyproject(root)
    parsed = memo.last.get("pyproject") if memo.last else None
    if parsed is None or parsed.sha256 != hashlib.sha256(text.encode()).hexdigest():
        # A new text: pydantic and tomllib, which a build with nothing to do skips.
        from . import settings

        parsed = settings.parse(text)
    return configuration.load(root, parsed, **flags), memo


def run(
    config: Config,
    report: Report,
    *,
    cached: bool = True,
    writing: bool = False,
    emit: bool = True,
    keep_going: bool = False,
    memo: cache.Cache | None = None,
) -> Build:
    """Compile the project. ``cached``: read the cache (``memo``: configure's);
    ``writing``: the output is about to be written, with the valid tools alone when
    some have errors (``keep_going``): the cache may say the last build's outcome
    holds, and ``remember`` keeps it; ``emit``: False stops after the model."""
    started = time.time_ns()
    project = config.root.resolve()
    settings = [config.as_json(), table_key(config.find_tool), GENERATOR]
    if config.find_tool == "model":  # an encoder installed or removed since
        from .embed import encoders

        settings.append(encoders.encoder_key(config))
    sources = config.source_dirs()
    where = cache.key("last", settings, os.fspath(project), [str(s) for s in sources])
    memo = memo or cache.Cache.of(project if cached else None, DEPENDENCIES)
    last = memo.last if writing and emit else None
    if last and last["where"] != where:  # other settings
        last = None
    read = {"where": where, "pyproject": config.pyproject}  # the settings, as read
    if last and digests.unchanged(last["seen"], last["started"]):
        if done := _done(config, report, memo, last | read, keep_going):
            return done
    from . import discover  # a folder or an input changed: walk the sources

    walk = Report(strict=config.strict, ignore=frozenset(config.ignore))
    found = discover.discover(
        sources,
        project,
        (config.out_dir,),
        walk,
        config.exclude,
        config.max_file_bytes,
        config.harnesses,
    )
    said = walk.items
    if config.exclude:  # files excluded are left out before they are read: what
        # the walk said of them (a plugin's manifest is read as its folder is walked)
        # is not said, nor are they listed as not compiled
        found, said = _without(found, said, project, config.exclude)
    report.extend(said)
    inputs, contents = digests.read_all(found.inputs, found.seen, config.max_file_bytes)
    key = cache.key("build", settings, repr(found), walk.items, inputs)
    witness = {"key": key, "seen": found.seen, "started": started} | read
    if last and last["key"] == key:  # a folder or file touched, nothing changed
        if done := _done(config, report, memo, last | witness, keep_going):
            return done
    from . import stages  # what a build with something to do needs

    model = stages.model(config, report, found, (inputs, contents), memo, GENERATOR)
    if not emit:
        return Build({}, model, tuple(memo.notes))
    files = stages.emit(model, config, report, memo)

    def remember(written: bool) -> None:
        """The witness: what this build saw and said, and what it wrote (None:
        nothing, for errors), so that the next one with the same inputs has nothing
        to do, errors or not."""
        outputs = digests.kept(config.out_dir, files) if written else None
        memo.remember(witness | {"outputs": outputs, "diagnostics": report.items})
        memo.save()

    notes = tuple(memo.notes)
    return Build(files, model, notes, remember if writing else lambda written: None)


def _done(
    config: Config, report: Report, memo: cache.Cache, last: Any, keep_going: bool
) -> Build | None:
    """Nothing to do when the last build of these settings (``last``: what it saw,
    said and wrote) had these inputs and the output folder holds what it wrote; or
    when it wrote nothing for errors, which a build that does not keep going would
    say again."""
    outputs, read = last["outputs"], 0
    if outputs is None and keep_going:  # it wrote nothing, for errors: this one will
        return None
    if config.harness_root_files and not root_files.holds(
        config.root, root_files.recorded(config.out_dir)
    ):  # a file at the project root removed or edited: the build says which
        return None
    if outputs is not None:
        if not (held := digests.holds(config.out_dir, outputs, memo.written_ns)):
            return None
        outputs, read = held
    report.extend(last["diagnostics"])
    if read or memo.last != last:  # files were read, or the witness is new
        memo.remember(last | {"outputs": outputs})
    return Build({}, notes=tuple(memo.notes), remember=lambda written: memo.save())


def _without(
    found: Any, said: list[Diagnostic], project: Path, exclude: tuple[str, ...]
) -> tuple[Any, list[Diagnostic]]:
    """``found`` (a discovery) and ``said`` (what its walk said) without what they say
    of the files ``exclude`` leaves out."""
    from dataclasses import replace  # the walk's: a no-op imports neither

    from . import discover

    def kept(path: str) -> bool:
        return not discover._excluded(project / path, project, exclude)

    listed = tuple(n for n in found.not_compiled if kept(n.path))
    return replace(found, not_compiled=listed), [d for d in said if kept(d.path)]
