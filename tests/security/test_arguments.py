"""Only declared arguments reach an executor, and a value never becomes an option:
templates decide the argument list, arguments only fill its slots."""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import run_python, run_skillc
from security_kit import PWNED, canary, guarded, one_tool_project, returns  # noqa: F401


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


def test_long_skill_arguments_are_split_in_linear_time(guarded: Any) -> None:
    # shlex builds a word a character at a time: minutes for three megabytes.
    word = "a" * 3_000_000
    invocation = returns(lambda: guarded.task.echo.prepare(f"{word} \"b c\" 'd'"))
    assert invocation.arguments == (word, "b c", "d")
    # batch.run splits its command so too (a word may not pass 128 KiB on Linux)
    words = " ".join(["b" * 100_000] * 15)
    command = guarded.batch.run.using(confirm=True)
    result = returns(lambda: command(command=f"true {words}"))
    assert result.ok and result.data["exit_code"] == 0, result


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=" \t\r\n\x0b'\"\\ab", max_size=16))
def test_arguments_split_as_shlex_splits_them(guarded: Any, text: str) -> None:
    try:
        expected: Any = shlex.split(text)
    except ValueError as exc:
        expected = str(exc)
    try:
        split: Any = guarded._tasks.split_words(text)
    except ValueError as exc:
        split = str(exc)
    assert split == expected


def test_arguments_nested_past_pythons_limit_from_a_shell_are_an_error(
    guarded: Any,
) -> None:
    project = Path(guarded.__file__).parent.parent
    deep = "[" * 60_000 + "]" * 60_000  # one word of a command line: under 128 KiB
    done = run_python(
        "", project, "-m", "guarded", "call", "hostile.argv", "--words", deep
    )
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "error[invalid-arguments]: --words: nested too deep" in done.stdout


def test_find_tool_reads_only_the_first_thousand_characters(guarded: Any) -> None:
    purpose = "read a file " * 100
    assert len(purpose) >= 1000
    first = guarded.find_tool(purpose)
    assert guarded.find_tool(purpose + " grep search text " * 200_000) == first
