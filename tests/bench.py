"""Benchmark for issue 2's performance figures (run it with `nox -s bench`).

It writes a corpus of 1,000 skills (about 1.5 KB of body each) and times, in fresh
processes, each figure against the floor measured in the same run: a plain script that
reads every SKILL.md and parses its frontmatter with yaml.CSafeLoader. Each time is the
median of several runs, and a floor run precedes every run, so that drift in the
machine's speed moves the floor too. It prints figures; it does not fail on them.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

FLOOR_SCRIPT = textwrap.dedent("""
    import sys, pathlib, yaml
    for path in sorted(pathlib.Path(sys.argv[1]).rglob("SKILL.md")):
        text = path.read_text(encoding="utf-8")
        yaml.load(text.split("---\\n", 2)[1], Loader=yaml.CSafeLoader)
""")

BODY_LINE = (
    "Step {j}: check the {topic} of the change carefully and report what you find.\n"
)


def write_corpus(root: Path, count: int) -> None:
    for i in range(count):
        folder = root / "skills" / f"skill-{i:04d}"
        folder.mkdir(parents=True)
        body = "".join(BODY_LINE.format(j=j, topic=f"topic {i}") for j in range(19))
        (folder / "SKILL.md").write_text(
            f"---\nname: skill-{i:04d}\n"
            f"description: Handles task number {i} for a user. Use when working on area {i % 37}.\n"
            f"allowed-tools: Read Grep\n---\n\n# Skill {i}\n\n{body}",
            encoding="utf-8",
        )
    (root / "pyproject.toml").write_text('[tool.skillc]\nsources = ["skills"]\n')


def timed(command: list[str], cwd: Path, env: dict[str, str] | None = None) -> float:
    start = time.perf_counter()
    subprocess.run(command, cwd=cwd, env=env, check=True, capture_output=True)
    return time.perf_counter() - start


class Sampler:
    """Times each figure's runs with a floor run before every one, so that a machine
    that slows down or speeds up during the bench moves the floor with the figures."""

    def __init__(self, floor) -> None:  # type: ignore[no-untyped-def]
        self.floor = floor
        self.floor_times: list[float] = []

    def median(self, runs: int, action) -> float:  # type: ignore[no-untyped-def]
        times = []
        for _ in range(runs):
            self.floor_times.append(self.floor())
            times.append(action())
        return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--skills", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    py = sys.executable
    with tempfile.TemporaryDirectory() as tmp:
        project = Path(tmp)
        write_corpus(project, args.skills)
        body_bytes = (project / "skills" / "skill-0000" / "SKILL.md").stat().st_size
        build = [py, "-m", "generator", "build"]
        out = project / "generated"
        base_env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}

        sampler = Sampler(
            lambda: timed([py, "-c", FLOOR_SCRIPT, "skills"], project, base_env)
        )
        median = sampler.median

        def cold() -> float:
            shutil.rmtree(out, ignore_errors=True)
            shutil.rmtree(project / ".skillc-cache", ignore_errors=True)
            return timed(build, project, base_env)

        cold_build = median(max(3, args.runs // 2), cold)
        noop = median(args.runs, lambda: timed(build, project, base_env))
        target = project / "skills" / f"skill-{args.skills // 2:04d}" / "SKILL.md"
        original = target.read_text(encoding="utf-8")
        counter = iter(range(1_000_000))

        def one_change() -> float:
            target.write_text(original + f"\nEdit {next(counter)}.\n", encoding="utf-8")
            return timed(build, project, base_env)

        changed = median(args.runs, one_change)
        listing = [py, "-c", "import generated; generated.list()"]
        no_pyc = median(args.runs * 2, lambda: timed(listing, project, base_env))
        with_pyc_env = {
            k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"
        }
        timed(listing, project, with_pyc_env)  # writes the .pyc files
        with_pyc = median(args.runs * 2, lambda: timed(listing, project, with_pyc_env))
        startup = median(
            args.runs * 2, lambda: timed([py, "-c", "pass"], project, base_env)
        )
        floor = statistics.median(sampler.floor_times)
        out_lines = sum(len(p.read_text().splitlines()) for p in out.rglob("*.py"))

    rows = [
        ("floor: read + CSafeLoader every SKILL.md", floor, None),
        ("cold build", cold_build, 15.0),
        ("no-op rebuild", noop, 2.0),
        ("rebuild after one skill changed", changed, 3.0),
        ("fresh import + list, no .pyc", no_pyc, 0.5),
        ("fresh import + list, with .pyc", with_pyc, 0.5),
        ("(python -c pass, for scale)", startup, None),
    ]
    print(
        f"\nskillc bench: {args.skills} skills, {body_bytes} bytes per SKILL.md, "
        f"{out_lines:,} lines of generated Python; medians of {args.runs}+ runs in fresh "
        f"processes, a floor run before each ({len(sampler.floor_times)} floor runs)\n"
    )
    print(f"{'figure':<44}{'seconds':>9}{'x floor':>9}{'target':>9}  met")
    for name, seconds, goal in rows:
        ratio = seconds / floor
        verdict = "" if goal is None else ("yes" if ratio <= goal else "NO")
        target_text = "" if goal is None else f"<= {goal:g}"
        print(f"{name:<44}{seconds:>9.3f}{ratio:>9.2f}{target_text:>9}  {verdict}")


if __name__ == "__main__":
    main()
