"""Dangerous tools run only when the host approves the very call: by a callable given to
``dispatch``, or by the package's confirmation policy."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from security_kit import canary, guarded  # noqa: F401 - fixtures

CALL = {"id": "w", "name": "hostile__wipe", "input": {"target": "everything"}}


@pytest.fixture
def policy(guarded: Any) -> Iterator[Any]:
    yield guarded.set_confirm_policy
    guarded.set_confirm_policy(None)


def test_dangerous_tool_needs_confirmation_by_default(guarded: Any) -> None:
    answer = guarded.dispatch("anthropic", CALL)
    assert answer["is_error"] and "confirmation-required" in answer["content"]


def test_confirm_callable_sees_tool_arguments_and_reason(guarded: Any) -> None:
    asked: list[Any] = []

    def approve(request: Any) -> bool:
        asked.append(request)
        return True

    answer = guarded.dispatch("anthropic", CALL, confirm=approve)
    assert not answer["is_error"] and answer["content"] == "wiped -- everything\n"
    (request,) = asked
    assert request.tool == "hostile.wipe"
    assert request.arguments == {"target": "everything"}
    assert "dangerous" in request.reason


@pytest.mark.parametrize("answer", [False, None, "yes", 1])
def test_anything_but_true_denies(guarded: Any, answer: Any) -> None:
    result = guarded.dispatch("anthropic", CALL, confirm=lambda request: answer)
    assert result["is_error"] and "confirmation-required" in result["content"]


def test_a_policy_that_raises_denies(guarded: Any) -> None:
    def broken(request: Any) -> bool:
        raise RuntimeError("policy store offline")

    result = guarded.dispatch("anthropic", CALL, confirm=broken)
    assert result["is_error"] and "confirmation-required" in result["content"]


def test_package_policy_approves_dispatch_calls(guarded: Any, policy: Any) -> None:
    policy(lambda request: request.arguments.get("target") == "everything")
    assert not guarded.dispatch("anthropic", CALL)["is_error"]
    other = {**CALL, "input": {"target": "else"}}
    assert guarded.dispatch("anthropic", other)["is_error"]
    # an explicit denial for one call wins over the package's policy
    assert guarded.dispatch("anthropic", CALL, confirm=lambda request: False)[
        "is_error"
    ]
