"""The no-op rebuild looks at the output folder by stat, as git's index does: it reads
no output file whose size, mtime, ctime and inode are those the cache kept, and it never
misses an edit (ctime cannot be set back), nor trusts stats from the project folder. A
build whose inputs have errors is a no-op too when nothing changed: it says again what
the last one said."""

from __future__ import annotations

import hashlib
import json
import os
import time
from pathlib import Path

import pytest

from conftest import run_python, run_skillc, write_skill
from skillc import __version__, cache, digests, pipeline

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
    and its new stat kept: the next no-op reads nothing. Keeping the stats leaves the
    memo (every loader result) as it was."""
    memo = cache.Cache.of(built.resolve(), ()).files[cache.MEMO]
    kept = memo.read_bytes(), memo.stat().st_mtime_ns
    module = built / "generated" / "task" / "_a.py"
    module.write_bytes(module.read_bytes())
    opened, err = _opened(built)
    assert "up to date" in err and opened == [str(module)]
    assert (memo.read_bytes(), memo.stat().st_mtime_ns) == kept
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


def test_stats_forged_in_the_project_are_not_trusted(
    built: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A witness made to vouch for an edited output (the stats the file has after the
    edit written in, as a committed cache could be), placed where the cache would be
    were its folder in the project: it is not read, and the edit is found."""
    module = built / "generated" / "task" / "_a.py"
    own = cache.Cache.of(built.resolve(), pipeline.DEPENDENCIES)
    assert own.last is not None
    where = built / ".cache"
    monkeypatch.setenv("SKILLC_CACHE_DIR", str(where))
    sha256 = hashlib.sha256(module.read_bytes()).hexdigest()
    module.write_bytes(module.read_bytes().replace(b"Does a.", b"Does A!"))
    info = module.stat()
    outputs = own.last["outputs"] | {
        "task/_a.py": [
            sha256,
            info.st_size,
            info.st_mtime_ns,
            info.st_ctime_ns,
            info.st_ino,
        ]
    }
    forged = cache.Cache(
        (where / __version__).resolve() / cache.name(built.resolve()), own.salt
    )
    forged.remember(own.last | {"outputs": outputs})
    forged.save()
    assert forged.files[cache.LAST].is_file()
    code, err = run_skillc(capsys, "-C", str(built), "build")
    assert "the cache folder" in err and "inside the project" in err
    assert code == 2 and "generated/task/_a.py (edited since skillc wrote it)" in err


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
    """A build with nothing to do needs the last build's witness and stats: not
    tomllib (the witness holds the settings, with the text they were read from), nor
    dataclasses or the discovery (the model's)."""
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


# A build in a fresh process: what it said, its status, what it imported and which
# project files it opened.
AUDITED = """
import json, os, sys
opened = []
def audit(event, args):
    if event == "open" and isinstance(args[0], str) and args[0].startswith(sys.argv[1]):
        opened.append(os.path.relpath(args[0], sys.argv[1]))
sys.addaudithook(audit)
from skillc import cli
status = cli.main(["-C", sys.argv[1], "build", *sys.argv[2:]])
print(json.dumps({"status": status, "opened": opened, "modules": sorted(sys.modules)}))
"""
BAD = "---\nname: [\n---\n"  # a frontmatter that is not YAML


def _audited(project: Path, *flags: str) -> tuple[int, str, list[str], set[str]]:
    done = run_python(AUDITED, project, str(project), *flags)
    result = json.loads(done.stdout)
    return result["status"], done.stderr, result["opened"], set(result["modules"])


@pytest.mark.parametrize("keep_going", [True, False])
def test_a_build_of_unchanged_inputs_with_errors_is_a_no_op(
    skills_project: Path, capsys: pytest.CaptureFixture[str], keep_going: bool
) -> None:
    """One input in error, nothing changed since the last build: the rebuild says the
    same diagnostics, ends as the last one did (exit 1; the valid tools written under
    --keep-going, nothing written without it), and loads nothing: no input opened, no
    loader imported (a no-op of 5,000 tools with one bad one cost 5.8x its floor)."""
    for name in ("a", "b"):
        write_skill(skills_project / "skills", name, OK.format(name=name))
    write_skill(skills_project / "skills", "bad", BAD)
    time.sleep(3 * digests.RACY_NS / 1e9)  # stats the build can vouch for
    flags = ("--keep-going",) if keep_going else ()
    status, first = run_skillc(capsys, "-C", str(skills_project), "build", *flags)
    error = "skills/bad/SKILL.md:3:1: error[yaml-syntax]"
    assert status == 1 and error in first
    assert (skills_project / "generated").is_dir() == keep_going
    for _ in range(2):
        status, err, opened, modules = _audited(skills_project, *flags)
        assert status == 1 and error in err, err
        ending = "is up to date" if keep_going else "nothing written to generated/"
        assert ending in err and first.count("error[") == err.count("error[")
        assert [p for p in opened if p.startswith(("skills", "generated"))] == []
        assert "skillc.loaders" not in modules
    if not keep_going:  # a build that keeps going writes the valid tools
        status, err, _, _ = _audited(skills_project, "--keep-going")
        assert status == 1 and "wrote" in err and error in err
        assert (skills_project / "generated" / "task" / "_a.py").is_file()
    (skills_project / "skills" / "bad" / "SKILL.md").write_text(OK.format(name="bad"))
    status, err, _, _ = _audited(skills_project)
    assert status == 0 and "error" not in err.replace("0 errors", "")
    assert (skills_project / "generated" / "task" / "_bad.py").is_file()
