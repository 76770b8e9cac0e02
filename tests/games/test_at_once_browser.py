"""Online, on a phone: a die drawn and an order test show their result at the tap, before the server has
answered, with dice the phone rolled and sent; the server plays those very dice, and where it works
the test out otherwise its board stands and the page says so.

The tap's request is held back (Playwright's route) for the 150 ms round trip of weak club Wi-Fi, the
phone's CPU slowed 4x as in ``bench/gameday_browser_bench.py``; the time from the tap to the result on
screen is measured in the page and printed (``-s``)."""

from __future__ import annotations

from urllib.parse import parse_qs

import pytest
from playwright.sync_api import expect

from armybuilder.games.models import Game
from tests.conftest import PHONE_CONTEXT, wait_until
from tests.games.test_gameday_browser import _game_on_alices_phone, _revision, _step, _tools

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ROUND_TRIP_MS = 150
CPU_SLOWDOWN = 4

# Tap, and the milliseconds until the next frame (the result is painted by then if it is in the page).
TAP = """(selector) => new Promise((done) => {
  window.tappedAt = performance.now();
  window.answeredAt = null;
  document.querySelector(selector).click();
  requestAnimationFrame(() => done(performance.now() - window.tappedAt));
})"""
LISTEN = """() => document.addEventListener("htmx:afterSettle", () => {
  if (window.answeredAt === null) window.answeredAt = performance.now();
})"""


class HeldTaps:
    """A page's taps (its POSTs to act/) held back until the test lets each go, as a slow network would."""

    def __init__(self, page) -> None:
        self.page, self.routes = page, []
        page.route("**/act/", self._hold)

    def _hold(self, route) -> None:
        if route.request.method == "POST":
            self.routes.append(route)
        else:
            route.continue_()

    def sent(self) -> dict[str, list[str]]:
        """The held tap's form. The route's handler runs a moment after the request leaves: polled until it has."""
        for _ in range(600):
            if self.routes:
                return parse_qs(self.routes[0].request.post_data or "")
            self.page.wait_for_timeout(25)
        raise AssertionError("the tap's request was never sent")

    def release(self, *, after_ms: int = 0) -> None:
        """Let the held tap go (after ``after_ms``, the round trip), then wait for the server's board."""
        revision = _revision(self.page)
        if after_ms:
            self.page.wait_for_timeout(after_ms)
        self.routes.pop().continue_()
        wait_until(self.page, "r => document.querySelector('#game-sync').dataset.revision !== r", revision)


def _dice(page, *faces: int) -> None:
    """The phone's next dice (1 to 6, in turn) from crypto.getRandomValues, which game.js rolls with."""
    page.evaluate(
        "faces => { let n = 0; crypto.getRandomValues = (a) => a.fill(faces[n++ % faces.length] - 1); }", faces
    )


def test_online_a_draw_and_an_order_test_show_at_once_and_the_server_plays_the_same_dice(
    django_db_setup, live_server, new_browser_context, monkeypatch
):
    context, page, game = _game_on_alices_phone(live_server, new_browser_context, monkeypatch)
    mine = page.locator("#side-a li.unit")
    squad1, squad2 = mine.nth(1), mine.nth(2)
    key1, key2 = squad1.get_attribute("id")[2:], squad2.get_attribute("id")[2:]
    _step(page, lambda: _tools(squad1).get_by_role("button", name="Add a pin").click())
    _step(page, lambda: _tools(squad2).get_by_role("button", name="Add a pin").click())
    context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})
    page.evaluate(LISTEN)
    taps = HeldTaps(page)
    wait_held = taps.sent

    def answer() -> float:
        """Let the held request go after the round trip; the ms from the tap to its answer on screen."""
        taps.release(after_ms=ROUND_TRIP_MS)
        wait_until(page, "() => window.answeredAt !== null")
        return page.evaluate("() => window.answeredAt - window.tappedAt")

    figures = {}
    # A die drawn: the phone picks it (zeros: Alice's, the first side's), says it at once and sends it.
    _dice(page, 1)
    figures["draw"] = [page.evaluate(TAP, "#draw-die")]
    expect(page.locator("#game-bar .die-at-once")).to_have_text("Die drawn: alice")
    expect(page.locator("#log-lines li.log-local").first).to_have_text("Turn 1 · Die drawn: alice")
    # The pinned squads' tests are worked out here (Regular 9, one pin: 8); the others take the die.
    expect(squad1.locator(".offline-test .order-test")).to_contain_text("8 or less")
    tank_fire = mine.nth(3).locator("button[name=order][value=fire]")
    expect(tank_fire).to_be_visible()
    expect(tank_fire).to_be_disabled()  # an order sent before the server has the die would be refused
    sent = wait_held()
    assert sent["action"] == ["draw"] and sent["side"] == ["a"]
    assert game.actions.count() == 2  # the two pins: the draw is still on its way
    figures["draw"].append(answer())
    expect(page.locator("#current-die")).to_contain_text("Die drawn: alice")
    expect(page.locator("#game-bar .die-at-once")).to_have_count(0)
    expect(tank_fire).to_be_enabled()
    draw = Game.objects.get().actions.last()
    assert (draw.kind, draw.payload["side"], draw.payload["data"]) == ("draw", "a", {})

    # Squad 1's order test, rolled here (5+5 against 8: failed, Down), shown at once.
    _dice(page, 5)
    figures["order test"] = [page.evaluate(TAP, f"#u-{key1} button[name=order][value=advance]")]
    expect(squad1.locator(".badge-order")).to_have_text("Down")
    line = "Turn 1 · U2: Advance · order test 5+5 against 8 · failed: Down"
    expect(page.locator("#last-order")).to_have_text(line.replace("U2", squad1.locator(".unit-name").inner_text()))
    expect(page.locator("#log-lines li.log-local")).to_have_count(1)
    sent = wait_held()
    assert (sent["die1"], sent["die2"], sent["phone_rolled"]) == (["5"], ["5"], ["die1 die2"])
    assert Game.objects.get().actions.count() == 3
    figures["order test"].append(answer())
    order = Game.objects.get().actions.last()
    assert order.payload["data"]["dice"] == [5, 5] and "typed" not in order.payload["data"]
    assert Game.objects.get().state().unit(key1).order == "down"
    expect(page.locator("#log-lines li", has_text="order test 5+5")).to_have_count(1)
    expect(page.locator("#log-lines li.log-local")).to_have_count(0)
    expect(page.locator("#game-bar .message-error")).to_have_count(0)
    assert "dice typed by a player" not in page.locator("#log-lines li").first.inner_text()

    # A page that worked squad 2's morale out wrong (one too high): 4+5 passes here, fails on the
    # server (8). The server's board stands, and the page says so.
    _dice(page, 1)
    held_draw = page.evaluate(TAP, "#draw-die")
    wait_held()
    answer()
    squad2.evaluate("row => { row.dataset.morale = '10'; }")
    _dice(page, 4, 5)
    page.evaluate(TAP, f"#u-{key2} button[name=order][value=fire]")
    expect(squad2.locator(".badge-order")).to_have_text("Fire")
    wait_held()
    answer()
    expect(squad2.locator(".badge-order")).to_have_text("Down")
    expect(page.locator("#game-bar .at-once-differs")).to_contain_text("worked this out differently")
    expect(page.locator("#game-bar .at-once-differs")).to_contain_text("Down")
    assert Game.objects.get().state().unit(key2).order == "down"
    page.unroute("**/act/")
    print(f"\ntap to result / to the server's answer, ms (150 ms round trip, CPU {CPU_SLOWDOWN}x):")
    for name, (at_once, answered) in figures.items():
        print(f"  {name}: {at_once:.0f} / {answered:.0f}")
    print(f"  second draw: {held_draw:.0f}")


def test_the_share_link_phone_shows_a_draw_and_an_order_test_at_once_too(
    django_db_setup, live_server, new_browser_context, monkeypatch
):
    """Bob's phone, by the share link of a game Alice plays on her phone (not a two-phone game), shows
    its taps' results before the server answers, as hers do; offline it still only follows."""
    _alice, _page, game = _game_on_alices_phone(live_server, new_browser_context, monkeypatch)
    context = new_browser_context(**PHONE_CONTEXT)
    context.set_default_timeout(15_000)
    bob = context.new_page()
    bob.goto(f"/g/{game.share_token}/")
    sync = bob.locator("#game-sync")
    assert sync.get_attribute("data-one-phone") is None and sync.get_attribute("data-two-phones") is None
    unit = bob.locator("#side-b li.unit").first
    key = unit.get_attribute("id")[2:]
    _step(bob, lambda: _tools(unit).get_by_role("button", name="Add a pin").click())
    taps = HeldTaps(bob)
    sent, answer = taps.sent, taps.release

    # A die of Bob's side: the phone's random number is the first past Alice's dice left.
    alices = int(bob.locator("#dice-a strong").inner_text())
    _dice(bob, alices + 1)
    bob.click("#draw-die")
    expect(bob.locator("#game-bar .die-at-once")).to_have_text("Die drawn: Bob")
    expect(unit.locator(".offline-test .order-test")).to_contain_text("or less")
    assert sent()["side"] == ["b"] and game.actions.count() == 1  # the pin: the draw is on its way
    answer()
    expect(bob.locator("#current-die")).to_contain_text("Die drawn: Bob")

    # Its pinned unit's order test, rolled here (1+1 passes), shown at once.
    _dice(bob, 1)
    unit.locator("button[name=order][value=advance]").click()
    expect(unit.locator(".badge-order")).to_have_text("Advance")
    expect(bob.locator("#log-lines li.log-local")).to_contain_text("order test 1+1")
    body = sent()
    assert (body["die1"], body["die2"], body["phone_rolled"]) == (["1"], ["1"], ["die1 die2"])
    assert game.actions.count() == 2
    answer()
    assert Game.objects.get().state().unit(key).order == "advance"
    expect(bob.locator("#log-lines li.log-local")).to_have_count(0)
    bob.unroute("**/act/")
