"""The loaders never crash: any SKILL.md or subagent text gives diagnostics and exit 0 or
1, never an internal error (exit 3) or a traceback."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skillc import cli
from skillc.loaders.agent import KNOWN_KEYS as AGENT_KEYS
from skillc.loaders.skill import CLAUDE_CODE_KEYS, SEED_KEYS, SPEC_KEYS

# Every key the skill and subagent loaders know, plus unknown and indented ones.
KEYS = sorted(SPEC_KEYS | CLAUDE_CODE_KEYS | SEED_KEYS | AGENT_KEYS)
scalars = st.one_of(
    st.text(max_size=30),
    st.integers(),
    st.booleans(),
    st.none(),
    st.sampled_from(
        [
            "[a, b]",
            "{k: v}",
            "&a x",
            "*a",
            "'quoted",
            '"',
            ": colon",
            "- item",
            "|",
            ">",
        ]
    ),
)
lines = st.lists(
    st.tuples(st.sampled_from(KEYS + ["x-odd", "  nested"]), scalars), max_size=8
)


def frontmatter(pairs: list[tuple[str, object]]) -> str:
    return "".join(f"{key}: {value}\n" for key, value in pairs)


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    pairs=lines,
    body=st.text(max_size=50),
    agent=st.booleans(),
    raw=st.binary(max_size=40),
)
def test_random_frontmatter_never_crashes(
    pairs: list[tuple[str, object]], body: str, agent: bool, raw: bytes
) -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        folder = root / "skills" / ("agents" if agent else "s")
        folder.mkdir(parents=True)
        target = folder / ("a.md" if agent else "SKILL.md")
        target.write_bytes(
            f"---\n{frontmatter(pairs)}---\n{body}".encode("utf-8", "surrogatepass")
            + raw
        )
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            status = cli.main(["-C", str(root), "build", "--no-cache"])
        assert status in (0, 1), err.getvalue()
        assert "Traceback" not in err.getvalue()


@settings(max_examples=150, deadline=None)
@given(
    text=st.text(alphabet="abn:-[]{}&*!|>'\"# \n\t%@`,?\\", max_size=120),
    agent=st.booleans(),
)
def test_random_yaml_punctuation_never_crashes(text: str, agent: bool) -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        folder = root / "skills" / ("agents" if agent else "s")
        folder.mkdir(parents=True)
        (folder / ("a.md" if agent else "SKILL.md")).write_text(
            f"---\nname: s\n{text}\n---\nBody\n"
        )
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            status = cli.main(["-C", str(root), "validate"])
        assert status in (0, 1), err.getvalue()
