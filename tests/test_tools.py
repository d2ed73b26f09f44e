"""Callable tools end to end: build the tools fixture, import the package in a fresh
process and call the built-ins on real files, a real SQLite database and real processes.
"""

from __future__ import annotations

import json
import sqlite3
import textwrap
from pathlib import Path

import pytest

from conftest import run_mypy, run_python, run_skillc


@pytest.fixture
def kit(tools_project: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    status, err = run_skillc(capsys, "-C", str(tools_project), "build")
    assert status == 0, err
    (tools_project / "out").rename(tools_project / "kit")  # importable as its package
    return tools_project


def python(project: Path, code: str) -> str:
    result = run_python(textwrap.dedent(code), project)
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_file_tools_on_real_files(kit: Path) -> None:
    out = python(
        kit,
        """
        import kit
        f = kit.file
        print(f.write(path="notes/a.txt", content="one\\ntwo\\nthree\\n", create_dirs=True).data)
        print(repr(f.read(path="notes/a.txt", offset=1, limit=1).data))
        print(f.edit(path="notes/a.txt", old="two", new="2").data)
        print(f.edit(path="notes/a.txt", old="missing", new="x").error.code)
        print(f.dir(path="notes").data, f.dir().data)
        print(f.glob(pattern="**/*.txt").data)
        print(f.grep(pattern="^t", include="**/*.txt").data)
        print(f.read(path="../pyproject.toml").error)
        print(kit.read_file is f.read, kit.read_file(path="hello.txt").data.strip())
        """,
    )
    lines = out.splitlines()
    assert lines[0] == "14"
    assert lines[1] == "'two\\n'"
    assert lines[2] == "1"
    assert lines[3] == "EditError"
    assert (
        lines[4] == "['a.txt'] ['app.sqlite', 'hello.txt', 'notes/']"
        or lines[4] == "['a.txt'] ['hello.txt', 'notes/']"
    )
    assert lines[5] == "['hello.txt', 'notes/a.txt']"
    assert lines[6] == "['notes/a.txt:3:three']"
    assert "PathError" in lines[7] and "outside the root folder" in lines[7]
    assert lines[8] == "True hello"
    assert (kit / "workspace" / "notes" / "a.txt").read_text() == "one\n2\nthree\n"


def test_file_read_refuses_large_files_and_symlinks_out(kit: Path) -> None:
    (kit / "workspace" / "big.txt").write_text("x" * 2048)
    (kit / "workspace" / "escape").symlink_to(kit / "pyproject.toml")
    out = python(
        kit,
        """
        import kit, kit._settings
        kit._settings.configure(max_read_bytes=1024)
        print(kit.file.read(path="big.txt").error.code)
        print(kit.file.read(path="escape").error.code)
        """,
    )
    assert out.split() == ["SizeError", "PathError"]


def test_db_tools_on_a_real_database(kit: Path) -> None:
    with sqlite3.connect(kit / "workspace" / "app.sqlite") as db:
        db.execute("CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT)")
    out = python(
        kit,
        """
        import kit
        print(kit.db.insert(table="users", rows=[{"name": "Ada"}, {"name": "Bob"}]).data)
        print(kit.db.insert(table="users", rows={"name": "Eve"}).data)
        print(kit.db.query(sql="SELECT name FROM users WHERE id > ? ORDER BY id", params=[1]).data)
        print(kit.db.query(sql="DELETE FROM users").error.code)
        print(kit.db.insert(table="users; DROP TABLE users", rows={"name": "x"}).ok)
        """,
    )
    lines = out.splitlines()
    assert lines[:3] == ["2", "1", "[{'name': 'Bob'}, {'name': 'Eve'}]"]
    assert lines[3] == "DatabaseError"  # read-only: the query is not authorized
    assert lines[4] == "False"
    with sqlite3.connect(kit / "workspace" / "app.sqlite") as db:
        assert db.execute("SELECT count(*) FROM users").fetchone() == (3,)


def test_batch_runs_without_a_shell(kit: Path) -> None:
    (kit / "workspace" / "show.py").write_text("import sys; print(sys.argv[1:])")
    out = python(
        kit,
        """
        import kit
        print(kit.batch.run(command=["true"]).error.code)  # dangerous: asks first
        run = kit.batch.run.using(confirm=True)
        r = run(command=["echo", "; rm -rf /", "$(id)"]).data
        print(repr(r["stdout"]))
        print(run(command="echo $HOME", shell=True).data["stdout"].strip() != "$HOME")
        script = kit.batch.script.using(confirm=True)
        print(script(path="show.py", args=["a b", "$(id)"]).data["stdout"].strip())
        print(run(command=["sleep", "5"], timeout_sec=0.2).error.code)
        print(run(command=["false"]).data["exit_code"])
        """,
    )
    lines = out.splitlines()
    assert lines.pop(0) == "confirmation-required"
    assert lines[0] == "'; rm -rf / $(id)\\n'"
    assert lines[1] == "True"
    assert lines[2] == "['a b', '$(id)']"
    assert lines[3] == "timeout"
    assert lines[4] == "1"


def test_calls_send_the_original_names(kit: Path) -> None:
    out = python(
        kit,
        """
        import json, kit
        r = kit.s3.file.read(bucket="b", key="k", class_="GLACIER", model_config={"a": 1})
        print(json.dumps(r.data, sort_keys=True))
        print(kit.s3_read is kit.s3.file.read is kit.s3.file.get)
        print(json.dumps(kit.weather.current.arguments(city="Paris", from_="x", content_type="t", pm2_5=3.5), sort_keys=True))
        print(kit.file.tail(path="a").data)
        """,
    )
    lines = out.splitlines()
    assert json.loads(lines[0]) == {
        "bucket": "b",
        "key": "k",
        "class": "GLACIER",
        "model_config": {"a": 1},
    }
    assert lines[1] == "True"
    assert json.loads(lines[2]) == {
        "city": "Paris",
        "units": "metric",
        "days": 3,
        "from": "x",
        "Content-Type": "t",
        "PM2.5": 3.5,
    }
    assert lines[3] == "{'path': 'a', 'lines': 10}"


def test_help_at_both_levels_for_nested_namespaces(kit: Path) -> None:
    out = python(
        kit,
        """
        import kit
        print(kit.s3.help())
        print("--")
        print(kit.s3.file.help())
        print("--")
        print(kit.s3.file.read.help())
        """,
    )
    namespace, nested, spec = out.split("--\n")
    assert "s3.file.read: Read an object from a bucket." in namespace
    assert nested.startswith("s3.file: Objects in S3 buckets, as files.")
    assert spec.startswith("s3.file.read: tool 'read' (python executor)")
    for text in (
        "bucket: str (required)  The bucket.",
        'class_: Literal["STANDARD", "GLACIER"] | None = None [sent as \'class\']',
        "Aliases: s3_read, s3.file.get",
        "Errors:\n  NoSuchKey",
        "Category: file_ops",
    ):
        assert text in spec


def test_signatures_are_checked_by_mypy(kit: Path) -> None:
    (kit / "use.py").write_text(textwrap.dedent("""
            import kit
            kit.s3.file.read(bucket="b", key="k", class_="GLACIER")
            kit.weather.current(city="x", units="metric", opts={"class": 1, "detail": {"level": 2}})
            kit.s3.file.get(bucket="b", key="k").unwrap()
            kit.weather.current(city="x", units="fahrenheit")
            kit.s3.file.read(bucket="b")
            kit.file.read(path=1)
            kit.read_file(path="a", colour="red")
            """))
    result = run_mypy(kit, "use.py")
    errors = [line for line in result.stdout.splitlines() if ": error:" in line]
    assert [e.split(":")[1] for e in errors] == ["6", "7", "8", "9"], result.stdout


def test_signatures_say_what_a_call_returns(kit: Path) -> None:
    """inspect and mypy both see a typed ToolResult, not the arguments dict."""
    out = run_python(
        "import inspect, kit\n"
        "for tool in (kit.file.read, kit.file.dir, kit.db.query, kit.s3.file.read):\n"
        "    print(inspect.signature(tool).return_annotation)",
        kit,
    )
    assert out.stdout.split("\n")[:4] == [
        "ToolResult[str]",
        "ToolResult[list[str]]",
        "ToolResult[list[dict[str, Any]]]",
        "ToolResult[dict[str, Any]]",
    ], out.stderr
    (kit / "typed.py").write_text(textwrap.dedent("""
            import kit
            reveal_type(kit.file.read(path="a").data)
            reveal_type(kit.file.dir(path="a").unwrap())
            reveal_type(kit.db.query.using(confirm=True)(sql="select 1").data)
            """))
    result = run_mypy(kit, "typed.py")
    notes = [
        line.split("note: ")[1]
        for line in result.stdout.splitlines()
        if "note: Revealed" in line
    ]
    assert notes == [
        'Revealed type is "str | None"',
        'Revealed type is "list[str]"',
        'Revealed type is "list[dict[str, Any]] | None"',
    ], result.stdout


def test_python_m_calls_a_tool(kit: Path) -> None:
    result = run_python("", kit, "-m", "kit", "call", "file.grep", "--pattern", "hel+o")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == ["hello.txt:1:hello"]
    failed = run_python("", kit, "-m", "kit", "call", "read_file", "--path", "../x")
    assert failed.returncode == 1 and "error[PathError]" in failed.stdout


def test_report_lists_shadowed_tools_and_author_schemas(kit: Path) -> None:
    report = json.loads((kit / "kit" / "report.json").read_text())
    assert report["shadowed"] == [
        {
            "qualname": "file.read",
            "kept": {"path": "<skillc>/builtins/file.tools.yaml", "line": 5, "col": 11},
            "shadowed": {"path": "overrides/file.tools.yaml", "line": 4, "col": 11},
        }
    ]
    weather = next(t for t in report["tools"] if t["name"] == "weather.current")
    assert weather["author_schema"]["type"] == "dict"
    assert weather["origin"] == "tool-manifest" and weather["executor"] == "http"


def test_importing_reads_no_manifest(kit: Path) -> None:
    out = python(
        kit,
        """
        import builtins
        opened = []
        real = builtins.open
        builtins.open = lambda f, *a, **k: (opened.append(str(f)), real(f, *a, **k))[1]
        import kit
        kit.list(); kit.s3.file.read.spec.help; kit.weather.current.arguments(city="x")
        print([f for f in opened if f.endswith((".yaml", ".json", ".md"))])
        """,
    )
    assert out.strip() == "[]"
