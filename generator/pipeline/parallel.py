"""Per-tool work over two cores: the items shared between this process and a forked
one, the results joined in order, so the output is what one process would write
(``split_map``); or other work done beside this process's (``beside``, ``aside``).

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
from typing import TYPE_CHECKING, Any, Generic, TypeVar

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
    fewer). This process takes the items from the front, the child from the back, a
    few at a time, until they meet: neither waits long for the other when one runs
    slower (the child pickles its results, and a busy machine may run it less)."""
    if len(items) < (split_from or MIN_ITEMS) or _cores() < 2:
        return [function(item) for item in items]
    import multiprocessing

    context = multiprocessing.get_context("fork")
    # The first item not taken from the front, and the first taken from the back.
    bounds = context.RawArray("q", [0, len(items)])
    lock = context.Lock()
    step = max(1, min(CHUNK, len(items) // 64))

    def from_back() -> list[bytes]:
        # Each chunk pickled once made: its pickling is spread over the child's work,
        # not all of it done after the last item, while this process waits.
        chunks = []
        while True:
            with lock:
                end = bounds[1]
                start = max(bounds[0], end - step)
                bounds[1] = start
            if start >= end:
                break
            done = [function(item) for item in items[start:end]]
            chunks.append(pickle.dumps(done, pickle.HIGHEST_PROTOCOL))
        return chunks[::-1]

    with _forked(from_back) as child:
        front: list[R] = []
        while True:
            if not _acquire(lock, child):
                break  # the child died holding the lock: the rest is done below
            start = bounds[0]
            end = min(bounds[1], start + step)
            bounds[0] = end
            lock.release()
            if start >= end:
                break
            front += [function(item) for item in items[start:end]]
        chunks = child.results()
        back = None if chunks is None else [r for c in chunks for r in pickle.loads(c)]
        if back is None or len(front) + len(back) != len(items):
            back = [function(item) for item in items[len(front) :]]
        return front + back


# At most this many items are taken at a time (fewer for fewer items, so that both
# processes get some): enough that taking them costs nothing beside their work.
CHUNK = 16


def _acquire(lock: Any, child: _Child[Any]) -> bool:
    """Take ``lock`` unless the child died (perhaps holding it)."""
    while not lock.acquire(timeout=0.1):
        if not child.alive():
            return False
    return True


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
    with _forked(here) as child:

        def made() -> list[R]:
            done = child.results()
            return here() if done is None else done

        yield made


@contextlib.contextmanager
def aside(function: Callable[[], R], worth: bool) -> Iterator[Callable[[], R]]:
    """``function()``, made by a forked process while this one does what the ``with``
    block does, when it is ``worth`` a fork (the work of many items) and there is a
    second core; else here, when the callable it yields is called."""
    if not worth or _cores() < 2:
        yield function
        return
    with _forked(lambda: [function()]) as child:

        def made() -> R:
            done = child.results()
            return function() if done is None else done[0]

        yield made


class _Child(Generic[R]):
    def __init__(self, process: Any, receive: Connection) -> None:
        self.process = process
        self.receive = receive

    def alive(self) -> bool:
        return bool(self.process.is_alive())

    def results(self) -> list[R] | None:
        """What the child made; None when it failed (its work is to be done here, so
        that an error is raised here, as it would be without the child)."""
        try:
            done: list[R] = pickle.loads(self.receive.recv_bytes())
        except EOFError:
            return None
        return done


@contextlib.contextmanager
def _forked(work: Callable[[], list[R]]) -> Iterator[_Child[R]]:
    """``work()`` in a forked process, killed when the block ends."""
    import multiprocessing

    context = multiprocessing.get_context("fork")
    receive, send = context.Pipe(duplex=False)
    process = context.Process(target=_child, args=(work, send))
    process.start()
    send.close()
    try:
        yield _Child(process, receive)
    finally:
        receive.close()
        process.kill()
        process.join()


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
