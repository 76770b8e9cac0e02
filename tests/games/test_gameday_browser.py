"""Game day on a 390x844 phone: taps answer with fragments, the opponent sees no Undo
they cannot use, the back button after "Odds now" shows the board as it is, and a game on one
phone is played offline for a turn and synced when the network is back."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from armybuilder.games import views
from armybuilder.games.models import Game
from tests.conftest import PHONE_CONTEXT, log_in, wait_until
from tests.games.test_game_browser import FirstDie, _shot, phone_first_die
from tests.games.test_views import start
from tests.lists import factories as list_factories
from tests.playsheets.factories import alice_with_a_list, make_playsheet_list, make_rules_edition
from tests.resolver.factories import make_rule

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _game_on_alices_phone(live_server, new_browser_context, monkeypatch):
    """Alice on her phone with a game against Bob (two stand-in dice), on its board."""
    monkeypatch.setattr(views, "server_rng", FirstDie())
    context = new_browser_context(**PHONE_CONTEXT)
    context.set_default_timeout(15_000)
    phone_first_die(context)
    army_list = alice_with_a_list(context, live_server)
    page = context.new_page()
    page.goto(f"/games/new/?list={army_list.pk}")
    page.check("input[name=opponent][value=dice]")
    page.fill("input[name=opponent_name]", "Bob")
    page.fill("input[name=opponent_dice]", "2")
    page.click("button:has-text('Start the game')")
    page.wait_for_url("**/games/*/")
    return context, page, Game.objects.get()


def _revision(page) -> str:
    return page.locator("#game-sync").get_attribute("data-revision")


def _step(page, action) -> str:
    """Tap, wait for the answer to be swapped in; the answer's body."""
    before = _revision(page)
    with page.expect_response(lambda r: r.request.method == "POST") as answer:
        action()
    wait_until(page, "r => document.querySelector('#game-sync').dataset.revision !== r", before)
    return answer.value.text()


def _tools(unit):
    if unit.locator("details.unit-tools").get_attribute("open") is None:
        unit.locator("details.unit-tools summary").click()
    return unit


def test_a_tap_answers_with_the_row_the_bar_and_the_log_line(
    django_db_setup, live_server, new_browser_context, monkeypatch
):
    _context, page, game = _game_on_alices_phone(live_server, new_browser_context, monkeypatch)
    mine = page.locator("#side-a li.unit")
    squad1, squad2 = mine.nth(1), mine.nth(2)
    # A row the taps do not change stays the very same element: the board is not re-rendered.
    page.evaluate("document.querySelector('#side-b li.unit').dataset.untouched = 'yes'")

    body = _step(page, lambda: _tools(squad2).get_by_role("button", name="Add a pin").click())
    assert 'id="game"' not in body and body.count('id="u-') == 1
    assert "1 pin" in squad2.locator(".badge-pins").inner_text()
    assert "pins +1 (now 1)" in page.locator("#log-lines li").first.text_content()
    assert page.locator("#log-count").text_content().strip() == "Game log (1 action)"

    _step(page, lambda: page.locator("#game-bar button[name=side][value=a]").click())
    body = _step(page, lambda: squad1.locator("button[name=order][value=fire]").click())
    assert 'id="game"' not in body
    assert squad1.locator(".badge-order").inner_text() == "Fire"
    assert squad2.locator(".order-form").count() == 0  # the die is spent: every order form went
    assert page.locator("#dice-a strong").inner_text() == "3"
    assert "Fire" in page.locator("#last-order").inner_text()
    _step(page, lambda: page.click("#undo"))
    assert squad1.locator(".badge-order").count() == 0 and squad1.locator(".order-form").count() == 1
    assert page.locator("#log-lines li").count() == 2
    assert page.evaluate("document.querySelector('#side-b li.unit').dataset.untouched") == "yes"
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0
    assert Game.objects.get().revision == int(_revision(page))


def test_the_opponents_phone_shows_no_undo_it_cannot_use(
    django_db_setup, live_server, new_browser_context, monkeypatch
):
    _context, page, game = _game_on_alices_phone(live_server, new_browser_context, monkeypatch)
    _step(page, lambda: page.locator("#game-bar button[name=side][value=b]").click())
    bob = new_browser_context(**PHONE_CONTEXT).new_page()
    bob.goto(f"/g/{game.share_token}/")
    assert page.locator("#undo").is_visible()
    assert bob.locator("#undo").count() == 0
    _shot(bob, "game-opponent-phone")
    # Bob's own order is his to undo; Alice's units show him no tools.
    bob_unit = bob.locator("#side-b li.unit").first
    _step(bob, lambda: bob_unit.locator("button[name=order][value=advance]").click())
    assert bob.locator("#undo").is_visible()
    assert bob.locator("#side-a details.unit-tools").count() == 0
    _step(bob, lambda: bob.click("#undo"))
    assert bob.locator("#undo").count() == 0  # the last action is Alice's draw again


def test_the_poll_brings_only_the_other_phones_row_against_the_prints_it_sends(
    django_db_setup, live_server, new_browser_context, monkeypatch
):
    _context, page, game = _game_on_alices_phone(live_server, new_browser_context, monkeypatch)
    page.evaluate("document.querySelector('#side-a li.unit').dataset.untouched = 'yes'")
    bob = new_browser_context(**PHONE_CONTEXT).new_page()
    bob.goto(f"/g/{game.share_token}/")
    bob_unit = bob.locator("#side-b li.unit").first
    key = bob_unit.get_attribute("id")

    def moved(response) -> bool:
        return response.request.method == "GET" and "since=" in response.url and response.status == 200

    with page.expect_response(moved, timeout=20_000) as poll:
        _step(bob, lambda: _tools(bob_unit).get_by_role("button", name="Add a pin").click())
    assert "prints=" in poll.value.url and "game%3A" in poll.value.url  # what Alice's page shows
    body = poll.value.text()
    assert 'id="game"' not in body and re.findall(r'id="(u-[^"]+)"', body) == [key]
    expect(page.locator(f"#{key} .badge-pins")).to_have_text("1 pin")
    assert page.evaluate("document.querySelector('#side-a li.unit').dataset.untouched") == "yes"
    sent = page.locator(f"#{key}").get_attribute("data-print")
    assert sent == re.search(rf'data-print="([^"]+)" id="{key}"', body).group(1)


def test_back_from_odds_now_shows_the_board_as_it_is(django_db_setup, live_server, new_browser_context, monkeypatch):
    _context, page, game = _game_on_alices_phone(live_server, new_browser_context, monkeypatch)
    squad2 = page.locator("#side-a li.unit").nth(2)
    # Two taps after the page was loaded: the page the browser first got is two actions old.
    _step(page, lambda: _tools(squad2).get_by_role("button", name="Add a pin").click())
    _step(page, lambda: squad2.get_by_role("button", name="Add a pin").click())
    squad2.locator("button:has-text('Odds now')").click()
    page.wait_for_url("**/calc/shooting/?*")
    assert page.locator("input[name=firer_pins]").input_value() == "2"
    page.go_back()
    page.wait_for_url("**/games/*/")
    assert "2 pins" in page.locator("#side-a li.unit").nth(2).locator(".badge-pins").inner_text()
    assert _revision(page) == str(Game.objects.get().revision)
    assert page.locator("#log-lines li").count() == 2


def test_a_one_phone_game_is_played_offline_for_a_turn_and_synced(
    django_db_setup, live_server, new_browser_context, monkeypatch
):
    context, page, game = _game_on_alices_phone(live_server, new_browser_context, monkeypatch)
    board = f"/games/{game.pk}/"
    # The first load installs the service worker; from the reload on it answers and keeps the board.
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.reload()
    wait_until(page, "navigator.serviceWorker.controller !== null")
    squad1 = page.locator("#side-a li.unit").nth(1)
    _step(page, lambda: _tools(squad1).get_by_role("button", name="Add a pin").click())
    wait_until(page, "p => caches.match(p).then(r => r && r.text()).then(t => !!t && t.includes('1 pin'))", board)

    context.set_offline(True)
    wait_until(page, "document.documentElement.classList.contains('offline')")
    assert page.locator("#offline-play").is_visible()
    assert page.locator(".odds-form .offline-only").first.is_hidden()  # inside closed tools
    _tools(squad1)
    assert "needs the network" in squad1.locator(".odds-form .offline-only").inner_text()
    offline_panel = page.locator("#offline-play")
    offline_panel.locator("button[name=side][value=a]").click()
    # Squad 1 is pinned: its order test's target is worked out on the phone, and typed dice are taken.
    test = squad1.locator(".offline-order .offline-test")
    assert "order test, 8 or less on 2D6" in test.locator(".order-test").inner_text()  # Regular 9, one pin
    test.locator("input[name=die1]").fill("2")
    test.locator("input[name=die2]").fill("3")
    squad1.locator(".offline-order button[name=order][value=fire]").click()
    assert "Waiting to be sent" in squad1.locator(".badge-queued").last.inner_text()
    assert "Order test passed (2+3): Fire" in page.locator("#offline-note").inner_text()
    offline_panel.locator("button[name=side][value=b]").click()
    page.locator("#side-b li.unit").first.locator(".offline-order button[name=order][value=down]").click()
    _tools(page.locator("#side-b li.unit").nth(1)).get_by_role("button", name="Add a pin").click()
    page.check("#end-turn input[name=force]")
    dice_a = page.locator("#dice-a").inner_text().split("/")[1].strip()
    page.click("#end-turn-button")
    assert page.locator("#offline-waiting").inner_text() == "Waiting to be sent: 6"
    # The bag is refilled on the phone: every die of side a, and side b's but the one kept on Down.
    assert "Turn 2" in page.locator(".game-turn").inner_text()
    assert page.locator("#dice-a strong").inner_text() == dice_a
    assert page.locator("#dice-b strong").inner_text() == "1"
    assert "the bag is refilled" in page.locator("#offline-note").inner_text()
    assert Game.objects.get().actions.count() == 1  # nothing reached the server
    _shot(page, "game-offline-queued-phone", squad1)

    # The board opens offline at the last state this phone saw, queue included (once it has kept it).
    wait_until(page, "p => caches.match(p).then(r => r && r.text()).then(t => !!t && t.includes('Turn 2'))", board)
    page.reload()
    assert page.locator("#offline-title").count() == 0
    assert squad1.locator(".badge-pins").count() == 0  # its passed test took its pin off
    assert page.locator("#side-b li.unit").nth(1).locator(".badge-pins").inner_text() == "1 pin"
    assert page.locator("#offline-waiting").inner_text() == "Waiting to be sent: 6"

    context.set_offline(False)
    wait_until(page, "() => !Object.keys(localStorage).some(k => k.startsWith('muster-queue:'))", timeout=20)
    game = Game.objects.get()
    # The phone showed Turn 2 already: wait for the server's board (its revision) to be swapped in.
    wait_until(page, "r => document.querySelector('#game-sync').dataset.revision === r", str(game.revision))
    assert "Turn 2" in page.locator(".game-turn").inner_text()
    assert [a.kind for a in game.actions.all()] == ["pins", "draw", "order", "draw", "order", "pins", "end_turn"]
    assert game.actions.all()[2].payload["data"]["dice"] == [2, 3]  # the dice typed offline, replayed
    assert page.locator("#dice-b strong").inner_text() == "1"  # the server agrees with the phone
    assert game.turn == 2 and _revision(page) == str(game.revision)
    assert page.locator("#offline-conflict").is_hidden()
    assert page.locator("#log-lines li").count() == 7


def test_an_offline_action_the_server_refuses_is_kept_and_said(
    django_db_setup, live_server, new_browser_context, monkeypatch
):
    context, page, game = _game_on_alices_phone(live_server, new_browser_context, monkeypatch)
    context.set_offline(True)
    wait_until(page, "document.documentElement.classList.contains('offline')")
    page.locator("#offline-play button[name=side][value=b]").click()
    page.locator("#side-b li.unit").first.locator(".offline-order button[name=order][value=fire]").click()
    # Meanwhile the game moved on elsewhere (the other side drew on another device).
    Game.objects.filter(pk=game.pk).update(revision=5)
    context.set_offline(False)
    wait_until(page, "() => !document.getElementById('offline-conflict').hidden", timeout=20)
    assert "The game moved on" in page.locator("#offline-conflict-text").inner_text()
    assert "kept on this phone" in page.locator("#offline-conflict-text").inner_text()
    assert page.evaluate("Object.keys(localStorage).filter(k => k.startsWith('muster-queue:')).length") == 1
    page.click("#offline-drop")  # the refused draw goes; the order after it is refused in turn
    wait_until(page, "() => document.getElementById('offline-conflict-text').textContent.includes('Draw a die')")
    page.click("#offline-drop")
    wait_until(page, "() => !Object.keys(localStorage).some(k => k.startsWith('muster-queue:'))")
    assert Game.objects.get().actions.count() == 0


def _queue(page) -> list[dict]:
    return page.evaluate(
        "() => Object.keys(localStorage).filter(k => k.startsWith('muster-queue:'))"
        ".flatMap(k => JSON.parse(localStorage.getItem(k)))"
    )


def test_an_order_test_offline_is_rolled_on_the_phone_replayed_and_taken_back(
    django_db_setup, live_server, new_browser_context, monkeypatch
):
    context, page, game = _game_on_alices_phone(live_server, new_browser_context, monkeypatch)
    squad1, squad2 = page.locator("#side-a li.unit").nth(1), page.locator("#side-a li.unit").nth(2)
    _step(page, lambda: _tools(squad1).get_by_role("button", name="Add a pin").click())
    _step(page, lambda: page.locator("#game-bar button[name=side][value=a]").click())
    # The die was drawn online: squad 1's test comes from the server, with its target.
    assert squad1.locator(".order-test").get_attribute("data-morale") == "8"

    context.set_offline(True)
    wait_until(page, "document.documentElement.classList.contains('offline')")
    assert page.locator("#offline-undo").is_hidden()  # nothing waits: nothing to take back
    squad1.locator("input[name=die1]").fill("6")
    squad1.locator("input[name=die2]").fill("6")
    squad1.locator("button[name=order][value=fire]").click()
    assert "FUBAR (6+6), chart roll" in page.locator("#offline-note").inner_text()
    assert squad1.locator(".badge-test").inner_text() == "FUBAR"
    page.evaluate("window.scrollTo(0, 0)")
    _shot(page, "game-offline-fubar-phone")

    # A pin and a die drawn offline: squad 2's target is worked out here, its dice rolled here.
    panel = page.locator("#offline-play")
    _tools(squad2).get_by_role("button", name="Add a pin").click()
    panel.locator("button[name=side][value=a]").click()
    assert "8 or less on 2D6" in squad2.locator(".offline-test .order-test").inner_text()
    squad2.locator(".offline-order button[name=order][value=advance]").click()
    queued = _queue(page)
    assert len(queued) == 4
    rolled = dict(p.split("=", 1) for p in queued[-1]["body"].split("&"))
    d1, d2 = int(rolled["die1"]), int(rolled["die2"])
    assert rolled["morale"] == "8" and 1 <= d1 <= 6 and 1 <= d2 <= 6
    expected = "FUBAR" if (d1, d2) == (6, 6) else ("passed" if d1 + d2 <= 8 else "failed")
    assert f"{expected} ({d1}+{d2})" in page.locator("#offline-note").inner_text()

    # Undo offline takes back the last action still waiting: squad 2's order, then the drawn die.
    page.click("#offline-undo")
    assert page.locator("#offline-waiting").inner_text() == "Waiting to be sent: 3"
    assert squad2.locator(".badge-test").count() == 0
    assert squad2.locator(".offline-order").count() == 1  # the die is back, waiting for an order
    page.click("#offline-undo")
    assert page.locator("#offline-waiting").inner_text() == "Waiting to be sent: 2"
    assert squad2.locator(".offline-order").count() == 0
    assert squad1.locator(".badge-test").inner_text() == "FUBAR"  # the earlier ones stay shown
    assert len(_queue(page)) == 2

    context.set_offline(False)
    wait_until(page, "() => !Object.keys(localStorage).some(k => k.startsWith('muster-queue:'))", timeout=20)
    game = Game.objects.get()
    kinds = [(a.kind, a.payload["data"].get("dice")) for a in game.actions.all()]
    assert kinds == [("pins", None), ("draw", None), ("order", [6, 6]), ("pins", None)]
    assert game.state().unit(squad1.get_attribute("id")[2:]).order == "fubar"
    wait_until(page, "r => document.querySelector('#game-sync').dataset.revision === r", str(game.revision))
    assert page.locator("#offline-conflict").is_hidden()


def test_an_order_test_the_server_decides_otherwise_is_said(
    django_db_setup, live_server, new_browser_context, monkeypatch
):
    context, page, game = _game_on_alices_phone(live_server, new_browser_context, monkeypatch)
    squad1 = page.locator("#side-a li.unit").nth(1)
    _step(page, lambda: _tools(squad1).get_by_role("button", name="Add a pin").click())
    context.set_offline(True)
    wait_until(page, "document.documentElement.classList.contains('offline')")
    # A page that worked the morale out wrong (one too high): 9 passes here, fails on the server (8).
    squad1.evaluate("row => { row.dataset.morale = '10'; }")
    page.locator("#offline-play button[name=side][value=a]").click()
    squad1.locator(".offline-test input[name=die1]").fill("4")
    squad1.locator(".offline-test input[name=die2]").fill("5")
    squad1.locator(".offline-order button[name=order][value=fire]").click()
    assert "passed (4+5)" in page.locator("#offline-note").inner_text()
    context.set_offline(False)
    wait_until(page, "() => !document.getElementById('offline-conflict').hidden", timeout=20)
    text = page.locator("#offline-conflict-text").inner_text()
    assert "came out differently on the server" in text and "Down" in text
    assert [a.kind for a in Game.objects.get().actions.all()] == ["pins", "draw", "order"]


def test_the_first_visit_keeps_the_board_for_offline(django_db_setup, live_server, new_browser_context, monkeypatch):
    context, page, game = _game_on_alices_phone(live_server, new_browser_context, monkeypatch)
    board = f"/games/{game.pk}/"
    # No reload: the worker takes the page over (clients.claim) and the page hands it its board.
    wait_until(page, "navigator.serviceWorker.controller !== null", timeout=20)
    wait_until(page, "p => caches.match(p).then(r => !!r)", board, timeout=20)
    wait_until(page, "() => caches.match('/static/js/game.js', {ignoreSearch: true}).then(r => !!r)", timeout=20)
    context.set_offline(True)
    page.reload()
    assert page.locator("#offline-title").count() == 0
    assert page.locator("#game-sync").get_attribute("data-base") == board
    wait_until(page, "document.documentElement.classList.contains('offline')")
    assert page.locator("#offline-play").is_visible()
    page.locator("#offline-play button[name=side][value=a]").click()  # game.js runs: it queues
    assert page.locator("#offline-waiting").inner_text() == "Waiting to be sent: 1"


def test_an_officers_passed_on_order_is_tested_offline_with_his_bonus(
    django_db_setup, live_server, new_browser_context, monkeypatch
):
    context, page, game = _game_on_alices_phone(live_server, new_browser_context, monkeypatch)
    officer, squad1 = page.locator("#side-a li.unit").nth(0), page.locator("#side-a li.unit").nth(1)
    _step(page, lambda: _tools(squad1).get_by_role("button", name="Add a pin").click())
    _step(page, lambda: page.locator("#game-bar button[name=side][value=a]").click())
    _step(page, lambda: officer.locator("button[name=order][value=advance]").click())
    served = squad1.locator(".snap-form .order-test").get_attribute("data-morale")  # the server's target

    context.set_offline(True)
    wait_until(page, "document.documentElement.classList.contains('offline')")
    squad1.locator(".snap-form input[name=die1]").fill("1")
    squad1.locator(".snap-form input[name=die2]").fill("2")
    squad1.locator(".snap-form button[type=submit]").click()
    assert "Order test passed (1+2): Advance" in page.locator("#offline-note").inner_text()
    assert squad1.locator(".badge-pins").count() == 0
    _shot(page, "game-offline-order-test-phone", squad1)
    body = dict(p.split("=", 1) for p in _queue(page)[0]["body"].split("&"))
    assert body["action"] == "snap" and body["morale"] == served and body["order"] == "advance"

    context.set_offline(False)
    wait_until(page, "() => !Object.keys(localStorage).some(k => k.startsWith('muster-queue:'))", timeout=20)
    game = Game.objects.get()
    snap = game.actions.all()[3]
    assert snap.kind == "snap" and snap.payload["data"]["dice"] == [1, 2]
    assert game.state().unit(snap.payload["unit"]).order == "advance"
    wait_until(page, "r => document.querySelector('#game-sync').dataset.revision === r", str(game.revision))
    assert page.locator("#offline-conflict").is_hidden()


def test_logout_takes_the_waiting_actions_and_the_kept_board_with_it(
    django_db_setup, live_server, new_browser_context, monkeypatch
):
    context, page, game = _game_on_alices_phone(live_server, new_browser_context, monkeypatch)
    context.set_offline(True)
    wait_until(page, "document.documentElement.classList.contains('offline')")
    page.locator("#offline-play button[name=side][value=a]").click()
    mine = "() => Object.keys(localStorage).filter(k => k.startsWith('muster-queue:') || k.startsWith('muster-base:'))"
    assert len(page.evaluate(mine)) == 2  # the queue, and the board an offline undo starts from
    Game.objects.filter(pk=game.pk).update(revision=5)  # the game moved on elsewhere: the queue stays
    context.set_offline(False)
    wait_until(page, "() => !document.getElementById('offline-conflict').hidden", timeout=20)
    page.locator("[data-nav-menu] > summary").click()  # on a phone, "Log out" is in the header's menu
    with page.expect_navigation():
        page.locator("form[action='/accounts/logout/'] button").first.click()
    assert page.evaluate(mine) == []


def _game_in_edition(live_server, new_browser_context, monkeypatch, edition: str, rules: tuple[str, ...] = ()):
    """Alice's one-phone game against Bob (two stand-in dice) in ``edition``, on her phone; her army
    carries the national ``rules`` (slugs)."""
    monkeypatch.setattr(views, "server_rng", FirstDie())
    context = new_browser_context(**PHONE_CONTEXT)
    context.set_default_timeout(15_000)
    phone_first_die(context)
    alice = list_factories.make_user("alice")
    army_list = make_playsheet_list(alice, edition=make_rules_edition(edition))
    for slug in rules:
        army_list.army.national_rules.add(make_rule(army_list.edition, slug))
    log_in(context, live_server, alice)
    page = context.new_page()
    page.goto(f"/games/new/?list={army_list.pk}")
    page.check("input[name=opponent][value=dice]")
    page.fill("input[name=opponent_name]", "Bob")
    page.fill("input[name=opponent_dice]", "2")
    page.click("button:has-text('Start the game')")
    page.wait_for_url("**/games/*/")
    return context, page, Game.objects.get()


def _offline_lines(page) -> list[str]:
    return page.locator("#log-lines li.log-queued").all_text_contents()


def _synced(page, context) -> Game:
    """Back online: the queue sent, and the server's board swapped in; the game as the server has it."""
    context.set_offline(False)
    wait_until(page, "() => !Object.keys(localStorage).some(k => k.startsWith('muster-queue:'))", timeout=20)
    game = Game.objects.get()
    wait_until(page, "r => document.querySelector('#game-sync').dataset.revision === r", str(game.revision))
    assert page.locator("#offline-conflict").is_hidden()
    return game


@pytest.mark.parametrize("edition", ["v2", "v3"])
def test_offline_a_unit_pinned_to_its_morale_routs_and_staying_down_sheds_pins_at_once(
    django_db_setup, live_server, new_browser_context, monkeypatch, edition
):
    context, page, game = _game_in_edition(live_server, new_browser_context, monkeypatch, edition)
    squad1 = page.locator("#side-a li.unit").nth(1)
    name = squad1.locator(".unit-name").inner_text()
    dice_a = page.locator("#dice-a").inner_text()
    context.set_offline(True)
    wait_until(page, "document.documentElement.classList.contains('offline')")
    add_pin = _tools(squad1).get_by_role("button", name="Add a pin")
    for _ in range(9):  # a Regular squad: morale 9, the pin limit the edition routs it at
        add_pin.click()
    # Removed at once, with the log line the server will write, and its die out of the bag.
    assert "unit-destroyed" in squad1.get_attribute("class")
    assert "Destroyed" in squad1.locator(".unit-status").inner_text()
    assert squad1.locator(".badge-queued").inner_text() == "Waiting to be sent \u00d79"  # one badge, counted
    assert squad1.locator("details.unit-tools").count() == 0
    assert _offline_lines(page)[0] == f"Turn 1 · {name}: pins +1 (now 9) · pin limit reached: destroyed"
    in_bag, total = (int(n) for n in dice_a.split(":")[1].split("/"))
    assert page.locator("#dice-a").inner_text().endswith(f"{in_bag - 1} / {total - 1}")
    _shot(page, f"game-offline-rout-{edition}-phone", squad1)

    # The tank: two Immobilised results, a pin each; the second knocks it out in 2nd edition only.
    tank = page.locator("#side-a li.unit").last
    tank_name = tank.locator(".unit-name").inner_text()
    for _ in range(2):
        _tools(tank).get_by_role("button", name="Immobilised").click()
    second = f"Turn 1 · {tank_name}: Immobilised"
    if edition == "v2":
        assert "unit-destroyed" in tank.get_attribute("class")
        assert _offline_lines(page)[0] == second + " · second Immobilised result: knocked out"
    else:
        assert "unit-destroyed" not in tank.get_attribute("class") and tank.get_attribute("data-pins") == "2"
        assert _offline_lines(page)[0] == second

    # Bob's first unit, two pins, goes Down; the turn ends: it sheds a D3 (2nd) or all (3rd) at once.
    bob1 = page.locator("#side-b li.unit").first
    for _ in range(2):
        _tools(bob1).get_by_role("button", name="Add a pin").click()
    page.locator("#offline-play button[name=side][value=b]").click()
    bob1.locator(".offline-order button[name=order][value=down]").click()
    page.check("#end-turn input[name=force]")
    page.click("#end-turn-button")
    end = dict(p.split("=", 1) for p in _queue(page)[-1]["body"].split("&"))
    if edition == "v2":
        d3 = int(end["down_pins"].split("%3A")[1])  # the D3 rolled on the phone, sent with the action
        assert 1 <= d3 <= 3
        lost = min(d3, 2)
    else:
        assert "down_pins" not in end
        lost = 2
    assert bob1.get_attribute("data-pins") == str(2 - lost)
    assert _offline_lines(page)[0] == f"Turn 2 · End of turn 1 · pins lost for staying Down: Unit 1 \u2212{lost}"
    shown = _offline_lines(page)

    game = _synced(page, context)
    state = game.state()
    assert state.unit(squad1.get_attribute("id")[2:]).destroyed_how == "pins"
    assert state.unit("b1").pins == 2 - lost
    # The server's log, line for line, is what the phone wrote offline.
    assert page.locator("#log-lines li").all_text_contents()[: len(shown)] == shown
    assert page.locator("#log-lines li.log-queued").count() == 0


def test_offline_a_fanatic_squad_at_its_pin_limit_stays_until_one_man_is_left(
    django_db_setup, live_server, new_browser_context, monkeypatch
):
    # Death Before Dishonour: Japanese infantry is Fanatic.
    context, page, game = _game_in_edition(
        live_server, new_browser_context, monkeypatch, "v2", rules=("death-before-dishonour",)
    )
    squad1, squad2 = page.locator("#side-a li.unit").nth(1), page.locator("#side-a li.unit").nth(2)
    name1, name2 = squad1.locator(".unit-name").inner_text(), squad2.locator(".unit-name").inner_text()
    assert squad1.get_attribute("data-fanatic") == "1"
    assert page.locator("#side-a li.unit").last.get_attribute("data-fanatic") is None  # the tank is not
    assert "Fanatics: pins do not destroy it while 2+ men are left" in _tools(squad1).inner_text()
    context.set_offline(True)
    wait_until(page, "document.documentElement.classList.contains('offline')")
    for _ in range(10):  # a Regular squad: morale 9, one more for good measure
        _tools(squad1).get_by_role("button", name="Add a pin").click()
    assert "unit-destroyed" not in squad1.get_attribute("class") and squad1.get_attribute("data-pins") == "10"
    assert _offline_lines(page)[0] == f"Turn 1 · {name1}: pins +1 (now 10)"
    # Squad 2 at its limit loses men down to one: it routs with its last but one.
    for _ in range(9):
        _tools(squad2).get_by_role("button", name="Add a pin").click()
    left = int(re.search(r"(\d+)/\d+", squad2.locator(".unit-head .source").inner_text()).group(1))
    for _ in range(left - 2):
        _tools(squad2).get_by_role("button", name="Remove a model (casualty)").click()
    assert "unit-destroyed" not in squad2.get_attribute("class")
    _tools(squad2).get_by_role("button", name="Remove a model (casualty)").click()
    assert "unit-destroyed" in squad2.get_attribute("class")
    assert _offline_lines(page)[0].endswith("(1 left) · pin limit reached: destroyed")
    assert _offline_lines(page)[0].startswith(f"Turn 1 · {name2}: ")
    _shot(page, "game-offline-fanatic-phone", squad1)
    shown = _offline_lines(page)

    game = _synced(page, context)
    state = game.state()
    kept, routed = state.unit(squad1.get_attribute("id")[2:]), state.unit(squad2.get_attribute("id")[2:])
    assert (kept.destroyed, kept.pins) == (False, 10)
    assert (routed.destroyed_how, routed.models) == ("pins", 1)
    assert "unit-destroyed" not in squad1.get_attribute("class")
    assert page.locator("#log-lines li").all_text_contents()[: len(shown)] == shown


def test_offline_a_fubar_shows_its_chart_result_and_a_rally_its_pins_at_once(
    django_db_setup, live_server, new_browser_context, monkeypatch
):
    context, page, game = _game_in_edition(live_server, new_browser_context, monkeypatch, "v2")
    squad1, squad2 = page.locator("#side-a li.unit").nth(1), page.locator("#side-a li.unit").nth(2)
    name1 = squad1.locator(".unit-name").inner_text()
    context.set_offline(True)
    wait_until(page, "document.documentElement.classList.contains('offline')")
    panel = page.locator("#offline-play")
    _tools(squad1).get_by_role("button", name="Add a pin").click()
    panel.locator("button[name=side][value=a]").click()
    squad1.locator(".offline-test input[name=die1]").fill("6")
    squad1.locator(".offline-test input[name=die2]").fill("6")
    squad1.locator(".offline-order button[name=order][value=fire]").click()
    chart = int(dict(p.split("=", 1) for p in _queue(page)[-1]["body"].split("&"))["fubar"])
    result = "FUBAR: friendly fire" if chart <= 2 else "FUBAR: panic"  # the 2nd edition's chart
    assert page.locator("#offline-note").inner_text() == f"FUBAR (6+6), chart roll {chart} · {result}"
    # The dice were typed: the phone's line says so, as the server's will.
    typed = " · dice typed by a player"
    assert _offline_lines(page)[0] == f"Turn 1 · {name1}: Fire · order test 6+6 against 8 · {result}{typed}"
    assert squad1.locator(".badge-test").inner_text() == "FUBAR"

    # Squad 2, three pins, passes a Rally test: one pin for the test, a D6 more (2nd edition).
    for _ in range(3):
        _tools(squad2).get_by_role("button", name="Add a pin").click()
    panel.locator("button[name=side][value=a]").click()
    squad2.locator(".offline-test input[name=die1]").fill("1")
    squad2.locator(".offline-test input[name=die2]").fill("2")
    squad2.locator(".offline-order button[name=order][value=rally]").click()
    rally = int(dict(p.split("=", 1) for p in _queue(page)[-1]["body"].split("&"))["rally"])
    left = max(2 - rally, 0)
    assert squad2.get_attribute("data-pins") == str(left)
    assert _offline_lines(page)[0].endswith(f"order test 1+2 against 6 · passed · pins 3 → {left}{typed}")
    _tools(squad2).get_by_role("button", name="Remove a model (casualty)").click()
    assert _offline_lines(page)[0].endswith(": 1 casualty (9 left)")
    shown = _offline_lines(page)
    _shot(page, "game-offline-fubar-result-phone")

    game = _synced(page, context)
    orders = [a for a in game.actions.all() if a.kind == "order"]
    assert (orders[0].payload["data"]["fubar"], orders[1].payload["data"]["rally"]) == (chart, rally)
    assert game.state().unit(squad2.get_attribute("id")[2:]).pins == left
    assert page.locator("#log-lines li").all_text_contents()[: len(shown)] == shown


def test_a_rout_the_server_decides_otherwise_is_said(django_db_setup, live_server, new_browser_context, monkeypatch):
    context, page, game = _game_on_alices_phone(live_server, new_browser_context, monkeypatch)
    squad1 = page.locator("#side-a li.unit").nth(1)
    context.set_offline(True)
    wait_until(page, "document.documentElement.classList.contains('offline')")
    # A page that has the pin limit wrong (one too high): nine pins rout the squad on the server only.
    squad1.evaluate("row => { row.dataset.limit = '10'; }")
    add_pin = _tools(squad1).get_by_role("button", name="Add a pin")
    for _ in range(9):
        add_pin.click()
    assert "unit-destroyed" not in squad1.get_attribute("class")
    context.set_offline(False)
    wait_until(page, "() => !document.getElementById('offline-conflict').hidden", timeout=20)
    text = page.locator("#offline-conflict-text").inner_text()
    assert "came out differently on the server" in text and "Destroyed" in text
    assert Game.objects.get().state().unit(squad1.get_attribute("id")[2:]).destroyed_how == "pins"
    # The server's board has the last word.
    wait_until(
        page,
        "k => document.getElementById(k).classList.contains('unit-destroyed')",
        "u-" + squad1.get_attribute("id")[2:],
    )


def test_offline_support_rolls_show_their_result_and_replay_the_same_dice(
    django_db_setup, live_server, new_browser_context, monkeypatch
):
    alice = list_factories.make_user("alice")
    army_list = list_factories.make_builder_list(alice, entries=1)  # 2nd edition
    for slug in ("air-superiority", "massed-batteries"):
        army_list.army.national_rules.add(make_rule(army_list.edition, slug))
    context = new_browser_context(**PHONE_CONTEXT)
    context.set_default_timeout(15_000)
    client = log_in(context, live_server, alice)
    game = Game.objects.get(pk=int(start(client, army_list)["Location"].split("/")[2]))
    page = context.new_page()
    page.goto(f"/games/{game.pk}/")
    context.set_offline(True)
    wait_until(page, "document.documentElement.classList.contains('offline')")
    air = page.locator("#support-air-a")
    air.locator("input[name=sdie1]").fill("4")  # the chart's 4: here it comes, a call used
    air.locator("button[type=submit]").click()
    assert air.is_hidden()  # rolled this turn: not offered again until the next
    assert "air strike roll 4: Here it comes! (Air Superiority: 1 call left)" in _offline_lines(page)[0]
    page.locator("#support-radius-a button[type=submit]").click()  # no dice typed: rolled here
    radius = dict(p.split("=", 1) for p in _queue(page)[-1]["body"].split("&"))
    high = max(int(radius["sdie1"]), int(radius["sdie2"]))
    assert _offline_lines(page)[0].endswith(f"the higher kept (Massed Batteries): {high + 6}″")
    shown = _offline_lines(page)

    game = _synced(page, context)
    rolls = [a.payload["data"]["dice"] for a in game.actions.all()]
    assert rolls == [[4], [int(radius["sdie1"]), int(radius["sdie2"])]]
    assert page.locator("#log-lines li").all_text_contents()[: len(shown)] == shown


def test_offline_an_officers_order_is_passed_on_and_replayed(django_db_setup, live_server, new_browser_context):
    alice = list_factories.make_user("alice")
    army_list = list_factories.make_builder_list(alice, entries=2)  # 2nd edition
    list_factories.make_entry(army_list, list_factories.make_officer(army_list.army))
    context = new_browser_context(**PHONE_CONTEXT)
    context.set_default_timeout(15_000)
    client = log_in(context, live_server, alice)
    game = Game.objects.get(pk=int(start(client, army_list)["Location"].split("/")[2]))
    units = game.setup["sides"][0]["units"]
    officer = next(u["key"] for u in units if u["extra_orders"])
    squad, other_squad = (f"#u-{u['key']}" for u in units if u["key"] != officer)
    page = context.new_page()
    page.goto(f"/games/{game.pk}/")
    context.set_offline(True)
    wait_until(page, "document.documentElement.classList.contains('offline')")
    page.locator("#offline-play button[name=side][value=a]").click()
    page.locator(f"#u-{officer} .offline-order button[name=order][value=advance]").click()
    # His one extra order is offered to both squads, each with a die of its own.
    button = page.locator(f"{squad} .snap-form button")
    assert button.inner_text() == "Advance too (from Second Lieutenant)"
    assert page.locator(f"{other_squad} .snap-form").count() == 1
    button.click()
    assert page.locator(".snap-form").count() == 0  # used: the offer ends
    assert _offline_lines(page)[0].endswith(": Advance · snap to action, ordered by Second Lieutenant")
    assert page.locator("#dice-a strong").inner_text() == "1"
    shown = _offline_lines(page)

    game = _synced(page, context)
    assert [a.kind for a in game.actions.all()] == ["draw", "order", "snap"]
    assert page.locator("#log-lines li").all_text_contents()[: len(shown)] == shown


@pytest.mark.parametrize("drawn", ["offline", "online"])
def test_offline_communication_breakdown_sends_the_first_french_die_back_once(
    django_db_setup, live_server, new_browser_context, drawn
):
    """Alice's French list (Communication Breakdown!) on a one-phone game: its first die, drawn on
    this phone offline or shown by the server before the network went, is sent back offline; the
    bag, the order buttons and the log move as the engine has them, and the sync agrees."""
    alice = list_factories.make_user("alice")
    army_list = list_factories.make_builder_list(alice, entries=2)  # 2nd edition, where the rule is
    army_list.army.national_rules.add(make_rule(army_list.edition, "communication-breakdown"))
    context = new_browser_context(**PHONE_CONTEXT)
    context.set_default_timeout(15_000)
    client = log_in(context, live_server, alice)
    game = Game.objects.get(pk=int(start(client, army_list)["Location"].split("/")[2]))
    page = context.new_page()
    page.goto(f"/games/{game.pk}/")
    dice_a = int(page.locator("#dice-a strong").inner_text())
    if drawn == "online":
        # The die shows at the tap; the network goes once the server has answered it.
        _step(page, lambda: page.locator(".record-form button[name=side][value=a]").first.click())
        wait_until(page, "() => document.querySelector('#send-back') !== null")
    context.set_offline(True)
    wait_until(page, "document.documentElement.classList.contains('offline')")
    assert page.locator("#send-back").count() == (1 if drawn == "online" else 0)
    if drawn == "offline":
        page.locator("#offline-play button[name=side][value=a]").click()
    assert page.locator("#dice-a strong").inner_text() == str(dice_a - 1)
    assert page.locator("#side-a .order-form").count() == 2
    _shot(page, f"game-offline-send-back-{drawn}-phone")
    page.locator("#send-back").click()
    # The die is back in the bag: no order to give, no second send-back, the server's sentence logged.
    assert page.locator("#dice-a strong").inner_text() == str(dice_a)
    assert page.locator("#send-back").count() == 0
    assert page.locator(".order-form").count() == 0
    assert page.locator("#current-die").is_hidden()
    assert _offline_lines(page)[0] == "Turn 1 · Communication Breakdown: Alice's die goes back in the bag"
    # Taken back, the die is drawn again and may still be sent back (the once is not used up).
    page.click("#offline-undo")
    assert page.locator("#dice-a strong").inner_text() == str(dice_a - 1)
    assert page.locator("#side-a .order-form").count() == 2
    page.locator("#send-back").click()
    assert page.locator("#dice-a strong").inner_text() == str(dice_a)
    page.locator("#offline-play button[name=side][value=b]").click()
    assert page.locator("#send-back").count() == 0  # Bob's army has no such rule
    bob_unit = page.locator("#side-b li.unit").first
    bob_unit.locator(".offline-order button[name=order][value=advance]").click()
    page.locator("#offline-play button[name=side][value=a]").click()
    assert page.locator("#send-back").count() == 0  # once only, and an order was given
    shown = _offline_lines(page)

    game = _synced(page, context)
    kinds = ["send_back", "draw", "order", "draw"]
    assert [a.kind for a in game.actions.all()] == ["draw", *kinds]
    state = game.state()
    bob_key = bob_unit.get_attribute("id").removeprefix("u-")
    assert state.sent_back and state.units[bob_key].order == "advance" and state.pending == "a"
    assert page.locator("#dice-a strong").inner_text() == str(dice_a - 1)
    assert page.locator("#send-back").count() == 0
    assert page.locator("#log-lines li").all_text_contents()[: len(shown)] == shown


def test_online_a_tap_shows_its_result_at_once_and_the_answer_has_the_last_word(
    django_db_setup, live_server, new_browser_context, monkeypatch
):
    """Online, a pin or a casualty shows on the row and in the log at the tap, before the server has
    answered; the answer's row and log line take their place (one line, not two). A tap the server
    refuses (the unit was destroyed from the other phone meanwhile) brings the board back as the
    server has it."""
    from armybuilder.games.services import game_act
    from rules.game.engine import Action

    _context, page, game = _game_on_alices_phone(live_server, new_browser_context, monkeypatch)
    mine = page.locator("#side-a li.unit")
    squad1, squad2 = mine.nth(1), mine.nth(2)
    held = []
    page.route("**/act/", lambda route: held.append(route) if route.request.method == "POST" else route.continue_())

    def wait_held() -> None:
        # The route's handler runs a moment after the request leaves: polled until it has.
        for _ in range(600):
            if held:
                return
            page.wait_for_timeout(25)
        raise AssertionError("the tap's request was never sent")

    _tools(squad2).get_by_role("button", name="Add a pin").click()
    # Shown at once, the server's answer held back: the pin, its badge and the log line.
    expect(squad2.locator(".badge-pins")).to_have_text("1 pin")
    expect(page.locator("#log-lines li").first).to_contain_text("pins +1 (now 1)")
    wait_held()
    assert len(held) == 1 and game.actions.count() == 0
    assert squad2.locator(".badge-queued").count() == 0  # online: nothing waits to be sent
    revision = _revision(page)
    held.pop().continue_()
    wait_until(page, "r => document.querySelector('#game-sync').dataset.revision !== r", revision)
    expect(squad2.locator(".badge-pins")).to_have_text("1 pin")
    expect(page.locator("#log-lines li", has_text="pins +1")).to_have_count(1)
    expect(page.locator("#log-lines li.log-local")).to_have_count(0)
    assert game.actions.count() == 1

    # A casualty, while the other phone removes the same squad: refused, and the board put back.
    _tools(squad1).get_by_role("button", name="Remove a model (casualty)").click()
    expect(squad1.locator(".unit-head .source")).to_contain_text("9/10")
    wait_held()
    assert len(held) == 1
    unit = squad1.get_attribute("id")[2:]
    game_act(game=Game.objects.get(), build=lambda state: Action("remove", side="a", unit=unit))
    held.pop().continue_()
    expect(page.locator("#game-bar .message-error")).to_be_visible()
    expect(squad1).to_have_class(re.compile(r"\bunit-destroyed\b"))
    expect(squad1.locator(".unit-head .source")).to_contain_text("10/10")
    expect(page.locator("#log-lines li.log-local")).to_have_count(0)
    page.unroute("**/act/")
