"""``skillc init``: a commented ``[tool.skillc]`` block in pyproject.toml, a nox session
in noxfile.py and the lines skillc needs in .gitignore, fitted to what the repository
holds. It never changes a configuration that is already there.

Its ``sources`` are those a build finds without configuration (each client's skills
folder, ``.claude/agents``, ``.claude/commands``, ``skills``, ``agents``);
without any, the root itself when it is a marketplace or plugin repository
(``.claude-plugin/``) or holds skill folders (``<name>/SKILL.md``, one or two levels
down, as ComposioHQ/awesome-claude-skills does), so that a build that worked without
configuration still works with it.
"""

from __future__ import annotations

import json
import os
from importlib import metadata
from pathlib import Path

from . import project

# Folders never searched for skill folders at the root.
_SKIPPED = frozenset({"node_modules", "venv", "site-packages", "generated"})
NOX_SESSION = '''

@nox.session
def {name}(session: nox.Session) -> None:
    """Rebuild {out}/ from the skills (skillc build); --check in CI."""
    # The skillc that `skillc init` ran with{why}.
    session.install({requirement!r})
    session.run("skillc", "build", *session.posargs)
'''
# (The build cache is in the user's cache folder, never in the project.)
GITIGNORE = ("# skillc: Python's bytecode", "__pycache__/")


def sources(root: Path) -> tuple[list[str], str]:
    """The source roots for the repository at ``root`` and why (empty: none found)."""
    found = [name for name in project.DEFAULT_SOURCES if (root / name).is_dir()]
    if found:
        return found, "found here"
    for manifest in project.PLUGIN_ROOT_MANIFESTS:
        if (root / ".claude-plugin" / manifest).is_file():
            return ["."], f"the root: a {manifest.split('.')[0]} repository"
    if _skill_folders(root):
        return ["."], "the root: it holds skill folders"
    return [], ""


def _skill_folders(root: Path) -> bool:
    """Whether ``<name>/SKILL.md`` or ``<group>/<name>/SKILL.md`` is below ``root``."""
    for first in _folders(root):
        if (first / "SKILL.md").is_file():
            return True
        if any((second / "SKILL.md").is_file() for second in _folders(first)):
            return True
    return False


def _folders(folder: Path) -> list[Path]:
    try:
        entries = sorted(os.scandir(folder), key=lambda e: e.name)
    except OSError:
        return []
    return [
        Path(e.path)
        for e in entries
        if e.is_dir(follow_symlinks=False)
        and not e.name.startswith(".")
        and e.name not in _SKIPPED
    ]


def table(root: Path) -> str:
    """The ``[tool.skillc]`` block for the repository at ``root``."""
    found, why = sources(root)
    if found:
        listed = ", ".join(f'"{name}"' for name in found)
        line = f"sources = [{listed}]  # {why}; lowest precedence first"
    else:
        line = (
            '# sources = ["skills"]  # none found: create skills/<name>/SKILL.md, '
            "then uncomment"
        )
    return f"""
[tool.skillc]
# Written by `skillc init`; every key is optional (the skillc README lists them all).
{line}
out = "generated"  # the package skillc writes and owns: commit it
# package = "generated"  # its import name (default: the out folder's name)
# builtins = ["file", "batch", "db"]  # built-in tool namespaces to add
# regenerate = "skillc build"  # the rebuild command CLAUDE.md and AGENTS.md give agents
# strict = false  # true: what Claude Code accepts but the spec does not is an error
# keep-going = false  # true: a bad file is left out and the rest written (exit 1)
"""


def requirement(project: Path) -> tuple[str, str]:
    """How pip finds the skillc running now, as the README installs it (from its git
    URL at this commit, or from a checkout, given relative to ``project``), and why."""
    try:
        dist = metadata.distribution("skillc")
    except metadata.PackageNotFoundError:
        return "skillc", ""
    text = dist.read_text("direct_url.json")
    origin = json.loads(text) if text else {}
    url = str(origin.get("url", ""))
    vcs = origin.get("vcs_info")
    if isinstance(vcs, dict) and vcs.get("vcs") == "git":
        commit = vcs.get("commit_id") or vcs.get("requested_revision")
        pinned = f"{url}@{commit}" if commit else url
        return f"skillc @ git+{pinned}", ", from its git repository at that commit"
    if url.startswith("file://"):
        checkout = Path(url.removeprefix("file://"))
        relative = Path(os.path.relpath(checkout, project.resolve())).as_posix()
        return relative, " (a checkout, relative to this folder)"
    return f"skillc=={dist.version}", ""


def main(root: Path) -> int:
    pyproject = root / "pyproject.toml"
    text = pyproject.read_text(encoding="utf-8") if pyproject.is_file() else ""
    if "[tool.skillc" in text:
        print("skillc: pyproject.toml already has [tool.skillc]; nothing written")
        return 0
    block = table(root)
    pyproject.write_text(text.rstrip("\n") + "\n" + block if text else block.lstrip())
    print("skillc: wrote [tool.skillc] to pyproject.toml")
    _nox_session(root, root / "noxfile.py")
    _gitignore(root / ".gitignore")
    print(
        "Next: skillc build, commit generated/, and add the line "
        "@generated/CLAUDE.md to your CLAUDE.md."
    )
    return 0


def _nox_session(root: Path, noxfile: Path) -> None:
    text = noxfile.read_text(encoding="utf-8") if noxfile.is_file() else ""
    if '"skillc", "build"' in text:
        return
    name = "skills" if "def generate(" in text else "generate"
    wanted, why = requirement(root)
    session = NOX_SESSION.format(
        name=name, out="generated", requirement=wanted, why=why
    )
    if not text:
        text = '"""Sessions: nox -s generate rebuilds the skills package."""\n\nimport nox\n'
    elif "import nox" not in text:
        print(f"skillc: {noxfile.name} does not import nox; no session added")
        return
    noxfile.write_text(text.rstrip("\n") + "\n" + session, encoding="utf-8")
    print(f"skillc: added the nox session {name!r} to {noxfile.name}")


def _gitignore(path: Path) -> None:
    """Add what a build leaves in its output: Python's bytecode."""
    text = path.read_text(encoding="utf-8") if path.is_file() else ""
    present = {line.strip() for line in text.splitlines()}
    missing = [line for line in GITIGNORE[1:] if line not in present]
    if not missing:
        return
    lines = [GITIGNORE[0], *missing]
    joined = (text.rstrip("\n") + "\n\n" if text.strip() else "") + "\n".join(lines)
    path.write_text(joined + "\n", encoding="utf-8")
    print(f"skillc: added {', '.join(missing)} to {path.name}")
