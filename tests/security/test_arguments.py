"""Only declared arguments reach an executor, and a value never becomes an option:
templates decide the argument list, arguments only fill its slots."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from conftest import run_skillc
from security_kit import PWNED, canary, guarded, one_tool_project  # noqa: F401

import pytest


def _argv(result: Any) -> list[str]:
    assert result.ok, result
    return list(json.loads(result.data))


def test_undeclared_key_never_becomes_a_flag(guarded: Any) -> None:
    answer = guarded.dispatch(
        "anthropic",
        {
            "id": "t1",
            "name": "hostile__clone",
            "input": {"repo": "x", "upload-pack": f"touch {PWNED}"},
        },
    )
    assert answer["is_error"] is True
    assert "upload-pack: unknown argument" in answer["content"]


def test_undeclared_key_allowed_by_the_schema_still_never_becomes_a_flag(
    guarded: Any,
) -> None:
    result = guarded.hostile.loose.call_raw({"name": "n", "upload-pack": "touch x"})
    assert _argv(result) == ["--name=n"]


def test_positional_value_starting_with_dash_goes_after_double_dash(
    guarded: Any,
) -> None:
    argv = _argv(guarded.hostile.clone(repo="--version"))
    assert argv == ["--", "--version"]


def test_option_value_starting_with_dash_stays_in_its_option(guarded: Any) -> None:
    argv = _argv(
        guarded.hostile.clone(repo="r", branch="--upload-pack=touch x", quiet=True)
    )
    assert argv == ["--branch=--upload-pack=touch x", "--quiet", "--", "r"]


def test_script_value_starting_with_dash_is_refused_before_double_dash(
    guarded: Any,
) -> None:
    refused = guarded.hostile.argv(words=["--version"])
    assert (
        refused.error.code == "invalid-arguments"
        and "--version" in refused.error.message
    )
    after = _argv(guarded.hostile.argv(files=["-rf", "--help"]))
    assert after == ["--", "-rf", "--help"]


def test_missing_optional_argument_drops_its_whole_argv_item(guarded: Any) -> None:
    assert _argv(guarded.hostile.argv()) == ["--"]
    assert _argv(guarded.hostile.argv(page=3, words=["a b"])) == [
        "--page=3",
        "a b",
        "--",
    ]


@pytest.mark.parametrize(
    "executor, message",
    [
        (
            '{type: script, entry: s.py, args_template: ["--x={x}", "{y}"]}',
            "t.tools.yaml:7:70: error[executor-invalid]: {y} names no declared parameter",
        ),
        (
            '{type: http, url: "http://127.0.0.1/{{x}}"}',
            "t.tools.yaml:7:33: error[executor-invalid]: '{{x}}' is not a skillc "
            "placeholder; write {x}",
        ),
        (
            '{type: http, url: "http://127.0.0.1/", headers_template: {A: "{z}"}}',
            "t.tools.yaml:7:76: error[executor-invalid]: {z} names no declared",
        ),
        (
            '{type: http, url: "http://127.0.0.1/", body_template: {a: ["{{ x }}"]}}',
            "error[executor-invalid]: '{{ x }}' is not a skillc placeholder",
        ),
        (
            "{type: cli, command: [ls], positional: [nope]}",
            "t.tools.yaml:7:55: error[executor-invalid]: positional 'nope' is not a "
            "declared parameter",
        ),
    ],
)
def test_template_placeholder_of_no_parameter_is_a_build_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], executor: str, message: str
) -> None:
    schema = "{type: object, properties: {x: {type: string}}}"
    project = one_tool_project(tmp_path, schema, executor)
    status, err = run_skillc(capsys, "-C", str(project), "build")
    assert status == 1 and message in err, err
    assert not (project / "out").exists()
