"""YAML parsing that keeps positions: PyYAML's safe loader (the C one when present).

``parse`` composes the node graph first, so that every key and value keeps its line and
column, checks it (alias expansion bound, duplicate keys, flow style), and only then
constructs Python values. Lines and columns it reports are 1-based file positions.
"""

from __future__ import annotations

from dataclasses import dataclass

import math
from dataclasses import field
from typing import Any

import yaml

from ..diagnostics import Report
from ..loaders import yaml_hints
from ..loaders.frontmatter import MAX_DEPTH

try:
    _Base: type[Any] = yaml.CSafeLoader
except AttributeError:  # PyYAML built without libyaml
    _Base = yaml.SafeLoader


class _Loader(_Base):  # type: ignore[misc]
    """The safe loader, with dates kept as the text they are: every value must be JSON
    (``2024-01-01`` as a schema default or enum value is that string)."""


_Loader.add_constructor(
    "tag:yaml.org,2002:timestamp", lambda loader, node: loader.construct_scalar(node)
)

# A YAML alias bomb expands a handful of lines into billions of nodes, or a few long
# texts into gigabytes. Real documents repeat a few small anchored nodes; the walk stops
# once aliases add this many nodes, or this many characters of text.
MAX_NODE_VISITS = 20_000
MAX_ALIAS_CHARS = 1_000_000
# Text whose nesting cannot exceed this (``_depth_bound``) is composed at once, and its
# depth checked on the nodes: the parser's events cost more than the composing. Far
# below what crashes libyaml, and only with it (PyYAML's own composer recurses in Python).
COMPOSABLE = 1_000 if _Base is not yaml.SafeLoader else MAX_DEPTH
_FLOAT = "tag:yaml.org,2002:float"


@dataclass(frozen=True, slots=True)
class Located:
    """A parsed YAML document and where each of its top-level keys stands."""

    data: Any
    root: yaml.Node
    line_offset: int  # file line of the document's first line, minus one
    keys: dict[str, yaml.Node] = field(default_factory=dict)  # key -> its key node
    values: dict[str, yaml.Node] = field(default_factory=dict)  # key -> its value node
    flow_keys: tuple[
        str, ...
    ] = ()  # top-level keys whose value uses flow style somewhere

    def where(self, key: str | None = None, *, value: bool = True) -> tuple[int, int]:
        """The file position of a top-level key's value (or the key, or the document)."""
        node = self.root
        if key is not None:
            table = self.values if value else self.keys
            node = table.get(key, self.keys.get(key, self.root))
        return node_position(node, self.line_offset)


def node_position(node: yaml.Node, line_offset: int) -> tuple[int, int]:
    mark = node.start_mark
    if mark is None:  # the empty document has no node of its own
        return line_offset + 1, 1
    return line_offset + mark.line + 1, mark.column + 1


def parse(text: str, path: str, line_offset: int, report: Report) -> Located | None:
    """Parse one YAML document; report problems at file positions and return None on error."""
    loader = _Loader(text)
    try:
        deep, root = _compose(loader, text)
        if deep is not None:
            report.error(
                path,
                line_offset + deep.line + 1,
                deep.column + 1,
                "yaml-too-deep",
                f"collections are nested more than {MAX_DEPTH} levels deep",
            )
            return None
        if root is None:
            return Located(
                None, yaml.ScalarNode("tag:yaml.org,2002:null", ""), line_offset
            )
        if not _check_nodes(root, path, line_offset, report, loader):
            return None
        data = loader.construct_document(root)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (
            (line_offset + mark.line + 1, mark.column + 1)
            if mark
            else (line_offset + 1, 1)
        )
        report.error(path, line, col, "yaml-syntax", _describe(exc, text, line_offset))
        return None
    except (yaml.YAMLError, RecursionError, ValueError, OverflowError) as exc:
        report.error(path, line_offset + 1, 1, "yaml-syntax", f"invalid YAML: {exc}")
        return None
    finally:
        loader.dispose()
    keys: dict[str, yaml.Node] = {}
    values: dict[str, yaml.Node] = {}
    if isinstance(root, yaml.MappingNode):
        for key_node, value_node in root.value:
            if isinstance(key_node, yaml.ScalarNode):
                keys[key_node.value] = key_node
                values[key_node.value] = value_node
    flow = tuple(
        key
        for key, node in values.items()
        if not isinstance(node, yaml.ScalarNode) and _uses_flow_style(node)
    )
    return Located(data, root, line_offset, keys, values, flow)


def _describe(exc: yaml.MarkedYAMLError, text: str, line_offset: int) -> str:
    problem = exc.problem or "invalid YAML"
    message = f"invalid YAML: {problem}"
    if exc.context:
        message += f" ({exc.context})"
    return message + yaml_hints.hint(exc, text, line_offset)


def _compose(loader: Any, text: str) -> tuple[Any, yaml.Node | None]:
    """The document's node graph, or where its collections first nest deeper than
    MAX_DEPTH (then no node graph): found on the nodes when the text is known to nest
    less than COMPOSABLE, else from the parser's events before composing."""
    bound = _depth_bound(text)
    if bound <= MAX_DEPTH:
        return None, loader.get_single_node()
    if bound > COMPOSABLE:
        deep = _too_deep(text)
        return deep, None if deep is not None else loader.get_single_node()
    try:
        root = loader.get_single_node()
    except yaml.YAMLError:
        deep = _too_deep(text)  # the text's first problem, as from the events alone
        if deep is None:
            raise
        return deep, None
    if root is not None and _deeper(root):
        return _too_deep(text) or root.start_mark, None
    return None, root


def _depth_bound(text: str) -> int:
    """More than collections can nest in ``text``. Each level needs one of ``-[{:?``. In
    block style, a nested collection starts at a greater column than its parent's, or
    at the same one at most every other level (a sequence as a mapping's value), and on
    its line after only indentation, ``-`` and ``?``; each flow level needs a ``[`` or
    a ``{``."""
    indicators = sum(text.count(c) for c in "-[{:?")
    if indicators <= MAX_DEPTH:
        return indicators
    column = max(len(line) - len(line.lstrip(" \t-?")) for line in text.splitlines())
    return min(indicators, 2 * (column + 2) + text.count("[") + text.count("{"))


def _deeper(root: yaml.Node) -> bool:
    """Whether collections nest deeper than MAX_DEPTH below ``root``. Walked in the
    document's order, so that an alias comes after its anchor and is not followed: the
    parser's events have no collection for it either."""
    seen: set[int] = set()
    stack: list[tuple[yaml.Node, int]] = [(root, 1)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, yaml.ScalarNode) or id(node) in seen:
            continue
        if depth > MAX_DEPTH:
            return True
        seen.add(id(node))
        stack.extend((item, depth + 1) for item in reversed(_children(node)))
    return False


def _children(node: yaml.Node) -> list[yaml.Node]:
    """A collection's nodes in the document's order (a mapping's keys and values)."""
    if isinstance(node, yaml.MappingNode):
        return [item for pair in node.value for item in pair]
    return list(node.value) if isinstance(node, yaml.SequenceNode) else []


def _too_deep(text: str) -> Any:
    """Where collections first nest deeper than MAX_DEPTH, found from the parser's events
    (which keep no stack of their own). PyYAML's own parser, not libyaml's: libyaml
    scans ahead, and the one bundled since PyYAML 6.0.4 stops at its own limit of 1,000
    levels before the event that says where MAX_DEPTH was passed."""
    depth = 0
    for event in yaml.parse(text, Loader=yaml.SafeLoader):
        if isinstance(event, yaml.CollectionStartEvent):
            depth += 1
            if depth > MAX_DEPTH:
                return event.start_mark
        elif isinstance(event, yaml.CollectionEndEvent):
            depth -= 1
    return None


def _check_nodes(
    root: yaml.Node, path: str, line_offset: int, report: Report, loader: Any
) -> bool:
    """Bound the expanded size (alias bombs), reject duplicate keys and numbers that are
    not finite (``.inf``, ``.nan``, ``1e999``: neither JSON nor a Python literal)."""
    # Count what aliases add, not the document's own nodes: a big manifest with no
    # alias is fine (its size is bounded by max-file-bytes); a node met again is an alias.
    seen_nodes: set[int] = set()
    expanded = characters = 0
    stack = [root]
    ok = True
    while stack:
        node = stack.pop()
        if id(node) in seen_nodes:
            expanded += 1
            if isinstance(node, yaml.ScalarNode):
                characters += len(node.value)
        seen_nodes.add(id(node))
        if expanded > MAX_NODE_VISITS or characters > MAX_ALIAS_CHARS:
            report.error(
                path,
                *node_position(root, line_offset),
                "yaml-alias-bomb",
                "YAML anchors and aliases expand to more than "
                + (
                    f"{MAX_NODE_VISITS:,} nodes"
                    if expanded > MAX_NODE_VISITS
                    else f"{MAX_ALIAS_CHARS:,} characters of text"
                ),
            )
            return False
        if isinstance(node, yaml.MappingNode):
            seen: set[str] = set()
            for key_node, value_node in node.value:
                if (
                    isinstance(key_node, yaml.ScalarNode)
                    and key_node.tag != "tag:yaml.org,2002:merge"
                ):
                    if key_node.value in seen:
                        report.error(
                            path,
                            *node_position(key_node, line_offset),
                            "yaml-duplicate-key",
                            f"duplicate key {key_node.value!r}",
                        )
                        ok = False
                    seen.add(key_node.value)
                stack.append(key_node)
                stack.append(value_node)
        elif isinstance(node, yaml.SequenceNode):
            stack.extend(node.value)
        elif node.tag == _FLOAT and not math.isfinite(
            loader.construct_yaml_float(node)
        ):
            report.error(
                path,
                *node_position(node, line_offset),
                "non-finite-number",
                f"the number {node.value} is not finite; JSON and Python literals cannot hold it",
            )
            ok = False
    return ok


def _uses_flow_style(node: yaml.Node) -> bool:
    stack = [node]
    visits = 0
    while stack and visits < MAX_NODE_VISITS:
        visits += 1
        current = stack.pop()
        if isinstance(current, (yaml.MappingNode, yaml.SequenceNode)):
            if current.flow_style:
                return True
            stack.extend(_children(current))
    return False


def locate(
    root: yaml.Node, path: tuple[str | int, ...], line_offset: int = 0
) -> tuple[int, int]:
    """The file position of the node at ``path`` (keys and list indexes), or of the
    deepest node on the way there when the path leaves the document."""
    node = root
    for part in path:
        child: yaml.Node | None = None
        if isinstance(node, yaml.MappingNode):
            for key_node, value_node in node.value:
                if isinstance(key_node, yaml.ScalarNode) and key_node.value == str(
                    part
                ):
                    child = value_node
                    break
        elif isinstance(node, yaml.SequenceNode) and isinstance(part, int):
            if 0 <= part < len(node.value):
                child = node.value[part]
        if child is None:
            break
        node = child
    return node_position(node, line_offset)
