"""skillc check's listing budgets: one test per harness rule, each against the numbers
its documented source gives (generator/checks/harnesses.py names the sources), then the
command on fixtures and on the real marketplace of ../shared/corpus."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from conftest import built_marketplace, checked, configured, run_skillc, write_skill
from skillc.checks import harnesses, listing_installs, listings
from skillc.checks.harnesses import RULES
from skillc.checks.listings import CUT, FULL, NAME_ONLY, OMITTED, TRUNCATED
from skillc.config import ConfigError
from skillc.ir import Position


def entry(name: str, text: str, plugin: str | None = None) -> listings.Entry:
    return listings.Entry(
        f"task.{name}", name, text, f"skills/{name}/SKILL.md", Position("x"), "", plugin
    )


def statuses(shown: list[listings.Shown]) -> list[tuple[str, str, int]]:
    return [(s.entry.name, s.status, s.chars) for s in shown]


def test_every_rule_names_its_sources() -> None:
    for rule in RULES.values():
        assert rule.sources, rule.harness
        assert rule.overflow in ("rank", "share", "count")
        assert (rule.budget is None) == (rule.overflow == "count")


# -- claude-code ---------------------------------------------------------------------


def test_claude_code_budget_is_one_percent_of_the_context_at_four_chars_a_token() -> (
    None
):
    """budget_chars = floor(context tokens x 4 x 0.01): 8,000 at the default 200k
    (melodic-software/claude-code-plugins#1271, anthropics/claude-code#64606)."""
    rule = RULES["claude-code"]
    assert rule.default_context == 200_000
    assert rule.budget is not None
    assert rule.budget.limit(200_000) == (8000, "chars")
    assert rule.budget.limit(1_000_000) == (40_000, "chars")


def test_claude_code_cuts_description_and_when_to_use_at_1536() -> None:
    """description + when_to_use are cut at 1,536 characters (code.claude.com/docs/en/
    skills, "Skill descriptions are cut short"; skillListingMaxDescChars)."""
    rule = RULES["claude-code"]
    shown = listings.simulate(
        rule, [entry("long", "d" * 1536), entry("longer", "d" * 1537)], 1_000_000
    )
    assert statuses(shown) == [("long", FULL, 1536), ("longer", CUT, 1536)]


def test_claude_code_joins_when_to_use_to_the_description() -> None:
    from skillc.ir import Definition, Kind, Tool

    d = Definition(
        Kind.SKILL,
        "x",
        "x",
        None,
        "Does x.",
        "",
        Position("s"),
        0,
        (),
        None,
        {"when_to_use": "When  y\nhappens."},
    )
    tool = Tool("task.x", ("task",), "x", "Does x.", (), d)
    [claude] = listings.entries(RULES["claude-code"], (tool,))
    [codex] = listings.entries(RULES["codex"], (tool,))
    assert claude.text == "Does x. When y happens."
    assert codex.text == "Does x."  # Codex does not read when_to_use (agterm#528)


def test_claude_code_drops_whole_descriptions_in_rank_order_and_keeps_every_name() -> (
    None
):
    """Over budget, the least used skills' descriptions are dropped whole; the listing
    keeps every name (anthropics/claude-code#68135, SOTA-skills#349). Equal use: the
    catalogue's order decides."""
    rule = RULES["claude-code"]
    six = [entry(n, "w" * 1500) for n in "abcdef"]
    shown = listings.simulate(rule, six, 200_000)  # 8,000 chars: five fit
    assert statuses(shown) == [(n, FULL, 1500) for n in "abcde"] + [("f", NAME_ONLY, 0)]
    # A later, shorter one still fits in what is left.
    shown = listings.simulate(rule, [*six, entry("g", "w" * 100)], 200_000)
    assert [s.status for s in shown] == [FULL] * 5 + [NAME_ONLY, FULL]


def test_claude_code_lists_skills_and_commands_not_subagents() -> None:
    """Subagents are listed apart, in full, without a budget (anthropics/claude-code
    #87515)."""
    assert RULES["claude-code"].kinds == {"skill", "command"}


def test_claude_code_re_attaches_5000_tokens_after_compaction() -> None:
    assert RULES["claude-code"].reattach_tokens == 5000


# -- codex ---------------------------------------------------------------------------


def test_codex_budget_is_two_percent_in_tokens_or_8000_chars() -> None:
    """openai/codex render.rs: default_budget_uses_two_percent_of_full_context_window
    (200,000 -> 4,000 tokens) and the 8,000-character fallback without a window."""
    budget = RULES["codex"].budget
    assert budget is not None
    assert budget.limit(200_000) == (4000, "tokens")
    assert budget.limit(None) == (8000, "chars")


def _codex_minimum(names: list[str]) -> int:
    rule = RULES["codex"]
    return sum(len(rule.bare.format(name=n, path=entry(n, "").path)) + 1 for n in names)


def test_codex_shortens_descriptions_alike_before_leaving_skills_out() -> None:
    """render.rs budgeted_rendering_truncates_descriptions_equally_before_omitting_skills:
    six characters over the bare lines give each of two skills two characters."""
    rule = RULES["codex"]
    skills = [entry("alpha-skill", "abcdef"), entry("beta-skill", "uvwxyz")]
    limit = _codex_minimum(["alpha-skill", "beta-skill"]) + 6
    shown = listings._shared(
        rule, [listings._capped(rule, e) for e in skills], limit, "chars"
    )
    assert statuses(shown) == [
        ("alpha-skill", TRUNCATED, 2),
        ("beta-skill", TRUNCATED, 2),
    ]


def test_codex_gives_a_short_description_s_share_to_the_others() -> None:
    """render.rs budgeted_rendering_redistributes_unused_description_budget."""
    rule = RULES["codex"]
    skills = [entry("long-skill", "abcdefghi"), entry("short-skill", "x")]
    limit = _codex_minimum(["long-skill", "short-skill"]) + 11
    shown = listings._shared(
        rule, [listings._capped(rule, e) for e in skills], limit, "chars"
    )
    assert statuses(shown) == [("long-skill", TRUNCATED, 8), ("short-skill", FULL, 1)]


def test_codex_removes_every_description_then_leaves_skills_out() -> None:
    """render.rs budgeted_rendering_preserves_prompt_priority_when_minimum_lines_exceed_budget:
    when the bare lines do not fit, no description is shown and the skills past the
    budget are left out."""
    rule = RULES["codex"]
    skills = [entry(n, "desc") for n in ("a-skill", "b-skill", "c-skill")]
    limit = _codex_minimum(["a-skill", "b-skill"])
    shown = listings._shared(
        rule, [listings._capped(rule, e) for e in skills], limit, "chars"
    )
    assert [s.status for s in shown] == [NAME_ONLY, NAME_ONLY, OMITTED]


def test_codex_counts_four_bytes_a_token() -> None:
    """In tokens, a line costs ceil(UTF-8 bytes / 4) (render.rs, APPROX_BYTES_PER_TOKEN)."""
    assert listings.cost_of("tokens")("abcd\n") == 2
    assert listings.cost_of("tokens")("é" * 2) == 1
    assert listings.cost_of("chars")("abcd\n") == 5


# -- the API providers ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("harness", "most"),
    [("anthropic-deferred", 10_000), ("openai-chat", 128), ("gemini", 512)],
)
def test_provider_lists_stop_at_their_maximum(harness: str, most: int) -> None:
    """Anthropic: 10,000 deferred tools (tool-search-tool page); OpenAI Chat: 128 tools
    (array_above_max_length); Gemini: 512 function declarations (providers.md)."""
    rule = RULES[harness]
    assert rule.max_entries == most
    shown = listings.simulate(
        rule, [entry(f"t{i}", "d") for i in range(most + 1)], None
    )
    assert [s.status for s in shown[-2:]] == [FULL, OMITTED]


def test_openai_cuts_descriptions_at_1024() -> None:
    """OpenAI Chat rejects descriptions over 1,024 characters (string_above_max_length);
    the provider file carries the first 1,024."""
    shown = listings.simulate(RULES["openai-chat"], [entry("t", "d" * 1025)], None)
    assert statuses(shown) == [("t", CUT, 1024)]


# -- options -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("given", "parsed"),
    [
        ("claude-code:200k", ("claude-code", 200_000)),
        ("codex:1M", ("codex", 1_000_000)),
        ("codex:272000", ("codex", 272_000)),
        ("openai-chat", ("openai-chat", None)),
    ],
)
def test_budget_option(given: str, parsed: tuple[str, int | None]) -> None:
    assert harnesses.parse(given) == parsed


@pytest.mark.parametrize(
    "given", ["cursor:200k", "codex:", "codex:0", "codex:-5k", "codex:2x"]
)
def test_bad_budget_option(given: str) -> None:
    if given == "codex:":
        assert harnesses.parse(given) == ("codex", None)
        return
    with pytest.raises(ConfigError):
        harnesses.parse(given)


def _installed(
    harness: str, listed: list[listings.Entry], how: str = "each"
) -> list[tuple[str, list[str], list[str]]]:
    return [
        (i.id, [e.name for e in i.listed], [e.name for e in i.about])
        for i in listing_installs.installs(RULES[harness], listed, how)
    ]


def test_plugins_and_catalogue_skills_are_installed_one_at_a_time() -> None:
    """A marketplace's plugins are installed one by one, a catalogue's skills too
    (each beside the project's own client folders, which come as a whole)."""
    own = entry("own", "o")
    listed = [
        own,
        entry("a1", "a", "a"),
        entry("b1", "b", "b"),
        dataclasses.replace(entry("c1", "c"), catalogue=True),
        dataclasses.replace(entry("c2", "c"), catalogue=True),
    ]
    assert _installed("claude-code", listed) == [
        ("project", ["own"], ["own"]),
        ("plugin:a", ["own", "a1"], ["a1"]),
        ("plugin:b", ["own", "b1"], ["b1"]),
        ("skill:c1", ["own", "c1"], ["c1"]),
        ("skill:c2", ["own", "c2"], ["c2"]),
    ]
    # An API provider is offered the package's tools in one request.
    assert _installed("openai-chat", listed)[0] == (
        "project",
        ["own", "c1", "c2"],
        ["own", "c1", "c2"],
    )
    everything = ["own", "a1", "b1", "c1", "c2"]
    assert _installed("codex", listed, "all") == [("all", everything, everything)]


# -- the command ---------------------------------------------------------------------


def _skills(root: Path, count: int, size: int) -> None:
    for i in range(count):
        write_skill(
            root / "skills",
            f"skill-{i:02}",
            f"---\nname: skill-{i:02}\ndescription: {'word ' * (size // 5)}\n---\nDo it.\n",
        )


def test_check_fails_when_a_description_would_be_dropped(
    skills_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _skills(skills_project, 6, 400)
    assert run_skillc(capsys, "-C", str(skills_project), "build")[0] == 0
    args = ["-C", str(skills_project), "check", "--installed", "all"]
    status, err = run_skillc(capsys, *args, "--budget", "claude-code:200k")
    assert status == 0, err
    status, err = run_skillc(
        capsys,
        *args,
        "--budget",
        "claude-code:50k",
        "--report",
        str(skills_project / "r.json"),
    )
    assert status == 1
    # 2,000 characters at 50k: four of six entries of ~420 characters fit.
    dropped = [line for line in err.splitlines() if "error[listing-dropped]" in line]
    assert [line.split(":")[0] for line in dropped] == [
        "skills/skill-04/SKILL.md",
        "skills/skill-05/SKILL.md",
    ]
    assert (
        "claude-code at 50k with every skill and plugin installed drops "
        "task.skill_04's description" in dropped[0]
    )
    found = json.loads((skills_project / "r.json").read_text())["checks"]["listing"]
    assert found[0]["budget"] == {"limit": 2000, "unit": "chars"}
    assert [e["status"] for e in found[0]["entries"]] == [FULL] * 4 + [NAME_ONLY] * 2


def test_check_reads_budgets_from_the_config(
    skills_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _skills(skills_project, 6, 400)
    pyproject = skills_project / "pyproject.toml"
    assert run_skillc(capsys, "-C", str(skills_project), "build")[0] == 0
    for budget, status_wanted, said in (
        # 200 tokens: every description shortened alike, a warning
        ("codex:10k", 0, "shortens task.skill_00's description to 71 of"),
        # 40 tokens: not even the bare lines fit, an error
        ("codex:2k", 1, "leaves task.skill_05 out"),
    ):
        pyproject.write_text(
            '[tool.skillc]\nsources = ["skills"]\n\n'
            f'[tool.skillc.check]\nbudget = ["{budget}"]\ninstalled = "all"\n'
        )
        status, err = run_skillc(capsys, "-C", str(skills_project), "check")
        assert status == status_wanted, err
        assert said in err and "claude-code" not in err
    pyproject.write_text(
        '[tool.skillc]\nsources = ["skills"]\n\n[tool.skillc.check]\nbudgets = []\n'
    )
    status, err = run_skillc(capsys, "-C", str(skills_project), "check")
    assert status == 2 and "unknown key(s): budgets" in err


def test_wshobson_plugins_fit_one_at_a_time_but_not_all_at_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each of the 91 plugins, installed alone, keeps every description at Claude
    Code's default context; the whole marketplace at once would not."""
    project = built_marketplace(tmp_path, capsys)
    status, err, found = checked(capsys, project, "--budget", "claude-code:200k")
    assert "listing-dropped" not in err, err[-2000:]
    [claude] = found["listing"]
    assert len(claude["entries"]) > 250  # skills and commands, not subagents
    assert {e["status"] for e in claude["entries"]} == {FULL}
    # All at once: the catalogue's 286 names alone are over 8,000 characters.
    from skillc import pipeline
    from skillc.diagnostics import Report

    model = pipeline.run(configured(project), Report(), cached=False, emit=False).model
    assert model is not None
    everything = listings.entries(RULES["claude-code"], model.tools)
    flat = [
        listings.Entry(e.tool, e.name, e.text, e.path, e.source) for e in everything
    ]
    shown = listings.simulate(RULES["claude-code"], flat, 200_000)
    assert {s.status for s in shown} == {NAME_ONLY}


def test_codex_listing_reports_the_skills_codex_drops_whole(
    skills_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A description over 1,024 characters makes Codex drop the skill ('failed to load
    skill', openai/codex core-skills/src/loader.rs@c9d127c:107, 556), whatever the
    budget: the codex listing says so (an error); Claude Code's lists it."""
    write_skill(
        skills_project / "skills",
        "long",
        f"---\nname: long\ndescription: {'d' * 1025}\n---\nDo it.\n",
    )
    write_skill(
        skills_project / "skills", "short", "---\nname: short\ndescription: Do.\n---\n"
    )
    assert run_skillc(capsys, "-C", str(skills_project), "build")[0] == 0
    args = [
        "-C",
        str(skills_project),
        "check",
        "--report",
        str(skills_project / "r.json"),
    ]
    status, err = run_skillc(capsys, *args, "--budget", "codex:1m")
    assert status == 1, err
    dropped = [line for line in err.splitlines() if "error[listing-dropped]" in line]
    assert len(dropped) == 1 and dropped[0].startswith("skills/long/SKILL.md")
    assert (
        "codex at 1,000k with skill long installed leaves task.long out, whatever "
        "its budget" in dropped[0]
    )
    assert "description is 1,025 characters, over 1,024" in dropped[0]
    found = json.loads((skills_project / "r.json").read_text())["checks"]["listing"]
    assert [e["status"] for e in found[0]["entries"]] == [OMITTED, FULL]
    status, err = run_skillc(capsys, *args, "--budget", "claude-code:1m")
    assert "listing-dropped" not in err
