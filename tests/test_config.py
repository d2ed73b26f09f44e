"""Each ``[tool.skillc]`` setting is declared once, as a field of the pydantic model
``generator/settings.py::Settings`` (its key, type, default, bounds and doc), and read
from there: the README's key block says what the declaration says, the JSON Schema
published for editors is made from it, every setting is read, checked and recorded
from it, and a bad value is an error located in pyproject.toml."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

import pytest

from conftest import REPO, configured, run_python
from skillc import config, settings

TABLES = {"profiles", "conflicts", "check"}  # documented beside the block, as tables
SCHEMA = REPO / "generator" / "schemas" / "skillc-settings.schema.json"


def _readme_block() -> list[tuple[str, str, str]]:
    """(key, value, comment) of each line of the README's ``[tool.skillc]`` block."""
    text = (REPO / "README.md").read_text(encoding="utf-8")
    block = text.split("**Configure**", 1)[1].split("```toml\n", 1)[1]
    block = block.split("```", 1)[0]
    lines = block.splitlines()
    assert lines[0] == "[tool.skillc]"
    found = []
    for line in lines[1:]:
        match = re.fullmatch(r"(\S+) = (.+?)\s+# (.+)", line)
        assert match is not None, line
        found.append((match[1], match[2], match[3]))
    return found


def test_the_readme_key_block_is_the_declaration() -> None:
    """Every setting appears once, with its default (or the example the declaration
    gives) and its doc, in the order of the declaration; nothing else does."""
    declared = {
        field.alias: field
        for name, field in settings.Settings.model_fields.items()
        if name not in TABLES
    }
    block = _readme_block()
    assert [key for key, _, _ in block] == list(
        declared
    ), "the README's [tool.skillc] block and generator/settings.py's fields differ"
    for key, value, comment in block:
        field = declared[key]
        expected = field.examples[0] if field.examples else field.default
        actual = tomllib.loads(f"v = {value}")["v"]
        if isinstance(expected, tuple):
            expected = list(expected)
        assert actual == expected, key
        assert comment == field.description, key


def test_the_published_schema_is_the_declaration() -> None:
    """generator/schemas/skillc-settings.schema.json, which `skillc schema
    skillc-settings` prints for editors, is what the model makes now, and it accepts
    this repository's own [tool.skillc] and the README's block."""
    made = json.dumps(settings.schema(), indent=2, ensure_ascii=False) + "\n"
    assert (
        SCHEMA.read_text(encoding="utf-8") == made
    ), "stale: python -m skillc.settings > generator/schemas/skillc-settings.schema.json"
    import jsonschema

    schema = json.loads(made)
    own = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["skillc"]
    block = tomllib.loads("\n".join(f"{k} = {v}" for k, v, _ in _readme_block()))
    for table in (own, block, {"profiles": {"support": {"provider": "anthropic"}}}):
        jsonschema.validate(table, schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"max-read-bytes": 0}, schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"profiles": {"a": {"colour": 1}}}, schema)


def test_every_setting_is_read_and_recorded(tmp_path: Path) -> None:
    """A value given for each setting in pyproject.toml is the one the configuration
    holds, and the lock records each setting that shapes the output."""
    (tmp_path / "skills").mkdir()
    (tmp_path / "pyproject.toml").write_text(
        "[tool.skillc]\n"
        'sources = ["skills"]\nout = "gen"\npackage = "kit"\nstrict = true\n'
        'exclude = ["vendor/**"]\nignore = ["non-spec-key"]\n'
        "warnings-as-errors = true\nmax-file-bytes = 7\n"
        'builtins = ["db", "file"]\nmax-namespace-depth = 3\n'
        'install-allowlist = []\nfile-root = "w"\ndb-path = "w/a.db"\n'
        "max-read-bytes = 9\nmax-write-bytes = 8\ndefault-timeout-sec = 5\n"
        "max-output-bytes = 11\nkeep-going = true\n"
        'token-counter = "o200k_base"\nprovider-name-limit = 40\n'
        'always-loaded = ["a.b"]\nlock-wait-sec = 2\ndiscard-unowned-files = true\n'
        'out-outside-project = true\nregenerate = "make"\nfind-tool = "lexical"\n'
        'find-tool-encoder = "all-minilm-l6-v2-int8"\n'
        f'find-tool-encoder-hub = "org/model@{"ab" * 20}"\n'
        'find-tool-fallback = "hybrid"\n'
        "well-known-index = true\n"
        'harnesses = ["codex", "claude-code"]\n'
        'harness-packages = ["openai-skills", "codex", "codex"]\n'
        'harness-root-files = ["codex"]\n'
        '[tool.skillc.profiles.support]\nprovider = "anthropic"\n',
        encoding="utf-8",
    )
    cfg = configured(tmp_path)
    assert (cfg.package, cfg.strict, cfg.max_depth, cfg.builtins) == (
        "kit",
        True,
        3,
        ("file", "db"),
    )
    assert (cfg.lock_wait_sec, cfg.discard_unowned, cfg.out_outside_project) == (
        2,
        True,
        True,
    )
    assert (cfg.max_write_bytes, cfg.keep_going) == (8, True)
    recorded = cfg.as_json()
    assert recorded["max-output-bytes"] == 11 and recorded["find-tool"] == "lexical"
    assert cfg.well_known_index is True and recorded["well-known-index"] is True
    assert recorded["profiles"][0]["provider"] == "anthropic"
    assert "lock-wait-sec" not in recorded and recorded["module"] == "kit"
    assert recorded["max-write-bytes"] == 8 and "keep-going" not in recorded
    # The encoder is recorded only in model mode, so that other locks stay as they were.
    assert cfg.find_tool_encoder == "all-minilm-l6-v2-int8"
    assert "find-tool-encoder" not in recorded
    assert (cfg.find_tool_encoder_hub, cfg.find_tool_fallback) == (
        f"org/model@{'ab' * 20}",
        "hybrid",
    )
    assert "find-tool-encoder-hub" not in recorded
    assert "find-tool-fallback" not in recorded
    # The clients followed, in the harness model's order; recorded when set.
    assert cfg.harnesses == ("claude-code", "codex")
    assert recorded["harnesses"] == ["claude-code", "codex"]
    # Each once, in the setting's order.
    assert recorded["harness-packages"] == ["codex", "openai-skills"]
    assert recorded["harness-root-files"] == ["codex"]
    given = {key for key, _, _ in _readme_block()}
    written = set(
        tomllib.loads((tmp_path / "pyproject.toml").read_text())["tool"]["skillc"]
    )
    assert given <= written


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("max-read-bytes = 0", "max-read-bytes must be a positive integer"),
        ("strict = 1", "strict must be true or false"),
        ('find-tool = "dense"', "find-tool must be one of hybrid, lexical"),
        ('ignore = ["no-such-code"]', "unknown diagnostic code(s) no-such-code"),
        ("colour = true", "unknown [tool.skillc] key(s): colour"),
        ("sources = []", "sources must be a non-empty list of strings"),
        ('builtins = ["net"]', "builtins must be one of file, batch, db"),
        ('find-tool-encoder = "../x"', "find-tool-encoder must be an encoder's name"),
        (
            'harness-root-files = ["cursor"]',
            "harness-root-files cursor: not in harness-packages",
        ),
        (
            'harness-root-files = ["codex"]\nharness-packages = ["codex"]',
            "harness-root-files needs sources set, none of them the project root",
        ),
        (
            'find-tool-encoder-hub = "org/model@main"',
            "find-tool-encoder-hub must be <model id>@<its 40-hex commit>",
        ),
        ('find-tool-fallback = "lexical"', "find-tool-fallback must be one of none"),
        (
            'harnesses = ["codx"]',
            "unknown client(s) codx (did you mean 'codex'?); one of claude-code, codex",
        ),
    ],
)
def test_a_bad_value_is_an_error_at_its_line(
    tmp_path: Path, line: str, message: str
) -> None:
    (tmp_path / "skills").mkdir()
    (tmp_path / "pyproject.toml").write_text(
        f'[project]\nname = "x"\n\n[tool.skillc]\n{line}\n'
    )
    with pytest.raises(config.SettingsError) as raised:
        configured(tmp_path)
    assert str(raised.value).startswith("pyproject.toml:5:1: error[invalid-setting]: ")
    assert message in str(raised.value)


def test_every_bad_setting_is_said_at_once_without_a_traceback(tmp_path: Path) -> None:
    """In a fresh process, as a user meets it: one located line per bad value, in the
    order of the file, a table's key at its own line, exit status 2."""
    (tmp_path / "skills").mkdir()
    (tmp_path / "pyproject.toml").write_text(
        "[tool.skillc]\n"
        "strict = 1\n"
        "keep_going = true\n"
        "\n"
        "[tool.skillc.profiles.support]\n"
        'provider = "anthropic"\n'
        "colour = 1\n",
        encoding="utf-8",
    )
    done = run_python("", tmp_path, "-m", "skillc", "build")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.splitlines() == [
        "pyproject.toml:2:1: error[invalid-setting]: [tool.skillc] strict must be true "
        "or false",
        "pyproject.toml:3:1: error[invalid-setting]: unknown [tool.skillc] key(s): "
        "keep_going (did you mean 'keep-going'?)",
        "pyproject.toml:7:1: error[invalid-setting]: [tool.skillc.profiles.support] "
        "unknown key(s): colour",
    ]


def test_a_no_op_reads_no_settings(tmp_path: Path) -> None:
    """The settings a build read are kept with the text they were read from: a
    rebuild with nothing to do imports neither pydantic nor the settings' model."""
    (tmp_path / "skills").mkdir()
    (tmp_path / "pyproject.toml").write_text('[tool.skillc]\nsources = ["skills"]\n')
    code = (
        "import sys; from skillc import cli; status = cli.main(['build']); "
        "print(status, sorted(m for m in sys.modules if m.startswith(('pydantic', "
        "'skillc.settings', 'tomllib'))))"
    )
    assert run_python(code, tmp_path).returncode == 0
    done = run_python(code, tmp_path)
    assert "is up to date" in done.stderr, done.stderr
    assert done.stdout.split(maxsplit=1) == ["0", "[]\n"]
