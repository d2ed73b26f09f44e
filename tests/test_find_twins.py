"""find_tool returns one tool of a group of twins: tools of the same name and
description (one definition in two namespaces, a server mounted twice). A caller asking
for tools wants distinct ones; three copies of one would fill a top 3 (issue 45: 5,000
tools with copies as distractors, dev recall@3 0.362 -> 0.419)."""

from __future__ import annotations

import contextlib
import importlib
import io
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from skillc import cli

COPIES = (
    "alpha",
    "beta",
    "delta",
    "epsilon",
    "zeta",
)  # namespaces with MAIL's send_mail
MAIL = "Send an email message to one recipient, with a subject and a body."


def manifest(namespace: str, tools: dict[str, str]) -> dict[str, Any]:
    return {
        "namespace": namespace,
        "tools": [
            {
                "name": name,
                "description": description,
                "parameters": {"type": "object", "properties": {}},
                "executor": {"type": "http", "url": "https://example.com/call"},
            }
            for name, description in tools.items()
        ],
    }


@pytest.fixture(scope="module")
def search(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """A package whose namespaces alpha, beta, delta, epsilon and zeta hold the same
    send_mail; alpha also has send_sms and gamma a send_mail of its own words."""
    project = tmp_path_factory.mktemp("twins")
    (project / "pyproject.toml").write_text('[tool.skillc]\nsources = ["skills"]\n')
    tools = {
        "alpha": {"send_mail": MAIL, "send_sms": "Send a text message to a phone."},
        "beta": {"send_mail": MAIL},
        "gamma": {"send_mail": "Send an email message through the gamma relay."},
        "delta": {"send_mail": MAIL},
        "epsilon": {"send_mail": MAIL},
        "zeta": {"send_mail": MAIL},
    }
    for namespace, defined in tools.items():
        folder = project / "skills" / namespace
        folder.mkdir(parents=True)
        text = yaml.safe_dump(manifest(namespace, defined), sort_keys=False)
        (folder / "tool-manifest.yaml").write_text(text, encoding="utf-8")
    command = ["-C", str(project), "build", "--package", "twins", "--out", "twins"]
    with contextlib.redirect_stderr(io.StringIO()) as err:
        assert cli.main(command) == 0, err.getvalue()
    sys.path.insert(0, str(project))
    try:
        return importlib.import_module("twins._search")
    finally:
        sys.path.remove(str(project))


def test_the_index_pairs_each_twin_with_the_first_of_its_group(search: Any) -> None:
    index = importlib.import_module("twins._search_index")
    twins = {
        index.TOOLS[t]: index.TOOLS[f]
        for t, f in search._lexical("x").index.twins.items()
    }
    # gamma's send_mail has a description of its own: no twin
    assert twins == {f"{n}.send_mail": "alpha.send_mail" for n in COPIES[1:]}


# "lexical" ranks in Python (as without numpy), "dense" and "hybrid" with numpy
@pytest.mark.parametrize("method", ["lexical", "dense", "hybrid"])
def test_twins_are_returned_once_the_best_ranked(search: Any, method: str) -> None:
    names = [m.name for m in search.find("send an email message", 10, method=method)]
    copies = [n for n in names if n.split(".")[0] in COPIES and "mail" in n]
    assert len(copies) == 1  # the best ranked (vectors hold the namespace's words)
    if method == "lexical":  # a tie (the same words): the first by name
        assert copies == ["alpha.send_mail"]
    assert "gamma.send_mail" in names and "alpha.send_sms" in names
    # named with its namespace, a twin comes first, and stands for its group
    named = [m.name for m in search.find("delta send an email", 10, method=method)]
    assert named[0] == "delta.send_mail"
    assert [n for n in named if n.split(".")[0] in COPIES and "mail" in n] == [
        "delta.send_mail"
    ]
    # k distinct tools, though the k best scores are all copies' (dense and hybrid
    # look further than their first k tools)
    two = [m.name for m in search.find(MAIL, 2, method=method)]
    assert two[0].endswith(".send_mail") and two[0].split(".")[0] in COPIES
    assert two[1] in ("gamma.send_mail", "alpha.send_sms")


def test_a_match_names_the_twins_it_stands_for(search: Any) -> None:
    """Nothing is hidden: the match's reason names its group's other tools (three at
    most, then how many more), and a tool without twins says none."""
    (best,) = search.find("delta send an email", 1, method="lexical")
    assert best.name == "delta.send_mail"
    assert best.reason.endswith(
        "; the same tool as alpha.send_mail, beta.send_mail, epsilon.send_mail"
        " and 1 more"
    )
    sms = search.find("send a text message to a phone", 1, method="lexical")
    assert sms[0].name == "alpha.send_sms" and "the same tool" not in sms[0].reason
