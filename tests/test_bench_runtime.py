"""The bench's MCP section (tests/bench_runtime.py) never crashes the bench: a server
that prints a line that is not JSON before its answers is still measured, and one that
fails to start is a row that says FAILED, with what it wrote to stderr."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import pytest

import bench_runtime
from bench import Figure

# A stand-in MCP server over stdio: a line that is not JSON first (as a library's print
# on a loaded machine), then an answer to each request, every call a success.
CHATTY = """
import json, sys
print("loading the tools...", flush=True)
for line in sys.stdin:
    request = json.loads(line)
    if "id" not in request:
        continue
    result = {"tools": [{"name": "t"}]} if request["method"] == "tools/list" else {}
    print(json.dumps({"jsonrpc": "2.0", "id": request["id"], "result": result}), flush=True)
"""
BROKEN = "import sys; sys.stderr.write('ModuleNotFoundError: no module named mcp'); sys.exit(1)"


def test_a_line_that_is_not_json_is_passed_over(tmp_path: Path) -> None:
    cpu, rss, per_call = bench_runtime.serve(
        tmp_path, [sys.executable, "-c", CHATTY], ("t", {})
    )
    assert cpu > 0 and rss > 0 and per_call >= 0


def test_a_server_that_fails_to_start_says_why(tmp_path: Path) -> None:
    with pytest.raises(bench_runtime.ServerFailed) as failed:
        bench_runtime.serve(tmp_path, [sys.executable, "-c", BROKEN], ("t", {}))
    assert "exit status 1" in str(failed.value)
    assert "no module named mcp" in str(failed.value)


def test_a_failed_peer_is_a_failed_row_and_the_bench_goes_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    servers = {
        "ours": ([sys.executable, "-c", CHATTY], ("t", {})),
        "peer": ([sys.executable, "-c", BROKEN], ("t", {})),
    }
    rows = bench_runtime.mcp_rows(tmp_path, servers, "(1 tool)", 1, Figure)
    assert [row[0] for row in rows] == [
        f"{label} (1 tool)" for label, _, _, _ in bench_runtime.MCP_FIGURES
    ]
    assert all(row[-1] == "FAILED" and math.isnan(row[1]) for row in rows)
    printed = capsys.readouterr().out
    assert "peer failed" in printed and "no module named mcp" in printed


def test_a_build_that_stops_is_a_failed_row_not_a_crash(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A section whose build exits non-zero (a corpus an update made invalid) is a row
    that says FAILED, with the build's stderr; the sections after it still run."""
    import argparse
    import subprocess

    import bench

    def stops(runs: int) -> list[bench.Line]:
        raise subprocess.CalledProcessError(
            1, ["skillc"], b"", b"error[invalid-plugin]"
        )

    monkeypatch.setattr(bench, "repo_figures", stops)
    monkeypatch.setattr(bench, "_byte_compile", lambda: None)
    args = argparse.Namespace(only="repo", runs=1, skillc=None)
    assert bench._run(argparse.ArgumentParser(), args) == 1
    out, err = capsys.readouterr()
    assert "repo: a build failed" in out and "FAILED" in out
    assert "error[invalid-plugin]" in err
