"""``skillc init``: a commented ``[tool.skillc]`` block in pyproject.toml, and a nox
session in noxfile.py, fitted to what the repository holds (``.claude/``, ``skills/``).
It never changes a configuration that is already there."""

from __future__ import annotations

from pathlib import Path

# Source roots skillc looks for, in precedence order (lowest first): Claude Code's own
# folder (skills and subagents), then a plain skills folder.
CANDIDATES = (
    (".claude", "Claude Code's skills and agents"),
    ("skills", "skills"),
)
NOX_SESSION = '''

@nox.session
def {name}(session: nox.Session) -> None:
    """Rebuild {out}/ from the skills (skillc build); --check in CI."""
    # Where pip finds skillc: a version, a path, or "skillc @ git+<url>".
    session.install("skillc")
    session.run("skillc", "build", *session.posargs)
'''


def table(root: Path) -> str:
    """The ``[tool.skillc]`` block for the repository at ``root``."""
    found = [(name, what) for name, what in CANDIDATES if (root / name).is_dir()]
    sources = [name for name, _ in found] or ["skills"]
    why = ", ".join(f"{name}/ ({what})" for name, what in found)
    note = f"found here: {why}" if found else "create skills/<name>/SKILL.md first"
    listed = ", ".join(f'"{name}"' for name in sources)
    return f"""
[tool.skillc]
# Written by `skillc init`; every key is optional (the skillc README lists them all).
sources = [{listed}]  # {note}; lowest precedence first
out = "generated"  # the package skillc writes and owns: commit it
# package = "generated"  # its import name (default: the out folder's name)
# builtins = ["file", "batch", "db"]  # built-in tool namespaces to add
# regenerate = "skillc build"  # the rebuild command CLAUDE.md and AGENTS.md give agents
# strict = false  # true: what Claude Code accepts but the spec does not is an error
"""


def main(root: Path) -> int:
    pyproject = root / "pyproject.toml"
    text = pyproject.read_text(encoding="utf-8") if pyproject.is_file() else ""
    if "[tool.skillc" in text:
        print("skillc: pyproject.toml already has [tool.skillc]; nothing written")
        return 0
    block = table(root)
    pyproject.write_text(text.rstrip("\n") + "\n" + block if text else block.lstrip())
    print("skillc: wrote [tool.skillc] to pyproject.toml")
    _nox_session(root / "noxfile.py")
    print(
        "Next: skillc build, commit generated/, and add the line "
        "@generated/CLAUDE.md to your CLAUDE.md."
    )
    return 0


def _nox_session(noxfile: Path) -> None:
    text = noxfile.read_text(encoding="utf-8") if noxfile.is_file() else ""
    if '"skillc", "build"' in text:
        return
    name = "skills" if "def generate(" in text else "generate"
    session = NOX_SESSION.format(name=name, out="generated")
    if not text:
        text = '"""Sessions: nox -s generate rebuilds the skills package."""\n\nimport nox\n'
    elif "import nox" not in text:
        print(f"skillc: {noxfile.name} does not import nox; no session added")
        return
    noxfile.write_text(text.rstrip("\n") + "\n" + session, encoding="utf-8")
    print(f"skillc: added the nox session {name!r} to {noxfile.name}")
