"""Browser benchmark of the builder: what a player feels, in Debian's Chromium through Playwright.

Run from the repository root: ``.venv/bin/python bench/builder_browser_bench.py [--runs N]``.

It builds a 12- and a 50-unit list in a temporary SQLite database (in /dev/shm when it exists),
serves the app from a separate process (Django's threaded WSGI server, as ``runserver`` without
its autoreloader, static files included) and drives Chromium in two profiles: as is, and as a
phone on weak club Wi-Fi, emulated through the DevTools protocol (150 ms round trip, 1.6 Mbps
down, 0.75 Mbps up, CPU slowed 4x). For each it measures, as medians of ``--runs`` (15):

* cold load (a fresh browser context, nothing cached) of each list until its points total is
  visible, and the same for a static copy of the 50-unit page's HTML served from memory by
  the same server (the floor no server-rendered page can beat);
* click-to-new-total for each action on the 50-unit list (add, duplicate, remove, undo, men,
  quality, option, move, rename): from the click to the moment the new total is on screen, or
  for the actions that do not change it (move, rename) to the end of htmx's swap, and for
  opening and closing a unit's editor to the moment it (or its row) is in the page; with the
  requests each action made and their bytes on the wire and decoded. Add, remove and duplicate move
  the total before the server answers: their "(server's answer in)" line is the time until its
  answer is swapped in. "open a unit's editor (page quiet)" opens a different unit each run once
  the background copy of every unit's editor (fetched when the page is idle) is in; that fetch's
  own figures are printed apart (requests: how many were made in the whole run; its gzipped size
  measured once outside the browser, as Chromium reports no body size for fetch() answers).

"On screen" is when a MutationObserver sees the new figure. Its callback runs only once the
click's handlers are all done (a microtask, after the whole synchronous work of the tap), so the
figure includes any work done in the same task as the change, and it is also the earliest the
browser can paint it: work moved out of the tap (the builder sends a men, quality or option
change after the next frame) shortens both alike.

``--profiles weak`` measures the weak Wi-Fi phone only (half the run time).

Side by side with Barracks: ``--barracks-url URL`` (a Barracks build served elsewhere)
or ``--barracks-dist DIR`` (a built ``dist`` folder of barracks-web, served by the bench, gzipped)
also drives Barracks' builder on the weak Wi-Fi phone profile in the same run, through
``barracks_side_by_side.py`` (what it measures and how is in its docstring), and prints each
action's Muster and Barracks times with their ratio. Barracks (MIT, fjlaubscher/barracks) is not
part of this repository: build barracks-web apart (its ``vite build``) and point the bench at it.

The builder's size targets are printed with each figure: one request of at most 12 KB per
action at 50 units; a 50-unit page of at most 60 KB of HTML before compression; on weak
Wi-Fi, every action within the round trip plus 100 ms; the 50-unit cold load no slower than
the static floor.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import barracks_side_by_side  # the bench folder is on sys.path when a bench runs as a script

ROOT = Path(__file__).resolve().parent.parent
RTT_MS = 150
WEAK_WIFI = {
    "offline": False,
    "latency": RTT_MS,
    "downloadThroughput": 1.6e6 / 8,
    "uploadThroughput": 0.75e6 / 8,
}
CPU_SLOWDOWN = 4
ACTION_BYTES_TARGET = 12 * 1024
PAGE_HTML_TARGET = 60 * 1024
FLOOR_PATH = "/bench/static-floor/"


def _setup_django(db_path: Path) -> None:
    sys.path.insert(0, str(ROOT))
    os.environ["DJANGO_SETTINGS_MODULE"] = "armybuilder.settings"
    os.environ["DATABASE_URL"] = f"sqlite:///{db_path}"
    import django
    from django.conf import settings

    django.setup()
    # Production-like: no per-query logging (DEBUG keeps the plain static storage, no manifest needed).
    settings.DEBUG = False


# --- The server process ------------------------------------------------------------------------


def serve(port: int, db_path: Path, floor_file: Path) -> None:
    """Serve the app, plus the static floor page (bytes read once, answered from memory)."""
    _setup_django(db_path)
    import types

    from django.conf import settings
    from django.contrib.staticfiles.handlers import StaticFilesHandler
    from django.core.handlers.wsgi import WSGIHandler
    from django.core.servers.basehttp import ThreadedWSGIServer, WSGIRequestHandler
    from django.http import HttpResponse
    from django.urls import clear_url_caches, include, path
    from django.views.decorators.gzip import gzip_page

    class QuietHandler(WSGIRequestHandler):
        def log_message(self, *args) -> None:  # no line per request on the bench's output
            pass

    @gzip_page  # compressed like the app's own pages, for a like-for-like floor
    def floor(request):
        return HttpResponse(floor_file.read_bytes(), content_type="text/html; charset=utf-8")

    module = types.ModuleType("bench_urls")
    module.urlpatterns = [path(FLOOR_PATH.strip("/") + "/", floor), path("", include(settings.ROOT_URLCONF))]  # type: ignore[attr-defined]
    sys.modules["bench_urls"] = module
    settings.ROOT_URLCONF = "bench_urls"
    clear_url_caches()
    server = ThreadedWSGIServer(("127.0.0.1", port), QuietHandler)
    server.set_app(StaticFilesHandler(WSGIHandler()))
    server.serve_forever()


# --- Data --------------------------------------------------------------------------------------


def _build_lists() -> tuple[object, dict[int, object]]:
    from django.contrib.auth import get_user_model

    from armybuilder.catalogue.models import Army, Option, Unit
    from armybuilder.lists.models import ArmyList, Entry, Platoon
    from armybuilder.reference.models import Edition

    edition, _ = Edition.objects.get_or_create(slug="v2", defaults={"number": 2, "name": "2nd edition"})
    army = Army.objects.create(edition=edition, slug="bench-army", name="Bench Army", source="bench")
    costs = {
        "cost_inexperienced": 35,
        "cost_regular": 50,
        "cost_veteran": 65,
        "per_model_inexperienced": 7,
        "per_model_regular": 10,
        "per_model_veteran": 13,
        "source": "bench",
    }
    officer = Unit.objects.create(
        army=army,
        slug="lieutenant",
        name="Second Lieutenant",
        unit_type="headquarters",
        slot="officer",
        officer_rank="second_lieutenant",
        base_models=1,
        max_models=3,
        **costs,
    )
    squad = Unit.objects.create(
        army=army,
        slug="rifle-section",
        name="Rifle Section",
        unit_type="infantry",
        slot="infantry",
        base_models=5,
        max_models=10,
        position=1,
        **costs,
    )
    for position, (slug, name, per_model, group) in enumerate(
        [
            ("lmg", "Light machine gun", False, "support"),
            ("piat", "PIAT", False, "support"),
            ("smg", "Submachine gun", True, ""),
            ("grenades", "Grenades", False, ""),
        ]
    ):
        Option.objects.create(
            unit=squad,
            slug=slug,
            name=name,
            per_model=per_model,
            group=group,
            position=position,
            **{"cost_inexperienced": 5, "cost_regular": 5, "cost_veteran": 5},
        )
    for n in range(20):
        Unit.objects.create(
            army=army,
            slug=f"unit-{n}",
            name=f"Catalogue unit {n}",
            unit_type="team",
            slot="machine_gun",
            position=n + 2,
            **costs,
        )
    user = get_user_model().objects.create_user("bench", password="bench-password-1")
    lists = {}
    for size in (12, 50):
        army_list = ArmyList.objects.create(
            owner=user, edition=edition, army=army, name=f"Bench list {size}", points_limit=5000
        )
        platoons = [
            Platoon.objects.create(army_list=army_list, kind="reinforced_platoon", position=i)
            for i in range((size + 9) // 10)
        ]
        entries = []
        for n in range(size):
            unit = officer if n % 10 == 0 else squad
            entries.append(
                Entry(
                    army_list=army_list,
                    unit=unit,
                    platoon=platoons[n // 10],
                    position=n,
                    models_count=unit.base_models + 1,
                    options={} if unit is officer else {"lmg": 1, "smg": 2},
                )
            )
        Entry.objects.bulk_create(entries)
        lists[size] = army_list
    return user, lists


def _session_cookie(user) -> dict:
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.save()
    return {"name": settings.SESSION_COOKIE_NAME, "value": session.session_key, "domain": "127.0.0.1", "path": "/"}


# --- Browser measurements ----------------------------------------------------------------------

# Clicks an element (or changes a control) and resolves with the milliseconds until its result
# is on screen: the total shows a new figure (``until`` "total"), htmx has settled every swap of
# the response ("settle"), or an element matching ``until`` is in the page (an editor opened or
# closed without a request). With ``confirm``, also the milliseconds until htmx has settled the
# server's answer (for the actions shown before it comes: add, remove, duplicate).
_ACT = """
async ([selector, how, value, until, confirm]) => {
  const total = () => (document.querySelector('#summary-points') || {}).textContent;
  const before = total();
  const el = document.querySelector(selector);
  if (!el) throw new Error('no element ' + selector);
  const settled = () => new Promise((resolve) => {
    document.body.addEventListener('htmx:afterSettle', () => resolve(performance.now()), {once: true});
  });
  const confirmed = confirm ? settled() : null;
  const done = until === 'settle' ? settled() : new Promise((resolve) => {
    const seen = until === 'total' ? () => total() !== before : () => !!document.querySelector(until);
    const observer = new MutationObserver(() => {
      if (seen()) { observer.disconnect(); resolve(performance.now()); }
    });
    observer.observe(document.body, {childList: true, subtree: true, characterData: true});
  });
  const changed = new Event('change', {bubbles: true});
  const start = performance.now();
  if (how === 'click') el.click();
  else if (how === 'check') { el.checked = !el.checked; el.dispatchEvent(changed); }
  else {
    el.value = el.value === value[0] ? value[1] : value[0];
    if (how === 'select') el.dispatchEvent(changed); else el.form.requestSubmit();
  }
  const end = await done;
  return [end - start, confirmed ? (await confirmed) - start : null];
}
"""


class Traffic:
    """Requests a page made (document and fetch/XHR), with their encoded and decoded sizes."""

    KINDS = ("document", "fetch", "xhr")

    def __init__(self, page) -> None:
        self.page = page
        self.items: list[tuple[str, int, int]] = []
        # The background fetch of every unit's editor (when the page is quiet): counted apart,
        # not in the action it happens to overlap.
        self.background: list[tuple[str, int, int]] = []
        self.pending = 0
        page.on("request", self._started)
        page.on("requestfinished", self._finished)
        page.on("requestfailed", self._failed)

    def _started(self, request) -> None:
        if request.resource_type in self.KINDS:
            self.pending += 1

    def _failed(self, request) -> None:
        if request.resource_type in self.KINDS:
            self.pending -= 1

    def _finished(self, request) -> None:
        if request.resource_type not in self.KINDS:
            return
        sizes = request.sizes()
        response = request.response()
        decoded = len(response.body()) if response else 0
        item = (request.url, sizes["responseBodySize"] + sizes["responseHeadersSize"], decoded)
        (self.background if request.url.endswith("/editors/") else self.items).append(item)
        self.pending -= 1

    def take(self) -> list[tuple[str, int, int]]:
        """The requests made since the last call, once every request under way has finished."""
        for _ in range(500):
            if self.pending <= 0:
                break
            self.page.wait_for_timeout(10)
        items, self.items = self.items, []
        return items


def _context(browser, base: str, cookie: dict, weak: bool, viewport: dict):
    context = browser.new_context(base_url=base, viewport=viewport)
    context.add_cookies([cookie])
    context.set_default_timeout(30_000)
    page = context.new_page()
    if weak:
        cdp = context.new_cdp_session(page)
        cdp.send("Network.enable")
        cdp.send("Network.emulateNetworkConditions", WEAK_WIFI)
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})
    return context, page


def cold_load(browser, base, cookie, url: str, weak: bool, runs: int) -> tuple[float, int, int]:
    """Median ms from navigation to the total visible, in a fresh context each time; bytes."""
    times, wire, html = [], 0, 0
    for _ in range(runs):
        context, page = _context(browser, base, cookie, weak, {"width": 390, "height": 844})
        traffic = Traffic(page)
        start = time.perf_counter()
        page.goto(url, wait_until="commit")
        page.wait_for_selector("#summary-points", state="visible")
        times.append((time.perf_counter() - start) * 1000)
        page.wait_for_load_state("load")
        docs = traffic.take()
        wire, html = docs[0][1], docs[0][2]
        context.close()
    return statistics.median(times), wire, html


def _newest_entry(army_list) -> int:
    from armybuilder.lists.models import Entry

    return Entry.objects.filter(army_list_id=army_list.pk).order_by("-pk").values_list("pk", flat=True).first()


def actions(browser, base, cookie, army_list, squad_entry: int, add_unit: int, weak: bool, runs: int) -> dict:
    """Click-to-new-total of each action, median of ``runs``, with its requests and bytes."""
    context, page = _context(browser, base, cookie, weak, {"width": 390, "height": 844})
    # Listening from the start: a request under way when it began would end uncounted and leave
    # it behind (each action's requests would be counted in the next one's).
    traffic = Traffic(page)
    page.goto(f"/lists/{army_list.pk}/")
    page.wait_for_selector("#summary-points")
    traffic.take()
    results: dict[str, list] = {}

    def act(name, selector, how="click", value=None, until="total", confirm=False):
        ms, confirmed = page.evaluate(_ACT, [selector, how, value or ["", ""], until, confirm])
        items = traffic.take()
        results.setdefault(name, []).append((ms, len(items), sum(i[1] for i in items), sum(i[2] for i in items)))
        if confirmed is not None:
            results.setdefault(f"{name} (server's answer in)", []).append((confirmed, len(items), 0, 0))

    def open_editor(pk, name="open editor"):
        # The compact roster opens a unit's editor on demand; it stays open across changes, so
        # this opens it only when an action closed it.
        if page.query_selector(f"#entry-{pk}-open") and not page.query_selector(f"#entry-{pk}-editor"):
            act(name, f"#entry-{pk}-open", until=f"#entry-{pk}-editor")
        traffic.take()

    others = [
        pk
        for pk in army_list.entries.order_by("position").values_list("pk", flat=True)
        if pk != squad_entry and page.query_selector(f"#entry-{pk}-open")
    ]
    for n in range(runs):
        # Once the page is quiet, every unit's editor is in the browser: a unit never opened yet
        # opens without a request.
        page.wait_for_selector("#roster[data-editors-kept]", state="attached", timeout=60_000)
        other = others[n % len(others)]
        open_editor(other, name="open a unit's editor (page quiet)")
        page.keyboard.press("Escape")
        page.wait_for_selector(f"#entry-{other}-open")
        traffic.take()
        # Shown at the tap (a pending row, the totals moved): the server's answer timed apart.
        act("add", f"#add-unit-{add_unit}", confirm=True)
        page.wait_for_selector(".unit-row.is-pending", state="detached")
        # Opened at once (the browser fetches a unit's editor as soon as it is added).
        open_editor(_newest_entry(army_list), name="open editor of the unit just added")
        open_editor(squad_entry)
        act("duplicate", f"#entry-{squad_entry}-duplicate", confirm=True)
        page.wait_for_selector(".unit-row.is-pending", state="detached")
        copy = _newest_entry(army_list)
        open_editor(copy)
        act("remove", f"#entry-{copy}-remove", confirm=True)
        if page.query_selector(f"#entry-{copy}-undo"):
            act("undo", f"#entry-{copy}-undo")
            open_editor(copy)
            act("remove", f"#entry-{copy}-remove", confirm=True)
        added = _newest_entry(army_list)
        open_editor(added)
        act("remove", f"#entry-{added}-remove", confirm=True)
        open_editor(squad_entry)
        # Men, quality and options show their points at once (priced in the browser): the
        # server's answer is timed apart, as for duplicate and remove.
        act("men +/-", f"#entry-{squad_entry}-{'more' if n % 2 == 0 else 'fewer'}", confirm=True)
        open_editor(squad_entry)
        act("quality", f"#entry-{squad_entry}-quality", "select", ["veteran", "regular"], confirm=True)
        open_editor(squad_entry)
        act("option", f"#entry-{squad_entry}-opt-grenades", "check", confirm=True)
        open_editor(squad_entry)
        act("move", f"#entry-{squad_entry}-{'up' if n % 2 == 0 else 'down'}", until="settle")
        open_editor(squad_entry)
        act("rename", f"#entry-{squad_entry}-name-input", "submit", ["Bench squad", ""], until="settle")
        # "Done", then open again: without a request when the browser kept the editor.
        open_editor(squad_entry)
        act("close editor (Done)", f"#entry-{squad_entry}-close", until=f"#entry-{squad_entry}-open")
        open_editor(squad_entry, name="open editor again")
    background = traffic.background
    if background:
        samples = [(0.0, len(background), item[1], item[2]) for item in background]
        results["background: every unit's editor"] = samples
    context.close()
    return {
        name: (
            statistics.median(s[0] for s in samples[:runs]),
            max(s[1] for s in samples),
            statistics.median(s[2] for s in samples),
            statistics.median(s[3] for s in samples),
        )
        for name, samples in results.items()
    }


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_for(url: str, timeout: float = 30) -> None:
    import urllib.request

    deadline = time.monotonic() + timeout
    while True:
        try:
            urllib.request.urlopen(url, timeout=2).read()
            return
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15, help="measurements per figure (default 15)")
    parser.add_argument("--serve", nargs=3, metavar=("PORT", "DB", "FLOOR"), help=argparse.SUPPRESS)
    parser.add_argument("--json", help="also write the figures to this file")
    parser.add_argument(
        "--profiles", choices=("both", "weak"), default="both", help="'weak': the weak Wi-Fi phone profile only"
    )
    side = parser.add_mutually_exclusive_group()
    side.add_argument("--barracks-url", help="also drive the Barracks build served at this URL (weak profile)")
    side.add_argument("--barracks-dist", type=Path, help="also drive this built Barracks dist folder, served here")
    args = parser.parse_args()
    if args.serve:
        serve(int(args.serve[0]), Path(args.serve[1]), Path(args.serve[2]))
        return
    shm = Path("/dev/shm")
    tmp = Path(tempfile.mkdtemp(prefix="muster-bbench-", dir=shm if shm.is_dir() and os.access(shm, os.W_OK) else None))
    db_path, floor_file = tmp / "bench.sqlite3", tmp / "floor.html"
    server = barracks_server = None
    try:
        barracks_url = args.barracks_url
        if args.barracks_dist:
            barracks_server, barracks_url = barracks_side_by_side.serve_dist(args.barracks_dist)
        _setup_django(db_path)
        from django.core.management import call_command

        call_command("migrate", verbosity=0, interactive=False)
        user, lists = _build_lists()
        cookie = _session_cookie(user)
        from armybuilder.catalogue.models import Unit

        add_unit = Unit.objects.get(slug="unit-0").pk
        squad_entry = lists[50].entries.filter(unit__slug="rifle-section").order_by("position")[20].pk
        port = _free_port()
        base = f"http://127.0.0.1:{port}"
        floor_file.write_bytes(b"")
        server = subprocess.Popen(
            [sys.executable, __file__, "--serve", str(port), str(db_path), str(floor_file)], cwd=ROOT
        )
        _wait_for(f"{base}/ping/")
        import urllib.request

        request = urllib.request.Request(
            f"{base}/lists/{lists[50].pk}/", headers={"Cookie": f"{cookie['name']}={cookie['value']}"}
        )
        page_html = urllib.request.urlopen(request).read()
        # Chromium reports no body size for fetch() answers: the background fetch of every unit's
        # editor is measured here, gzipped as the browser gets it.
        request = urllib.request.Request(
            f"{base}/lists/{lists[50].pk}/editors/",
            headers={
                "Cookie": f"{cookie['name']}={cookie['value']}",
                "HX-Request": "true",
                "Accept-Encoding": "gzip",
            },
        )
        editors_gzipped = len(urllib.request.urlopen(request).read())
        # The floor: the 50-unit page's own HTML, from memory, with no session, query or template.
        floor_file.write_bytes(page_html)

        from playwright.sync_api import sync_playwright

        sys.path.insert(0, str(ROOT / "tests"))
        from conftest import CHROMIUM_ARGS, chromium_path

        figures: dict = {"runs": args.runs, "load": [os.getloadavg()[0]]}
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium_path(), headless=True, args=CHROMIUM_ARGS)
            for weak in (False, True) if args.profiles == "both" else (True,):
                profile = "weak Wi-Fi phone" if weak else "normal"
                figures[profile] = {"load": {}, "actions": {}}
                for label, url in (
                    ("12-unit list", f"/lists/{lists[12].pk}/"),
                    ("50-unit list", f"/lists/{lists[50].pk}/"),
                    ("static floor (50-unit HTML)", FLOOR_PATH),
                ):
                    figures[profile]["load"][label] = cold_load(browser, base, cookie, url, weak, args.runs)
                figures[profile]["actions"] = actions(
                    browser, base, cookie, lists[50], squad_entry, add_unit, weak, args.runs
                )
            if barracks_url:
                figures["barracks (weak Wi-Fi phone)"] = barracks_side_by_side.measure(
                    browser, barracks_url.rstrip("/"), True, args.runs, WEAK_WIFI, CPU_SLOWDOWN
                )
            browser.close()
        figures["load"].append(os.getloadavg()[0])
        _report(figures, len(page_html))
        if barracks_url:
            barracks_side_by_side.report(figures["weak Wi-Fi phone"], figures["barracks (weak Wi-Fi phone)"])
        print(f"\nbackground fetch of the 50 units' editors: {editors_gzipped / 1024:.1f} KB gzipped")
        figures["editors gzipped"] = editors_gzipped
        if args.json:
            Path(args.json).write_text(json.dumps(figures, indent=1))
    finally:
        if server is not None:
            server.terminate()
            server.wait(10)
        if barracks_server is not None:
            barracks_server.shutdown()
        shutil.rmtree(tmp, ignore_errors=True)


def _report(figures: dict, page_html: int) -> None:
    before, after = figures["load"]
    print(f"builder browser bench: medians of {figures['runs']}, headless Chromium")
    print(f"load average {before:.2f} -> {after:.2f} ({os.cpu_count()} CPUs): above that, every time is inflated")
    print(
        f"50-unit page HTML: {page_html / 1024:.1f} KB before compression (target <= 60 KB):"
        f" {'met' if page_html <= PAGE_HTML_TARGET else 'NOT met'}"
    )
    for profile in ("normal", "weak Wi-Fi phone"):
        if profile not in figures:
            continue
        data = figures[profile]
        print(f"\n[{profile}]" + (f" {RTT_MS} ms RTT, 1.6/0.75 Mbps, CPU x{CPU_SLOWDOWN}" if "weak" in profile else ""))
        print(f"  {'cold load to total':32}{'median':>10}{'wire':>10}{'html':>10}")
        for label, (ms, wire, html) in data["load"].items():
            print(f"  {label:32}{ms:7.0f} ms{wire / 1024:7.1f} KB{html / 1024:7.1f} KB")
        floor = data["load"]["static floor (50-unit HTML)"][0]
        fifty = data["load"]["50-unit list"][0]
        print(
            f"  50-unit load vs static floor: {fifty:.0f} vs {floor:.0f} ms:"
            f" {'met' if fifty <= floor * 1.05 else 'NOT met'} (5% noise allowed)"
        )
        print(f"  {'action (50 units)':32}{'median':>10}{'requests':>10}{'wire':>10}{'html':>10}")
        for name, (ms, requests, wire, html) in data["actions"].items():
            if name.startswith("background"):
                sizes = f"{wire / 1024:7.1f} KB{html / 1024:7.1f} KB"
                print(f"  {name:32}{'':>10}{requests:10d}{sizes}  (median per fetch)")
                continue
            verdicts = []
            if requests > 1 or wire > ACTION_BYTES_TARGET:
                verdicts.append("NOT one request <= 12 KB")
            if "weak" in profile and ms > RTT_MS + 100:
                verdicts.append(f"NOT <= {RTT_MS + 100} ms")
            print(
                f"  {name:32}{ms:7.0f} ms{requests:10d}{wire / 1024:7.1f} KB{html / 1024:7.1f} KB  "
                + ("; ".join(verdicts) or "met")
            )


if __name__ == "__main__":
    main()
