"""The no-op rebuild looks at the output folder by stat, as git's index does: it reads
no output file whose size, mtime, ctime and inode are those the memo kept, and it never
misses an edit (ctime cannot be set back), nor trusts stats it did not sign."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest

from conftest import run_python, run_skillc, write_skill
from skillc import digests

OK = "---\nname: {name}\ndescription: Does {name}.\n---\nBody of {name}.\n"
# A build in a fresh process, with the output files it opens.
OPENED = """
import json, sys
opened = []
def audit(event, args):
    if event == "open" and isinstance(args[0], str) and "/generated/" in args[0]:
        opened.append(args[0])
sys.addaudithook(audit)
from skillc import cli
status = cli.main(["-C", sys.argv[1], "build"])
print(json.dumps({"status": status, "opened": opened}))
"""


def _opened(project: Path) -> tuple[list[str], str]:
    """The output files a build in a fresh process opened, and what it said."""
    done = run_python(OPENED, project, str(project))
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["status"] == 0, done.stderr
    return result["opened"], done.stderr


@pytest.fixture
def built(skills_project: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    for name in ("a", "b"):
        write_skill(skills_project / "skills", name, OK.format(name=name))
    assert run_skillc(capsys, "-C", str(skills_project), "build")[0] == 0
    # Output written in the clock tick the memo was written in is read once more
    # ("racily clean"); that no-op keeps the stats again.
    _opened(skills_project)
    return skills_project


def test_a_no_op_reads_no_output_file(built: Path) -> None:
    opened, err = _opened(built)
    assert "generated/ is up to date" in err
    assert opened == []


def test_a_touched_output_is_read_once_and_its_stat_kept(built: Path) -> None:
    """A file of the same bytes and a new stat (touched, checked out again) is read,
    and its new stat kept: the next no-op reads nothing. Saving the stats keeps every
    loader result the memo held."""
    memo = built / ".skillc-cache" / "memo.jsonl"
    entries = len(memo.read_text().splitlines())
    module = built / "generated" / "task" / "_a.py"
    module.write_bytes(module.read_bytes())
    opened, err = _opened(built)
    assert "up to date" in err and opened == [str(module)]
    assert len(memo.read_text().splitlines()) == entries
    assert _opened(built) == ([], err)


@pytest.mark.parametrize("restore_mtime", [False, True])
def test_an_edit_of_the_same_size_is_found(
    built: Path, capsys: pytest.CaptureFixture[str], restore_mtime: bool
) -> None:
    """A hand edit that keeps the size (and the mtime, set back) still changes the
    ctime: the build says the file was edited, and --force writes it again."""
    module = built / "generated" / "task" / "_a.py"
    original = module.read_bytes()
    before = module.stat()
    module.write_bytes(original.replace(b"Does a.", b"Does A!"))
    if restore_mtime:
        os.utime(module, ns=(before.st_atime_ns, before.st_mtime_ns))
    after = module.stat()
    assert after.st_size == before.st_size and after.st_ino == before.st_ino
    code, err = run_skillc(capsys, "-C", str(built), "build")
    assert code == 2 and "generated/task/_a.py (edited since skillc wrote it)" in err
    code, err = run_skillc(capsys, "-C", str(built), "build", "--force")
    assert code == 0 and "wrote 1 file" in err
    assert module.read_bytes() == original


def test_stats_written_into_the_memo_by_hand_are_not_trusted(
    built: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A memo whose build entry was made to vouch for an edited output (the stats it
    has after the edit written in, as a committed cache could): its MAC does not
    verify, so it is ignored with a warning, and the edit is found."""
    module = built / "generated" / "task" / "_a.py"
    memo = built / ".skillc-cache" / "memo.jsonl"
    sha256 = hashlib.sha256(module.read_bytes()).hexdigest()
    before = _kept(sha256, module)
    module.write_bytes(module.read_bytes().replace(b"Does a.", b"Does A!"))
    text = memo.read_text()
    assert before in text
    memo.write_text(text.replace(before, _kept(sha256, module)))
    code, err = run_skillc(capsys, "-C", str(built), "build")
    assert "ignored .skillc-cache/memo.jsonl" in err
    assert code == 2 and "generated/task/_a.py (edited since skillc wrote it)" in err


def _kept(sha256: str, path: Path) -> str:
    """How the memo spells an output file with this sha256 and the stat it has."""
    info = path.stat()
    stat = [info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino]
    return json.dumps([sha256, *stat])


def test_a_racily_clean_output_is_read(tmp_path: Path) -> None:
    """A file whose stat is as kept is read all the same when that stat is from the
    clock tick the memo was written in, or later: an edit in the same tick would not
    show in it."""
    out = tmp_path / "out"
    out.mkdir()
    (out / "a.txt").write_bytes(b"edited")
    kept = digests.kept(out, {"a.txt": b"as built"})
    assert len(kept["a.txt"]) == 1  # not the bytes given: no stat to trust
    stat = digests.kept(out, {"a.txt": b"edited"})["a.txt"][1:]
    forged = {"a.txt": [kept["a.txt"][0], *stat]}  # the stat, with the built digest
    later = os.stat(out / "a.txt").st_ctime_ns + 1
    assert digests.holds(out, forged, since=later) == (forged, 0)  # trusted
    assert digests.holds(out, forged, since=later - 1) is None  # racy: read
    built = digests.kept(out, {"a.txt": b"edited"})
    assert digests.holds(out, built, since=later - 1) == (built, 1)


# A build in a fresh process, and which of these modules it imported.
IMPORTED = """
import sys
from skillc import cli
status = cli.main(["-C", sys.argv[1], "build"])
print(" ".join(m for m in ("tomllib", "dataclasses", "skillc.discover") if m in sys.modules))
sys.exit(status)
"""


def test_a_no_op_imports_neither_the_toml_parser_nor_dataclasses(built: Path) -> None:
    """A build with nothing to do needs the memo's first entry, stats and a MAC: not
    tomllib (that entry holds the settings' table, with the text it was read from),
    nor dataclasses or the discovery (the model's)."""
    done = run_python(IMPORTED, built, str(built))
    assert done.returncode == 0, done.stderr
    assert "generated/ is up to date" in done.stderr
    assert done.stdout.split() == []


def test_the_kept_table_is_used_for_its_own_text_only(
    built: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A comment added to pyproject.toml is still a no-op (the memo then keeps the new
    text's table); a setting changed after it is built."""
    pyproject = built / "pyproject.toml"
    pyproject.write_text(pyproject.read_text() + "# a comment\n")
    assert "generated/ is up to date" in _opened(built)[1]
    pyproject.write_text(pyproject.read_text() + 'regenerate = "make tools"\n')
    status, err = run_skillc(capsys, "-C", str(built), "build")
    assert status == 0 and "is up to date" not in err, err
    assert "make tools" in (built / "generated" / "AGENTS.md").read_text()
    assert "generated/ is up to date" in _opened(built)[1]
