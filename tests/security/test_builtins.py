"""The built-in tools keep the runtime's guarantees: no blocking on special files, no
unbounded patterns, and a database the model can read but not write around."""

from __future__ import annotations

import os
import socket
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from security_kit import PWNED, canary, guarded, returns, workspace  # noqa: F401


@pytest.fixture
def database(guarded: Any) -> Iterator[Path]:
    path = workspace(guarded) / "app.sqlite"
    with sqlite3.connect(path) as db:
        db.execute(
            "CREATE TABLE IF NOT EXISTS users (id INTEGER PRIMARY KEY, name TEXT)"
        )
        db.execute("INSERT INTO users (name) VALUES ('Ada')")
    yield path
    path.unlink()


def test_file_read_and_write_refuse_a_fifo(guarded: Any) -> None:
    fifo = workspace(guarded) / "pipe"
    os.mkfifo(fifo)  # nobody writes or reads the other end: opening it would block
    try:
        read = returns(lambda: guarded.file.read(path="pipe"))
        write = returns(lambda: guarded.file.write(path="pipe", content="x"))
        grep = returns(lambda: guarded.file.grep(pattern="x", path="pipe"))
    finally:
        fifo.unlink()
    assert read.error.code == "PathError" and "not a regular file" in read.error.message
    assert write.error.code == "PathError"
    assert grep.ok and grep.data == []


def test_file_read_refuses_a_socket(guarded: Any) -> None:
    path = workspace(guarded) / "sock"
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(path))
    try:
        result = returns(lambda: guarded.file.read(path="sock"))
    finally:
        server.close()
        path.unlink()
    assert result.error.code == "PathError"


def test_file_read_stops_at_max_read_bytes(guarded: Any) -> None:
    big = workspace(guarded) / "big.txt"
    big.write_text("x" * 5000)
    try:
        result = guarded.file.read(path="big.txt")
    finally:
        big.unlink()
    assert result.error.code == "SizeError"


def test_grep_with_catastrophic_pattern_returns(guarded: Any) -> None:
    target = workspace(guarded) / "evil.txt"
    target.write_text("a" * 40 + "!\n")
    try:
        result = returns(lambda: guarded.file.grep(pattern="(a+)+$", path="evil.txt"))
    finally:
        target.unlink()
    # the engine finds no match in linear time, times out, or refuses the pattern
    assert (result.ok and result.data == []) or result.error.code in (
        "PatternError",
        "TimeoutError",
    )


def test_db_query_cannot_vacuum_into_or_attach_a_file(
    guarded: Any, database: Path, tmp_path: Path
) -> None:
    copy = tmp_path / f"{PWNED}-copy.sqlite"
    attached = tmp_path / f"{PWNED}-attached.sqlite"
    vacuum = guarded.db.query(sql=f"VACUUM INTO '{copy}'")
    attach = guarded.db.query(sql=f"ATTACH DATABASE '{attached}' AS other")
    assert not vacuum.ok and not attach.ok
    assert not copy.exists() and not attached.exists()


@pytest.mark.parametrize(
    "sql",
    [
        "DELETE FROM users",
        "PRAGMA query_only = OFF",
        "SELECT load_extension('/nonexistent')",
        "CREATE TABLE more (x)",
    ],
)
def test_db_query_cannot_write_or_loosen_its_limits(
    guarded: Any, database: Path, sql: str
) -> None:
    assert not guarded.db.query(sql=sql).ok
    assert guarded.db.query(sql="SELECT count(*) AS n FROM users").data == [{"n": 1}]


def test_db_recursive_query_stops_at_the_calls_deadline(
    guarded: Any, database: Path
) -> None:
    endless = (
        "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) "
        "SELECT count(*) FROM c"
    )
    query = guarded.db.query.using(timeout_sec=0.5)  # the call's, not the default
    result = returns(lambda: query(sql=endless))
    assert (
        result.error.code == "OperationalError" and "interrupt" in result.error.message
    )
