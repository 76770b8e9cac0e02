"""In a real browser, phone-sized: start a game from My lists and play two full turns with htmx."""

from __future__ import annotations

import os
import random

import pytest

from armybuilder.games import views
from armybuilder.games.models import Game
from tests.conftest import PHONE, PHONE_CONTEXT, wait_until
from tests.playsheets.factories import alice_with_a_list

SHOTS = os.environ.get("MUSTER_SHOTS")  # a folder: save screenshots of the game in progress there


class FirstDie(random.Random):
    """The bag always gives its first die (side a's dice come first), so the test knows who acts;
    every die rolled shows 1 (randint goes through randrange too)."""

    def randrange(self, start, stop=None, *args, **kwargs):  # type: ignore[override]
        return 0 if stop is None else start


def phone_first_die(context) -> None:
    """The phone's own dice as FirstDie rolls the server's: game.js draws a die and rolls an order test
    at the tap (crypto.getRandomValues), and zeros give the first side's die and ones."""
    context.add_init_script("crypto.getRandomValues = (array) => array.fill(0);")


def _shot(page, name: str, unit=None) -> None:
    if SHOTS:
        if unit is not None:
            unit.evaluate("el => el.scrollIntoView({block: 'end'})")
        page.screenshot(path=os.path.join(SHOTS, f"{name}.png"), full_page=False)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def _alice_on_her_phone(live_server, new_browser_context, monkeypatch):
    """Alice signed in on a phone, with a 3rd-edition list (a Platoon Commander first); dice from FirstDie."""
    monkeypatch.setattr(views, "server_rng", FirstDie())
    context = new_browser_context(**PHONE_CONTEXT)
    context.set_default_timeout(15_000)
    phone_first_die(context)
    army_list = alice_with_a_list(context, live_server)
    return context.new_page(), army_list


def test_it_plays_two_turns_on_a_phone(django_db_setup, live_server, new_browser_context, monkeypatch):
    page, army_list = _alice_on_her_phone(live_server, new_browser_context, monkeypatch)

    page.goto("/lists/")
    page.click(f"a[href='/games/new/?list={army_list.pk}']")
    page.check("input[name=opponent][value=dice]")
    page.fill("input[name=opponent_name]", "Bob")
    page.fill("input[name=opponent_dice]", "2")
    page.fill("input[name=scenario]", "Hold until relieved")
    _shot(page, "game-new-phone")
    page.click("button:has-text('Start the game')")
    page.wait_for_url("**/games/*/")

    mine = page.locator("#side-a li.unit")
    officer, squad1, squad2, tank = (mine.nth(i) for i in range(4))
    bob1, bob2 = page.locator("#side-b li.unit").nth(0), page.locator("#side-b li.unit").nth(1)

    def revision() -> str:
        return page.locator("#game-sync").get_attribute("data-revision")

    def step(action) -> None:
        """Do something that posts an action and wait for htmx to swap the board in."""
        before = revision()
        action()
        wait_until(page, "r => document.querySelector('#game-sync').dataset.revision !== r", before)

    def tools(unit):
        if unit.locator("details.unit-tools").get_attribute("open") is None:
            unit.locator("details.unit-tools summary").click()
        return unit

    assert (page.locator("#dice-a strong").inner_text(), page.locator("#dice-b strong").inner_text()) == ("4", "2")
    # Turn 1: the die Alice really drew, the first squad fires.
    step(lambda: page.click("button[name=side][value=a]"))
    assert "Die drawn: alice" in page.locator("#current-die").inner_text()
    step(lambda: squad1.locator("button[name=order][value=fire]").click())
    assert squad1.locator(".badge-order").inner_text() == "Fire"
    # Bob's die: his first unit advances.
    step(lambda: page.click("button[name=side][value=b]"))
    step(lambda: bob1.locator("button[name=order][value=advance]").click())
    # Bob's fire pins the second squad twice and kills two of the first squad.
    for _ in range(2):
        step(lambda: tools(squad2).get_by_role("button", name="Add a pin").click())
    for _ in range(2):
        step(lambda: tools(squad1).get_by_role("button", name="Remove a model (casualty)").click())
    assert "8/10 models" in squad1.inner_text()
    # A random draw (the bag's first die: Alice's); the pinned squad takes an order test.
    step(lambda: page.click("#draw-die"))
    test = squad2.locator(".order-test")
    assert "7 or less" in test.inner_text() and "7/12 (58.3 %)" in test.inner_text()  # Regular 9 − 2 pins
    _shot(page, "game-order-test-phone", squad2)
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"the page is {overflow}px wider than the phone"
    # With the Platoon Commander (+2, 6") in range: 9 or less, 5/6.
    officer_option = squad2.locator("select[name=officer] option").nth(1)
    assert "Platoon Commander (+2, 6″) — 5/6 (83.3 %)" in officer_option.inner_text()
    squad2.locator("select[name=officer]").select_option(index=1)
    squad2.locator("input[name=die1]").fill("1")
    squad2.locator("input[name=die2]").fill("2")
    step(lambda: squad2.locator("button[name=order][value=advance]").click())
    assert "order test 1+2 against 9 · passed" in page.locator("#last-order").inner_text()
    assert squad2.locator(".badge-pins").inner_text() == "1 pin"
    # Bob's second unit is destroyed: its die leaves the bag.
    step(lambda: tools(bob2).locator("button:has-text('Destroyed')").click())
    assert bob2.locator(".badge-disputed").inner_text() == "Destroyed"
    assert page.locator("#dice-b strong").inner_text() == "0"
    # The officer goes Down, the tank on Ambush; undo the Ambush and give it again.
    step(lambda: page.click("button[name=side][value=a]"))
    step(lambda: officer.locator("button[name=order][value=down]").click())
    step(lambda: page.click("button[name=side][value=a]"))
    step(lambda: tank.locator("button[name=order][value=ambush]").click())
    step(lambda: page.click("#undo"))
    assert tank.locator(".badge-order").count() == 0 and tank.locator(".order-buttons").count() == 1
    step(lambda: tank.locator("button[name=order][value=ambush]").click())
    _shot(page, "game-turn1-end-phone", tank)
    step(lambda: page.click("#end-turn-button"))

    # Turn 2: Down and Ambush stay, their dice out of the bag.
    assert "Turn 2" in page.locator(".game-turn").inner_text()
    assert (page.locator("#dice-a strong").inner_text(), page.locator("#dice-b strong").inner_text()) == ("2", "1")
    assert officer.locator(".badge-order").inner_text() == "Down ↺"
    # Bob follows on his own phone (in French) by the share link; each phone sees the other's action by polling.
    bob_context = new_browser_context(**PHONE_CONTEXT, locale="fr-FR")
    bob_page = bob_context.new_page()
    bob_page.goto(f"/g/{Game.objects.get().share_token}/")
    assert bob_page.locator("section.force").first.get_attribute("id") == "side-b"  # his own force first
    step(lambda: page.click("button[name=side][value=b]"))
    bob_page.locator("#current-die:has-text('Dé tiré : Bob')").wait_for(timeout=6_000)
    bob_page.locator("#side-b li.unit").first.locator("button[name=order][value=fire]").click()
    page.locator("#side-b li.unit .badge-order:has-text('Fire')").wait_for(timeout=6_000)
    assert bob_page.locator("#side-a details.unit-tools").count() == 0  # he acts for his own side only
    _shot(bob_page, "game-opponent-phone")
    step(lambda: tools(tank).locator("button[name=result][value=immobilised]").click())
    assert "Immobilised" in tank.inner_text() and "1 pin" in tank.inner_text()
    step(lambda: page.click("button[name=side][value=a]"))
    squad2.locator("input[name=die1]").fill("6")
    squad2.locator("input[name=die2]").fill("6")
    step(lambda: squad2.locator("button[name=order][value=run]").click())
    assert "FUBAR" in page.locator("#last-order").inner_text()
    step(lambda: page.click("#draw-die"))
    step(lambda: squad1.locator("button[name=order][value=fire]").click())
    _shot(page, "game-turn2-phone", squad1)
    step(lambda: page.click("#end-turn-button"))

    assert "Turn 3" in page.locator(".game-turn").inner_text()
    summary = page.locator("#summary").inner_text()
    assert "1 / 2" in summary and "2 turns played" in summary
    page.locator("#log summary").click()
    assert page.locator("#log li").count() == 24  # every action, undone ones left out
    # Odds now: the pinned squad against Bob's unit in soft cover opens the calculator, live state filled in.
    tools(squad2).locator("select[name=cover]").select_option("soft")
    squad2.locator("button:has-text('Odds now')").click()
    page.wait_for_url("**/calc/shooting/?*")
    assert page.locator("input[name=firer_pins]").input_value() == "1"
    assert page.locator("select[name=cover]").input_value() == "soft"
    assert page.locator(".stat-value").count() > 0

    page.goto("/games/")
    assert page.locator("text=Running").count() == 1 and page.locator("a:has-text('alice – Bob')").count() == 1
    _shot(page, "my-games-phone")
    if SHOTS:
        page.goto(f"/games/{Game.objects.get().pk}/")
        page.set_viewport_size({"width": 1280, "height": 900})
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=os.path.join(SHOTS, "game-desktop.png"))


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_it_plays_without_javascript(django_db_setup, live_server, new_browser_context, monkeypatch):
    monkeypatch.setattr(views, "server_rng", FirstDie())
    context = new_browser_context(viewport=PHONE, java_script_enabled=False)
    army_list = alice_with_a_list(context, live_server)
    page = context.new_page()
    page.goto(f"/games/new/?list={army_list.pk}")
    page.check("input[name=opponent][value=dice]")
    page.fill("input[name=opponent_name]", "Bob")
    page.click("button:has-text('Start the game')")
    page.click("#draw-die")
    assert "Die drawn: alice" in page.locator("#current-die").inner_text()
    page.locator("#side-a li.unit").nth(1).locator("button[name=order][value=fire]").click()
    assert page.locator("#side-a li.unit").nth(1).locator(".badge-order").inner_text() == "Fire"
    squad = page.locator("#side-a li.unit").nth(2)
    squad.locator("summary").click()
    squad.get_by_role("button", name="Add a pin").click()
    assert page.url.endswith(f"#{squad.get_attribute('id')}")  # back where the player was
    assert squad.locator(".badge-pins").inner_text() == "1 pin"


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_an_officer_orders_two_more_units_with_his_own_order(
    django_db_setup, live_server, new_browser_context, monkeypatch
):
    page, army_list = _alice_on_her_phone(live_server, new_browser_context, monkeypatch)
    page.goto(f"/games/new/?list={army_list.pk}")
    page.check("input[name=opponent][value=dice]")
    page.fill("input[name=opponent_name]", "Bob")
    page.click("button:has-text('Start the game')")
    page.wait_for_url("**/games/*/")
    mine = page.locator("#side-a li.unit")
    officer, squad1, squad2, tank = (mine.nth(i) for i in range(4))

    def step(action) -> None:
        before = page.locator("#game-sync").get_attribute("data-revision")
        action()
        wait_until(page, "r => document.querySelector('#game-sync').dataset.revision !== r", before)

    squad2.locator("details.unit-tools summary").click()
    step(lambda: squad2.get_by_role("button", name="Add a pin").click())
    step(lambda: page.click("button[name=side][value=a]"))
    step(lambda: officer.locator("button[name=order][value=advance]").click())
    # The Platoon Commander (+2, two extra orders, 6"): the panel and one button per other unit.
    assert "up to 2 more units within 6″" in page.locator("#snap").inner_text()
    assert officer.locator(".snap-form").count() == 0 and tank.locator(".snap-form").count() == 1
    _shot(page, "game-snap-offer-phone", squad2)
    # A password manager or a screenshot tool leaves empty style attributes on inputs through the
    # CSSOM; htmx must not copy them while settling, which the CSP would refuse.
    refused = []
    page.on("console", lambda message: refused.append(message.text) if "Content Security" in message.text else None)
    page.evaluate(
        "document.querySelectorAll('input').forEach(i => { i.style.caretColor = 'red'; i.style.caretColor = ''; })"
    )
    step(lambda: squad1.get_by_role("button", name="Advance too (from Platoon Commander)").click())
    assert refused == []
    assert squad1.locator(".badge-order").inner_text() == "Advance"
    assert "1 more unit within 6″" in page.locator("#snap").inner_text()
    # The pinned squad tests with the officer's +2: Regular 9, one pin, so 10 or less (11/12).
    assert "10 or less" in squad2.locator(".order-test").inner_text()
    assert "11/12 (91.7 %)" in squad2.locator(".order-test").inner_text()
    squad2.locator("input[name=die1]").fill("3")
    squad2.locator("input[name=die2]").fill("4")
    step(lambda: squad2.locator(".snap-form button").click())
    assert squad2.locator(".badge-order").inner_text() == "Advance"
    assert squad2.locator(".badge-pins").count() == 0
    assert "snap to action, ordered by Platoon Commander" in page.locator("#last-order").inner_text()
    assert page.locator("#snap").count() == 0 and page.locator(".snap-form").count() == 0
    assert page.locator("#dice-a strong").inner_text() == "1"  # the officer's die and one each
    _shot(page, "game-snap-phone", squad2)
