"""Browser benchmark of a game-day tap: what a player feels, and what the server pays.

Run from the repository root: ``.venv/bin/python bench/gameday_browser_bench.py [--runs N]``.

It starts a game of the builder bench's 50-unit list against ten stand-in dice (60 units on the
board) in a temporary SQLite database, serves the app from a separate process (as
``builder_browser_bench.py`` does) and drives Chromium at 390x844, as is and as the phone on weak
club Wi-Fi of that bench (150 ms round trip, 1.6/0.75 Mbps, CPU slowed 4x). For each profile it
measures, as medians of ``--runs`` (15), from the tap to the new figure on screen, with the
requests each tap made and their bytes on the wire and decoded:

* a pin (+1 then -1 on the 22nd unit, a rifle section, its tools open);
* a casualty (-1 then +1 model);
* a recorded die and the order that spends it (every row of the side changes: the heaviest tap).

Then, in this process through Django's test client, the server's cost of each against ``/ping/``
(medians of ``--server-runs``, 200): the pin as a fragment (what the page now sends: the mark
and the prints of the board the phone shows, kept up to date from each answer as game.js does), the pin
answered with the whole board (what a tap cost before fragments, and still the answer to a phone
whose board cannot be brought up to date), the two-phone poll after the other phone's pin, and a
builder change (men +1 on a 50-unit list). The targets: on the phone profile a tap
within the round trip + 100 ms; a tap's server cost within 2x a builder change.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlencode

sys.path.insert(0, str(Path(__file__).resolve().parent))
import builder_browser_bench as bbb  # noqa: E402 (the bench folder is not a package)

ROOT = bbb.ROOT
RTT_MS = bbb.RTT_MS
UNIT_INDEX = 21  # the unit tapped: a rifle section of six men (every tenth unit is an officer of two)

# Taps a button and resolves with the milliseconds until ``watch``'s text differs from before.
_TAP = """
async ([selector, watch]) => {
  const text = () => (document.querySelector(watch) || {}).textContent;
  const before = text();
  const el = document.querySelector(selector);
  if (!el) throw new Error('no element ' + selector);
  const done = new Promise((resolve) => {
    const observer = new MutationObserver(() => {
      if (text() !== before) { observer.disconnect(); resolve(performance.now()); }
    });
    observer.observe(document.body, {childList: true, subtree: true, characterData: true});
  });
  const start = performance.now();
  el.click();
  return (await done) - start;
}
"""


# The board's revision: on #game-sync since fragments, on #game before (the bench runs on both).
_REVISION = "() => (document.querySelector('#game-sync') || document.querySelector('#game')).dataset.revision"


def _start_game(user, army_list):
    from armybuilder.games.services import game_start, lists_for_game

    loaded = lists_for_game().get(pk=army_list.pk)
    return game_start(owner=user, army_list=loaded, my_name="Bench", opponent_name="Bob", opponent_dice=10)


def _open_tools(page, unit: str) -> None:
    opener = "k => { const d = document.querySelector('#u-' + k + ' details.unit-tools'); if (d) d.open = true; }"
    page.evaluate(opener, unit)


def taps(browser, base, cookie, game, unit: str, weak: bool, runs: int) -> dict:
    context, page = bbb._context(browser, base, cookie, weak, {"width": 390, "height": 844})
    page.goto(f"/games/{game.pk}/")
    page.wait_for_selector(f"#u-{unit}")
    traffic = bbb.Traffic(page)
    results: dict[str, list] = {}
    row = f"#u-{unit}"

    def tap(name: str, selector: str, watch: str) -> None:
        _open_tools(page, unit)
        ms = page.evaluate(_TAP, [selector, watch])
        page.wait_for_timeout(0)
        items = traffic.take()
        results.setdefault(name, []).append((ms, len(items), sum(i[1] for i in items), sum(i[2] for i in items)))

    pins = f"{row} form:has(input[name=action][value=pins])"
    models = f"{row} form:has(input[name=action][value=casualties])"
    for n in range(runs):
        tap("pin", f"{pins} button[name=delta][value='{1 if n % 2 == 0 else -1}']", f"{pins} strong")
        tap("casualty", f"{models} button[name=delta][value='{1 if n % 2 == 0 else -1}']", f"{models} strong")
        tap("record a die", ".game-bar button[name=side][value=a]", "#current-die")
        tap("order (spends the die)", f"{row} button[name=order][value=fire]", f"{row} .unit-status")
        # Undo the order and the die, untimed, so that every run taps the same board.
        for _ in range(2):
            before = page.evaluate(_REVISION)
            page.evaluate("() => document.querySelector('#undo').click()")
            for _ in range(1000):
                if page.evaluate(_REVISION) != before:
                    break
                page.wait_for_timeout(10)
        traffic.take()
    context.close()
    return {
        name: (
            statistics.median(s[0] for s in samples),
            max(s[1] for s in samples),
            statistics.median(s[2] for s in samples),
            statistics.median(s[3] for s in samples),
        )
        for name, samples in results.items()
    }


def server_costs(user, game, army_list, unit: str, runs: int) -> dict[str, float]:
    """Median ms of each request through the test client, as multiples of /ping/ (in this process)."""
    from django.conf import settings
    from django.test import Client

    settings.RATELIMIT_ENABLE = False
    client = Client()
    client.force_login(user)
    other = Client()  # the opponent's phone, by the share link
    htmx = {"HX-Request": "true"}
    base = f"/games/{game.pk}/"
    entry = army_list.entries.filter(unit__slug="rifle-section").order_by("position")[20]
    bob = f"/g/{game.share_token}/"
    bob_unit = game.setup["sides"][1]["units"][0]["key"]

    # The board Alice's phone shows, as game.js keeps it: its mark and the print of each row and
    # panel, brought up to date by every answer (the whole board replaces them all), and sent with
    # each tap and poll.
    phone: dict = {"seen": "0-0", "prints": {}}

    def shows(html: str) -> None:
        found = re.search(r'id="game-sync"[^>]*data-seen="([^"]+)"', html)
        if found:
            phone["seen"] = found.group(1)
        pieces = {
            re.search(r'\bid="([^"]+)"', tag).group(1): re.search(r'data-print="([^"]*)"', tag).group(1)
            for tag in re.findall(r"<[a-z]+ [^>]*\bdata-print=[^>]*>", html)
        }
        phone["prints"] = pieces if 'id="game"' in html else phone["prints"] | pieces

    def sent() -> dict[str, str]:
        return {"seen": phone["seen"], "prints": ",".join(f"{k}:{v}" for k, v in phone["prints"].items())}

    def timed(call, fragment: bool = False) -> float:
        start = time.perf_counter()
        response = call()
        took = (time.perf_counter() - start) * 1000
        assert response.status_code == 200, response.status_code
        assert not fragment or "HX-Retarget" not in response, "a fragment was measured as the whole board"
        shows(response.content.decode())
        return took

    counts: dict[str, int] = {}

    def flip(name: str) -> bool:
        """Alternates per endpoint, so that each goes back and forth (pins never reach the limit)."""
        counts[name] = counts.get(name, 0) + 1
        return counts[name] % 2 == 1

    def pin_fragment() -> float:
        data = {"action": "pins", "unit": unit, "delta": "1" if flip("fragment") else "-1", **sent()}
        return timed(lambda: client.post(f"{base}act/", data, headers=htmx), fragment=True)

    def pin_whole_board() -> float:
        data = {"action": "pins", "unit": unit, "delta": "1" if flip("whole") else "-1"}
        return timed(lambda: client.post(f"{base}act/", data, headers=htmx))

    def poll() -> float:
        game.refresh_from_db()
        url = f"{base}?{urlencode({'since': game.revision, **sent()})}"
        moved = other.post(f"{bob}act/", {"action": "pins", "unit": bob_unit, "delta": "1" if flip("poll") else "-1"})
        assert moved.status_code == 302, moved.status_code
        return timed(lambda: client.get(url, headers=htmx), fragment=True)

    def builder_change() -> float:
        url = f"/lists/{army_list.pk}/entries/{entry.pk}/models/"
        return timed(lambda: client.post(url, {"models": "7" if flip("builder") else "6"}, headers=htmx))

    shows(client.get(base).content.decode())  # the phone opens the game
    endpoints = {
        "/ping/": lambda: timed(lambda: client.get("/ping/")),
        "tap: pin, answered with fragments": pin_fragment,
        "tap: pin, answered with the whole board": pin_whole_board,
        "poll after the other phone's pin": poll,
        "builder change: men +1 (50 units)": builder_change,
    }
    for measure in endpoints.values():  # warm up: imports, templates, connections
        for _ in range(5):
            measure()
    timings: dict[str, list[float]] = {label: [] for label in endpoints}
    for _ in range(runs):
        for label, measure in endpoints.items():
            timings[label].append(measure())
    return {label: statistics.median(values) for label, values in timings.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15, help="browser measurements per figure (default 15)")
    parser.add_argument("--server-runs", type=int, default=200, help="server measurements per figure (default 200)")
    parser.add_argument("--json", help="also write the figures to this file")
    parser.add_argument("--server-only", action="store_true", help="only the server's cost, no browser")
    args = parser.parse_args()
    shm = Path("/dev/shm")
    tmp = Path(tempfile.mkdtemp(prefix="muster-gbench-", dir=shm if shm.is_dir() and os.access(shm, os.W_OK) else None))
    db_path, floor_file = tmp / "bench.sqlite3", tmp / "floor.html"
    server = None
    try:
        bbb._setup_django(db_path)
        from django.core.management import call_command

        call_command("migrate", verbosity=0, interactive=False)
        user, lists = bbb._build_lists()
        cookie = bbb._session_cookie(user)
        game = _start_game(user, lists[50])
        unit = game.setup["sides"][0]["units"][UNIT_INDEX]["key"]
        port = bbb._free_port()
        base = f"http://127.0.0.1:{port}"
        floor_file.write_bytes(b"")
        server = subprocess.Popen(
            [sys.executable, bbb.__file__, "--serve", str(port), str(db_path), str(floor_file)], cwd=ROOT
        )
        bbb._wait_for(f"{base}/ping/")

        from playwright.sync_api import sync_playwright

        sys.path.insert(0, str(ROOT / "tests"))
        from conftest import CHROMIUM_ARGS, chromium_path

        figures: dict = {
            "runs": args.runs,
            "load": [os.getloadavg()[0]],
            "units": sum(len(side["units"]) for side in game.setup["sides"]),
        }
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium_path(), headless=True, args=CHROMIUM_ARGS)
            for weak in () if args.server_only else (False, True):
                profile = "weak Wi-Fi phone" if weak else "normal"
                figures[profile] = taps(browser, base, cookie, game, unit, weak, args.runs)
            browser.close()
        server.terminate()
        server.wait(10)
        server = None
        figures["server"] = server_costs(user, game, lists[50], unit, args.server_runs)
        figures["load"].append(os.getloadavg()[0])
        _report(figures)
        if args.json:
            Path(args.json).write_text(json.dumps(figures, indent=1))
    finally:
        if server is not None:
            server.terminate()
            server.wait(10)
        shutil.rmtree(tmp, ignore_errors=True)


def _report(figures: dict) -> None:
    before, after = figures["load"]
    print(f"game-day bench: a game of {figures['units']} units, medians of {figures['runs']}, headless Chromium")
    print(f"load average {before:.2f} -> {after:.2f} ({os.cpu_count()} CPUs): above that, every time is inflated")
    for profile in [p for p in ("normal", "weak Wi-Fi phone") if p in figures]:
        print(
            f"\n[{profile}]"
            + (f" {RTT_MS} ms RTT, 1.6/0.75 Mbps, CPU x{bbb.CPU_SLOWDOWN}" if "weak" in profile else "")
        )
        print(f"  {'tap':32}{'median':>10}{'requests':>10}{'wire':>10}{'html':>10}")
        for name, (ms, requests, wire, html) in figures[profile].items():
            verdict = ""
            if "weak" in profile:
                verdict = "met" if ms <= RTT_MS + 100 else f"NOT <= {RTT_MS + 100} ms"
            print(f"  {name:32}{ms:7.0f} ms{requests:10d}{wire / 1024:7.1f} KB{html / 1024:7.1f} KB  {verdict}")
    server = figures["server"]
    ping = server["/ping/"]
    builder = server["builder change: men +1 (50 units)"]
    print("\n[server, in process] median ms, x /ping/, x a builder change")
    for label, ms in server.items():
        print(f"  {label:44}{ms:8.2f} ms{ms / ping:8.1f}x{ms / builder:8.2f}x")
    tap = server["tap: pin, answered with fragments"]
    print(f"  a tap within 2x a builder change: {'met' if tap <= 2 * builder else 'NOT met'}")


if __name__ == "__main__":
    main()
