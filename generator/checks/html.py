"""``skillc check --html FILE``: the catalogue's health as one page a maintainer opens
in a browser: each harness's listing budget as a chart (each plugin's share, what is
cut or dropped), the overlaps, the breaking changes, the scan's findings and every
diagnostic, each linked to its source line.

The page is self-contained (inline CSS and SVG, no script, no font, no request: its
Content-Security-Policy forbids any) and deterministic. Every text in it comes from
sources a pull request controls, so the template autoescapes everything, and a link is
only ever a relative path of the project, each segment percent-encoded: no name or
path can become markup, an attribute's end or a URL scheme.
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any
from urllib.parse import quote

from ..diagnostics import Severity
from ..diagnostic import Diagnostic
from ..resources import templates_dir

TEMPLATE = "health.html.jinja"
BAR = 480  # the chart's width of a full budget, in pixels
ROW = 20  # a chart row's height
OVER = 1.5  # a bar longer than this many budgets is drawn at this length
ROWS = 40  # a catalogue without plugins charts its largest entries, one bar each
LOST = frozenset({"cut", "truncated", "name-only", "omitted"})


def document(
    title: str,
    found: Mapping[str, Any],
    items: Iterable[Diagnostic],
    to_root: str,
) -> str:
    """The page of one ``skillc check``: ``found`` is what each check returned (the
    ``checks`` of ``--report``), ``items`` the diagnostics, ``to_root`` the project's
    folder relative to the page's (``.``, ``..``)."""
    import jinja2  # here: only --html needs it at check time

    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(templates_dir() / "jinja"),
        undefined=jinja2.StrictUndefined,
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters["count"] = lambda n: f"{n:,}"

    def link(path: str, line: int | None = None) -> dict[str, str]:
        return source_link(to_root, path, line)

    diagnostics = sorted(items)
    shown = [d for d in diagnostics if d.severity is not Severity.INFO]
    breaking = found.get("breaking") or {}
    return env.get_template(TEMPLATE).render(
        title=title,
        listing=[budget(r) for r in found.get("listing") or []],
        overlap=found.get("overlap") or [],
        breaking=breaking,
        scan=found.get("scan") or [],
        diagnostics=shown,
        counts={s.value: sum(d.severity is s for d in diagnostics) for s in Severity},
        ran=sorted(found),
        link=link,
        geometry={"bar": BAR, "row": ROW, "over": OVER},
    )


def source_link(to_root: str, path: str, line: int | None = None) -> dict[str, str]:
    """A source's place as a link from the page: a relative path (``./`` first, every
    segment percent-encoded, so that no path is read as a scheme or leaves the
    attribute) with ``#L<line>``, and its ``path:line`` text. A path skillc made up
    (``<builtin>``) or one that climbs out of the project is text alone."""
    text = f"{path}:{line}" if line else path
    parts = path.split("/")
    if path.startswith(("<", "/")) or ".." in parts or not path:
        return {"href": "", "text": text}
    base = "./" if to_root in ("", ".") else quote(to_root.rstrip("/")) + "/"
    href = base + "/".join(quote(p, safe="") for p in parts)
    return {"href": href + (f"#L{line}" if line else ""), "text": text}


def relative_root(page: Path, root: Path) -> str:
    """The project's folder as the page at ``page`` reaches it."""
    return Path(os.path.relpath(root, page.parent)).as_posix()


def budget(result: Mapping[str, Any]) -> dict[str, Any]:
    """One harness's listing as the chart draws it: each plugin's (or, in a catalogue
    without plugins, each entry's) share of the budget, in the budget's unit, shown
    and lost; and every entry with its share."""
    limit = result.get("budget") or None
    unit = limit["unit"] if limit else "entries"
    entries = list(result.get("entries") or [])
    size = limit["limit"] if limit else max(1, len(entries))
    plugins = any(e.get("plugin") for e in entries)
    groups: dict[str, dict[str, int]] = {}
    for e in entries if plugins else _largest(entries, unit):
        name = (e.get("plugin") or "") if plugins else str(e.get("name"))
        group = groups.setdefault(name, {"demand": 0, "shown": 0, "lost": 0})
        demand, shown = _costs(e, unit)
        group["demand"] += demand
        group["shown"] += shown
        group["lost"] += e.get("status") in LOST
    return {
        "harness": result.get("harness", ""),
        "context": result.get("context"),
        "limit": limit["limit"] if limit else None,
        "unit": unit,
        "by": "plugin" if plugins else "entry",
        "more": 0 if plugins else max(0, len(entries) - ROWS),
        # Plugins by name; entries largest first.
        "bars": [
            _bar(name, g, size)
            for name, g in (sorted(groups.items()) if plugins else groups.items())
        ],
        "entries": [
            {
                **e,
                "share": _percent(_costs(e, unit)[0], size),
                "lost": e["status"] in LOST,
            }
            for e in entries
        ],
        "lost": sum(e.get("status") in LOST for e in entries),
    }


def _largest(entries: list[Mapping[str, Any]], unit: str) -> list[Mapping[str, Any]]:
    """The ROWS entries that ask the most of the budget (in the listing's order
    where they ask alike)."""
    order = sorted(range(len(entries)), key=lambda i: (-_costs(entries[i], unit)[0], i))
    return [entries[i] for i in order[:ROWS]]


def _costs(entry: Mapping[str, Any], unit: str) -> tuple[int, int]:
    """What an entry asks of a budget and what it is given, in the budget's unit (4
    characters a token; one an entry where the limit is a count)."""
    if unit == "entries":
        return 1, int(entry.get("status") != "omitted")
    chars, shown = int(entry.get("chars") or 0), int(entry.get("shown") or 0)
    if unit == "chars":
        return chars, min(shown, chars)
    return math.ceil(chars / 4), math.ceil(min(shown, chars) / 4)


def _bar(name: str, group: Mapping[str, int], size: int) -> dict[str, Any]:
    demand, shown = group["demand"], group["shown"]
    return {
        "name": name or "(the project's own)",
        **group,
        "share": _percent(demand, size),
        "width": round(min(demand / size, OVER) * BAR, 1),
        "kept": round(min(shown / size, OVER) * BAR, 1),
    }


def _percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%"
