"""The built-in ``db`` tools: SQLite through the standard library (``db-path`` in config).

A query is SQL a model wrote, so its connection is read-only three times over: opened
with ``mode=ro``, with ``PRAGMA query_only``, and with an authorizer that allows reading
and nothing else. Every connection denies ``ATTACH`` (which ``VACUUM INTO`` needs too),
``load_extension`` and changing a ``PRAGMA``, so nothing is written outside the
database, and every statement is stopped at the call's deadline. A query's answer is
cut at ``max-output-bytes`` (``truncated``), and no string or blob it makes or reads
may be longer than that or ``max-read-bytes``, whichever is larger: SQLite refuses
it before it is made (``randomblob(100000000)``).
"""

from __future__ import annotations

import itertools
import json
import re
import sqlite3
import time
from collections.abc import Mapping, Sequence
from contextlib import closing
from typing import Any

from . import _settings
from ._executors import Output, current_deadline

_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_READING = frozenset(
    {sqlite3.SQLITE_SELECT, sqlite3.SQLITE_READ, sqlite3.SQLITE_RECURSIVE}
)


def query(
    sql: str,
    params: Sequence[Any] | Mapping[str, Any] | None = None,
    max_rows: int = 1000,
) -> list[dict[str, Any]] | Output:
    """Rows as objects. The database is opened read-only, so a query cannot change it.
    The rows that fit in ``max-output-bytes`` (as JSON), and whether some were cut."""
    uri = _settings.database().as_uri() + "?mode=ro"
    limit = _settings.MAX_OUTPUT_BYTES
    with closing(_connect(uri, read_only=True)) as connection:
        connection.setlimit(
            sqlite3.SQLITE_LIMIT_LENGTH, max(limit, _settings.MAX_READ_BYTES)
        )
        connection.row_factory = sqlite3.Row
        rows: list[dict[str, Any]] = []
        size = len("[]")
        for row in itertools.islice(connection.execute(sql, params or ()), max_rows):
            item = dict(row)
            size += len(json.dumps(item, default=str)) + len(", ") * bool(rows)
            if size > limit:
                return Output(rows, truncated=True)
            rows.append(item)
        return rows


def insert(table: str, rows: Mapping[str, Any] | Sequence[Mapping[str, Any]]) -> int:
    items = [rows] if isinstance(rows, Mapping) else list(rows)
    names = sorted({name for row in items for name in row})
    for name in (table, *names):
        if not _NAME.match(name):
            raise ValueError(f"{name!r} is not a plain SQL name")
    columns = ", ".join(f'"{name}"' for name in names)
    marks = ", ".join(f":{name}" for name in names)
    sql = f'INSERT INTO "{table}" ({columns}) VALUES ({marks})'
    with closing(_connect(str(_settings.database()))) as connection, connection:
        connection.executemany(sql, [{n: row.get(n) for n in names} for row in items])
    return len(items)


def _connect(database: str, read_only: bool = False) -> sqlite3.Connection:
    connection = sqlite3.connect(database, uri=read_only)
    if read_only:
        connection.execute("PRAGMA query_only = ON")
    connection.set_authorizer(
        lambda action, first, second, _db, _trigger: _allowed(
            action, first, second, read_only
        )
    )
    stop = current_deadline().at
    connection.set_progress_handler(lambda: int(time.monotonic() > stop), 1000)
    return connection


def _allowed(action: int, first: str | None, second: str | None, reading: bool) -> int:
    if action == sqlite3.SQLITE_FUNCTION:
        denied = (second or "").lower() == "load_extension"
    elif action == sqlite3.SQLITE_PRAGMA:
        denied = second is not None  # reading a pragma is fine; setting one is not
    elif action in (sqlite3.SQLITE_ATTACH, sqlite3.SQLITE_DETACH):
        denied = True
    else:
        denied = reading and action not in _READING
    return sqlite3.SQLITE_DENY if denied else sqlite3.SQLITE_OK
