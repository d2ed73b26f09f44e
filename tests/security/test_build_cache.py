"""Issue 26's build-side items: nothing in the project folder runs code, ``--check``
never takes the cache's or the lock's word for it, no build leaves a process behind,
and a cached build says what an uncached one says. Each test starts from a fresh
project and runs skillc in fresh processes, as CI and the pre-commit hook do."""

from __future__ import annotations

import os
import pathlib
import pickle
import signal
import subprocess
import sys
import time
from pathlib import Path

from conftest import write_skill

SKILL = "---\nname: {name}\ndescription: Does {name}.\n---\nBody of {name}.\n"


def _project(root: Path, skills: int = 1) -> Path:
    project = root / "project"
    for number in range(skills):
        write_skill(project / "skills", f"s{number}", SKILL.format(name=f"s{number}"))
    (project / "pyproject.toml").write_text(
        '[tool.skillc]\nsources = ["skills"]\nlock-wait-sec = 5\n', encoding="utf-8"
    )
    return project


def _skillc(project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "skillc", "-C", str(project), "build", *args],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


class _Planted:
    """Unpickled, it creates the file ``marker``: what a pull request could commit."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[object, tuple[Path]]:
        return pathlib.Path.touch, (self.marker,)


def test_a_committed_cache_file_runs_no_code(tmp_path: Path) -> None:
    """A pickle committed into .skillc-cache/ (where earlier versions kept the cache)
    is never unpickled by ``skillc build --check`` (CI, the pre-commit hook) nor by
    ``skillc build``: nothing reads that folder (the cache is in the user's cache
    folder), and it is left as it was."""
    project = _project(tmp_path)
    marker = tmp_path / "code-ran"
    cache = project / ".skillc-cache"
    cache.mkdir()
    for name in ("state.pickle", "memo.jsonl", "memo.pickle", "walk.pickle"):
        (cache / name).write_bytes(pickle.dumps(("any", _Planted(marker))))
    planted = {path.name: path.read_bytes() for path in cache.iterdir()}
    check = _skillc(project, "--check")
    assert check.returncode == 1, check.stderr  # nothing built yet: stale
    assert not marker.exists()
    for _ in range(2):
        build = _skillc(project)
        assert build.returncode == 0, build.stderr
        assert not marker.exists() and "warning:" not in build.stderr
    assert "is up to date" in build.stderr
    assert {path.name: path.read_bytes() for path in cache.iterdir()} == planted


def test_check_builds_and_compares_whatever_the_cache_says(tmp_path: Path) -> None:
    """An output file edited in place, with its size and modification time kept, is
    stale: ``--check`` compares what a build writes with the bytes on disk."""
    project = _project(tmp_path)
    assert _skillc(project).returncode == 0
    module = project / "generated" / "task" / "_s0.py"
    kept = module.stat()
    text = module.read_text(encoding="utf-8")
    module.write_text(text.replace("Body of s0", "Body of XX"), encoding="utf-8")
    os.utime(module, ns=(kept.st_atime_ns, kept.st_mtime_ns))
    check = _skillc(project, "--check")
    assert check.returncode == 1, check.stderr
    assert "changed: generated/task/_s0.py" in check.stderr


def _children(pid: int) -> set[int]:
    """The processes whose parent is ``pid``."""
    found = set()
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="utf-8") as handle:
                fields = handle.read().rpartition(")")[2].split()
        except OSError:
            continue
        if fields and int(fields[1]) == pid:
            found.add(int(entry))
    return found


def test_a_build_starts_no_process_and_a_killed_one_holds_no_lock(
    tmp_path: Path,
) -> None:
    """A cold build of 1,000 skills runs in one process (earlier versions forked
    workers from 1,000 items, which a SIGKILL of the build could leave blocked holding
    the project lock); and a build killed midway leaves nothing that keeps the next
    one waiting (lock-wait-sec = 5)."""
    if not os.path.isdir("/proc/self"):
        import pytest

        pytest.skip("no /proc to list a process's children")
    project = _project(tmp_path, 1000)
    command = [sys.executable, "-m", "skillc", "-C", str(project), "build"]
    seen: set[int] = set()
    build = subprocess.Popen(command, stderr=subprocess.DEVNULL)
    try:
        while build.poll() is None:
            seen |= _children(build.pid)
            time.sleep(0.005)
    finally:
        build.kill()
        build.wait()
        for child in seen:  # an earlier version's worker: not to outlive the test
            try:
                os.kill(child, signal.SIGKILL)
            except ProcessLookupError:
                pass
    assert build.returncode == 0
    assert seen == set(), f"the build started processes {sorted(seen)}"
    (project / "skills" / "s7" / "SKILL.md").write_text(SKILL.format(name="seven"))
    killed = subprocess.Popen(command, stderr=subprocess.DEVNULL)
    time.sleep(1.0)
    killed.send_signal(signal.SIGKILL)
    killed.wait()
    after = _skillc(project)
    assert after.returncode == 0, after.stderr
    assert "Body of seven" in (project / "generated" / "task" / "_s7.py").read_text()


def test_a_cached_build_reports_what_an_uncached_one_reports(tmp_path: Path) -> None:
    """A symbolic link that loops, added after a build, changes no input: the cached
    build still walks the sources, and says what a build without the cache says."""
    project = _project(tmp_path, 2)
    assert _skillc(project).returncode == 0
    (project / "skills" / "s1" / "loop").symlink_to(project / "skills")
    cached = _skillc(project)
    uncached = _skillc(project, "--no-cache")

    def verdict(done: subprocess.CompletedProcess[str]) -> tuple[int, list[str]]:
        lines = done.stderr.splitlines()
        return done.returncode, [line for line in lines if "[" in line]

    assert "warning[symlink-loop]" in uncached.stderr, uncached.stderr
    assert verdict(cached) == verdict(uncached)
