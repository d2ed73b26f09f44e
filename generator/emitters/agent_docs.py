"""CLAUDE.md beside the package: a few lines that point agents at the tools."""

from __future__ import annotations

from generator import render
from generator.emitters.python_package import HEADER, Layout
from generator.ir import Kind, Model


def emit(model: Model, layout: Layout) -> dict[str, str]:
    top = [ns.qualname for ns in model.namespaces if len(ns.path) == 1]
    tasks = [t.qualname for t in model.tools if t.definition.kind is not Kind.TOOL]
    tools = [t for t in model.tools if t.definition.kind is Kind.TOOL]
    example = model.tools[0].qualname if model.tools else "task.<tool>"
    tool_call = ""
    if tools:
        first = tools[0]
        flags = " ".join(f"--{p.name} ..." for p in first.parameters if p.required)
        tool_call = f"{first.qualname} {flags}".rstrip()
    text = render.render(
        "CLAUDE.md.jinja",
        header=HEADER.format(source=""),
        out=layout.out,
        package=layout.package,
        count=len(model.tools),
        namespaces=", ".join(f"`{name}`" for name in top) or "(none)",
        example=example,
        task_call=tasks[0] if tasks else "",
        tool_call=tool_call,
        sources=", ".join(f"`{source}/`" for source in layout.sources),
    )
    return {"CLAUDE.md": text}
