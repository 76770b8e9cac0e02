"""In a real browser on a phone: the organiser gives a walk-in a new claim link, removes another
walk-in after the confirmation page, then links the first to the player's account; every page fits
the phone's width."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from armybuilder.events import services
from armybuilder.events.models import Entrant
from armybuilder.lists.exchange import export_json
from armybuilder.lists.models import ArmyList
from tests.conftest import log_in
from tests.events.factories import make_entrant, make_event, make_player_list
from tests.lists.factories import make_user

PHONE = {"width": 390, "height": 844}


def _fits(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def _walk_in(event, name: str) -> Entrant:
    source = make_player_list(make_user(), units=2, name=f"{name}'s platoon with a rather long name")
    text = export_json(ArmyList.objects.for_builder().get(pk=source.pk))
    return services.add_walk_in(event, name, services.pasted_list_values(text))


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_new_claim_link_and_removing_a_walk_in_on_a_phone(django_db_setup, live_server, new_browser_context):
    event = make_event(make_user("orga"), published=True, rounds=3)
    make_entrant(event, make_user("anna"))
    walter, wanda = _walk_in(event, "Walter"), _walk_in(event, "Wanda")
    old = walter.claim_token

    context = new_browser_context(viewport=PHONE)
    log_in(context, live_server, event.organiser)
    page = context.new_page()
    page.goto(f"/events/{event.slug}/manage/")
    _fits(page)

    page.locator(f"#claim-row-{walter.pk}").get_by_role("button", name="New claim link").click()
    expect(page.locator("body")).to_contain_text("Walter has a new claim link: the old one no longer works.")
    walter.refresh_from_db()
    assert walter.claim_token and walter.claim_token != old
    expect(page.locator(f"#claim-{walter.pk}")).to_have_value(
        f"{live_server.url}/events/{event.slug}/claim/{walter.claim_token}/"
    )
    _fits(page)

    page.locator(f"#claim-row-{wanda.pk}").get_by_role("link", name="Remove this walk-in…").click()
    expect(page.locator("h1")).to_have_text("Remove Wanda")
    expect(page.locator("main")).to_contain_text("has not played yet")
    _fits(page)
    page.get_by_role("button", name="Remove Wanda").click()
    expect(page.locator("body")).to_contain_text("Wanda is removed, with their list.")
    expect(page.locator(f"#entrant-{wanda.pk}")).to_have_count(0)
    expect(page.locator(f"#entrant-{walter.pk}")).to_be_visible()
    _fits(page)
    assert not Entrant.objects.filter(pk=wanda.pk).exists()

    # Walter made an account: the organiser links his place to it by its username, by keyboard.
    make_user("walter.k", first_name="Walter", last_name="Klein")
    row = page.locator(f"#claim-row-{walter.pk}")
    field = row.get_by_label("Or link this place to the player's account (username)")
    field.fill("nobody")
    field.press("Enter")
    expect(page.locator("body")).to_contain_text("No account has this username: check its spelling with the player.")
    _fits(page)
    page.locator(f"#claim-row-{walter.pk}").get_by_label("Or link this place to the player's account (username)").fill(
        "walter.k"
    )
    page.locator(f"#claim-row-{walter.pk}").get_by_role("button", name="Link Walter", exact=True).click()
    expect(page.locator("body")).to_contain_text(
        "Walter's place is now under the account walter.k, with its list, results and placings."
    )
    expect(page.locator(f"#entrant-{walter.pk}")).to_contain_text("entered as Walter, claimed")
    expect(page.locator(f"#claim-row-{walter.pk}")).to_have_count(0)
    _fits(page)
    assert Entrant.objects.get(pk=walter.pk).user.username == "walter.k"
