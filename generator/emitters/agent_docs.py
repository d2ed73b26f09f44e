"""CLAUDE.md beside the package: a few lines that point agents at the tools."""

from __future__ import annotations

from generator import render
from generator.emitters.python_package import HEADER, Layout
from generator.ir import Model


def emit(model: Model, layout: Layout) -> dict[str, str]:
    top = [ns.qualname for ns in model.namespaces if len(ns.path) == 1]
    example = model.tools[0].qualname if model.tools else "task.<tool>"
    text = render.render(
        "CLAUDE.md.jinja",
        header=HEADER.format(source=""),
        out=layout.out,
        package=layout.package,
        count=len(model.tools),
        namespaces=", ".join(f"`{name}`" for name in top) or "(none)",
        example=example,
        sources=", ".join(f"`{source}/`" for source in layout.sources),
    )
    return {"CLAUDE.md": text}
