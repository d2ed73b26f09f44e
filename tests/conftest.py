"""Shared helpers. Goldens are updated with: nox -s tests -- --update-goldens"""

from __future__ import annotations

import atexit
import contextlib
import difflib
import functools
import importlib
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import corpus_rates
from corpus_rates import WSHOBSON_REFUSED
from skillc import cli, pipeline
from skillc.config import Config

TESTS = Path(__file__).resolve().parent
REPO = TESTS.parent
FIXTURES = TESTS / "fixtures"
FIXTURE_PROJECT = FIXTURES / "project"
TOOLS_PROJECT = FIXTURES / "tools"
GOLDEN = TESTS / "golden"
SHARED = REPO.parent / "shared"

# The build cache of every build the tests run (in this process and the processes it
# starts), never the user's: a folder of this process's own, outside every project.
CACHE = Path(tempfile.mkdtemp(prefix="skillc-test-cache-"))
atexit.register(shutil.rmtree, CACHE, ignore_errors=True)
os.environ["SKILLC_CACHE_DIR"] = str(CACHE)


def shared_corpus(*parts: str) -> Path:
    """A folder of ../shared/corpus; the calling test is skipped, with the reason, when it
    is not beside this checkout (a fresh clone has no ../shared). Called in the test's
    body, so the skip cannot sit on a neighbouring test."""
    folder = SHARED.joinpath("corpus", *parts)
    if not folder.is_dir():
        pytest.skip(
            f"../shared/{folder.relative_to(SHARED).as_posix()} is not beside this checkout"
        )
    return folder


def built_marketplace(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """../shared's wshobson/agents marketplace in a project of its own (output folder
    ``market``), but the plugin Claude Code refuses (WSHOBSON_REFUSED), built; the
    test is skipped without ../shared."""
    wshobson = shared_corpus("plugins", "wshobson-agents")
    project = tmp_path / "project"
    shutil.copytree(wshobson, project / "mk")
    (project / "pyproject.toml").write_text(
        '[tool.skillc]\nsources = ["mk"]\nout = "market"\nbuiltins = []\n'
        f'exclude = ["mk/{WSHOBSON_REFUSED}"]\n'
    )
    status, err = run_skillc(capsys, "-C", str(project), "build")
    assert status == 0, err
    return project


def built_functions(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], source: str
) -> Path:
    """One catalogue of ../shared/corpus/functions in a project of its own, built (with
    --keep-going: a real catalogue has a bad tool or two)."""
    shared_corpus("functions")
    project = tmp_path / "project"
    corpus_rates.write_function_manifests(project / "src", source)
    (project / "pyproject.toml").write_text(
        '[tool.skillc]\nsources = ["src"]\nbuiltins = []\n'
    )
    run_skillc(capsys, "-C", str(project), "build", "--keep-going")
    return project


def checked(
    capsys: pytest.CaptureFixture[str], project: Path, *options: str
) -> tuple[int, str, dict[str, Any]]:
    """``skillc check`` of ``project``: its exit status, stderr and what --report wrote
    of each check."""
    report = project.parent / "check-report.json"
    report.unlink(missing_ok=True)
    status, err = run_skillc(
        capsys, "-C", str(project), "check", *options, "--report", str(report)
    )
    found = json.loads(report.read_text()) if report.exists() else {"checks": {}}
    return status, err, found["checks"]


def template_module(name: str) -> Any:
    """A runtime module of templates/runtime/ (``_validate``, ``_patterns``), imported straight
    from the source tree as part of a package, so its relative imports work."""
    package = "skillc_templates_under_test"
    if package not in sys.modules:
        module = types.ModuleType(package)
        module.__path__ = [str(REPO / "templates" / "runtime")]
        sys.modules[package] = module
    return importlib.import_module(f"{package}.{name}")


def built_fixture(fixture: str, project: Path, *flags: str) -> str:
    """tests/fixtures/<fixture> copied to ``project`` and built there (``flags`` after
    ``build``), quietly; what the build printed."""
    shutil.copytree(FIXTURES / fixture, project)
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        status = cli.main(["-C", str(project), "build", *flags])
    assert status == 0, err.getvalue()
    return err.getvalue()


@contextlib.contextmanager
def imported_build(
    fixture: str, folder: Path, package: str, env: dict[str, str]
) -> Iterator[Any]:
    """tests/fixtures/<fixture> copied into ``folder``, built, and its package imported
    with ``env`` set; removed from sys.modules afterwards."""
    project = folder / "project"
    built_fixture(fixture, project)
    sys.path.insert(0, str(project))
    patch = pytest.MonkeyPatch()
    for name, value in env.items():
        patch.setenv(name, value)
    try:
        yield importlib.import_module(package)
    finally:
        patch.undo()
        sys.path.remove(str(project))
        for name in [m for m in sys.modules if m.partition(".")[0] == package]:
            del sys.modules[name]


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-goldens",
        action="store_true",
        help="rewrite tests/golden from the current generator instead of comparing",
    )


@pytest.fixture
def update_goldens(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--update-goldens"))


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A fresh copy of the fixture project."""
    target = tmp_path / "project"
    shutil.copytree(FIXTURE_PROJECT, target)
    return target


@pytest.fixture
def tools_project(tmp_path: Path) -> Path:
    """A fresh copy of the tools fixture (manifests, scripts, built-ins)."""
    target = tmp_path / "tools"
    shutil.copytree(TOOLS_PROJECT, target)
    return target


def configured(root: Path, **flags: Any) -> Config:
    """The configuration of the project ``root``, read from its pyproject.toml."""
    return pipeline.configure(root, False, **flags)[0]


def run_skillc(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    """Run the CLI in-process; return its exit status and stderr."""
    capsys.readouterr()
    status = cli.main(list(args))
    return status, capsys.readouterr().err


def tree(folder: Path) -> dict[str, bytes]:
    """Every file below ``folder`` (caches left out), by POSIX relative path."""
    return {
        path.relative_to(folder).as_posix(): path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
        and "__pycache__" not in path.parts
        and ".mypy_cache" not in path.parts
    }


# Where this process imports skillc from, when that is not the installed checkout (a
# folder on PYTHONPATH holding a skillc link): fresh processes import the same one.
IMPORTED_FROM = Path(cli.__file__).parent
SKILLC_PATH = [str(IMPORTED_FROM.parent)] if IMPORTED_FROM.name == "skillc" else []


UPDATE_HINT = "if the change is intended, run: nox -s tests -- --update-goldens"


def match_golden(produced: dict[str, bytes], golden: Path, update: bool) -> None:
    """``produced`` (path -> bytes) is the tree in ``golden``, file for file; a text
    file that differs fails with its unified diff. With ``update`` (``--update-goldens``)
    the golden tree is written from it instead."""
    if update:
        shutil.rmtree(golden, ignore_errors=True)
        for path, data in produced.items():
            (golden / path).parent.mkdir(parents=True, exist_ok=True)
            (golden / path).write_bytes(data)
        return
    expected = tree(golden)
    assert sorted(produced) == sorted(expected), UPDATE_HINT
    for path, content in expected.items():
        if produced[path] == content:
            continue
        if path.endswith(".zip"):
            pytest.fail(f"{path} differs from its golden file\n{UPDATE_HINT}")
        diff = difflib.unified_diff(
            content.decode().splitlines(),
            produced[path].decode().splitlines(),
            f"golden/{path}",
            f"built/{path}",
            lineterm="",
        )
        pytest.fail(f"{path} differs:\n" + "\n".join(diff) + f"\n{UPDATE_HINT}")


def run_python(code: str, cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    path = os.pathsep.join([str(cwd), *SKILLC_PATH])
    env = {**os.environ, "PYTHONPATH": path, "PYTHONDONTWRITEBYTECODE": "1"}
    return subprocess.run(
        [sys.executable, *args] if not code else [sys.executable, "-c", code, *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


# What generated packages import from the standard library.
_STDLIB = (
    "argparse asyncio base64 collections.abc dataclasses importlib inspect json math "
    "operator os pathlib re selectors shlex shutil signal socket subprocess sys "
    "threading time types typing unicodedata urllib.error urllib.parse urllib.request "
    "warnings"
)


@functools.cache
def _mypy_stdlib_cache() -> Path:
    """A mypy cache holding only the standard library's modules, made once per test
    process (about 4 s of each mypy run went to re-reading typeshed)."""
    folder = Path(tempfile.mkdtemp(prefix="skillc-mypy-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    (folder / "stdlib.py").write_text(f"import {', '.join(_STDLIB.split())}\n")
    subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--cache-dir", "cache", "stdlib.py"],
        cwd=folder,
        capture_output=True,
        check=True,
    )
    return folder / "cache"


def run_mypy(cwd: Path, target: str) -> subprocess.CompletedProcess[str]:
    """mypy --strict on a generated package (or a file using one), from ``cwd``: every
    module of the project checked anew, with a fresh copy of the standard library's
    cache."""
    with tempfile.TemporaryDirectory(prefix="skillc-mypy-") as scratch:
        cache = shutil.copytree(_mypy_stdlib_cache(), Path(scratch) / "cache")
        return subprocess.run(
            [sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(cache)]
            + [target],
            cwd=cwd,
            capture_output=True,
            text=True,
            check=False,
        )


def write_skill(root: Path, folder: str, text: str | bytes) -> Path:
    path = root / folder / "SKILL.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def skills_project(tmp_path: Path) -> Iterator[Path]:
    """An empty project with a skills/ folder and default configuration."""
    (tmp_path / "skills").mkdir()
    (tmp_path / "pyproject.toml").write_text('[tool.skillc]\nsources = ["skills"]\n')
    yield tmp_path
