"""Sessions: generate, check, tests, lint, bench, fuzz. .ci/run: tests, lint, check, fuzz."""

from __future__ import annotations

import nox

nox.options.sessions = ["tests", "lint", "check"]
nox.options.reuse_existing_virtualenvs = True
# uv installs the sessions' packages in seconds where pip takes minutes (.ci/run installs
# it beside nox); without it, nox falls back to virtualenv and pip, so the README's
# `pip install nox` still works.
nox.options.default_venv_backend = "uv|virtualenv"

# Test tools are pinned so that CI judges formatting and types the same way every run.
TEST_TOOLS = [
    "black==26.10.1",
    "mypy==2.4.1",
    "types-PyYAML",
    "types-jsonschema",
    "types-regex",
    # The layers contract in pyproject.toml: the pipeline's stages import one way only.
    "import-linter==2.16",
    # Agent Plugins' rules as another linter reads them, offline: the conformance
    # cases' verdicts are checked against it (tests/test_conformance_rules.py).
    "skillsaw==0.22.0",
    # A second linter of the packages harness-packages writes (tests/test_packages.py):
    # PyPI's wheel carries its binary (npm's downloads it at install time).
    "agnix==0.59.3",
    # An Agent Plugins 1.0 reader that is not skillc (peter-gy/agent-plugins): it reads
    # the written Agent Plugins package and resolves its MCP server
    # (tests/test_agent_plugins_reader.py). Pure Python, no dependencies.
    "agent-plugins==0.2.4",
]
# The provider SDKs whose own types the provider files and dispatch are tested against
# (the versions ../shared/reference/providers.md was checked with). Tests only.
PROVIDER_SDKS = [
    "anthropic==2.12.0",
    "openai==3.54.0",
    "google-genai==3.4.0",
    "mcp==2.3.0",
    "botocore==1.44.5",
]
# The agent frameworks the generated package's adapters are tested in (tests/test_adapters.py),
# against their offline test models. Tests only; about +96 MB installed, ~30 s. The Claude
# Agent SDK from its sdist: its wheels bundle the Claude Code CLI (170 MB), which the
# in-process server the tests drive does not need.
ADAPTER_FRAMEWORKS = [
    "openai-agents==0.24.0",
    "pydantic-ai-slim==2.68.0",
    "langchain==1.5.2",
    "claude-agent-sdk==0.2.189",
    "--no-binary=claude-agent-sdk",
]
# What the adoption tests run: the pre-commit hook, and ruff format over the output.
ADOPTION_TOOLS = ["pre-commit==4.7.0", "ruff==0.17.6"]


@nox.session
def generate(session: nox.Session) -> None:
    """Compile skills/ into generated/ (extra arguments go to `skillc build`)."""
    session.install(".")
    session.run("skillc", "build", *session.posargs)


@nox.session
def check(session: nox.Session) -> None:
    """Fail when generated/ is not what a build would write, or when the catalogue's
    health says so: skillc check with [tool.skillc.check]'s harness listings, breaking
    changes against the lock, overlaps, the review scan."""
    session.install(".")
    session.run("skillc", "check", *session.posargs)


@nox.session
def tests(session: nox.Session) -> None:
    """The test suite, against skillc installed as a wheel (templates included), on every
    core: one pytest-xdist worker per core, each test file on one worker, so that a
    module's built corpus is built once (`-- -n 0` runs it in this process)."""
    session.install(
        # onnx: the runtime of the -int8 encoders, and the library the tests build a
        # tiny ONNX encoder with (tests/test_encoder_onnx.py).
        ".[test,tokens,onnx]",
        "onnx==1.23.2",
        *TEST_TOOLS,
        *PROVIDER_SDKS,
        *ADOPTION_TOOLS,
        *ADAPTER_FRAMEWORKS,
        # test_packaging builds the wheel with `python -m pip`; a uv venv has no pip.
        *(["pip"] if session.venv_backend == "uv" else []),
    )
    # loadfile, not worksteal or loadgroup: the longest file (test_hostile_inputs, about
    # 8% of the suite's test time) is far below half of the total, so whole files balance
    # two workers; splitting files would build each module-scoped corpus once per worker.
    session.run("pytest", "-n", "auto", "--dist", "loadfile", *session.posargs)


@nox.session
def lint(session: nox.Session) -> None:
    """black --check, mypy --strict on the generator and on generated/, and the
    import-linter contract that keeps the pipeline's stages one-directional."""
    # Not the test extra: none of these imports pytest or hypothesis.
    session.install(".[tokens]", *TEST_TOOLS)
    session.run(
        "black", "--check", "generator", "templates", "tests", "noxfile.py", "generated"
    )
    session.run("mypy", "--strict", "generator")
    session.run("mypy", "--strict", "generated")
    # The checkout first on the path: the contract is about the source tree.
    session.run("lint-imports", "--no-cache", env={"PYTHONPATH": "."})


# find_tool's model mode in the bench: the encoders' runtimes (skillc's extras onnx and
# torch), for the encoders fetched on this machine (python -m skillc.embed.fetch).
# torch pinned to the CPU build this project's machines hold: a plain torch requirement
# may bring a CUDA build of several GB.
MODEL_RUNTIMES = [".[tokens,onnx,torch]", "torch==2.13.0"]


@nox.session
def bench(session: nox.Session) -> None:
    """Build-time and import-time figures at real sizes, each as a ratio to a floor
    measured in the same run (tests/bench.py says which)."""
    session.install(*MODEL_RUNTIMES, "rank-bm25==0.2.2")  # find_tool's speed floor
    session.run("python", "tests/bench.py", *session.posargs)


@nox.session
def fuzz(session: nox.Session) -> None:
    """Mutate real inputs from ../shared/corpus and build them, for a bounded time:
    nox -s fuzz -- --seconds 60 --seed 11 (CI's run); without --seed, a new seed."""
    session.install(".")
    session.run("python", "tests/fuzz.py", *session.posargs)
