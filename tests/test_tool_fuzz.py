"""Hypothesis: random property names, enum values and descriptions always give a tool
module that black leaves as it is, that imports, and whose calls send the original names.
"""

from __future__ import annotations

import contextlib
import importlib
import io
import sys
from pathlib import Path
from typing import Any

import black
import yaml
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from skillc import cli
from skillc.names import PARAMETER_RESERVED, identifier

names = st.text(min_size=1, max_size=12)
texts = st.text(max_size=60)
properties = st.dictionaries(
    names,
    st.one_of(
        st.builds(lambda d: {"type": "string", "description": d}, texts),
        st.builds(
            lambda values, d: {"enum": values, "description": d},
            st.lists(
                st.one_of(texts, st.integers(), st.booleans()),
                min_size=1,
                max_size=4,
                unique=True,
            ),
            texts,
        ),
        st.builds(
            lambda inner: {"type": "object", "properties": inner},
            st.dictionaries(names, st.just({"type": "integer"}), max_size=3),
        ),
    ),
    min_size=1,
    max_size=5,
)

COUNTER = iter(range(10**6))
# Keywords a schema may hold, real and made up, so random schemas hit the normaliser's rules.
SCHEMA_WORDS = [
    "type",
    "properties",
    "required",
    "items",
    "enum",
    "default",
    "nullable",
    "optional",
    "$ref",
    "$defs",
    "anyOf",
    "oneOf",
    "allOf",
    "additionalProperties",
    "description",
    "minimum",
    "format",
    "prefixItems",
    "not",
    "x",
    "dict",
    "str",
    "#/properties/x",
]


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(props=properties, description=texts)
def test_random_schemas_give_code_that_sends_the_original_names(
    tmp_path: Path, props: dict[str, Any], description: str
) -> None:
    py_names = [identifier(name, PARAMETER_RESERVED) for name in props]
    assume(
        len(set(py_names)) == len(py_names)
    )  # a collision is an error, tested elsewhere
    package = f"fuzz{next(COUNTER)}"
    project = tmp_path / package
    (project / "skills").mkdir(parents=True)
    (project / "pyproject.toml").write_text(
        f'[tool.skillc]\nsources = ["skills"]\nout = "{package}"\n'
    )
    manifest = {
        "namespace": "ns",
        "tools": [
            {
                "name": "t",
                "description": description or "-",
                "input_schema": {"type": "object", "properties": props},
                "executor": {"type": "python", "function": "json:dumps"},
            }
        ],
    }
    (project / "skills" / "a.tools.yaml").write_text(
        yaml.safe_dump(manifest), encoding="utf-8"
    )
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        status = cli.main(["-C", str(project), "build", "--no-cache"])
    assert status == 0, err.getvalue()
    source = (project / package / "ns" / "_t.py").read_text()
    assert black.format_str(source, mode=black.Mode()) == source
    sys.path.insert(0, str(project))
    try:
        module = importlib.import_module(f"{package}.ns._t")
        tool = module.t
        sample = {py: index for index, py in enumerate(tool.spec.parameters)}
        sent = tool.__wrapped__(**sample)
        assert sorted(sent) == sorted(props)
        assert {sent[props_name] for props_name in props} == set(sample.values())
        assert (
            description.strip().split("\n")[0].strip() in tool.help()
            or not description.strip()
        )
    finally:
        sys.path.remove(str(project))


json_values = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(),
        st.floats(allow_nan=False),
        texts,
        st.sampled_from(SCHEMA_WORDS + ["object", "string", "array", "null", "any"]),
    ),
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.dictionaries(st.sampled_from(SCHEMA_WORDS), inner, max_size=4),
    ),
    max_leaves=12,
)


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    schema=st.dictionaries(st.sampled_from(SCHEMA_WORDS), json_values, max_size=5),
    kind=st.sampled_from(["tools", "tool-manifest"]),
)
def test_any_schema_gives_diagnostics_never_a_crash(
    tmp_path: Path, schema: Any, kind: str
) -> None:
    """Whatever an input schema holds, the build exits 0 or 1 with diagnostics."""
    project = tmp_path / f"any{next(COUNTER)}"
    (project / "skills" / "w").mkdir(parents=True)
    (project / "pyproject.toml").write_text('[tool.skillc]\nsources = ["skills"]\n')
    tool = {"name": "t", "description": "D.", "input_schema": schema}
    if kind == "tools":
        tool["executor"] = {"type": "python", "function": "json:dumps"}
        manifest: dict[str, Any] = {"namespace": "ns", "tools": [tool]}
        path = project / "skills" / "a.tools.yaml"
    else:
        tool["executor"] = {"type": "http", "url": "https://example.com"}
        manifest = {"tools": [tool]}
        path = project / "skills" / "w" / "tool-manifest.yaml"
    path.write_text(yaml.safe_dump(manifest), encoding="utf-8")
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        status = cli.main(["-C", str(project), "build", "--no-cache"])
    assert status in (0, 1), err.getvalue()
    assert "Traceback" not in err.getvalue()


def test_a_signature_too_wide_without_parameters_is_black_as_well(
    tmp_path: Path,
) -> None:
    """A long tool name without parameters, and a long result type: black splits the
    ``def`` line itself, so the whole module is laid out by black."""
    project = tmp_path / "wide"
    (project / "skills").mkdir(parents=True)
    (project / "pyproject.toml").write_text('[tool.skillc]\nsources = ["skills"]\n')
    name = "fetch_every_open_pull_request_of_the_organisation_now"
    tool = {
        "name": name,
        "description": "D.",
        "input_schema": {"type": "object", "properties": {}},
        "output_schema": {"type": "array", "items": {"type": "object"}},
        "executor": {"type": "python", "function": "json:dumps"},
    }
    (project / "skills" / "a.tools.yaml").write_text(
        yaml.safe_dump({"namespace": "ns", "tools": [tool]}), encoding="utf-8"
    )
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        status = cli.main(["-C", str(project), "build", "--no-cache"])
    assert status == 0, err.getvalue()
    source = (project / "generated" / "ns" / f"_{name}.py").read_text()
    assert black.format_str(source, mode=black.Mode()) == source
