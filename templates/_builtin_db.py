"""The built-in ``db`` tools: SQLite through the standard library (``db-path`` in config)."""

from __future__ import annotations

import re
import sqlite3
from contextlib import closing
from collections.abc import Mapping, Sequence
from typing import Any

from . import _settings

_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def query(
    sql: str,
    params: Sequence[Any] | Mapping[str, Any] | None = None,
    max_rows: int = 1000,
) -> list[dict[str, Any]]:
    """Rows as objects. The database is opened read-only, so a query cannot change it."""
    uri = _settings.database().as_uri() + "?mode=ro"
    with closing(sqlite3.connect(uri, uri=True)) as connection:
        connection.row_factory = sqlite3.Row
        cursor = connection.execute(sql, params or ())
        return [dict(row) for row in cursor.fetchmany(max_rows)]


def insert(table: str, rows: Mapping[str, Any] | Sequence[Mapping[str, Any]]) -> int:
    items = [rows] if isinstance(rows, Mapping) else list(rows)
    names = sorted({name for row in items for name in row})
    for name in (table, *names):
        if not _NAME.match(name):
            raise ValueError(f"{name!r} is not a plain SQL name")
    columns = ", ".join(f'"{name}"' for name in names)
    marks = ", ".join(f":{name}" for name in names)
    sql = f'INSERT INTO "{table}" ({columns}) VALUES ({marks})'
    with closing(sqlite3.connect(_settings.database())) as connection, connection:
        connection.executemany(sql, [{n: row.get(n) for n in names} for row in items])
    return len(items)
