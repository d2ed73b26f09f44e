"""Codex's ``agents/openai.yaml`` within the window OpenAI's skill-creator gives a
short description (25 to 64 characters), every string quoted."""

from __future__ import annotations

import pytest
import yaml

from skillc.emitters.packages import codex
from skillc.emitters.packages.common import Member
from skillc.ir import Position


@pytest.mark.parametrize(
    ("description", "short"),
    [
        (
            "Greets someone by name in the house style. Warmly.",
            "Greets someone by name in the house style.",
        ),
        ("Greets. Someone, by name, warmly.", "Greets. Someone, by name, warmly."),
        ("Greets.", None),
        (
            "Greets someone by name in the house style of the team, warmly and "
            "briefly.",
            "Greets someone by name in the house style of the team, warmly…",
        ),
    ],
)
def test_codex_short_description_is_25_to_64_characters_or_none(
    description: str, short: str | None
) -> None:
    member = Member("skill", "greeter", description, "t", Position("s", 1, 1), {}, ())
    written = codex.openai_yaml(member).decode()
    assert '  display_name: "Greeter"' in written.splitlines()
    interface = yaml.safe_load(written)["interface"]
    assert interface.get("short_description") == short
    if short is not None:
        assert 25 <= len(short) <= 64
