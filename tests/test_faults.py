"""Fault injection: a build killed at any instant, builds started together, a full disk.
After each, the output folder is exactly the old tree or exactly the new one, byte for
byte, and the next build leaves no temporary behind."""

from __future__ import annotations

import errno
import fcntl
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from conftest import CACHE, run_skillc, tree, write_skill
from skillc import writer

SKILL = "---\nname: {name}\ndescription: Does {name}.\n---\n{body}\n"
# Two versions of the sources: a changed, c removed, d added.
VERSIONS = (
    {"a": "Body one.", "b": "Bee.", "c": "Sea."},
    {"a": "Body two.", "b": "Bee.", "d": "Dee."},
)

# A fork server: imports skillc and builds a scratch copy of the project once (so that
# every module a build imports is loaded), then for each line "N stderr-path" on stdin
# forks a child that counts every file-system step of a build of the project and
# SIGKILLs itself at step N; it answers each line with the child's exit status. A fork
# per step instead of a fresh interpreter: the same real kill of a real process, without
# paying Python's start-up and skillc's imports 100+ times (324 s of the suite's time
# under load before; test_killed_at_random_instants still kills fresh interpreters).
KILL_AT_STEP = """
import builtins, contextlib, io, os, signal, sys
from skillc import cli, writer
warm, args = sys.argv[1], sys.argv[2:]
with contextlib.redirect_stderr(io.StringIO()):
    assert cli.main(["-C", warm, "build"]) == 0
def killed_at(limit):
    count = [0]
    def step(function):
        def wrapper(*a, **k):
            count[0] += 1
            if count[0] == limit:
                os.kill(os.getpid(), signal.SIGKILL)
            return function(*a, **k)
        return wrapper
    for name in ("rename", "replace", "link", "unlink", "rmdir", "mkdir"):
        setattr(os, name, step(getattr(os, name)))
    if hasattr(writer, "_exchange"):  # the one step made through ctypes, not os
        writer._exchange = step(writer._exchange)
    real_open = open
    def counted_open(file, mode="r", *a, **k):
        if any(c in mode for c in "wxa+"):
            count[0] += 1
            if count[0] == limit:
                os.kill(os.getpid(), signal.SIGKILL)
        return real_open(file, mode, *a, **k)
    builtins.open = counted_open
for line in sys.stdin:
    limit, err = line.split(" ", 1)
    sys.stdout.flush()
    child = os.fork()
    if child == 0:
        os.dup2(os.open(err.strip(), os.O_WRONLY | os.O_CREAT | os.O_TRUNC), 2)
        sys.stderr = io.TextIOWrapper(os.fdopen(2, "wb"), write_through=True)
        killed_at(int(limit))
        try:
            status = cli.main(args)
        finally:
            sys.stderr.flush()
        os._exit(status)
    print(os.waitstatus_to_exitcode(os.waitpid(child, 0)[1]), flush=True)
"""


def use_version(project: Path, index: int) -> None:
    skills = project / "skills"
    for folder in skills.iterdir():
        (folder / "SKILL.md").unlink()
        folder.rmdir()
    for name, body in VERSIONS[index].items():
        write_skill(skills, name, SKILL.format(name=name, body=body))


def environment() -> dict[str, str]:
    return {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(p for p in sys.path if p),
        "PYTHONDONTWRITEBYTECODE": "1",
    }


def leftovers(project: Path) -> list[str]:
    """Temporaries of any build: in the project folder, inside the output, or in the
    build cache's folder."""
    found = [p.name for p in project.iterdir() if p.name.startswith(".generated.")]
    found += [
        p.name for p in (project / "generated").rglob("*") if "skillc-tmp" in p.name
    ]
    return found + [p.name for p in CACHE.rglob("*.tmp")]


@pytest.fixture
def trees(
    skills_project: Path, capsys: pytest.CaptureFixture[str]
) -> tuple[Path, list[dict[str, bytes]]]:
    """The project, and the output tree of each version (built, in order, so the folder
    now holds the second)."""
    built = []
    for index in (0, 1):
        use_version(skills_project, index)
        assert run_skillc(capsys, "-C", str(skills_project), "build")[0] == 0
        built.append(tree(skills_project / "generated"))
    assert built[0] != built[1]
    return skills_project, built


def test_killed_at_every_file_system_step(
    trees: tuple[Path, list[dict[str, bytes]]],
    capsys: pytest.CaptureFixture[str],
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    """SIGKILL at the 1st, 2nd, ... file-system step of a build, until one completes."""
    project, built = trees
    out = project / "generated"
    scratch = tmp_path_factory.mktemp("faults")
    shutil.copytree(project, scratch / "warm")
    server = subprocess.Popen(
        [sys.executable, "-c", KILL_AT_STEP, str(scratch / "warm")]
        + ["-C", str(project), "build"],
        env=environment(),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert server.stdin is not None and server.stdout is not None
    try:
        current = 1
        for limit in range(1, 200):
            target = 1 - current
            use_version(project, target)
            err = scratch / f"stderr-{limit}"
            server.stdin.write(f"{limit} {err}\n")
            server.stdin.flush()
            returncode = int(server.stdout.readline())
            assert "Traceback" not in err.read_text()
            assert tree(out) in (
                built[current],
                built[target],
            ), f"mixed tree at step {limit}"
            assert run_skillc(capsys, "-C", str(project), "build")[0] == 0
            assert tree(out) == built[target] and leftovers(project) == []
            current = target
            if returncode == 0:  # the build ran to its end: every step was tried
                assert limit > 1, "no step of the build was counted"
                return
            assert returncode == -signal.SIGKILL
        raise AssertionError("the build never completed")
    finally:
        server.stdin.close()
        server.wait(timeout=60)


def test_killed_at_random_instants(
    trees: tuple[Path, list[dict[str, bytes]]], capsys: pytest.CaptureFixture[str]
) -> None:
    """50 real SIGKILLs at random instants of a build in a fresh process."""
    project, built = trees
    out = project / "generated"
    command = [sys.executable, "-m", "skillc", "-C", str(project), "build"]
    start = time.monotonic()
    subprocess.run(command, env=environment(), capture_output=True, check=True)
    duration = time.monotonic() - start  # a build that changes nothing: a lower bound
    chance = random.Random(11)
    current = 1
    for _ in range(50):
        target = 1 - current
        use_version(project, target)
        process = subprocess.Popen(
            command,
            env=environment(),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        time.sleep(chance.uniform(0.3, 1.3) * duration)
        process.send_signal(signal.SIGKILL)
        _, err = process.communicate(timeout=60)
        assert b"Traceback" not in err
        assert tree(out) in (built[current], built[target])
        assert run_skillc(capsys, "-C", str(project), "build")[0] == 0
        assert tree(out) == built[target] and leftovers(project) == []
        current = target


def test_concurrent_builds_take_turns(
    trees: tuple[Path, list[dict[str, bytes]]],
) -> None:
    project, built = trees
    command = [sys.executable, "-m", "skillc", "-C", str(project), "build"]
    for trial in range(4):
        use_version(project, trial % 2)
        processes = [
            subprocess.Popen(command, env=environment(), stderr=subprocess.PIPE)
            for _ in range(3)
        ]
        for process in processes:
            _, err = process.communicate(timeout=120)
            assert process.returncode == 0, err.decode()
        assert tree(project / "generated") == built[trial % 2]
        assert leftovers(project) == []


def test_a_second_build_waits_a_bounded_time(
    trees: tuple[Path, list[dict[str, bytes]]], capsys: pytest.CaptureFixture[str]
) -> None:
    project, built = trees
    pyproject = project / "pyproject.toml"
    pyproject.write_text(pyproject.read_text() + "lock-wait-sec = 1\n")
    use_version(project, 0)
    handle = os.open(project, os.O_RDONLY)
    try:
        fcntl.flock(handle, fcntl.LOCK_EX)
        code, err = run_skillc(capsys, "-C", str(project), "build")
    finally:
        os.close(handle)
    assert code == 2
    assert "another skillc build of this project is running; waited 1 s" in err
    assert tree(project / "generated") == built[1]
    assert run_skillc(capsys, "-C", str(project), "build")[0] == 0
    assert tree(project / "generated") == built[0]


class FullDisk:
    """``open`` for the writer whose files take ``room`` bytes in all, then ENOSPC."""

    def __init__(self, room: int) -> None:
        self.room = room

    def __call__(self, file: Any, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        handle = open(file, mode, *args, **kwargs)
        if "r" in mode:
            return handle
        disk = self

        class Limited:
            def __enter__(self) -> Limited:
                return self

            def __exit__(self, *exc: object) -> None:
                handle.close()

            def write(self, data: bytes) -> int:
                if len(data) > disk.room:
                    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(file))
                disk.room -= len(data)
                return handle.write(data)

        return Limited()


@pytest.mark.parametrize("room", [0, 1_000, 5_000])
def test_full_disk_is_a_diagnostic_and_keeps_the_old_tree(
    trees: tuple[Path, list[dict[str, bytes]]],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    room: int,
) -> None:
    project, built = trees
    use_version(project, 0)
    with monkeypatch.context() as patch:
        patch.setattr(writer, "open", FullDisk(room), raising=False)
        code, err = run_skillc(capsys, "-C", str(project), "build", "--no-cache")
    assert code == 1, err
    assert "No space left on device" in err and "Traceback" not in err
    assert "it was left as it was" in err
    assert tree(project / "generated") == built[1]
    assert leftovers(project) == []
    assert run_skillc(capsys, "-C", str(project), "build")[0] == 0
    assert tree(project / "generated") == built[0]


def test_a_name_the_file_system_refuses_keeps_the_old_tree(
    trees: tuple[Path, list[dict[str, bytes]]], capsys: pytest.CaptureFixture[str]
) -> None:
    """A 1,000-character tool name: its module's file name is too long."""
    project, built = trees
    (project / "skills" / "long.tools.yaml").write_text(
        "namespace: long\ntools:\n"
        f"  - name: {'n' * 1000}\n    description: Long.\n"
        "    input_schema: {type: object}\n"
        "    executor: {type: python, function: 'os:getcwd'}\n"
    )
    code, err = run_skillc(capsys, "-C", str(project), "build")
    assert code == 1 and "Traceback" not in err
    assert "skills/long.tools.yaml:3:" in err and "error[name-too-long]" in err
    assert tree(project / "generated") == built[1]
    assert leftovers(project) == []


def test_unchanged_files_are_linked_not_rewritten(
    trees: tuple[Path, list[dict[str, bytes]]], capsys: pytest.CaptureFixture[str]
) -> None:
    project, _ = trees
    module = project / "generated" / "task" / "_b.py"
    before = module.stat()
    use_version(project, 0)
    assert run_skillc(capsys, "-C", str(project), "build")[0] == 0
    after = module.stat()
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)
