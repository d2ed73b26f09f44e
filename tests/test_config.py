"""Each ``[tool.skillc]`` setting is declared once (generator/config.py: its key, type,
default and doc) and read from there: the README's key block says what the
declaration says, and every setting is read, checked and recorded from it."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from conftest import REPO
from skillc import config

TABLES = {"profiles", "conflicts", "check"}  # documented beside the block, as tables


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
    declared = {config.key_of(s): s for s in config.settings() if s.name not in TABLES}
    block = _readme_block()
    assert [key for key, _, _ in block] == list(
        declared
    ), "the README's [tool.skillc] block and generator/config.py's settings differ"
    for key, value, comment in block:
        setting = declared[key]
        shown = setting.metadata["shown"] or None
        expected = tomllib.loads(f"v = {shown}")["v"] if shown else setting.default
        actual = tomllib.loads(f"v = {value}")["v"]
        if isinstance(expected, tuple):
            expected = list(expected)
        assert actual == expected, key
        assert comment == setting.metadata["doc"], key


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
        "well-known-index = true\n"
        '[tool.skillc.profiles.support]\nprovider = "anthropic"\n',
        encoding="utf-8",
    )
    cfg = config.load(tmp_path)
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
    ],
)
def test_a_bad_value_is_a_configuration_error(
    tmp_path: Path, line: str, message: str
) -> None:
    (tmp_path / "skills").mkdir()
    (tmp_path / "pyproject.toml").write_text(f"[tool.skillc]\n{line}\n")
    with pytest.raises(config.ConfigError, match=re.escape(message)):
        config.load(tmp_path)
