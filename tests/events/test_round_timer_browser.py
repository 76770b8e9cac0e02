"""In a real browser on a phone: the organiser starts the round timer; a player's page counts down
(the static script) and, once the organiser pauses it, the player's page says so without a reload
(the section is fetched again)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from armybuilder.events import services
from armybuilder.events.models import Round
from tests.conftest import log_in
from tests.events.factories import make_entrant, make_event
from tests.lists.factories import make_user

PHONE = {"width": 390, "height": 844}


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_timer_counts_down_on_a_players_phone(django_db_setup, live_server, new_browser_context):
    event = make_event(make_user("orga"), published=True, rounds=2)
    for name in ("anna", "boris", "carla", "dmitri"):
        make_entrant(event, make_user(name))
    round_ = services.pair_next_round(event)
    services.publish_round(round_)
    url = f"/events/{event.slug}/rounds/1/"

    organiser = new_browser_context(viewport=PHONE)
    log_in(organiser, live_server, event.organiser)
    org_page = organiser.new_page()
    org_page.goto(url)
    org_page.get_by_label("Round length (minutes)").fill("90")
    org_page.get_by_role("button", name="Start the timer").click()
    expect(org_page.locator("#timer")).to_contain_text("The round ends at")

    player = new_browser_context(viewport=PHONE)
    log_in(player, live_server, Round.objects.get(pk=round_.pk).pairings.first().player_a.user)
    page = player.new_page()
    page.goto(url)
    countdown = page.locator("[data-countdown]")
    expect(countdown).to_be_visible()
    expect(countdown).to_have_text(re.compile(r"^1:(29|30):\d\d$"))
    first = countdown.inner_text()
    expect(countdown).not_to_have_text(first)  # it ticks
    expect(page.locator("#timer")).to_contain_text("The last turn should start by")

    org_page.get_by_role("button", name="Pause the timer").click()
    expect(org_page.locator("#timer")).to_contain_text("The round timer is paused.")
    # The player's section is fetched again every 30 s: the pause reaches the phone without a reload.
    expect(page.locator("#timer")).to_contain_text("The round timer is paused.", timeout=60_000)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
