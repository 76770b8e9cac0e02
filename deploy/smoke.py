"""Smoke test of a running Muster stack through nginx (``deploy/stack.sh start`` prints its URL).

    .venv/bin/python deploy/smoke.py https://127.0.0.1:8443

Standard library only. Checks, in order: health, pages and their headers, static files from
nginx (gzip), a list import, an htmx action, a PDF made by the task worker (enqueued, polled,
downloaded, then served at once from what is kept), a big list's unit cards the same way, an
event (an organiser signs up and in, creates it, joins, submits the list, approves it, has the
worker make the PDF of every approved list, publishes; an anonymous visitor reads its API and
standings and cannot get the PDF), an anonymous PDF burst (12 uncached PDFs from 4 addresses at
once: each answered at once and made by the worker, ``/ping/`` under ``PING_BOUND`` meanwhile), a
queue flood by one visitor (capped with 429s; another visitor's PDF done within ``FLOOD_BOUND``), a 429
from a rate limit shared by every worker (Redis), per-client limits (the clients are told
apart by their loopback source address, 127.0.0.2, 127.0.0.3...: one's failed logins do not
lock out another, and a forged X-Forwarded-For changes nothing), an oversized body refused by
nginx, 600 slow TLS connections (Slowloris) that neither keep another client out nor stay open
past nginx's header timeout, gunicorn workers killed under load without a 502, the task worker
killed and started again by its supervisor, and, last, the
site with its Redis stopped (pages still 200, failed logins still limited, counted in each
process, and ``/healthz/`` names the cache and the rate-limit store as failed). The last two read
``$STACK_DIR/stack.env`` (written by ``deploy/stack.sh``; ``STACK_DIR`` defaults to stack.sh's
``/tmp/muster-stack-<port>``) for the app servers' pid files and the Redis ports. Every request
has a timeout; the whole run takes about a minute. Exits non-zero on the first failure, saying
what failed.
"""

from __future__ import annotations

import functools
import http.client
import http.cookiejar
import json
import os
import re
import signal
import socket
import ssl
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections import Counter
from pathlib import Path

from stackctl import busy_worker, redis_command, stack_env, stop_redis, task_worker_pid, worker_pids

TIMEOUT = 30
CONTEXT = ssl.create_default_context()
CONTEXT.check_hostname = False
CONTEXT.verify_mode = ssl.CERT_NONE  # the stack's certificate is self-signed


class Failed(Exception):
    pass


class _SourceHTTPSHandler(urllib.request.HTTPSHandler):
    """HTTPS from a chosen local address: nginx then sees each client at its own address."""

    def __init__(self, source: str) -> None:
        super().__init__(context=CONTEXT)
        self.source = source

    def https_open(self, req):
        connection = functools.partial(http.client.HTTPSConnection, source_address=(self.source, 0))
        return self.do_open(connection, req, context=CONTEXT)


class Session:
    def __init__(self, base: str, source: str | None = None) -> None:
        self.base = base.rstrip("/")
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(
            _SourceHTTPSHandler(source) if source else urllib.request.HTTPSHandler(context=CONTEXT),
            urllib.request.HTTPCookieProcessor(self.jar),
            _NoRedirect(),
        )

    def csrf(self) -> str:
        return next((c.value for c in self.jar if c.name == "csrftoken"), "")

    def request(self, method: str, path: str, data: dict | bytes | None = None, headers: dict | None = None):
        body = urllib.parse.urlencode(data).encode() if isinstance(data, dict) else data
        request = urllib.request.Request(self.base + path, data=body, method=method, headers=headers or {})
        if method == "POST":
            request.add_header("X-CSRFToken", self.csrf())
            request.add_header("Referer", self.base + path)
            if isinstance(data, dict):
                request.add_header("Content-Type", "application/x-www-form-urlencoded")
        try:
            with self.opener.open(request, timeout=TIMEOUT) as response:
                return response.status, dict(response.headers.items()), response.read()
        except urllib.error.HTTPError as error:
            return error.code, dict(error.headers.items()), error.read()


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


PASSED = []


def check(condition: bool, what: str) -> None:
    if not condition:
        raise Failed(what)
    PASSED.append(what)
    print(f"  ok  {what}")


def main(base: str, apps: list[str]) -> None:
    s = Session(base)
    status, headers, body = s.request("GET", "/healthz/")
    check(status == 200 and json.loads(body)["database"] == "ok", "/healthz/ answers 200 with the database up")

    for path in ["/", "/reference/", "/reference/v3/", "/calc/", "/calc/shooting/", "/lists/", "/accounts/login/"]:
        status, headers, body = s.request("GET", path)
        check(status == 200, f"GET {path} is 200")
    check("script-src 'self'" in headers.get("Content-Security-Policy", ""), "pages carry the CSP")
    check("camera=()" in headers.get("Permissions-Policy", ""), "pages carry the Permissions-Policy")
    check("gunicorn" not in headers.get("Server", "").lower(), f"no gunicorn banner (Server: {headers.get('Server')})")
    check(s.base.startswith("https://") and any(c.secure for c in s.jar), "served over TLS, with secure cookies")

    status, headers, body = s.request("GET", "/")
    css = re.search(rb'href="(/static/css/muster\.[0-9a-f]+\.css)"', body)
    check(css is not None, "the home page links its hashed stylesheet")
    status, headers, body = s.request("GET", css.group(1).decode(), headers={"Accept-Encoding": "gzip"})
    check(status == 200 and headers.get("Content-Encoding") == "gzip", "nginx serves static files, gzipped")
    check("immutable" in headers.get("Cache-Control", ""), "static files are cached for good")
    js = re.search(rb'src="(/static/js/muster\.[0-9a-f]+\.js)"', s.request("GET", "/")[2])
    check(js is not None and s.request("GET", js.group(1).decode())[0] == 200, "the htmx failure script is served")

    # A list, imported anonymously (kept in the visitor's session), then changed through htmx.
    document = {
        "format": "muster-list/1",
        "name": "Smoke test",
        "edition": "v3",
        "army": ["v3", "generic"],
        "points_limit": 1000,
        "entries": [],
    }
    s.request("GET", "/lists/import/")
    status, headers, body = s.request("POST", "/lists/import/", {"text": json.dumps(document)})
    check(status == 302 and re.match(r".*/lists/\d+/$", headers.get("Location", "")), "a list is imported")
    builder = urllib.parse.urlparse(headers["Location"]).path
    status, headers, body = s.request("GET", builder)
    check(status == 200 and b"Smoke test" in body, "its builder opens")
    unit = re.search(rb'name="unit" value="(\d+)"', body)
    check(unit is not None, "the builder offers units")
    status, headers, body = s.request(
        "POST", f"{builder}entries/add/", {"unit": unit.group(1).decode()}, headers={"HX-Request": "true"}
    )
    check(status == 200 and b"<html" not in body[:200].lower() and b"entry-" in body, "an htmx action swaps a fragment")

    status, headers, body = s.request("GET", f"{builder}roster.pdf")
    job = urllib.parse.urlparse(headers.get("Location", "")).path
    check(status == 302 and re.match(r"^/lists/\d+/pdf/[0-9a-f-]{36}/$", job), f"its roster PDF is enqueued ({status})")
    pdf_job_done(s, job, "the worker makes the roster PDF", "the roster PDF downloads")
    status, headers, body = s.request("GET", f"{builder}roster.pdf")
    check(status == 200 and body.startswith(b"%PDF-"), "asked again, the kept roster PDF is served at once")
    big_list_cards(s, builder)
    # Before the login flood below: the organiser signs in from an address of their own, so
    # neither counts against the other's login limit.
    event_step(s, builder)
    pdf_burst(s, builder)
    queue_flood(s, builder)

    # Wrong passwords until refused: the limit is 10 a minute per address, counted in Redis
    # whichever worker or app server answers. Windows are fixed, so one that ends mid-run lets up
    # to 10 more through: at most 21 tries.
    s.request("GET", "/accounts/login/")
    statuses = []
    while len(statuses) < 21 and 429 not in statuses:
        status, headers, body = s.request("POST", "/accounts/login/", {"username": "smoke", "password": "wrong"})
        statuses.append(status)
    check(statuses[:10] == [200] * 10 and statuses[-1] == 429, f"repeated logins get a 429 ({len(statuses)} tries)")
    check(int(headers.get("Retry-After", "0")) > 0, "the 429 says when to retry")
    check(b"Too many requests" in body, "the 429 page says why")

    # Per client, not per site (nginx's address for the client, passed in X-Forwarded-For and
    # X-Real-IP; Muster believes them only from nginx). 127.0.0.1 is locked out now: claiming
    # another address in those headers does not lift its limit, nor count against that address;
    # a client at another address is not locked out, even claiming to be 127.0.0.1.
    forged = {"X-Forwarded-For": "127.0.0.5", "X-Real-IP": "127.0.0.5"}
    statuses = [
        s.request("POST", "/accounts/login/", {"username": f"smoke-f{n}", "password": "wrong"}, headers=forged)[0]
        for n in range(11)
    ]
    check(statuses[0] == 429, f"a forged X-Forwarded-For does not lift a client's limit ({statuses})")
    for source, claimed in (("127.0.0.5", None), ("127.0.0.2", None), ("127.0.0.3", "127.0.0.1")):
        other = Session(base, source=source)
        other.request("GET", "/accounts/login/")
        headers = {"X-Forwarded-For": claimed, "X-Real-IP": claimed} if claimed else {}
        status = other.request(
            "POST", "/accounts/login/", {"username": f"smoke-{source}", "password": "wrong"}, headers=headers
        )[0]
        said = f" claiming {claimed}" if claimed else ""
        check(status == 200, f"a client at {source}{said} is not locked out by 127.0.0.1's failed logins ({status})")

    # Straight to an app server (as a scanner on the private network would): no gunicorn banner either.
    for app in apps:
        connection = http.client.HTTPConnection(*app.split(":"), timeout=TIMEOUT)
        connection.request("GET", "/ping/", headers={"X-Forwarded-Proto": "https"})
        response = connection.getresponse()
        response.read()
        server = response.getheader("Server", "")
        check(response.status == 200 and "gunicorn" not in server.lower(), f"{app} answers without a banner ({server})")
        connection.close()

    # A 3 MB body: nginx refuses it from its Content-Length, before a byte reaches gunicorn.
    parsed = urllib.parse.urlparse(base)
    connection = http.client.HTTPSConnection(parsed.hostname, parsed.port, timeout=TIMEOUT, context=CONTEXT)
    connection.putrequest("POST", "/lists/import/")
    connection.putheader("Content-Type", "multipart/form-data; boundary=x")
    connection.putheader("Content-Length", str(3 * 1024 * 1024))
    connection.endheaders()
    response = connection.getresponse()
    check(response.status == 413, f"an oversized body is refused with 413 ({response.status})")
    connection.close()

    slow_clients(base)
    stack = stack_env(base)
    workers_killed(base, stack)
    task_worker_restarted(stack)
    redis_stopped(base, stack)


def big_list_cards(s: Session, builder: str, units: int = 40) -> None:
    """A big list's unit cards go through the task worker: enqueued, followed, then downloaded.

    The 40 copies of the smoke list's first unit took about 40 s of CPU to lay out as cards (29
    November 2026, far above docs/deploy.md's 1.5 s for 40 units): on a busy machine this step
    can exceed its 3 minutes."""
    status, headers, body = s.request("GET", f"{builder}export.json")
    check(status == 200, "the list exports as JSON")
    document = json.loads(body)
    document["name"] = "Smoke test, big"
    document["entries"] = document["entries"][:1] * units
    status, headers, body = s.request("POST", "/lists/import/", {"text": json.dumps(document)})
    check(status == 302, f"a list of {units} units is imported ({status}: {body[:300]!r})")
    big = urllib.parse.urlparse(headers["Location"]).path
    status, headers, body = s.request("GET", f"{big}cards.pdf")
    job = urllib.parse.urlparse(headers.get("Location", "")).path
    check(status == 302 and re.match(r"^/lists/\d+/pdf/[0-9a-f-]{36}/$", job), f"its cards are enqueued ({status})")
    pdf_job_done(s, job, "the worker makes the PDF", "the finished PDF downloads")
    other = Session(s.base, source="127.0.0.4")
    check(other.request("GET", f"{job}file.pdf")[0] == 404, "another visitor cannot download it")


# While PDFs are asked for, /ping/ (a trivial view) must keep answering within this (seconds) on
# a machine of its own, and within this times the machine's slowdown when other work shares its
# cores (``_slowdown``): the requests only queue jobs, and the renders run in the task worker, not
# in gunicorn. Before, 12 uncached quick-reference PDFs from 4 addresses held the web workers and
# /ping/ took 17.7 s.
PING_BOUND = 2.0
# Another visitor's PDF is made within this (seconds) while one visitor floods the queue: the
# flooder has at most 3 jobs waiting or running and the worker takes a visitor's first job ahead
# of everyone's second, so it waits for at most two renders besides its own.
FLOOD_BOUND = 60.0
# One anonymous visitor's new PDF variants: a list's 4 kinds in 2 languages on 2 papers.
VARIANTS = [
    f"{kind}.pdf?lang={lang}&paper={paper}{parts}"
    for kind, parts in (("roster", ""), ("cards", ""), ("playsheet", ""), ("print", "&parts=reference"))
    for lang in ("en", "fr")
    for paper in ("a4", "letter")
]


def _ping_probe(base: str, stop: threading.Event, times: list[float]) -> None:
    """/ping/ every 100 ms from an address of its own until ``stop``: each answer's time."""
    probe = Session(base, source="127.0.0.30")
    while not stop.is_set():
        started = time.monotonic()
        try:
            status = probe.request("GET", "/ping/")[0]
        except (OSError, http.client.HTTPException):
            status = 0
        times.append(time.monotonic() - started if status == 200 else float("inf"))
        time.sleep(0.1)


def _slowdown() -> float:
    """How much slower than an idle core this machine runs now (1 or more): the wall-clock time a
    fixed piece of work takes over the CPU time it takes, measured here (other jobs, like the
    stack's own processes, share the cores)."""
    wall, cpu = time.monotonic(), time.process_time()
    total = 0
    while time.process_time() - cpu < 0.3:
        total += sum(range(1000))
    return max(1.0, (time.monotonic() - wall) / (time.process_time() - cpu))


def _ping_median(base: str) -> float:
    """/ping/'s median time over 10 tries: how fast this machine answers a trivial request now."""
    probe = Session(base, source="127.0.0.30")
    times = []
    for _ in range(10):
        started = time.monotonic()
        probe.request("GET", "/ping/")
        times.append(time.monotonic() - started)
        time.sleep(0.05)
    return sorted(times)[len(times) // 2]


def _anonymous_list(s: Session, builder: str, visitor: Session, name: str) -> str:
    """A new one-unit list of the visitor's own (imported anonymously, kept in its session): its path."""
    status, headers, body = s.request("GET", f"{builder}export.json")
    document = json.loads(body)
    document["name"] = name
    visitor.request("GET", "/lists/import/")
    status, headers, body = visitor.request("POST", "/lists/import/", {"text": json.dumps(document)})
    check(status == 302, f"an anonymous visitor imports the list {name!r} ({status})")
    return urllib.parse.urlparse(headers["Location"]).path


def _follow(session: Session, job: str, seconds: float = 180) -> str:
    """The job's state ("done", "failed"...) once finished, or as it was after ``seconds``."""
    deadline, state = time.monotonic() + seconds, ""
    while time.monotonic() < deadline:
        status, headers, body = session.request("GET", job, headers={"HX-Request": "true"})
        found = re.search(rb'data-status="(\w+)"', body)
        state = found.group(1).decode() if status == 200 and found else f"HTTP {status}"
        if state in ("done", "failed") or status != 200:
            break
        time.sleep(0.5)
    return state


def pdf_burst(s: Session, builder: str) -> None:
    """The red team's burst: 4 anonymous visitors, each with a new list, ask for 3 uncached PDFs at
    once (the quick reference in two languages among them); /ping/ keeps answering meanwhile, and
    the worker makes every PDF."""
    baseline = _ping_median(s.base)
    slowdown = _slowdown()
    bound = PING_BOUND * slowdown
    visitors = []
    for n in range(4):
        visitor = Session(s.base, source=f"127.0.0.{20 + n}")
        visitors.append((visitor, _anonymous_list(s, builder, visitor, f"Burst {n}")))
    stop, times = threading.Event(), []
    probe = threading.Thread(target=_ping_probe, args=(s.base, stop, times), daemon=True)
    probe.start()
    answers: list[tuple[Session, float, int, str]] = []

    def ask(visitor: Session, path: str) -> None:
        started = time.monotonic()
        status, headers, _body = visitor.request("GET", path)
        answers.append(
            (visitor, time.monotonic() - started, status, urllib.parse.urlparse(headers.get("Location", "")).path)
        )

    started = time.monotonic()
    burst = (
        "print.pdf?lang=en&paper=letter&parts=reference",
        "print.pdf?lang=fr&paper=a4&parts=reference",
        "roster.pdf",
    )
    threads = [
        threading.Thread(target=ask, args=(visitor, f"{list_path}{variant}"))
        for visitor, list_path in visitors
        for variant in burst
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    slowest = max(seconds for _visitor, seconds, _status, _path in answers)
    codes = sorted(status for _visitor, _seconds, status, _path in answers)
    check(all(code == 302 for code in codes), f"12 uncached PDFs are queued for the worker ({codes})")
    # Twelve at once on the stack's 4 web workers: each answers after at most 3 such requests
    # (a quarter of a second of CPU each), not after 3 renders (6.5 s of CPU each, before).
    check(slowest < 3 * bound, f"each PDF request answers at once (slowest {slowest:.2f} s, bound {3 * bound:.1f} s)")
    states = [_follow(visitor, path) for visitor, _seconds, _status, path in answers]
    made = time.monotonic() - started
    stop.set()
    probe.join()
    times.sort()
    worst, median = times[-1], times[len(times) // 2]
    print(
        f"      burst: 12 PDF requests from 4 addresses, every job done in {made:.1f} s; /ping/ median "
        f"{median * 1000:.0f} ms, worst {worst * 1000:.0f} ms over {len(times)} probes "
        f"(before: {baseline * 1000:.0f} ms; the machine {slowdown:.1f}x slower than idle)"
    )
    check(all(state == "done" for state in states), f"the worker makes every queued PDF ({states})")
    check(worst < bound, f"/ping/ stays under {bound:.1f} s during the burst (worst {worst:.2f} s)")


def queue_flood(s: Session, builder: str) -> None:
    """One visitor asks for 32 new PDF variants of its two lists as fast as it can; another
    visitor's PDF is still made within ``FLOOD_BOUND``: the flooder's cap and limits refuse the
    rest with 429s that say why."""
    flooder = Session(s.base, source="127.0.0.40")
    lists = [_anonymous_list(s, builder, flooder, f"Flood {n}") for n in range(2)]
    statuses: Counter = Counter()
    for list_path in lists:
        for variant in VARIANTS:
            status, headers, body = flooder.request("GET", f"{list_path}{variant}")
            statuses[status] += 1
    check(b"being made" in body or b"Too many requests" in body, "the flooder's 429 says why")
    victim = Session(s.base, source="127.0.0.41")
    victims_list = _anonymous_list(s, builder, victim, "Not flooding")
    started = time.monotonic()
    status, headers, body = victim.request("GET", f"{victims_list}cards.pdf?lang=en&paper=a4")
    job = urllib.parse.urlparse(headers.get("Location", "")).path
    check(status == 302 and bool(job), f"during the flood another visitor's PDF is queued ({status})")
    state = _follow(victim, job, seconds=FLOOD_BOUND * 3)
    waited = time.monotonic() - started
    print(
        f"      flood: {sum(statuses.values())} new PDFs asked by one visitor, "
        f"answered {dict(sorted(statuses.items()))}; "
        f"another visitor's PDF done in {waited:.1f} s"
    )
    # At most 3 waiting or running at once, and 6 new ones a minute (a job made frees a place).
    check(statuses[429] > 0 and statuses[302] <= 6, f"the flooder gets at most 6 jobs ({dict(statuses)})")
    check(
        state == "done" and waited < FLOOD_BOUND,
        f"another visitor's PDF is done within {FLOOD_BOUND:.0f} s ({waited:.1f} s)",
    )


def pdf_job_done(s: Session, job: str, made: str, downloaded: str) -> None:
    """Follow a task-worker PDF job on its status page (asked as htmx asks it) until it is done or
    failed, for three minutes at most; then download the PDF. ``made`` and ``downloaded`` name the
    two checks."""
    deadline, state = time.monotonic() + 180, ""
    while time.monotonic() < deadline:
        status, headers, body = s.request("GET", job, headers={"HX-Request": "true"})
        found = re.search(rb'data-status="(\w+)"', body)
        state = found.group(1).decode() if status == 200 and found else f"HTTP {status}"
        if state in ("done", "failed") or status != 200:
            break
        time.sleep(1)
    check(state == "done", f"{made}, followed on its status page ({state})")
    status, headers, body = s.request("GET", f"{job}file.pdf?download=1")
    check(status == 200 and body.startswith(b"%PDF-"), downloaded)
    check(headers.get("Content-Disposition", "").startswith("attachment;"), "as an attachment")


def _form_value(body: bytes, pattern: str, what: str) -> str:
    found = re.search(pattern.encode(), body)
    check(found is not None, what)
    return found.group(1).decode()


def event_step(s: Session, builder: str) -> None:
    """An event run through nginx: an organiser signs up and in, creates an event, joins it,
    submits the smoke test's list, approves it, has the worker make the PDF of every approved
    list (followed on its status page, downloaded), publishes the event; an anonymous visitor
    then reads its JSON API and standings, and cannot download the PDF."""
    status, headers, body = s.request("GET", f"{builder}export.json")
    check(status == 200, "the smoke test's list exports as JSON, for the organiser")
    document = json.loads(body)

    org = Session(s.base, source="127.0.0.8")
    name, password = f"smoke-org-{int(time.time() * 1000)}", "Smoke-organiser-pass-271"
    org.request("GET", "/accounts/signup/")
    status, headers, body = org.request(
        "POST", "/accounts/signup/", {"username": name, "email": "", "password1": password, "password2": password}
    )
    check(status == 302, f"an organiser signs up ({status}: {body[:300]!r})")
    org.request("POST", "/accounts/logout/", {})
    org.request("GET", "/accounts/login/")
    status, headers, body = org.request("POST", "/accounts/login/", {"username": name, "password": password})
    check(status == 302, f"and signs in ({status})")

    status, headers, body = org.request("POST", "/lists/import/", {"text": json.dumps(document)})
    check(status == 302 and re.match(r".*/lists/\d+/$", headers.get("Location", "")), "the organiser imports the list")
    list_id = re.search(r"/lists/(\d+)/$", headers["Location"]).group(1)

    status, headers, body = org.request("GET", "/events/new/")
    check(status == 200, "the new event form opens")
    edition = _form_value(body, r'<option value="(\d+)"[^>]*>[^<]*(?:v3|Third|3)', "the form offers the v3 edition")
    fields = {
        "name": "Smoke night",
        "date": "2030-01-12",
        "place": "Loopback",
        "edition": edition,
        "points_limit": "1000",
        "max_order_dice": "20",
        "max_platoons": "4",
        "rounds": "3",
        "score_win": "3",
        "score_draw": "1",
        "score_loss": "0",
        "tiebreaks": "score,sos,dice",
    }
    status, headers, body = org.request("POST", "/events/new/", fields)
    manage = urllib.parse.urlparse(headers.get("Location", "")).path
    check(status == 302 and re.match(r"^/events/[\w-]+/manage/$", manage), f"an event is created ({status})")
    base = manage.removesuffix("manage/")
    slug = base.strip("/").split("/")[-1]

    status, headers, body = org.request("POST", f"{base}join/", {})
    joined = status == 302 and headers.get("Location", "").endswith(f"{base}submit/")
    check(joined, f"the organiser joins it ({status})")
    org.request("GET", f"{base}submit/")
    status, headers, body = org.request("POST", f"{base}submit/", {"army_list": list_id})
    check(status == 302, f"the smoke test's list is submitted and sealed ({status})")

    status, headers, body = org.request("GET", manage)
    check(status == 200 and b"Smoke test" in body, "the dashboard shows the sealed list")
    judge = _form_value(body, rf'action="({re.escape(manage)}entrants/\d+/judge/)"', "the dashboard offers a decision")
    status, headers, body = org.request("POST", judge, {"decision": "approve", "note": ""})
    check(status == 302, f"the organiser approves it ({status})")

    status, headers, body = org.request("POST", f"{manage}lists.pdf", {"lang": "en", "paper": "a4"})
    job = urllib.parse.urlparse(headers.get("Location", "")).path
    check(
        status == 302 and re.match(rf"^{re.escape(manage)}pdf/[0-9a-f-]{{36}}/$", job),
        f"the PDF of every approved list is enqueued ({status})",
    )
    pdf_job_done(org, job, "the worker makes the event's PDF", "the organiser downloads the event's PDF")

    anonymous = Session(s.base, source="127.0.0.9")
    status, headers, body = anonymous.request("GET", f"/api/events/{slug}/")
    check(status == 404, f"before publishing, the event's API is hidden from an anonymous visitor ({status})")
    status, headers, body = org.request("POST", f"{manage}publish/", {"on": "1"})
    check(status == 302, f"the organiser publishes the event ({status})")

    status, headers, body = anonymous.request("GET", f"/api/events/{slug}/")
    data = json.loads(body) if status == 200 else {}
    check(
        status == 200 and data.get("slug") == slug and data["rules"]["points_limit"] == 1000,
        f"an anonymous visitor reads /api/events/{slug}/ ({status})",
    )
    entrant = data["entrants"][0]
    check(
        entrant.get("status") == "approved" and "list" not in entrant and "problems" not in entrant,
        "the API lists the entrant, the hidden list left out",
    )
    status, headers, body = anonymous.request("GET", f"/api/events/{slug}/standings/")
    standings = json.loads(body).get("standings") if status == 200 else None
    check(
        isinstance(standings, list) and len(standings) == 1 and standings[0]["entrant"]["id"] == entrant["id"],
        f"and its standings ({status}: {body[:200]!r})",
    )
    status, headers, body = anonymous.request("GET", f"{base}standings/")
    check(status == 200 and b"Smoke night" in body, f"the standings page is public once published ({status})")
    shared_copy_step(org, f"{base}standings/", f"{manage}hide-standings/")
    for path in (f"{job}file.pdf", f"{job}file.pdf?download=1", job):
        status, headers, body = anonymous.request("GET", path)
        refused = status in (302, 404) and not body.startswith(b"%PDF-")
        check(refused, f"an anonymous visitor cannot get {path} ({status})")


def shared_copy_step(org: Session, standings: str, hide: str) -> None:
    """nginx's shared copy of anonymous pages: phones share one copy, which sets no cookie; the
    organiser (signed in) always reaches Muster; a change shows within a couple of seconds."""
    phones = [Session(org.base, source=f"127.0.0.{n}") for n in (10, 11)]
    # Phones in turn until one is answered from the copy (kept a second: on a slow machine a few
    # answers may come after it expired), ten requests at most.
    answers = []
    while len(answers) < 10 and not any(headers.get("X-Cache") == "HIT" for _s, headers, _b in answers):
        answers.append(phones[len(answers) % 2].request("GET", standings))
    caches = [headers.get("X-Cache") for _status, headers, _body in answers]
    check(
        all(status == 200 for status, _headers, _body in answers) and "HIT" in caches,
        f"anonymous phones share nginx's copy of the standings ({caches})",
    )
    check(
        not any("Set-Cookie" in headers for _status, headers, _body in answers),
        "the shared standings set no cookie",
    )
    status, headers, body = org.request("GET", standings)
    check(
        status == 200 and headers.get("X-Cache") == "BYPASS",
        f"the signed-in organiser bypasses it ({headers.get('X-Cache')})",
    )
    status, headers, body = org.request("POST", hide, {"on": "1"})
    check(status == 302, f"the organiser hides the standings ({status})")
    deadline, hidden = time.monotonic() + 10, False
    while not hidden and time.monotonic() < deadline:
        status, headers, body = phones[0].request("GET", standings)
        hidden = status == 200 and b"keeping the standings hidden" in body
        if not hidden:
            time.sleep(0.25)
    check(hidden, "a phone sees the change within seconds (the copy is kept a second)")


def get_many(base: str, source: str, paths: list[str], until: float, statuses: Counter) -> None:
    """GETs one after the other from one client address (each client stays under nginx's 20/s)."""
    session = Session(base, source=source)
    n = 0
    while time.monotonic() < until:
        started = time.monotonic()
        try:
            status = session.request("GET", paths[n % len(paths)])[0]
        except (OSError, http.client.HTTPException):
            # The connection failed, or the answer was cut: a worker killed while nginx was
            # passing its answer on (after the headers nothing can be retried).
            status = 0
        statuses[status] += 1
        n += 1
        time.sleep(max(0.0, 0.06 - (time.monotonic() - started)))


def slow_clients(base: str, count: int = 600) -> None:
    """Slowloris: ``count`` TLS connections that send half their request headers and no more.

    The red team's 510 such connections filled the 512 of nginx and kept the site unreachable
    for 14 s. Now nginx has room for thousands, another client is served meanwhile, and each
    slow connection is closed after client_header_timeout (10 s).
    """
    parsed = urllib.parse.urlparse(base)
    held, refused = [], 0
    try:
        for _ in range(count):
            try:
                raw = socket.create_connection(
                    (parsed.hostname, parsed.port), timeout=5, source_address=("127.0.0.6", 0)
                )
                slow = CONTEXT.wrap_socket(raw, server_hostname=parsed.hostname)
                # Half a request: nginx waits for the rest of its headers (a connection mid-header
                # cannot be reused for another client, as an idle one can).
                slow.sendall(b"GET / HTTP/1.1\r\nHost: localhost\r\nX-Slow: ")
            except OSError:
                refused += 1  # nginx had no room left for it
                continue
            held.append(slow)
        check(refused == 0, f"nginx holds {count} slow TLS connections ({refused} refused)")
        started = time.monotonic()
        try:
            status = Session(base, source="127.0.0.7").request("GET", "/ping/")[0]
        except OSError as error:
            status = str(error)
        waited = time.monotonic() - started
        what = f"{count} slow TLS connections open, another client is served ({status} in {waited:.1f} s)"
        check(status == 200 and waited < 5, what)
        closed, deadline = 0, time.monotonic() + 20
        count = len(held)
        for slow in held:
            slow.settimeout(max(0.1, deadline - time.monotonic()))
            try:
                closed += slow.recv(1) == b""
            except TimeoutError:
                continue
            except OSError:
                closed += 1  # reset by nginx (reset_timedout_connection)
        check(closed == count, f"nginx closed the slow connections after its header timeout ({closed} of {count})")
    finally:
        for slow in held:
            slow.close()


# Pages that keep the workers busy (so that a kill drops requests in progress) and /ping/.
PAGES = ["/ping/", "/", "/reference/v3/", "/calc/shooting/", "/reference/"]


def workers_killed(base: str, stack: dict[str, str]) -> None:
    """Eight workers killed outright (SIGKILL, as the OOM killer or a crash) in 16 s, under load.

    Before: nginx's max_fails=3 took both app servers out and answered hundreds of 502s. Now a
    GET a dead worker dropped is retried on the other server, and no server is ever marked down:
    a kill costs at most the one request its worker held. On a loaded machine a retried request
    can be held by the other server's worker killed next; its 502 is accepted only when nginx's
    own log shows both of its tries dropped by killed workers.
    """
    error_log = Path(stack["DIR"], "nginx-error.log")
    log_start = error_log.stat().st_size if error_log.exists() else 0
    statuses: Counter = Counter()
    until = time.monotonic() + 18
    clients = [
        threading.Thread(target=get_many, args=(base, f"127.0.1.{n}", PAGES, until, statuses)) for n in range(1, 7)
    ]
    for client in clients:
        client.start()
    killed = 0
    time.sleep(1)
    ports = stack["APP_PORTS"].split()
    for round_ in range(8):
        # A worker of each app server in turn, caught running if possible: one in the middle of
        # a request, whose connection nginx then sees dropped.
        pid = busy_worker({**stack, "APP_PORTS": ports[round_ % len(ports)]})
        if pid:
            os.kill(pid, signal.SIGKILL)
            killed += 1
        time.sleep(2)
    for client in clients:
        client.join(timeout=TIMEOUT + 5)
    total = sum(statuses.values())
    check(killed == 8, f"8 gunicorn workers killed in 16 s under load ({killed})")
    dropped, down = dropped_tries(error_log, log_start)
    print(f"      nginx: {sum(dropped.values())} tries dropped by killed workers, {len(down)} refusals")
    check(not down, f"no app server was ever out of service ({len(down)} refusals: {down[:2]})")
    # Each kill may cut the one answer its worker was sending (0 here) or, if it held a request
    # already retried once, end that request in a 502; every other GET is a 200.
    twice = sum(1 for tries in dropped.values() if tries >= 2)
    check(
        set(statuses) <= {200, 0, 502} and statuses[0] + statuses[502] <= killed and total > 50,
        f"at most one request lost per killed worker: {total} GETs, {dict(statuses)}",
    )
    check(
        statuses[502] <= twice,
        f"no 502 but for a request both of whose tries were killed: {statuses[502]} 502s, {twice} such requests",
    )
    # Every master replaced its workers.
    deadline = time.monotonic() + 30
    while len(worker_pids(stack)) < 2 * len(stack["APP_PORTS"].split()) and time.monotonic() < deadline:
        time.sleep(0.5)
    check(len(worker_pids(stack)) >= 2 * len(stack["APP_PORTS"].split()), "each app server replaced its workers")


def dropped_tries(error_log: Path, start: int) -> tuple[Counter, list[str]]:
    """nginx's error log from ``start``: tries dropped by a dead worker, per request, and refusals.

    A dropped try (an error line naming the upstream: "prematurely closed", "reset by peer") is
    retried on the other app server; a refusal ("connect() failed", "no live upstreams") means a
    server was out of service.
    """
    requests: Counter = Counter()
    down = []
    with error_log.open("rb") as log:
        log.seek(start)
        for line in log.read().decode(errors="replace").splitlines():
            request = re.search(r"\*(\d+) ", line)
            if "no live upstreams" in line or "connect() failed" in line:
                down.append(line)
            elif request and "[error]" in line and 'upstream: "' in line:
                # However nginx words it ("prematurely closed", "reset by peer", "broken pipe"),
                # a try that failed on a live app server, after its connection was made.
                requests[request.group(1)] += 1
    return requests, down


def task_worker_restarted(stack: dict[str, str]) -> None:
    """The task worker killed (as by the OOM killer): its supervisor starts another within seconds."""
    first = task_worker_pid(stack)
    check(first is not None, "the task worker runs under its supervisor")
    os.kill(first, signal.SIGKILL)
    deadline = time.monotonic() + 30
    again = None
    while time.monotonic() < deadline:
        again = task_worker_pid(stack)
        if again is not None and again != first:
            break
        time.sleep(0.2)
    check(again is not None and again != first, f"a killed task worker is started again ({first} -> {again})")


def redis_stopped(base: str, stack: dict[str, str]) -> None:
    """Last (the stack keeps no Redis afterwards): both Redis stopped, the site still serves."""
    stop_redis(stack)
    for port in (stack["REDIS_PORT"], stack["RATELIMIT_REDIS_PORT"]):
        try:
            redis_command(port, "PING")
            up = True
        except OSError:
            up = False
        check(not up, f"Redis on {port} is stopped")
    s = Session(base, source="127.0.0.4")
    for path in ["/", "/reference/v3/", "/reference/v3/?q=smoke", "/calc/", "/accounts/login/"]:
        status, headers, body = s.request("GET", path)
        check(status == 200, f"with Redis stopped, GET {path} is 200 ({status})")
    status, headers, body = s.request("POST", "/accounts/login/", {"username": "smoke5", "password": "wrong"})
    check(status == 200, f"with Redis stopped, a login is answered ({status})")
    # The counters move into each app-server process: failed logins for one username are still
    # refused, after at most 20 an hour per worker process (the per-minute limits need a fast
    # machine to be met in every process within its minute; the hour's always are).
    attempts, limited = 0, False
    while attempts < 25 * len(worker_pids(stack)) and not limited:
        attempts += 1
        status, headers, body = s.request("POST", "/accounts/login/", {"username": "smoke5", "password": "wrong"})
        limited = status == 429 and b"Too many requests" in body
    check(limited, f"with Redis stopped, failed logins are still limited (refused after {attempts} attempts)")
    status, headers, body = s.request("GET", "/healthz/")
    health = json.loads(body) if status == 200 else {}
    check(
        health.get("status") == "degraded" and {"cache", "ratelimit"} <= set(health.get("failed", ())),
        f"/healthz/ says the cache and the rate-limit store are degraded ({status}: {body[:200]!r})",
    )


if __name__ == "__main__":
    started = time.monotonic()
    try:
        # deploy/smoke.py URL [HOST:PORT of each app server...]
        main(sys.argv[1] if len(sys.argv) > 1 else "https://127.0.0.1:8443", sys.argv[2:])
    except Failed as failure:
        print(f"SMOKE TEST FAILED: {failure}", file=sys.stderr)
        print(f"smoke: {len(PASSED)} passed, 1 failed")
        sys.exit(1)
    print(f"smoke test through nginx took {time.monotonic() - started:.1f} s")
    print(f"smoke: {len(PASSED)} passed, 0 failed")
