"""skillc check's breaking changes: a table of schema pairs, each with the changes it
must be classified as; then versions, tools that come and go, and the command against
the lock on disk and against a git ref."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from conftest import built_marketplace, checked, run_skillc, write_skill
from skillc.checks import breaking, schemas

S: dict[str, Any] = {"type": "string"}
I: dict[str, Any] = {"type": "integer"}
N: dict[str, Any] = {"type": "number"}


def obj(required: tuple[str, ...] = (), **props: Any) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "object", "properties": props}
    if required:
        schema["required"] = list(required)
    return schema


# (name, old input, new input, the changes' kinds)
INPUTS: list[tuple[str, Any, Any, list[str]]] = [
    ("same", obj(a=S), obj(a=S), []),
    ("parameter removed", obj(a=S, b=S), obj(a=S), ["parameter-removed"]),
    ("required parameter removed", obj(("a",), a=S), obj(), ["parameter-removed"]),
    ("optional parameter added", obj(a=S), obj(a=S, b=S), ["parameter-added"]),
    (
        "required parameter added",
        obj(a=S),
        obj(("b",), a=S, b=S),
        ["parameter-required"],
    ),
    ("made required", obj(a=S), obj(("a",), a=S), ["parameter-required"]),
    ("made optional", obj(("a",), a=S), obj(a=S), ["parameter-optional"]),
    ("string to integer", obj(a=S), obj(a=I), ["type-narrowed"]),
    ("number to integer", obj(a=N), obj(a=I), ["type-narrowed"]),
    ("integer to number", obj(a=I), obj(a=N), ["type-widened"]),
    (
        "nullable removed",
        obj(a={"type": ["string", "null"]}),
        obj(a=S),
        ["type-narrowed"],
    ),
    ("nullable added", obj(a=S), obj(a={"type": ["string", "null"]}), ["type-widened"]),
    ("any value typed", obj(a={}), obj(a=S), ["type-narrowed"]),
    ("type dropped", obj(a=S), obj(a={}), ["type-widened"]),
    (
        "enum value removed",
        obj(m={"type": "string", "enum": ["fast", "slow"]}),
        obj(m={"type": "string", "enum": ["fast"]}),
        ["enum-value-removed"],
    ),
    (
        "enum value added",
        obj(m={"type": "string", "enum": ["fast"]}),
        obj(m={"type": "string", "enum": ["fast", "slow"]}),
        ["enum-value-added"],
    ),
    (
        "enum value renamed",
        obj(m={"enum": ["a", "b"]}),
        obj(m={"enum": ["a", "c"]}),
        ["enum-value-removed", "enum-value-added"],
    ),
    (
        "now an enum",
        obj(m=S),
        obj(m={"type": "string", "enum": ["a"]}),
        ["type-narrowed"],
    ),
    (
        "no longer an enum",
        obj(m={"type": "string", "enum": ["a"]}),
        obj(m=S),
        ["type-widened"],
    ),
    (
        "const changed",
        obj(m={"const": "a"}),
        obj(m={"const": "b"}),
        ["enum-value-removed", "enum-value-added"],
    ),
    (
        "maximum lowered",
        obj(n={"type": "integer", "maximum": 10}),
        obj(n={"type": "integer", "maximum": 5}),
        ["type-narrowed"],
    ),
    (
        "maximum raised",
        obj(n={"type": "integer", "maximum": 5}),
        obj(n={"type": "integer", "maximum": 10}),
        ["type-widened"],
    ),
    (
        "minimum added",
        obj(n=I),
        obj(n={"type": "integer", "minimum": 1}),
        ["type-narrowed"],
    ),
    (
        "minLength dropped",
        obj(s={"type": "string", "minLength": 3}),
        obj(s=S),
        ["type-widened"],
    ),
    (
        "maxItems lowered",
        obj(l={"type": "array", "maxItems": 9}),
        obj(l={"type": "array", "maxItems": 2}),
        ["type-narrowed"],
    ),
    (
        "pattern added",
        obj(s=S),
        obj(s={"type": "string", "pattern": "^a"}),
        ["type-narrowed"],
    ),
    (
        "format removed",
        obj(s={"type": "string", "format": "uri"}),
        obj(s=S),
        ["type-widened"],
    ),
    (
        "items narrowed",
        obj(l={"type": "array", "items": N}),
        obj(l={"type": "array", "items": I}),
        ["type-narrowed"],
    ),
    (
        "nested property removed",
        obj(o=obj(x=S, y=S)),
        obj(o=obj(x=S)),
        ["parameter-removed"],
    ),
    (
        "nested property made required",
        obj(o=obj(x=S)),
        obj(o=obj(("x",), x=S)),
        ["parameter-required"],
    ),
    (
        "closed to other properties",
        {"type": "object", "properties": {}},
        {"type": "object", "properties": {}, "additionalProperties": False},
        ["type-narrowed"],
    ),
    (
        "opened to other properties",
        {"type": "object", "additionalProperties": False},
        {"type": "object"},
        ["type-widened"],
    ),
    (
        "union member removed",
        obj(v={"anyOf": [S, I, {"type": "boolean"}]}),
        obj(v={"anyOf": [S, I]}),
        ["type-narrowed", "type-narrowed"],
    ),
    (
        "union member added",
        obj(v={"anyOf": [S, I]}),
        obj(v={"anyOf": [S, I, {"type": "boolean"}]}),
        ["type-widened", "type-widened"],
    ),
    (
        "became a union with null",
        obj(v=S),
        obj(v={"anyOf": [S, {"type": "null"}]}),
        ["type-widened"],
    ),
    (
        "uniqueItems added",
        obj(l={"type": "array", "uniqueItems": True}),
        obj(l={"type": "array"}),
        ["type-widened"],
    ),
    (
        "renamed parameter",
        obj(("path",), path=S),
        obj(("file",), file=S),
        ["parameter-required", "parameter-removed"],
    ),
]

# (name, old output, new output, the changes' kinds)
OUTPUTS: list[tuple[str, Any, Any, list[str]]] = [
    ("output declared", None, obj(a=S), ["output-extended"]),
    ("output removed", obj(a=S), None, ["output-changed"]),
    ("output field removed", obj(a=S, b=S), obj(a=S), ["output-changed"]),
    ("output field added", obj(a=S), obj(a=S, b=S), ["output-extended"]),
    ("output field may be absent", obj(("a",), a=S), obj(a=S), ["output-changed"]),
    (
        "output type widened",
        obj(a=S),
        obj(a={"type": ["string", "null"]}),
        ["output-changed"],
    ),
    (
        "output type narrowed",
        obj(a={"type": ["string", "null"]}),
        obj(a=S),
        ["output-extended"],
    ),
    (
        "output enum gained",
        obj(s={"enum": ["ok"]}),
        obj(s={"enum": ["ok", "late"]}),
        ["output-changed"],
    ),
]


@pytest.mark.parametrize(
    ("name", "old", "new", "kinds"), INPUTS, ids=[row[0] for row in INPUTS]
)
def test_input_schema_pairs(name: str, old: Any, new: Any, kinds: list[str]) -> None:
    found = [kind for kind, _, _ in schemas.input_changes(old, new)]
    assert sorted(found) == sorted(kinds)


@pytest.mark.parametrize(
    ("name", "old", "new", "kinds"), OUTPUTS, ids=[row[0] for row in OUTPUTS]
)
def test_output_schema_pairs(name: str, old: Any, new: Any, kinds: list[str]) -> None:
    found = [kind for kind, _, _ in schemas.output_changes(old, new)]
    assert sorted(found) == sorted(kinds)


def test_the_table_is_large_enough() -> None:
    assert len(INPUTS) + len(OUTPUTS) >= 30
    seen = {k for _, _, _, kinds in INPUTS + OUTPUTS for k in kinds}
    assert breaking.BREAKING - {"tool-removed", "tool-renamed"} <= seen


def test_paths_name_where_the_change_is() -> None:
    [(kind, path, detail)] = schemas.input_changes(
        obj(o=obj(x=S, y=S)), obj(o=obj(x=S))
    )
    assert (kind, path, detail) == (
        "parameter-removed",
        "input/properties/o/properties/y",
        "removed",
    )


@pytest.mark.parametrize(
    ("path", "said"),
    [
        ("input", "its input"),
        ("input/properties/o/properties/y", "parameter o.y"),
        ("input/properties/l/items", "parameter l[]"),
        ("input/properties/l/items/properties/id", "parameter l[].id"),
        ("input/properties/m/additionalProperties", "parameter m.*"),
        ("input/properties/properties", "parameter properties"),
        ("output/properties/a", "output field a"),
        ("output", "its output"),
    ],
)
def test_changes_are_said_in_the_callers_terms(path: str, said: str) -> None:
    """A parameter by its name, not a JSON Schema path; a bound by what it asks of a
    value, not "minLength null -> 1" (issue 44)."""
    assert breaking.subject(path) == said


@pytest.mark.parametrize(
    ("old", "new", "detail"),
    [
        (
            S,
            {"type": "string", "minLength": 1},
            "must now be at least 1 character long",
        ),
        (
            {"type": "integer", "maximum": 10},
            {"type": "integer", "maximum": 5},
            "must now be at most 5 (was at most 10)",
        ),
        (
            {"type": "string", "maxLength": 9},
            S,
            "no longer needs to be at most 9 characters long",
        ),
        (S, I, "now takes integer, not string"),
        ({"enum": ["a", "b"]}, {"enum": ["a"]}, 'no longer accepts "b"'),
        (S, {"type": "string", "pattern": "^a"}, 'now has pattern "^a"'),
    ],
)
def test_details_read_as_sentences(old: Any, new: Any, detail: str) -> None:
    [(_, _, said)] = schemas.input_changes(old, new)
    assert said == detail
    assert "null" not in said


def iface(tool: str, schema: Any, output: Any = None, **extra: Any) -> dict[str, Any]:
    entry = {"tool": tool, "kind": "tool", "input": schema, **extra}
    if output is not None:
        entry["output"] = output
    return entry


def test_tools_removed_renamed_aliased_and_added() -> None:
    """A rename only between related tools: alike in name and description, from the
    one source file, or declared; tools that merely share an interface are a removal
    and an addition (issue 44: anthropics/skills' pptx.inventory was called docx.comment
    renamed, as every script tool takes the same args)."""
    args = obj(args={"type": "array", "items": S})
    old = [
        iface("a.write_label", obj(x=S), description="Write labels of a repository."),
        iface("a.two", obj(y=I), description="Two things."),
        iface("a.three", obj(z=S)),
        iface(
            "pptx.inventory", args, description="Extract text inventory from slides."
        ),
        iface("task.old_name", obj(), source="skills/x/SKILL.md", description="X."),
        iface("task.legacy_tool", obj(), description="Legacy."),
    ]
    new = [
        iface("a.label_write", obj(x=S), description="Write labels of a repository."),
        iface("a.three_", obj(z=S), aliases=["a.three"]),  # the old name kept
        iface("a.four", obj()),
        iface("docx.comment", args, description="Add comments to DOCX documents."),
        iface("task.new_name", obj(), source="skills/x/SKILL.md", description="Y."),
        iface("task.modern", obj(), previous=["legacy-tool"], description="Modern."),
    ]
    found = {(c.tool, c.kind, c.now) for c in breaking.compare(old, new)}
    assert found == {
        ("a.write_label", "tool-renamed", "a.label_write"),
        ("a.two", "tool-removed", ""),
        ("a.three", "tool-aliased", "a.three_"),
        ("a.four", "tool-added", "a.four"),
        ("pptx.inventory", "tool-removed", ""),
        ("docx.comment", "tool-added", "docx.comment"),
        ("task.old_name", "tool-renamed", "task.new_name"),
        ("task.legacy_tool", "tool-renamed", "task.modern"),
    }


def test_a_renamed_tool_that_changed_is_compared_under_both_names() -> None:
    old = [iface("a.write_label", obj(x=S), description="Write labels.")]
    new = [iface("a.label_write", obj(), description="Write labels.")]
    assert [(c.kind, c.detail) for c in breaking.compare(old, new)] == [
        ("tool-renamed", "renamed a.label_write (alike in name and description)"),
        ("parameter-removed", "parameter x removed"),
    ]


@pytest.mark.parametrize(
    ("old", "new", "level"),
    [
        ("1.2.3", "2.0.0", "major"),
        ("1.2.3", "1.3.0", "minor"),
        ("1.2.3", "1.2.4", "patch"),
        ("1.2.3", "1.2.3", "none"),
        ("1.2.3", "1.1.0", "none"),
        ("0.2.0", "0.3.0", "major"),  # below 1.0.0 a minor bump may break
        ("0.2.0", "0.2.1", "minor"),
        ("0.9.0", "1.0.0", "major"),
        ("v1", "v2", "major"),
        (None, "1.0.0", None),
        ("1.0", "latest", None),
    ],
)
def test_bumps(old: str | None, new: str | None, level: str | None) -> None:
    assert breaking.bump(old, new) == level


# -- the command ---------------------------------------------------------------------

MANIFEST = """namespace: svc
tools:
  - name: send
    description: Send a message.
    input_schema:
      type: object
      properties:
        to: {{type: string}}
        mode: {{type: string, enum: [{modes}]}}
      required: [to]
    executor: {{type: cli, command: "true"}}
"""


def _project(root: Path, version: str, modes: str, arguments: str = "person") -> None:
    (root / "skills" / "svc").mkdir(parents=True, exist_ok=True)
    (root / "skills" / "svc" / "svc.tools.yaml").write_text(
        MANIFEST.format(modes=modes)
    )
    write_skill(
        root / "skills",
        "greet",
        f"---\nname: greet\ndescription: Greet.\nversion: {version}\n"
        f"arguments: {arguments}\n---\nHi $person.\n",
    )
    (root / "skills" / "greet" / "metadata.yaml").write_text(f"version: {version}\n")


def test_breaking_changes_against_the_lock_on_disk(
    skills_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _project(skills_project, "1.0.0", "fast, slow")
    assert run_skillc(capsys, "-C", str(skills_project), "build")[0] == 0
    _project(skills_project, "1.0.0", "fast")  # a value removed: breaking, unversioned
    # An argument removed without a major bump: an error.
    _project(skills_project, "1.1.0", "fast", arguments="[]")
    report = skills_project / "r.json"
    status, err = run_skillc(
        capsys,
        "-C",
        str(skills_project),
        "check",
        "--skip",
        "listing",
        "--report",
        str(report),
        "--error-format",
        "github",
    )
    assert status == 1
    lines = [line for line in err.splitlines() if "breaking-change" in line]
    assert lines == [
        "::error file=skills/greet/SKILL.md,line=1,col=1,title=breaking-change::"
        "task.greet: parameter person removed; a breaking change needs a major "
        "version bump (1.0.0 -> 1.1.0), against the lock on disk",
        "::warning file=skills/svc/svc.tools.yaml,line=1,col=1,title=breaking-change::"
        'svc.send: parameter mode no longer accepts "slow"; this breaks its callers, '
        "and it has no version to say so (a version in its frontmatter or "
        "metadata.yaml), against the lock on disk",
    ]
    found = json.loads(report.read_text())["checks"]["breaking"]
    assert found["compared"] and {c["verdict"] for c in found["changes"]} == {
        "error",
        "unversioned",
    }
    # Built, the lock on disk is the new one: nothing left to compare.
    assert run_skillc(capsys, "-C", str(skills_project), "build")[0] == 0
    status, err = run_skillc(
        capsys, "-C", str(skills_project), "check", "--skip", "listing"
    )
    assert status == 0 and "breaking" not in err, err


def _git(project: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@t", *args],
        cwd=project,
        check=True,
        capture_output=True,
    )


def test_breaking_changes_against_a_git_ref(
    skills_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    if shutil.which("git") is None:
        pytest.skip("no git")
    _project(skills_project, "1.0.0", "fast, slow")
    assert run_skillc(capsys, "-C", str(skills_project), "build")[0] == 0
    _git(skills_project, "init", "-q")
    _git(skills_project, "add", "-A")
    _git(skills_project, "commit", "-q", "-m", "base")
    # An argument added with a patch bump: a warning. A value added to an unversioned
    # tool: nothing to say.
    _project(skills_project, "1.0.1", "fast, slow, auto", arguments="[person, mood]")
    assert run_skillc(capsys, "-C", str(skills_project), "build")[0] == 0
    args = ["-C", str(skills_project), "check", "--skip", "listing"]
    status, err = run_skillc(capsys, *args, "--against", "HEAD")
    assert status == 0, err
    said = [line for line in err.splitlines() if "[version-not-bumped]" in line]
    assert said == [
        "skills/greet/SKILL.md:1:1: warning[version-not-bumped]: task.greet: parameter "
        "mood added; an addition needs a minor version bump (1.0.0 -> 1.0.1), against "
        "the lock at HEAD"
    ]
    assert "svc.send" not in err
    status, err = run_skillc(capsys, *args, "--against", "no-such-ref")
    assert status == 2 and "git knows no such commit" in err
    status, err = run_skillc(capsys, *args, "--against=--output=x")
    assert status == 2 and "not a git ref" in err


def test_wshobson_against_itself_and_a_changed_copy(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The real marketplace: no change against its own lock; a subagent removed is
    found (unversioned: a warning)."""
    project = built_marketplace(tmp_path, capsys)
    status, err, found = checked(capsys, project, "--skip", "listing")
    assert status == 0 and found["breaking"]["changes"] == []
    agents = sorted((project / "mk" / "plugins").glob("*/agents/*.md"))
    agents[0].unlink()
    status, err, found = checked(capsys, project, "--skip", "listing")
    changes = found["breaking"]["changes"]
    assert [(c["change"], c["verdict"]) for c in changes] == [
        ("tool-removed", "unversioned")
    ]


def test_a_ref_without_a_lock_is_an_error(
    skills_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Asked to compare with a ref that holds no lock, the check says so (it passed
    silently, comparing nothing: issue 44)."""
    if shutil.which("git") is None:
        pytest.skip("no git")
    _project(skills_project, "1.0.0", "fast, slow")
    _git(skills_project, "init", "-q")
    _git(skills_project, "add", "skills", "pyproject.toml")
    _git(skills_project, "commit", "-q", "-m", "before skillc")
    assert run_skillc(capsys, "-C", str(skills_project), "build")[0] == 0
    args = ["-C", str(skills_project), "check", "--skip", "listing", "--against"]
    status, err = run_skillc(capsys, *args, "HEAD")
    assert status == 1
    assert (
        "generated/skillc.lock.json:1:1: error[baseline-invalid]: the lock at HEAD "
        "cannot be the baseline: HEAD holds no generated/skillc.lock.json (was "
        "generated/ committed there?); no breaking changes were checked"
    ) in err.splitlines()


def test_every_breaking_change_is_listed(
    skills_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Thirty unversioned tools removed: thirty warnings in text, none "not shown"
    (3 of 30 were shown: issue 44)."""
    for n in range(30):
        write_skill(
            skills_project / "skills",
            f"s{n}",
            f"---\nname: s{n}\ndescription: Skill number {n}.\n---\nGo.\n",
        )
    assert run_skillc(capsys, "-C", str(skills_project), "build")[0] == 0
    shutil.rmtree(skills_project / "skills")
    write_skill(
        skills_project / "skills", "z", "---\nname: z\ndescription: Z.\n---\nZ.\n"
    )
    status, err = run_skillc(
        capsys, "-C", str(skills_project), "check", "--skip", "listing"
    )
    said = [line for line in err.splitlines() if "[breaking-change]" in line]
    assert len(said) == 30 and "not shown" not in err, err
    assert said[0].endswith(
        "task.s0: removed; this breaks its callers, and it has no version to say so "
        "(a version in its frontmatter or metadata.yaml), against the lock on disk"
    )


def test_a_skill_renamed_says_its_previous_name(
    skills_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A skill that says which name it had (metadata: previous-name) is reported as
    renamed, at its new file, with no warning for the key."""
    write_skill(
        skills_project / "skills",
        "old-tool",
        "---\nname: old-tool\ndescription: O.\n---\nGo.\n",
    )
    assert run_skillc(capsys, "-C", str(skills_project), "build")[0] == 0
    shutil.rmtree(skills_project / "skills" / "old-tool")
    write_skill(
        skills_project / "skills",
        "new-tool",
        "---\nname: new-tool\ndescription: N.\nmetadata:\n  previous-name: old-tool\n"
        "---\nGo.\n",
    )
    status, err, found = checked(capsys, skills_project, "--skip", "listing")
    assert [
        (c["change"], c["tool"], c["now"]) for c in found["breaking"]["changes"]
    ] == [("tool-renamed", "task.old_tool", "task.new_tool")]
    assert (
        "skills/new-tool/SKILL.md:1:1: warning[breaking-change]: task.old_tool: renamed "
        "task.new_tool (it declares the old name); this breaks its callers"
    ) in err
    assert "previous-name" not in err
