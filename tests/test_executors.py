"""The executors for real: scripts and commands in real processes, HTTP against a real
server on 127.0.0.1 started here. Nothing under test is mocked."""

from __future__ import annotations

import asyncio
import json
import logging
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from conftest import imported_build


class Handler(BaseHTTPRequestHandler):
    flaky_calls = 0

    def log_message(self, *args: Any) -> None:  # keep test output quiet
        pass

    def _send(self, status: int, body: bytes, kind: str = "application/json") -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self) -> None:  # noqa: N802 - http.server's naming
        if self.path.startswith("/json"):
            self._send(200, json.dumps({"path": self.path}).encode())
        elif self.path == "/flaky":
            Handler.flaky_calls += 1
            if Handler.flaky_calls == 1:
                self._send(503, b"busy")
            else:
                self._send(200, json.dumps({"calls": Handler.flaky_calls}).encode())
        elif self.path == "/503":
            self._send(503, b"down")
        elif self.path == "/slow":
            time.sleep(2)
            self._send(200, b"{}")
        elif self.path == "/redirect":
            self.send_response(302)
            self.send_header("Location", "/json/moved")
            self.end_headers()
        else:
            self._send(200, "plain ünïcode".encode(), "text/plain; charset=utf-8")

    def do_POST(self) -> None:  # noqa: N802
        body = self.rfile.read(int(self.headers["Content-Length"]))
        echo = {
            "path": self.path,
            "authorization": self.headers["Authorization"],
            "body": json.loads(body),
        }
        self._send(200, json.dumps(echo).encode())


class QuietServer(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        pass  # a client that gave up (the timeout test) is expected, not news


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    httpd = QuietServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture(autouse=True)
def fresh_counters() -> None:
    """Each test starts with the server's counters at zero, whatever ran before."""
    Handler.flaky_calls = 0


@pytest.fixture(scope="module")
def runner(tmp_path_factory: pytest.TempPathFactory, server: str) -> Iterator[Any]:
    env = {"EXECUTOR_TEST_BASE": server, "EXECUTOR_TEST_TOKEN": "s3cret-7a1f"}
    with imported_build(
        "executors", tmp_path_factory.mktemp("executors"), "runner", env
    ) as package:
        yield package


def test_script_json_envelope_arguments_and_stdin(runner: Any) -> None:
    result = runner.scripter.ok_json(
        page=2, words=["a b", "; rm -rf /", "$(id)"], mode="fast"
    )
    assert result.ok, result
    assert result.data == {
        "argv": ["--page=2", "a b", "; rm -rf /", "$(id)", "--mode", "fast"],
        "stdin": {"page": 2, "words": ["a b", "; rm -rf /", "$(id)"], "mode": "fast"},
        "cwd": "scripter",
    }
    # One attempt, timed: the work done, not how long the machine took.
    assert result.attempts == 1 and isinstance(result.latency_ms, (int, float))


def test_script_error_envelope_plain_text_and_exit_status(runner: Any) -> None:
    error = runner.scripter.err_json()
    assert not error.ok and error.error == ("bad-input", "no such page")
    plain = runner.scripter.plain(args=["x", "$HOME"])
    assert plain.ok and plain.data == "plain text: x $HOME\n"
    assert plain.stderr == "a warning\n"
    failed = runner.scripter.fail()
    assert failed.error.code == "exit-status"
    assert failed.error.message == "exit status 3: went wrong"
    assert failed.stderr == "went wrong\n"


def test_script_timeout_spends_one_deadline_for_all_attempts(runner: Any) -> None:
    # retry allows 2 attempts, but the first one used the whole deadline of the call
    result = runner.scripter.sleepy()
    assert result.error.code == "timeout" and result.attempts == 1


def test_output_past_the_limit_is_cut_with_a_marker(runner: Any) -> None:
    result = runner.scripter.big()
    assert result.ok and result.truncated
    assert result.data.startswith("x" * 2000)
    assert result.data.endswith("[... output cut at 2000 bytes by skillc ...]")


def test_arguments_are_validated_before_anything_runs(runner: Any) -> None:
    result = runner.scripter.ok_json.call_raw({"page": 0, "mode": "warp", "words": [1]})
    assert result.error.code == "invalid-arguments" and result.attempts == 0
    assert result.error.message == (
        "page: 0 is less than 1; mode: 'warp' is not one of 'fast', 'slow'; "
        "words[0]: expected string, got number"
    )
    missing = runner.scripter.ok_json.call_raw({})
    assert missing.error.message == "page: required"
    with pytest.raises(runner.ToolError, match="invalid-arguments"):
        runner.scripter.ok_json.call_raw({}, raise_on_error=True)


def test_http_json_text_and_redirect(runner: Any) -> None:
    assert runner.web.get_json(id=7).data == {"path": "/json/7"}
    assert runner.web.text().data == "plain ünïcode"
    assert runner.web.moved().data == {"path": "/json/moved"}


def test_http_retries_a_503_then_succeeds(runner: Any) -> None:
    result = runner.web.flaky()
    assert result.ok and result.attempts == 2 and result.data == {"calls": 2}
    down = runner.web.always_503()
    assert down.error.code == "http-503" and down.attempts == 2


def test_http_timeout(runner: Any) -> None:
    result = runner.web.slow()
    assert result.error.code == "timeout"


def test_http_renders_templates_and_environment_at_call_time(
    runner: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    result = runner.web.post(title="Bug", labels=["p1", "ui"], user="a&b c")
    assert result.data == {
        "path": "/echo?user=a%26b%20c",
        "authorization": "Bearer [redacted]",  # the echoed secret is redacted
        "body": {"title": "Bug", "labels": ["p1", "ui"], "note": "by a&b c"},
    }
    monkeypatch.delenv("EXECUTOR_TEST_TOKEN")
    missing = runner.web.post(title="Bug")
    assert missing.error.code == "missing-environment-variable"
    generated = Path(runner.__file__).parent
    assert "s3cret-7a1f" not in "".join(p.read_text() for p in generated.rglob("*.py"))


def test_http_calls_start_no_timer_and_read_templates_once(
    runner: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 45: a call's deadline is its sockets' timeouts (no ``threading.Timer``
    started and cancelled per call), and a tool's URL and header templates are read
    at its first call only."""
    import importlib

    executor = importlib.import_module(f"{runner.__name__}._executor_http")
    assert runner.web.get_json(id=1).ok and runner.web.post(title="Bug").ok

    def forbidden(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("not on a call after the first")

    monkeypatch.setattr(threading, "Timer", forbidden)
    monkeypatch.setattr(executor, "_parts", forbidden)
    assert runner.web.get_json(id=7).data == {"path": "/json/7"}
    result = runner.web.post(title="Bug", labels=["p1"], user="a&b c")
    assert result.data["path"] == "/echo?user=a%26b%20c"
    assert result.data["authorization"] == "Bearer [redacted]"


def test_cli_builds_an_argument_list_and_asks_before_danger(runner: Any) -> None:
    result = runner.echoer.show(
        target="; rm -rf /", depth=2, verbose=True, tag=["a", "b"]
    )
    assert json.loads(result.data) == [
        "--depth=2",
        "--verbose",
        "--tag=a",
        "--tag=b",
        "--",
        "; rm -rf /",
    ]
    refused = runner.echoer.wipe()
    assert refused.error.code == "confirmation-required" and refused.attempts == 0
    assert runner.echoer.wipe.using(confirm=True)().data == "wiped\n"


def test_raise_on_error_and_unwrap(runner: Any) -> None:
    with pytest.raises(runner.ToolError) as caught:
        runner.scripter.fail.using(raise_on_error=True)()
    assert caught.value.code == "exit-status"
    with pytest.raises(runner.ToolError):
        runner.scripter.err_json().unwrap()


def test_events_carry_structured_fields(
    runner: Any, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.INFO, logger="runner.tools"):
        runner.web.always_503()
        runner.web.get_json(id=1)
    events = [(r.event, r.status, r.error_code, r.attempt) for r in caplog.records]  # type: ignore[attr-defined]
    assert events == [
        ("tool.retry", "retrying", "http-503", 1),
        ("tool.failed", "error", "http-503", 2),
        ("tool.degraded", "degraded", "http-503", 2),
        ("tool.call", "ok", None, 1),
    ]
    record = caplog.records[0]
    assert record.tool_name == "web.always_503" and record.executor == "http"  # type: ignore[attr-defined]
    assert record.skill_id is None and record.latency_ms >= 0  # type: ignore[attr-defined]


def test_async_calls(runner: Any) -> None:
    async def both() -> list[Any]:
        return list(
            await asyncio.gather(
                runner.web.get_json.acall(id=1), runner.scripter.ok_json.acall(page=1)
            )
        )

    web, script = asyncio.run(both())
    assert web.data == {"path": "/json/1"} and script.data["stdin"] == {"page": 1}
