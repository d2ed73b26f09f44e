"""Bad input: a clear ``path:line:col: severity[code]`` diagnostic, never a traceback, and
(on errors) a non-zero exit with nothing written."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
import yaml

from conftest import run_skillc, tree, write_skill

OK = "---\nname: {name}\ndescription: Does a thing.\n---\nBody.\n"

# (case id, {relative path: content}, expected diagnostic prefix, exit status)
CASES: list[tuple[str, dict[str, str | bytes], str, int]] = [
    (
        "broken-yaml",
        {"s/SKILL.md": "---\nname: s\ndescription: [unclosed\n---\n"},
        "skills/s/SKILL.md:4:1: error[yaml-syntax]",
        1,
    ),
    (
        "unquoted-colon",
        {
            "s/SKILL.md": "---\nname: s\ndescription: Use this when: the user asks\n---\n"
        },
        "skills/s/SKILL.md:3:27: error[yaml-syntax]: invalid YAML: mapping values are not allowed",
        1,
    ),
    (
        "no-frontmatter",
        {"s/SKILL.md": "# Just a heading\n"},
        "skills/s/SKILL.md:1:1: error[no-frontmatter]",
        1,
    ),
    (
        "unclosed-frontmatter",
        {"s/SKILL.md": "---\nname: s\ndescription: x\n"},
        "skills/s/SKILL.md:1:1: error[frontmatter-unclosed]",
        1,
    ),
    (
        "not-a-mapping",
        {"s/SKILL.md": "---\n- a\n- b\n---\n"},
        "skills/s/SKILL.md:2:1: error[frontmatter-not-mapping]",
        1,
    ),
    (
        "missing-name",
        {"s/SKILL.md": "---\ndescription: x\n---\n"},
        "skills/s/SKILL.md:1:1: warning[missing-name]: name is missing or empty; the folder name 's' is used",
        0,
    ),
    (
        "empty-name",
        {"s/SKILL.md": "---\nname: ''\ndescription: x\n---\n"},
        "skills/s/SKILL.md:2:7: warning[missing-name]",
        0,
    ),
    (
        "empty-frontmatter",
        {"s/SKILL.md": "---\n---\nBody.\n"},
        "skills/s/SKILL.md:1:1: warning[missing-description]: description is missing or empty; Claude Code, and Level 1, use 'Body.'",
        0,
    ),
    (
        "missing-description",
        {"s/SKILL.md": "---\nname: s\n---\n"},
        "skills/s/SKILL.md:1:1: warning[missing-description]",
        0,
    ),
    (
        "empty-description",
        {"s/SKILL.md": "---\nname: s\ndescription:\n---\n"},
        "skills/s/SKILL.md:3:13: warning[missing-description]",
        0,
    ),
    (
        "invalid-name",
        {"Bad/SKILL.md": "---\nname: Bad--Name\ndescription: x\n---\n"},
        "skills/Bad/SKILL.md:2:7: warning[invalid-name]: name 'Bad--Name' is read as 'bad-name'",
        0,
    ),
    (
        "name-too-long",
        {"s/SKILL.md": f"---\nname: {'a' * 65}\ndescription: x\n---\n"},
        "skills/s/SKILL.md:2:7: warning[invalid-name]: name is 65 characters; the spec allows 64",
        0,
    ),
    (
        "name-not-folder",
        {"folder/SKILL.md": OK.format(name="other")},
        "skills/folder/SKILL.md:2:7: warning[name-folder-mismatch]",
        0,
    ),
    (
        "description-too-long",
        {"s/SKILL.md": f"---\nname: s\ndescription: {'d' * 1100}\n---\n"},
        "skills/s/SKILL.md:3:14: warning[description-too-long]",
        0,
    ),
    (
        "version-key",
        {"s/SKILL.md": "---\nname: s\ndescription: x\nversion: 1.0\n---\n"},
        "skills/s/SKILL.md:4:1: warning[non-spec-key]",
        0,
    ),
    (
        "flow-style",
        {
            "s/SKILL.md": "---\nname: s\ndescription: x\nallowed-tools: [Read, Bash]\n---\n"
        },
        "skills/s/SKILL.md:4:16: warning[flow-style]",
        0,
    ),
    (
        "unknown-key",
        {"s/SKILL.md": "---\nname: s\ndescription: x\nfavourite-colour: red\n---\n"},
        "skills/s/SKILL.md:4:1: warning[unknown-key]",
        0,
    ),
    (
        "duplicate-key",
        {"s/SKILL.md": "---\nname: s\ndescription: x\ndescription: y\n---\n"},
        "skills/s/SKILL.md:4:1: error[yaml-duplicate-key]",
        1,
    ),
    (
        "compatibility-too-long",
        {
            "s/SKILL.md": f"---\nname: s\ndescription: x\ncompatibility: {'c' * 501}\n---\n"
        },
        "skills/s/SKILL.md:4:16: error[invalid-field]",
        1,
    ),
    (
        "metadata-not-map",
        {"s/SKILL.md": "---\nname: s\ndescription: x\nmetadata: just text\n---\n"},
        "skills/s/SKILL.md:4:11: error[invalid-field]",
        1,
    ),
    (
        "non-utf8",
        {"s/SKILL.md": b"---\nname: s\ndescription: caf\xe9\n---\n"},
        "skills/s/SKILL.md:3:17: error[file-not-utf8]",
        1,
    ),
    ("empty-file", {"s/SKILL.md": ""}, "skills/s/SKILL.md:1:1: error[file-empty]", 1),
    (
        "duplicate-names",
        {"a/s/SKILL.md": OK.format(name="s"), "b/s/SKILL.md": OK.format(name="s")},
        "skills/b/s/SKILL.md:1:1: error[duplicate-name]: skill 's' is also defined in skills/a/s/SKILL.md",
        1,
    ),
    (
        "identifier-collision",
        {
            "a-b/SKILL.md": OK.format(name="a-b"),
            "agents/a_b.md": "---\nname: a.b\ndescription: An agent.\n---\nPrompt.\n",
        },
        "skills/agents/a_b.md:1:1: warning[identifier-collision]: 'a.b' and 'a-b' (skills/a-b/SKILL.md:1:1) both become task.a_b; this one is task.a_b_2",
        0,
    ),
    (
        "agent-missing-description",
        {"agents/x.md": "---\nname: x\n---\nPrompt.\n"},
        "skills/agents/x.md:1:1: error[missing-description]",
        1,
    ),
    (
        "agent-colon-name",
        {"agents/x.md": "---\nname: a:b\ndescription: d\n---\n"},
        "skills/agents/x.md:2:7: error[invalid-name]",
        1,
    ),
    (
        "agent-name-with-space",
        {"agents/x.md": "---\nname: my agent\ndescription: d\n---\n"},
        "skills/agents/x.md:2:7: warning[invalid-name]: subagent name 'my agent' is read as 'my-agent'",
        0,
    ),
    (
        "agent-without-frontmatter",
        {"agents/README.md": "# Our agents\n"},
        "skills/agents/README.md:1:1: warning[not-a-subagent]",
        0,
    ),
    (
        "bad-plugin-json",
        {
            "p/.claude-plugin/plugin.json": '{"name": \n',
            "p/skills/s/SKILL.md": OK.format(name="s"),
        },
        "skills/p/.claude-plugin/plugin.json:2:1: error[json-syntax]",
        1,
    ),
]


def populate(root: Path, files: dict[str, str | bytes]) -> None:
    for rel, content in files.items():
        path = root / "skills" / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")


@pytest.mark.parametrize(
    ("files", "expected", "status"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_diagnostic(
    skills_project: Path,
    capsys: pytest.CaptureFixture[str],
    files: dict[str, str | bytes],
    expected: str,
    status: int,
) -> None:
    populate(skills_project, files)
    code, err = run_skillc(capsys, "-C", str(skills_project), "build")
    assert "Traceback" not in err
    assert any(line.startswith(expected) for line in err.splitlines()), err
    assert code == status, err
    assert (skills_project / "generated").exists() == (status == 0)


@pytest.mark.parametrize(
    "case",
    [
        "name-not-folder",
        "description-too-long",
        "version-key",
        "flow-style",
        "missing-name",
        "missing-description",
        "invalid-name",
        "name-too-long",
        "agent-name-with-space",
    ],
)
def test_claude_code_deviations_are_errors_under_strict(
    skills_project: Path, capsys: pytest.CaptureFixture[str], case: str
) -> None:
    files, expected = next((c[1], c[2]) for c in CASES if c[0] == case)
    populate(skills_project, files)
    code, err = run_skillc(capsys, "-C", str(skills_project), "build", "--strict")
    assert code == 1
    assert expected.replace("warning[", "error[") in err
    assert "(error under --strict)" in err


def test_huge_skill_file_is_rejected_quickly(
    skills_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_skill(
        skills_project / "skills", "s", OK.format(name="s") + "x" * (10 * 1024 * 1024)
    )
    code, err = run_skillc(capsys, "-C", str(skills_project), "build")
    assert code == 1
    assert "skills/s/SKILL.md:1:1: error[file-too-large]: the file is 10,485," in err


def test_yaml_alias_bomb_is_rejected_quickly(
    skills_project: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    levels = ["a: &a [x, x, x, x, x, x, x, x, x, x]"]
    for i in range(1, 10):
        prev = chr(ord("a") + i - 1)
        levels.append(
            f"{chr(ord('a') + i)}: &{chr(ord('a') + i)} ["
            + ", ".join([f"*{prev}"] * 10)
            + "]"
        )
    text = "---\nname: s\ndescription: x\n" + "\n".join(levels) + "\n---\n"
    write_skill(skills_project / "skills", "s", text)
    # The work done, not the time taken: the bomb (10**10 nodes) is never built.
    built = 0
    construct = yaml.constructor.BaseConstructor.construct_object

    def counted(self: Any, node: Any, deep: bool = False) -> Any:
        nonlocal built
        built += 1
        if built > 10_000:
            raise RuntimeError("the alias bomb is being built")
        return construct(self, node, deep)

    monkeypatch.setattr(yaml.constructor.BaseConstructor, "construct_object", counted)
    code, err = run_skillc(capsys, "-C", str(skills_project), "build")
    assert code == 1
    assert "skills/s/SKILL.md:2:1: error[yaml-alias-bomb]" in err
    assert built < 100


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="needs symbolic links")
def test_symlink_loop_is_reported_not_followed(
    skills_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_skill(skills_project / "skills", "s", OK.format(name="s"))
    (skills_project / "skills" / "s" / "loop").symlink_to(
        skills_project / "skills", target_is_directory=True
    )
    code, err = run_skillc(capsys, "-C", str(skills_project), "build")
    assert code == 0, err
    assert "skills/s/loop:1:1: warning[symlink-loop]" in err


def test_error_leaves_previous_output_intact(
    skills_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_skill(skills_project / "skills", "s", OK.format(name="s"))
    assert run_skillc(capsys, "-C", str(skills_project), "build")[0] == 0
    before = tree(skills_project / "generated")
    write_skill(skills_project / "skills", "t", "---\nname: t\nmetadata: 1\n---\n")
    write_skill(
        skills_project / "skills",
        "s",
        OK.format(name="s").replace("a thing", "another"),
    )
    code, err = run_skillc(capsys, "-C", str(skills_project), "build")
    assert code == 1
    assert "nothing written to generated/" in err
    assert tree(skills_project / "generated") == before


def test_keep_going_writes_valid_tools_and_reports_invalid(
    skills_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_skill(skills_project / "skills", "good", OK.format(name="good"))
    write_skill(skills_project / "skills", "bad", "---\nname: bad\nmetadata: 1\n---\n")
    code, _ = run_skillc(capsys, "-C", str(skills_project), "build", "--keep-going")
    assert code == 1
    report = (skills_project / "generated" / "report.json").read_text()
    assert '"path": "skills/bad/SKILL.md"' in report and '"invalid-field"' in report
    assert (skills_project / "generated" / "task" / "_good.py").is_file()
    assert not (skills_project / "generated" / "task" / "_bad.py").exists()


def test_github_error_format(
    skills_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_skill(skills_project / "skills", "s", "---\nname: s\n---\n")
    code, err = run_skillc(
        capsys,
        "-C",
        str(skills_project),
        "validate",
        "--strict",
        "--error-format",
        "github",
    )
    assert code == 1
    assert (
        "::error file=skills/s/SKILL.md,line=1,col=1,title=missing-description::description is missing or empty"
        in err
    )


def test_unquoted_colon_gets_a_quoting_hint(
    skills_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_skill(
        skills_project / "skills",
        "s",
        "---\nname: s\ndescription: Use when: asked\n---\n",
    )
    _, err = run_skillc(capsys, "-C", str(skills_project), "validate")
    assert "a value that contains ': ' must be quoted" in err


@pytest.mark.parametrize(
    ("skill", "metadata", "expected"),
    [
        (
            "---\nname: s\ndescription: d\nmodel: [a, b]\n---\n",
            None,
            "skills/s/SKILL.md:4:8: error[invalid-field]",
        ),
        (
            "---\nname: s\ndescription: d\n---\n",
            "version: [unclosed\n",
            "skills/s/metadata.yaml:2:1: error[yaml-syntax]",
        ),
    ],
    ids=["late-field", "broken-metadata-yaml"],
)
def test_any_error_keeps_the_skill_out_even_with_keep_going(
    skills_project: Path,
    capsys: pytest.CaptureFixture[str],
    skill: str,
    metadata: str | None,
    expected: str,
) -> None:
    write_skill(skills_project / "skills", "s", skill)
    write_skill(skills_project / "skills", "ok", OK.format(name="ok"))
    if metadata is not None:
        (skills_project / "skills" / "s" / "metadata.yaml").write_text(metadata)
    code, err = run_skillc(capsys, "-C", str(skills_project), "build", "--keep-going")
    assert code == 1
    assert expected in err
    assert not (skills_project / "generated" / "task" / "_s.py").exists()
    assert (skills_project / "generated" / "task" / "_ok.py").exists()
