"""What the attack tests share: the fixture package built and imported for real, HTTP
servers on 127.0.0.1, and a canary that no file appeared outside the temporary folder.

Test modules import the fixtures they use from here (a second conftest.py would clash
with tests/conftest.py under pytest's default import mode)."""

from __future__ import annotations

import contextlib
import importlib
import os
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from conftest import REPO, imported_build

# Payloads that would create a file name it so; the canary looks for the name.
PWNED = "skillc-pwned"
SECRETS = {
    "SECURITY_TEST_TOKEN": "tok-0d9c2f7e51",
    "SECURITY_TEST_KEY": "key-8b1a6c4e93",
}


class QuietServer(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        pass  # a client that gave up (a timeout) is expected, not news


@contextlib.contextmanager
def serve(handler: type[BaseHTTPRequestHandler]) -> Iterator[str]:
    """A real HTTP server on 127.0.0.1 (never any other address); its base URL."""
    httpd = QuietServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()


class Quiet(BaseHTTPRequestHandler):
    def log_message(self, *args: Any) -> None:
        pass

    def send(
        self, status: int, body: bytes, headers: dict[str, str] | None = None
    ) -> None:
        self.send_response(status)
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def _outside() -> set[str]:
    """Files the attacks could leave outside the temporary folder: anything named like
    a payload in the usual places, and new untracked files in the checkout."""
    found: set[str] = set()
    for folder in {Path.home(), Path("/tmp"), Path("/"), REPO, Path.cwd()}:
        with contextlib.suppress(OSError):
            found |= {str(p) for p in folder.iterdir() if p.name.startswith(PWNED)}
    listed = subprocess.run(
        ["git", "ls-files", "--others", "--exclude-standard"],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )
    return found | {f"repo:{line}" for line in listed.stdout.splitlines()}


@pytest.fixture(scope="module", autouse=True)
def canary() -> Iterator[None]:
    """No test of the module may leave a file outside the temporary folder."""
    before = _outside()
    yield
    assert _outside() - before == set()


@pytest.fixture(scope="session")
def guarded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """tests/fixtures/security built with skillc and imported, its workspace in tmp."""
    folder = tmp_path_factory.mktemp("security")
    with imported_build("security", folder, "guarded", SECRETS) as package:
        for module in ("_settings", "_tools"):  # tests reach into them in any order
            importlib.import_module(f"{package.__name__}.{module}")
        yield package


def one_tool_project(folder: Path, schema: str, executor: str) -> Path:
    """A project of one tool, ``t.a``, with this input schema and executor (YAML)."""
    (folder / "tools").mkdir()
    (folder / "pyproject.toml").write_text(
        '[tool.skillc]\nsources = ["tools"]\nout = "out"\n'
    )
    (folder / "tools" / "t.tools.yaml").write_text(
        "namespace: t\ndescription: d\ntools:\n"
        "  - name: a\n    description: d\n"
        f"    input_schema: {schema}\n"
        f"    executor: {executor}\n"
    )
    return folder


def workspace(package: Any) -> Path:
    return Path(package.__file__).parent.parent / "workspace"


def returns(call: Callable[[], Any], patience: float = 60) -> Any:
    """Run ``call`` in a thread and give back its answer; fail when it has not returned
    after ``patience`` seconds (a generous bound: a call that hangs never returns)."""
    box: list[Any] = []
    thread = threading.Thread(target=lambda: box.append(call()), daemon=True)
    thread.start()
    thread.join(patience)
    assert not thread.is_alive(), "the call never returned"
    assert box, "the call raised"
    return box[0]


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
        state = Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0]
    except (ProcessLookupError, FileNotFoundError):
        return False
    return state != "Z"  # a zombie waits to be reaped; it runs nothing


def gone(pid: int) -> bool:
    """Whether the process has ended, allowing a SIGKILL already sent a moment to land."""
    for _ in range(100):
        if not _running(pid):
            return True
        time.sleep(0.05)
    return False
