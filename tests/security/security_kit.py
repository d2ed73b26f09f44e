"""What the attack tests share: the fixture package built and imported for real, HTTP
servers on 127.0.0.1, and a canary that no file appeared outside the temporary folder.

Test modules import the fixtures they use from here (a second conftest.py would clash
with tests/conftest.py under pytest's default import mode)."""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import subprocess
import threading
import time
import urllib.parse
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


# tests/fixtures/secrets: two secrets, two configuration values (issue 41).
LEAK = {
    "LEAK_TOKEN": "tok-5e1f0a9c73",
    "LEAK_KEY": "key-2b7d4c8e16",
    "LEAK_SIGNING": "sig-9a3c1e5b72",
    "LEAK_REGION": "us",
    "LEAK_STAGE": "prod",
}


class Echo(Quiet):
    """Answers ``/echo/<how>`` with the credentials it was sent (the Authorization and
    Cookie headers, the query as sent and decoded, the body): as JSON, as text, or as
    the body of a 500."""

    def answer(self) -> None:
        query = self.path.partition("?")[2]
        length = int(self.headers.get("Content-Length") or 0)
        echoed = {
            "authorization": self.headers.get("Authorization", ""),
            "cookie": self.headers.get("Cookie", ""),
            "query": query,
            "decoded": urllib.parse.unquote_plus(query),
            "body": self.rfile.read(length).decode("utf-8", "replace"),
        }
        how = self.path.partition("?")[0].rpartition("/")[2]
        if how == "json":
            body = json.dumps(echoed).encode()
            self.send(200, body, {"Content-Type": "application/json"})
        else:
            text = "\n".join(echoed.values()).encode()
            self.send(200 if how == "text" else 500, text)

    do_GET = do_POST = answer  # noqa: N815 - http.server's naming


@pytest.fixture(scope="session")
def sealed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """tests/fixtures/secrets built and imported, its origin's address in LEAK_BASE."""
    folder = tmp_path_factory.mktemp("secrets")
    env = {**LEAK, "LEAK_BASE": ""}
    with serve(Echo) as base, imported_build("secrets", folder, "sealed", env) as built:
        os.environ["LEAK_BASE"] = base  # imported_build puts back what it changed
        yield built


def project_of(package: Any) -> Path:
    """The folder a built package's project is in."""
    return Path(package.__file__).parent.parent


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
