"""What the overlap check reads beside descriptions: a tool's name apart from where it
ships, and the words that set two otherwise alike tools apart.

- One definition shipped in several plugins (wshobson/agents copies an agent into every
  plugin that uses it, its name prefixed by the plugin's) is one finding, a duplicate,
  not a pair per two copies: its maintainer has one thing to decide.
- Two tools whose names are one word once case and separators are set aside
  (``docker_hub-automation``, ``Docker Hub Automation``) are the same app written
  twice, however differently their descriptions are worded.
- A contrast term (a language, a platform, a cloud) that each of two descriptions has
  and the other has not tells them apart more than its rarity says: a Python and a
  TypeScript verifier whose texts differ in that word alone do different jobs.
"""

from __future__ import annotations

import dataclasses
import re
from collections import defaultdict
from collections.abc import Iterable

# Groups of terms of which a tool is usually about one: two descriptions that each
# name another member of one group are about different things. Short forms map to the
# long ones (a name says "py", its description "Python").
CONTRASTS: tuple[dict[str, str], ...] = (
    {  # programming languages
        "python": "python",
        "py": "python",
        "typescript": "typescript",
        "ts": "typescript",
        "javascript": "javascript",
        "js": "javascript",
        "java": "java",
        "golang": "go",
        "rust": "rust",
        "ruby": "ruby",
        "php": "php",
        "csharp": "csharp",
        "dotnet": "csharp",
        "cpp": "cpp",
        "kotlin": "kotlin",
        "swift": "swift",
        "scala": "scala",
        "elixir": "elixir",
        "haskell": "haskell",
        "dart": "dart",
        "lua": "lua",
        "perl": "perl",
        "julia": "julia",
    },
    {  # operating systems and device platforms
        "windows": "windows",
        "macos": "macos",
        "linux": "linux",
        "ios": "ios",
        "android": "android",
    },
    {"aws": "aws", "azure": "azure", "gcp": "gcp", "gke": "gcp", "eks": "aws"},
    {  # front-end frameworks
        "react": "react",
        "vue": "vue",
        "angular": "angular",
        "svelte": "svelte",
    },
    {  # databases
        "postgres": "postgres",
        "postgresql": "postgres",
        "mysql": "mysql",
        "sqlite": "sqlite",
        "mongodb": "mongodb",
        "redis": "redis",
    },
)


@dataclasses.dataclass(frozen=True)
class Identity:
    """A tool as a duplicate or a respelling is told: its kind, its name as written
    without its plugin's prefix, where it ships, and its instructions."""

    kind: str
    name: str
    plugin: str | None = None
    body: str = ""

    @property
    def spelling(self) -> str:
        return spelling(self.name)


def spelling(name: str) -> str:
    """A name as one word: ``docker_hub-automation`` and ``Docker Hub Automation`` are
    both ``dockerhubautomation``."""
    return "".join(c for c in name.casefold() if c.isalnum())


def unprefixed(name: str, plugin: str | None) -> str:
    """A name without its plugin's name in front (``api-scaffolding-backend-architect``
    in plugin ``api-scaffolding``: ``backend-architect``)."""
    if plugin:
        match = re.match(re.escape(plugin) + r"[-_:.]", name, re.IGNORECASE)
        if match and match.end() < len(name):
            return name[match.end() :]
    return name


def text(description: str) -> str:
    """A description as compared for sameness: spaces and case aside."""
    return " ".join(description.split()).casefold()


def duplicates(ids: list[Identity], descriptions: list[str]) -> list[list[int]]:
    """The groups of tools that are one definition shipped more than once: one kind,
    one name (its spelling) and one description."""
    groups: dict[tuple[str, str, str], list[int]] = defaultdict(list)
    for i, (who, description) in enumerate(zip(ids, descriptions)):
        if who.spelling and text(description):
            groups[who.kind, who.spelling, text(description)].append(i)
    return sorted(g for g in groups.values() if len(g) > 1)


def same_names(
    ids: list[Identity], copies: Iterable[list[int]]
) -> dict[tuple[int, int], bool]:
    """The pairs whose names are one word (copies of one definition aside: those are
    duplicates), each with whether it is spelt two ways."""
    copy = {i: n for n, group in enumerate(copies) for i in group}
    by_spelling: dict[str, list[int]] = defaultdict(list)
    for i, who in enumerate(ids):
        if who.spelling:
            by_spelling[who.spelling].append(i)
    return {
        (i, j): ids[i].name != ids[j].name
        for group in by_spelling.values()
        for x, i in enumerate(group)
        for j in group[x + 1 :]
        if i not in copy or copy.get(i) != copy.get(j)
    }


def terms(text: str) -> set[str]:
    """The words of a description or a name as contrast terms are looked up:
    lowercased, split at anything but a letter or digit (``TypeScript`` stays one)."""
    return set(re.findall(r"[^\W_]+", text.casefold()))


def contrasts(first: set[str], second: set[str]) -> list[str]:
    """The contrast terms (canonical) that tell ``first`` from ``second`` (each the
    ``terms`` of a description and a name): each names a member of one group that the
    other does not, and the other names another."""
    found: set[str] = set()
    for group in CONTRASTS:
        a = {group[w] for w in first if w in group}
        b = {group[w] for w in second if w in group}
        if a - b and b - a:
            found |= (a - b) | (b - a)
    return sorted(found)
