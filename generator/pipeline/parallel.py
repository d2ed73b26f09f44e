"""Per-tool work over two cores: the second half of the items in a forked process, the
first in this one, the results joined in order, so the output is what one process would
write (``split_map``); or other work done beside this process's (``beside``).

It pays only for many items: below ``MIN_ITEMS`` the fork and the pickling of the
child's results cost about what they save. Without a second core, or without ``fork``,
everything runs here. A child that fails (an error, or killed) has its work done here
again, so an error is raised here, as it would be without the child.

``multiprocessing`` is imported only when a split happens: most rebuilds never split,
and it costs about as much to import as a one-skill rebuild's own work.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import signal
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

T = TypeVar("T")
R = TypeVar("R")

MIN_ITEMS = 1000


def split_map(
    function: Callable[[T], R], items: Sequence[T], split_from: int | None = None
) -> list[R]:
    """``[function(item) for item in items]``; split when there are ``split_from``
    items or more (``MIN_ITEMS`` by default: for items that each take much work,
    fewer)."""
    if len(items) < (split_from or MIN_ITEMS) or _cores() < 2:
        return [function(item) for item in items]
    half = len(items) // 2
    with _forked(lambda: [function(item) for item in items[half:]]) as second:
        first = [function(item) for item in items[:half]]
        return first + second()


@contextlib.contextmanager
def beside(
    function: Callable[[T], R],
    items: Sequence[T],
    ready: Callable[[], object] = lambda: None,
) -> Iterator[Callable[[], list[R]]]:
    """``[function(item) for item in items]``, after ``ready()``, made by a forked
    process while this one does what the ``with`` block does; the callable it yields
    waits for the results. What ``ready`` imports or loads is then never this
    process's to pay. Below ``MIN_ITEMS`` items, or without a second core, all of it is
    done here when the results are asked for."""

    def here() -> list[R]:
        ready()
        return [function(item) for item in items]

    if len(items) < MIN_ITEMS or _cores() < 2:
        yield here
        return
    with _forked(here) as made:
        yield made


@contextlib.contextmanager
def _forked(work: Callable[[], list[R]]) -> Iterator[Callable[[], list[R]]]:
    """``work()`` in a forked process; the callable it yields waits for its results,
    or does the work here when the process failed (so that an error is raised here, as
    it would be without the process)."""
    import multiprocessing

    context = multiprocessing.get_context("fork")
    receive, send = context.Pipe(duplex=False)
    child = context.Process(target=_child, args=(work, send))
    child.start()
    send.close()

    def results() -> list[R]:
        try:
            done: list[R] = pickle.loads(receive.recv_bytes())
        except EOFError:  # the child failed: its work is done here
            done = work()
        return done

    try:
        yield results
    finally:
        receive.close()
        child.kill()
        child.join()


def _child(work: Callable[[], list[R]], send: Connection) -> None:
    # Ctrl-C is the parent's to handle (it kills the child); a parent that is gone
    # leaves nobody to tell.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        done = pickle.dumps(work(), pickle.HIGHEST_PROTOCOL)
    except Exception:  # noqa: BLE001 - the parent does this work again and meets it
        return
    with contextlib.suppress(OSError):
        send.send_bytes(done)


def _cores() -> int:
    if not hasattr(os, "fork"):  # what multiprocessing's "fork" start method needs
        return 1
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1
