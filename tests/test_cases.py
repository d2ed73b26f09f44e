"""Loader and diagnostic cases, one file per case in tests/data/cases/ (the shape of
black's tests/data/cases/: a case's flags, its input and its expected output in one
file), run by one test.

A case file: lines before the first ``===`` line say what the case is about; then

- ``=== file PATH``: a file of the project (relative to its root), its text the lines
  that follow, exactly; ``=== bytes PATH``: a file given on the next line as Python
  bytes escapes (``\\xe9``, ``\\n``), for bytes that are not UTF-8;
- ``=== skillc ARGS``: a run of ``skillc -C <project> ARGS`` in a fresh copy of the
  files; the lines that follow are its stderr, every line of it (``...`` in a line
  matches any text there);
- ``=== exit N``: the run's exit status; ``=== exists PATH`` and ``=== absent PATH``:
  what the run leaves in the project.

Without a ``pyproject.toml`` among the files, the project has ``[tool.skillc]`` with
``sources = ["skills"]``, and a ``skills/`` folder. Every run: no traceback; a
``build`` (without ``--keep-going``) writes ``generated/`` exactly when it exits 0.

``nox -s tests -- --update-goldens`` rewrites each run's stderr and exit status as
skillc now prints them (a line that still matches is kept as written): review the diff.
"""

from __future__ import annotations

import codecs
import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from conftest import TESTS, run_skillc

CASES = TESTS / "data" / "cases"
DEFAULT_CONFIG = '[tool.skillc]\nsources = ["skills"]\n'
DIRECTIVE = re.compile(r"=== (file|bytes|skillc|exit|exists|absent)(?: (.*))?\n?")


@dataclass
class Run:
    args: str
    stderr: list[str] = field(default_factory=list)
    status: int | None = None
    exists: list[str] = field(default_factory=list)
    absent: list[str] = field(default_factory=list)


@dataclass
class Case:
    about: list[str] = field(default_factory=list)
    # Each file: "file" or "bytes", its path, its section's lines as written.
    files: list[tuple[str, str, list[str]]] = field(default_factory=list)
    runs: list[Run] = field(default_factory=list)


def read_case(path: Path) -> Case:
    case = Case()
    section: list[str] = case.about
    for line in path.read_text(encoding="utf-8").splitlines(keepends=True):
        found = DIRECTIVE.fullmatch(line)
        if found is None:
            section.append(line)
            continue
        kind, value = found[1], found[2] or ""
        if kind in ("file", "bytes"):
            case.files.append((kind, value, section := []))
        elif kind == "skillc":
            case.runs.append(Run(value))
            section = case.runs[-1].stderr
        elif kind == "exit":
            case.runs[-1].status = int(value)
        else:
            getattr(case.runs[-1], kind).append(value)
    for run in case.runs:
        run.stderr = [line.rstrip("\n") for line in run.stderr]
    return case


def content(kind: str, lines: list[str]) -> bytes:
    """A file's bytes: its lines, or (``bytes``) its one line of Python escapes."""
    if kind == "file":
        return "".join(lines).encode()
    data: bytes = codecs.escape_decode("".join(lines).rstrip("\n").encode())[0]
    return data


def matches(expected: str, actual: str) -> bool:
    """A line of the case against a line printed: equal, but for its ``...``."""
    pattern = ".*".join(re.escape(part) for part in expected.split("..."))
    return re.fullmatch(pattern, actual) is not None


def lay_out(case: Case, project: Path) -> None:
    (project / "skills").mkdir(parents=True)
    (project / "pyproject.toml").write_text(DEFAULT_CONFIG)
    for kind, name, lines in case.files:
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        (project / name).write_bytes(content(kind, lines))


def write_case(path: Path, case: Case) -> None:
    out = list(case.about)
    for kind, name, lines in case.files:
        out += [f"=== {kind} {name}\n", *lines]
    for run in case.runs:
        out += [f"=== skillc {run.args}\n", *(f"{line}\n" for line in run.stderr)]
        out.append(f"=== exit {run.status}\n")
        out += [f"=== exists {p}\n" for p in run.exists]
        out += [f"=== absent {p}\n" for p in run.absent]
    path.write_text("".join(out), encoding="utf-8")


def updated(expected: list[str], printed: list[str]) -> list[str]:
    """What --update-goldens keeps: each expected line that still matches its line."""
    if len(expected) != len(printed):
        return printed
    return [e if matches(e, p) else p for e, p in zip(expected, printed)]


@pytest.mark.parametrize("name", sorted(p.stem for p in CASES.glob("*.case")))
def test_case(
    name: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    update_goldens: bool,
) -> None:
    path = CASES / f"{name}.case"
    case = read_case(path)
    assert case.runs, f"{path.name} has no run"
    for number, run in enumerate(case.runs):
        project = tmp_path / f"run{number}"
        lay_out(case, project)
        args = shlex.split(run.args)
        status, err = run_skillc(capsys, "-C", str(project), *args)
        printed = err.splitlines()
        assert "Traceback" not in err, err
        if update_goldens:
            run.stderr, run.status = updated(run.stderr, printed), status
            continue
        said = f"{path.name}, skillc {run.args}: it printed\n{err}"
        assert len(printed) == len(run.stderr), said
        for expected, actual in zip(run.stderr, printed):
            assert matches(expected, actual), f"{said}\nexpected: {expected}"
        assert status == run.status, said
        if args[0] == "build" and "--keep-going" not in args:
            assert (project / "generated").exists() == (status == 0), said
        for left in run.exists:
            assert (project / left).exists(), f"{said}\n{left} is missing"
        for gone in run.absent:
            assert not (project / gone).exists(), f"{said}\n{gone} is there"
    if update_goldens:
        write_case(path, case)
