"""In a real browser on a phone: the organiser pastes a walk-in's list as Muster's text export; a line
that does not read is refused next to the field with its number and the text kept, then the list,
corrected in place, is entered."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from armybuilder.events.models import Entrant, Submission
from armybuilder.lists.exchange import export_text
from armybuilder.lists.models import ArmyList
from armybuilder.lists.summary import list_summary
from tests.conftest import log_in
from tests.events.factories import make_event, make_player_list
from tests.lists.factories import make_user

PHONE = {"width": 390, "height": 844}


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_pasting_a_walk_ins_text_list_on_a_phone(django_db_setup, live_server, new_browser_context):
    event = make_event(make_user("orga"), rounds=3)
    source = ArmyList.objects.for_builder().get(pk=make_player_list(make_user(), units=2, name="Walter's platoon").pk)
    text = export_text(source, list_summary(source))
    unit = source.entries.first().unit.display_name
    broken = text.replace(f"* {unit} #2", "* Flying Tank", 1)
    assert broken != text

    context = new_browser_context(viewport=PHONE)
    log_in(context, live_server, event.organiser)
    page = context.new_page()
    page.goto(f"/events/{event.slug}/manage/")
    page.locator("#walk-in-name").fill("Walter")
    page.locator("#walk-in-list").fill(broken)
    page.get_by_role("button", name="Add the walk-in").click()
    error = page.locator("#walk-in-list-error")
    expect(error).to_contain_text("This list cannot be read:")
    expect(error).to_contain_text("“Flying Tank”")
    expect(page.locator("#walk-in-list")).to_have_value(broken)  # exactly as pasted
    expect(page.locator("#walk-in-name")).to_have_value("Walter")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    page.locator("#walk-in-list").fill(text)
    page.get_by_role("button", name="Add the walk-in").click()
    expect(page.locator("body")).to_contain_text("Walter is entered with their list, waiting for your approval.")
    walk_in = Entrant.objects.get(event=event, walk_in_name="Walter")
    expect(page.locator(f"#entrant-{walk_in.pk}")).to_contain_text("Walter's platoon")
    assert Submission.objects.get(entrant=walk_in).points == 100
