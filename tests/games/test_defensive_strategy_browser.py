"""In a real browser, phone-sized: Italy's Defensive Strategy rolled through htmx (the re-roll, the
emplacements), and the enemy's Run button hidden on turn 1."""

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
def test_the_italian_side_rolls_who_defends_and_the_enemy_cannot_run_on_turn_one(live_server, new_browser_context):
    alice = make_user("alice")
    army_list = make_builder_list(alice, entries=1)
    army_list.army.national_rules.add(make_rule(army_list.edition, "defensive-strategy"))
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

    offer = page.locator("#defence-a")
    offer.locator("summary").click()  # folded below the bar: a phone keeps its room
    assert "3/4 (75.0 %)" in offer.inner_text()
    form = page.locator("#defence-roll-a")
    form.locator("input[name=sdie1]").fill("2")
    form.locator("input[name=sdie2]").fill("5")
    step(lambda: form.locator("button[type=submit]").click())
    emplacements = page.locator("#emplacements-a")
    expect(emplacements).to_be_visible(timeout=20_000)
    assert page.locator("#defence-a").count() == 0
    assert "within 12″ of your table edge" in emplacements.inner_text()
    emplacements.locator("input[name=sdie1]").fill("3")
    step(lambda: emplacements.locator("button[type=submit]").click())
    expect(page.locator("#emplacements-a")).to_have_count(0, timeout=20_000)
    expect(page.locator(".no-run-note")).to_be_visible(timeout=20_000)
    # Bob's die: his unit is offered every order but Run.
    step(lambda: page.click("button[name=side][value=b]"))
    bob1 = page.locator("#u-b1")
    expect(bob1.locator("button[name=order][value=advance]")).to_be_visible(timeout=20_000)
    assert bob1.locator("button[name=order][value=run]").is_hidden()
    step(lambda: bob1.locator("button[name=order][value=advance]").click())
    # Alice's side runs.
    step(lambda: page.click("button[name=side][value=a]"))
    alice1 = page.locator("#side-a .unit").first
    expect(alice1.locator("button[name=order][value=run]")).to_be_visible(timeout=20_000)
    assert page.url.endswith(f"/games/{game.pk}/") and page.evaluate("window.notReloaded") is True
    page.locator("#log-count").click()
    expect(page.locator("#log-lines")).to_contain_text(
        "Alice: who defends? Die 2 → 5: Alice defends · Defensive Strategy: re-rolled, the second result stands",
        timeout=20_000,
    )
    expect(page.locator("#log-lines")).to_contain_text("D3 emplacements (die 3): 2 emplacements")
