"""skillc check verifies the skills `npx skills` installed against skills-lock.json
(issue 44; vercel-labs/skills#549, #500): a located error per copy whose files
differ and per recorded skill installed nowhere; a hostile lock (it comes with a pull
request) is a located error, never a traceback, and one bad entry takes no other
down. The digest is npx skills' computedHash, checked against a Node implementation
of it (tests/data/skills_folder_hash.js) when Node is installed."""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from conftest import checked, run_skillc, write_skill
from skillc.checks import skills_lock
from skillc.checks.collation import locale_key

ONLY = (
    "--skip",
    "listing",
    "--skip",
    "breaking",
    "--skip",
    "overlap",
    "--skip",
    "scan",
)
NODE = shutil.which("node")
HASHER = Path(__file__).parent / "data" / "skills_folder_hash.js"
PDF = {
    "SKILL.md": "---\nname: pdf\ndescription: Reads PDFs.\n---\nUse it.\n",
    "scripts/extract.py": "print('x')\n",
    "references/forms.md": "# Forms\n",
    "LICENSE.txt": "MIT\n",
}
# computedHash of PDF, by tests/data/skills_folder_hash.js under Node 20: the files in
# localeCompare order (LICENSE.txt, references/forms.md, scripts/extract.py, SKILL.md:
# not the code-point order, which puts SKILL.md second).
PDF_HASH = "5f6f252b29f472eacc4c6ad2f31757f69d5f4b1458f358a2cab8026079259bb5"


def _install(root: Path, folder: str, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (root / folder / name).parent.mkdir(parents=True, exist_ok=True)
        (root / folder / name).write_text(text)
    return root / folder


def _lock(root: Path, skills: dict[str, Any]) -> None:
    (root / "skills-lock.json").write_text(
        json.dumps({"version": 1, "skills": skills}, indent=2) + "\n"
    )


def _entry(digest: str = PDF_HASH) -> dict[str, str]:
    return {
        "source": "anthropics/skills",
        "sourceType": "github",
        "computedHash": digest,
    }


@pytest.fixture
def installed(skills_project: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """A built project with pdf installed by npx skills: the canonical copy in
    .agents/skills, linked from .claude/skills, and the lock."""
    write_skill(
        skills_project / "skills", "own", "---\nname: own\ndescription: Own.\n---\n"
    )
    _install(skills_project, ".agents/skills/pdf", PDF)
    (skills_project / ".claude" / "skills").mkdir(parents=True)
    os.symlink("../../.agents/skills/pdf", skills_project / ".claude/skills/pdf")
    _lock(skills_project, {"pdf": _entry()})
    assert run_skillc(capsys, "-C", str(skills_project), "build")[0] == 0
    return skills_project


def test_installed_skills_matching_the_lock_pass(
    installed: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, err, found = checked(capsys, installed, *ONLY)
    assert status == 0, err
    [pdf] = found["skills-lock"]["skills"]
    assert pdf["status"] == "verified" and pdf["recorded"] == PDF_HASH
    assert [c["path"] for c in pdf["copies"]] == [
        ".agents/skills/pdf",
        ".claude/skills/pdf",
    ]


def test_a_tampered_skill_is_an_error_at_it(
    installed: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (installed / ".agents/skills/pdf/scripts/extract.py").write_text("import os\n")
    status, err, found = checked(capsys, installed, *ONLY)
    assert status == 1
    mismatches = [line for line in err.splitlines() if "[skills-lock-mismatch]" in line]
    # The canonical copy, and the link that Claude Code reads through.
    assert [line.split(":")[0] for line in mismatches] == [
        ".agents/skills/pdf/SKILL.md",
        ".claude/skills/pdf/SKILL.md",
    ]
    assert (
        "skill 'pdf' (from anthropics/skills) is not what skills-lock.json records"
        in err
    )
    assert "not the 5f6f252b29f4… skills-lock.json records" in err
    assert found["skills-lock"]["skills"][0]["status"] == "mismatch"
    # A file added (or renamed) counts as well.
    (installed / ".agents/skills/pdf/scripts/extract.py").write_text("print('x')\n")
    assert checked(capsys, installed, *ONLY)[0] == 0
    (installed / ".agents/skills/pdf/extra.md").write_text("more\n")
    assert checked(capsys, installed, *ONLY)[0] == 1


def test_a_recorded_skill_installed_nowhere_is_an_error_at_its_entry(
    installed: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _lock(installed, {"pdf": _entry(), "owner/repo::Doc X": _entry("0" * 64)})
    status, err, found = checked(capsys, installed, *ONLY)
    assert status == 1
    [missing] = [line for line in err.splitlines() if "[skills-lock-missing]" in line]
    # Its entry's line in the lock; its folder is its name as npx skills sanitises it.
    assert missing.startswith("skills-lock.json:9:1: error[skills-lock-missing]")
    assert ".agents/skills/doc-x, .claude/skills/doc-x, .cursor/skills/doc-x" in missing
    statuses = {s["name"]: s["status"] for s in found["skills-lock"]["skills"]}
    assert statuses == {"owner/repo::Doc X": "missing", "pdf": "verified"}


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("[]", "1:1: error[skills-lock-invalid]: skills-lock.json: it is not a JSON"),
        ('{"version": 1, "skills": []}', "/skills is not an object"),
        ('{"version": "1", "skills": {}}', "/version is not a number"),
        ('{"version": 1,\n "skills": {', "2:13: error[skills-lock-invalid]"),
        ('{"version": 1, "skills": {"a": ' + "[" * 5000 + "]" * 5000 + "}}", "deep"),
        ('{"version": 1, "skills": {}, "n": 1' + "0" * 5000 + "}", "invalid JSON"),
    ],
)
def test_a_hostile_lock_is_a_located_error(
    installed: Path, capsys: pytest.CaptureFixture[str], text: str, said: str
) -> None:
    (installed / "skills-lock.json").write_text(text)
    status, err, found = checked(capsys, installed, *ONLY)
    assert status == 1 and "Traceback" not in err
    assert said in err, err[-1500:]
    assert found["skills-lock"] == {
        "lock": "skills-lock.json",
        "valid": False,
        "skills": [],
    }


@pytest.mark.parametrize("kind", ["large", "not-utf8", "fifo", "link", "folder"])
def test_a_lock_that_is_no_small_regular_text_file_is_refused(
    installed: Path, capsys: pytest.CaptureFixture[str], kind: str
) -> None:
    lock = installed / "skills-lock.json"
    lock.unlink()
    if kind == "large":
        lock.write_text(" " * (skills_lock.MAX_LOCK_BYTES + 1))
    elif kind == "not-utf8":
        lock.write_bytes(b'{"version": 1, "skills": {"\xff": 1}}')
    elif kind == "fifo":
        os.mkfifo(lock)  # read, it would hang the check
    elif kind == "link":
        os.symlink("/dev/zero", lock)  # read, it would fill the memory
    else:
        lock.mkdir()
    status, err, _ = checked(capsys, installed, *ONLY)
    assert status == 1 and "Traceback" not in err
    [line] = [line for line in err.splitlines() if "[skills-lock-invalid]" in line]
    assert line.startswith("skills-lock.json:1:1:")
    assert ("not UTF-8" if kind == "not-utf8" else "not a regular file") in line


def test_one_bad_entry_takes_no_other_down(
    installed: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _lock(
        installed,
        {
            "a-number": 5,
            "b-short-hash": _entry("abc"),
            "c-source": {**_entry(), "source": ["x"]},
            "pdf": _entry(),
        },
    )
    status, err, found = checked(capsys, installed, *ONLY)
    assert status == 1
    invalid = [line for line in err.splitlines() if "[skills-lock-invalid]" in line]
    assert [line.split(": skills-lock.json: ")[1] for line in invalid] == [
        "skill 'a-number': its entry is not an object",
        "skill 'b-short-hash': computedHash is not a SHA-256 digest (64 lowercase "
        "hex digits)",
        "skill 'c-source': source is not a string",
    ]
    statuses = [s["status"] for s in found["skills-lock"]["skills"]]
    assert statuses == ["invalid", "invalid", "invalid", "verified"]


def test_links_fifos_and_links_out_of_the_project_are_never_followed(
    installed: Path,
    capsys: pytest.CaptureFixture[str],
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    """As npx skills hashes a folder, a link or a FIFO inside it is no file of it (a
    FIFO read would hang the check, a link read /etc/passwd); a copy that is a link out
    of the project is a mismatch, never read."""
    pdf = installed / ".agents/skills/pdf"
    os.symlink("/etc/passwd", pdf / "passwd")
    os.mkfifo(pdf / "pipe")
    os.symlink("/", pdf / "root")
    assert checked(capsys, installed, *ONLY)[0] == 0
    elsewhere = _install(tmp_path_factory.mktemp("elsewhere"), "pdf", PDF)
    (installed / ".claude/skills/pdf").unlink()
    os.symlink(elsewhere, installed / ".claude/skills/pdf")
    status, err, _ = checked(capsys, installed, *ONLY)
    assert status == 1 and "it is a link out of the project" in err


def test_a_folder_past_the_bounds_is_not_read(
    installed: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(skills_lock, "MAX_FILES", 3)
    status, err, _ = checked(capsys, installed, *ONLY)
    assert status == 1 and "it holds more than 3 files and folders" in err
    monkeypatch.setattr(skills_lock, "MAX_FILES", 100)
    monkeypatch.setattr(skills_lock, "MAX_FOLDER_BYTES", 50)
    status, err, _ = checked(capsys, installed, *ONLY)
    assert status == 1 and "its files are over 50 bytes" in err


def test_no_lock_no_finding(
    skills_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_skill(
        skills_project / "skills", "own", "---\nname: own\ndescription: Own.\n---\n"
    )
    assert run_skillc(capsys, "-C", str(skills_project), "build")[0] == 0
    status, _, found = checked(capsys, skills_project, *ONLY)
    assert status == 0 and found["skills-lock"] == {"lock": None, "skills": []}


# -- the digest, against Node ------------------------------------------------------

NAMES = "aAbBzZ09_-. éÉeEüÜ~$#%&()[]{}+=@"


@pytest.mark.skipif(NODE is None, reason="Node is not installed")
def test_paths_sort_as_node_s_locale_compare() -> None:
    rng = random.Random(44)
    words = sorted(
        {
            "".join(rng.choice(NAMES) for _ in range(rng.randint(1, 8)))
            for _ in range(3000)
        }
    )
    script = (
        "const w=JSON.parse(require('fs').readFileSync(0,'utf8'));"
        "console.log(JSON.stringify(w.sort((a,b)=>a.localeCompare(b))))"
    )
    assert NODE is not None
    done = subprocess.run(
        [NODE, "-e", script], input=json.dumps(words), capture_output=True, text=True
    )
    assert json.loads(done.stdout) == sorted(words, key=locale_key)


@pytest.mark.skipif(NODE is None, reason="Node is not installed")
def test_the_digest_is_npx_skills_computed_hash(tmp_path: Path) -> None:
    assert NODE is not None
    rng = random.Random(549)
    for trial in range(5):
        folder = tmp_path / f"skill-{trial}"
        files = {"SKILL.md": "---\nname: x\n---\n"}
        for _ in range(12):
            parts = [
                "".join(rng.choice("aBz_-.09é") for _ in range(rng.randint(1, 5)))
                for _ in range(rng.randint(1, 3))
            ]
            files["/".join(p.strip(".") or "x" for p in parts)] = rng.choice(
                ["", "é\n", "x" * 99]
            )
        try:
            _install(tmp_path, folder.name, files)
        except (IsADirectoryError, NotADirectoryError, FileExistsError):
            continue  # a name drawn both as a file and as a folder
        (folder / ".git").mkdir(exist_ok=True)
        (folder / ".git" / "HEAD").write_text("ref\n")
        node = subprocess.run(
            [NODE, str(HASHER), str(folder)], capture_output=True, text=True
        ).stdout.strip()
        assert skills_lock._digest_of(tmp_path, folder.name) == (node, "")
    assert skills_lock._digest_of(tmp_path.parent, tmp_path.name)[0]
