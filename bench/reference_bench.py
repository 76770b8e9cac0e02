"""Benchmark the rules reference against ``/ping/``: pages, htmx fragment and API, 200s and 304s.

Run from the repository root: ``.venv/bin/python bench/reference_bench.py [--rounds N]``.

It sets Django up on a temporary SQLite database with the built-in data (as ``playsheet_bench``
does) and sends requests over HTTP, one new connection each as the issue's load generator did, to
gunicorn in its own process (production's server; ``--workers``, one by default), on a temporary
SQLite database or the one ``--database-url`` names (PostgreSQL, as in production). ``--wsgiref`` (or no gunicorn
installed) serves the app from ``wsgiref`` in a thread of the bench's process instead, and
``--in-process`` uses Django's test client (where ``/ping/`` costs a fifth of a millisecond, which
no view reading the database can approach). Each endpoint's median (p50) and requests per second
(one after another, so 1 / mean time) are reported as ratios to ``/ping/`` in the same run. The
endpoints take turns in blocks of ``BLOCK`` requests, so a busy spell slows them all alike.

Each page is timed as:

* ``reload``: the browser's reload of a page it has, with its ETag: answered 304;
* ``new visitor``: a visitor without the page (no ETag), answered 200 from the page kept for this
  data version, in the visitor's own layout;
* ``cold`` (not with gunicorn, whose caches the bench cannot empty): every cache emptied before
  each request, so read and rendered from the database, as every request was before.

A "static page" floor is measured too: a bench-only view answering the weapons chart's bytes as
they are (no template, no database). The target is at most 3x ``/ping/`` for reloads and new
visitors.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import playsheet_bench  # noqa: E402  (shares its database setup)

BLOCK = 20
TARGET_RATIO = 3.0
PAGES = {
    "weapons chart v3": "/reference/v3/weapons/",
    "topic page v3 (shooting)": "/reference/v3/shooting/",
    "reference index": "/reference/",
    "edition contents v3": "/reference/v3/",
    "compare v2/v3 (shooting)": "/reference/compare/shooting/?a=v2&b=v3",
    "weapons filter (htmx)": "/reference/v3/weapons/?q=rifle",
    "API: weapons v3": "/api/editions/v3/weapons/",
}


def _timed(request: Callable[[], object], expect: int) -> float:
    start = time.perf_counter()
    response = request()
    elapsed = time.perf_counter() - start
    assert response.status_code == expect, (response.status_code, expect)
    return elapsed


class _HttpClient:
    """Just enough of the test client's ``get`` over real HTTP, with its own cookie jar."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.cookies: dict[str, str] = {}

    def get(self, url: str, headers: dict | None = None):
        import http.client

        connection = http.client.HTTPConnection("127.0.0.1", self.port)
        sent = dict(headers or {})
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        connection.request("GET", url, headers=sent)
        response = connection.getresponse()
        response.body = response.read()
        for header in response.headers.get_all("Set-Cookie") or []:
            name, _, rest = header.partition("=")
            self.cookies[name.strip()] = rest.split(";", 1)[0]
        connection.close()
        response.status_code = response.status  # the test client's name
        response.get = response.getheader  # type: ignore[method-assign]
        return response


def _serve() -> int:
    """The app over HTTP on a free port, from a daemon thread (wsgiref: one request at a time)."""
    import threading
    from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

    from django.core.wsgi import get_wsgi_application

    class Quiet(WSGIRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

    server = make_server("127.0.0.1", 0, get_wsgi_application(), server_class=WSGIServer, handler_class=Quiet)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server.server_port


def _install_static_floor(body: bytes) -> None:
    """A bench-only URL answering ``body`` as a static page would (this process only)."""
    import types

    from django.conf import settings
    from django.http import HttpRequest, HttpResponse
    from django.urls import clear_url_caches, include, path

    def static_page(request: HttpRequest) -> HttpResponse:
        return HttpResponse(body, content_type="text/html; charset=utf-8")

    module = types.ModuleType("reference_bench_urls")
    module.urlpatterns = [  # type: ignore[attr-defined]
        path("bench/static-page/", static_page),
        path("", include(settings.ROOT_URLCONF)),
    ]
    sys.modules["reference_bench_urls"] = module
    settings.ROOT_URLCONF = "reference_bench_urls"
    clear_url_caches()


GUNICORN_SETTINGS = """
from armybuilder.settings import *  # noqa: F403
DEBUG = False  # production-like; the plain static storage (set while DEBUG=1 at import) needs no manifest
ROOT_URLCONF = "reference_bench_urls"
"""
GUNICORN_URLS = """
from pathlib import Path
from django.http import HttpResponse
from django.urls import include, path
BODY = (Path(__file__).parent / "static-page.html").read_bytes()
def static_page(request):
    return HttpResponse(BODY, content_type="text/html; charset=utf-8")
urlpatterns = [path("bench/static-page/", static_page), path("", include("armybuilder.urls"))]
"""


def _start_gunicorn(db_dir: str, body: bytes, workers: int) -> tuple[int, object]:
    """gunicorn (sync workers) on a free port, with the bench's database and static-page floor."""
    import socket
    import subprocess

    folder = Path(db_dir)
    (folder / "reference_bench_settings.py").write_text(GUNICORN_SETTINGS)
    (folder / "reference_bench_urls.py").write_text(GUNICORN_URLS)
    (folder / "static-page.html").write_bytes(body)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    root = Path(__file__).resolve().parent.parent
    env = {
        **os.environ,
        "PYTHONPATH": f"{folder}:{root}",
        "DJANGO_SETTINGS_MODULE": "reference_bench_settings",
        "DEBUG": "1",
        "DATABASE_URL": os.environ["DATABASE_URL"],
    }
    gunicorn = Path(sys.executable).parent / "gunicorn"
    server = subprocess.Popen(
        [
            str(gunicorn),
            "armybuilder.wsgi",
            "--workers",
            str(workers),
            "--bind",
            f"127.0.0.1:{port}",
            "--log-level",
            "warning",
        ],
        cwd=root,
        env=env,
    )
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return port, server
        except OSError:
            time.sleep(0.1)
    server.terminate()
    raise RuntimeError("gunicorn did not start")


def _body(response: object) -> bytes:
    return getattr(response, "body", None) or getattr(response, "content", b"")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=10, help=f"blocks of {BLOCK} requests per endpoint")
    parser.add_argument("--in-process", action="store_true", help="Django's test client, not HTTP")
    parser.add_argument("--wsgiref", action="store_true", help="over HTTP to wsgiref in this process")
    parser.add_argument(
        "--database-url",
        help="a database to use instead of a temporary SQLite one (e.g. PostgreSQL, as production; "
        "it is migrated and the built-in data loaded into it). REDIS_URL in the environment is passed on too.",
    )
    parser.add_argument("--workers", type=int, default=1, help="gunicorn's sync workers")
    args = parser.parse_args()
    # gunicorn (production's server) when installed, else wsgiref.
    args.gunicorn = not (args.in_process or args.wsgiref) and (Path(sys.executable).parent / "gunicorn").exists()
    shm = Path("/dev/shm")
    db_dir = tempfile.mkdtemp(prefix="muster-bench-", dir=shm if shm.is_dir() and os.access(shm, os.W_OK) else None)
    try:
        playsheet_bench._setup_django(db_dir, args.database_url)
        from django.core.cache import caches
        from django.test import Client

        def clear() -> None:
            for cache in caches.all():
                cache.clear()

        server = None
        if args.gunicorn:
            chart_body = _body(Client().get(PAGES["weapons chart v3"]))
            port, server = _start_gunicorn(db_dir, chart_body, args.workers)
            client = _HttpClient(port)
        else:
            client = Client() if args.in_process else _HttpClient(_serve())
        endpoints: dict[str, Callable[[], float]] = {"/ping/": lambda: _timed(lambda: client.get("/ping/"), 200)}
        chart = client.get(PAGES["weapons chart v3"])
        if server is None:
            _install_static_floor(_body(chart))
        size = len(_body(chart))
        endpoints[f"static page of the chart's {size // 1024} kB"] = lambda: _timed(
            lambda: client.get("/bench/static-page/"), 200
        )
        for label, url in PAGES.items():
            headers = {"HX-Request": "true"} if "htmx" in label else {}
            first = client.get(url, headers=headers)
            assert first.status_code == 200, (url, first.status_code)
            etag = first.get("ETag")

            def new_visitor(url: str = url, headers: dict = headers) -> float:
                return _timed(lambda: client.get(url, headers=headers), 200)

            def cold(url: str = url, headers: dict = headers) -> float:
                clear()
                return _timed(lambda: client.get(url, headers=headers), 200)

            endpoints[f"{label}: new visitor"] = new_visitor
            if not args.gunicorn:  # the server's caches are out of this process's reach
                endpoints[f"{label}: cold"] = cold
            if etag:

                def reload(url: str = url, headers: dict = headers, etag: str = etag) -> float:
                    return _timed(lambda: client.get(url, headers={**headers, "If-None-Match": etag}), 304)

                endpoints[f"{label}: reload"] = reload
        # Warm up: imports, templates, database connections, the kept pages. Each gunicorn worker
        # has its own (the local-memory cache is per process), and any worker may take a
        # connection, so each endpoint is asked enough times to reach every worker.
        for measure in endpoints.values():
            for _ in range(10 * (args.workers if args.gunicorn else 1)):
                measure()
        timings: dict[str, list[float]] = {label: [] for label in endpoints}
        for _ in range(args.rounds):
            for label, measure in endpoints.items():
                timings[label].extend(measure() for _ in range(BLOCK))
        ping_p50 = statistics.median(timings["/ping/"])
        ping_rps = 1 / statistics.mean(timings["/ping/"])
        how = "django.test.Client, in process" if args.in_process else "HTTP to wsgiref in process"
        if server is not None:
            how = f"HTTP to gunicorn, {args.workers} sync worker(s)"
            server.terminate()
        print(f"reference bench: {args.rounds * BLOCK} requests per endpoint, {how}")
        print(f"{'endpoint':52}{'p50 ms':>9}{'x ping':>8}{'req/s':>9}{'ping/x':>8}")
        over = []
        for label, values in timings.items():
            p50 = statistics.median(values)
            rps = 1 / statistics.mean(values)
            ratio, rps_ratio = p50 / ping_p50, ping_rps / rps
            print(f"{label:52}{p50 * 1000:9.2f}{ratio:8.1f}{rps:9.0f}{rps_ratio:8.1f}")
            measured = not label.endswith(": cold") and label != "/ping/" and not label.startswith("static")
            if measured and max(ratio, rps_ratio) > TARGET_RATIO:
                over.append(label)
        print(f"over the {TARGET_RATIO:g}x target (reloads and new visitors): {', '.join(over) or 'none'}")
        return 0
    finally:
        shutil.rmtree(db_dir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
