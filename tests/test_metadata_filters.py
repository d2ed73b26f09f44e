"""Seed 000's metadata (version, author, tags, capabilities, constraints, tools) in the
generated index, filtered at run time by ``list``, ``tools``, ``find_tool`` and ``python -m
<package> list|find``, in fresh processes; and version changes in the lock and --check.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from conftest import FIXTURE_PROJECT, run_mypy, run_python, run_skillc

# The fixture's tagged tools: greeter (metadata.yaml) and the review-kit plugin's skill.
GREETER = "task.greeter"
REVIEWER = "task.review_kit.code_reviewer"


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from skillc import cli

    target = tmp_path_factory.mktemp("filters") / "project"
    shutil.copytree(FIXTURE_PROJECT, target)
    assert cli.main(["-C", str(target), "build"]) == 0
    (target / "out").rename(target / "tools")  # importable as "tools"
    return target


def names(built: Path, expression: str) -> list[str]:
    """The names an expression over the imported package gives, in a fresh process."""
    code = f"import json, tools\nprint(json.dumps([e.name for e in {expression}]))"
    result = run_python(code, built)
    assert result.returncode == 0, result.stderr
    return list(json.loads(result.stdout))


def test_index_carries_the_metadata(built: Path) -> None:
    result = run_python(
        "import json\nfrom tools._index import METADATA\nprint(json.dumps(METADATA))",
        built,
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == {
        GREETER: {
            "version": "1.2.0",
            "author": "fixtures",
            "tags": ["greeting", "demo"],
            "capabilities": ["text-generation"],
        },
        REVIEWER: {
            "version": "2.0.0",
            "author": "Review Kit maintainers",
            "tags": ["review", "demo"],
            "capabilities": ["code-analysis", "security-analysis"],
            "constraints": ["read-only"],
            "tools": ["file.read", "grep"],
        },
    }


def test_list_and_tools_return_exactly_the_tagged_tools(built: Path) -> None:
    assert names(built, "tools.list(tag='demo')") == [GREETER, REVIEWER]
    assert names(built, "tools.task.list(tag='demo')") == [GREETER, REVIEWER]
    assert names(built, "tools.task.list(tag=['demo', 'review'])") == [REVIEWER]
    assert names(built, "tools.task.list(capability='text-generation')") == [GREETER]
    assert names(built, "tools.tools(capability='code-analysis')") == [REVIEWER]
    assert names(built, "tools.tools(tag='DEMO', namespace='task.review_kit')") == [
        REVIEWER
    ]
    assert names(built, "tools.tools(namespace='code_reviewer')") == [
        "code_reviewer.check"
    ]
    assert len(names(built, "tools.tools()")) == 9  # no filter: every tool


@pytest.mark.parametrize(
    "hostile", ["*", ".*", "demo*", "../../etc/passwd", "de", "", "demo\x00"]
)
def test_filter_values_are_only_compared_as_strings(built: Path, hostile: str) -> None:
    expression = f"tools.tools(tag={hostile!r}) + tools.list(capability={hostile!r})"
    assert names(built, expression) == []


def test_find_tool_filters_its_candidates(built: Path) -> None:
    everything = names(built, "tools.find_tool('review code', k=10)")
    assert "task.review_kit.security_reviewer" in everything  # untagged: found
    for method in ("lexical", "hybrid"):
        tagged = (
            f"tools.find_tool('review code', k=10, method={method!r}, tags=['demo'])"
        )
        assert names(built, tagged) == [REVIEWER]
        both = (
            f"tools.find_tool('greet someone', method={method!r}, tags=['demo'], "
            "capabilities=['text-generation'])"
        )
        assert names(built, both) == [GREETER]
        assert names(built, "tools.find_tool('review', tags=['nope'])") == []


def test_python_m_list_and_find_take_the_filters(built: Path) -> None:
    listed = run_python("", built, "-m", "tools", "list", "--tag", "demo", "--json")
    assert listed.returncode == 0, listed.stderr
    entries = json.loads(listed.stdout)
    assert [e["name"] for e in entries] == [GREETER, REVIEWER]
    # Each entry carries its metadata, so a host can show why it was listed.
    assert entries[0]["metadata"]["tags"] == ["greeting", "demo"]
    assert entries[1]["metadata"]["constraints"] == ["read-only"]
    both = run_python(
        "", built, "-m", "tools", "list", "--tag", "demo", "--tag", "review"
    )
    assert both.stdout.splitlines() == [
        f"{REVIEWER}: Reviews code in a plugin namespace."
    ]
    scoped = run_python(
        "", built, "-m", "tools", "list", "--namespace", "task.review_kit"
    )
    assert len(scoped.stdout.splitlines()) == 2
    found = run_python(
        "",
        built,
        "-m",
        "tools",
        "find",
        "review",
        "code",
        "--capability",
        "code-analysis",
        "-k",
        "10",
    )
    assert found.returncode == 0, found.stderr
    assert [line.split()[1] for line in found.stdout.splitlines()] == [REVIEWER]


def test_filters_are_typed(built: Path) -> None:
    (built / "use.py").write_text(
        "import tools\n"
        "a: list[tools.ToolEntry] = tools.tools(tag='x', capability=['y'], namespace='task')\n"
        "b = tools.task.list(tag=('x', 'y'))\n"
        "c = tools.find_tool('x', tags=['a'], capabilities=['b'])\n"
        "tools.tools(tag=1)\n"
    )
    result = run_mypy(built, "use.py")
    assert "use.py:5: error" in result.stdout, result.stdout
    assert not any(f"use.py:{n}:" in result.stdout for n in (2, 3, 4)), result.stdout


def test_version_change_shows_in_lock_and_check(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = tmp_path / "project"
    shutil.copytree(FIXTURE_PROJECT, project)
    status, err = run_skillc(capsys, "-C", str(project), "build")
    assert status == 0, err
    lock = json.loads((project / "out" / "skillc.lock.json").read_text())
    assert lock["versions"] == [
        {"tool": GREETER, "version": "1.2.0"},
        {"tool": REVIEWER, "version": "2.0.0"},
    ]
    metadata = project / "skills" / "greeter" / "metadata.yaml"
    metadata.write_text(metadata.read_text().replace("1.2.0", "1.3.0"))
    status, err = run_skillc(capsys, "-C", str(project), "build", "--check")
    assert status == 1
    assert f"{GREETER}: version 1.2.0 -> 1.3.0" in err.splitlines()
    assert REVIEWER not in err


def test_commands_and_subagents_carry_their_metadata(
    skills_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A command's and a subagent's frontmatter metadata reach the index too."""
    commands = skills_project / "skills" / "commands"
    commands.mkdir()
    (commands / "deploy.md").write_text(
        "---\nversion: 0.3.0\ntags:\n  - ops\n  - release\ncapabilities: deploy\n---\n"
        "Deploy $ARGUMENTS.\n"
    )
    agents = skills_project / "skills" / "agents"
    agents.mkdir()
    (agents / "auditor.md").write_text(
        "---\nname: auditor\ndescription: Audits.\ntags:\n  - ops\n---\nAudit.\n"
    )
    status, err = run_skillc(capsys, "-C", str(skills_project), "build")
    assert status == 0, err
    listed = run_python(
        "import json, generated\n"
        "print(json.dumps([[e.name for e in generated.list(tag='ops')],"
        " [e.name for e in generated.tools(capability='deploy')]]))",
        skills_project,
    )
    assert listed.returncode == 0, listed.stderr
    assert json.loads(listed.stdout) == [
        ["task.auditor", "task.deploy"],
        ["task.deploy"],
    ]
    lock = json.loads((skills_project / "generated" / "skillc.lock.json").read_text())
    assert lock["versions"] == [{"tool": "task.deploy", "version": "0.3.0"}]
