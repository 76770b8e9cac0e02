"""League games in a real browser on a phone, without JavaScript needed: a player reports a game
against another, the opponent confirms it, and the season's standings count it; no page scrolls
sideways at 390 px."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from armybuilder.leagues.models import LeagueGame, Season
from tests.conftest import log_in
from tests.lists.factories import make_edition, make_user

PHONE = {"width": 390, "height": 844}


def _no_sideways_scroll(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"] + 1


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_report_and_confirm_a_league_game_on_a_phone(django_db_setup, live_server, new_browser_context):
    organiser = make_user("orga")
    anne = make_user("anne", first_name="Anne")
    bob = make_user("bob_with_a_rather_long_username_for_a_phone", first_name="Bartholomew-Maximilian")
    season = Season.objects.create(
        organiser=organiser, name="Club league", edition=make_edition("v3"), published=True, reports_open=True
    )
    url = f"/seasons/{season.slug}/"

    reporter = new_browser_context(viewport=PHONE, java_script_enabled=False)
    log_in(reporter, live_server, anne)
    page = reporter.new_page()
    page.goto(url)
    _no_sideways_scroll(page)
    page.get_by_label("Opponent (username)").fill("anne")
    page.get_by_label("I won").check()
    page.get_by_role("button", name="Report the game").click()
    expect(page.get_by_text("You cannot report a game against yourself.")).to_be_visible()
    _no_sideways_scroll(page)
    page.get_by_label("Opponent (username)").fill(bob.username)
    page.get_by_label("Mission").fill("Hold until relieved")
    page.get_by_role("button", name="Report the game").click()
    expect(page.get_by_text("it counts once Bartholomew-Maximilian confirms it")).to_be_visible()
    expect(page.get_by_text("Waiting for Bartholomew-Maximilian to confirm.")).to_be_visible()
    _no_sideways_scroll(page)

    opponent = new_browser_context(viewport=PHONE, java_script_enabled=False)
    log_in(opponent, live_server, bob)
    other = opponent.new_page()
    other.goto(url)
    other.get_by_role("button", name="Confirm").click()
    expect(other.get_by_text("The game is confirmed: it counts in the standings.")).to_be_visible()
    expect(other.locator(".standings tbody tr").first).to_contain_text("Anne")
    _no_sideways_scroll(other)
    assert LeagueGame.objects.get().confirmed

    other.goto(f"/players/{anne.username}/")
    expect(other.get_by_text("won against Bartholomew-Maximilian")).to_be_visible()
    _no_sideways_scroll(other)
