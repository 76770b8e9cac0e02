"""The shipped nginx TLS settings (deploy/nginx/muster-tls.conf), served by a real nginx.

TLS 1.2 and 1.3 only, and on TLS 1.2 only forward-secret AEAD suites: a client offering TLS 1.1,
or TLS 1.2 with a static-RSA or CBC suite, is refused; a current client connects.
"""

from __future__ import annotations

import shutil
import socket
import ssl
import subprocess
import time
from pathlib import Path

import pytest
from django.conf import settings

DEPLOY = Path(settings.BASE_DIR) / "deploy" / "nginx"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def nginx(tmp_path):
    binary = shutil.which("nginx") or "/usr/sbin/nginx"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=localhost",
         "-keyout", str(tmp_path / "tls.key"), "-out", str(tmp_path / "tls.crt")],
        check=True, capture_output=True,
    )  # fmt: skip
    port = _free_port()
    (tmp_path / "tmp").mkdir()
    (tmp_path / "nginx.conf").write_text(
        f"""
pid {tmp_path}/nginx.pid;
error_log {tmp_path}/error.log warn;
events {{ worker_connections 64; }}
http {{
  access_log off;
  client_body_temp_path {tmp_path}/tmp/body;
  proxy_temp_path {tmp_path}/tmp/proxy;
  fastcgi_temp_path {tmp_path}/tmp/fastcgi;
  uwsgi_temp_path {tmp_path}/tmp/uwsgi;
  scgi_temp_path {tmp_path}/tmp/scgi;
  server {{
    listen 127.0.0.1:{port} ssl;
    ssl_certificate {tmp_path}/tls.crt;
    ssl_certificate_key {tmp_path}/tls.key;
    include {DEPLOY}/muster-tls.conf;
    location / {{ return 200 "ok"; }}
  }}
}}
"""
    )
    subprocess.run([binary, "-t", "-q", "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf")], check=True)
    subprocess.run([binary, "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf")], check=True)
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
        yield port
    finally:
        pid = int((tmp_path / "nginx.pid").read_text())
        subprocess.run(["kill", str(pid)], check=False)


def _handshake(port: int, context: ssl.SSLContext) -> tuple[str, str] | None:
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    try:
        with (
            socket.create_connection(("127.0.0.1", port), timeout=5) as raw,
            context.wrap_socket(raw, server_hostname="localhost") as tls,
        ):
            return tls.version(), tls.cipher()[0]
    except (ssl.SSLError, ConnectionResetError):
        return None


def _client(low: ssl.TLSVersion, high: ssl.TLSVersion, ciphers: str | None = None) -> ssl.SSLContext:
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.minimum_version, context.maximum_version = low, high
    if ciphers:
        context.set_ciphers(ciphers)
    return context


def test_a_current_client_gets_tls_1_3_and_a_tls_1_2_one_a_forward_secret_aead_suite(nginx):
    assert _handshake(nginx, _client(ssl.TLSVersion.TLSv1_2, ssl.TLSVersion.TLSv1_3))[0] == "TLSv1.3"
    version, cipher = _handshake(nginx, _client(ssl.TLSVersion.TLSv1_2, ssl.TLSVersion.TLSv1_2))
    assert version == "TLSv1.2" and cipher.startswith("ECDHE-") and ("GCM" in cipher or "CHACHA20" in cipher)


@pytest.mark.parametrize(
    "ciphers", ["AES128-GCM-SHA256", "AES128-SHA", "ECDHE-RSA-AES128-SHA", "DHE-RSA-AES128-GCM-SHA256"]
)
def test_a_tls_1_2_client_without_those_suites_is_refused(nginx, ciphers):
    assert _handshake(nginx, _client(ssl.TLSVersion.TLSv1_2, ssl.TLSVersion.TLSv1_2, ciphers)) is None


def test_tls_1_1_is_refused(nginx):
    old = _client(ssl.TLSVersion.TLSv1, ssl.TLSVersion.TLSv1_1, "DEFAULT:@SECLEVEL=0")
    assert _handshake(nginx, old) is None


def test_the_site_includes_the_tls_settings():
    site = (DEPLOY / "muster.conf").read_text()
    assert "include @@CONF_DIR@@/muster-tls.conf;" in site
    assert "ssl_protocols" not in site  # one place for them: muster-tls.conf
