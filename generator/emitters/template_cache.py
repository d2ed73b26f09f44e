"""Where compiled Jinja templates are kept between builds: in the project's cache
folder (when the build may write it) and in Jinja's own per-user folder (a private one
in the system's temporary folder), which every build of every project shares, so that a
cold build (no cache folder yet) compiles none. Jinja keys each entry by the template's
path and checks its source; the per-user entries' names also carry what else the
compiled code depends on: Jinja's version and how the environment reads templates."""

from __future__ import annotations

import contextlib
import hashlib
from pathlib import Path

import jinja2
from jinja2.bccache import Bucket


class _Chained(jinja2.BytecodeCache):
    """Read from the first cache that holds the template, written to each."""

    def __init__(self, caches: list[jinja2.BytecodeCache]) -> None:
        self.caches = caches

    def load_bytecode(self, bucket: Bucket) -> None:
        for cache in self.caches:
            cache.load_bytecode(bucket)
            if bucket.code is not None:
                return

    def dump_bytecode(self, bucket: Bucket) -> None:
        for cache in self.caches:
            with contextlib.suppress(OSError):  # a cache: compiled again next time
                cache.dump_bytecode(bucket)


# The settings by which an environment reads templates (its lexer's, and escaping).
SYNTAX = (
    "block_start_string",
    "block_end_string",
    "variable_start_string",
    "variable_end_string",
    "comment_start_string",
    "comment_end_string",
    "line_statement_prefix",
    "line_comment_prefix",
    "trim_blocks",
    "lstrip_blocks",
    "newline_sequence",
    "keep_trailing_newline",
    "autoescape",
)


def bytecode_cache(
    project: Path | None, environment: jinja2.Environment
) -> jinja2.BytecodeCache:
    """The caches of ``environment``'s compiled templates: ``project``'s folder first
    when given."""
    caches: list[jinja2.BytecodeCache] = []
    if project is not None:
        caches.append(jinja2.FileSystemBytecodeCache(str(project)))
    syntax = [getattr(environment, name) for name in SYNTAX]
    tag = repr((jinja2.__version__, syntax))
    digest = hashlib.sha256(tag.encode()).hexdigest()[:16]
    with contextlib.suppress(OSError, RuntimeError):  # no private folder: not kept
        caches.append(jinja2.FileSystemBytecodeCache(pattern=f"__skillc_{digest}_%s"))
    return _Chained(caches)
