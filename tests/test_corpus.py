"""Real skills written by others (../shared/corpus; skipped when it is absent): each one
compiles or is rejected with a diagnostic naming its file and line, and the package
imports, lists every compiled skill and passes mypy --strict."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from conftest import SHARED, run_mypy, run_python
from corpus_rates import recreate_stand_ins

CORPUS = SHARED / "corpus" / "skills"
pytestmark = pytest.mark.skipif(
    not CORPUS.is_dir(), reason="../shared/corpus is not beside this checkout"
)
DIAGNOSTIC = re.compile(
    r"^(?P<path>[^:]+):(?P<line>\d+):(?P<col>\d+): (?P<severity>error|warning)\[(?P<code>[a-z0-9-]+)\]: .+$"
)


@pytest.fixture(scope="module")
def corpus_build(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, int, str]:
    project = tmp_path_factory.mktemp("corpus")
    shutil.copytree(CORPUS, project / "skills")
    recreate_stand_ins(project / "skills")
    from skillc import cli
    import contextlib
    import io

    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        status = cli.main(["-C", str(project), "build", "--keep-going", "-v"])
    return project, status, err.getvalue()


def test_every_skill_compiles_or_is_rejected_with_a_located_diagnostic(
    corpus_build: tuple[Path, int, str],
) -> None:
    project, status, err = corpus_build
    skills = sorted(
        p.parent.relative_to(project).as_posix()
        for p in (project / "skills").rglob("SKILL.md")
    )
    # -v: every diagnostic is printed, each at its place
    lines = [
        line for line in err.splitlines() if "error[" in line or "warning[" in line
    ]
    for line in lines:
        assert DIAGNOSTIC.match(line), line
    rejected = {DIAGNOSTIC.match(l)["path"].rsplit("/", 1)[0] for l in lines if " error[" in l}  # type: ignore[index]
    compiled = {p.stem[1:] for p in (project / "generated" / "task").glob("_[!_]*.py")}
    for skill in skills:
        name = skill.rsplit("/", 1)[1].replace("-", "_")
        assert (name in compiled) != (skill in rejected), skill
    assert status == (1 if rejected else 0)


def test_compiled_corpus_imports_and_lists(corpus_build: tuple[Path, int, str]) -> None:
    project, _, _ = corpus_build
    # Every skill's module, and one per script in a skill's scripts/ folder.
    count = len(list((project / "generated").glob("*/**/_[!_]*.py")))
    result = run_python(
        "import generated; print(len(generated.list())); "
        "print(generated.task.claude_api.prepare().instructions[:10])",
        project,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [str(count), "#", "Building"]


def test_bundled_files_match_the_original_folders(
    corpus_build: tuple[Path, int, str],
) -> None:
    project, _, _ = corpus_build
    result = run_python(
        "import generated; i = generated.task.canvas_design.prepare(); "
        "print(len(i.files), sum(f.endswith('.ttf') for f in i.files), i.path(i.files[0]).is_file())",
        project,
    )
    listed = (
        (project / "skills" / "anthropics-skills" / "canvas-design" / "FILES.txt")
        .read_text()
        .splitlines()
    )
    expected = (
        sum(1 for line in listed if not line.endswith(("\tSKILL.md", "\tFILES.txt")))
        + 1
    )
    count, fonts, exists = result.stdout.split()
    assert int(count) == expected  # + FILES.txt itself, which the corpus adds
    assert int(fonts) > 0 and exists == "True"


def test_compiled_corpus_passes_mypy_strict(
    corpus_build: tuple[Path, int, str],
) -> None:
    project, _, _ = corpus_build
    result = run_mypy(project, "generated")
    assert result.returncode == 0, result.stdout


def test_level1_entries_stay_under_100_tokens(
    corpus_build: tuple[Path, int, str],
) -> None:
    from skillc.resolve import estimate_tokens

    project, _, _ = corpus_build
    result = run_python(
        "import generated\nfor e in generated.list(): print(f'{e.name}: {e.summary}')",
        project,
    )
    entries = result.stdout.splitlines()
    assert entries and all(estimate_tokens(entry) <= 100 for entry in entries)
