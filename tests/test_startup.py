"""What a fresh process imports on the two hot paths: ``import generated;
generated.list()``, and a build with nothing to do. The speed itself is the bench's
(tests/bench.py); these pin the property behind it: the work left out stays out."""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path
from typing import Any

import pytest
import yaml

from conftest import run_python, run_skillc, write_skill
from skillc import digests

# Modules a fresh import + list used to load: each costs more than the listing itself.
HEAVY_FOR_LISTING = (
    "typing",
    "collections",
    "collections.abc",
    "re",
    "enum",
    "types",
    "importlib",
    "dataclasses",
    "__future__",  # what ``from __future__ import annotations`` imports at run time
)
IMPORTED = """
import json, sys
compiled = []
def audit(event, args):
    if event == "compile" and isinstance(args[1], str):
        compiled.append(args[1])
sys.addaudithook(audit)
before = set(sys.modules)
import tools
listed = tools.list()
print(json.dumps({
    "new": sorted(set(sys.modules) - before),
    "compiled": compiled,
    "listed": [[entry.name, entry.namespace, entry.summary] for entry in listed],
}))
"""


def _build(capsys: pytest.CaptureFixture[str], project: Path) -> None:
    """The fixture project built, its package importable as "tools" from ``project``."""
    assert run_skillc(capsys, "-C", str(project), "build")[0] == 0
    (project / "out").rename(project / "tools")


def _imported(project: Path) -> dict[str, Any]:
    done = run_python(IMPORTED, project)
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def test_import_and_list_compile_only_init_and_listing(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """With no .pyc, every module imported is compiled from its source, which costs
    more than anything else the listing does: two modules, ``__init__`` and
    ``_listing``, and nothing else imported (not even ``__future__``)."""
    _build(capsys, project)
    result = _imported(project)
    assert result["listed"]
    assert set(result["new"]) == {"tools", "tools._listing"}
    assert not set(result["new"]) & set(HEAVY_FOR_LISTING)
    compiled = [
        Path(name).relative_to(project).as_posix() for name in result["compiled"]
    ]
    assert compiled == ["tools/__init__.py", "tools/_listing.py"]


def test_the_exported_names_are_read_when_asked_for(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``__init__`` leaves its exported names to ``_api`` (which type checkers read):
    ``__all__``, ``dir()`` and ``import *`` still give every one of them."""
    _build(capsys, project)
    code = """
import json, sys, tools
assert "tools._api" not in sys.modules
star = {}
exec("from tools import *", star)
print(json.dumps({"all": tools.__all__, "dir": dir(tools), "star": sorted(star)}))
"""
    done = run_python(code, project)
    assert done.returncode == 0, done.stderr
    names = json.loads(done.stdout)
    exported = set(names["all"])
    assert {"list", "tools", "help", "dispatch", "ToolEntry", "task"} <= exported
    assert {"set_task_runner", "find_tool", "set_confirm_policy"} <= exported
    assert exported <= set(names["dir"])
    assert exported == set(names["star"]) - {"__builtins__"}


# Summaries that a triple-quoted literal must escape (quotes, backslashes, a quote
# where the literal closes), or keep as they are; whitespace collapses at build time.
HOSTILE_SUMMARIES = (
    'Ends with a quote"',
    'Has """ three quotes, and \'single\' ones.',
    "Has ''' three single quotes and a \"",
    "A back\\slash, and one at the end\\",
    "Looks like escapes: \\n \\t \\x00 \\N{BULLET} \\u2028 {braces} %s",
    "Unicode stays: café, 日本語, 🚀, and a control character: \x07.",
    "Whitespace\tand\nline breaks\u2028collapse to spaces.",
)


def test_the_level1_literal_keeps_every_summary(
    tools_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The summaries reach ``_listing`` as lines of escaped text in one string literal:
    list() gives each back as the build made it. A source name with a tab (the index
    once split lines at tabs) does not spill into its summary."""
    described = {f"t{number}": text for number, text in enumerate(HOSTILE_SUMMARIES)}
    described["tab\tname"] = "Named with a tab."
    tools = [
        {
            "name": name,
            "description": text,
            "parameters": {"type": "object", "properties": {}},
            "executor": {"type": "http", "url": "https://example.com/call"},
        }
        for name, text in described.items()
    ]
    manifest = tools_project / "manifests" / "odd" / "tool-manifest.yaml"
    manifest.parent.mkdir()
    manifest.write_text(
        yaml.safe_dump({"namespace": "odd", "tools": tools}), encoding="utf-8"
    )
    assert run_skillc(capsys, "-C", str(tools_project), "build")[0] == 0
    (tools_project / "out").rename(tools_project / "tools")
    listed = _imported(tools_project)["listed"]
    odd = {name: summary for name, namespace, summary in listed if namespace == "odd"}
    assert odd == {
        "odd." + name.replace("\t", "_"): " ".join(text.split())
        for name, text in described.items()
    }


def test_the_listing_entries_behave_as_named_tuples(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """ToolEntry is written out instead of typing.NamedTuple: it keeps what a named
    tuple offers (fields, repr, pickling, pattern matching, _asdict, _replace)."""
    _build(capsys, project)
    code = """
import copy, pickle, generated
entry = generated.list()[0]
name, namespace, summary = entry
assert (entry.name, entry.namespace, entry.summary) == (name, namespace, summary)
assert entry == (name, namespace, summary) and isinstance(entry, tuple)
assert repr(entry) == (
    f"ToolEntry(name={name!r}, namespace={namespace!r}, summary={summary!r})"
)
assert pickle.loads(pickle.dumps(entry)) == entry == copy.deepcopy(entry)
assert type(pickle.loads(pickle.dumps(entry))) is generated.ToolEntry
assert entry._fields == ("name", "namespace", "summary")
assert entry._asdict() == {"name": name, "namespace": namespace, "summary": summary}
assert entry._replace(summary="x") == (name, namespace, "x")
match entry:
    case generated.ToolEntry(n, ns, s):
        assert (n, ns, s) == entry
assert generated.ToolEntry is generated._runtime.ToolEntry
assert generated.Filter is generated._runtime.Filter
assert "set_task_runner" in dir(generated) and callable(generated.set_task_runner)
print("ok")
"""
    done = run_python(code.replace("generated", "tools"), project)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr


# What a build with nothing to do must not import: it compares the stats of the
# sources and of the output folder with those the last build kept.
NOT_FOR_A_NO_OP = (
    "yaml",
    "jinja2",
    "skillc.loaders",
    "skillc.views",
    "skillc.emitters",
    "skillc.resolve",
    "skillc.ir",  # the model's 20 dataclasses
    "skillc.discover",  # the walk: its plugin formats' loaders and dataclasses
    "skillc.harness",  # the clients' rules, which only the walk and the checks read
    "skillc.settings",  # pydantic: the settings come from the last build
    "skillc.embed",  # model mode's encoders
    "threading",  # and signal: the progress line's timer, for a terminal only
    "signal",
)
NO_OP = """
import json, sys
from skillc import cli
status = cli.main(["-C", sys.argv[1], "build"])
print(json.dumps({"status": status, "modules": sorted(sys.modules)}))
"""


def test_a_no_op_build_imports_no_loader_nor_emitter(
    skills_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """(The skill's stats are made older than the racy window of the build that
    follows, so that the no-op trusts them and does not walk: see test_noop_walk.)"""
    write_skill(
        skills_project / "skills", "a", "---\nname: a\ndescription: Does a.\n---\n"
    )
    time.sleep(3 * digests.RACY_NS / 1e9)
    assert run_skillc(capsys, "-C", str(skills_project), "build")[0] == 0
    done = run_python(NO_OP, skills_project, str(skills_project))
    assert done.returncode == 0, done.stderr
    assert "generated/ is up to date" in done.stderr
    result = json.loads(done.stdout)
    assert result["status"] == 0
    loaded = [
        name
        for name in result["modules"]
        if any(name == m or name.startswith(m + ".") for m in NOT_FOR_A_NO_OP)
    ]
    assert loaded == []


def test_a_no_op_build_of_a_plugin_reads_its_manifest_without_yaml_nor_the_model(
    skills_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Discovery reads plugin manifests (JSON) on every build that walks, a no-op too
    (here a folder was touched since the last build): that imports the plugin loader,
    but neither PyYAML nor the model (skillc.ir), nor any loader of the files it
    finds."""
    plugin = skills_project / "skills" / "p"
    (plugin / ".claude-plugin").mkdir(parents=True)
    (plugin / ".claude-plugin" / "plugin.json").write_text('{"name": "p"}')
    write_skill(plugin / "skills", "a", "---\nname: a\ndescription: Does a.\n---\n")
    assert run_skillc(capsys, "-C", str(skills_project), "build")[0] == 0
    (skills_project / "skills" / "scratch").mkdir()  # the folder's stat changes
    (skills_project / "skills" / "scratch").rmdir()
    done = run_python(NO_OP, skills_project, str(skills_project))
    assert done.returncode == 0, done.stderr
    assert "generated/ is up to date" in done.stderr
    modules = json.loads(done.stdout)["modules"]
    assert "skillc.loaders.plugin" in modules
    walk = ("skillc.loaders", "skillc.discover", "skillc.harness")
    left_out = [m for m in NOT_FOR_A_NO_OP if m not in walk]
    left_out += ["skillc.loaders.skill", "skillc.loaders.yamlpos"]
    loaded = [
        name
        for name in modules
        if any(name == m or name.startswith(m + ".") for m in left_out)
    ]
    assert loaded == []


BUILD_REPORTING_MODULES = """
import json, sys
from skillc import cli
status = cli.main(["-C", sys.argv[1], "build"])
print(json.dumps({"status": status, "modules": sorted(sys.modules)}))
"""


def test_a_build_that_needs_no_token_count_never_imports_the_counter(
    skills_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """With token-counter = "o200k_base", the counts are kept in the cache with each
    text: a build whose texts were all counted before (here the output folder was
    deleted) writes the same report without importing bpe-openai (seconds)."""
    pytest.importorskip("bpe_openai")
    (skills_project / "pyproject.toml").write_text(
        '[tool.skillc]\nsources = ["skills"]\ntoken-counter = "o200k_base"\n'
    )
    for name in ("a", "b"):
        write_skill(
            skills_project / "skills",
            name,
            f"---\nname: {name}\ndescription: Does {name}.\n---\nStep one.\n",
        )
    assert run_skillc(capsys, "-C", str(skills_project), "build")[0] == 0
    report = (skills_project / "generated" / "report.json").read_text()
    shutil.rmtree(skills_project / "generated")
    done = run_python(BUILD_REPORTING_MODULES, skills_project, str(skills_project))
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["status"] == 0 and "bpe_openai" not in result["modules"]
    assert (skills_project / "generated" / "report.json").read_text() == report
