"""The http executor through an HTTPS proxy, for real on 127.0.0.1: a CONNECT proxy and
a TLS server with a throwaway certificate, both started here, and the generated package
calling its tool in a fresh process with ``https_proxy`` set. The call must go through
the proxy (never around it), the proxy must see only the CONNECT with its own
credentials and, after it, encrypted bytes (the tool's credentials never in the clear
there), and the origin must get the tool's credentials and never the proxy's."""

from __future__ import annotations

import base64
import contextlib
import datetime
import io
import ipaddress
import json
import os
import socket
import ssl
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from skillc import cli

if not os.environ.get("CI"):  # CI has it (the mcp extra's pyjwt[crypto]): never skip
    pytest.importorskip("cryptography")

TOKEN = "tool-s3cret-7f1c"  # the tool's credential, from the environment
PROXY_USER, PROXY_PASSWORD = "proxy-user", "proxy-pass-91d"
MANIFEST = """\
namespace: web
description: One call over HTTPS.
tools:
  - name: fetch
    description: GET a JSON document with a bearer token.
    executor:
      type: http
      url: "https://localhost:${PROXY_TEST_PORT}/doc"
      headers_template: {Authorization: "Bearer ${PROXY_TEST_TOKEN}"}
"""


def _certificates(folder: Path) -> tuple[Path, Path, Path]:
    """A throwaway CA and a certificate it signed for localhost and 127.0.0.1: the
    CA's file, the certificate's, its key's."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

    now = datetime.datetime.now(datetime.timezone.utc)

    def made(subject: str, key: Any, issuer: Any, signer: Any, ca: bool) -> Any:
        name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, subject)])
        builder = (
            x509.CertificateBuilder()
            .subject_name(name)
            .issuer_name(issuer or name)
            .public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(minutes=5))
            .not_valid_after(now + datetime.timedelta(days=1))
            .add_extension(x509.BasicConstraints(ca=ca, path_length=None), True)
            .add_extension(
                x509.SubjectKeyIdentifier.from_public_key(key.public_key()), False
            )
            .add_extension(
                x509.AuthorityKeyIdentifier.from_issuer_public_key(signer.public_key()),
                False,
            )
        )
        if not ca:
            names = [x509.DNSName("localhost")]
            names.append(x509.IPAddress(ipaddress.ip_address("127.0.0.1")))
            builder = builder.add_extension(x509.SubjectAlternativeName(names), False)
            usage = x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH])
            builder = builder.add_extension(usage, False)
        return builder.sign(signer, hashes.SHA256())

    ca_key = ec.generate_private_key(ec.SECP256R1())
    key = ec.generate_private_key(ec.SECP256R1())
    ca = made("skillc test CA", ca_key, None, ca_key, True)
    leaf = made("localhost", key, ca.subject, ca_key, False)
    paths = folder / "ca.pem", folder / "cert.pem", folder / "key.pem"
    paths[0].write_bytes(ca.public_bytes(serialization.Encoding.PEM))
    paths[1].write_bytes(leaf.public_bytes(serialization.Encoding.PEM))
    paths[2].write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return paths


class _Origin(BaseHTTPRequestHandler):
    seen: list[dict[str, str]] = []

    def log_message(self, *args: Any) -> None:
        pass

    def do_GET(self) -> None:  # noqa: N802 - http.server's naming
        _Origin.seen.append({k.lower(): v for k, v in self.headers.items()})
        body = json.dumps({"path": self.path}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


class _Proxy:
    """A CONNECT proxy: each connection's request head and every byte it relayed."""

    def __init__(self) -> None:
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.heads: list[bytes] = []
        self.relayed = bytearray()
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self._tunnel, args=(client,), daemon=True).start()

    def _tunnel(self, client: socket.socket) -> None:
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = client.recv(4096)
            if not chunk:
                client.close()
                return
            head += chunk
        head, _, early = head.partition(b"\r\n\r\n")
        with self.lock:
            self.heads.append(head)
        method, target, _ = head.split(b"\r\n", 1)[0].split(b" ", 2)
        if method != b"CONNECT":
            client.sendall(
                b"HTTP/1.1 405 Method Not Allowed\r\nContent-Length: 0\r\n\r\n"
            )
            client.close()
            return
        host, _, port = target.decode().rpartition(":")
        upstream = socket.create_connection((host, int(port)), timeout=30)
        client.sendall(b"HTTP/1.1 200 Connection established\r\n\r\n")
        upstream.sendall(early)
        threading.Thread(
            target=self._pipe, args=(upstream, client), daemon=True
        ).start()
        self._pipe(client, upstream)

    def _pipe(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while chunk := source.recv(65536):
                with self.lock:
                    self.relayed += chunk
                sink.sendall(chunk)
        except OSError:
            pass
        finally:
            for end in (source, sink):
                with contextlib.suppress(OSError):
                    end.shutdown(socket.SHUT_RDWR)

    def close(self) -> None:
        self.listener.close()


@pytest.fixture
def origin_and_proxy(tmp_path: Path) -> Iterator[tuple[int, _Proxy, Path]]:
    """The TLS origin's port, the proxy, the CA's file."""
    ca, cert, key = _certificates(tmp_path)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    origin = ThreadingHTTPServer(("127.0.0.1", 0), _Origin)
    origin.daemon_threads = True
    origin.socket = context.wrap_socket(origin.socket, server_side=True)
    threading.Thread(target=origin.serve_forever, daemon=True).start()
    proxy = _Proxy()
    _Origin.seen = []
    try:
        yield origin.server_address[1], proxy, ca
    finally:
        proxy.close()
        origin.shutdown()
        origin.server_close()


def test_https_goes_through_the_proxy_and_credentials_stay_with_their_origin(
    tmp_path: Path, origin_and_proxy: tuple[int, _Proxy, Path]
) -> None:
    port, proxy, ca = origin_and_proxy
    project = tmp_path / "project"
    (project / "src").mkdir(parents=True)
    (project / "src" / "web.tools.yaml").write_text(MANIFEST)
    (project / "pyproject.toml").write_text(
        '[tool.skillc]\nsources = ["src"]\nout = "kit"\nbuiltins = []\n'
    )
    with contextlib.redirect_stderr(io.StringIO()) as err:
        assert cli.main(["-C", str(project), "build"]) == 0, err.getvalue()
    env = {k: v for k, v in os.environ.items() if "proxy" not in k.lower()}
    env.update(
        PYTHONPATH=str(project),
        SSL_CERT_FILE=str(ca),  # the throwaway CA, and only it, is trusted
        https_proxy=f"http://{PROXY_USER}:{PROXY_PASSWORD}@127.0.0.1:{proxy.port}",
        PROXY_TEST_PORT=str(port),
        PROXY_TEST_TOKEN=TOKEN,
    )
    call = (
        "import json, kit\n"
        "result = kit.web.fetch()\n"
        "print(json.dumps([result.data, result.error and result.error.message]))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", call],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    data, error = json.loads(done.stdout)
    assert error is None and data == {"path": "/doc"}
    # Through the proxy, never around it: one CONNECT to the origin, with the
    # proxy's own credentials and nothing of the tool's.
    assert len(proxy.heads) == 1, f"{len(proxy.heads)} requests reached the proxy"
    head = proxy.heads[0]
    lines = head.decode().split("\r\n")
    assert lines[0].startswith(f"CONNECT localhost:{port} HTTP/1.")
    basic = base64.b64encode(f"{PROXY_USER}:{PROXY_PASSWORD}".encode()).decode()
    assert f"Proxy-Authorization: Basic {basic}" in lines
    assert TOKEN not in head.decode() and "Authorization: Bearer" not in head.decode()
    # What the proxy relayed was TLS: the tool's token and path never in the clear.
    assert proxy.relayed and TOKEN.encode() not in proxy.relayed
    assert b"/doc" not in proxy.relayed
    # The origin got the tool's credentials, and never the proxy's.
    (seen,) = _Origin.seen
    assert seen["authorization"] == f"Bearer {TOKEN}"
    assert "proxy-authorization" not in seen
    assert PROXY_PASSWORD not in json.dumps(seen) and basic not in json.dumps(seen)
