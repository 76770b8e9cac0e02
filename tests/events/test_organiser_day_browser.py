"""In a real browser on a phone: the organiser gives a penalty, types the missions, rolls one for the
round and takes the round back; the dashboard fits the phone's width throughout."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from armybuilder.events import services
from armybuilder.events.models import Adjustment, Round
from tests.conftest import log_in
from tests.events.factories import make_entrant, make_event
from tests.lists.factories import make_user

PHONE = {"width": 390, "height": 844}


WIDEST = """() => [...document.querySelectorAll('body *')]
  .filter(el => el.getBoundingClientRect().right > window.innerWidth)
  .map(el => el.tagName + '.' + el.className + '#' + el.id).slice(-5).join(' | ')"""


def _fits(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], page.evaluate(WIDEST)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_penalty_missions_and_a_round_taken_back_on_a_phone(django_db_setup, live_server, new_browser_context):
    event = make_event(make_user("orga"), published=True, rounds=3)
    for name in ("anna", "boris", "carla", "dmitri"):
        make_entrant(event, make_user(name))
    round_ = services.pair_next_round(event)
    services.publish_round(round_)
    services.override_result(round_.pairings.first(), "a", 3, 1)

    context = new_browser_context(viewport=PHONE)
    log_in(context, live_server, event.organiser)
    page = context.new_page()
    page.goto(f"/events/{event.slug}/manage/")
    _fits(page)

    page.locator("#adjust-entrant").select_option(label="boris")
    page.locator("#adjust-category").select_option("late-list")
    page.locator("#adjust-amount").fill("-150")
    page.locator("#adjust-reason").fill("List sent on the day")
    page.get_by_role("button", name="Give the points").click()
    expect(page.locator("#adjust-amount-error")).to_have_text("Enter from -100 to 100 points.")
    expect(page.locator("#adjust-reason")).to_have_value("List sent on the day")
    _fits(page)
    page.locator("#adjust-amount").fill("-2")
    page.get_by_role("button", name="Give the points").click()
    expect(page.locator("#adjustments table")).to_contain_text("List sent on the day")
    assert list(Adjustment.objects.values_list("amount", flat=True)) == [-2]

    page.locator("#missions-missions").fill("Key Positions / Long edges / Meeting engagement")
    page.get_by_role("button", name="Save the missions").click()
    expect(page.locator("body")).to_contain_text("1 mission saved.")
    page.locator("#round-1").get_by_role("button", name="Roll a mission").click()
    expect(page.locator("body")).to_contain_text("Round 1 plays Key Positions / Long edges / Meeting engagement.")
    _fits(page)

    page.get_by_role("link", name="Take back this round…").click()
    expect(page.locator("body")).to_contain_text("Its 1 result will be set aside")
    page.get_by_role("button", name="Take back round 1").click()
    expect(page.locator("body")).to_contain_text("Round 1 is a draft again: 1 result was set aside.")
    _fits(page)
    assert not Round.objects.get(pk=round_.pk).published


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_checking_players_in_on_a_phone(django_db_setup, live_server, new_browser_context):
    event = make_event(make_user("orga"), published=True, rounds=3)
    entrants = [make_entrant(event, make_user(name)) for name in ("anna", "boris", "carla")]
    context = new_browser_context(viewport=PHONE)
    log_in(context, live_server, event.organiser)
    page = context.new_page()
    page.goto(f"/events/{event.slug}/manage/")
    _fits(page)
    page.get_by_role("button", name="Check in boris").click()
    row = page.locator(f"#entrant-{entrants[1].pk}")
    expect(row).to_contain_text("Checked in")
    expect(page.locator("body")).to_contain_text("boris is checked in.")
    expect(page.locator("h2", has_text="checked in")).to_contain_text("1 checked in")
    _fits(page)
    entrants[1].refresh_from_db()
    assert entrants[1].checked_in
    page.get_by_role("button", name="Undo check-in boris").click()
    expect(page.locator("body")).to_contain_text("boris is no longer checked in.")
    expect(page.get_by_role("button", name="Check in boris")).to_be_visible()
