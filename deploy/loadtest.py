"""A bounded load test of a running Muster stack (``make loadtest`` starts one and runs this).

    .venv/bin/python deploy/loadtest.py https://127.0.0.1:8443 --players 8 --seconds 60

``--players`` simulated players each build lists in a loop, as a person at the builder would:
create (import an empty list), add three units, change a unit's quality twice, print the
roster PDF, then start a new list. Half as many readers browse the rules reference and ask the
odds API. One probe asks ``/ping/`` every 100 ms: the yardstick, measured under the same load.
Everything stops at the deadline (no request is started after it; each has a 30 s timeout), and
only the address given is ever contacted. Each simulated visitor connects from its own loopback
address (127.0.0.10, 127.0.0.11...), so nginx's per-client limits treat them as the people they
stand for. Standard library only.

The run has three phases of equal length (``--phases`` chooses among them):

- ``steady``: the load alone;
- ``kill``: the same load while a gunicorn worker is killed (SIGKILL) every 2 s, alternately on
  each app server, as the OOM killer or a crash would;
- ``redis``: the same load with both Redis (cache and rate-limit counters) stopped; they stay
  stopped (``make loadtest`` stops the whole stack afterwards).

Reports, for the steady phase, per action: requests/s, p50/p95/p99 and the error rate, and each
percentile as a ratio to ``/ping/``'s; then per phase: requests, errors by status code (0: the
connection failed or the answer was cut) and ``/ping/``'s p50/p99. The kill and Redis phases read
``$STACK_DIR/stack.env`` (``deploy/stackctl.py``).
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import os
import random
import re
import signal
import ssl
import statistics
import threading
import time
import urllib.parse
from collections import Counter, defaultdict
from http.cookies import SimpleCookie

from stackctl import stack_env, stop_redis, worker_pids

TIMEOUT = 30
CONTEXT = ssl.create_default_context()
CONTEXT.check_hostname = False
CONTEXT.verify_mode = ssl.CERT_NONE  # the stack's certificate is self-signed


PHASES = ("steady", "kill", "redis")


class Recorder:
    """Times and errors per action in the steady phase; requests, statuses and pings per phase."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.phase = PHASES[0]
        self.times: dict[str, list[float]] = defaultdict(list)
        self.errors: dict[str, int] = defaultdict(int)
        self.statuses: dict[str, Counter] = defaultdict(Counter)
        self.errors_by_code: dict[str, Counter] = defaultdict(Counter)
        self.pings: dict[str, list[float]] = defaultdict(list)
        self.requests: Counter = Counter()

    def add(self, action: str, seconds: float, status: int, ok: bool) -> None:
        with self.lock:
            phase = self.phase
            self.requests[phase] += 1
            self.statuses[phase][status] += 1
            if not ok:
                self.errors_by_code[phase][status] += 1
            if action == "ping":
                self.pings[phase].append(seconds)
            if phase == "steady":
                self.times[action].append(seconds)
                if not ok:
                    self.errors[action] += 1


class Client:
    """One visitor: a keep-alive HTTPS connection with its own cookies."""

    def __init__(self, base: str, recorder: Recorder, deadline: float, source: str | None = None) -> None:
        parsed = urllib.parse.urlparse(base)
        self.host, self.port, self.base = parsed.hostname, parsed.port, base
        self.recorder, self.deadline, self.source = recorder, deadline, source
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
                self.connection = http.client.HTTPSConnection(
                    self.host,
                    self.port,
                    timeout=TIMEOUT,
                    context=CONTEXT,
                    source_address=(self.source, 0) if self.source else None,
                )
            self.connection.request(method, path, body=body, headers=headers)
            response = self.connection.getresponse()
            data = response.read()
        except (OSError, http.client.HTTPException):
            self.recorder.add(action, time.perf_counter() - start, 0, False)
            self.connection = None
            return 0, {}, b""
        self.recorder.add(action, time.perf_counter() - start, response.status, response.status in ok)
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
            time.sleep(0.5)  # a failed create: try again, as a person would, not in a tight loop
            continue
        builder = urllib.parse.urlparse(location).path
        _, _, page = client.request("page", "GET", builder)
        units = re.findall(rb'name="unit" value="(\d+)"', page)
        if not units:
            time.sleep(0.5)
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


def controller(recorder: Recorder, stack: dict[str, str] | None, phases: list[str], length: float) -> None:
    """Moves the run through its phases: kills workers in ``kill``, stops Redis at ``redis``."""
    for phase in phases:
        with recorder.lock:
            recorder.phase = phase
        ends = time.monotonic() + length
        if phase == "redis" and stack is not None:
            stop_redis(stack)
        n = 0
        while time.monotonic() < ends:
            if phase == "kill" and stack is not None:
                ports = stack["APP_PORTS"].split()
                pids = worker_pids({**stack, "APP_PORTS": ports[n % len(ports)]})
                if pids:
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(random.choice(pids), signal.SIGKILL)
                n += 1
            time.sleep(min(2.0, max(0.0, ends - time.monotonic())))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base", help="the stack's URL, e.g. https://127.0.0.1:8443")
    parser.add_argument("--players", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=60, help="the whole run, split evenly between the phases")
    parser.add_argument("--phases", default=",".join(PHASES), help="among steady,kill,redis, in that order")
    args = parser.parse_args()
    if urllib.parse.urlparse(args.base).hostname not in ("127.0.0.1", "localhost", "::1"):
        parser.error("the load test only targets this machine (127.0.0.1 or localhost)")
    phases = [p for p in PHASES if p in args.phases.split(",")]
    if not phases:
        parser.error("--phases names none of steady, kill, redis")
    stack = stack_env(args.base) if set(phases) - {"steady"} else None

    recorder = Recorder()
    deadline = time.monotonic() + args.seconds
    roles = [player] * args.players + [reader] * max(1, args.players // 2) + [prober]
    threads = [
        threading.Thread(
            target=_run, args=(role, Client(args.base, recorder, deadline, f"127.0.0.{10 + n}"), n), daemon=True
        )
        for n, role in enumerate(roles)
    ]
    control = threading.Thread(
        target=controller, args=(recorder, stack, phases, args.seconds / len(phases)), daemon=True
    )
    started = time.monotonic()
    control.start()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=args.seconds + TIMEOUT + 5)
    elapsed = time.monotonic() - started
    report(args, recorder, phases, elapsed)


def report(args, recorder: Recorder, phases: list[str], elapsed: float) -> None:
    print(
        f"load test: {args.players} players, {max(1, args.players // 2)} readers and a /ping/ probe for "
        f"{elapsed:.0f} s against {args.base}, phases: {', '.join(phases)}"
    )
    if "steady" in phases:
        steady_seconds = args.seconds / len(phases)
        ping = recorder.times.get("ping") or [float("nan")]
        ping_p = {q: percentile(ping, q) for q in (0.5, 0.95, 0.99)}
        total = sum(len(v) for v in recorder.times.values())
        errors = sum(recorder.errors.values())
        print(
            f"steady: {total} requests, {total / steady_seconds:.1f} req/s overall, "
            f"error rate {errors / max(total, 1):.2%}"
        )
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
                f"{action:<10}{len(times):>7}{len(times) / steady_seconds:>8.1f}"
                f"{p[0.5] * 1000:>9.1f}{p[0.95] * 1000:>9.1f}{p[0.99] * 1000:>9.1f}"
                f"{recorder.errors[action] / len(times):>8.1%}"
                f"{p[0.5] / ping_p[0.5]:>10.1f}{p[0.95] / ping_p[0.95]:>10.1f}{p[0.99] / ping_p[0.99]:>10.1f}"
            )
        print(f"(/ping/ median {statistics.median(ping) * 1000:.1f} ms under this load)")
    print(f"{'phase':<8}{'requests':>9}{'errors':>8}  {'errors by code':<28}{'ping p50 ms':>12}{'ping p99 ms':>12}")
    for phase in phases:
        pings = recorder.pings.get(phase) or [float("nan")]
        by_code = ", ".join(f"{code}: {n}" for code, n in sorted(recorder.errors_by_code[phase].items())) or "none"
        print(
            f"{phase:<8}{recorder.requests[phase]:>9}{sum(recorder.errors_by_code[phase].values()):>8}  "
            f"{by_code:<28}{percentile(pings, 0.5) * 1000:>12.1f}{percentile(pings, 0.99) * 1000:>12.1f}"
        )


if __name__ == "__main__":
    main()
