"""Bad tool manifests: one case per rule, each a located diagnostic and never a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import run_skillc
from test_bad_input import populate

TOOL = "namespace: ns\ntools:\n  - name: t\n    description: Does a thing.\n{rest}"
PY = "    executor: {type: python, function: 'm:f'}\n"


def tools(schema: str, executor: str = PY) -> str:
    return TOOL.format(rest=f"    input_schema: {schema}\n{executor}")


# (case id, {path below skills/: content}, expected diagnostic prefix, exit status)
CASES: list[tuple[str, dict[str, str], str, int]] = [
    (
        "unknown-key",
        {"a.tools.yaml": TOOL.format(rest=PY + "    colour: red\n")},
        "skills/a.tools.yaml:3:5: error[manifest-invalid]: tools[0]: unknown key ('colour' was unexpected)",
        1,
    ),
    (
        "missing-description",
        {"a.tools.yaml": "namespace: ns\ntools:\n  - name: t\n" + PY},
        "skills/a.tools.yaml:3:5: warning[missing-description]: 't' has no description; Level 1 shows its name",
        0,
    ),
    (
        "bad-executor-type",
        {"a.tools.yaml": TOOL.format(rest="    executor: {type: ftp}\n")},
        "skills/a.tools.yaml:5:22: error[manifest-invalid]: tools[0].executor.type: 'ftp' is not one of",
        1,
    ),
    (
        "yaml-syntax",
        {"a.tools.yaml": "namespace: ns\ntools: [\n"},
        "skills/a.tools.yaml:3:1: error[yaml-syntax]",
        1,
    ),
    (
        "yaml-duplicate-key",
        {"a.tools.yaml": "namespace: ns\nnamespace: other\ntools: []\n"},
        "skills/a.tools.yaml:2:1: error[yaml-duplicate-key]",
        1,
    ),
    (
        "not-a-mapping",
        {"a.tools.yaml": "- just\n- a list\n"},
        "skills/a.tools.yaml:1:1: error[manifest-invalid]: a manifest must be a YAML mapping",
        1,
    ),
    (
        "unknown-type",
        {"a.tools.yaml": tools("{type: object, properties: {x: {type: banana}}}")},
        "skills/a.tools.yaml:5:57: warning[schema-normalised]: tools[0].input_schema.properties.x.type: type 'banana' is not a JSON Schema type; read as any value",
        0,
    ),
    (
        "remote-ref",
        {
            "a.tools.yaml": tools(
                "{type: object, properties: {x: {$ref: 'http://e.com/s'}}}"
            )
        },
        "skills/a.tools.yaml:5:57: error[schema-invalid]: tools[0].input_schema.properties.x.$ref: only references inside the schema",
        1,
    ),
    (
        "dangling-ref",
        {
            "a.tools.yaml": tools(
                "{type: object, properties: {x: {$ref: '#/$defs/nope'}}}"
            )
        },
        "skills/a.tools.yaml:5:57: error[schema-invalid]: tools[0].input_schema.properties.x.$ref: #/$defs/nope points at nothing",
        1,
    ),
    (
        "root-not-object",
        {"a.tools.yaml": tools("{type: string}")},
        "skills/a.tools.yaml:5:26: error[schema-invalid]: tools[0].input_schema.type: the root of an input schema must be of type object",
        1,
    ),
    (
        "not-json-schema",
        {
            "a.tools.yaml": tools(
                "{type: object, properties: {n: {type: integer, minimum: low}}}"
            )
        },
        'skills/a.tools.yaml:5:75: error[schema-invalid]: tools[0].input_schema.properties.n.minimum: not a valid JSON Schema: "low" is not of type "number"',
        1,
    ),
    (
        "unknown-meta-schema",
        {"a.tools.yaml": tools("{$schema: 'http://example.com/s', type: object}")},
        "skills/a.tools.yaml:5:29: error[schema-invalid]: tools[0].input_schema.$schema: unknown $schema",
        1,
    ),
    (
        "bad-output-schema",
        {"a.tools.yaml": TOOL.format(rest="    output_schema: {type: 7}\n" + PY)},
        "skills/a.tools.yaml:5:27: error[schema-invalid]: tools[0].output_schema.type: not a valid JSON Schema",
        1,
    ),
    (
        "normalised-type",
        {"a.tools.yaml": tools("{type: object, properties: {x: {type: str}}}")},
        "skills/a.tools.yaml:5:57: warning[schema-normalised]: tools[0].input_schema.properties.x.type: type 'str' is read as 'string'",
        0,
    ),
    (
        "duplicate-tool",
        {
            "a.tools.yaml": TOOL.format(rest=PY)
            + "  - name: t\n    description: Again.\n"
            + PY
        },
        "skills/a.tools.yaml:6:11: error[duplicate-tool]: tool 't' is also defined on line 3 of this file",
        1,
    ),
    (
        "duplicate-command-id",
        {
            "x/ai-tool.yaml": "schema_version: '1.0'\ntool: {name: x}\ncommands:\n"
            "  - {id: 'x:a', description: A., cli_command: x a}\n"
            "  - {id: 'x:a', description: B., cli_command: x b}\n"
        },
        "skills/x/ai-tool.yaml:5:10: error[duplicate-tool]: command id 'x:a' is also used on line 4 of this file",
        1,
    ),
    (
        "command-id-other-prefix",
        {
            "x/ai-tool.yaml": "schema_version: '1.0'\ntool: {name: x}\ncommands:\n"
            "  - {id: 'y:a', description: A., cli_command: x a}\n"
        },
        "skills/x/ai-tool.yaml:4:10: error[invalid-tool-id]: command id 'y:a' carries another tool's prefix: in tool 'x' it must read x:a",
        1,
    ),
    (
        "schema-version-unknown-major",
        {
            "x/ai-tool.yaml": "schema_version: '2.0'\ntool: {name: x}\ncommands:\n"
            "  - {id: 'x:a', description: A., cli_command: x a}\n"
        },
        "skills/x/ai-tool.yaml:1:17: error[manifest-invalid]: schema_version '2.0': only major version 1 is understood",
        1,
    ),
    (
        "empty-manifest",
        {"x/ai-tool.yaml": "# nothing yet\n"},
        "skills/x/ai-tool.yaml:1:1: warning[manifest-empty]: the manifest is empty; skipped",
        0,
    ),
    (
        "install-not-allowed",
        {
            "x/ai-tool.yaml": "schema_version: '1.0'\ntool: {name: x}\n"
            "install: {pip: 'git+https://evil.example/x.git'}\ncommands:\n"
            "  - {id: 'x:a', description: A., cli_command: x a}\n"
        },
        "skills/x/ai-tool.yaml:3:16: error[install-not-allowed]: install source 'evil.example/x.git' is not in the install-allowlist (pypi:*)",
        1,
    ),
    (
        "script-id-too-long",
        {
            "a-very-long-skill-name-for-pdf-extraction/SKILL.md": "---\nname: a-very-long-skill-name-for-pdf-extraction\ndescription: D.\n---\nB.\n",
            "a-very-long-skill-name-for-pdf-extraction/scripts/extract_all_the_text.py": "print(1)\n",
        },
        "skills/a-very-long-skill-name-for-pdf-extraction/scripts/extract_all_the_text.py:1:1: error[invalid-tool-id]: skill 'a-very-long-skill-name-for-pdf-extraction', script 'scripts/extract_all_the_text.py': tool id 'a-very-long-skill-name-for-pdf-extraction__extract_all_the_text' is 63 characters; the limit is 60",
        1,
    ),
    (
        "script-id-bad-characters",
        {
            "pdf/SKILL.md": "---\nname: pdf\ndescription: D.\n---\nB.\n",
            "pdf/scripts/extract.v2.py": "print(1)\n",
        },
        "skills/pdf/scripts/extract.v2.py:1:1: error[invalid-tool-id]: skill 'pdf', script 'scripts/extract.v2.py': tool id 'pdf__extract.v2' must match",
        1,
    ),
    (
        "url-scheme",
        {
            "w/tool-manifest.yaml": "tools:\n  - name: t\n    description: D.\n"
            "    executor: {type: http, url: 'file:///etc/passwd'}\n"
        },
        "skills/w/tool-manifest.yaml:4:33: error[executor-invalid]: url 'file:///etc/passwd' must be an http or https URL",
        1,
    ),
    (
        "entry-outside",
        {
            "w/tool-manifest.yaml": "tools:\n  - name: t\n    description: D.\n"
            "    executor: {type: script, entry: ../../bin/x}\n"
        },
        "skills/w/tool-manifest.yaml:4:37: error[executor-invalid]: entry '../../bin/x' must be a path inside",
        1,
    ),
    (
        "no-executor",
        {"w/tool-manifest.yaml": "tools:\n  - name: t\n    description: D.\n"},
        "skills/w/tool-manifest.yaml:2:5: error[manifest-invalid]: the tool has no executor",
        1,
    ),
    (
        "alias-and-name",
        {
            "w/tool-manifest.yaml": "tools:\n  - name: t\n    description: D.\n"
            "    input_schema: {type: object}\n    parameters: {type: object}\n"
            "    executor: {type: http, url: 'https://e.com'}\n"
        },
        "skills/w/tool-manifest.yaml:5:17: error[manifest-invalid]: give input_schema or its alias parameters, not both",
        1,
    ),
    (
        "too-deep",
        {
            "a.tools.yaml": "namespace: a.b.c.d\n"
            + TOOL.format(rest=PY).split("\n", 1)[1]
        },
        "skills/a.tools.yaml:3:11: error[namespace-too-deep]: a.b.c.d.t has 5 dotted levels; the limit is 4: raise it with max-namespace-depth = 5 under [tool.skillc] in pyproject.toml",
        1,
    ),
    (
        "parameter-collision",
        {
            "a.tools.yaml": tools(
                "{type: object, properties: {a-b: {type: string}, a_b: {type: string}}}"
            )
        },
        "skills/a.tools.yaml:3:11: error[identifier-collision]: properties 'a-b' and 'a_b' of ns.t both become the parameter a_b",
        1,
    ),
    (
        "alias-collision",
        {
            "a.tools.yaml": TOOL.format(rest=PY + "    aliases: [ns.u]\n")
            + "  - name: u\n    description: U.\n"
            + PY
        },
        "skills/a.tools.yaml:3:11: error[identifier-collision]: alias ns.u of ns.t is already ns.u",
        1,
    ),
    (
        "not-a-json-value",
        {
            "a.tools.yaml": TOOL.replace("Does a thing.", "!!binary aGVsbG8=").format(
                rest=PY
            )
        },
        "skills/a.tools.yaml:4:18: error[manifest-invalid]: tools[0].description: not a JSON value (bytes)",
        1,
    ),
    (
        # JSON Schema's patterns are ECMA-262: $ is the end of the text, never a
        # newline before it (as in Python's re)
        "example-pattern-end",
        {
            "a.tools.yaml": tools(
                "{type: object, properties: {s: {pattern: '^[a-z]+$'}}}"
            )
            + "    examples: ['ns.t(s=\"ab\\n\")']\n"
        },
        'skills/a.tools.yaml:7:16: error[invalid-example]: \'ns.t(s="ab\\\\n")\': s: "ab\\n" does not match "^[a-z]+$"',
        1,
    ),
    (
        "shadowed-by-builtin",
        {
            "file.tools.yaml": "namespace: file\ntools:\n  - name: read\n    description: Mine.\n"
            + PY
        },
        "skills/file.tools.yaml:3:11: warning[shadowed]: file.read is a built-in tool, which wins; this one is left out",
        0,
    ),
]


@pytest.mark.parametrize(
    ("files", "expected", "status"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_manifest_diagnostic(
    skills_project: Path,
    capsys: pytest.CaptureFixture[str],
    files: dict[str, str],
    expected: str,
    status: int,
) -> None:
    (skills_project / "pyproject.toml").write_text(
        '[tool.skillc]\nsources = ["skills"]\nbuiltins = ["file"]\n'
    )
    populate(skills_project, files)
    code, err = run_skillc(capsys, "-C", str(skills_project), "build")
    assert "Traceback" not in err
    assert any(line.startswith(expected) for line in err.splitlines()), err
    assert code == status, err
    assert (skills_project / "generated").exists() == (status == 0)


def test_a_deeper_namespace_is_allowed_when_configured(
    skills_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (skills_project / "pyproject.toml").write_text(
        '[tool.skillc]\nsources = ["skills"]\nmax-namespace-depth = 5\n'
    )
    populate(
        skills_project,
        {
            "a.tools.yaml": "namespace: a.b.c.d\n"
            + TOOL.format(rest=PY).split("\n", 1)[1]
        },
    )
    code, err = run_skillc(capsys, "-C", str(skills_project), "build")
    assert code == 0, err
    assert (skills_project / "generated" / "a" / "b" / "c" / "d" / "_t.py").is_file()
