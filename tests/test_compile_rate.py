"""What Claude Code loads compiles, and one bad tool never takes others down (issue 12):
each case observed on real repositories, as a bad-input or end-to-end test."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from conftest import run_mypy, run_python, run_skillc, write_skill
from test_bad_input import populate

OK = "---\nname: {name}\ndescription: Does a thing.\n---\nBody.\n"
HTTP = {"type": "http", "url": "https://example.com/call"}


class _Dumper(yaml.SafeDumper):
    def ignore_aliases(self, data: object) -> bool:
        return True  # as people write manifests: no anchors


def manifest(folder: Path, tools: list[dict[str, object]], **top: object) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    text = yaml.dump({**top, "tools": tools}, Dumper=_Dumper, sort_keys=False)
    (folder / "tool-manifest.yaml").write_text(text, encoding="utf-8")


def build(
    project: Path, capsys: pytest.CaptureFixture[str], *extra: str
) -> tuple[int, str]:
    code, err = run_skillc(capsys, "-C", str(project), "build", *extra)
    assert "Traceback" not in err
    return code, err


def listing(project: Path) -> list[str]:
    result = run_python(
        "import generated; print('\\n'.join(e.name for e in generated.list()))",
        project,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.split()


# --- names Claude Code accepts -----------------------------------------------------


@pytest.mark.parametrize(
    ("folder", "name", "qualname", "warning"),
    [
        (
            "zoho-desk-automation",
            "Zoho Desk Automation",
            "task.zoho_desk_automation",
            "name 'Zoho Desk Automation' is read as 'zoho-desk-automation'",
        ),
        (
            "zoho-mail-automation",
            "zoho_mail-automation",
            "task.zoho_mail_automation",
            "name 'zoho_mail-automation' is read as 'zoho-mail-automation'",
        ),
        ("lead", "-lead", "task.lead", "name '-lead' is read as 'lead'"),
        (
            "pdf-extractor",
            "PDF-Extractor",
            "task.pdf_extractor",
            "name 'PDF-Extractor' is read as 'pdf-extractor'",
        ),
        (
            "csv_parser",
            "csv_parser",
            "task.csv_parser",
            "folder name 'csv_parser' is read as 'csv-parser'",
        ),
        ("12306-mcp", "12306-mcp", "task._12306_mcp", ""),
        (
            "double",
            "double--hyphen",
            "task.double",
            "name 'double--hyphen' is read as 'double-hyphen'",
        ),
    ],
)
def test_names_claude_code_loads_are_warnings(
    skills_project: Path,
    capsys: pytest.CaptureFixture[str],
    folder: str,
    name: str,
    qualname: str,
    warning: str,
) -> None:
    write_skill(skills_project / "skills", folder, OK.format(name=f"'{name}'"))
    code, err = build(skills_project, capsys)
    assert code == 0, err
    assert "error[" not in err
    assert warning in err
    assert listing(skills_project) == [qualname]
    if warning:  # and the same deviation is an error under --strict
        code, err = build(skills_project, capsys, "--strict")
        assert code == 1 and "(error under --strict)" in err


def test_script_names_are_normalised_as_seed_001_says(
    skills_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Anthropic's web-artifacts-builder: scripts/bundle-artifact.sh, init-artifact.sh."""
    populate(
        skills_project,
        {
            "web-artifacts-builder/SKILL.md": OK.format(name="web-artifacts-builder"),
            "web-artifacts-builder/scripts/bundle-artifact.sh": "# Bundle the app.\n",
            "web-artifacts-builder/scripts/init-artifact.sh": "echo init\n",
        },
    )
    code, err = build(skills_project, capsys)
    assert code == 0, err
    names = json.loads(
        (skills_project / "generated" / "providers" / "names.json").read_text()
    )["to_provider"]
    assert names["web_artifacts_builder.bundle_artifact"]["anthropic"] == (
        "web-artifacts-builder__bundle_artifact"
    )
    assert "web_artifacts_builder.init_artifact" in names


# --- the sanitiser changes only what Python refuses ---------------------------------


SEED_000 = {
    "crm.tools.yaml": """namespace: crm.contact
tools:
  - name: get
    description: Get a contact.
    input_schema: {type: object, properties: {id: {type: integer}}, required: [id]}
    executor: {type: python, function: 'm:f'}
""",
    "s3.tools.yaml": """namespace: s3.file
tools:
  - name: list
    description: List the objects of a bucket.
    input_schema:
      type: object
      properties: {bucket: {type: string}, prefix: {type: string}, type: {type: string}}
      required: [bucket]
    executor: {type: python, function: 'm:f'}
  - name: filter
    description: Filter objects.
    input_schema: {type: object, properties: {input: {type: string}, from: {type: string}}}
    executor: {type: python, function: 'm:f'}
""",
}


def test_seed_000_calls_work_as_written(
    skills_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    populate(skills_project, SEED_000)
    code, err = build(skills_project, capsys)
    assert code == 0, err
    result = run_python(
        "import sys; sys.ps1 = '>>> '\n"  # help() returns without printing
        "import generated\n"
        "print(generated.crm.contact.get.arguments(id=123))\n"
        "print(generated.s3.file.list.arguments(bucket='b', prefix='p', type='t'))\n"
        "print(generated.s3.file.filter.arguments(input='i', from_='f'))\n"
        "print(generated.s3.file.help().splitlines()[0])\n"
        "print(len(generated.crm.contact.list()))\n",
        skills_project,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        "{'id': 123}",
        "{'bucket': 'b', 'prefix': 'p', 'type': 't'}",
        "{'input': 'i', 'from': 'f'}",
        "s3.file: Tools in s3.file.",
        "1",  # a namespace without a tool named list keeps list()
    ]
    names = (skills_project / "generated" / "providers" / "names.json").read_text()
    assert '"s3__file__list"' in names and "list_" not in names
    usage = skills_project / "use.py"
    usage.write_text(
        "import generated\n"
        "generated.crm.contact.get(id=123)\n"
        "generated.s3.file.list(bucket='b', prefix='p')\n"
        "generated.s3.file.filter(input='x')\n"
    )
    result = run_mypy(skills_project, "use.py")
    assert result.returncode == 0, result.stdout


def test_names_of_the_package_itself_are_reached_with_a_trailing_underscore(
    skills_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A skill named help, a manifest namespace named dispatch, a namespace named list:
    Claude Code loads them; the package keeps its own help(), dispatch() and list()."""
    populate(
        skills_project,
        {
            "help/SKILL.md": OK.format(name="help"),
            "d.tools.yaml": "namespace: dispatch\ntools:\n  - name: t\n"
            "    description: D.\n    executor: {type: python, function: 'm:f'}\n",
            "l.tools.yaml": "namespace: crm.list\ntools:\n  - name: all\n"
            "    description: D.\n    executor: {type: python, function: 'm:f'}\n",
        },
    )
    code, err = build(skills_project, capsys)
    assert code == 0, err
    assert "warning[reserved-name]: task.help is reached as task.help_" in err
    assert "warning[reserved-name]: dispatch.t is reached as dispatch_.t" in err
    assert listing(skills_project) == ["crm.list.all", "dispatch_.t", "task.help_"]
    result = run_python(
        "import sys; sys.ps1 = '>>> '\n"  # help() returns without printing
        "import generated\n"
        "print(generated.task.help().splitlines()[0])\n"
        "print(generated.task.help_.prepare().instructions.strip())\n"
        "print(generated.crm.list.all.spec.qualname, callable(generated.dispatch))\n",
        skills_project,
    )
    assert result.stdout.splitlines() == [
        "task: Skills and subagents: each call returns the instructions to carry out.",
        "Body.",
        "crm.list.all True",
    ], result.stderr
    names = (skills_project / "generated" / "providers" / "names.json").read_text()
    assert '"task__help"' in names and '"dispatch__t"' in names
    assert run_mypy(skills_project, "generated").returncode == 0


# --- one bad tool never takes others down ------------------------------------------


def test_an_empty_description_is_a_warning(
    skills_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tools = [
        {"name": f"t{i}", "description": f"Tool {i}.", "executor": HTTP}
        for i in range(199)
    ]
    tools.append({"name": "quiet", "description": "", "executor": HTTP})
    manifest(skills_project / "skills" / "mcp", tools)
    code, err = build(skills_project, capsys)
    assert code == 0, err
    assert "warning[missing-description]: 'quiet' has no description" in err
    assert len(listing(skills_project)) == 200


def test_keep_going_leaves_one_bad_tool_out_everywhere(
    skills_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tools = [{"name": "good", "description": "Good.", "executor": HTTP}]
    tools.append({"name": "bad", "description": "Bad.", "executor": {"type": "ftp"}})
    tools.append({"name": "fine", "description": "Fine.", "executor": HTTP})
    manifest(skills_project / "skills" / "mcp", tools)
    code, err = build(skills_project, capsys, "--keep-going")
    assert code == 1
    assert "tools[1].executor.type: 'ftp' is not one of" in err
    assert listing(skills_project) == ["mcp.fine", "mcp.good"]
    out = skills_project / "generated"
    for path in out.rglob("*"):
        if path.is_file() and path.suffix in (".py", ".json", ".md"):
            text = path.read_text(encoding="utf-8")
            assert "mcp.bad" not in text and "mcp__bad" not in text, path
    assert not (out / "mcp" / "_bad.py").exists()
    assert run_mypy(skills_project, "generated").returncode == 0


def test_a_package_with_no_tools_imports_and_passes_mypy(
    skills_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_skill(skills_project / "skills", "x", "---\nname: x\nmetadata: 1\n---\nB.\n")
    code, _ = build(skills_project, capsys, "--keep-going")
    assert code == 1
    result = run_python(
        "import generated; print(generated.list(), generated.find_tool('x'))",
        skills_project,
    )
    assert result.stdout.split() == ["[]", "[]"], result.stderr
    result = run_mypy(skills_project, "generated")
    assert result.returncode == 0, result.stdout


def test_a_big_manifest_without_aliases_is_not_an_alias_bomb(
    skills_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """510 real-sized tools, no anchors: more nodes than the alias-expansion bound."""
    tools = [
        {
            "name": f"t{i}",
            "description": f"Tool {i}.",
            "parameters": {
                "type": "object",
                "properties": {
                    f"p{j}": {"type": "string", "description": f"Parameter {j}."}
                    for j in range(8)
                },
            },
            "executor": HTTP,
        }
        for i in range(510)
    ]
    manifest(skills_project / "skills" / "big", tools)
    assert (
        "*id"
        not in (skills_project / "skills" / "big" / "tool-manifest.yaml").read_text()
    )
    code, err = run_skillc(capsys, "-C", str(skills_project), "validate")
    assert code == 0, err[-2000:]
    assert "yaml-alias-bomb" not in err


def test_a_schema_that_cannot_be_typed_degrades_with_its_json_path(
    skills_project: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from skillc.views import pytypes

    generate = pytypes._generate

    def failing(schema: dict[str, object]) -> str:
        if "odd" in json.dumps(schema):
            raise pytypes.TypingError("datamodel-code-generator gave up")
        return generate(schema)

    monkeypatch.setattr(pytypes, "_generate", failing)
    tools = [
        {
            "name": "t",
            "description": "D.",
            "parameters": {
                "type": "object",
                "properties": {
                    # A shape only datamodel-code-generator types (its extra keys),
                    # so that the failure injected there reaches it.
                    "odd": {
                        "type": "object",
                        "properties": {"x": {"type": "string"}},
                        "additionalProperties": {"type": "string"},
                    },
                    "fine": {"type": "integer"},
                    # Observed as schema-untyped on real catalogues: typed today.
                    "mixed": {"enum": [1, "a", None]},
                    "either": {
                        "anyOf": [
                            {"type": "object", "properties": {"a": {"type": "string"}}},
                            {
                                "type": "object",
                                "properties": {"b": {"type": "integer"}},
                            },
                        ]
                    },
                },
            },
            "executor": HTTP,
        }
    ]
    manifest(skills_project / "skills" / "ns", tools)
    code, err = build(skills_project, capsys, "--no-cache")
    assert code == 0, err
    assert (
        "warning[schema-untyped]: ns.t: input schema properties.odd: typed as "
        "dict[str, Any]: datamodel-code-generator gave up"
    ) in err
    module = (skills_project / "generated" / "ns" / "_t.py").read_text()
    assert "odd: dict[str, Any] | None = None" in module
    assert "fine: int | None = None" in module
    assert run_mypy(skills_project, "generated").returncode == 0


def test_legacy_schema_forms_are_normalised_with_json_paths(
    skills_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    schema = {
        "$schema": "http://json-schema.org/draft-04/schema#",
        "type": "object",
        "definitions": {"count": {"type": "Integer", "minimum": 0}},
        "properties": {
            "n": {"$ref": "#/definitions/count"},
            "page": {"type": "int", "minimum": 1, "exclusiveMinimum": True},
            "tags": {"type": "ArrayList", "items": {"type": "String"}},
            "letter": {"type": "char", "examples": "a"},
            "anything": {"type": ""},
            "size": {"type": "object", "properties": {"w": {"required": "True"}}},
        },
    }
    manifest(
        skills_project / "skills" / "ns",
        [{"name": "t", "description": "D.", "parameters": schema, "executor": HTTP}],
    )
    code, err = build(skills_project, capsys, "-v")  # every warning
    assert code == 0, err
    for expected in (
        "tools[0].parameters.$schema: a http://json-schema.org/draft-04/schema# schema is read as 2020-12",
        "tools[0].parameters.definitions.count.type: type 'Integer' is read as 'integer'",
        "tools[0].parameters.properties.page.exclusiveMinimum: exclusiveMinimum: true (Draft 4) becomes exclusiveMinimum: 1",
        "tools[0].parameters.properties.tags.type: type 'ArrayList' is read as 'array'",
        "tools[0].parameters.properties.tags.items.type: type 'String' is read as 'string'",
        "tools[0].parameters.properties.letter.examples: examples is not a list",
        "tools[0].parameters.properties.anything.type: type '' is not a JSON Schema type; read as any value",
        "tools[0].parameters.properties.size.properties.w.required: required: 'True' is read as true",
    ):
        assert f"warning[schema-normalised]: {expected}" in err
    spec = json.loads(
        (skills_project / "generated" / "providers" / "mcp.json").read_text()
    )[0]["inputSchema"]
    assert spec["properties"]["page"] == {"type": "integer", "exclusiveMinimum": 1}
    assert spec["properties"]["n"] == {"type": "integer", "minimum": 0}
    assert spec["properties"]["size"]["required"] == ["w"]


# --- tools and namespaces ----------------------------------------------------------


def test_four_level_names_compile_by_default(
    skills_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    populate(
        skills_project,
        {
            "api.tools.yaml": "namespace: api.github.repo\ntools:\n  - name: get\n"
            "    description: D.\n    executor: {type: python, function: 'm:f'}\n"
        },
    )
    code, err = build(skills_project, capsys)
    assert code == 0, err
    assert listing(skills_project) == ["api.github.repo.get"]


# --- configuration for real repositories -------------------------------------------


def test_sources_default_to_the_claude_code_folders(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_skill(tmp_path / ".claude" / "skills", "s", OK.format(name="s"))
    agents = tmp_path / ".claude" / "agents"
    agents.mkdir()
    (agents / "a.md").write_text("---\nname: a\ndescription: An agent.\n---\nP.\n")
    code, err = build(tmp_path, capsys)
    assert code == 0, err
    assert listing(tmp_path) == ["task.a", "task.s"]
    lock = json.loads((tmp_path / "generated" / "skillc.lock.json").read_text())
    assert lock["config"]["sources"] == [".claude/skills", ".claude/agents"]


def test_exclude_ignore_and_warnings_as_errors(
    skills_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    populate(
        skills_project,
        {
            "good/SKILL.md": "---\nname: good\ndescription: D.\nversion: 1\n---\nB.\n",
            "vendor/broken/SKILL.md": "---\nname: [\n---\n",
        },
    )
    pyproject = skills_project / "pyproject.toml"
    pyproject.write_text('[tool.skillc]\nsources = ["skills"]\n')
    assert build(skills_project, capsys)[0] == 1
    pyproject.write_text(
        '[tool.skillc]\nsources = ["skills"]\nexclude = ["skills/vendor"]\n'
    )
    code, err = build(skills_project, capsys)
    assert code == 0 and "warning[non-spec-key]" in err, err
    pyproject.write_text(
        '[tool.skillc]\nsources = ["skills"]\nexclude = ["skills/vendor"]\n'
        'ignore = ["non-spec-key"]\n'
    )
    code, err = build(skills_project, capsys)
    assert code == 0 and "non-spec-key" not in err, err
    pyproject.write_text(
        '[tool.skillc]\nsources = ["skills"]\nexclude = ["skills/vendor"]\n'
        "warnings-as-errors = true\n"
    )
    code, err = build(skills_project, capsys)
    assert code == 1
    assert "error[non-spec-key]" in err and "(warnings-as-errors)" in err


def test_a_source_root_that_yields_nothing_is_a_warning(
    skills_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_skill(skills_project / "skills", "s", OK.format(name="s"))
    (skills_project / "empty").mkdir()
    code, err = build(skills_project, capsys, "--source", "skills", "--source", "empty")
    assert code == 0
    assert "empty:1:1: warning[empty-source]" in err


# --- scripts -----------------------------------------------------------------------


def test_only_runnable_scripts_are_tools_described_by_their_own_words(
    skills_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    populate(
        skills_project,
        {
            "pdf/SKILL.md": OK.format(name="pdf"),
            "pdf/scripts/__init__.py": "",
            "pdf/scripts/_helpers.py": "X = 1\n",
            "pdf/scripts/extract.py": '#!/usr/bin/env python3\n"""Extract the text of a PDF.\n\nMore."""\n'
            'if __name__ == "__main__":\n    print("text")\n',
            # a helper its siblings import: it runs nothing, so it is not a tool
            "pdf/scripts/shared.py": '#!/usr/bin/env python3\n"""Shared parts."""\n'
            "import json\n\n\ndef load(path):\n    return json.load(open(path))\n",
            "pdf/scripts/fill.sh": "#!/bin/bash\n# Fill a PDF form\n# from a JSON file.\n\necho\n",
            "pdf/scripts/convert": "#!/usr/bin/env node\n// Convert a PDF to PNG.\n",
            "pdf/scripts/notes.txt": "not a script\n",
        },
    )
    code, err = build(skills_project, capsys)
    assert code == 0, err
    result = run_python(
        "import generated\nfor e in generated.pdf.list(): print(f'{e.name}|{e.summary}')",
        skills_project,
    )
    assert result.stdout.splitlines() == [
        "pdf.convert|Convert a PDF to PNG.",
        "pdf.extract|Extract the text of a PDF.",
        "pdf.fill|Fill a PDF form from a JSON file.",
    ], result.stderr


# --- disable-model-invocation ------------------------------------------------------


def test_disable_model_invocation_keeps_the_skill_for_people_only(
    skills_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    populate(
        skills_project,
        {
            "deploy/SKILL.md": "---\nname: deploy\ndescription: Deploy to production.\n"
            "disable-model-invocation: true\nuser-invocable: false\n---\nShip it.\n",
            "review/SKILL.md": OK.format(name="review"),
        },
    )
    code, err = build(skills_project, capsys)
    assert code == 0, err
    out = skills_project / "generated"
    assert listing(skills_project) == ["task.deploy", "task.review"]
    for path in [*(out / "providers").glob("*.json"), out / "CLAUDE.md"]:
        assert "deploy" not in path.read_text(), path
    assert "deploy" not in (out / "_search_index.py").read_text()
    assert "deploy" not in (out / "_names.py").read_text()
    report = json.loads((out / "report.json").read_text())
    entry = next(t for t in report["tools"] if t["name"] == "task.deploy")
    assert entry["disable_model_invocation"] is True
    assert entry["user_invocable"] is False


# --- portable output ---------------------------------------------------------------


def test_no_absolute_path_in_any_artifact_and_the_package_moves(
    skills_project: Path,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    (skills_project / "pyproject.toml").write_text(
        '[tool.skillc]\nsources = ["skills"]\nbuiltins = ["file", "batch"]\n'
    )
    populate(
        skills_project,
        {
            "pdf/SKILL.md": OK.format(name="pdf"),
            "pdf/forms.md": "Forms.\n",
            "pdf/scripts/hello.py": 'print("hello")\n',
        },
    )
    absolute = str((skills_project / "skills").resolve())
    code, err = build(skills_project, capsys, "--source", absolute)
    assert code == 0, err
    out = skills_project / "generated"
    for path in out.rglob("*"):
        if path.is_file() and "__pycache__" not in path.parts:
            text = path.read_text(encoding="utf-8")
            assert str(skills_project) not in text, path
            assert "../<skillc>" not in text, path  # built-ins run in the package
    # The same build with a relative --source is up to date.
    code, err = build(skills_project, capsys, "--source", "skills", "--check")
    assert code == 0, err
    moved = tmp_path / "elsewhere"
    moved.mkdir()
    (out).rename(moved / "generated")
    result = run_python(
        "import generated, generated._settings, sys\n"
        "generated._settings.configure(source_root=sys.argv[1])\n"
        "i = generated.task.pdf.prepare()\n"
        "print(i.path('forms.md').read_text().strip())\n"
        "print(generated.pdf.hello().data)\n",
        moved,
        str(skills_project),
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["Forms.", "hello"]
    monkeypatch.setenv("SKILLC_SOURCE_ROOT", str(skills_project))
    result = run_python(
        "import generated\nprint(generated.task.pdf.prepare().path('forms.md').is_file())",
        moved,
    )
    assert result.stdout.split() == ["True"], result.stderr


# --- Level 2 is what a call loads --------------------------------------------------


def test_level2_budget_counts_the_body(
    skills_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    body = "Check the change carefully and report what you find.\n" * 1100  # 58 KB
    write_skill(
        skills_project / "skills",
        "big",
        "---\nname: big\ndescription: A big skill.\n---\n" + body,
    )
    code, err = build(skills_project, capsys)
    assert code == 0
    report = json.loads((skills_project / "generated" / "report.json").read_text())
    [counts] = report["budgets"]["tools"]
    assert (
        counts["level2"] > len(body) // 4 - 100
    )  # the body (estimate: 4 chars a token)
    # What Claude Code does with so long a skill: skillc check says it, with the rule.
    status, err = run_skillc(capsys, "-C", str(skills_project), "check")
    assert status == 0
    assert (
        "warning[compaction-cut]: claude-code at 200k (Sonnet 4.5's window): "
        "task.big's instructions are" in err
    )


def test_a_tool_and_a_namespace_may_share_a_name(
    skills_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Real catalogues hold both todo and todo.add."""
    tools = [
        {
            "name": "todo",
            "description": "List the todos.",
            "parameters": {
                "type": "object",
                "properties": {"done": {"type": "boolean"}},
            },
            "executor": HTTP,
        },
        {"name": "todo.add", "description": "Add a todo.", "executor": HTTP},
    ]
    manifest(skills_project / "skills" / "work", tools)
    code, err = build(skills_project, capsys)
    assert code == 0, err
    assert listing(skills_project) == ["work.todo", "work.todo.add"]
    result = run_python(
        "import sys; sys.ps1 = '>>> '\n"  # help() returns without printing
        "import generated\n"
        "print(generated.work.todo.arguments(done=True))\n"
        "print(generated.work.todo.spec.qualname)\n"
        "text = generated.work.todo.help()\n"
        "print('work.todo.add: Add a todo.' in text, 'work.todo: tool' in text)\n"
        "from generated._cli import find\n"
        "print(find('work.todo').spec.qualname, find('work.todo.add').spec.qualname)\n",
        skills_project,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        "{'done': True}",
        "work.todo",
        "True True",
        "work.todo work.todo.add",
    ]
    assert run_mypy(skills_project, "generated").returncode == 0
    names = json.loads(
        (skills_project / "generated" / "providers" / "names.json").read_text()
    )["to_provider"]
    assert names["work.todo"]["anthropic"] == "work__todo"
    assert names["work.todo.add"]["anthropic"] == "work__todo__add"


def test_commands_compile_and_a_skill_of_their_name_wins(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """.claude/commands: frontmatter optional, named by the file (subfolders do not
    count), the description defaults to the first line; a skill beats a command."""
    commands = tmp_path / ".claude" / "commands"
    (commands / "frontend").mkdir(parents=True)
    (commands / "review-pr.md").write_text("Review the pull request $ARGUMENTS.\n")
    (commands / "frontend" / "component.md").write_text(
        "---\ndescription: Make a component.\nargument-hint: '[name]'\n---\nMake $1.\n"
    )
    (commands / "deploy.md").write_text("Deploy from the command.\n")
    write_skill(tmp_path / ".claude" / "skills", "deploy", OK.format(name="deploy"))
    code, err = build(tmp_path, capsys)
    assert code == 0, err
    assert (
        ".claude/commands/deploy.md:1:1: warning[shadowed]: task.deploy: the skill "
        ".claude/skills/deploy/SKILL.md wins over this command" in err
    )
    assert listing(tmp_path) == ["task.component", "task.deploy", "task.review_pr"]
    result = run_python(
        "import generated\n"
        "print(generated.task.review_pr('42').instructions.strip())\n"
        "print(generated.task.deploy.prepare().instructions.strip())\n"
        "print([e.summary for e in generated.task.list()])\n",
        tmp_path,
    )
    assert result.stdout.splitlines() == [
        "Review the pull request 42.",
        "Body.",
        "['Make a component.', 'Does a thing.', 'Review the pull request $ARGUMENTS.']",
    ], result.stderr


def test_ignore_lets_a_strict_build_pass_on_an_accepted_deviation(
    skills_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Anthropic's own skills hold a 1,068-character description."""
    text = f"---\nname: s\ndescription: {'d' * 1068}\n---\nB.\n"
    write_skill(skills_project / "skills", "s", text)
    (skills_project / "pyproject.toml").write_text(
        '[tool.skillc]\nsources = ["skills"]\nstrict = true\n'
    )
    code, err = build(skills_project, capsys)
    assert code == 1 and "error[description-too-long]" in err
    (skills_project / "pyproject.toml").write_text(
        '[tool.skillc]\nsources = ["skills"]\nstrict = true\n'
        'ignore = ["description-too-long"]\n'
    )
    code, err = build(skills_project, capsys)
    assert code == 0, err
    assert "description-too-long" not in err
    assert listing(skills_project) == ["task.s"]


def test_ignore_accepts_a_code_no_build_reports_any_more(
    skills_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A configuration written for an older skillc keeps building: `budget-exceeded`
    gave way to skillc check's listing budgets, and ignoring it changes nothing."""
    populate(
        skills_project, {"good/SKILL.md": "---\nname: good\ndescription: D.\n---\nB.\n"}
    )
    (skills_project / "pyproject.toml").write_text(
        '[tool.skillc]\nsources = ["skills"]\nignore = ["budget-exceeded"]\n'
    )
    code, err = build(skills_project, capsys)
    assert code == 0, err
    (skills_project / "pyproject.toml").write_text(
        '[tool.skillc]\nsources = ["skills"]\nignore = ["budget-exceded"]\n'
    )
    assert build(skills_project, capsys)[0] == 2
