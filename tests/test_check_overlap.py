"""skillc check's overlapping tools: pairs a model or find_tool cannot tell apart, on
pairs written for it and on the real MCP tools of ../shared/corpus."""

from __future__ import annotations

import json
from pathlib import Path

import numpy
import pytest

from conftest import built_functions, checked, run_skillc, write_skill
from skillc.checks import overlap, overlap_names


def flagged(*descriptions: str) -> list[list[str]]:
    names = [f"t{i}" for i in range(len(descriptions))]
    return [p["tools"] for p in overlap.pairs(names, list(descriptions), None)]


@pytest.mark.parametrize(
    ("a", "b", "overlaps"),
    [
        (
            "Add a sub-issue to a parent issue.",
            "Add a sub-issue to a parent issue.",
            True,
        ),
        (
            "Add a sub-issue to a parent issue.",
            "add a  sub-issue to a parent ISSUE.",
            True,
        ),
        (
            "Retrieves the current weather for a specified city.",
            "Retrieve the current weather for a specified city.",
            True,
        ),
        (
            "Calculates the sum of two numeric values.",
            "Calculate the sum of two numeric values.",
            True,
        ),
        # a word that tells them apart
        (
            "Get details of a specific code scanning alert.",
            "List code scanning alerts in a repository.",
            False,
        ),
        # the same words, in another order: another meaning
        (
            "Retrieve the drug name based on pharmacodynamics information.",
            "Retrieve pharmacodynamics information based on the drug name.",
            False,
        ),
        ("Read a file.", "Write a file.", False),
    ],
)
def test_pairs(a: str, b: str, overlaps: bool) -> None:
    # Unrelated tools beside them, so that the words' rarity means something.
    others = [
        "Send an email to a recipient.",
        "Resize an image to a width.",
        "Translate text into another language.",
        "Schedule a meeting in a calendar.",
    ]
    assert (["t0", "t1"] in flagged(a, b, *others)) is overlaps


def test_a_difference_the_names_state_keeps_a_pair_apart() -> None:
    """delete_policy and delete_policy_rule: the descriptions differ in the word the
    names differ in, so a model reading both sees it (docker-mcp-registry)."""
    a = "Delete a policy. The user will be asked for confirmation before it proceeds."
    b = "Delete a policy rule. The user will be asked for confirmation before it proceeds."
    others = ["Send an email.", "Resize an image.", "Translate text.", "Book a room."]
    names = [
        "okta.delete_policy",
        "okta.delete_policy_rule",
        "o.a",
        "o.b",
        "o.c",
        "o.d",
    ]
    assert overlap.pairs(names, [a, b, *others], None) == []
    names[:2] = ["okta.remove", "okta.drop"]
    assert [p["tools"] for p in overlap.pairs(names, [a, b, *others], None)] == [
        ["okta.remove", "okta.drop"]
    ]


def test_vectors_that_differ_keep_a_pair_apart() -> None:
    unit = numpy.array([[1.0, 0.0], [0.0, 1.0]], dtype=numpy.float32)
    same = "Calculate the sum of two numeric values, in full detail."
    near = "Calculates the sum of two numeric values, in full detail."
    assert overlap.pairs(["a", "b"], [same, near], unit) == []
    unit = numpy.array([[1.0, 0.0], [0.99, 0.141]], dtype=numpy.float32)
    [pair] = overlap.pairs(["a", "b"], [same, near], unit)
    assert pair["tools"] == ["a", "b"] and pair["cosine"] >= overlap.LIMITS[0]


def test_overlaps_are_warnings_under_strict_with_both_paths(
    skills_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for name in ("deploy-app", "ship-app", "greet"):
        text = "Greet a person." if name == "greet" else "Deploy the app to staging."
        write_skill(
            skills_project / "skills",
            name,
            f"---\nname: {name}\ndescription: {text}\n---\nGo.\n",
        )
    assert run_skillc(capsys, "-C", str(skills_project), "build")[0] == 0
    report = skills_project / "r.json"
    status, err = run_skillc(
        capsys, "-C", str(skills_project), "check", "--report", str(report)
    )
    assert status == 0 and "overlapping-tools" not in err
    [pair] = json.loads(report.read_text())["checks"]["overlap"]
    assert pair["tools"] == ["task.deploy_app", "task.ship_app"]
    assert pair["paths"] == ["skills/deploy-app/SKILL.md", "skills/ship-app/SKILL.md"]
    (skills_project / "pyproject.toml").write_text(
        '[tool.skillc]\nsources = ["skills"]\nstrict = true\n'
    )
    assert run_skillc(capsys, "-C", str(skills_project), "build")[0] == 0
    status, err = run_skillc(capsys, "-C", str(skills_project), "check")
    assert status == 0
    assert (
        "skills/deploy-app/SKILL.md:1:1: warning[overlapping-tools]: task.deploy_app and "
        "task.ship_app (skills/ship-app/SKILL.md): the same description" in err
    )


def test_github_mcp_server(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The 117 real tools of github-mcp-server: the near twins are found, the tools that
    differ in what they act on are not."""
    project = built_functions(tmp_path, capsys, "github-mcp-server")
    _, _, checks = checked(capsys, project, "--skip", "listing")
    found = {tuple(p["tools"]) for p in checks["overlap"]}
    prefix = "github_mcp_server_1."
    assert (prefix + "add_sub_issue", prefix + "sub_issue_write") in found
    assert (
        prefix + "get_code_scanning_alert",
        prefix + "list_code_scanning_alerts",
    ) not in found
    # "comment" tells the descriptions apart, and the names: not an overlap.
    assert (
        prefix + "add_issue_comment_reaction",
        prefix + "add_issue_reaction",
    ) not in found
    assert len(found) == 2


OTHERS = [
    "Send an email to a recipient.",
    "Resize an image to a width.",
    "Translate text into another language.",
    "Schedule a meeting in a calendar.",
]
OTHER_IDS = [
    overlap_names.Identity("skill", n) for n in ("mail", "resize", "tr", "cal")
]


def test_one_definition_in_three_plugins_is_one_duplicate() -> None:
    """Three copies of one agent (its name prefixed by each plugin's) are one finding,
    not three pairs; a fourth agent of another name with the same text stays a pair."""
    text = "Expert backend architect for scalable API design."
    ids = [
        overlap_names.Identity(
            "agent",
            overlap_names.unprefixed(f"{p}-backend-architect", p),
            p,
            "Design APIs." if p != "c" else "Design APIs well.",
        )
        for p in ("a", "b", "c")
    ] + [overlap_names.Identity("agent", "api-designer", "d", "Design APIs.")]
    names = ["a.arch", "b.arch", "c.arch", "d.api_designer", "o.m", "o.r", "o.t", "o.c"]
    found = overlap.pairs(names, [text] * 4 + OTHERS, None, ids + OTHER_IDS)
    assert found[0] == {
        "kind": "duplicate",
        "tools": ["a.arch", "b.arch", "c.arch"],
        "why": "one definition shipped in 3 plugins",
        "versions": 2,
    }
    assert [f["tools"] for f in found[1:]] == [
        ["a.arch", "d.api_designer"],
        ["b.arch", "d.api_designer"],
        ["c.arch", "d.api_designer"],
    ]


def test_a_name_spelt_two_ways_is_a_pair_however_worded() -> None:
    """ComposioHQ/awesome-claude-skills ships docker-hub-automation and
    docker_hub-automation, written apart: one app, whatever their words."""
    ids = [
        overlap_names.Identity("skill", "docker-hub-automation"),
        overlap_names.Identity("skill", "docker_hub-automation"),
    ]
    texts = [
        "Automate Docker Hub operations: organizations, teams and webhooks.",
        "Automate Docker Hub tasks: repositories, images and tags.",
    ]
    names = ["task.docker_hub_automation", "task.docker_hub_automation_2"]
    [pair] = overlap.pairs(names + list("wxyz"), texts + OTHERS, None, ids + OTHER_IDS)
    assert pair["tools"] == names
    assert pair["why"] == (
        "one name spelt two ways (docker-hub-automation, docker_hub-automation)"
    )
    assert overlap.pairs(names + list("wxyz"), texts + OTHERS, None) == []


def test_the_name_spelt_two_ways_in_a_build(
    skills_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for folder, text in (
        ("docker-hub-automation", "Manage Docker Hub organizations and webhooks."),
        ("docker_hub-automation", "Docker Hub tasks: images, tags and registries."),
    ):
        write_skill(
            skills_project / "skills",
            folder,
            f"---\nname: {folder}\ndescription: {text}\n---\nGo.\n",
        )
    assert run_skillc(capsys, "-C", str(skills_project), "build")[0] == 0
    _, _, checks = checked(capsys, skills_project, "--skip", "listing")
    [pair] = checks["overlap"]
    assert pair["paths"] == [
        "skills/docker-hub-automation/SKILL.md",
        "skills/docker_hub-automation/SKILL.md",
    ]
    assert pair["lines"] == [1, 1]


VERIFIER = (
    "Use this agent to check that a {} Agent SDK application is set up right, follows "
    "the SDK's best practices and its documentation, and is ready to deploy or test. "
    "Run it after a {} Agent SDK app has been created or changed."
)


def test_a_contrast_term_keeps_a_python_and_a_typescript_verifier_apart(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """claude-plugins-official's agent-sdk-verifier-py and -ts differ in the language
    alone: two jobs, not one."""
    names = ["x.agent_sdk_verifier_py", "x.agent_sdk_verifier_ts", *"abcd"]
    texts = [
        VERIFIER.format("Python", "Python"),
        VERIFIER.format("TypeScript", "TypeScript"),
    ]
    assert overlap.pairs(names, texts + OTHERS, None) == []
    # Without the contrast, the same texts overlap: the term is what keeps them apart.
    monkeypatch.setattr(overlap, "CONTRAST", 1.0)
    [pair] = overlap.pairs(names, texts + OTHERS, None)
    assert pair["contrast"] == ["python", "typescript"]


def test_contrast_terms_read_as_written() -> None:
    """TypeScript is one term (not "type" and "script"), JavaScript is not Java, and
    a side that names both members contrasts with neither."""
    terms = overlap_names.terms
    assert overlap_names.contrasts(terms("a JavaScript linter"), terms("a Java linter"))
    assert overlap_names.contrasts(terms("py tools"), terms("Python tools")) == []
    assert overlap_names.contrasts(terms("Python or Go"), terms("Python")) == []
    assert overlap_names.contrasts(terms("iOS app"), terms("Android app")) == [
        "android",
        "ios",
    ]


def test_a_strict_project_notes_a_duplicate_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """One agent copied into three plugins: one duplicate-definition note under
    --strict, at the first copy, naming the others; no overlapping-tools warning."""
    market = tmp_path / "mk"
    plugins = ["alpha", "beta", "gamma"]
    (market / ".claude-plugin").mkdir(parents=True)
    (market / ".claude-plugin" / "marketplace.json").write_text(
        json.dumps(
            {
                "name": "mk",
                "owner": {"name": "x"},
                "plugins": [{"name": p, "source": f"./plugins/{p}"} for p in plugins],
            }
        )
    )
    for p in plugins:
        (market / "plugins" / p / ".claude-plugin").mkdir(parents=True)
        (market / "plugins" / p / ".claude-plugin" / "plugin.json").write_text(
            json.dumps({"name": p})
        )
        (market / "plugins" / p / "agents").mkdir()
        (market / "plugins" / p / "agents" / "reviewer.md").write_text(
            f"---\nname: {p}-reviewer\ndescription: Reviews code for bugs.\n---\n"
            + ("Review." if p != "gamma" else "Review it all.")
            + "\n"
        )
    (tmp_path / "pyproject.toml").write_text(
        '[tool.skillc]\nsources = ["mk"]\nstrict = true\nbuiltins = []\n'
    )
    assert run_skillc(capsys, "-C", str(tmp_path), "build")[0] == 0
    status, err = run_skillc(
        capsys, "-C", str(tmp_path), "check", "--skip", "listing", "-v"
    )
    assert status == 0 and "overlapping-tools" not in err
    [note] = [line for line in err.splitlines() if "duplicate-definition" in line]
    assert note == (
        "mk/plugins/alpha/agents/reviewer.md:1:1: info[duplicate-definition]: "
        "task.alpha.alpha_reviewer: one definition shipped in 3 plugins "
        "(mk/plugins/beta/agents/reviewer.md, mk/plugins/gamma/agents/reviewer.md); "
        "its copies hold 2 versions of its instructions"
    )
