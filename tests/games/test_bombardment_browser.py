"""In a real browser, phone-sized: a British preparatory bombardment (Bombardment's two dice a unit),
rolled and its dice kept through htmx."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from armybuilder.games.models import Game
from tests.conftest import PHONE_CONTEXT, log_in, wait_until
from tests.games.test_views import start
from tests.lists.factories import make_builder_list, make_user
from tests.resolver.factories import make_rule


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_british_bombardment_rolled_and_kept_on_the_phone(live_server, new_browser_context):
    alice = make_user("alice")
    army_list = make_builder_list(alice, entries=1)
    army_list.army.national_rules.add(make_rule(army_list.edition, "bombardment"))
    context = new_browser_context(**PHONE_CONTEXT)
    client = log_in(context, live_server, alice)
    game = Game.objects.get(pk=int(start(client, army_list)["Location"].split("/")[2]))  # Bob: b1 to b3
    page = context.new_page()
    page.goto(f"/games/{game.pk}/")
    page.evaluate("window.notReloaded = true")  # gone if a post reloaded the page instead of swapping

    def step(action) -> None:
        before = page.locator("#game-sync").get_attribute("data-revision")
        action()
        wait_until(page, "r => document.querySelector('#game-sync').dataset.revision !== r", before)

    page.locator("#bombard-offers summary").click()  # folded below the bar: a phone keeps its room
    offer = page.locator("#bombard-a")
    assert "6+ 11/36 (30.6 %)" in offer.inner_text()
    offer.locator("input[name=bunit][value=b3]").uncheck()  # in reserve: no dice
    for name, value in (("bd1-b1", "2"), ("bd2-b1", "5"), ("bd1-b2", "6"), ("bd2-b2", "1")):
        offer.locator(f"input[name='{name}']").fill(value)
    step(lambda: offer.locator("button[type=submit]").click())
    keep = page.locator("#bombard-keep-a")
    expect(keep).to_be_visible(timeout=20_000)
    assert page.locator("#bombard-a").count() == 0  # once a game
    # Offline the choice is not queued: the dice are kept on the server, and the page says so.
    context.set_offline(True)
    wait_until(page, "document.documentElement.classList.contains('offline')")
    assert keep.is_hidden()
    assert "needs the network" in page.locator("#bombard-keep-a + .offline-only").inner_text()
    # Back online, the phone fetches the whole board again and swaps it in: choices made before
    # that swap lands would be made on the board it replaces (a busy machine takes seconds).
    page.evaluate("document.getElementById('game').dataset.beforeOnline = '1'")
    context.set_offline(False)
    wait_until(page, "!document.documentElement.classList.contains('offline')")
    wait_until(page, "!document.getElementById('game').dataset.beforeOnline")
    expect(keep).to_be_visible(timeout=20_000)
    keep.locator("input[name=keep-b1][value='5']").check()
    keep.locator("input[name=keep-b2][value='6']").check()
    step(lambda: keep.locator("button[type=submit]").click())
    expect(page.locator(".bombard-apply")).to_be_visible(timeout=20_000)
    assert page.locator("#bombard-keep-a").count() == 0
    assert page.url.endswith(f"/games/{game.pk}/") and page.evaluate("window.notReloaded") is True
    page.locator("#log-count").click()
    expect(page.locator("#log-lines")).to_contain_text(
        "Alice: Bombardment, the die kept for each unit: Unit 1: 5 (of 2 · 5), Unit 2: 6 (of 6 · 1)", timeout=20_000
    )
    expect(page.locator("#log-lines")).to_contain_text("two dice per enemy unit (Bombardment): Unit 1 (2 · 5)")
