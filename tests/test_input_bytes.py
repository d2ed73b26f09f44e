"""A build reads each input file once: the loaders read the very bytes that were hashed
for the memo and the lock (``digests.read_all``, ``loaders.hashed``), so what is
compiled is what the lock says, even when a file changes during the build."""

from __future__ import annotations

import collections
import json
from pathlib import Path

import pytest

from conftest import run_python, run_skillc, write_skill
from skillc import digests

# A cold build in a fresh process, with how often it opened each file of the project.
OPENED = """
import json, os, sys
opened = []
def audit(event, args):
    if event == "open" and isinstance(args[0], str):
        opened.append(os.path.relpath(args[0], sys.argv[1]))
sys.addaudithook(audit)
from skillc import cli
status = cli.main(["-C", sys.argv[1], "build"])
print(json.dumps({"status": status, "opened": opened}))
"""
SKILL = "---\nname: {name}\ndescription: {says}\n---\nBody.\n"


def _project(root: Path) -> Path:
    """A skill with metadata.yaml and scripts (with an extension, and a shebang one), a
    subagent and a command: every kind of input a loader reads."""
    skill = write_skill(root / "skills", "alpha", SKILL.format(name="alpha", says="A."))
    (skill.parent / "metadata.yaml").write_text("version: 1.0.0\n")
    scripts = skill.parent / "scripts"
    scripts.mkdir()
    (scripts / "count.py").write_text(
        '"""Count things."""\nimport sys\nprint(len(sys.argv))\n'
    )
    (scripts / "shout").write_text("#!/bin/sh\n# Shout.\necho hi\n")
    agents, commands = root / "skills" / "agents", root / "skills" / "commands"
    agents.mkdir()
    commands.mkdir()
    (agents / "helper.md").write_text(
        "---\nname: helper\ndescription: Helps.\n---\nYou help.\n"
    )
    (commands / "tidy.md").write_text("Tidy the code.\n")
    return root


def test_a_cold_build_opens_each_input_once(skills_project: Path) -> None:
    """Hashed, and loaded from those bytes: not opened again by its loader, nor read a
    third time to check that it did not change meanwhile."""
    project = _project(skills_project)
    done = run_python(OPENED, project, str(project))
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["status"] == 0, done.stderr
    counts = collections.Counter(p for p in result["opened"] if p.startswith("skills"))
    lock = json.loads((project / "generated" / "skillc.lock.json").read_text())
    inputs = {source["path"] for source in lock["sources"]}
    assert "skills/alpha/scripts/shout" in inputs
    assert "skills/agents/helper.md" in inputs and "skills/commands/tidy.md" in inputs
    assert {p: counts[p] for p in inputs} == {p: 1 for p in inputs}
    assert set(counts) == inputs
    tools = (project / "generated" / "providers" / "anthropic.json").read_text()
    assert "shout" in tools and "count" in tools and "helper" in tools


def test_an_edit_during_the_build_is_not_compiled_under_the_old_hash(
    skills_project: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A file edited just after it was hashed: the build compiles the bytes the lock
    and the memo name, and the next build compiles the edit (nothing cached under the
    old bytes holds the new text)."""
    skill = write_skill(
        skills_project / "skills",
        "alpha",
        SKILL.format(name="alpha", says="Old words."),
    )
    hashed = digests.read_all

    def read_then_edit(*arguments: object, **named: object) -> object:
        found = hashed(*arguments, **named)  # type: ignore[arg-type]
        skill.write_text(SKILL.format(name="alpha", says="New words."))
        return found

    monkeypatch.setattr(digests, "read_all", read_then_edit)
    assert run_skillc(capsys, "-C", str(skills_project), "build")[0] == 0
    out = skills_project / "generated"
    assert "Old words." in (out / "providers" / "anthropic.json").read_text()
    assert "New words." not in (out / "providers" / "anthropic.json").read_text()
    monkeypatch.undo()
    assert run_skillc(capsys, "-C", str(skills_project), "build")[0] == 0
    assert "New words." in (out / "providers" / "anthropic.json").read_text()
