"""Barracks' builder driven the same way as Muster's, for the side-by-side figures.

Used by ``builder_browser_bench.py --barracks-url URL`` (a Barracks build served elsewhere) or
``--barracks-dist DIR`` (a built ``dist`` folder of barracks-web, served here: gzipped like a
static host, every path without a file answered with ``index.html`` as a single-page app's host
does, with an ETag so that a fetch of unchanged data is answered 304). Barracks is MIT-licensed
(github.com/fjlaubscher/barracks); none of its code is in this repository: build it apart.

Barracks keeps lists in the browser (IndexedDB, database ``BARRACKS`` version 3): each cold load
starts in a fresh browser context holding only the 50-unit list itself (written before the
measured navigation, on a blank page of the same origin that loads nothing), so the app's code,
styles and army data (``/data/*.json``) all come over the emulated network, as on a phone that
opens a list after its cache was emptied. Every action is measured from the click to its result
on screen, as in Muster's bench:

* duplicate, remove: the copy/delete button of a unit card on the list page, to the new total;
* add: "+" on the infantry section opens the unit page (to its builder on screen), then Save
  adds the default unit and goes back to the list (to the list page with the new total); the
  player waits for both, so "add" is their sum;
* open a unit's editor: a tap on a unit card, to its builder on screen;
* men, quality, option: the "+"/"-" of the "Additional soldier" option, the veterancy select, the
  "+"/"-" of a weapon option, each to the unit's new points on screen (in the editor, before any
  save: Barracks keeps the changes until Save);
* save: the editor's Save, to the list page with the new total (Muster has no such step).
"""

from __future__ import annotations

import gzip
import hashlib
import json
import mimetypes
import statistics
import threading
import time
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

LIST_KEY = "muster-bench-50"
ROLE = "Infantry Squads and Teams"

# --- Serving a built dist folder -----------------------------------------------------------------


def serve_dist(dist: Path) -> tuple[ThreadingHTTPServer, str]:
    """Serve ``dist`` on a free port in a thread: gzip, and index.html for app routes."""
    dist = dist.resolve()
    index = dist / "index.html"
    if not index.is_file():
        raise SystemExit(f"--barracks-dist: no index.html in {dist} (build barracks-web first)")
    cache: dict[Path, tuple[bytes, bytes, str]] = {}

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args) -> None:  # no line per request on the bench's output
            pass

        def do_GET(self) -> None:
            path = self.path.split("?", 1)[0]
            target = (dist / path.lstrip("/")).resolve()
            if dist not in target.parents or not target.is_file():
                # The app's public-list worker is not run here: its requests get a plain 404.
                if path.startswith("/worker") or "." in path.rsplit("/", 1)[-1]:
                    self.send_error(404)
                    return
                target = index
            zipped = "gzip" in self.headers.get("Accept-Encoding", "")
            if target not in cache:
                raw = target.read_bytes()
                cache[target] = (raw, gzip.compress(raw, 6), f'"{hashlib.sha1(raw).hexdigest()[:16]}"')
            raw, packed, etag = cache[target]
            # Revalidated like a static host answers (ETag, max-age=0): the app's fetches of its
            # data on each page get a 304 with no body when nothing changed.
            if self.headers.get("If-None-Match") == etag:
                self.send_response(304)
                self.send_header("ETag", etag)
                self.end_headers()
                return
            body = packed if zipped else raw
            self.send_response(200)
            self.send_header("Content-Type", mimetypes.guess_type(target.name)[0] or "application/octet-stream")
            self.send_header("Cache-Control", "public, max-age=0, must-revalidate")
            self.send_header("ETag", etag)
            if zipped:
                self.send_header("Content-Encoding", "gzip")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        do_POST = do_DELETE = lambda self: self.send_error(404)  # noqa: E731 (the worker's verbs)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"


# --- The list ----------------------------------------------------------------------------------


def build_list(base: str) -> dict:
    """A 50-unit German list in Barracks' own format, like Muster's bench list.

    Every tenth unit an officer, the others the first infantry squad that has an "Additional
    soldier" option, with one more soldier and a weapon option taken (as Muster's list has one
    model more, an LMG and two SMGs).
    """
    units = json.loads(urllib.request.urlopen(f"{base}/data/units/germany.json", timeout=30).read())
    officer = units["infantry"]["Headquarters"][0]
    squad = next(
        u for u in units["infantry"][ROLE] if any(o["name"].lower() == "additional soldier" for o in u["options"])
    )

    def entry(unit: dict, n: int) -> dict:
        profile = unit["profiles"][0]
        veterancy = "regular" if "regular" in profile["cost"] else next(iter(profile["cost"]))
        taken = [o for o in unit["options"] if o["name"].lower() == "additional soldier"][:1]
        taken += [o for o in unit["options"] if o["name"].lower() != "additional soldier"][:1]
        options = [{"option": o, "amount": 1} for o in (taken if unit is squad else [])]
        points = profile["cost"][veterancy] + sum(o["option"]["cost"][veterancy] for o in options)
        return {
            "key": f"bench-{n}",
            "unit": unit,
            "profile": profile,
            "veterancy": veterancy,
            "options": options,
            "points": points,
        }

    template = {
        "infantry": {"Headquarters": [], ROLE: []},
        "artillery": {"Field Artillery": [], "Anti-Tank Guns": [], "Anti-Aircraft Guns": []},
        "vehicles": {
            "Tanks": [],
            "Tank Destroyers": [],
            "Self-Propelled Artillery": [],
            "Anti-Aircraft Vehicles": [],
            "Armoured Cars": [],
            "Transports and Tows": [],
        },
    }
    for n in range(50):
        if n % 10 == 0:
            template["infantry"]["Headquarters"].append(entry(officer, n))
        else:
            template["infantry"][ROLE].append(entry(squad, n))
    points = sum(u["points"] for roles in template.values() for role in roles.values() for u in role)
    return {
        "key": LIST_KEY,
        "name": "Bench list 50",
        "army": "germany",
        "limit": 5000,
        "notes": "",
        "created": "2026-01-01T00:00:00.000Z",
        "points": points,
        "units": template,
    }


# Writes the list in Barracks' database, created as the app creates it (same version and stores,
# so the app opens it without an upgrade that would drop them).
_SEED = """
async (list) => new Promise((resolve, reject) => {
  const request = indexedDB.open('BARRACKS', 3);
  request.onupgradeneeded = () => {
    for (const name of ['ARMIES', 'BATTLES', 'CORE', 'LISTS', 'UNITS']) request.result.createObjectStore(name);
  };
  request.onerror = () => reject(request.error);
  request.onsuccess = () => {
    const db = request.result;
    const tx = db.transaction('LISTS', 'readwrite');
    tx.objectStore('LISTS').put(list, list.key);
    tx.oncomplete = () => { db.close(); resolve(true); };
    tx.onerror = () => reject(tx.error);
  };
})
"""

# Clicks what ``target`` finds and resolves with the ms until ``until`` holds (checked on every
# DOM change). Elements are found by their text and CSS-module class names (Barracks has few ids).
_ACT = """
async ([target, until, role]) => {
  const totalEl = () => Array.from(document.querySelectorAll('[class*="_value_"]'))
    .find((e) => /^\\d+\\/\\d+$/.test(e.textContent.trim()));
  const total = () => (totalEl() || {}).textContent;
  const unitPoints = () => (document.querySelector('[data-testid="list-unit-card-description"]') || {}).textContent;
  // A section: Stack > header (heading (title, description), its buttons) + content.
  const section = () => Array.from(document.querySelectorAll('[class*="_description_"]'))
    .find((e) => e.textContent.trim() === role);
  const header = () => section().parentElement.parentElement;
  const cards = () => Array.from(header().parentElement.querySelectorAll('[class*="_buttons_"]'));
  const fields = () => Array.from(document.querySelectorAll('[data-testid="number-field"]'));
  const option = (name) => fields().find((f) => f.querySelector('label').textContent.toLowerCase().startsWith(name));
  const headerButtons = () => Array.from(header().children).filter((e) => e.tagName === 'BUTTON');
  const find = {
    add: () => headerButtons()[0],
    save: () => { const b = headerButtons(); return b[b.length - 1]; },
    duplicate: () => cards()[0].querySelectorAll('button')[0],
    remove: () => { const c = cards(); return c[c.length - 1].querySelectorAll('button')[1]; },
    open: () => cards()[1].closest('[class*="_card_"]'),
    menMore: () => option('additional soldier').querySelector('[data-testid="number-field-increase"]'),
    menFewer: () => option('additional soldier').querySelector('[data-testid="number-field-decrease"]'),
    optionMore: () => fields()[1].querySelector('[data-testid="number-field-increase"]'),
    optionFewer: () => fields()[1].querySelector('[data-testid="number-field-decrease"]'),
    quality: () => document.querySelector('[data-testid="unit-builder-veterancy"]'),
  }[target];
  const el = find();
  if (!el) throw new Error('Barracks bench: nothing found for ' + target + ' at ' + location.pathname + ' in: '
    + Array.from(document.querySelectorAll('[data-testid]')).map((e) => e.dataset.testid).join(' '));
  const before = {total: total(), unit: unitPoints(), path: location.pathname};
  const checks = {
    listTotal: () => location.pathname.endsWith('/edit') && total() && total() !== before.total,
    builder: () => location.pathname.includes('/unit') && !!document.querySelector('[data-testid="unit-builder-unit"]'),
    unitPoints: () => unitPoints() && unitPoints() !== before.unit,
  };
  const seen = checks[until];
  const done = new Promise((resolve) => {
    const observer = new MutationObserver(() => {
      if (seen()) { observer.disconnect(); resolve(performance.now()); }
    });
    observer.observe(document.body, {childList: true, subtree: true, characterData: true, attributes: true});
  });
  const start = performance.now();
  if (target === 'quality') {
    const setter = Object.getOwnPropertyDescriptor(HTMLSelectElement.prototype, 'value').set;
    setter.call(el, el.value === '0' ? '1' : '0');
    el.dispatchEvent(new Event('change', {bubbles: true}));
  } else el.click();
  return (await done) - start;
}
"""


def _weak_context(browser, base: str, weak: bool, network: dict, cpu_slowdown: int):
    context = browser.new_context(base_url=base, viewport={"width": 390, "height": 844})
    context.set_default_timeout(60_000)
    page = context.new_page()
    if weak:
        cdp = context.new_cdp_session(page)
        cdp.send("Network.enable")
        cdp.send("Network.emulateNetworkConditions", network)
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": cpu_slowdown})
    return context, page


def _seeded(browser, base, the_list, weak, network, cpu_slowdown):
    """A fresh context whose only stored thing is the list (the page used to write it loads nothing)."""
    context, page = _weak_context(browser, base, weak, network, cpu_slowdown)
    page.route(
        f"{base}/__muster_bench_blank",
        lambda route: route.fulfill(body="<!doctype html><title>blank</title>", content_type="text/html"),
    )
    page.goto("/__muster_bench_blank")
    page.evaluate(_SEED, the_list)
    return context, page


def _wait_total(page) -> None:
    page.wait_for_function(
        """() => Array.from(document.querySelectorAll('[class*="_value_"]'))
             .some((e) => /^\\d+\\/\\d+$/.test(e.textContent.trim()))"""
    )


def measure(browser, base: str, weak: bool, runs: int, network: dict, cpu_slowdown: int) -> dict:
    """Median ms of Barracks' cold load and of each builder action on the 50-unit list."""
    the_list = build_list(base)
    results: dict[str, list[float]] = {}
    url = f"/list/{LIST_KEY}/edit"
    for _ in range(runs):
        context, page = _seeded(browser, base, the_list, weak, network, cpu_slowdown)
        start = time.perf_counter()
        page.goto(url, wait_until="commit")
        _wait_total(page)
        results.setdefault("cold load to total (50 units)", []).append((time.perf_counter() - start) * 1000)
        context.close()

    context, page = _seeded(browser, base, the_list, weak, network, cpu_slowdown)
    page.goto(url)
    _wait_total(page)

    inflight = [0]
    page.on("request", lambda request: inflight.__setitem__(0, inflight[0] + 1))
    page.on("requestfinished", lambda request: inflight.__setitem__(0, inflight[0] - 1))
    page.on("requestfailed", lambda request: inflight.__setitem__(0, inflight[0] - 1))

    def quiet(selector: str) -> float:
        # Each page of Barracks fetches its army data again when it mounts and, when the answer
        # is in, stores it and shows its loader meanwhile (the builder goes and comes back): a
        # player waits for that before the next tap, and so does the bench.
        calm, since = 0, time.perf_counter()
        for _ in range(3000):
            if inflight[0] > 0:
                calm = 0
            elif calm == 0:
                calm, since = 1, time.perf_counter()
            else:
                calm += 1
            if calm >= 30:  # 300 ms without a request under way
                break
            page.wait_for_timeout(10)
        page.wait_for_selector(selector, state="visible")
        page.wait_for_timeout(100)
        return since

    def act(name: str, target: str, until: str) -> float:
        if target in ("add", "duplicate", "remove", "open") and "/unit" not in page.url:
            # On a loaded machine the list's buttons can be in before its sections: the infantry
            # section's heading, which these targets are found from, first.
            page.locator('[class*="_description_"]', has_text=ROLE).first.wait_for()
        ms = page.evaluate(_ACT, [target, until, ROLE])
        results.setdefault(name, []).append(ms)
        return ms

    builder = '[data-testid="unit-builder-unit"]'
    on_list = '[class*="_buttons_"] button'
    for n in range(runs):
        quiet(on_list)
        opened = act("add: + (unit page open)", "add", "builder")
        quiet(builder)
        saved = act("add: Save (new total)", "save", "listTotal")
        results.setdefault("add (both waits)", []).append(opened + saved)
        quiet(on_list)
        act("duplicate", "duplicate", "listTotal")
        quiet(on_list)
        act("remove", "remove", "listTotal")
        quiet(on_list)
        act("remove", "remove", "listTotal")  # the unit added above
        quiet(on_list)
        start = time.perf_counter()
        act("open a unit's editor", "open", "builder")
        calm = quiet(builder)
        results.setdefault("open a unit's editor (its data requests done)", []).append((calm - start) * 1000)
        act("men +/-", "menMore" if n % 2 == 0 else "menFewer", "unitPoints")
        quiet(builder)
        act("quality", "quality", "unitPoints")
        quiet(builder)
        act("option", "optionMore" if n % 2 == 0 else "optionFewer", "unitPoints")
        quiet(builder)
        act("save (back to the list)", "save", "listTotal")
    context.close()
    return {name: statistics.median(values) for name, values in results.items()}


# Muster's figure each Barracks figure is compared with (same action, same run, same profile).
PAIRS = [
    ("cold load to total (50 units)", ("load", "50-unit list")),
    ("add (both waits)", ("actions", "add")),
    ("duplicate", ("actions", "duplicate")),
    ("remove", ("actions", "remove")),
    ("open a unit's editor", ("actions", "open a unit's editor (page quiet)")),
    ("men +/-", ("actions", "men +/-")),
    ("quality", ("actions", "quality")),
    ("option", ("actions", "option")),
    ("save (back to the list)", ("actions", "close editor (Done)")),
]


def report(muster: dict, barracks: dict) -> list[tuple[str, float, float]]:
    """Print Muster's and Barracks' figures side by side; returns the compared rows."""
    print(
        f"\n  {'side by side, weak Wi-Fi phone (ratio Muster/Barracks)':54}{'Muster':>10}{'Barracks':>11}{'ratio':>8}"
    )
    rows = []
    for name, (kind, muster_name) in PAIRS:
        entry = muster[kind].get(muster_name)
        if entry is None or name not in barracks:
            continue
        mine, theirs = entry[0], barracks[name]
        rows.append((name, mine, theirs))
        verdict = "met" if mine <= theirs else "NOT met"
        label = name if muster_name == name else f"{name} | {muster_name.replace(' (page quiet)', '')}"
        print(f"  {label[:54]:54}{mine:7.0f} ms{theirs:8.0f} ms{mine / theirs:7.2f}x  {verdict}")
    # A change made from the list, as a player makes it: open the unit, change, close (Muster's
    # Done, Barracks' Save, which is when its list total moves).
    actions = muster["actions"]
    muster_open = actions.get("open a unit's editor (page quiet)", (0,))[0]
    muster_close = actions.get("close editor (Done)", (0,))[0]
    for change in ("men +/-", "quality", "option"):
        if change not in actions or change not in barracks:
            continue
        mine = muster_open + actions[change][0] + muster_close
        theirs = barracks["open a unit's editor"] + barracks[change] + barracks["save (back to the list)"]
        rows.append((f"{change}: open, change, close", mine, theirs))
        verdict = "met" if mine <= theirs else "NOT met"
        label = f"{change}: open + change + Done/Save"
        print(f"  {label:54}{mine:7.0f} ms{theirs:8.0f} ms{mine / theirs:7.2f}x  {verdict}")
    print("  Barracks' steps:")
    for name, ms in barracks.items():
        print(f"    {name:42}{ms:7.0f} ms")
    return rows
