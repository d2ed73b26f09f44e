"""Each shared corpus as a user meets it (issue 31): copied as it is into a fresh
folder, then ``skillc init`` and ``skillc build`` in fresh processes, with no hand
edits but an exclude glob for what a client refuses (REFUSED). Every other skill,
subagent, command and function compiles, the build says so in a
few lines, and every command of the CLAUDE.md and AGENTS.md it writes runs as written.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
import pytest

from conftest import shared_corpus
from corpus_functions import ALL_SOURCES, write_manifests
from test_agent_docs import run_the_docs

# Tool counts: every SKILL.md of the skill collections; the marketplace's 91 plugins'
# skills, subagents and commands but pptx-deck-creation's 9 (REFUSED); every function of
# the four catalogues.
CORPORA = {
    "anthropics-skills": (("skills", "anthropics-skills"), 12),
    "obra-superpowers": (("skills", "obra-superpowers"), 14),
    "wshobson-agents": (("plugins", "wshobson-agents"), 485),
    "functions": (("functions",), 874),
}
# What a client refuses in a corpus, each a located error (issue 42), and the exclude
# glob a user then writes: Claude Code does not install a plugin whose plugin.json
# lists a folder as agents. The build says so and writes nothing; excluded, the rest
# builds.
REFUSED = {
    "wshobson-agents": (
        "plugins/pptx-deck-creation",
        "plugins/pptx-deck-creation/.claude-plugin/plugin.json:10:14: "
        "error[invalid-plugin]: agents entry './agents' names no .md file (agents: "
        "Invalid input, anthropics/claude-code#44777): Claude Code does not load the "
        "plugin",
    )
}
MOST_LINES = 30  # what init and build print together, warnings counted past a few


def skillc(project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1", "NO_COLOR": "1"}
    return subprocess.run(
        [sys.executable, "-m", "skillc", *args],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


@pytest.mark.parametrize("corpus", sorted(CORPORA))
def test_init_then_build_compiles_every_tool(tmp_path: Path, corpus: str) -> None:
    parts, expected = CORPORA[corpus]
    source = shared_corpus(*parts)
    project = tmp_path / corpus
    if corpus == "functions":
        # One manifest per catalogue as it is; only a name given twice (BFCL samples
        # one function more than once) goes to another, as one manifest cannot hold it.
        write_manifests(project / "skills", ALL_SOURCES, apart=str)
    else:
        shutil.copytree(source, project)
    init = skillc(project, "init")
    assert init.returncode == 0, init.stdout + init.stderr
    build = skillc(project, "build")
    if corpus in REFUSED:
        glob, refusal = REFUSED[corpus]
        said = [line for line in build.stderr.splitlines() if "error[" in line]
        assert (build.returncode, said) == (1, [refusal]), build.stderr
        config = (project / "pyproject.toml").read_text()
        config = config.replace(
            "[tool.skillc]\n", f'[tool.skillc]\nexclude = ["{glob}"]\n'
        )
        (project / "pyproject.toml").write_text(config)
        build = skillc(project, "build")
    assert build.returncode == 0, build.stderr
    report = json.loads((project / "generated" / "report.json").read_text())
    assert len(report["tools"]) == expected
    assert not report["invalid"]
    printed = (init.stdout + init.stderr + build.stdout + build.stderr).splitlines()
    assert len(printed) <= MOST_LINES, "\n".join(printed)
    assert build.stderr.splitlines()[-1].startswith(f"skillc: {expected:,} tools; ")
    ran = run_the_docs(project / "generated", project)
    assert len(ran) >= 3, ran  # find, list, help
    # A call is shown only where one runs as written: the functions' tools all call an
    # HTTP API (the network), so their docs show none.
    assert any(" call " in command for command in ran) == (corpus != "functions")
