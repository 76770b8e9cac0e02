"""In a real browser: a tap whose send is repeated on the way (a flaky network, a proxy retrying) is
applied once, because game.js gives every action an id the server remembers."""

from __future__ import annotations

import pytest

from armybuilder.games import views
from armybuilder.games.models import Game
from tests.conftest import PHONE_CONTEXT, wait_until
from tests.games.test_game_browser import FirstDie
from tests.playsheets.factories import alice_with_a_list


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_pin_sent_three_times_on_the_way_is_one_pin(django_db_setup, live_server, new_browser_context, monkeypatch):
    monkeypatch.setattr(views, "server_rng", FirstDie())
    context = new_browser_context(**PHONE_CONTEXT)
    context.set_default_timeout(20_000)
    army_list = alice_with_a_list(context, live_server)
    page = context.new_page()
    page.goto(f"/games/new/?list={army_list.pk}")
    page.check("input[name=opponent][value=dice]")
    page.fill("input[name=opponent_name]", "Bob")
    page.click("button:has-text('Start the game')")
    page.wait_for_url("**/games/*/")
    game = Game.objects.get()

    sent: list[str] = []

    def replay(route) -> None:
        # The same request reaches the server three times; the page gets the last answer.
        sent.append(route.request.post_data or "")
        route.fetch()
        route.fetch()
        route.fulfill(response=route.fetch())

    page.route("**/act/", replay)
    squad = page.locator("#side-a li.unit").nth(1)
    squad.locator("details.unit-tools summary").click()
    before = page.locator("#game-sync").get_attribute("data-revision")
    squad.get_by_role("button", name="Add a pin").click()
    wait_until(page, "r => document.querySelector('#game-sync').dataset.revision !== r", before, timeout=20)
    assert squad.locator(".badge-pins").inner_text() == "1 pin"
    assert len(sent) == 1 and "action_id=" in sent[0]
    assert game.actions.count() == 1
    assert game.state().unit(squad.get_attribute("id").removeprefix("u-")).pins == 1

    # The next tap makes a new id: a second pin.
    before = page.locator("#game-sync").get_attribute("data-revision")
    squad.get_by_role("button", name="Add a pin").click()
    wait_until(page, "r => document.querySelector('#game-sync').dataset.revision !== r", before, timeout=20)
    assert squad.locator(".badge-pins").inner_text() == "2 pins"
    assert game.actions.count() == 2
    ids = list(game.actions.values_list("client_id", flat=True))
    assert None not in ids and ids[0] != ids[1]
