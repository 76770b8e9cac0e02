"""In a real browser, phone-sized: a Soviet squad near a commissar re-takes its failed order test (htmx)."""

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
def test_a_commissar_re_roll_on_the_phone(live_server, new_browser_context):
    alice = make_user("alice")
    army_list = make_builder_list(alice, entries=1)  # 2nd edition: one Regular squad of five
    army_list.army.national_rules.add(make_rule(army_list.edition, "not-one-step-back"))
    context = new_browser_context(**PHONE_CONTEXT)
    client = log_in(context, live_server, alice)
    game = Game.objects.get(pk=int(start(client, army_list)["Location"].split("/")[2]))
    key = game.setup["sides"][0]["units"][0]["key"]
    page = context.new_page()
    page.goto(f"/games/{game.pk}/")
    squad = page.locator(f"#u-{key}")

    def step(action) -> None:
        before = page.locator("#game-sync").get_attribute("data-revision")
        action()
        wait_until(page, "r => document.querySelector('#game-sync').dataset.revision !== r", before)

    def add_pin() -> None:
        if squad.locator("details.unit-tools").get_attribute("open") is None:
            squad.locator("details.unit-tools summary").click()  # a tap's answer keeps it as it was
        squad.locator("button[name=delta][value='1']").first.click()

    for _ in range(3):
        step(add_pin)
    step(lambda: page.click("button[name=side][value=a]"))
    assert squad.locator(".commissar-odds").inner_text() == "95/144"  # 15/36 + 21/36 x 15/36
    squad.locator("input[name=commissar]").check()
    squad.locator("input[name=die1]").fill("5")
    squad.locator("input[name=die2]").fill("5")
    squad.locator("input[name=reroll1]").fill("1")
    squad.locator("input[name=reroll2]").fill("2")
    step(lambda: squad.locator("button[name=order][value=fire]").click())
    assert squad.locator(".badge-order").inner_text() == "Fire"
    assert "4/5" in squad.locator(".unit-head").inner_text()
    assert "the commissar removes a man (4 left) and re-rolls" in page.locator("#last-order").inner_text()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_massed_batteries_radius_rolled_on_the_phone(live_server, new_browser_context):
    alice = make_user("alice")
    army_list = make_builder_list(alice, entries=1)
    army_list.army.national_rules.add(make_rule(army_list.edition, "massed-batteries"))
    context = new_browser_context(**PHONE_CONTEXT)
    client = log_in(context, live_server, alice)
    game = Game.objects.get(pk=int(start(client, army_list)["Location"].split("/")[2]))
    page = context.new_page()
    page.goto(f"/games/{game.pk}/")
    form = page.locator("#support-radius-a")
    assert "12″ 11/36 (30.6 %)" in form.inner_text()
    form.locator("input[name=sdie1]").fill("3")
    form.locator("input[name=sdie2]").fill("4")
    page.evaluate("window.notReloaded = true")  # gone if the post reloaded the page instead of swapping
    before = page.locator("#game-sync").get_attribute("data-revision")
    form.locator("button[type=submit]").click()
    wait_until(page, "r => document.querySelector('#game-sync').dataset.revision !== r", before)
    # The swap came through htmx: the same page, its log showing the roll, the form still offered.
    assert page.url.endswith(f"/games/{game.pk}/") and page.evaluate("window.notReloaded") is True
    page.locator("#log-count").click()
    expect(page.locator("#log-lines")).to_contain_text(
        "barrage radius, dice 3, 4, the higher kept (Massed Batteries): 10″", timeout=20_000
    )
    assert page.locator("#support-radius-a input[name=sdie1]").input_value() == ""
