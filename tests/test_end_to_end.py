"""Build the fixture project, then use the package as an application would: in a fresh
process, through Python and through ``python -m``."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import black
import pytest

from conftest import run_mypy, run_python


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from conftest import FIXTURE_PROJECT
    from skillc import cli

    target = tmp_path_factory.mktemp("e2e") / "project"
    shutil.copytree(FIXTURE_PROJECT, target)
    assert cli.main(["-C", str(target), "build"]) == 0
    # Importable as "tools", from the folder that holds it.
    (target / "out").rename(target / "tools")
    return target


def python(built: Path, code: str) -> str:
    result = run_python(code, built)
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_import_reads_no_source_files(built: Path) -> None:
    out = python(
        built,
        """
import builtins, io
opened = []
real_open = io.open
def spy(file, *a, **k):
    opened.append(str(file))
    return real_open(file, *a, **k)
builtins.open = io.open = spy
import tools
tools.list()
tools.task.greeter.prepare("x")
print([f for f in opened if f.endswith((".md", ".yaml", ".yml", ".json"))])
""",
    )
    assert out.strip() == "[]"


def test_import_loads_tool_modules_lazily(built: Path) -> None:
    out = python(
        built,
        """
import sys, tools
tools.list()
before = sorted(m for m in sys.modules if m.startswith(("tools.task._", "tools._tasks")))
tools.task.greeter
after = sorted(m for m in sys.modules if m.startswith(("tools.task._", "tools._tasks")))
print(before, after)
""",
    )
    assert out.strip() == "[] ['tools._tasks', 'tools.task._greeter']"


def test_help_levels(built: Path) -> None:
    out = python(
        built,
        """
import tools
print(tools.help())
print("---")
print(tools.task.help())
print("---")
print(tools.task.greeter.help())
print("---")
print(tools.task.review_kit.help())
""",
    )
    package, namespace, tool, plugin = out.split("---\n")
    assert "task: Skills and subagents" in package
    assert (
        "task.review_kit: Review helpers packaged as a Claude Code plugin." in package
    )
    assert (
        "  task.greeter: Greets someone by name. Use when a greeting is needed."
        in namespace
    )
    assert (
        "task.review_kit.code_reviewer" in namespace
    )  # a namespace lists what is below it
    assert tool.startswith("task.greeter: skill 'greeter'\n\nGreets someone by name.")
    for fact in (
        "person: str | None = None",
        "Model: haiku",
        "Version: 1.2.0",
        "Allowed tools: Read, Bash(echo:*)",
        "Source: skills/greeter/SKILL.md",
    ):
        assert fact in tool
    assert "task.review_kit.security_reviewer" in plugin


def test_skill_call_substitutes_arguments_as_claude_code_does(built: Path) -> None:
    out = python(
        built,
        """
import json, tools
inv = tools.task.greeter("Ada 'very warmly'")
print(json.dumps(inv.to_dict()))
named = tools.task.greeter.prepare(person="Bob", mood="calm")
print(named.instructions.splitlines()[0])
""",
    )
    first, second = out.strip().splitlines()
    data = json.loads(first)
    assert data["instructions"].splitlines()[0] == (
        "Say hello to Ada in a very warmly way. Everything: Ada 'very warmly'. "
        "First: Ada. Escaped: $1."
    )
    assert data["arguments"] == ["Ada", "very warmly"]
    assert data["allowed_tools"] == ["Read", "Bash(echo:*)"]
    assert data["model"] == "haiku"
    assert (
        second
        == "Say hello to Bob in a calm way. Everything: Bob calm. First: Bob. Escaped: $1."
    )


def test_arguments_appended_when_body_has_no_placeholder(built: Path) -> None:
    out = python(
        built, "import tools; print(tools.task.release_notes('v1.2').instructions)"
    )
    assert out.strip().endswith("ARGUMENTS: v1.2")


def test_bundled_files_are_relative_and_resolve(built: Path) -> None:
    out = python(
        built,
        """
import tools
inv = tools.task.review_kit.code_reviewer.prepare()
print(inv.skill_dir, inv.files, inv.path(inv.files[0]).is_file())
""",
    )
    assert (
        out.strip()
        == "plugins/review-kit/skills/code-reviewer ('scripts/check.py',) True"
    )


def test_subagent_call_and_task_runner(built: Path) -> None:
    out = python(
        built,
        """
import tools
inv = tools.task.doc_writer("document the parser")
print(inv.kind, inv.prompt, inv.allowed_tools)
tools.set_task_runner(lambda i: f"ran {i.tool} with {i.prompt!r}")
print(tools.task.doc_writer("again"))
print(type(tools.task.doc_writer.prepare("p")).__name__)
""",
    )
    assert out.strip().splitlines() == [
        "agent document the parser ('Read', 'Grep', 'Agent(explorer, planner)')",
        "ran task.doc_writer with 'again'",
        "Invocation",
    ]


def test_hostile_text_stays_inert(built: Path) -> None:
    out = python(
        built,
        "import tools; print(repr(tools.task.tricky_text.prepare().instructions))",
    )
    text = eval(out)  # the repr of a str
    assert "__import__('os').system('echo pwned')" in text
    assert '"""' in text and "\\\n" in text


def test_hostile_names_stay_inert_and_callable_by_name(built: Path) -> None:
    out = python(
        built,
        """
import tools
from tools._cli import find
agent = find('o\\'brien\"\"\"-x\\\\y')
print(agent.name, agent.spec.name == 'o\\'brien\"\"\"-x\\\\y')
print(agent.prepare("go").instructions)
print(tools.task.tricky_text.spec.help.splitlines()[2:4])
""",
    )
    lines = out.strip().splitlines()
    assert lines[0] == "task.o_brien_x_y True"
    assert (
        lines[1] == "Prompt with $ARGUMENTS left alone: subagents get no substitution."
    )
    assert "A second line after a newline." in lines[2]


def test_claude_md_is_minimal(built: Path) -> None:
    text = (built / "tools" / "CLAUDE.md").read_text()
    assert len(text.splitlines()) <= 15
    assert "python -m tools list" in text and "python -m tools help" in text


def test_python_m_list_help_call(built: Path) -> None:
    listing = run_python("", built, "-m", "tools", "list", "--json")
    assert listing.returncode == 0, listing.stderr
    entries = json.loads(listing.stdout)
    greeter = next(e for e in entries if e["name"] == "task.greeter")
    assert greeter["namespace"] == "task"
    assert (
        greeter["summary"] == "Greets someone by name. Use when a greeting is needed."
    )
    assert len(entries) == 9  # 8 skills and subagents, and a skill's script
    helped = run_python("", built, "-m", "tools", "help", "greeter")
    assert helped.stdout.startswith("task.greeter: skill 'greeter'")
    called = run_python(
        "", built, "-m", "tools", "call", "task.greeter", "Eve", "--mood", "shy"
    )
    assert called.stdout.startswith("Say hello to Eve in a shy way.")
    unknown = run_python("", built, "-m", "tools", "call", "task.nope")
    assert unknown.returncode == 2 and "no tool named 'task.nope'" in unknown.stderr


def test_output_is_black_stable(built: Path) -> None:
    mode = black.Mode(target_versions={black.TargetVersion.PY311})
    for path in sorted((built / "tools").rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        assert (
            black.format_str(source, mode=mode) == source
        ), f"black would change {path}"


def test_output_passes_mypy_strict(built: Path) -> None:
    result = run_mypy(built, "tools")
    assert result.returncode == 0, result.stdout + result.stderr


def test_typed_signatures_are_enforced_by_mypy(built: Path) -> None:
    (built / "use.py").write_text(
        "import tools\n"
        "tools.task.greeter(person='a', mood='b')\n"
        "tools.task.greeter(colour='red')\n"
        "tools.task.doc_writer()\n"
    )
    result = run_mypy(built, "use.py")
    assert 'Unexpected keyword argument "colour"' in result.stdout
    assert 'Missing positional argument "prompt"' in result.stdout
    assert "use.py:2" not in result.stdout
