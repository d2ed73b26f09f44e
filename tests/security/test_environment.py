"""What a script or command sees of the environment: the allowlisted variables, and
the ones its manifest names, whose values never come back to the model."""

from __future__ import annotations

import json
import sys
from typing import Any

import pytest

from security_kit import SECRETS, canary, guarded  # noqa: F401 - fixtures

PRINT_ENVIRONMENT = "import json, os; print(json.dumps(dict(os.environ)))"


@pytest.fixture
def unlisted(monkeypatch: pytest.MonkeyPatch) -> str:
    """A credential of the host that no manifest names."""
    monkeypatch.setenv("SKILLC_TEST_HOST_SECRET", "host-secret-5a0f3c")
    return "host-secret-5a0f3c"


def test_a_script_sees_only_the_allowlisted_environment(
    guarded: Any, unlisted: str
) -> None:
    result = guarded.hostile.environ()
    assert result.ok
    seen = json.loads(result.data)
    assert "PATH" in seen
    assert not {"SKILLC_TEST_HOST_SECRET", *SECRETS} & set(seen)
    assert unlisted not in result.data
    assert all(secret not in result.data for secret in SECRETS.values())


def test_a_command_sees_only_the_allowlisted_environment(
    guarded: Any, unlisted: str
) -> None:
    run = guarded.batch.run.using(confirm=True)
    result = run(command=[sys.executable, "-c", PRINT_ENVIRONMENT])
    assert result.ok and result.data["exit_code"] == 0, result
    seen = json.loads(result.data["stdout"])
    assert "PATH" in seen and "SKILLC_TEST_HOST_SECRET" not in seen
    assert not set(SECRETS) & set(seen)


def test_a_variable_the_manifest_names_is_passed_and_redacted(
    guarded: Any, unlisted: str
) -> None:
    result = guarded.hostile.environ_named()
    assert result.ok
    seen = json.loads(result.data)
    assert seen["SECURITY_TEST_KEY"] == "[redacted]"
    assert "SECURITY_TEST_TOKEN" not in seen and "SKILLC_TEST_HOST_SECRET" not in seen
    assert SECRETS["SECURITY_TEST_KEY"] not in result.data
