"""``skillc build | validate``: exit 0 when clean, 1 on errors or stale output, 2 on a usage
or configuration error. Diagnostics go to stderr, sorted; bad input never shows a traceback.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from . import __version__, cli_check, cli_report, config, pipeline, root_files, writer
from .diagnostics import Report, Severity


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        return _run(args)
    except config.SettingsError as exc:  # located, a line each
        print(exc, file=sys.stderr)
        return 2
    except (config.ConfigError, writer.OutputError) as exc:
        print(f"skillc: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # skillc find ... | head: stop quietly, as on SIGPIPE
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    except (writer.WriteFailed, OSError) as exc:  # the file system failed: no traceback
        print(f"skillc: error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    except Exception:  # a bug in skillc, not in the input: say so, with the details
        import traceback

        print(
            "skillc: internal error (please report it with this output):",
            file=sys.stderr,
        )
        traceback.print_exc()
        return 3


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="skillc",
        description="Compile Agent Skills and subagents into a typed Python package.",
    )
    parser.add_argument("--version", action="version", version=f"skillc {__version__}")
    parser.add_argument(
        "-C",
        "--project",
        dest="top_project",
        metavar="DIR",
        help="the project folder (default: found from here)",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    find_cmd = commands.add_parser(
        "find", help="rank the built tools by how well they fit a purpose"
    )
    find_cmd.add_argument("purpose", nargs="+", help="what you want to do, in words")
    find_cmd.add_argument("-k", type=int, default=10, help="how many (default: 10)")
    budget_cmd = commands.add_parser(
        "budget", help="print the token budget table of the last build"
    )
    schema_cmd = commands.add_parser(
        "schema", help="print a manifest format's JSON Schema (for editors)"
    )
    schema_cmd.add_argument(
        "name", nargs="?", help="tools, tool-manifest or ai-tool; none: list them"
    )
    init_cmd = commands.add_parser(
        "init", help="write a [tool.skillc] block and a nox session for this repository"
    )
    init_cmd.add_argument(
        "--catalogue",
        action="append",
        default=[],
        metavar="FOLDER",
        help="also compile this catalogue of installable definitions (repeatable)",
    )
    fix_cmd = commands.add_parser(
        "fix", help="show the fixes of the sources as a diff; --write writes them"
    )
    for command in (find_cmd, budget_cmd, init_cmd):
        command.add_argument(
            "-C", "--project", metavar="DIR", help="the project folder"
        )
    build_cmd = commands.add_parser("build", help="write the output folder")
    validate_cmd = commands.add_parser(
        "validate", help="print diagnostics only; write nothing"
    )
    check_cmd = commands.add_parser(
        "check", help="build --check, then the catalogue's health; write nothing"
    )
    cli_check.add_arguments(check_cmd)
    fix_cmd.add_argument(
        "-C", "--project", metavar="DIR", help="the project folder (default: found)"
    )
    fix_cmd.add_argument(
        "--source",
        action="append",
        metavar="DIR",
        help="a source root; repeat it (replaces [tool.skillc] sources)",
    )
    fix_cmd.add_argument(
        "--write", action="store_true", help="write the fixes (default: show them)"
    )
    for command in (build_cmd, validate_cmd, check_cmd):
        command.add_argument(
            "-C",
            "--project",
            metavar="DIR",
            help="the project folder (default: found from here)",
        )
        command.add_argument(
            "--source",
            action="append",
            metavar="DIR",
            help="a source root, lowest precedence first; repeat it (replaces [tool.skillc] sources)",
        )
        command.add_argument(
            "--out", metavar="DIR", help="the output folder (default: generated)"
        )
        command.add_argument(
            "--package",
            metavar="NAME",
            help="the package name (default: the output folder's name)",
        )
        command.add_argument(
            "--strict",
            action="store_true",
            default=None,
            help="make deviations Claude Code accepts errors",
        )
        cli_report.add_arguments(command)
    for flag, text in (
        ("--check", "write nothing; exit 1 when the output on disk is stale"),
        ("--diff", "with --check: print the full diff"),
        (
            "--keep-going",
            "on errors, still write the valid tools (exit status stays 1)",
        ),
        ("--no-cache", "neither read nor write the build cache"),
        ("--dump-ir", "also write the intermediate model as JSON"),
        ("--force", "discard files in the output folder that skillc did not write"),
    ):
        kind: dict[str, Any] = (
            {"metavar": "FILE"} if flag == "--dump-ir" else {"action": "store_true"}
        )
        build_cmd.add_argument(flag, help=text, **kind)
    return parser


def _run(args: argparse.Namespace) -> int:
    if args.command == "schema":
        return _schema(args.name)
    if args.command == "init":
        from . import init

        folder = Path(args.project or args.top_project or ".").resolve()
        return init.main(folder, tuple(args.catalogue))
    root, flags = _project(args)
    if args.command not in ("build", "validate"):
        cfg = pipeline.configure(root, False, **flags)[0]
        if args.command == "find":
            return _find(cfg, " ".join(args.purpose), args.k)
        if args.command == "budget":
            return _budget(cfg)
        if args.command == "fix":
            from . import cli_fix  # the walk and the loaders: not for a no-op build

            return cli_fix.main(args, cfg)
        return cli_check.main(args, cfg)
    cfg, memo = pipeline.configure(root, not getattr(args, "no_cache", False), **flags)
    dump_ir = getattr(args, "dump_ir", None)
    if dump_ir is not None:
        cli_check.outside_out(cfg, Path(dump_ir).resolve(), f"--dump-ir {dump_ir}")
    if args.command == "build" and not args.check:
        with writer.exclusive(cfg.root.resolve(), cfg.lock_wait_sec):
            writer.recover(cfg.out_dir)
            return _compile(args, cfg, memo)
    return _compile(args, cfg, memo)


def _compile(args: argparse.Namespace, cfg: config.Config, memo: pipeline.Cache) -> int:
    output = cli_report.Output.of(args)
    with cli_report.progress(output) as shown:
        return _build(args, cfg, memo, output, shown)


def _build(
    args: argparse.Namespace,
    cfg: config.Config,
    memo: pipeline.Cache,
    output: cli_report.Output,
    shown: cli_report.Progress,
) -> int:
    """The build (or its check, or validate); ``shown`` is stopped before anything is
    printed."""
    building = args.command == "build"
    report = cli_check.report_of(cfg)
    keep_going = building and (args.keep_going or cfg.keep_going)
    result = pipeline.run(
        cfg,
        report,
        memo=memo,
        writing=building and not args.check and not args.dump_ir,
        emit=building,
        keep_going=keep_going,
    )
    shown.stop()
    keep_going = keep_going and _only_files_failed(report)
    for note in result.notes:
        print(f"skillc: warning: {note}", file=sys.stderr)
    if result.model is None:  # the last build's outcome holds
        result.remember(True)
        if report.has_errors and not keep_going:
            return cli_report.finish(report, output, f"nothing written to {cfg.out}/")
        done = f"{cfg.out}/ is up to date" + _left_out(report)
        return cli_report.finish(report, output, done)
    if not building:
        return cli_report.finish(report, output, "")
    if args.dump_ir:
        from .ir import to_json

        text = json.dumps(
            to_json(result.model), indent=2, sort_keys=True, ensure_ascii=False
        )
        Path(args.dump_ir).write_text(text + "\n", encoding="utf-8")
    if report.has_errors and not keep_going:
        result.remember(False)
        return cli_report.finish(report, output, f"nothing written to {cfg.out}/")
    return _write(args, cfg, result, report, output)


def _write(
    args: argparse.Namespace,
    cfg: config.Config,
    result: pipeline.Build,
    report: Report,
    output: cli_report.Output,
) -> int:
    """The output folder and the root files written (or, with --check, compared)."""
    assert result.model is not None
    writer.check_owned(cfg.out_dir)
    changes = writer.plan(cfg.out_dir, result.files)
    at_root, roots = cli_report.roots(cfg, result.files)
    if args.check:
        return _check(cfg, result.files, changes, report, output, roots)
    if not (args.force or cfg.discard_unowned):
        writer.refuse_unowned(changes, cfg.out)
    if cli_report.unowned_roots(roots, report):  # nothing remembered: a build redoes
        return cli_report.finish(report, output, f"nothing written to {cfg.out}/")
    written = writer.write(cfg.out_dir, result.files, changes)
    root_files.write(cfg.root, at_root, roots)  # once the folder they point into is
    result.remember(True)
    if output.verbose:
        for state, paths in (("wrote", written), ("removed", changes.extra)):
            for path in paths:
                print(f"{state} {cfg.out}/{path}", file=sys.stderr)
    summary = _summary(cfg, len(result.model.tools), changes, roots)
    return cli_report.finish(report, output, summary + _left_out(report))


def _summary(
    cfg: config.Config, tools: int, changes: writer.Plan, roots: cli_report.RootPlan
) -> str:
    """What a build wrote, for its closing line."""
    wrote = len(changes.created) + len(changes.changed)
    summary = (
        f"{cli_report.counted(tools, 'tool')}; wrote "
        f"{cli_report.counted(wrote, 'file')} to {cfg.out}/, "
        f"{len(changes.unchanged):,} unchanged, {len(changes.extra):,} removed"
    )
    moved = len(roots.created) + len(roots.changed) + len(roots.extra)
    if moved:
        summary += f"; {cli_report.counted(moved, 'file')} at the project root updated"
    return summary


# Errors of the whole build, which --keep-going does not write past.
WHOLE = frozenset({"encoder-unavailable"})


def _only_files_failed(report: Report) -> bool:
    """No error of the whole build (which no file left out would mend)."""
    return not any(d.code in WHOLE for d in report.items)


def _left_out(report: Report) -> str:
    """What a build that kept going left out, for its closing line."""
    if not report.has_errors:
        return ""
    left_out = {d.path for d in report.items if d.severity is Severity.ERROR}
    return f"; {cli_report.counted(len(left_out), 'file')} with errors left out (keep-going)"


def _project(args: argparse.Namespace) -> tuple[Path, dict[str, Any]]:
    """The project folder the command line names, and its flags for config.load."""
    chosen = args.project or args.top_project
    if chosen and not Path(chosen).is_dir():
        raise config.ConfigError(f"project folder {chosen!r} does not exist")
    here = Path(chosen).resolve() if chosen else Path.cwd().resolve()
    root = here if chosen else config.find_root(here)
    # Paths on the command line are the shell's: relative to the folder skillc runs
    # in (or -C DIR, as git -C does), not to the project found above it.
    sources = getattr(args, "source", None)
    out = getattr(args, "out", None)
    return root, {
        "sources": [str(here / source) for source in sources] if sources else None,
        "out": str(here / out) if out else None,
        "package": getattr(args, "package", None),
        "strict": getattr(args, "strict", None),
    }


def _built(cfg: config.Config, name: str) -> Path:
    path = cfg.out_dir / name
    if not path.is_file():
        raise config.ConfigError(f"{cfg.out}/ has no {name}; run skillc build first")
    return path


def _find(cfg: config.Config, purpose: str, k: int) -> int:
    """``find_tool`` of the built package, from the command line."""
    _built(cfg, "_search_index.py")
    spec = importlib.util.spec_from_file_location(
        cfg.package,
        cfg.out_dir / "__init__.py",
        submodule_search_locations=[str(cfg.out_dir)],
    )
    assert spec is not None and spec.loader is not None
    package = importlib.util.module_from_spec(spec)
    sys.modules[cfg.package] = package
    spec.loader.exec_module(package)
    for match in package.find_tool(purpose, k):
        print(f"{match.relevance:5.3f}  {match.name}  ({match.reason})")
    return 0


def _budget(cfg: config.Config) -> int:
    """The token budgets the last build recorded in report.json, as a table."""
    budgets = json.loads(_built(cfg, "report.json").read_text(encoding="utf-8"))[
        "budgets"
    ]
    rows = [(t["name"], str(t["level1"]), str(t["level2"])) for t in budgets["tools"]]
    names = [name for name, _, _ in rows] + list(budgets["providers"])
    width = max(len(name) for name in ["provider file", *names])
    print(f"{'tool':<{width}}  {'level 1':>8}  {'level 2':>8}")
    for name, one, two in rows:
        print(f"{name:<{width}}  {one:>8}  {two:>8}")
    print(f"\n{'provider file':<{width}}  {'tokens':>8}")
    for path, count in budgets["providers"].items():
        print(f"{path:<{width}}  {count:>8}")
    print(f"\ntokens counted with {budgets['counter']}")
    return 0


def _schema(name: str | None) -> int:
    """A manifest schema as skillc ships it (its ``$id`` stays the same across versions
    of one format), or the list of them."""
    folder = Path(__file__).resolve().parent / "schemas"
    schemas = {p.name.removesuffix(".schema.json"): p for p in folder.glob("*.json")}
    if name is None:
        for key in sorted(schemas):
            schema_id = json.loads(schemas[key].read_text(encoding="utf-8"))["$id"]
            print(f"{key}  {schema_id}")
        return 0
    if name not in schemas:
        raise config.ConfigError(
            f"no schema {name!r}; one of {', '.join(sorted(schemas))}"
        )
    print(schemas[name].read_text(encoding="utf-8"), end="")
    return 0


def _check(
    cfg: config.Config,
    files: dict[str, bytes],
    changes: writer.Plan,
    report: Report,
    output: cli_report.Output,
    roots: cli_report.RootPlan,
) -> int:
    if not changes.stale and not roots.stale:
        return cli_report.finish(report, output, f"{cfg.out}/ is up to date")
    lines: list[str] = []
    annotated = 0
    if changes.stale:
        lines, annotated = cli_report.stale(
            cfg.out_dir, files, changes, cfg.out, output, report
        )
    for line in lines + cli_report.root_lines(roots):
        print(line, file=sys.stderr)
    # What is stale is the error itself: said even under -q, never as "0 errors".
    what = ", ".join(
        f"{count:,} {state}"
        for count, state in (
            (len(changes.created), "missing"),
            (len(changes.changed), "changed"),
            (len(changes.extra), "extra"),
            (len(cli_report.root_lines(roots)), "at the project root"),
        )
        if count
    )
    stale = f"{cfg.out}/ is stale; run: skillc build ({what})"
    cli_report.finish(report, output, stale, always=True, errors=annotated)
    return 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
