"""Each tool's module, written directly rather than through Jinja: a build writes one per
tool, and at thousands of tools the template engine was the larger part of the cost.
Every literal still goes through ``generator.views.pylit``; the layout is black's.
tests/test_corpus_rates.py (``test_tool_modules_are_the_old_bytes``) renders the real
corpora through the Jinja templates these replaced (tests/oracles/) and compares the
bytes."""

from __future__ import annotations

from collections.abc import Callable

from ..views import CallableModule, TaskModule, pylit

INDENT = "    "
Layout = Callable[[str], str]  # black's layout of a part of a module (``black``)


def task(tool: TaskModule, header: str, dots: str) -> str:
    """A skill's, subagent's or command's module: its ``TaskSpec`` and its function."""
    out = [pylit.pycomment(header), "\n\nfrom __future__ import annotations\n\n"]
    if tool.free_text:
        out.append("from collections.abc import Sequence\n\n")
    claude = "ClaudeCode, " if tool.claude else ""
    codex = "Codex, " if tool.codex else ""
    out += [
        f"from {dots}_tasks import {claude}{codex}Invocation, TaskSpec, task_tool\n\n",
        pylit.pyassign("_HELP", tool.help),
        "\n\n",
        pylit.pyassign("_INSTRUCTIONS", tool.instructions),
        "\n\nSPEC = TaskSpec(\n",
        f"    kind={pylit.pystr(tool.kind)},\n",
        f"    name={pylit.pystr(tool.name)},\n",
        f"    qualname={pylit.pystr(tool.qualname)},\n",
        f"    summary={pylit.pystr(tool.summary)},\n",
        "    help=_HELP,\n    instructions=_INSTRUCTIONS,\n",
        _field("arguments", tool.argument_names, INDENT),
        _field("allowed_tools", tool.allowed_tools, INDENT),
        f"    model={pylit.pyopt(tool.model)},\n",
        f"    skill_dir={pylit.pyopt(tool.skill_dir)},\n",
        _field("files", tool.files, INDENT),
    ]
    if tool.plugin_dir is not None:
        out.append(f"    plugin_dir={pylit.pystr(tool.plugin_dir)},\n")
    for field, settings, type_ in (
        ("claude", tool.claude, "ClaudeCode"),
        ("codex", tool.codex, "Codex"),
    ):
        if not settings:
            continue
        out.append(f"    {field}={type_}(\n")
        inner = INDENT * 2
        for name, value in settings:
            if isinstance(value, str):
                out.append(f"{inner}{name}={pylit.pystr(value)},\n")
            elif isinstance(value, bool):
                out.append(f"{inner}{name}={value},\n")
            else:
                out.append(_field(name, value, inner))
        out.append("    ),\n")
    out.append(f")\n\n\n@task_tool(SPEC)\ndef {tool.function}(\n")
    if tool.free_text:
        out.append('    arguments: str | Sequence[str] = "",\n')
        if tool.named:
            out.append("    *,\n")
            out += [f"    {a.py_name}: str | None = None,\n" for a in tool.named]
    else:
        out.append("    prompt: str,\n")
    out.append(f") -> Invocation:\n    {pylit.pydoc(tool.summary)}\n")
    if tool.named:
        out.append("    return SPEC.invocation(\n        arguments,\n        {\n")
        out += [
            f"            {pylit.pystr(a.name)}: {a.py_name},\n" for a in tool.named
        ]
        out.append("        },\n    )\n")
    else:
        given = "arguments" if tool.free_text else "prompt"
        out.append(f"    return SPEC.invocation({given}, {{}})\n")
    return "".join(out)


def _field(name: str, items: tuple[str, ...], indent: str) -> str:
    """``name=(...),`` at ``indent``: a tuple of string literals."""
    return f"{indent}{name}={pylit.pytuple(items, indent, name + '=')},\n"


def callable_(
    tool: CallableModule, header: str, dots: str, layout: Layout | None = None
) -> str:
    """A callable tool's module: its parameters' models, its ``ToolSpec`` and its
    function, which returns the arguments it sends. ``layout``: ``black``, or what
    remembers its answers (the pipeline's memo)."""
    layout = layout or black
    top = [
        pylit.pycomment(header),
        "\n\nfrom __future__ import annotations\n\n",
        f"from typing import {', '.join(tool.typing_names)}\n\n",
        f"from {dots} import _tools\n",
    ]
    if tool.models:
        if tool.models.startswith("class "):
            top.append("\n")
        top.append(f"\n{tool.models}\n\n")
    middle = [
        "\n",
        pylit.pyassign("_HELP", tool.help),
        "\n\n_SPEC = _tools.ToolSpec(\n",
        f"    qualname={pylit.pystr(tool.qualname)},\n",
        f"    name={pylit.pystr(tool.name)},\n",
        f"    summary={pylit.pystr(tool.summary)},\n",
        "    help=_HELP,\n",
        f"    executor={pylit.pyvalue(tool.executor, INDENT)},\n",
        f"    parameters={pylit.pyvalue(tool.parameters, INDENT)},\n",
        f"    input_schema={pylit.pyvalue(tool.input_schema, INDENT)},\n",
        f"    output_schema={tool.output_schema},\n",
        f"    skill_dir={pylit.pyopt(tool.skill_dir)},\n",
        f"    skill={pylit.pyopt(tool.skill)},\n",
        f"    returns={pylit.pystr(tool.returns)},\n",
        ")\n\n\n",
    ]
    returns = f"_tools.Arguments[{tool.returns}]"
    body = [f"    {pylit.pydoc(tool.docstring)}\n"]
    if tool.sends:
        body.append("    return _tools.Arguments(\n        {\n")
        body += [
            f"            {pylit.pystr(name)}: {py_name},\n"
            for name, py_name in tool.sends
        ]
        body.append("        }\n    )\n")
    else:
        body.append("    return _tools.Arguments()\n")
    parameters = [f"    {line},\n" for line in tool.signature]
    text = "".join(top)
    # Long annotations: black's own line splitting is the one to match.
    if tool.needs_black:
        if _too_wide(text):
            text = layout(text)
        function = _black_function(
            tool.function, returns, parameters, "".join(body), layout
        )
    else:
        function = _function(tool.function, returns, parameters, "".join(body))
    return text + "".join(middle) + function


def _function(name: str, returns: str, parameters: list[str], body: str) -> str:
    """The decorated function: its keyword parameters' lines, and its body."""
    if parameters:
        signature = f"def {name}(\n    *,\n{''.join(parameters)}) -> {returns}:\n"
    else:
        signature = f"def {name}() -> {returns}:\n"
    return f"@_tools.callable_tool(_SPEC)\n{signature}{body}"


def _black_function(
    name: str, returns: str, parameters: list[str], body: str, layout: Layout
) -> str:
    """The function as black lays it out. In a signature exploded one parameter a line,
    black splits each parameter's line alone, so only the lines too long are given to
    it; the whole function is when another line is too long (never in the corpora)."""
    lines = []
    for line in parameters:
        done = _black_parameter(line, layout) if _too_wide(line) else line
        if done is None:
            break
        lines.append(done)
    else:
        if not _too_wide(_function(name, returns, [], "")):
            return _function(name, returns, lines, body)
    whole = layout(FUTURE + _function(name, returns, parameters, body))
    return whole[len(FUTURE) :]


def _too_wide(text: str) -> bool:
    return any(pylit.width(line) > pylit.LINE_LENGTH for line in text.splitlines())


FUTURE = "from __future__ import annotations\n\n\n"


def black(source: str) -> str:
    """black's layout of a part of a module. black only ever changed a module's long
    lines (the rest is laid out as black lays it out by construction), and its parser is
    slow: only the imports and models, or a parameter's line, when too long, are given
    to it; a part that is not a module's start starts with the module's future import,
    which decides the Python versions black writes for. Trailing blank lines, which
    black drops at the end of a file, are kept. The pipeline keeps its answers: black
    takes 0.2 s to import and about 12 ms a call (5,000 manifest tools of
    tests/bench.py: 51 calls, 0.8 s of CPU a build; none after one change)."""
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


PARAMETER_HEAD = FUTURE + "def f(\n    *,\n"
PARAMETER_TAIL = ") -> None:\n    pass\n"


def _black_parameter(line: str, layout: Layout) -> str | None:
    """black's lines for one keyword parameter's line (``    name: type = default,``):
    in an exploded signature black splits each parameter's line alone, so a function of
    that one parameter gives them. None when black changed more than that line."""
    done = layout(PARAMETER_HEAD + line + PARAMETER_TAIL)
    if not done.startswith(PARAMETER_HEAD) or not done.endswith(PARAMETER_TAIL):
        return None
    return done[len(PARAMETER_HEAD) : -len(PARAMETER_TAIL)]
