"""Gunicorn settings for Muster (``gunicorn -c deploy/gunicorn.conf.py armybuilder.wsgi``).

Every value can be changed from the environment, so one file serves production (systemd unit
``deploy/systemd/muster.service``), CI's smoke test and the load test (``deploy/stack.sh``).
"""

from __future__ import annotations

import multiprocessing
import os

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

# Recycle workers now and then (staggered), so a slow leak in a library can never build up.
max_requests = int(os.environ.get("GUNICORN_MAX_REQUESTS", "1000"))
max_requests_jitter = 100

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
