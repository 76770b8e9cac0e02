"""Tournament day on a running Muster stack (``make loadtest-events`` seeds an event and runs this).

    .venv/bin/python deploy/loadtest_events.py https://127.0.0.1:8443 --slug demo-event-1-… --round 1

The event is seeded beforehand (``manage.py seed_event --rounds 0 --open-round --password …``): its
players have sealed lists and round 1 is paired and published, without results. Three phases:

- ``sign-in``: every player logs in through the login form (GET for the CSRF cookie, POST), a few
  at a time, and opens the round page to find their game, as they would on arrival;
- ``quiet``: the phones alone. Each phone opens the standings and the round page, then every
  ``--poll`` seconds asks the standings again as htmx does (``HX-Request``) and reloads the round
  page, each with the ``If-None-Match`` of its last answer, as a browser revalidates;
- ``day``: the phones go on while the players result the round: for each game, player A enters the
  result at a random moment in the first three quarters of ``--results-within`` (log in was done;
  the form's CSRF token, POST, the redirect followed), player B reloads their round page every
  ``--player-poll`` seconds until the confirmation button appears and confirms.

Every confirmed result the players were told about is then read back from the database
(``DATABASE_URL``): a missing, unconfirmed or different one is a lost result. A ``/ping/`` probe
runs throughout (every 250 ms): the yardstick. The CPU time of the gunicorn masters and workers
(``/proc``, the masters' reaped children included, so a recycled worker's time is kept) and of
nginx is read at each phase's start and end and divided by that phase's requests.

Bounded: only the loopback address given is contacted, nothing is started after a phase's end,
each request has a 30 s timeout, at most ``--connections`` phone requests are in flight. Each
phone and each player connects from its own loopback address (127.1.x.y, 127.2.x.y), so nginx's
per-client limits see separate people; a phone opens a new connection per poll (nginx keeps an
idle connection 15 s, less than the poll). Standard library and psycopg only.
"""

from __future__ import annotations

import argparse
import contextlib
import heapq
import http.client
import math
import os
import queue
import random
import re
import ssl
import threading
import time
import urllib.parse
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from pathlib import Path

TIMEOUT = 30
CONTEXT = ssl.create_default_context()
CONTEXT.check_hostname = False
CONTEXT.verify_mode = ssl.CERT_NONE  # the stack's certificate is self-signed

# What each kind of request must answer; anything else (0: no answer) is an error.
EXPECTED = {
    "ping": {200},
    "login-page": {200},
    "login": {302},
    "phone-standings": {200, 304},
    "phone-round": {200, 304},
    "player-round": {200, 304},
    "enter": {302},
    "confirm": {302},
    "after-post": {200},
}
KINDS = list(EXPECTED)
PHASES = ("sign-in", "quiet", "day")


# --- The figures (pure: tests/deploy/test_loadtest_events.py) ---------------------------------


def percentile(values: list[float], q: float) -> float:
    """The nearest-rank percentile (q from 0 to 1) of the values; NaN for none."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    rank = math.ceil(q * len(ordered) - 1e-9)  # the smallest value with at least q of them at or below
    return ordered[min(max(rank, 1), len(ordered)) - 1]


@dataclass
class PhaseFigures:
    times: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    statuses: dict[str, Counter] = field(default_factory=lambda: defaultdict(Counter))
    # Answers nginx gave from its shared copy of anonymous pages (X-Cache: HIT or UPDATING).
    copies: Counter = field(default_factory=Counter)
    seconds: float = 0.0
    cpu: dict[str, float] = field(default_factory=dict)  # process group -> CPU seconds in the phase
    machine_busy: float = float("nan")  # share of the machine's cores busy (everyone's work)

    def add(self, kind: str, seconds: float, status: int, *, copy: bool = False) -> None:
        self.times[kind].append(seconds)
        self.statuses[kind][status] += 1
        self.copies[kind] += copy

    def errors(self, kind: str) -> int:
        return sum(n for status, n in self.statuses[kind].items() if status not in EXPECTED[kind])

    def requests(self, *, without_ping: bool = False) -> int:
        return sum(len(v) for k, v in self.times.items() if not (without_ping and k == "ping"))


def phase_table(name: str, figures: PhaseFigures) -> list[str]:
    """The phase's lines: per kind, count, statuses, the share answered from nginx's shared copy,
    errors, p50/p99 and their ratio to /ping/'s."""
    ping = figures.times.get("ping", [])
    ping50, ping99 = percentile(ping, 0.5), percentile(ping, 0.99)
    total = figures.requests()
    errors = sum(figures.errors(kind) for kind in figures.times)
    lines = [
        f"{name}: {figures.seconds:.0f} s, {total} requests ({total / max(figures.seconds, 1e-9):.1f}/s), "
        f"{errors} errors; machine {figures.machine_busy:.0%} busy",
        f"  {'kind':<16}{'count':>7}{'req/s':>7}  {'statuses':<22}{'copy':>5}{'errors':>7}{'p50 ms':>9}{'p99 ms':>9}"
        f"{'p50/ping':>9}{'p99/ping':>9}",
    ]
    for kind in KINDS:
        times = figures.times.get(kind)
        if not times:
            continue
        p50, p99 = percentile(times, 0.5), percentile(times, 0.99)
        statuses = " ".join(f"{status}:{n}" for status, n in sorted(figures.statuses[kind].items()))
        lines.append(
            f"  {kind:<16}{len(times):>7}{len(times) / max(figures.seconds, 1e-9):>7.1f}  {statuses:<22}"
            f"{figures.copies[kind] / len(times):>5.0%}{figures.errors(kind):>7}"
            f"{p50 * 1000:>9.1f}{p99 * 1000:>9.1f}{p50 / ping50:>9.1f}{p99 / ping99:>9.1f}"
        )
    served = figures.requests()
    for group, seconds in figures.cpu.items():
        lines.append(
            f"  CPU {group}: {seconds:.1f} s, {seconds * 1000 / max(served, 1):.1f} ms per request "
            f"({served} requests, /ping/ included)"
        )
    return lines


def lost_results(told: dict[int, tuple[str, int, int]], stored: dict[int, tuple[str, int, int, bool]]) -> list[int]:
    """Pairings whose confirmation the players were shown but the database does not hold as told."""
    lost = []
    for pairing, (outcome, dice_a, dice_b) in sorted(told.items()):
        row = stored.get(pairing)
        if row is None or row != (outcome, dice_a, dice_b, True):
            lost.append(pairing)
    return lost


# --- CPU from /proc -------------------------------------------------------------------------------

TICK = os.sysconf("SC_CLK_TCK")


def _stat(pid: int) -> list[str]:
    text = Path(f"/proc/{pid}/stat").read_text()
    return text[text.rindex(")") + 2 :].split()  # the fields after the command's name


def tree_cpu(master: int) -> float:
    """CPU seconds of a master, its reaped children and its live children."""
    try:
        fields = _stat(master)
        ticks = sum(int(fields[i]) for i in (11, 12, 13, 14))  # utime stime cutime cstime
        for child in Path(f"/proc/{master}/task/{master}/children").read_text().split():
            with contextlib.suppress(OSError):
                child_fields = _stat(int(child))
                ticks += int(child_fields[11]) + int(child_fields[12])
    except OSError:
        return float("nan")
    return ticks / TICK


def machine_ticks() -> tuple[int, int]:
    values = [int(v) for v in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    idle = values[3] + values[4]
    return sum(values) - idle, sum(values)


class CpuMeter:
    """The stack's processes: each gunicorn master (with its workers) and nginx's master."""

    def __init__(self, stack_dir: Path, app_ports: list[str]) -> None:
        self.groups: dict[str, list[int]] = {"gunicorn": [], "nginx": []}
        for port in app_ports:
            self.groups["gunicorn"].append(int(Path(stack_dir, f"gunicorn-{port}.pid").read_text()))
        with contextlib.suppress(OSError):
            self.groups["nginx"].append(int(Path(stack_dir, "nginx.pid").read_text()))

    def read(self) -> tuple[dict[str, float], tuple[int, int]]:
        return {name: sum(tree_cpu(pid) for pid in pids) for name, pids in self.groups.items()}, machine_ticks()


# --- HTTP ------------------------------------------------------------------------------------------


class Recorder:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.phase = PHASES[0]
        self.figures = {phase: PhaseFigures() for phase in PHASES}

    def add(self, kind: str, seconds: float, status: int, *, copy: bool = False) -> None:
        with self.lock:
            self.figures[self.phase].add(kind, seconds, status, copy=copy)


class Browser:
    """One visitor's cookies and validators; ``keep_alive`` keeps one connection between requests."""

    def __init__(self, base: str, recorder: Recorder, source: str, *, keep_alive: bool) -> None:
        parsed = urllib.parse.urlparse(base)
        self.host, self.port, self.base = parsed.hostname, parsed.port, base
        self.recorder, self.source, self.keep_alive = recorder, source, keep_alive
        self.cookies: dict[str, str] = {}
        self.etags: dict[tuple[str, bool], str] = {}
        self.connection: http.client.HTTPSConnection | None = None

    def request(self, kind: str, method: str, path: str, body: dict | None = None, *, htmx: bool = False):
        headers = {}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if htmx:
            headers["HX-Request"] = "true"
        data = None
        if method == "GET" and (path, htmx) in self.etags:
            headers["If-None-Match"] = self.etags[path, htmx]
        if method == "POST":
            headers["Referer"] = self.base + path
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            data = urllib.parse.urlencode({**(body or {}), "csrfmiddlewaretoken": self.cookies.get("csrftoken", "")})
        start = time.perf_counter()
        for attempt in (1, 2):
            reused = self.connection is not None
            try:
                if self.connection is None:
                    self.connection = http.client.HTTPSConnection(
                        self.host, self.port, timeout=TIMEOUT, context=CONTEXT, source_address=(self.source, 0)
                    )
                self.connection.request(method, path, body=data, headers=headers)
                response = self.connection.getresponse()
                content = response.read()
                break
            except (OSError, http.client.HTTPException) as error:
                self.close()
                # nginx closes a connection idle for 15 s: a browser sends again on a new one.
                stale = isinstance(error, (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError))
                if not (reused and stale and attempt == 1):
                    self.recorder.add(kind, time.perf_counter() - start, 0)
                    return 0, {}, b""
        copy = response.headers.get("X-Cache") in ("HIT", "UPDATING")
        self.recorder.add(kind, time.perf_counter() - start, response.status, copy=copy)
        if not self.keep_alive or response.will_close:
            self.close()
        for header in response.headers.get_all("Set-Cookie") or []:
            for name, morsel in SimpleCookie(header).items():
                self.cookies[name] = morsel.value
        if method == "GET" and response.status == 200 and response.headers.get("ETag"):
            self.etags[path, htmx] = response.headers["ETag"]
        return response.status, response.headers, content

    def close(self) -> None:
        if self.connection is not None:
            self.connection.close()
            self.connection = None


def address(block: int, n: int) -> str:
    """The n-th loopback address of a block (127.<block>.x.y, never .0 or .255)."""
    return f"127.{block}.{n // 250}.{n % 250 + 1}"


# --- The people ----------------------------------------------------------------------------------


@dataclass
class Player:
    number: int
    username: str
    browser: Browser
    pairing: int | None = None
    seat_a: bool = False


def sign_in(player: Player, password: str, round_path: str) -> None:
    browser = player.browser
    browser.request("login-page", "GET", "/accounts/login/")
    browser.request("login", "POST", "/accounts/login/", {"username": player.username, "password": password})
    status, _, page = browser.request("player-round", "GET", round_path)
    mine = re.search(rb'<li id="pairing-(\d+)" class="pairing mine">(.*?)</li>', page, re.S)
    if mine and b"/result/" in mine.group(2):
        player.pairing = int(mine.group(1))
        player.seat_a = f"A Player {player.number} v B".encode() in mine.group(2)


def follow(browser: Browser, headers, expected: bytes) -> bool:
    location = urllib.parse.urlparse(headers.get("Location", "") if headers else "")
    if not location.path:
        return False
    _, _, page = browser.request("after-post", "GET", location.path)
    return expected in page


@dataclass
class Day:
    """What the players were told, shared by their threads."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    entered: dict[int, tuple[str, int, int]] = field(default_factory=dict)
    confirmed: dict[int, tuple[str, int, int]] = field(default_factory=dict)
    confirmed_at: dict[int, float] = field(default_factory=dict)
    refused: Counter = field(default_factory=Counter)


def enter(player: Player, slug: str, round_path: str, at: float, ends: float, day: Day, rng: random.Random) -> None:
    time.sleep(max(0.0, at - time.monotonic()))
    if time.monotonic() >= ends:
        return
    browser = player.browser
    browser.request("player-round", "GET", round_path)
    outcome = rng.choice(["a", "b", "draw"])
    dice_a, dice_b = rng.randint(0, 8), rng.randint(0, 8)
    status, headers, _ = browser.request(
        "enter",
        "POST",
        f"/events/{slug}/pairings/{player.pairing}/result/",
        {"outcome": outcome, "dice_a": dice_a, "dice_b": dice_b, "turns": rng.choice(["", 5, 6, 7])},
    )
    told = status == 302 and follow(browser, headers, b"Result entered.")
    with day.lock:
        if told:
            day.entered[player.pairing] = (outcome, dice_a, dice_b)
        else:
            day.refused["enter"] += 1


def confirm(player: Player, slug: str, round_path: str, every: float, started: float, ends: float, day: Day) -> None:
    browser = player.browser
    action = f"/events/{slug}/pairings/{player.pairing}/confirm/".encode()
    time.sleep(random.uniform(0, every))
    while time.monotonic() < ends:
        status, _, page = browser.request("player-round", "GET", round_path)
        if status == 200 and action in page:
            status, headers, _ = browser.request("confirm", "POST", action.decode())
            told = status == 302 and follow(browser, headers, b"Result confirmed.")
            with day.lock:
                if told:
                    day.confirmed[player.pairing] = day.entered.get(player.pairing)
                    day.confirmed_at[player.pairing] = time.monotonic() - started
                else:
                    day.refused["confirm"] += 1
            return
        time.sleep(every * random.uniform(0.8, 1.2))


class Phones:
    """``count`` phones, polled by at most ``connections`` threads; each poll is scheduled
    ``every`` seconds after the previous one ended, as htmx's ``every 20s`` does."""

    def __init__(self, base: str, recorder: Recorder, slug: str, round_path: str, count: int, every: float) -> None:
        self.browsers = [Browser(base, recorder, address(1, n), keep_alive=False) for n in range(count)]
        self.standings = f"/events/{slug}/standings/"
        self.round_path, self.every = round_path, every
        self.due: list[tuple[float, int]] = []
        self.lock = threading.Lock()
        self.ready: queue.Queue[int] = queue.Queue()
        self.stop = threading.Event()
        self.visited: set[int] = set()

    def start(self, connections: int, spread: float) -> list[threading.Thread]:
        now = time.monotonic()
        self.due = [(now + random.uniform(0, spread), n) for n in range(len(self.browsers))]
        heapq.heapify(self.due)
        threads = [threading.Thread(target=self._schedule, daemon=True)]
        threads += [threading.Thread(target=self._work, daemon=True) for _ in range(connections)]
        for thread in threads:
            thread.start()
        return threads

    def _schedule(self) -> None:
        while not self.stop.is_set():
            with self.lock:
                while self.due and self.due[0][0] <= time.monotonic():
                    self.ready.put(heapq.heappop(self.due)[1])
                wait = self.due[0][0] - time.monotonic() if self.due else 0.05
            time.sleep(min(max(wait, 0.005), 0.05))

    def _work(self) -> None:
        while not self.stop.is_set():
            try:
                n = self.ready.get(timeout=0.1)
            except queue.Empty:
                continue
            browser = self.browsers[n]
            browser.request("phone-standings", "GET", self.standings, htmx=n in self.visited)
            if not self.stop.is_set():
                browser.request("phone-round", "GET", self.round_path)
            self.visited.add(n)
            with self.lock:
                heapq.heappush(self.due, (time.monotonic() + self.every * random.uniform(0.95, 1.05), n))


def probe(base: str, recorder: Recorder, stop: threading.Event) -> None:
    browser = Browser(base, recorder, "127.0.0.9", keep_alive=True)
    while not stop.is_set():
        browser.request("ping", "GET", "/ping/")
        time.sleep(0.25)


# --- The run ----------------------------------------------------------------------------------------


def stored_results(database_url: str, slug: str, number: int) -> tuple[dict[int, tuple[str, int, int, bool]], int]:
    """The round's results as the database holds them, and its number of games (byes aside)."""
    import psycopg

    with psycopg.connect(database_url, connect_timeout=10) as connection:
        rows = connection.execute(
            "SELECT p.id, r.outcome, r.dice_a, r.dice_b, r.confirmed FROM events_pairing p "
            "JOIN events_round ro ON ro.id = p.round_id JOIN events_event e ON e.id = ro.event_id "
            "LEFT JOIN events_result r ON r.pairing_id = p.id "
            "WHERE e.slug = %s AND ro.number = %s AND p.player_b_id IS NOT NULL",
            [slug, number],
        ).fetchall()
    return {row[0]: tuple(row[1:]) for row in rows if row[1] is not None}, len(rows)


def run_phase(name: str, recorder: Recorder, meter: CpuMeter, seconds: float | None, work) -> None:
    """Runs ``work`` (which returns when its part is done) for the phase and records its CPU."""
    with recorder.lock:
        recorder.phase = name
    cpu_before, (busy_before, total_before) = meter.read()
    started = time.monotonic()
    work()
    if seconds is not None:
        time.sleep(max(0.0, started + seconds - time.monotonic()))
    cpu_after, (busy_after, total_after) = meter.read()
    figures = recorder.figures[name]
    figures.seconds = time.monotonic() - started
    figures.cpu = {group: cpu_after[group] - cpu_before[group] for group in cpu_before}
    figures.machine_busy = (busy_after - busy_before) / max(total_after - total_before, 1)


def env_default(name: str, default: str) -> str:
    return os.environ.get(name, default)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base", help="the stack's URL, e.g. https://127.0.0.1:8443")
    parser.add_argument("--slug", required=True, help="the seeded event")
    parser.add_argument("--round", type=int, default=1, help="the open round (published, no results)")
    parser.add_argument("--players", type=int, default=int(env_default("EVENTS_PLAYERS", "500")))
    parser.add_argument("--password", default=env_default("EVENTS_PASSWORD", "tournament-day-42"))
    parser.add_argument("--phones", type=int, default=int(env_default("EVENTS_PHONES", "2000")))
    parser.add_argument("--poll", type=float, default=float(env_default("EVENTS_POLL", "20")))
    parser.add_argument("--quiet", type=float, default=float(env_default("EVENTS_QUIET", "40")))
    parser.add_argument("--seconds", type=float, default=float(env_default("EVENTS_SECONDS", "150")))
    parser.add_argument("--results-within", type=float, default=float(env_default("EVENTS_RESULTS_WITHIN", "120")))
    parser.add_argument("--player-poll", type=float, default=10)
    parser.add_argument("--connections", type=int, default=int(env_default("EVENTS_CONNECTIONS", "200")))
    parser.add_argument("--login-concurrency", type=int, default=4)
    args = parser.parse_args()
    if urllib.parse.urlparse(args.base).hostname not in ("127.0.0.1", "localhost", "::1"):
        parser.error("the load test only targets this machine (127.0.0.1 or localhost)")
    if not (1 <= args.connections <= 500 and 0 <= args.phones <= 5000 and 0 < args.seconds <= 900):
        parser.error("bounds: 1-500 connections, 0-5000 phones, a day of at most 900 s")
    if args.results_within > args.seconds:
        parser.error("--results-within must fit in --seconds")
    database_url = os.environ.get("DATABASE_URL", "")
    if not database_url:
        parser.error("DATABASE_URL must name the stack's database (results are read back from it)")
    port = urllib.parse.urlparse(args.base).port
    stack_dir = Path(os.environ.get("STACK_DIR") or f"/tmp/muster-stack-{port}")
    app_ports = os.environ.get("STACK_APP_PORTS", "8101 8102").split()
    for line in (stack_dir / "stack.env").read_text().splitlines():
        if line.startswith("APP_PORTS="):
            app_ports = line.partition("=")[2].strip('"').split()
    meter = CpuMeter(stack_dir, app_ports)
    recorder = Recorder()
    round_path = f"/events/{args.slug}/rounds/{args.round}/"
    stored_before, games = stored_results(database_url, args.slug, args.round)
    if stored_before or not games:
        parser.error(f"round {args.round} of {args.slug} must be published with games and no results yet")

    stop_probe = threading.Event()
    threading.Thread(target=probe, args=(args.base, recorder, stop_probe), daemon=True).start()

    # The players: usernames as seed_event makes them ("<slug>-p<N>").
    players = [
        Player(number, f"{args.slug}-p{number}", Browser(args.base, recorder, address(2, number), keep_alive=True))
        for number in range(1, args.players + 1)
    ]

    def signing_in() -> None:
        pending: queue.Queue[Player] = queue.Queue()
        for player in players:
            pending.put(player)

        def worker() -> None:
            with contextlib.suppress(queue.Empty):
                while True:
                    sign_in(pending.get_nowait(), args.password, round_path)

        threads = [threading.Thread(target=worker, daemon=True) for _ in range(args.login_concurrency)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()

    print(f"sign-in: {len(players)} players log in...", flush=True)
    run_phase("sign-in", recorder, meter, None, signing_in)
    seated = [p for p in players if p.pairing is not None]
    pairings_seen = {p.pairing for p in seated}
    print(f"  {len(seated)} players found their game ({len(pairings_seen)} of {games} games)", flush=True)

    phones = Phones(args.base, recorder, args.slug, round_path, args.phones, args.poll)
    print(f"quiet: {args.phones} phones, {args.quiet:.0f} s...", flush=True)
    run_phase("quiet", recorder, meter, args.quiet, lambda: phones.start(args.connections, args.poll))

    day = Day()
    rng = random.Random(7)
    started = time.monotonic()
    ends = started + args.seconds
    threads = []
    for player in seated:
        if player.seat_a:
            at = started + rng.uniform(0, 0.75 * args.results_within)
            target, extra = enter, (args.slug, round_path, at, ends, day, random.Random(player.number))
        else:
            target, extra = confirm, (args.slug, round_path, args.player_poll, started, ends, day)
        threads.append(threading.Thread(target=target, args=(player, *extra), daemon=True))

    def playing() -> None:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=max(0.0, ends + TIMEOUT - time.monotonic()))

    print(f"day: {len(seated)} players result {len(pairings_seen)} games within {args.results_within:.0f} s...")
    run_phase("day", recorder, meter, args.seconds, playing)
    phones.stop.set()
    stop_probe.set()
    time.sleep(0.5)

    stored, _ = stored_results(database_url, args.slug, args.round)
    lost = lost_results(day.confirmed, stored)
    in_time = sum(1 for at in day.confirmed_at.values() if at <= args.results_within)
    print()
    print(
        f"tournament day: {len(players)} players, {args.phones} phones polling every {args.poll:.0f} s, "
        f"{games} games, against {args.base}"
    )
    for phase in PHASES:
        print("\n".join(phase_table(phase, recorder.figures[phase])))
    last = f"the last at {max(day.confirmed_at.values()):.0f} s" if day.confirmed_at else "none"
    print(
        f"results: {len(day.entered)} entered, {len(day.confirmed)} confirmed ({in_time} within "
        f"{args.results_within:.0f} s, {last}), not acknowledged (no answer, or not the form's "
        f"message) {dict(day.refused) or 0}; "
        f"in the database: {sum(1 for row in stored.values() if row[3])} confirmed; lost: {len(lost)}"
        + (f" (pairings {lost[:20]})" if lost else "")
    )
    errors = sum(figures.errors(kind) for figures in recorder.figures.values() for kind in figures.times)
    complete = len(day.confirmed) == games and in_time == games
    return 0 if errors == 0 and not lost and complete else 1


if __name__ == "__main__":
    raise SystemExit(main())
