"""What a cold build (no output folder, no cache) costs, counted rather than timed: each
input is read once, and no cyclic garbage collection walks the model."""

from __future__ import annotations

import builtins
import collections
import contextlib
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

from conftest import FIXTURE_PROJECT, run_skillc, tree, write_skill


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

    _write_skills(skills_project, 300)
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
    from generator.emitters.search_index import FEW_VECTORS

    _write_skills(skills_project, FEW_VECTORS)  # fewer are summed without numpy
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
    out = _run(script, str(skills_project), env=env)
    assert out.split("\n")[:2] == ["1", "[]"], out


def _run(script: str, *args: str, env: dict[str, str] | None = None) -> str:
    """What a Python ``script`` run in a fresh process printed."""
    done = subprocess.run(
        [sys.executable, "-c", script, *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def _write_skills(project: Path, count: int) -> None:
    for number in range(count):
        write_skill(
            project / "skills",
            f"skill-{number}",
            f"---\nname: skill-{number}\ndescription: Does {number}.\n---\nBody.\n",
        )


@pytest.mark.skipif(not hasattr(os, "fork"), reason="the memo is saved aside by fork")
def test_a_cold_builds_memo_is_pickled_and_stored_by_another_process(
    skills_project: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Pickling and storing a cold build's memo runs in a forked process while the
    output is written: the build's own process pickles none of it, and the next build
    reuses every entry the child stored."""
    import pickle
    import sqlite3
    import types

    from generator import cache

    _write_skills(skills_project, 12)
    monkeypatch.setattr(cache, "ASIDE_ENTRIES", 10, raising=False)
    pickled_here: list[int] = []

    def dumps(value: object, *args: Any, **kwargs: Any) -> bytes:
        pickled_here.append(os.getpid())
        return pickle.dumps(value, *args, **kwargs)

    recording = types.SimpleNamespace(**vars(pickle))
    recording.dumps = dumps
    monkeypatch.setattr(cache, "pickle", recording)
    code, err = run_skillc(capsys, "-C", str(skills_project), "build")
    assert code == 0, err
    assert pickled_here == []
    with contextlib.closing(
        sqlite3.connect(skills_project / cache.CACHE_DIR / "memo.sqlite")
    ) as db:
        stored = db.execute("SELECT value FROM memo").fetchall()
    entries = sum(len(pickle.loads(blob)) for (blob,) in stored)
    assert entries >= 36  # each skill's definition, view and vector

    monkeypatch.setattr(cache, "pickle", pickle)
    loaded: list[str] = []
    from generator.pipeline import stages

    real_load = stages._Loading._load
    monkeypatch.setattr(
        stages._Loading,
        "_load",
        lambda self, item, *rest: loaded.append(str(item.path))
        or real_load(self, item, *rest),
    )
    (skills_project / "generated" / "report.json").unlink()  # so that it builds again
    code, err = run_skillc(capsys, "-C", str(skills_project), "build")
    assert code == 0, err
    assert loaded == []  # every skill came from the memo the child stored


@pytest.mark.skipif(not hasattr(os, "fork"), reason="the memo is saved aside by fork")
def test_a_memo_the_forked_process_failed_to_store_is_stored_by_the_build(
    skills_project: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A forked process that cannot store the memo (a full disk) costs only the time it
    saved: the build stores the memo itself."""
    import sqlite3

    from generator import cache

    _write_skills(skills_project, 12)
    monkeypatch.setattr(cache, "ASIDE_ENTRIES", 10)
    build, real_save = os.getpid(), cache.Memo.save

    def failing_in_the_child(memo: cache.Memo) -> None:
        if os.getpid() != build:
            raise OSError(28, "No space left on device")
        real_save(memo)

    monkeypatch.setattr(cache.Memo, "save", failing_in_the_child)
    code, err = run_skillc(capsys, "-C", str(skills_project), "build")
    assert code == 0, err
    with contextlib.closing(
        sqlite3.connect(skills_project / cache.CACHE_DIR / "memo.sqlite")
    ) as db:
        assert db.execute("SELECT count(*) FROM memo").fetchone()[0] > 0


@pytest.mark.skipif(
    not hasattr(os, "fork") or (os.cpu_count() or 1) < 2,
    reason="the per-tool work is split over two cores by fork",
)
def test_the_vectors_are_made_beside_the_views_and_numpy_stays_out_of_the_build(
    tmp_path: Path,
) -> None:
    """A cold build of many tools makes their vectors in a forked process while it
    makes the views: only that process imports numpy and loads the table (the old
    build imported numpy itself), and the output is a one-process build's."""
    pytest.importorskip("numpy")
    script = (
        "import sys\n"
        "from generator.cli import main\n"
        "from generator.pipeline import parallel\n"
        "parallel.MIN_ITEMS = 20\n"
        "if sys.argv[2] == 'one':\n"
        "    parallel._cores = lambda: 1\n"
        "assert main(['-C', sys.argv[1], 'build']) == 0\n"
        "print('numpy' in sys.modules)\n"
    )
    trees, imported = [], []
    for how in ("one", "split"):
        project = tmp_path / how
        (project / "skills").mkdir(parents=True)
        (project / "pyproject.toml").write_text('[tool.skillc]\nsources = ["skills"]\n')
        _write_skills(project, 40)
        imported.append(_run(script, str(project), how).split()[-1])
        trees.append(tree(project / "generated"))
    assert imported == ["True", "False"]  # in one process, numpy made the vectors
    vectors = trees[1]["_search_vectors.py"].decode()
    assert vectors.count("==") >= 40  # a base64 row per tool
    assert trees[1] == trees[0]


def test_a_cold_build_compiles_no_template_another_build_compiled(
    tmp_path: Path,
) -> None:
    """Compiled templates are kept in a per-user folder as well as in the project's
    cache: a build with no cache folder (a cold build, or another project) compiles
    none of them again, and writes the same bytes."""
    project = tmp_path / "project"
    shutil.copytree(FIXTURE_PROJECT, project)
    script = (
        "import sys, jinja2\n"
        "from generator.cli import main\n"
        "compiled = []\n"
        "real = jinja2.Environment.compile\n"
        "def counting(self, *args, **kwargs):\n"
        "    compiled.append(args[1] if len(args) > 1 else kwargs.get('name'))\n"
        "    return real(self, *args, **kwargs)\n"
        "jinja2.Environment.compile = counting\n"
        "assert main(['-C', sys.argv[1], 'build']) == 0\n"
        "print(len(compiled))\n"
    )
    (tmp_path / "tmp").mkdir()
    env = {**os.environ, "TMPDIR": str(tmp_path / "tmp")}
    counts, trees = [], []
    for _ in range(2):
        shutil.rmtree(project / "generated", ignore_errors=True)
        shutil.rmtree(project / ".skillc-cache", ignore_errors=True)
        counts.append(int(_run(script, str(project), env=env).split()[-1]))
        trees.append(tree(project / "generated"))
    assert counts[0] > 0  # the first build compiled them
    assert counts[1] == 0
    assert trees[0] == trees[1]


def test_numpys_vector_sums_the_rows_in_order() -> None:
    """numpy's vectors (a cold build's, summed with add.reduce along the rows and
    quantised in numpy) are the plain path's, byte for byte, for texts of every number
    of tokens up to past the most a vector takes."""
    pytest.importorskip("numpy")
    import random

    from generator.emitters import search_index
    from generator.resources import TABLE

    plain = search_index.Table(TABLE)
    with_numpy = search_index.Table(TABLE)
    with_numpy.prepare(search_index.FEW_VECTORS)
    # Whole words of the vocabulary (not "##" pieces), so that each is one known token.
    vocab = sorted(w for w in plain.tokenize.ids if w.isalpha() and w.isascii())
    rng = random.Random(17)
    for length in range(1, search_index.VECTOR_TOKENS + 8):
        text = " ".join(rng.choice(vocab) for _ in range(length))
        made = search_index.vector(with_numpy, text)
        assert made == search_index.vector(plain, text), text
