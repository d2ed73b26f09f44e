"""Each tool's own parts of the output, memoised: its module, its lines in the provider
files, its fragment of the find_tool index and its vector. A part is kept by the content
of what it is made from (the tool's whole view, its search fields, its vector's text)
and, through the memo's salt, skillc's own fingerprint, so a rebuild after one change
makes the changed tool's parts alone. The pipeline passes its memo in (``Memoise``):
nothing here reads or writes the cache.

At tests/bench.py's 5,000 manifest tools, one changed description, the modules and
provider files took 1.2-1.5 and 1.4-1.5 s of CPU with their parts memoised, 1.8-2.5 and
2.3-3.0 s without (of a 15 s rebuild); at 1,000 skills the difference is within the
noise. The index terms and vectors: see ``search_index.Embedding``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

from generator.emitters import provider_files, python_package, search_index
from generator.views import ToolView

# ``memoise(kind, make, by)``: ``make``, its results kept by ``kind`` and what ``by``
# makes of its arguments.
Memoise = Callable[[str, Callable[..., Any], Callable[..., tuple[Any, ...]]], Any]


class Parts:
    def __init__(
        self, memoise: Memoise, embedding: search_index.Embedding | None
    ) -> None:
        self._views: dict[int, str] = {}  # id(view) -> the digest of its content
        self.module: Callable[[ToolView], str] = memoise(
            "module", python_package.tool_module, lambda view: (self._of(view),)
        )
        self.lines: provider_files.MakeLines = memoise(
            "provider-lines",
            provider_files.lines,
            lambda view, loaded: (self._of(view), loaded),
        )
        self.weigh: search_index.Weigh = memoise(
            "search-terms", search_index.weigh, lambda fields: (fields,)
        )
        self.vector: Callable[[str], search_index.Vector] | None = None
        if embedding is not None:
            self.vector = memoise(
                "vector", embedding.fragment, lambda text: (embedding.model, text)
            )

    def _of(self, view: ToolView) -> str:
        """The digest of a view's content: its fields, as their reprs show them."""
        digest = self._views.get(id(view))
        if digest is None:
            text = repr(view).encode()
            digest = self._views[id(view)] = hashlib.sha256(text).hexdigest()
        return digest
