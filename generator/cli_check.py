"""``skillc check``: what ``skillc build --check`` checks (the output folder is what a
build writes), then the catalogue's health (``generator.checks``): listing budgets per
harness, breaking changes against the lock or a git ref, overlapping tools, what the
build can reach. With inputs in error, none of this runs unless keep-going is set: then
every check runs over what compiles (the output a keep-going build writes), and the
inputs in error are named as not checked. Exit 1 on any error, 0 otherwise; nothing is
written but the files ``--report``, ``--sarif`` and ``--html`` name."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple

from . import cli_report, config, pipeline, writer
from .diagnostics import Report, Severity

if TYPE_CHECKING:  # the checks are imported when check runs
    from .checks import Options


def add_arguments(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        "--budget",
        action="append",
        metavar="HARNESS[:CONTEXT]",
        help="simulate a harness's listing at a context size in tokens "
        "(claude-code:200k, codex:272k, openai-chat; codex:unknown: its budget "
        "for a model whose window it does not know); repeat it (default: "
        "[tool.skillc.check] budget, else claude-code and codex at their default "
        "model's window)",
    )
    command.add_argument(
        "--installed",
        choices=("each", "all"),
        help="each: simulate listings as users install the project (its own client "
        "folders as a whole, each plugin, each catalogue skill; the default); all: "
        "every skill and plugin at once",
    )
    command.add_argument(
        "--against",
        metavar="lock|REF",
        help="the baseline of breaking changes: the lock on disk (default) or a git ref",
    )
    command.add_argument(
        "--skip", action="append", metavar="CHECK", help="leave a check out; repeat it"
    )
    command.add_argument(
        "--report", metavar="FILE", help="also write every finding as JSON"
    )
    command.add_argument(
        "--sarif", metavar="FILE", help="also write the diagnostics as SARIF 2.1.0"
    )
    command.add_argument(
        "--html",
        metavar="FILE",
        help="also write the findings as one self-contained HTML page",
    )
    command.add_argument(
        "--diff", action="store_true", help="print the full diff of a stale output"
    )
    command.add_argument(
        "--no-cache",
        action="store_true",
        help="do not read the build cache",
    )
    command.add_argument(
        "--keep-going",
        action="store_true",
        help="with inputs in error, check what compiles (exit status stays 1)",
    )


def outside_out(cfg: config.Config, target: Path, shown: str) -> None:
    """A file a command writes may not be in the output folder: it would change output
    the lock vouches for, behind the build's back."""
    if target == cfg.out_dir or cfg.out_dir in target.parents:
        raise config.ConfigError(
            f"{shown}: inside the output folder {cfg.out}/, which skillc owns"
        )


def report_of(cfg: config.Config) -> Report:
    """An empty report that applies the project's strict, ignore and
    warnings-as-errors."""
    return Report(cfg.strict, frozenset(cfg.ignore), cfg.warnings_as_errors)


def main(args: argparse.Namespace, cfg: config.Config) -> int:
    # Imported here: the model's classes are not for a build with nothing to do.
    from .checks import html, sarif, settings

    options = settings.options(
        cfg.check, args.budget, args.against, args.skip, args.installed
    )
    written = (args.report, args.sarif, args.html)
    for target in [Path(p).resolve() for p in written if p]:
        outside_out(cfg, target, target.name)
    output = cli_report.Output.of(args)
    report = report_of(cfg)
    # A full build every time (the cache only read): the checks read its model and files.
    result = pipeline.run(cfg, report, cached=not args.no_cache)
    assert result.model is not None
    unchecked = sorted({d.path for d in report.items if d.severity is Severity.ERROR})
    keep_going = args.keep_going or cfg.keep_going
    checked = _Checked([], 0, [], {})
    if not unchecked or keep_going:  # what compiled: a keep-going build's output
        checked = _checks(cfg, result, options, output, report)
    stale, annotated, stale_files, found = checked
    for line in stale + _shares(found, output):
        print(line, file=sys.stderr)
    if unchecked:
        print(_unchecked(unchecked, keep_going), file=sys.stderr)
    if args.report:
        text = _json_report(found, report, bool(stale), unchecked)
        Path(args.report).write_text(text, "utf-8")
    if args.sarif:
        Path(args.sarif).write_text(sarif.document(report.items, stale_files), "utf-8")
    if args.html:
        page = Path(args.html).resolve()
        to_root = html.relative_root(page, cfg.root.resolve())
        text = html.document(cfg.package, found, report.items, to_root)
        page.write_text(text, "utf-8")
    done = "is stale; run: skillc build" if stale else "is up to date"
    if unchecked and not keep_going:
        done = "was not checked"
    status = cli_report.finish(
        report, output, f"{cfg.out}/ {done}", always=bool(stale), errors=annotated
    )
    return 1 if stale else status


class _Checked(NamedTuple):
    stale: list[str]  # what build --check prints of a stale output folder
    annotated: int  # how many of those lines are errors (files no input explains)
    stale_files: list[str]  # SARIF's results: the inputs that changed, else these
    found: dict[str, Any]  # each check's findings


def _checks(
    cfg: config.Config,
    result: pipeline.Build,
    options: Options,
    output: cli_report.Output,
    report: Report,
) -> _Checked:
    """The output folder compared with what the build writes, then every check."""
    from . import checks
    from .checks import baseline, registry

    writer.check_owned(cfg.out_dir)
    changes = writer.plan(cfg.out_dir, result.files)
    stale: list[str] = []
    annotated = 0
    stale_files: list[str] = []
    if changes.stale:
        stale, annotated = cli_report.stale(
            cfg.out_dir, result.files, changes, cfg.out, output, report
        )
        if not any(d.code == "stale-output" for d in report.items):
            stale_files = [
                f"{cfg.out}/{path}"
                for path in (*changes.created, *changes.changed, *changes.extra)
            ]
    _, roots = cli_report.roots(cfg, result.files)  # harness-root-files
    stale += cli_report.root_lines(roots)
    assert result.model is not None
    lock, name = baseline.lock(cfg, options.against, report)
    subject = checks.Subject(
        cfg, result.model, result.files, lock, name, options, _reader(cfg)
    )
    return _Checked(stale, annotated, stale_files, registry.run(subject, report))


# Where the settings of a package read back put its output: never written (a build
# that stops after the model), and a name no package folder holds.
UNWRITTEN = "skillc_package_check"


def _reader(cfg: config.Config) -> Callable[[str, Path], tuple[Any, list[Any]]]:
    """How ``skillc check`` reads a written package back as ``client`` loads it: the
    build's own discovery and loaders over its folder, as the project it is, following
    that client alone, up to the model (nothing written, no cache)."""
    from . import settings

    def read(client: str, folder: Path) -> tuple[Any, list[Any]]:
        text = (
            f'[tool.skillc]\nsources = ["."]\nout = "{UNWRITTEN}"\n'
            f'harnesses = ["{client}"]\nmax-file-bytes = {cfg.max_file_bytes}\n'
        )
        inner = config.load(folder, settings.parse(text))
        said = Report()
        built = pipeline.run(inner, said, cached=False, emit=False)
        return built.model, said.items

    return read


def _shares(found: dict[str, Any], output: cli_report.Output) -> list[str]:
    """Each listing budget's largest shares (every one with -v), in text output."""
    if output.error_format != "text" or output.quiet:
        return []
    from .checks.listing_installs import summary

    return list(summary(found.get("listing", []), output.verbose))


def _unchecked(paths: list[str], keep_going: bool) -> str:
    """What check says of the inputs in error: never checked."""
    shown = ", ".join(paths[:5]) + (f" and {len(paths) - 5:,} more" * (len(paths) > 5))
    if keep_going:
        return f"skillc: not checked, for their errors: {shown}"
    return (
        f"skillc: no check ran, for the errors of {shown} (--keep-going, or "
        "keep-going = true, checks what compiles)"
    )


def _json_report(
    found: dict[str, Any], report: Report, stale: bool, unchecked: list[str]
) -> str:
    data = {
        "stale": stale,
        "checks": found,
        "unchecked": unchecked,  # the inputs in error: none of their tools checked
        "diagnostics": [
            json.loads(cli_report.diagnostic(d, "json")) for d in report.items
        ],
    }
    return json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
