"""The built-in tools keep the runtime's guarantees: no blocking on special files, no
unbounded patterns, and a database the model can read but not write around."""

from __future__ import annotations

import json
import os
import shutil
import socket
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from conftest import run_python
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


@pytest.fixture
def nested(guarded: Any) -> Iterator[str]:
    """60 folders, each inside the last, with a file in each: what a model can write
    with file.write(create_dirs=True) in one call."""
    top = workspace(guarded) / "nest"
    folder = top
    for _ in range(60):
        folder = folder / "d"
        folder.mkdir(parents=True)
        (folder / "f.txt").write_text("x\n")
    yield "nest"
    shutil.rmtree(top)


@pytest.mark.parametrize("tool", ["glob", "grep"])
def test_a_walk_ends_at_the_calls_deadline(
    guarded: Any, nested: str, tool: str
) -> None:
    # pathlib's glob tries every way five ** can split 60 folders: hours, and no
    # deadline reaches into it. The walk lists each folder once, under the deadline.
    stars = "/".join(["**"] * 5) + "/f.txt"
    if tool == "glob":
        call = guarded.file.glob.using(timeout_sec=2)
        result = returns(lambda: call(pattern=stars, path=nested))
    else:
        call = guarded.file.grep.using(timeout_sec=2)
        result = returns(lambda: call(pattern="x", path=nested, include=stars))
    assert result.ok or result.error.code == "TimeoutError", result.error
    if result.ok:
        assert len(result.data) == 60


def test_a_walk_stops_at_its_entry_budget(
    guarded: Any, nested: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(guarded._builtin_file, "MAX_WALK_ENTRIES", 50)
    result = guarded.file.glob(pattern="**/*.txt", path=nested)
    grep = guarded.file.grep(pattern="x", path=nested)
    assert result.error.code == "LimitError" and grep.error.code == "LimitError"
    assert "50" in result.error.message


def test_file_write_and_edit_stop_at_max_write_bytes(guarded: Any) -> None:
    target = workspace(guarded) / "written.txt"
    big = guarded.file.write(path="written.txt", content="é" * 2100)  # 4,200 bytes
    assert big.error.code == "SizeError" and not target.exists()
    assert guarded.file.write(path="written.txt", content="ab" * 1000).ok
    try:
        grown = guarded.file.edit(
            path="written.txt", old="a", new="aaaa", replace_all=True
        )
        assert grown.error.code == "SizeError"
        assert target.read_text() == "ab" * 1000
    finally:
        target.unlink()


def test_db_answer_is_cut_at_max_output_bytes(guarded: Any, database: Path) -> None:
    rows = (
        "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 100000) "
        "SELECT x, printf('%.100c', 'y') AS pad FROM c"
    )
    result = guarded.db.query(sql=rows, max_rows=100_000)
    assert result.ok and result.truncated
    assert 0 < len(result.data) < 100 and len(json.dumps(result.data)) <= 4096


def test_db_never_makes_a_huge_value(guarded: Any, database: Path) -> None:
    # In a fresh process, to read its peak memory (VmHWM: ru_maxrss would count the
    # pytest process it was forked from): each value is refused by SQLite before it
    # is made (an error, or SQL's NULL), never made (300 MB) and then cut.
    status = Path("/proc/self/status")
    if not status.is_file():
        pytest.skip("reads the peak memory from /proc (Linux)")
    code = (
        "import json, guarded\n"
        "for sql in ('SELECT randomblob(300000000) AS big',\n"
        "            \"SELECT printf('%.*c', 300000000, 'x') AS big\"):\n"
        "    r = guarded.db.query(sql=sql)\n"
        "    rows = [{k: v if v is None else len(v) for k, v in row.items()}\n"
        "            for row in r.data or []]\n"
        "    print(json.dumps([r.data and rows, r.error and r.error.message]))\n"
        "peak = [l for l in open('/proc/self/status') if l.startswith('VmHWM:')]\n"
        "print(peak[0].split()[1])\n"
    )
    project = Path(guarded.__file__).parent.parent
    done = run_python(code, project)
    assert done.returncode == 0, done.stderr
    blob, text, peak_kib = done.stdout.splitlines()
    assert json.loads(blob) == [None, "string or blob too big"]
    assert json.loads(text) == [[{"big": None}], None]
    assert int(peak_kib) < 200 * 1024


def test_error_texts_never_echo_a_whole_argument(guarded: Any) -> None:
    huge = guarded.file.read(path="p" * 20_000_000)
    answer = guarded.dispatch(
        "anthropic",
        {
            "id": "1",
            "name": "hostile__clone",
            "input": {"repo": "r", **{f"k{i}": 1 for i in range(200_000)}},
        },
    )
    assert huge.error is not None and len(huge.error.message) < 3000
    assert answer["is_error"] and len(answer["content"]) < 3000
    assert "k0: unknown argument" in answer["content"]


def test_a_file_name_that_is_not_utf8_comes_back_encodable(guarded: Any) -> None:
    name = os.fsencode(workspace(guarded)) + b"/odd-\xfe.txt"
    os.close(os.open(name, os.O_CREAT | os.O_WRONLY, 0o644))
    try:
        listed = guarded.file.dir()
        found = guarded.file.glob(pattern="*.txt")
        answers = [
            guarded.dispatch("anthropic", {"id": "1", "name": tool, "input": {}})
            for tool in ("file__dir", "file__read")
        ]
    finally:
        os.unlink(name)
    assert "odd-\\xfe.txt" in listed.data and "odd-\\xfe.txt" in found.data
    for answer in answers:  # a lone surrogate would not encode
        json.dumps(answer, ensure_ascii=False).encode("utf-8")
