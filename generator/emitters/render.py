"""The Jinja2 environment: strict about undefined names, no HTML escaping, exact whitespace.

Templates only loop and branch over data the emitters prepared; every literal they print
went through ``generator.views.pylit`` first.
"""

from __future__ import annotations

from collections.abc import Callable
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
        auto_reload=False,  # a build renders a template per tool: no stat each time
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


Layout = Callable[[str], str]  # black's layout of a part of a module (``black``)
FUTURE = "from __future__ import annotations\n\n\n"


def black(source: str) -> str:
    """black's layout of a part of a module. A part that is not a module's start starts
    with the module's future import, which decides the Python versions black writes
    for. Trailing blank lines, which black drops at the end of a file, are kept. black
    takes 0.2 s to import and about 12 ms a call: the pipeline keeps its answers."""
    import black

    # Pinned to the layout pylit writes, whatever black's defaults become.
    mode = black.Mode(
        line_length=pylit.LINE_LENGTH,
        string_normalization=True,
        magic_trailing_comma=True,
        preview=False,
    )
    code = source.rstrip("\n") + "\n"
    return str(black.format_str(code, mode=mode)) + source[len(code) :]
