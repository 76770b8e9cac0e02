"""Two phones of a two-phone game, both offline for part of a turn: each plays on for its own side,
both record the same die, they come back one after the other and their boards agree; the die
recorded twice is settled with one tap on one phone, and the other phone sees it settled."""

from __future__ import annotations

import pytest

from armybuilder.games.models import Game, GameConflict
from tests.conftest import PHONE_CONTEXT, wait_until
from tests.games.test_gameday_browser import _game_on_alices_phone, _revision, _step, _tools

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

QUEUE_EMPTY = "() => !Object.keys(localStorage).some(k => k.startsWith('muster-queue:'))"
AT_REVISION = "r => document.querySelector('#game-sync').dataset.revision === r"


def _board(page) -> dict:
    """What a phone shows of the game: the log's lines, and each unit's pins, order and state."""
    return page.evaluate(
        """() => ({
            log: Array.from(document.querySelectorAll('#log-lines li')).map(li => li.textContent.trim()),
            units: Object.fromEntries(Array.from(document.querySelectorAll('li.unit')).map(row => [
                row.id, [row.dataset.pins, row.dataset.order, row.classList.contains('unit-destroyed')],
            ])),
            bag: Array.from(document.querySelectorAll('#game-bar .die-count strong')).map(el => el.textContent),
        })"""
    )


def _offline(context, page) -> None:
    context.set_offline(True)
    wait_until(page, "document.documentElement.classList.contains('offline')")


def _seconds_after(page, other) -> None:
    """Wait until ``page``'s clock is a few seconds past ``other``'s last tap. The merge orders the two
    phones' actions by their clocks, each corrected by its skew at send, and that correction carries
    the send's delay (up to seconds on a busy machine): taps of two phones that must keep their order
    are made seconds apart, as two players' taps are, not the milliseconds a script takes."""
    wait_until(page, "t => Date.now() >= t", other.evaluate("Date.now()") + 3000)


def test_two_phones_play_offline_come_back_agree_and_settle_the_die_recorded_twice(
    django_db_setup, live_server, new_browser_context, monkeypatch
):
    alice_context, alice, game = _game_on_alices_phone(live_server, new_browser_context, monkeypatch)
    Game.objects.filter(pk=game.pk).update(two_phones=True)  # as a game from an event pairing is
    alice.reload()
    bob_context = new_browser_context(**PHONE_CONTEXT)
    bob_context.set_default_timeout(15_000)
    bob = bob_context.new_page()
    bob.goto(f"/g/{game.share_token}/")

    # Online: Alice's die, and her first unit's order; Bob's phone follows.
    _step(alice, lambda: alice.locator("#game-bar button[name=side][value=a]").click())
    _step(alice, lambda: alice.locator("#side-a li.unit").first.locator("button[name=order][value=fire]").click())
    wait_until(bob, AT_REVISION, _revision(alice))

    # Both phones lose the network for the rest of the turn.
    _offline(alice_context, alice)
    _offline(bob_context, bob)
    assert alice.locator("#offline-play").is_visible() and bob.locator("#offline-play").is_visible()
    # Bob's die is drawn: both players record it (the conflict to come); Bob gives it its order.
    alice.locator("#offline-play button[name=side][value=b]").click()
    assert alice.locator("#side-b .offline-order").count() == 0  # Bob's units are Bob's phone's
    _seconds_after(bob, alice)
    bob.locator("#offline-play button[name=side][value=b]").click()
    bob_unit, bob_other = bob.locator("#side-b li.unit").first, bob.locator("#side-b li.unit").nth(1)
    bob_unit.locator(".offline-order button[name=order][value=down]").click()
    _tools(bob_other).get_by_role("button", name="Add a pin").click()
    assert bob.locator("#side-a details.unit-tools").count() == 0  # never Alice's units
    # Then Alice's die, and her second unit's order.
    _seconds_after(alice, bob)
    alice.locator("#offline-play button[name=side][value=a]").click()
    alice.locator("#side-a li.unit").nth(1).locator(".offline-order button[name=order][value=advance]").click()
    assert alice.locator("#offline-waiting").inner_text() == "Waiting to be sent: 3"
    assert bob.locator("#offline-waiting").inner_text() == "Waiting to be sent: 3"
    assert Game.objects.get().actions.count() == 2  # nothing reached the server

    # Alice's phone is back first, then Bob's.
    alice_context.set_offline(False)
    wait_until(alice, QUEUE_EMPTY, timeout=30)
    bob_context.set_offline(False)
    wait_until(bob, QUEUE_EMPTY, timeout=30)
    game = Game.objects.get()
    wait_until(alice, AT_REVISION, str(game.revision), timeout=30)
    wait_until(bob, AT_REVISION, str(game.revision), timeout=30)

    # Everything either player entered is in the game, in the order it happened; the die recorded
    # twice waits on both boards.
    kinds = [a.kind for a in game.actions.all()]
    assert kinds == ["draw", "order", "merged", "draw", "merged", "order", "pins", "draw", "order"]
    conflict = GameConflict.objects.get()
    assert (conflict.kind, conflict.die, conflict.side, conflict.settled) == ("draw", "b", "b", "")
    on_alice, on_bob = _board(alice), _board(bob)
    assert on_alice["log"] == on_bob["log"] and on_alice["units"] == on_bob["units"]
    assert on_alice["bag"] == list(reversed(on_bob["bag"]))  # each phone shows its own side first
    merged = [line.split(" · ", 1)[1] for line in on_alice["log"] if "Merged:" in line]
    assert merged == [
        "Merged: 2 actions played offline on Bob's phone · 2 actions left to settle before now fit · 1 to settle",
        "Merged: 1 action played offline on alice's phone · 2 to settle",
    ]
    for page in (alice, bob):
        assert "A die was already waiting for its order" in page.locator("#to-settle").inner_text()
    bob_key = bob_unit.get_attribute("id")
    assert on_alice["units"][bob_key][1] == "down"

    # Alice settles it with one tap (the bag is the table's); Bob's phone sees it settled.
    alice.get_by_role("button", name="Drop it: it was the same die").click()
    alice.wait_for_url(f"**/games/{game.pk}/#to-settle")
    assert alice.locator("#to-settle").count() == 0
    wait_until(bob, "() => !document.getElementById('to-settle')", timeout=30)
    assert "Settled on alice's phone: dropped (Die recorded: Bob)" in _board(bob)["log"][0]
    assert GameConflict.objects.get().settled == "dropped"
    assert _board(alice)["log"] == _board(bob)["log"]
