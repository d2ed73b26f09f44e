"""Unit tests: tool lists, the sanitiser, metadata.yaml, plugins, substitution."""

from __future__ import annotations

import importlib
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import REPO, imported_build, run_skillc, write_skill
from skillc.loaders.fields import split_tool_list
from skillc.names import PARAMETER_RESERVED, identifier
from skillc.resolve import estimate_tokens, summarize


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Read Grep Glob", ("Read", "Grep", "Glob")),
        ("Read, Grep, Glob", ("Read", "Grep", "Glob")),
        ("Bash(git add:*) Read", ("Bash(git add:*)", "Read")),
        ("Agent(a, b), Read", ("Agent(a, b)", "Read")),
        ("Agent(a, b) Read", ("Agent(a, b)", "Read")),
        ("  ", ()),
    ],
)
def test_tool_list_forms(text: str, expected: tuple[str, ...]) -> None:
    assert split_tool_list(text) == expected


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("code-reviewer", "code_reviewer"),
        ("from", "from_"),
        ("match", "match_"),
        ("Content-Type", "content_type"),
        ("PM2.5", "pm2_5"),
        ("maxTurns", "max_turns"),
        ("2fa-helper", "_2fa_helper"),
        ("help", "help"),  # the resolver reports a tool named help; not the sanitiser
        ("list", "list"),  # seed 000: s3.file.list, crm.contact.get(id=...)
        ("id", "id"),
        ("type", "type"),
        ("case", "case_"),
        ("_", "unnamed"),
        ("café", "cafe"),
        ("技能", "u6280_u80fd"),
        ("---", "unnamed"),
    ],
)
def test_identifier(name: str, expected: str) -> None:
    assert identifier(name) == expected
    assert identifier(name).isidentifier()


@given(st.from_regex(r"[a-z][a-z0-9]{0,5}([-_][a-z0-9]{1,5}){0,4}", fullmatch=True))
def test_kebab_fast_path_agrees_with_the_full_rules(name: str) -> None:
    from skillc.names import _normalise

    assert name.replace("-", "_") == _normalise(name)


def test_only_keywords_and_soft_keywords_change() -> None:
    for name in ("id", "list", "type", "filter", "input", "dir", "help", "dispatch"):
        assert identifier(name, PARAMETER_RESERVED) == name
    for name in ("from", "class", "match", "case", "lambda"):
        assert identifier(name, PARAMETER_RESERVED) == name + "_"


@pytest.mark.parametrize(
    ("skill", "script", "expected"),
    [
        ("PDF-Extractor", "extract", "pdf-extractor"),
        ("csv_parser", "Parse-Rows", "csv-parser"),
        ("Zoho Desk Automation", "x", "zoho-desk-automation"),
        ("-leading--double-", "x", "leading-double"),
        ("12306-mcp", "x", "12306-mcp"),
    ],
)
def test_seed_001_normalisation(skill: str, script: str, expected: str) -> None:
    from skillc.names import script_name, skill_name

    assert skill_name(skill) == expected
    assert script_name("bundle-artifact") == "bundle_artifact"
    assert script_name("Parse-Rows") == "parse_rows"


def test_summary_is_short_and_cut_at_a_sentence() -> None:
    first = (
        "A first sentence that is long enough to stand alone as a summary of the tool. "
    )
    assert summarize(first * 5) == (first * 4).strip()  # 312 characters, 78 tokens
    assert summarize("a " * 200).endswith("…")
    assert estimate_tokens(summarize("x" * 1000 + " y")) <= 80
    assert estimate_tokens(summarize("技能" * 500)) <= 80  # one token per CJK character
    assert summarize("Short.") == "Short."


def test_metadata_yaml_is_merged_and_skill_md_wins(
    skills_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_skill(
        skills_project / "skills",
        "s",
        "---\nname: s\ndescription: From SKILL.md.\n---\nBody.\n",
    )
    (skills_project / "skills" / "s" / "metadata.yaml").write_text(
        "description: From metadata.yaml.\nversion: 2.0.0\ntags: [a, b]\ncapabilities:\n  - review\n"
    )
    ir = skills_project / "ir.json"
    code, err = run_skillc(
        capsys, "-C", str(skills_project), "build", "--dump-ir", str(ir)
    )
    assert code == 0
    assert "skills/s/metadata.yaml:1:14: warning[metadata-conflict]" in err
    assert "flow-style" not in err  # seed 000 writes tags: [a, b] in metadata.yaml
    import json

    definition = json.loads(ir.read_text())["tools"][0]["definition"]
    assert definition["description"] == "From SKILL.md."
    assert definition["version"] == "2.0.0"
    assert definition["tags"] == ["a", "b"]
    assert definition["extra"]["capabilities"] == ["review"]
    sources = [s["path"] for s in json.loads(ir.read_text())["sources"]]
    assert sources == ["skills/s/SKILL.md", "skills/s/metadata.yaml"]


def test_two_plugins_may_both_ship_a_code_reviewer(
    skills_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for plugin in ("alpha", "beta"):
        root = skills_project / "skills" / plugin
        (root / ".claude-plugin").mkdir(parents=True)
        (root / ".claude-plugin" / "plugin.json").write_text(f'{{"name": "{plugin}"}}')
        write_skill(
            root / "skills",
            "code-reviewer",
            "---\nname: code-reviewer\ndescription: Reviews.\n---\n",
        )
    code, err = run_skillc(capsys, "-C", str(skills_project), "build")
    assert code == 0, err
    out = skills_project / "generated" / "task"
    assert (out / "alpha" / "_code_reviewer.py").is_file()
    assert (out / "beta" / "_code_reviewer.py").is_file()


def test_allowed_tools_list_and_argument_hint_list(
    skills_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_skill(
        skills_project / "skills",
        "s",
        (
            "---\nname: s\ndescription: d\nallowed-tools:\n  - Read\n  - Bash(git:*)\n"
            "argument-hint: [issue-number]\n---\n"
        ),
    )
    code, err = run_skillc(capsys, "-C", str(skills_project), "build")
    assert code == 0
    assert (
        "skills/s/SKILL.md:7:16: warning[invalid-field]: argument-hint was read as a YAML list"
        in err
    )
    module = (skills_project / "generated" / "task" / "_s.py").read_text()
    assert '"Bash(git:*)",' in module
    assert "(hint: [issue-number])" in module


@pytest.fixture(scope="module")
def tasks(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """The runtime's _tasks module, in a package built from the templates."""
    folder = tmp_path_factory.mktemp("units")
    with imported_build("project", folder, "out", {}):
        yield importlib.import_module("out._tasks")


@pytest.mark.parametrize(
    ("body", "values", "raw", "expected"),
    [
        ("Fix $ARGUMENTS now", ["1", "2"], "1 2", "Fix 1 2 now"),
        # Only $ARGUMENTS counts as using the arguments (skills-format.md §4.2).
        ("$0 then $1 then $2", ["a", "b"], None, "a then b then $2\n\nARGUMENTS: a b"),
        ("$ARGUMENTS[1]", ["a", "b"], None, "b"),
        ("cost \\$1 and $1", ["a", "b"], None, "cost $1 and b\n\nARGUMENTS: a b"),
        ("awk '{print $1}'", [], "", "awk '{print $1}'"),
        ("No placeholder", ["x"], "x", "No placeholder\n\nARGUMENTS: x"),
        (
            "Issue $issue on $branch",
            ["12", "main"],
            None,
            "Issue 12 on main\n\nARGUMENTS: 12 main",
        ),
        ("$HOME stays", [], "", "$HOME stays"),
    ],
)
def test_substitution(
    tasks: Any, body: str, values: list[str], raw: str | None, expected: str
) -> None:
    assert (
        tasks.substitute(body, values, raw, ["issue", "branch"], "/skill") == expected
    )


def test_skill_dir_variable(tasks: Any) -> None:
    assert tasks.substitute("${CLAUDE_SKILL_DIR}/x", [], "", [], "/s") == "/s/x"


def test_readme_lists_every_diagnostic_code() -> None:
    from conftest import REPO
    from skillc.diagnostics import CODES

    readme = (REPO / "README.md").read_text(encoding="utf-8")
    for code, meaning in CODES.items():
        assert f"| `{code}` | {meaning} |" in readme


def test_provider_names_come_from_original_names() -> None:
    from skillc.names import provider_name

    assert provider_name("s3.file.list") == "s3__file__list"  # not list_
    assert provider_name("task.code-reviewer") == "task__code-reviewer"
    assert provider_name("ns.Get weather") == "ns__Get_weather"
    assert provider_name("task.技能") == "task__u6280u80fd"
    assert provider_name("task.技术") != provider_name("task.技能")


def test_the_executors_settings_are_what_the_runtime_reads() -> None:
    """Each executor's fields are defined once (generator/ir.py); the keys the runtime
    reads from a tool's executor literal (templates/runtime/_executors.py, and
    _executor_http.py for the http executor) are those."""
    import re

    from skillc.ir import CliExecutor, HttpExecutor, PythonExecutor, ScriptExecutor

    source = "".join(
        (REPO / "templates" / "runtime" / name).read_text(encoding="utf-8")
        for name in ("_executors.py", "_executor_http.py")
    )
    read = set(re.findall(r'(?:executor|settings)(?:\.get\(|\[)"([a-z_]+)"', source))
    every = (
        PythonExecutor("tools.x:run"),
        ScriptExecutor("scripts/x.py", ("{args}",), "skills/x", True, ("TOKEN",)),
        CliExecutor(("gh", "issue"), ("repo",), ("GH_TOKEN",)),
        HttpExecutor("POST", "https://example.com", {"A": "b"}, True, {"q": "{q}"}),
    )
    written = {key for e in every for key in ("type", *e.settings)}
    assert read == written


def _names(seed: int) -> Iterator[str]:
    alphabet = "abz09-_ .A\u00c9\u2160\ufb01\t-"
    rng = random.Random(seed)
    for _ in range(3000):
        yield "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 8)))


def test_a_name_is_its_own_skill_name_only_when_normalising_keeps_it() -> None:
    from skillc.loaders import skill
    from skillc.names import skill_name

    names = [*_names(17), "skill-1", "a--b", "-a", "a-", "A", "\u2160"]
    for name in names:
        assert skill._normalised(name) == skill_name(name), name


def test_a_tool_list_splits_alike_with_and_without_parentheses() -> None:
    """The whole-list split agrees with the one that looks at each character: the
    same list with a last item ``()`` appended goes through the latter."""
    from skillc.loaders.fields import split_tool_list

    rng = random.Random(5)
    alphabet = "ab ,\t\u3000\u00a0\x1c)\n"
    for _ in range(5000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 12)))
        longer = text + ("," if "," in text else " ") + "()"
        assert split_tool_list(longer)[:-1] == split_tool_list(text), repr(text)
