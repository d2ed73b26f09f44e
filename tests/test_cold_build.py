"""What a cold build (no output folder, no cache) costs, counted rather than timed: each
input is read once, and no cyclic garbage collection walks the model."""

from __future__ import annotations

import builtins
import collections
import gc
import io
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from conftest import FIXTURE_PROJECT, run_skillc, write_skill


def test_each_input_is_opened_once_per_cold_build(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Hashing a skill's SKILL.md and metadata.yaml and loading them use the same bytes:
    each is read once (the old code read both twice)."""
    project = tmp_path / "project"
    shutil.copytree(FIXTURE_PROJECT, project)
    opened: collections.Counter[str] = collections.Counter()
    real_open = io.open

    def counting(file: Any, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        if isinstance(file, (str, os.PathLike)) and "r" in mode:
            path = os.path.realpath(file)
            if path.startswith(str(project.resolve()) + os.sep):
                opened[os.path.relpath(path, project.resolve())] += 1
        return real_open(file, mode, *args, **kwargs)

    monkeypatch.setattr(io, "open", counting)
    monkeypatch.setattr(builtins, "open", counting)
    code, err = run_skillc(capsys, "-C", str(project), "build")
    assert code == 0, err
    skills = [
        path
        for path in opened
        if os.path.basename(path) in ("SKILL.md", "metadata.yaml")
        and not path.startswith(("generated", ".skillc-cache"))
    ]
    assert len(skills) >= 4, opened  # the fixture's skills, one with metadata.yaml
    assert {path: opened[path] for path in skills if opened[path] > 1} == {}


def test_no_cyclic_collection_runs_while_a_build_walks_loads_and_renders(
    skills_project: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The model and output of a large build are millions of objects that live to its
    end: a cyclic collection would walk them all again, for nothing. The collector is
    paused from the walk to the cache's saving, and runs again after."""
    from generator import cache, discover, writer
    from generator.pipeline import delta, stages

    for number in range(300):
        write_skill(
            skills_project / "skills",
            f"skill-{number}",
            f"---\nname: skill-{number}\ndescription: Does {number}.\n---\nBody.\n",
        )
    inside: list[str] = []
    collections: list[str] = []

    def watch(phase: str, info: dict[str, int]) -> None:
        if phase == "start" and inside:
            collections.append(f"generation {info['generation']} in {inside[-1]}")

    def watched(name: str, function: Callable[..., Any]) -> Callable[..., Any]:
        def run(*args: Any, **kwargs: Any) -> Any:
            inside.append(name)
            try:
                return function(*args, **kwargs)
            finally:
                inside.pop()

        return run

    # Watched inside the paused calls (the collector may run as it resumes).
    walk = watched("the walk", discover._Walker.walk)
    monkeypatch.setattr(discover._Walker, "walk", walk)
    loading = watched("loading", stages._Loading.markdown)
    monkeypatch.setattr(stages._Loading, "markdown", loading)
    monkeypatch.setattr(stages, "emit", watched("emit", stages.emit))
    # and to the end of the command: what the build made is not walked as it ages
    monkeypatch.setattr(delta, "remember", watched("remember", delta.remember))
    monkeypatch.setattr(writer, "write", watched("writing", writer.write))
    monkeypatch.setattr(cache.Cache, "save", watched("saving", cache.Cache.save))
    assert gc.isenabled()
    gc.callbacks.append(watch)  # the interpreter's own list: changed in place
    try:
        code, err = run_skillc(capsys, "-C", str(skills_project), "build")
    finally:
        gc.callbacks.remove(watch)
    assert code == 0, err
    assert "300 tools" in err
    assert collections == []
    assert gc.isenabled()


@pytest.mark.skipif(
    not os.path.isdir("/proc/self/task") or (os.cpu_count() or 1) < 2,
    reason="counts a process's threads in Linux's /proc, where BLAS would start more",
)
def test_the_vectors_import_numpy_without_starting_blas_threads(
    skills_project: Path,
) -> None:
    """A tool's vector is a sum of a few rows, with no BLAS call: numpy is imported with
    one BLAS thread (the old import started one per core, close to half its cost), and
    the environment is left as it was."""
    pytest.importorskip("numpy")
    write_skill(
        skills_project / "skills",
        "pdf",
        "---\nname: pdf\ndescription: Reads PDF files.\n---\nBody.\n",
    )
    script = (
        "import os, sys\n"
        "from generator.cli import main\n"
        "assert main(['-C', sys.argv[1], 'build']) == 0\n"
        "assert 'numpy' in sys.modules, 'no vector was made'\n"
        "print(len(os.listdir('/proc/self/task')))\n"
        "print(sorted(set(os.environ) & {'OPENBLAS_NUM_THREADS', 'OMP_NUM_THREADS'}))\n"
    )
    blas = ("OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "OMP_NUM_THREADS")
    env = {name: value for name, value in os.environ.items() if name not in blas}
    done = subprocess.run(
        [sys.executable, "-c", script, str(skills_project)],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[:2] == ["1", "[]"], done.stdout
