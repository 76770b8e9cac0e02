"""The season's standings are live: an open season page, on a phone, shows a result that comes in
(here a second event added to the season) without a reload, as an event's standings do."""

from __future__ import annotations

import datetime

import pytest
from playwright.sync_api import expect

from armybuilder.leagues import views
from armybuilder.leagues.models import Season
from tests.leagues.test_season_browser import PHONE, _played_event
from tests.lists.factories import make_edition, make_user


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_season_standings_follow_new_results_without_a_reload(
    django_db_setup, live_server, new_browser_context, monkeypatch
):
    monkeypatch.setattr(views, "SEASON_POLL_SECONDS", 1)  # the page's own interval, shortened for the test
    organiser = make_user("orga")
    anne, bob = make_user("anne", first_name="Anne"), make_user("bob", first_name="Bob")
    # January: Anne beat Bob (100 and 50). February: Bob beat Anne (Bob 100, Anne 50).
    january = _played_event(organiser, [anne, bob], ["a"], day=datetime.date(2026, 1, 10), name="January")
    february = _played_event(organiser, [bob, anne], ["a"], day=datetime.date(2026, 2, 10), name="February")
    season = Season.objects.create(organiser=organiser, name="Live season", edition=make_edition("v3"), published=True)
    season.events.set([january])

    page = new_browser_context(viewport=PHONE).new_page()
    page.goto(f"/seasons/{season.slug}/")
    bob_row = page.locator("#season-standings tbody tr").filter(has=page.get_by_role("link", name="Bob"))
    expect(bob_row.locator("td").nth(2)).to_have_text("50")
    marker = page.evaluate("() => { window.notReloaded = true; return window.notReloaded; }")
    assert marker is True

    season.events.add(february)
    expect(bob_row.locator("td").nth(2)).to_have_text("150", timeout=30_000)
    expect(bob_row.locator(".counted")).to_have_text(["100", "50"])  # best first
    assert page.evaluate("() => window.notReloaded === true")  # swapped in place, not reloaded
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
