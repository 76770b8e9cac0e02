"""Gunicorn settings for Muster (``gunicorn -c deploy/gunicorn.conf.py armybuilder.wsgi``).

Every value can be changed from the environment, so one file serves production (systemd unit
``deploy/systemd/muster.service``), CI's smoke test and the load test (``deploy/stack.sh``).
"""

from __future__ import annotations

import multiprocessing
import os
import tempfile

import gunicorn.http.wsgi

# Behind nginx on the same machine (or a private network): nginx terminates TLS and buffers slow clients.
bind = os.environ.get("MUSTER_BIND", "127.0.0.1:8000")

# Sync workers: Muster's views are CPU-bound (PDF rendering, exact odds), so one worker per core,
# plus one to cover a worker blocked on the database. More only costs memory (~150 MB each, and
# up to ~100 MB more during a 100-unit PDF render).
workers = int(os.environ.get("WEB_CONCURRENCY", multiprocessing.cpu_count() + 1))

# A 100-unit print PDF renders in about 5 s on one core (docs/deploy.md); 30 s leaves room for a
# loaded machine. A request still running then is killed, its worker replaced.
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))
graceful_timeout = 20

# Graceful replacement: a worker being recycled (max_requests), reloaded (HUP) or stopped finishes
# its request first, for up to graceful_timeout seconds (below systemd's TimeoutStopSec=30); the
# master starts its successor at once, and keeps the listening socket, so a worker killed outright
# (OOM, timeout) loses only its own request: the others, and the next one, go to live workers
# (nginx retries a GET that the dead worker dropped on another app server: muster-proxy.conf).
# Recycle workers now and then (staggered), so a slow leak in a library can never build up.
max_requests = int(os.environ.get("GUNICORN_MAX_REQUESTS", "1000"))
max_requests_jitter = 100


def _control_socket() -> str | None:
    """One control socket per server (gunicornc talks to it); GUNICORN_CONTROL_SOCKET="" turns it off.

    Gunicorn's default is one path per user ($XDG_RUNTIME_DIR/gunicorn.ctl), so every master on a
    host would bind the same socket, the last one started taking it from the others. The default
    here is named after the server's address, in systemd's RuntimeDirectory (/run/muster).
    """
    if "GUNICORN_CONTROL_SOCKET" in os.environ:
        return os.environ["GUNICORN_CONTROL_SOCKET"] or None
    directory = os.environ.get("RUNTIME_DIRECTORY") or os.environ.get("XDG_RUNTIME_DIR") or tempfile.gettempdir()
    name = "".join(c if c.isalnum() else "-" for c in bind)
    return os.path.join(directory.split(":")[0], f"muster-gunicorn-{name}.ctl")


control_socket_path = _control_socket()
if control_socket_path:
    control_socket = control_socket_path
else:
    control_socket_disable = True

# nginx's keep-alive to the upstream is off (proxy_http_version 1.0 default), so a short wait suffices.
keepalive = 2

# Trust X-Forwarded-For / X-Forwarded-Proto only from the proxy: REMOTE_ADDR then is the
# visitor's address (the rate limits count per visitor) and Django sees https.
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1,::1")
secure_scheme_headers = {"X-FORWARDED-PROTO": "https"}

# Request line and header bounds (gunicorn's defaults, written down): nginx enforces body size.
limit_request_line = 4094
limit_request_fields = 100

# The worker heartbeat file lives in memory, not on a disk that may stall.
worker_tmp_dir = "/dev/shm" if os.path.isdir("/dev/shm") else None

accesslog = os.environ.get("GUNICORN_ACCESS_LOG", "-")
errorlog = "-"
loglevel = os.environ.get("GUNICORN_LOG_LEVEL", "info")
proc_name = "muster"

# No "Server: gunicorn/<version>" banner telling a scanner what to try.
gunicorn.http.wsgi.SERVER = "Muster"
