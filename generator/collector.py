"""Python's cyclic garbage collector, paused while a build makes its model and output.

A build allocates millions of objects (each tool's definition, view and fragments) that
live until it ends, and makes almost no reference cycles (under a thousand at 20,000
skills). Each full collection walks every live object again, for nothing: at 20,000
skills they took about a tenth of a cold build. Reference counting still frees what is
dropped; the cycles left are collected once the collector runs again.
"""

from __future__ import annotations

import contextlib
import functools
import gc
from collections.abc import Callable, Iterator
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")


@contextlib.contextmanager
def paused() -> Iterator[None]:
    """No cyclic collection within it; the collector is as it was afterwards."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def pausing(function: Callable[P, R]) -> Callable[P, R]:
    """``function`` run with the collector ``paused``."""

    @functools.wraps(function)
    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        with paused():
            return function(*args, **kwargs)

    return run
