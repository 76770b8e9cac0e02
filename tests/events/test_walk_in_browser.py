"""In a real browser on a phone: the organiser adds a walk-in (a refused paste first, said next to the
field and kept), then the player claims the place from the link on their own phone."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from armybuilder.events.models import Entrant
from armybuilder.lists.exchange import export_json
from armybuilder.lists.models import ArmyList
from tests.conftest import log_in
from tests.events.factories import make_entrant, make_event, make_player_list
from tests.lists.factories import make_user

PHONE = {"width": 390, "height": 844}


def _fits(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_adding_a_walk_in_and_claiming_it_on_phones(django_db_setup, live_server, new_browser_context):
    event = make_event(make_user("orga"), published=True, rounds=3)
    make_entrant(event, make_user("anna"))
    source = make_player_list(make_user(), units=2, name="Walter's platoon")
    text = export_json(ArmyList.objects.for_builder().get(pk=source.pk))

    context = new_browser_context(viewport=PHONE)
    log_in(context, live_server, event.organiser)
    page = context.new_page()
    page.goto(f"/events/{event.slug}/manage/")
    _fits(page)

    page.locator("#walk-in-name").fill("Walter")
    page.locator("#walk-in-list").fill('{"format": "muster-list/3"')
    page.get_by_role("button", name="Add the walk-in").click()
    expect(page.locator("#walk-in-list-error")).to_contain_text("This is not valid JSON")
    expect(page.locator("#walk-in-name")).to_have_value("Walter")
    expect(page.locator("#walk-in-list")).to_have_value('{"format": "muster-list/3"')
    _fits(page)

    page.locator("#walk-in-list").fill(text)
    page.get_by_role("button", name="Add the walk-in").click()
    expect(page.locator("body")).to_contain_text("Walter is entered with their list, waiting for your approval.")
    walk_in = Entrant.objects.get(event=event, walk_in_name="Walter")
    row = page.locator(f"#entrant-{walk_in.pk}")
    expect(row).to_contain_text("Walter's platoon")
    expect(row).to_contain_text("Legal")
    link = page.locator(f"#claim-row-{walk_in.pk} #claim-{walk_in.pk}")
    claim_url = link.input_value()
    assert claim_url.endswith(f"/events/{event.slug}/claim/{walk_in.claim_token}/")
    _fits(page)

    walter = make_user("walter")
    player_context = new_browser_context(viewport=PHONE)
    log_in(player_context, live_server, walter)
    player = player_context.new_page()
    player.goto(claim_url)
    expect(player.locator("h1")).to_have_text("Claim the place of Walter")
    _fits(player)
    player.get_by_role("button", name="This is me: claim this place").click()
    expect(player.locator("body")).to_contain_text("This place is yours now")
    walk_in.refresh_from_db()
    assert walk_in.user == walter and walk_in.claim_token is None
