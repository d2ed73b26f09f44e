"""``skillc init``: a commented ``[tool.skillc]`` block in pyproject.toml, a nox session
in noxfile.py and the lines skillc needs in .gitignore, fitted to what the repository
holds. It never changes a configuration that is already there, nor writes through a
symbolic link (``_Files``).

Its ``sources`` cover each client's view the repository ships, and it prints what it
found, what they compile and what they leave out and why (``init_plan``).
"""

from __future__ import annotations

import contextlib
import json
import os
import stat
import sys
from importlib import metadata
from pathlib import Path

from . import init_plan
from .filestat import read_regular

# A pyproject.toml, noxfile.py or .gitignore larger than this is not one to extend.
MAX_BYTES = 1 << 24

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


def table(root: Path, chosen: init_plan.Plan | None = None) -> str:
    """The ``[tool.skillc]`` block for the repository at ``root`` (``chosen``: its
    plan, when made already)."""
    chosen = chosen or init_plan.plan(root)
    found, why = chosen.sources, chosen.why
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


def main(root: Path, catalogues: tuple[str, ...] = ()) -> int:
    """Write what is missing; exit 1 when a file could not be (a link: see _Files).
    ``catalogues``: folders of installable definitions to compile as installed."""
    files = _Files(root)
    text = files.read("pyproject.toml")
    if text is not None and "[tool.skillc" in text:
        print("skillc: pyproject.toml already has [tool.skillc]; nothing written")
        return 0
    chosen = init_plan.plan(root, catalogues=catalogues)
    for line in chosen.lines:
        print(line)
    block = table(root, chosen)
    if text is None:
        files.refused("pyproject.toml", "this block", block.strip("\n"))
    else:
        files.write(
            "pyproject.toml",
            text.rstrip("\n") + "\n" + block if text else block.lstrip(),
        )
        print("skillc: wrote [tool.skillc] to pyproject.toml")
    _nox_session(root, files)
    _gitignore(files)
    print(
        "Next: skillc build, commit generated/, and add the line "
        "@generated/CLAUDE.md to your CLAUDE.md."
    )
    return 1 if files.refusals else 0


class _Files:
    """The files init changes, each directly in the project folder, never written
    through a symbolic link: a link (a .gitignore shared by several checkouts, one
    kept in a dotfiles folder) names a file outside this project, which init must not
    change, and replacing the link by a file would silently undo the user's sharing.
    So a link, or anything else that is not a regular file, is left as it is, and
    init says what to add to it (exit 1). A file is written whole beside itself and
    renamed over its name (a rename never follows a link), so none is ever half
    written."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.refusals = 0

    def read(self, name: str) -> str | None:
        """The file's text ("" when there is none); None when it is not a regular
        file (a link among them)."""
        path = os.path.join(self.root, name)
        if not os.path.lexists(path):
            return ""
        data = read_regular(path, MAX_BYTES)
        return None if data is None else data.decode("utf-8", "replace")

    def write(self, name: str, text: str) -> None:
        path = os.path.join(self.root, name)
        temporary = os.path.join(self.root, f".{name}.skillc-init")
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW
        with open(os.open(temporary, flags, 0o666), "w", encoding="utf-8") as file:
            with contextlib.suppress(FileNotFoundError):  # the mode it had, if any
                os.fchmod(file.fileno(), stat.S_IMODE(os.lstat(path).st_mode))
            file.write(text)
        os.replace(temporary, path)

    def refused(self, name: str, what: str, lines: str) -> None:
        path = os.path.join(self.root, name)
        if os.path.islink(path):
            kind = f"a symbolic link to {os.readlink(path)}"
        elif os.path.isfile(path):
            kind = f"larger than {MAX_BYTES:,} bytes"
        else:
            kind = "not a regular file"
        shown = "\n".join(f"    {line}" for line in lines.splitlines())
        print(
            f"skillc: {name} is {kind}: not changed (init writes regular files only, "
            f"never through a link); add {what} to it yourself:\n{shown}",
            file=sys.stderr,
        )
        self.refusals += 1


def _nox_session(root: Path, files: _Files) -> None:
    name = "noxfile.py"
    text = files.read(name)
    if text is not None and '"skillc", "build"' in text:
        return
    session_name = "skills" if text and "def generate(" in text else "generate"
    wanted, why = requirement(root)
    session = NOX_SESSION.format(
        name=session_name, out="generated", requirement=wanted, why=why
    )
    if text is None:
        files.refused(name, "this session (and import nox)", session.strip("\n"))
        return
    if not text:
        text = '"""Sessions: nox -s generate rebuilds the skills package."""\n\nimport nox\n'
    elif "import nox" not in text:
        print(f"skillc: {name} does not import nox; no session added")
        return
    files.write(name, text.rstrip("\n") + "\n" + session)
    print(f"skillc: added the nox session {session_name!r} to {name}")


def _gitignore(files: _Files) -> None:
    """Add what a build leaves in its output: Python's bytecode."""
    name = ".gitignore"
    text = files.read(name)
    present = {line.strip() for line in (text or "").splitlines()}
    missing = [line for line in GITIGNORE[1:] if line not in present]
    lines = [GITIGNORE[0], *missing]
    if text is None:
        files.refused(name, "these lines", "\n".join(GITIGNORE))
        return
    if not missing:
        return
    joined = (text.rstrip("\n") + "\n\n" if text.strip() else "") + "\n".join(lines)
    files.write(name, joined + "\n")
    print(f"skillc: added {', '.join(missing)} to {name}")
