"""What Claude Code loads compiles, at worst with a warning (issue 31): the patterns of
public repositories (anthropics/claude-plugins-official, ComposioHQ/awesome-claude-skills,
public MCP tool catalogues), each in a small project of our own words."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import run_python, run_skillc

MARKETPLACE = {"name": "shop", "owner": {"name": "x"}, "plugins": []}


def write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def marketplace(root: Path, plugins: dict[str, dict[str, str]]) -> Path:
    """A marketplace root whose plugins hold ``files`` (paths below the plugin)."""
    listed = [{"name": name, "source": f"./plugins/{name}"} for name in plugins]
    write(
        root,
        {
            ".claude-plugin/marketplace.json": json.dumps(
                {**MARKETPLACE, "plugins": listed}
            )
        },
    )
    for name, files in plugins.items():
        folder = root / "plugins" / name
        write(
            folder, {".claude-plugin/plugin.json": json.dumps({"name": name}), **files}
        )
    return root


def names(project: Path) -> dict[str, str]:
    """Each built tool's dotted name and the file it came from."""
    report = json.loads((project / "generated" / "report.json").read_text())
    return {tool["name"]: tool["source"] for tool in report["tools"]}


def agent(name: str, description: str) -> str:
    return f"---\nname: {name}\ndescription: {description}\n---\nYou check things.\n"


def skill(description: str, name: str | None = None) -> str:
    named = f"name: {name}\n" if name else ""
    return f"---\n{named}description: {description}\n---\nDo the thing.\n"


def test_a_commands_unquoted_argument_hint_is_a_warning(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    marketplace(
        tmp_path,
        {
            "starter": {
                "commands/new-app.md": "---\ndescription: Start an app\n"
                "argument-hint: [app-name]\n---\nMake $ARGUMENTS.\n"
            }
        },
    )
    status, err = run_skillc(capsys, "-C", str(tmp_path), "build")
    assert status == 0, err
    assert (
        "plugins/starter/commands/new-app.md:3:16: warning[invalid-field]: "
        "argument-hint was read as a YAML list" in err
    )
    help_text = (tmp_path / "generated/task/starter/_new_app.py").read_text()
    assert "[app-name]" in help_text


def test_a_skill_and_a_subagent_of_one_name_are_two_tools(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    marketplace(
        tmp_path,
        {
            "guard": {
                "skills/guard/SKILL.md": skill("The guard menu.", name="guard"),
                "agents/guard.md": agent("guard", "The guard orchestrator."),
            }
        },
    )
    status, err = run_skillc(capsys, "-C", str(tmp_path), "build")
    assert status == 0, err
    assert names(tmp_path) == {
        "task.guard.guard": "plugins/guard/skills/guard/SKILL.md",
        "task.guard.guard_agent": "plugins/guard/agents/guard.md",
    }
    assert (
        "plugins/guard/agents/guard.md:1:1: warning[duplicate-name]: subagent 'guard' "
        "shares its name with the skill plugins/guard/skills/guard/SKILL.md; the "
        "subagent is task.guard.guard_agent" in err
    )
    mcp = json.loads((tmp_path / "generated/providers/mcp.json").read_text())
    assert {e["name"] for e in mcp} == {"task.guard.guard", "task.guard.guard-agent"}


def test_a_skill_and_a_subagent_in_two_source_roots_are_both_kept(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """.claude/skills and .claude/agents are two roots: the later one does not override
    a tool of the other kind (Claude Code loads both)."""
    write(
        tmp_path,
        {
            ".claude/skills/review/SKILL.md": skill("Review a change."),
            ".claude/agents/review.md": agent("review", "A reviewing subagent."),
        },
    )
    status, err = run_skillc(capsys, "-C", str(tmp_path), "build")
    assert status == 0, err
    assert set(names(tmp_path)) == {"task.review", "task.review_agent"}
    assert "override" not in err


def test_folders_that_normalise_alike_are_both_compiled(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write(
        tmp_path,
        {
            "skills/crate_store-automation/SKILL.md": skill("Old crate store tasks."),
            "skills/crate-store-automation/SKILL.md": skill("New crate store tasks."),
        },
    )
    status, err = run_skillc(capsys, "-C", str(tmp_path), "build")
    assert status == 0, err
    assert names(tmp_path) == {
        "task.crate_store_automation": "skills/crate-store-automation/SKILL.md",
        "task.crate_store_automation_2": "skills/crate_store-automation/SKILL.md",
    }
    assert (
        "skills/crate_store-automation/SKILL.md:1:1: warning[identifier-collision]: "
        "'crate_store-automation' and 'crate-store-automation' "
        "(skills/crate-store-automation/SKILL.md) both normalise to "
        "'crate-store-automation'; this one is task.crate_store_automation_2" in err
    )
    listed = run_python("", tmp_path, "-m", "generated", "list")
    assert "task.crate_store_automation_2: Old crate store tasks." in listed.stdout


def test_two_folders_written_alike_stay_a_duplicate_name_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write(
        tmp_path,
        {
            "skills/a/lint/SKILL.md": skill("One."),
            "skills/b/lint/SKILL.md": skill("Two."),
        },
    )
    status, err = run_skillc(capsys, "-C", str(tmp_path), "build")
    assert status == 1
    assert "error[duplicate-name]" in err


MANIFEST = """\
namespace: people
tools:
  - name: get_user_info
    description: Profile of a user, by the first server.
    parameters: {type: object, properties: {id: {type: string}}}
    executor: {type: http, url: "https://example.com/a"}
  - name: getUserInfo
    description: Profile of a user, by the second server.
    parameters: {type: object, properties: {login: {type: string}}}
    executor: {type: http, url: "https://example.com/b"}
  - name: getUserSubmissions
    description: Submissions of a user, camel case.
    executor: {type: http, url: "https://example.com/c"}
  - name: get-user-submissions
    description: Submissions of a user, kebab case.
    executor: {type: http, url: "https://example.com/d"}
"""


def test_tools_whose_names_differ_in_style_all_compile(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write(tmp_path, {"skills/people/tool-manifest.yaml": MANIFEST})
    status, err = run_skillc(capsys, "-C", str(tmp_path), "build")
    assert status == 0, err
    assert sorted(names(tmp_path)) == [
        "people.get_user_info",
        "people.get_user_info_2",
        "people.get_user_submissions",
        "people.get_user_submissions_2",
    ]
    assert (
        "warning[identifier-collision]: 'getUserInfo' and 'get_user_info' "
        "(skills/people/tool-manifest.yaml:3:11) both become people.get_user_info; "
        "this one is people.get_user_info_2" in err
    )
    # Providers keep the names as written: each reaches its own tool.
    check = run_python(
        "from generated._dispatch import find\n"
        "for name in ('people__getUserInfo', 'people__get_user_info',"
        " 'people__get-user-submissions', 'people__getUserSubmissions'):\n"
        "    tool = find('anthropic', name)\n"
        "    print(name, tool.spec.summary)\n",
        tmp_path,
    )
    assert check.stdout.splitlines() == [
        "people__getUserInfo Profile of a user, by the second server.",
        "people__get_user_info Profile of a user, by the first server.",
        "people__get-user-submissions Submissions of a user, kebab case.",
        "people__getUserSubmissions Submissions of a user, camel case.",
    ], check.stderr


def test_a_namespace_may_start_with_a_digit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """As a skill named ``12306-mcp`` is ``task._12306_mcp``."""
    write(
        tmp_path,
        {
            "skills/rail/tool-manifest.yaml": "namespace: 12306_mcp\ntools:\n"
            "  - name: query-tickets\n    description: Train tickets on a day.\n"
            '    executor: {type: http, url: "https://example.com/q"}\n',
            "skills/rail/app.tools.yaml": "namespace: 3d.print\ntools:\n"
            "  - name: 2d-preview\n    description: A flat preview.\n"
            '    executor: {type: http, url: "https://example.com/p"}\n',
        },
    )
    status, err = run_skillc(capsys, "-C", str(tmp_path), "build")
    assert status == 0, err
    assert sorted(names(tmp_path)) == [
        "_12306_mcp.query_tickets",
        "_3d.print._2d_preview",
    ]
    check = run_python(
        "import generated; print(generated._12306_mcp.query_tickets.spec.qualname)",
        tmp_path,
    )
    assert check.stdout.strip() == "_12306_mcp.query_tickets", check.stderr


@pytest.mark.parametrize(
    ("pattern", "python"),
    [
        (r"^[\w-\.]+@([\w-]+\.)+[\w-]{2,4}$", r"^[\w\-\.]+@([\w-]+\.)+[\w-]{2,4}$"),
        (r"[\d-z]", r"[\d\-z]"),
        (r"a[^]b", r"a[\s\S]b"),
        (r"a[]b", r"a(?!)b"),
        (r"\cJ", r"\x0a"),
        (r"\u{41}\u{1F600}", "\\u0041\U0001f600"),
        (r"(?<year>\d{4})-\k<year>", r"(\d{4})-(?:\1)"),
        (r"[[a]", r"[\[a]"),
        (r"^\p{Lu}+$", r"^\p{Lu}+$"),  # regex and re2 read it as ECMA-262 does
        (r"^[a-z-]+$", r"^[a-z-]+$"),
    ],
)
def test_ecma_patterns_are_rewritten_to_the_same_meaning(
    pattern: str, python: str
) -> None:
    from skillc.loaders.ecma_regex import translate

    assert translate(pattern) == python


ECMA_MANIFEST = r"""namespace: mail
tools:
  - name: send
    description: Send a message.
    parameters:
      $schema: http://json-schema.org/draft-07/schema#
      type: object
      properties:
        to: {type: string, pattern: '^[\w-\.]+@([\w-]+\.)+[\w-]{2,4}$'}
        code: {type: string, pattern: '^\p{Lu}{3}$'}
        retries: {type: integer, minimum: 0, exclusiveMaximum: true, maximum: 5}
        copy: {$ref: '#/definitions/address'}
      required: [to]
      definitions:
        address: {type: string}
    executor: {type: http, url: "http://127.0.0.1:9/send"}
"""


def test_ecma_patterns_and_older_drafts_compile_with_warnings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write(tmp_path, {"skills/mail/tool-manifest.yaml": ECMA_MANIFEST})
    status, err = run_skillc(capsys, "-C", str(tmp_path), "build")
    assert status == 0, err
    assert " error[" not in err
    assert "properties.to.pattern: pattern '^[\\\\w-\\\\.]+@" in err
    assert "is ECMA-262, JSON Schema's dialect; it is read as" in err
    assert "draft-07/schema# schema is read as 2020-12" in err
    check = run_python(
        "import generated\n"
        "send = generated.mail.send\n"
        "for to in ('a-b.c@x.io', 'no at sign'):\n"
        "    print(send.call_raw({'to': to, 'code': 'ABC'}).error.code)\n",
        tmp_path,
    )
    # The first is valid and fails only to connect; the second is refused unsent.
    assert check.stdout.split() == [
        "connection-error",
        "invalid-arguments",
    ], check.stderr


def test_a_pattern_no_dialect_reads_is_still_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write(
        tmp_path,
        {
            "skills/x/tool-manifest.yaml": "namespace: x\ntools:\n  - name: t\n"
            "    description: T.\n"
            "    parameters: {type: object, properties: {a: {type: string, pattern: '(a'}}}\n"
            '    executor: {type: http, url: "https://example.com"}\n'
        },
    )
    status, err = run_skillc(capsys, "-C", str(tmp_path), "build")
    assert status == 1
    assert "error[schema-invalid]: tools[0].parameters.properties.a.pattern" in err


def test_keep_going_set_once_writes_the_rest_and_names_the_bad_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A subagent without a description, which Claude Code does not register: an error
    for that file. A vendored marketplace its user cannot fix sets keep-going once; the
    exit status still says there were errors."""
    marketplace(
        tmp_path,
        {
            "review": {
                "agents/hunter.md": "---\nname: hunter\n---\nHunt.\n",
                "agents/fixer.md": agent("fixer", "Fixes what the hunter found."),
                "commands/check.md": "Check the diff.\n",
            }
        },
    )
    status, err = run_skillc(capsys, "-C", str(tmp_path), "build")
    assert status == 1 and not (tmp_path / "generated").exists()
    (tmp_path / "pyproject.toml").write_text("[tool.skillc]\nkeep-going = true\n")
    status, err = run_skillc(capsys, "-C", str(tmp_path), "build")
    assert status == 1
    assert "plugins/review/agents/hunter.md:1:1: error[missing-description]" in err
    assert set(names(tmp_path)) == {"task.review.fixer", "task.review.check"}
    report = json.loads((tmp_path / "generated/report.json").read_text())
    assert [item["path"] for item in report["invalid"]] == [
        "plugins/review/agents/hunter.md"
    ]
