"""A bounded load test of a running Muster stack (``make loadtest`` starts one and runs this).

    .venv/bin/python deploy/loadtest.py https://127.0.0.1:8443 --players 8 --seconds 60

``--players`` simulated players each build lists in a loop, as a person at the builder would:
create (import an empty list), add three units, change a unit's quality twice, print the
roster PDF, then start a new list. Half as many readers browse the rules reference and ask the
odds API. One probe asks ``/ping/`` every 100 ms: the yardstick, measured under the same load.
Everything stops at the deadline (no request is started after it; each has a 30 s timeout), and
only the address given is ever contacted. Reports, per action, requests/s, p50/p95/p99 and the
error rate, and each percentile as a ratio to ``/ping/``'s in the same run. Standard library only.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import random
import re
import ssl
import statistics
import threading
import time
import urllib.parse
from collections import defaultdict
from http.cookies import SimpleCookie

TIMEOUT = 30
CONTEXT = ssl.create_default_context()
CONTEXT.check_hostname = False
CONTEXT.verify_mode = ssl.CERT_NONE  # the stack's certificate is self-signed


class Recorder:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.times: dict[str, list[float]] = defaultdict(list)
        self.errors: dict[str, int] = defaultdict(int)

    def add(self, action: str, seconds: float, ok: bool) -> None:
        with self.lock:
            self.times[action].append(seconds)
            if not ok:
                self.errors[action] += 1


class Client:
    """One visitor: a keep-alive HTTPS connection with its own cookies."""

    def __init__(self, base: str, recorder: Recorder, deadline: float) -> None:
        parsed = urllib.parse.urlparse(base)
        self.host, self.port, self.base = parsed.hostname, parsed.port, base
        self.recorder, self.deadline = recorder, deadline
        self.cookies: dict[str, str] = {}
        self.connection: http.client.HTTPSConnection | None = None

    def request(self, action: str, method: str, path: str, body=None, headers=None, ok=(200, 302)):
        if time.monotonic() >= self.deadline:
            raise TimeoutError("deadline")
        headers = dict(headers or {})
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if method == "POST":
            headers.setdefault("X-CSRFToken", self.cookies.get("csrftoken", ""))
            headers.setdefault("Referer", self.base + path)
            if isinstance(body, dict):
                body = urllib.parse.urlencode(body)
                headers["Content-Type"] = "application/x-www-form-urlencoded"
        start = time.perf_counter()
        try:
            if self.connection is None:
                self.connection = http.client.HTTPSConnection(self.host, self.port, timeout=TIMEOUT, context=CONTEXT)
            self.connection.request(method, path, body=body, headers=headers)
            response = self.connection.getresponse()
            data = response.read()
        except (OSError, http.client.HTTPException):
            self.recorder.add(action, time.perf_counter() - start, False)
            self.connection = None
            return 0, {}, b""
        self.recorder.add(action, time.perf_counter() - start, response.status in ok)
        for header in response.headers.get_all("Set-Cookie") or []:
            for name, morsel in SimpleCookie(header).items():
                self.cookies[name] = morsel.value
        return response.status, response.headers, data


SHOOTING = {
    "edition": "v3",
    "order": "fire",
    "firer": {"quality": "regular", "pins": 0},
    "groups": [{"weapon": "rifle", "models": 8, "range": "normal"}, {"weapon": "lmg", "models": 1, "range": "normal"}],
    "target": {"kind": "infantry", "quality": "regular", "models": 10, "cover": "soft", "down": False},
}
EMPTY_LIST = {
    "format": "muster-list/1",
    "name": "Load test",
    "edition": "v3",
    "army": ["v3", "generic"],
    "points_limit": 1000,
    "entries": [],
}
HX = {"HX-Request": "true"}


def player(client: Client, rng: random.Random) -> None:
    client.request("page", "GET", "/lists/import/")
    while True:
        status, headers, _ = client.request("create", "POST", "/lists/import/", {"text": json.dumps(EMPTY_LIST)})
        location = headers.get("Location", "") if headers else ""
        if not re.search(r"/lists/\d+/$", location):
            continue
        builder = urllib.parse.urlparse(location).path
        _, _, page = client.request("page", "GET", builder)
        units = re.findall(rb'name="unit" value="(\d+)"', page)
        if not units:
            continue
        entries = []
        for _ in range(3):
            unit = rng.choice(units).decode()
            _, _, fragment = client.request("add", "POST", f"{builder}entries/add/", {"unit": unit}, HX)
            entries += re.findall(rb'id="entry-(\d+)"', fragment)
        for quality in ("veteran", "regular"):
            if entries:
                entry = rng.choice(entries).decode()
                client.request("change", "POST", f"{builder}entries/{entry}/quality/", {"quality": quality}, HX)
        client.request("print", "GET", f"{builder}roster.pdf")


def reader(client: Client, rng: random.Random) -> None:
    _, _, index = client.request("reference", "GET", "/reference/v3/")
    topics = sorted(set(re.findall(rb'href="(/reference/v3/[a-z0-9-]+/)"', index))) or [b"/reference/v3/"]
    while True:
        client.request("reference", "GET", rng.choice(topics).decode())
        body = json.dumps({**SHOOTING, "groups": [{**SHOOTING["groups"][0], "models": rng.randint(1, 12)}]})
        client.request("odds", "POST", "/api/resolve/shooting/", body, {"Content-Type": "application/json"})


def prober(client: Client, rng: random.Random) -> None:
    while True:
        client.request("ping", "GET", "/ping/")
        time.sleep(0.1)


def _run(target, client: Client, seed: int) -> None:
    with contextlib.suppress(TimeoutError):
        target(client, random.Random(seed))


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base", help="the stack's URL, e.g. https://127.0.0.1:8443")
    parser.add_argument("--players", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=60)
    args = parser.parse_args()
    if urllib.parse.urlparse(args.base).hostname not in ("127.0.0.1", "localhost", "::1"):
        parser.error("the load test only targets this machine (127.0.0.1 or localhost)")

    recorder = Recorder()
    deadline = time.monotonic() + args.seconds
    roles = [player] * args.players + [reader] * max(1, args.players // 2) + [prober]
    threads = [
        threading.Thread(target=_run, args=(role, Client(args.base, recorder, deadline), n), daemon=True)
        for n, role in enumerate(roles)
    ]
    started = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=args.seconds + TIMEOUT + 5)
    elapsed = time.monotonic() - started

    ping = recorder.times.get("ping") or [float("nan")]
    ping_p = {q: percentile(ping, q) for q in (0.5, 0.95, 0.99)}
    total = sum(len(v) for v in recorder.times.values())
    errors = sum(recorder.errors.values())
    print(
        f"load test: {args.players} players, {max(1, args.players // 2)} readers and a /ping/ probe for "
        f"{elapsed:.0f} s against {args.base}"
    )
    print(f"{total} requests, {total / elapsed:.1f} req/s overall, error rate {errors / max(total, 1):.2%}")
    print(
        f"{'action':<10}{'count':>7}{'req/s':>8}{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}"
        f"{'errors':>8}{'p50/ping':>10}{'p95/ping':>10}{'p99/ping':>10}"
    )
    for action in ["ping", "page", "create", "add", "change", "print", "reference", "odds"]:
        times = recorder.times.get(action)
        if not times:
            continue
        p = {q: percentile(times, q) for q in (0.5, 0.95, 0.99)}
        print(
            f"{action:<10}{len(times):>7}{len(times) / elapsed:>8.1f}"
            f"{p[0.5] * 1000:>9.1f}{p[0.95] * 1000:>9.1f}{p[0.99] * 1000:>9.1f}"
            f"{recorder.errors[action] / len(times):>8.1%}"
            f"{p[0.5] / ping_p[0.5]:>10.1f}{p[0.95] / ping_p[0.95]:>10.1f}{p[0.99] / ping_p[0.99]:>10.1f}"
        )
    print(f"(/ping/ median {statistics.median(ping) * 1000:.1f} ms under this load)")


if __name__ == "__main__":
    main()
