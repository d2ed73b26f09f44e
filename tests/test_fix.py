"""An unquoted ``: `` in a one-line description, read as the author meant it
(``loaders/recover.py``), and ``skillc fix``, which writes that reading back: the
shapes of anthropics/claude-plugins-official and VoltAgent/awesome-claude-code-subagents
(tests/data/cases/recover-*.case hold their builds), each fix's diff, exit status and
round trip, and the corpora of ../shared left as they are."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from conftest import run_skillc, shared_corpus, tree
from skillc.loaders import agent, recover, skill

VOLTAGENT = (
    "---\nname: grooming\n"
    "description: Use when the user needs to groom a backlog. Triggers on: "
    "'groom backlog', 'refine stories'.\ntools: Read, Write\n---\nYou groom.\n"
)
OFFICIAL = (
    "---\nname: hunter\ndescription: Use this agent when reviewing. Examples:\\n\\n"
    '<example>\\nContext: Daisy has a PR.\\nDaisy: "Please review PR #1234"\\n'
    "</example>\nmodel: inherit\ncolor: yellow\n---\nYou hunt.\n"
)


def test_one_line_description_is_quoted() -> None:
    fixed = recover.fixed(VOLTAGENT, agent.KNOWN_KEYS)
    assert fixed == VOLTAGENT.replace(
        "description: Use when the user needs to groom a backlog. Triggers on: "
        "'groom backlog', 'refine stories'.",
        'description: "Use when the user needs to groom a backlog. Triggers on: '
        "'groom backlog', 'refine stories'.\"",
    )


def test_text_with_quotes_and_backslashes_becomes_a_block_scalar() -> None:
    fixed = recover.fixed(OFFICIAL, agent.KNOWN_KEYS)
    assert fixed is not None
    line = OFFICIAL.split("\n")[2]
    assert fixed.split("\n")[2:4] == ["description: |-", "  " + line[13:]]
    # Everything but that line is as it was, and the text is read as written: the
    # backslashes, the quotes and "#1234" (a plain scalar's comment mark) kept.
    assert fixed.replace("description: |-\n  ", "description: ") == OFFICIAL


def test_continuation_lines_fold_up_to_the_next_key() -> None:
    text = (
        "---\nname: s\ndescription: Use when: asked\n  for a review: of a diff\n\n"
        "  or a file\n\nmodel: x\n---\nBody\n"
    )
    fixed = recover.fixed(text, skill.KNOWN_KEYS)
    assert fixed == (
        "---\nname: s\ndescription: |-\n  Use when: asked for a review: of a diff\n"
        "  or a file\n\nmodel: x\n---\nBody\n"
    )


@pytest.mark.parametrize(
    "description",
    [
        # A line at the margin that may be a key or the text: no reading is certain.
        "Use this agent when: asked. Examples:\nContext: the user asks",
        "Use this agent when: asked.\n<example>",
        # Quoted, a block scalar, or valid: nothing to fix.
        '"Use when: asked"',
        "|\n  Use when: asked",
        "Use when asked",
    ],
)
def test_nothing_is_fixed_without_a_certain_reading(description: str) -> None:
    text = f"---\nname: t\ndescription: {description}\nmodel: inherit\n---\nBody\n"
    assert recover.fixed(text, agent.KNOWN_KEYS) is None


def test_an_error_elsewhere_is_not_hidden() -> None:
    text = "---\nname: a: b\ndescription: Use when: asked\n---\n"
    assert recover.fixed(text, skill.KNOWN_KEYS) is None
    text = "---\ndescription: Use when: asked\nmodel: [x\n---\n"
    assert recover.fixed(text, skill.KNOWN_KEYS) is None


def test_crlf_and_byte_order_mark_are_kept() -> None:
    text = "\ufeff" + VOLTAGENT.replace("\n", "\r\n")
    fixed = recover.fixed(text, agent.KNOWN_KEYS)
    assert fixed is not None
    assert fixed.startswith("\ufeff---\r\n") and "\n" not in fixed.replace("\r\n", "")
    assert fixed.count("\r\n") == text.count("\r\n")
    assert 'description: "Use when' in fixed


def _plugin(root: Path) -> Path:
    """A project with the two public shapes in one plugin, and a clean skill."""
    (root / "p" / ".claude-plugin").mkdir(parents=True)
    (root / "p" / ".claude-plugin" / "plugin.json").write_text('{"name": "p"}')
    (root / "p" / "agents").mkdir()
    (root / "p" / "agents" / "grooming.md").write_text(VOLTAGENT)
    (root / "p" / "agents" / "hunter.md").write_text(OFFICIAL)
    (root / "p" / "skills" / "ok").mkdir(parents=True)
    (root / "p" / "skills" / "ok" / "SKILL.md").write_text(
        "---\nname: ok\ndescription: Fine.\n---\nBody\n"
    )
    (root / "pyproject.toml").write_text('[tool.skillc]\nsources = ["p"]\n')
    return root


def test_fix_shows_a_diff_and_writes_only_when_told(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = _plugin(tmp_path)
    before = tree(project)
    capsys.readouterr()
    status, err = run_skillc(capsys, "fix", "-C", str(project))
    assert status == 1, err  # fixes there, not written: as ruff's --diff
    assert tree(project) == before
    assert err == "skillc: 2 files to fix; skillc fix --write writes them\n"
    capsys.readouterr()
    from skillc import cli

    assert cli.main(["fix", "-C", str(project)]) == 1
    diff = capsys.readouterr().out
    assert diff.startswith("--- p/agents/grooming.md\n+++ p/agents/grooming.md\n")
    assert "-description: Use when the user" in diff
    assert '+description: "Use when the user' in diff
    assert "+description: |-\n" in diff and "--- p/agents/hunter.md\n" in diff
    assert "ok/SKILL.md" not in diff

    status, err = run_skillc(capsys, "fix", "--write", "-C", str(project))
    assert (status, err) == (0, "skillc: fixed 2 files\n")
    after = tree(project)
    assert {path for path in after if after[path] != before[path]} == {
        "p/agents/grooming.md",
        "p/agents/hunter.md",
    }
    assert run_skillc(capsys, "fix", "-C", str(project)) == (
        0,
        "skillc: nothing to fix\n",
    )
    # The fixed files build without a word, to the same descriptions as before.
    status, err = run_skillc(capsys, "build", "-C", str(project))
    assert status == 0 and "unquoted-colon" not in err, err


def test_build_reads_the_text_the_fix_writes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = _plugin(tmp_path)
    status, err = run_skillc(capsys, "build", "-C", str(project))
    assert status == 0, err
    assert err.count("warning[unquoted-colon]") == 2
    assert "p/agents/grooming.md:3:69: warning[unquoted-colon]" in err
    recovered = _descriptions(project)
    run_skillc(capsys, "fix", "--write", "-C", str(project))
    shutil.rmtree(project / "generated")
    assert run_skillc(capsys, "build", "-C", str(project))[0] == 0
    assert _descriptions(project) == recovered
    assert recovered["task.p.hunter"].endswith('PR #1234"\\n</example>')


def _descriptions(project: Path) -> dict[str, str]:
    tools = json.loads((project / "generated" / "providers" / "mcp.json").read_text())
    return {tool["name"]: tool["description"] for tool in tools}


def test_fix_never_writes_through_a_link(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = _plugin(tmp_path)
    outside = tmp_path / "outside.md"
    outside.write_text(VOLTAGENT)
    link = project / "p" / "agents" / "grooming.md"
    link.unlink()
    link.symlink_to(outside)
    status, err = run_skillc(capsys, "fix", "--write", "-C", str(project))
    assert (status, err) == (0, "skillc: fixed 1 file\n")
    assert outside.read_text() == VOLTAGENT and link.is_symlink()


@pytest.mark.parametrize(
    "corpus", [("skills", "anthropics-skills"), ("skills", "obra-superpowers")]
)
def test_fix_leaves_a_corpus_with_nothing_to_fix_unchanged(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], corpus: tuple[str, ...]
) -> None:
    project = tmp_path / "project"
    shutil.copytree(shared_corpus(*corpus), project / "src")
    (project / "pyproject.toml").write_text('[tool.skillc]\nsources = ["src"]\n')
    before = tree(project)
    for args in (("fix",), ("fix", "--write")):
        assert run_skillc(capsys, *args, "-C", str(project)) == (
            0,
            "skillc: nothing to fix\n",
        )
    assert tree(project) == before


def test_fix_leaves_the_marketplace_unchanged(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = tmp_path / "project"
    shutil.copytree(shared_corpus("plugins", "wshobson-agents"), project / "mk")
    (project / "pyproject.toml").write_text('[tool.skillc]\nsources = ["mk"]\n')
    before = tree(project)
    status, err = run_skillc(capsys, "fix", "--write", "-C", str(project))
    assert (status, err) == (0, "skillc: nothing to fix\n")
    assert tree(project) == before
