"""The incremental rebuild (generator/pipeline/delta.py) against cold builds.

Differential: a project with skills, subagents, a command, a plugin and tool manifests
takes a fixed-seed sequence of random edits (a body, a description, a parameter, a tag,
a name, a file added and removed, a file broken and fixed). After each, an incremental
build in a fresh process and a cold ``--no-cache`` build of a copy in another folder
must write the same bytes, say the same diagnostics and exit alike. The edits that keep
every tool's names must be spliced (``-v`` says so), so the test fails when the delta
silently always falls back."""

from __future__ import annotations

import random
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from conftest import FIXTURES

SPLICED = "spliced the changed tools into the last build"
PLAIN = 6  # plain skills beside the fixture's


def _project(root: Path) -> Path:
    project = root / "project"
    shutil.copytree(FIXTURES / "project", project)
    manifests = project / "manifests"
    manifests.mkdir()
    shutil.copy(FIXTURES / "tools" / "manifests" / "s3.tools.yaml", manifests)
    shutil.copytree(FIXTURES / "tools" / "manifests" / "weather", manifests / "weather")
    for number in range(PLAIN):
        _skill(project, number, f"Plans trip number {number}. Use for travel.")
    for name in ("tagged", "fragile"):
        _skill(project, name, f"The {name} one. Use for travel.")
    commands = project / "skills" / ".claude" / "commands"
    commands.mkdir(parents=True)
    (commands / "deploy.md").write_text(
        "---\ndescription: Deploy the service to staging.\n---\n\nDeploy $ARGUMENTS.\n",
        encoding="utf-8",
    )
    # A profile (its own provider files, less one tool) and always-loaded tools (their
    # other line in anthropic.deferred.json).
    (project / "pyproject.toml").write_text(
        '[tool.skillc]\nsources = ["skills", "plugins", "overrides", "manifests"]\n'
        'out = "out"\npackage = "tools"\n'
        'always-loaded = ["task.trip_1", "s3.file.list"]\n'
        "[tool.skillc.profiles.support]\n"
        'provider = "anthropic"\nexclude = ["task.trip_2"]\n'
        'always-loaded = ["task.trip_3"]\n',
        encoding="utf-8",
    )
    return project


def _skill(project: Path, name: int | str, description: str, extra: str = "") -> None:
    folder = project / "skills" / f"trip-{name}"
    folder.mkdir(exist_ok=True)
    (folder / "SKILL.md").write_text(
        f"---\nname: trip-{name}\ndescription: {description}\n{extra}---\n\n"
        f"Plan trip {name} step by step.\n",
        encoding="utf-8",
    )


def _build(project: Path, *options: str) -> tuple[int, list[str], str]:
    done = subprocess.run(
        [sys.executable, "-m", "generator", "-C", str(project), "build", *options],
        capture_output=True,
        text=True,
        check=False,
    )
    said = sorted(
        line
        for line in done.stderr.splitlines()
        if "error[" in line or "warning[" in line
    )
    return done.returncode, said, done.stderr


def _tree(out: Path) -> dict[str, bytes]:
    return {
        p.relative_to(out).as_posix(): p.read_bytes()
        for p in sorted(out.rglob("*"))
        if p.is_file() and "__pycache__" not in p.parts
    }


def _append(path: Path, text: str) -> None:
    path.write_text(path.read_text(encoding="utf-8") + text, encoding="utf-8")


def _rewrite(path: Path, start: str, end: str, new: str) -> None:
    """Replace the text from ``start`` up to the next ``end`` with ``new``."""
    text = path.read_text(encoding="utf-8")
    at = text.index(start)
    path.write_text(text[:at] + new + text[text.index(end, at) :], encoding="utf-8")


Edit = Callable[[Path, random.Random], bool]  # True: the delta must splice it


def body(project: Path, rng: random.Random) -> bool:
    path = project / "skills" / f"trip-{rng.randrange(PLAIN)}" / "SKILL.md"
    _append(path, f"Also check {rng.random()}.\n")
    return True


def description(project: Path, rng: random.Random) -> bool:
    word = rng.choice(["voyage", "journey", "outing", "trek", "cruise"])
    number = rng.randrange(PLAIN)
    _skill(project, number, f"Plans {word} number {number}. Use for {word}s.")
    return True


def command_body(project: Path, rng: random.Random) -> bool:
    path = project / "skills" / ".claude" / "commands" / "deploy.md"
    _append(path, f"Then wait {rng.randrange(60)} s.\n")
    return True


def _rewriting(
    name: str, where: str, start: str, end: str, new: Callable[[random.Random], str]
) -> Edit:
    """An edit that rewrites one field of ``where``; spliced unless it is a name."""

    def edit(project: Path, rng: random.Random) -> bool:
        _rewrite(project / where, start, end, new(rng))
        return name != "rename"

    edit.__name__ = name
    return edit


manifest_description = _rewriting(
    "manifest_description",
    "manifests/s3.tools.yaml",
    "description: List",
    "\n",
    lambda rng: f"description: List the {rng.choice(['keys', 'things'])} under "
    f"a prefix {rng.randrange(99)}.",
)
parameter = _rewriting(
    "parameter",
    "manifests/s3.tools.yaml",
    "bucket: {type: string, description: ",
    "}",
    lambda rng: f"bucket: {{type: string, description: Bucket {rng.randrange(99)}.",
)
# A change of interface: the lock's line of the tool changes with its schema.
enum = _rewriting(
    "enum",
    "manifests/s3.tools.yaml",
    "class: {type: string, enum: [",
    "]",
    lambda rng: "class: {type: string, enum: ["
    + ", ".join(rng.sample(["STANDARD", "GLACIER", "ONEZONE_IA"], rng.randint(1, 3))),
)
agent_description = _rewriting(
    "agent_description",
    "skills/.claude/agents/doc-writer.md",
    "description:",
    "\n",
    lambda rng: f"description: Writes and {rng.choice(['explains', 'checks'])} docs.",
)
rename = _rewriting(
    "rename",
    "manifests/weather/tool-manifest.yaml",
    "- name: ",
    "\n",
    lambda rng: f"- name: {rng.choice(['forecast', 'outlook', 'prediction'])}",
)


def comment(project: Path, rng: random.Random) -> bool:
    """Lines added or removed above a manifest's tools: their positions move, and
    with them its warnings and each tool's "Source" line."""
    path = project / "manifests" / "weather" / "tool-manifest.yaml"
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines(True)
    kept = [line for line in lines if not line.startswith("# n")]
    count = len(lines) - len(kept) + rng.choice([-1, 1])  # a change, never below 0
    notes = "".join(f"# note {n}\n" for n in range(abs(count)))
    path.write_text(notes + "".join(kept), encoding="utf-8")
    return True


def shell_line(project: Path, rng: random.Random) -> bool:
    """A line Claude Code runs when the skill is invoked: bom.json changes with it."""
    _append(
        project / "skills" / "trip-2" / "SKILL.md",
        f"!`git log -n {rng.randrange(9)}`\n",
    )
    return False  # what the skill reaches changed: the full build runs


def plugin_body(project: Path, rng: random.Random) -> bool:
    path = project / "plugins" / "review-kit" / "agents" / "code-reviewer.md"
    _append(path, f"Look at line {rng.randrange(500)}.\n")
    return False  # a plugin item: spliced when its plugin says nothing, else not


def tag(project: Path, rng: random.Random) -> bool:
    (project / "skills" / "trip-tagged" / "metadata.yaml").write_text(
        f"version: 1.0.{rng.randrange(9)}\ntags:\n  - {rng.choice(['travel', 'trips'])}\n",
        encoding="utf-8",
    )
    return False  # its metadata changes: _index.py's METADATA, ai-tools.json


def add_remove(project: Path, rng: random.Random) -> bool:
    folder = project / "skills" / "extra"
    if folder.exists():
        shutil.rmtree(folder)
    else:
        folder.mkdir()
        (folder / "SKILL.md").write_text(
            f"---\nname: extra\ndescription: Extra skill {rng.randrange(9)}.\n---\n\nDo it.\n",
            encoding="utf-8",
        )
    return False


def break_fix(project: Path, rng: random.Random) -> bool:
    path = project / "skills" / "trip-fragile" / "SKILL.md"
    text = path.read_text(encoding="utf-8")
    broken = "description: [unclosed\n"
    if broken in text:
        _skill(project, "fragile", f"The fragile one again {rng.randrange(9)}.")
    else:
        path.write_text(
            text.replace("description:", broken + "x:", 1), encoding="utf-8"
        )
    return False


EDITS: list[Edit] = [
    body,
    description,
    manifest_description,
    parameter,
    enum,
    command_body,
    agent_description,
    comment,
    plugin_body,
    shell_line,
    tag,
    rename,
    add_remove,
]


def test_incremental_builds_match_cold_builds(tmp_path: Path) -> None:
    project = _project(tmp_path)
    status, said, stderr = _build(project)
    assert status == 0, stderr
    rng = random.Random(17)
    # Every kind of edit once, in a shuffled order, then random ones; a file broken
    # is fixed by the next edit.
    order = rng.sample(EDITS, len(EDITS)) + [rng.choice(EDITS) for _ in range(10)]
    at = rng.randrange(len(order))
    order[at:at] = [break_fix, break_fix]
    spliced = []
    for number, edit in enumerate(order):
        # Spliced unless it said otherwise, or this or the last build failed (a build
        # that fails writes nothing: the next one starts from the last it wrote).
        must = edit(project, rng) and status == 0
        status, said, stderr = _build(project, "-v")
        must = must and status == 0 and "is up to date" not in stderr  # a change
        cold = tmp_path / f"cold-{number}"
        shutil.copytree(
            project, cold, ignore=shutil.ignore_patterns(".skillc-cache", "out")
        )
        cold_status, cold_said, cold_stderr = _build(cold, "--no-cache", "-v")
        assert (status, said) == (cold_status, cold_said), (
            edit.__name__,
            stderr,
            cold_stderr,
        )
        if status == 0:
            assert _tree(project / "out") == _tree(cold / "out"), edit.__name__
        if SPLICED in stderr:
            spliced.append(edit.__name__)
        elif must:
            raise AssertionError(f"{edit.__name__} was not spliced: {stderr}")
        shutil.rmtree(cold)
    assert len(spliced) >= 8, spliced
