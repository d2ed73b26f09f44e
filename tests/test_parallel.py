"""``pipeline.parallel.split_map`` and ``beside``: the results of one process, in order,
whatever the forked child does (fails, dies, or runs slower)."""

from __future__ import annotations

import os
import pickle
import signal
import time
from pathlib import Path
from typing import Any

import pytest

from generator.pipeline import parallel

PARENT = os.getpid()
pytestmark = pytest.mark.skipif(
    parallel._cores() < 2, reason="one core: everything runs in this process"
)


@pytest.fixture(autouse=True)
def small(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parallel, "MIN_ITEMS", 4)


def where(item: int) -> tuple[int, bool]:
    return item * item, os.getpid() == PARENT


def test_the_items_are_shared_with_a_child_and_joined_in_order() -> None:
    def slow(item: int) -> tuple[int, bool]:
        time.sleep(0.05)  # long enough for the child to start and take some
        return where(item)

    done = parallel.split_map(slow, range(20))
    assert [square for square, _ in done] == [i * i for i in range(20)]
    here = [here for _, here in done]
    assert here == sorted(here, reverse=True)  # this process took them from the front
    assert here[0] and not here[-1]  # and the child from the back


def test_a_slow_child_takes_fewer_items() -> None:
    """The items are taken a few at a time: while a slow child makes its first few,
    this process makes all the others (a fixed half would wait for the child)."""

    def slow_there(item: int) -> tuple[int, bool]:
        if os.getpid() != PARENT:
            time.sleep(0.2)
        return where(item)

    done = parallel.split_map(slow_there, range(100))
    assert [square for square, _ in done] == [i * i for i in range(100)]
    assert sum(here for _, here in done) >= 75


def test_an_error_in_the_childs_half_is_raised_here(
    capfd: pytest.CaptureFixture[str],
) -> None:
    def fails(item: int) -> int:
        if item == 8:
            raise ValueError(f"bad item {item} in {os.getpid() == PARENT}")
        return item

    with pytest.raises(ValueError, match="bad item 8 in True"):
        parallel.split_map(fails, range(10))
    assert "Traceback" not in capfd.readouterr().err


def test_a_child_that_dies_has_its_half_done_here() -> None:
    def dies(item: int) -> tuple[int, bool]:
        if os.getpid() != PARENT:
            os.kill(os.getpid(), signal.SIGKILL)
        return where(item)

    done = parallel.split_map(dies, range(10))
    assert done == [(i * i, True) for i in range(10)]


def test_few_items_stay_here(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parallel, "MIN_ITEMS", 100)
    assert parallel.split_map(where, range(10)) == [(i * i, True) for i in range(10)]


def test_work_beside_is_done_in_a_child_that_readies_itself() -> None:
    readied: list[int] = []
    with parallel.beside(where, range(10), lambda: readied.append(os.getpid())) as made:
        here = where(-1)
        done = made()
    assert here == (1, True)
    assert done == [(i * i, False) for i in range(10)]
    assert readied == []  # readied in the child, not here


def test_work_beside_that_fails_is_done_here() -> None:
    def dies(item: int) -> tuple[int, bool]:
        if os.getpid() != PARENT:
            os.kill(os.getpid(), signal.SIGKILL)
        return where(item)

    readied: list[int] = []
    with parallel.beside(dies, range(10), lambda: readied.append(os.getpid())) as made:
        done = made()
    assert done == [(i * i, True) for i in range(10)]
    assert readied == [PARENT]


def test_few_items_beside_stay_here(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parallel, "MIN_ITEMS", 100)
    with parallel.beside(where, range(10)) as made:
        assert made() == [(i * i, True) for i in range(10)]


def test_work_aside_is_done_in_a_child() -> None:
    with parallel.aside(lambda: where(3), worth=True) as made:
        here = where(-1)
        done = made()
    assert (here, done) == ((1, True), (9, False))


def test_work_aside_that_fails_is_done_here() -> None:
    def dies() -> tuple[int, bool]:
        if os.getpid() != PARENT:
            os.kill(os.getpid(), signal.SIGKILL)
        return where(3)

    with parallel.aside(dies, worth=True) as made:
        assert made() == (9, True)


def test_work_aside_not_worth_a_fork_stays_here() -> None:
    with parallel.aside(lambda: where(3), worth=False) as made:
        assert made() == (9, True)


def test_the_child_pickles_each_chunk_once_made(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The child's results are pickled a chunk at a time as it makes them, not all
    after its last item (while this process, done with its own, waits for them)."""
    log = tmp_path / "log"
    real = pickle.dumps

    def note(event: str) -> None:
        if os.getpid() != PARENT:
            with log.open("a") as out:
                out.write(event + "\n")

    def dumps(value: Any, *args: Any) -> bytes:
        note("pickled")
        return real(value, *args)

    def slow(item: int) -> tuple[int, bool]:
        note("made")
        time.sleep(0.01)
        return where(item)

    monkeypatch.setattr(pickle, "dumps", dumps)
    monkeypatch.setattr(parallel, "CHUNK", 2)
    done = parallel.split_map(slow, range(200))
    assert [square for square, _ in done] == [i * i for i in range(200)]
    events = log.read_text().split()
    last_made = len(events) - 1 - events[::-1].index("made")
    assert "pickled" in events[:last_made]
