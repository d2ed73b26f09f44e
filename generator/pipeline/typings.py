"""datamodel-code-generator's typings, kept in the build memo by schema: a rebuild after
an edit that leaves a tool's input schema as it was (its description, say) neither types
it again nor imports datamodel-code-generator (about half a second), and a schema that
several tools share is typed once.

``prime`` runs before the tool views are built (and split over two cores): it puts every
typing they will ask ``pytypes.type_loosely`` for in ``pytypes.TYPED``, those the memo
lacks typed here, over two cores when there are many, so that none is lost in a child
process and each is typed once.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Protocol

from generator.ir import Function, Tool
from generator.pipeline import parallel
from generator.views import pytypes

# A typing takes a few milliseconds, after an import (and a warm-up) of about 0.4 s
# that a split pays in both processes: worth it only for many.
SPLIT_FROM = 100


class Store(Protocol):
    def get(self, key: str) -> Any: ...

    def put(self, key: str, value: object) -> None: ...


def prime(tools: Iterable[Tool], memo: Store) -> None:
    """Make ``pytypes.TYPED`` hold the typing of each tool's input schema that needs
    datamodel-code-generator: from the memo, else typed and memoised. Every such
    typing is asked of the memo, so that it keeps those of tools whose views it holds.
    """
    needed: dict[str, Mapping[str, Any]] = {}
    for tool in tools:
        d = tool.definition
        if isinstance(d, Function) and pytypes.needs_codegen(d.input_schema):
            needed.setdefault(pytypes.schema_key(d.input_schema), d.input_schema)
    fresh = []
    for key in sorted(needed):
        stored = memo.get(_memo_key(key))
        if stored is None:
            fresh.append(key)
        else:
            pytypes.TYPED.setdefault(key, stored)
    missing = [key for key in fresh if key not in pytypes.TYPED]
    done = parallel.split_map(
        lambda key: pytypes.type_loosely(needed[key]), missing, SPLIT_FROM
    )
    pytypes.TYPED.update(zip(missing, done))
    for key in fresh:
        memo.put(_memo_key(key), pytypes.TYPED[key])


def _memo_key(key: str) -> str:
    return "pytypes:" + key
