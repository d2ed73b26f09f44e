"""No credential of a URL in what a build writes for people and models (issue 41,
finding 4): CLAUDE.md and AGENTS.md (every agent's context), report.json, bom.json and
ai-tools.json write each URL they copy from a source without its userinfo and with its
query values removed (names kept); only an http tool's executor keeps its URL, which is
what the call sends. ``skillc check``'s scan names each source that holds one."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import tree
from fresh_cli import clean, skillc
from skillc import urls

SECRETS = (
    *("PASSWORD1", "SECRET2", "PASSWORD3", "SECRET4", "PASSWORD5", "SECRET6"),
    "PASSWORD7",
)
MARKETPLACE = {
    "name": "market",
    "owner": {"name": "o"},
    "plugins": [
        {"name": "kit", "source": "./kit"},
        {
            "name": "far",
            "source": {"source": "url", "url": "https://x:PASSWORD7@git.example.com/f"},
        },
    ],
}
SERVERS = {
    "mcpServers": {
        "basic": {"type": "http", "url": "https://alice:PASSWORD1@mcp.example.com/sse"},
        "keyed": {
            "type": "sse",
            "url": "https://mcp.example.com/sse?api_key=sk-SECRET2&mode=fast",
        },
        "local": {
            "command": "npx",
            "args": ["mcp-remote", "https://bob:PASSWORD3@remote.example.com/mcp"],
        },
        "named": {"type": "http", "url": "https://mcp.example.com/x?token=${TOKEN}"},
    }
}
HOOKS = {
    "hooks": {
        "PostToolUse": [
            {
                "matcher": "",
                "hooks": [
                    {
                        "type": "http",
                        "url": "https://hooks.example.com/in?secret=SECRET4",
                    }
                ],
            }
        ]
    }
}
TOOLS = """namespace: web
tools:
  - name: get
    description: Gets a page.
    input_schema: {type: object, properties: {q: {type: string}}}
    executor:
      type: http
      url: "https://carol:PASSWORD5@api.example.com/search?key=SECRET6&q={q}"
"""


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("urls") / "project"
    kit = root / "plugins" / "kit"
    (kit / ".claude-plugin").mkdir(parents=True)
    (kit / ".claude-plugin" / "plugin.json").write_text('{"name": "kit"}')
    (kit / "skills" / "hello").mkdir(parents=True)
    (kit / "skills" / "hello" / "SKILL.md").write_text(
        "---\nname: hello\ndescription: Says hello.\n---\nSay hello.\n"
    )
    (kit / ".mcp.json").write_text(json.dumps(SERVERS, indent=2))
    (root / "plugins" / ".claude-plugin").mkdir()
    (root / "plugins" / ".claude-plugin" / "marketplace.json").write_text(
        json.dumps(MARKETPLACE)
    )
    (kit / "hooks").mkdir()
    (kit / "hooks" / "hooks.json").write_text(json.dumps(HOOKS))
    (root / "tools").mkdir()
    (root / "tools" / "web.tools.yaml").write_text(TOOLS)
    (root / "pyproject.toml").write_text(
        '[tool.skillc]\nsources = ["plugins", "tools"]\n'
    )
    done = skillc(root, "build")
    assert done.returncode == 0, done.stderr
    assert not any(secret in done.stderr for secret in SECRETS)
    return root


def test_no_output_but_the_executor_holds_a_credential(project: Path) -> None:
    out = tree(project / "generated")
    holding = sorted(
        path for path, data in out.items() if any(s.encode() in data for s in SECRETS)
    )
    assert holding == ["web/_get.py"]  # what the call sends
    for name in ("CLAUDE.md", "AGENTS.md", "report.json", "bom.json", "ai-tools.json"):
        assert name in out
    claude = out["CLAUDE.md"].decode()
    assert "https://mcp.example.com/sse?api_key=&mode=`" in claude  # names kept
    assert "https://mcp.example.com/x?token=${TOKEN}" in claude  # a placeholder
    assert "https://mcp.example.com/sse`" in claude  # the host kept
    far = json.loads(out["report.json"])["not_compiled"][0]["reason"]
    assert far == "remote source (url https://git.example.com/f): not fetched"
    bom = json.loads(out["bom.json"])
    assert "https://api.example.com" in bom["hosts"]
    assert "https://remote.example.com/mcp" in json.dumps(bom["plugins"])


def test_the_scan_names_each_source_holding_a_credential(project: Path) -> None:
    done = skillc(project, "check", "--skip", "listing")
    assert done.returncode == 0 and clean(done), done.stderr
    said = [line for line in done.stderr.splitlines() if "credential-in-url" in line]
    assert [line.split(": ")[0] for line in said] == [
        "plugins/kit/.mcp.json:5:15",
        "plugins/kit/hooks/hooks.json:1:79",
        "tools/web.tools.yaml:8:13",
    ]
    assert "a password (user:password@) (2 more URLs here do too)" in said[0]
    assert "a value of its parameter 'secret'" in said[1]
    assert not any(secret in done.stderr for secret in SECRETS)


@pytest.mark.parametrize(
    ("url", "written"),
    [
        ("https://u:p@h/x?a=1&b=2#frag", "https://h/x?a=&b=#frag"),
        ("https://token@h/", "https://h/"),
        (
            "https://${USER}:${PASS}@h/?q={q}&k=${KEY}",
            "https://${USER}:${PASS}@h/?q={q}&k=${KEY}",
        ),
        ("https://h/cb#access_token=abc&state=1", "https://h/cb#access_token=&state="),
        ("https://h/path?flag", "https://h/path?flag"),
        ("https://h:8443/p", "https://h:8443/p"),
        ("wss://h/s?sig=x", "wss://h/s?sig="),
    ],
)
def test_a_url_is_written_without_credentials(url: str, written: str) -> None:
    assert urls.redact_url(url) == written


def test_urls_in_text_are_redacted_and_the_rest_is_kept() -> None:
    text = "See (https://h/?key=abc). Or `https://u:p@h/x`, and http://plain.example/."
    assert urls.redact(text) == (
        "See (https://h/?key=). Or `https://h/x`, and http://plain.example/."
    )
    assert urls.scrub({"a": ["https://h/?t=1"], "https://u:p@h": 1}) == {
        "a": ["https://h/?t="],
        "https://h": 1,
    }


@pytest.mark.parametrize(
    ("url", "carries"),
    [
        ("https://u:hunter2@h/", "a password (user:password@)"),
        ("https://h/?api_key=abc123", "a value of its parameter 'api_key'"),
        (
            "https://h/?X-Amz-Signature=abc",
            "a value of its parameter 'X-Amz-Signature'",
        ),
        ("https://h/?access_token=${TOKEN}", None),
        ("https://h/?api_key=YOUR_API_KEY", None),
        ("postgresql://user:pass@localhost:5432/db", None),  # a scaffold's example
        ("https://u:password@h/", None),
        ("https://u:passw0rd1@h/", "a password (user:password@)"),
        ("https://h/?page=2&author=me", None),
        ("https://git@h/repo.git", None),
    ],
)
def test_what_the_scan_calls_a_credential(url: str, carries: str | None) -> None:
    assert urls.credential(url) == carries


def test_a_diagnostic_never_quotes_a_credential() -> None:
    """Messages are printed in CI logs and kept in report.json: every one is made
    through diagnostics.make, which writes its URLs as the outputs do."""
    from skillc.diagnostics import Report

    report = Report()
    report.warning("x", 1, 1, "invalid-plugin", "bad url https://u:p@h/x?token=t")
    assert report.items[0].message == "bad url https://h/x?token="
