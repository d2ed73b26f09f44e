"""The Jinja2 environment: strict about undefined names, no HTML escaping, exact whitespace.

Templates only loop and branch over data the emitters prepared; every literal they print
went through ``generator.views.pylit`` first.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from ..views import pylit
from ..resources import runtime_dir, templates_dir

if TYPE_CHECKING:
    import jinja2


@cache
def environment() -> jinja2.Environment:
    import jinja2  # here, so that a no-op build never imports it

    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(templates_dir() / "jinja"),
        undefined=jinja2.StrictUndefined,
        autoescape=False,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters["pystr"] = pylit.pystr
    env.filters["pydoc"] = pylit.pydoc
    env.filters["pycomment"] = pylit.pycomment
    env.filters["pyopt"] = pylit.pyopt
    env.filters["mdcode"] = md_code
    env.globals["pyassign"] = pylit.pyassign
    env.globals["pytuple"] = pylit.pytuple
    env.globals["pyvalue"] = pylit.pyvalue
    env.globals["pyfrom"] = pylit.pyfrom
    return env


def render(template: str, **context: object) -> str:
    return environment().get_template(template).render(**context)


def static(name: str) -> str:
    """A runtime module, copied as it is (no Jinja syntax is read in it)."""
    return (runtime_dir() / name).read_text(encoding="utf-8")


def md_code(text: object) -> str:
    """Untrusted text as one Markdown code span: on one line, no backtick to close it."""
    return "`" + " ".join(str(text).split()).replace("`", "'") + "`"
