"""A new provider is its module, its runtime module and one line in
generator/provider_registry.py: a toy provider, written and registered from outside
skillc at test time, gets its file in providers/, its column in names.json, its name in
find_tool's matches, and its runtime module copied into the package, by which the
generated package's ``dispatch()`` reads its calls and answers in its shape."""

from __future__ import annotations

import contextlib
import importlib
import json
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from conftest import FIXTURE_PROJECT, run_skillc
from skillc import provider_registry

TOY = """
from pathlib import Path
from typing import Any

from skillc.emitters.providers import Dispatch, File
from skillc.emitters.providers.schemas import description, input_schema


def entry(tool: Any, notes: Any, file: str, always: bool) -> dict[str, Any]:
    return {"tool": tool.provider_name, "about": description(tool), "takes": input_schema(tool)}


FILES = (File("toy.json", entry),)
NAMES = "flat"
DISPATCH = (Dispatch("toy", Path(__file__).with_name("toy_runtime.py")),)
"""
# The toy's half of dispatch(), as the package's _providers/toy_runtime.py.
TOY_RUNTIME = """
from __future__ import annotations

from typing import Any

from .._dispatch import Call, Outcome


def read(item: dict[str, Any]) -> Call:
    return Call.of(item.get("ref"), item.get("tool"), item.get("args"))


def answer(call: Call, outcome: Outcome) -> dict[str, Any]:
    return {"ref": call.id, "ok": outcome.ok, "says": outcome.text}
"""


@pytest.fixture
def toy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    folder = tmp_path / "outside"
    folder.mkdir()
    (folder / "toy_dispatch.py").write_text(TOY, encoding="utf-8")
    (folder / "toy_runtime.py").write_text(TOY_RUNTIME, encoding="utf-8")
    monkeypatch.syspath_prepend(str(folder))
    toy = importlib.import_module("toy_dispatch")
    monkeypatch.setitem(provider_registry.PROVIDERS, "toy", toy)
    yield
    sys.modules.pop("toy_dispatch", None)


@contextlib.contextmanager
def built(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Iterator[Any]:
    """The fixture project built in this process, imported as ``tools``."""
    project = tmp_path / "project"
    shutil.copytree(FIXTURE_PROJECT, project)
    status, err = run_skillc(capsys, "-C", str(project), "build")
    assert status == 0, err
    (project / "out").rename(project / "tools")
    sys.path.insert(0, str(project))
    try:
        yield importlib.import_module("tools")
    finally:
        sys.path.remove(str(project))
        for name in [m for m in sys.modules if m.partition(".")[0] == "tools"]:
            del sys.modules[name]


def test_a_provider_registered_from_outside_is_dispatched(
    toy: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with built(tmp_path, capsys) as tools:
        out = Path(tools.__file__).parent
        listed = json.loads((out / "providers" / "toy.json").read_text())
        assert any(item["tool"] == "task__greeter" for item in listed)
        names = json.loads((out / "providers" / "names.json").read_text())
        assert names["to_provider"]["task.greeter"]["toy"] == "task__greeter"
        call = {"ref": "r1", "tool": "task__greeter", "args": {"arguments": "Ann"}}
        answer = tools.dispatch("toy", call)
        said = tools.task.greeter(arguments="Ann").instructions
        assert answer == {"ref": "r1", "ok": True, "says": said}
        unknown = tools.dispatch("toy", {"ref": "r2", "tool": "nothing", "args": {}})
        assert unknown == {"ref": "r2", "ok": False, "says": "unknown tool 'nothing'"}
        # The providers before it still answer in their own shapes.
        block = {"toolUse": {"toolUseId": "b1", "name": "task__greeter"}}
        assert tools.dispatch("bedrock", block)["toolResult"]["status"] == "success"
        match = tools.find_tool("greet someone", 1)[0]
        assert match.providers["toy"] == match.providers["anthropic"]
        # Its runtime module is the toy's own, copied.
        runtime = (out / "_providers" / "toy_runtime.py").read_text(encoding="utf-8")
        assert runtime.endswith(TOY_RUNTIME)
